#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: write the patch series that puts our maple tree into
# Debian's linux-source-6.1, as git format-patch files in $SERIES_OUT
# (default build/series), with a cover letter:
#
#   0000 the cover letter: scripts/series/cover.msg (what, why, the
#        measurements, how it was tested, checkpatch), with the kernel's
#        version and a count of checkpatch --strict's warnings by type
#        and patch filled in
#   0001 .. the tree in steps: include/linux/maple_tree.h whole in the
#        first, lib/maple_tree.c growing section by section as
#        scripts/series/steps says (scripts/series/sections.awk), each
#        step's message in scripts/series/<step>.msg; the last of these
#        steps leaves lib/maple_tree.c exactly ours
#   then lib/maple_tree_kunit.c with its Kconfig entry (taken from our
#        top-level Kconfig), its lib/Makefile line and its line in the
#        MAPLE TREE entry of MAINTAINERS (kunit.msg)
#   last fork: dup_mmap() copies the VMA tree with __mt_dup() and then
#        puts the child's VMAs in place (scripts/series/fork.awk edits the
#        kernel's own kernel/fork.c; fork.msg)
#
# Every step is made from our files as they are, so the series follows
# them: a section of lib/maple_tree.c that no step names, or a step
# naming a section the file lacks, stops it (a renamed section cannot
# fall out of the series silently).
#
# The patches are made in a scratch git repository holding only the
# kernel files the series touches and exported with --zero-commit and no
# signature.  Each patch's From: and Date: are the author and date of
# the last commit of this project that changed the files it is made from
# (a fixed author and date outside a git checkout), so the same commit
# always gives byte-identical patches.  Signed-off-by is left to whoever
# submits them, and the cover letter says so.  scripts/apply-series.sh
# applies them, and with --prefixes builds every prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

src=$(scripts/linux-src.sh)
out=${SERIES_OUT:-$top/build/series}
touched=(include/linux/maple_tree.h lib/maple_tree.c lib/Kconfig.debug
	 lib/Makefile MAINTAINERS kernel/fork.c)

scratch=$(mktemp -d /tmp/maple-series.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/linux

export GIT_AUTHOR_NAME="maple" GIT_AUTHOR_EMAIL="maple@localhost"
export GIT_COMMITTER_NAME="maple" GIT_COMMITTER_EMAIL="maple@localhost"
export GIT_AUTHOR_DATE="2024-01-01T00:00:00+0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
export GIT_CONFIG_NOSYSTEM=1 HOME=$scratch
git init -q "$repo"
g() { git -C "$repo" "$@"; }
g config core.autocrlf false

for f in "${touched[@]}"; do
	mkdir -p "$repo/$(dirname "$f")"
	cp "$src/$f" "$repo/$f"
done
g add -A
g commit -q -m "Linux $(make -s -C "$src" kernelversion 2>/dev/null || echo 6.1) (Debian linux-source-6.1)"
base=$(g rev-parse HEAD)

# authored <path>...: the next patch's author and date, from the last
# commit of ours that changed those paths.
authored() {
	local who

	who=$(git -C "$top" log -1 --format='%an%x09%ae%x09%aI' -- "$@" \
		2>/dev/null) || who=
	[ -n "$who" ] || return 0
	IFS=$'\t' read -r GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE <<<"$who"
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
}

commit() {	# commit <message file>
	g add -A
	if g diff --cached --quiet; then
		echo "make-series: step $(basename "$1") changes nothing" >&2
		exit 1
	fi
	g commit -q -F "$1"
}

# The tree, in the steps of scripts/series/steps.  Check the mapping
# first: every section in a step, every step's section in the file.
sdir=scripts/series
awk -v upto=0 -f $sdir/sections.awk $sdir/steps lib/maple_tree.c >/dev/null || {
	echo "make-series: scripts/series/steps does not fit lib/maple_tree.c" >&2
	exit 1
}
mapfile -t steps < <(awk -F '\t' '!/^#/ && NF > 1 && !seen[$1]++ { print $1 }' $sdir/steps)
[ ${#steps[@]} -gt 0 ] || { echo "make-series: no step in $sdir/steps" >&2; exit 1; }
cp include/linux/maple_tree.h "$repo/include/linux/maple_tree.h"
n=0
for step in "${steps[@]}"; do
	n=$((n + 1))
	case $step in kunit|fork|cover)
		echo "make-series: step name $step in $sdir/steps is taken" >&2
		exit 1 ;;
	esac
	[ -f "$sdir/$step.msg" ] || { echo "make-series: no $sdir/$step.msg" >&2; exit 1; }
	awk -v upto=$n -f $sdir/sections.awk $sdir/steps lib/maple_tree.c \
		>"$repo/lib/maple_tree.c"
	authored include/linux/maple_tree.h lib/maple_tree.c $sdir/steps \
		$sdir/sections.awk "$sdir/$step.msg"
	commit "$top/$sdir/$step.msg"
done
cmp -s lib/maple_tree.c "$repo/lib/maple_tree.c" || {
	echo "make-series: the last step's lib/maple_tree.c is not ours" >&2
	exit 1
}

# The KUnit suites.  Their Kconfig entry is the one of our Kconfig,
# placed after the kernel's TEST_MAPLE_TREE entry (an entry ends at the
# next blank line followed by a Kconfig statement).
cp lib/maple_tree_kunit.c "$repo/lib/maple_tree_kunit.c"
awk '
	/^config / { keep = ($2 == "MAPLE_TREE_KUNIT_TEST") }
	/^(menu|endmenu|if|endif|source|comment|choice|endchoice)( |$)/ { keep = 0 }
	keep { print }
' Kconfig | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$scratch/kunit.kconfig"
grep -q '^config MAPLE_TREE_KUNIT_TEST$' "$scratch/kunit.kconfig" || {
	echo "make-series: no MAPLE_TREE_KUNIT_TEST entry in Kconfig" >&2
	exit 1
}
awk -v entry="$scratch/kunit.kconfig" '
	{ print }
	/^config TEST_MAPLE_TREE$/ { intest = 1; next }
	intest && /^$/ {
		while ((getline l < entry) > 0)
			print l
		print ""
		intest = 0; done = 1
	}
	END { if (!done) exit 1 }
' "$src/lib/Kconfig.debug" >"$repo/lib/Kconfig.debug" || {
	echo "make-series: no TEST_MAPLE_TREE entry in lib/Kconfig.debug" >&2
	exit 1
}
awk '
	{ print }
	/^obj-\$\(CONFIG_TEST_MAPLE_TREE\) \+= test_maple_tree\.o$/ {
		print "obj-$(CONFIG_MAPLE_TREE_KUNIT_TEST) += maple_tree_kunit.o"
		done = 1
	}
	END { if (!done) exit 1 }
' "$src/lib/Makefile" >"$repo/lib/Makefile" || {
	echo "make-series: no test_maple_tree.o line in lib/Makefile" >&2
	exit 1
}
# The new file joins the MAPLE TREE entry of MAINTAINERS (as in ours).
awk '
	{ print }
	/^MAPLE TREE$/ { inentry = 1 }
	inentry && /^F:\tlib\/maple_tree\.c$/ {
		print "F:\tlib/maple_tree_kunit.c"
		inentry = 0; done = 1
	}
	END { if (!done) exit 1 }
' "$src/MAINTAINERS" >"$repo/MAINTAINERS" || {
	echo "make-series: no MAPLE TREE entry in MAINTAINERS" >&2
	exit 1
}
authored lib/maple_tree_kunit.c Kconfig $sdir/kunit.msg
commit "$top/$sdir/kunit.msg"

# fork duplicates the VMA tree whole.  The kernel's own
# kernel/fork.c is edited by scripts/series/fork.awk, which holds
# only our lines and fails unless every edit is made exactly once.
awk -f $sdir/fork.awk "$src/kernel/fork.c" \
	>"$repo/kernel/fork.c" || {
	echo "make-series: scripts/series/fork.awk does not fit kernel/fork.c" >&2
	exit 1
}
authored $sdir/fork.awk $sdir/fork.msg
commit "$top/$sdir/fork.msg"

rm -rf "$out"
mkdir -p "$out"
# The cover letter's own From: and Date: are those of the last patch.
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
GIT_AUTHOR_NAME=$(g log -1 --format=%an) GIT_AUTHOR_EMAIL=$(g log -1 --format=%ae)
GIT_AUTHOR_DATE=$(g log -1 --format=%aI)
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
g format-patch -q --zero-commit --no-signature --cover-letter -B \
	-o "$out" "$base..HEAD" >/dev/null
cover=$out/0000-cover-letter.patch
(cd "$out" && ls *.patch | grep -v -x 0000-cover-letter.patch >series)
mapfile -t patches <"$out/series"
total=${#patches[@]}

# The cover letter: scripts/series/cover.msg with its placeholders
# filled.  @STEPS@: each patch of the tree with its sections and lines.
{
	n=0
	prev=0
	for step in "${steps[@]}"; do
		n=$((n + 1))
		lines=$(awk -v upto=$n -f $sdir/sections.awk $sdir/steps lib/maple_tree.c | wc -l)
		echo "  $n/$total $(head -n 1 "$sdir/$step.msg")"
		awk -F '\t' -v s="$step" '!/^#/ && $1 == s { print $2 }' $sdir/steps |
			paste -s -d ';' | sed 's/;/; /g' |
			sed "s/\$/ (lib\/maple_tree.c +$((lines - prev)) lines)/" |
			fmt -w 66 | sed 's/^/      /'
		prev=$lines
	done
	echo "  $((n + 1))/$total $(head -n 1 "$sdir/kunit.msg")"
	echo "  $((n + 2))/$total $(head -n 1 "$sdir/fork.msg")"
} >"$scratch/steps.txt"

# @CHECKPATCH@: checkpatch.pl --strict of the kernel tree, run from its
# top as a reviewer would, on every patch: each type it reports, the
# count per patch, and the reason from scripts/series/checkpatch-accepted
# (or "NOT JUSTIFIED").  Signed-off-by is the submitter's to add.
(cd "$src" && perl scripts/checkpatch.pl --strict --terse --show-types \
	--no-summary --ignore MISSING_SIGN_OFF "${patches[@]/#/$out/}") \
	>"$scratch/checkpatch.log" 2>&1 || true
sed -n -E 's#^.*/([0-9]{4})-[^/]*\.patch:[0-9]+: (ERROR|WARNING|CHECK):([A-Z0-9_]+):.*#\3 \2 \1#p' \
	"$scratch/checkpatch.log" | sort | uniq -c |
	awk '{ key = $2 " " $3; if (!(key in c)) order[++n] = key
	       c[key] = c[key] (c[key] == "" ? "" : ", ") $1 " in " ($4 + 0) }
	     END { for (i = 1; i <= n; i++) print order[i] "\t" c[order[i]] }' \
	>"$scratch/checkpatch.types"
{
	nerr=$(grep -c ': ERROR:' "$scratch/checkpatch.log" || true)
	echo "  $nerr errors"
	[ -s "$scratch/checkpatch.types" ] || echo "  no warnings or checks"
	while IFS=$'\t' read -r key counts; do
		type=${key% *}
		echo "  ${key#* }:$type ($counts)"
		why=$(awk -F '\t' -v t="$type" '!/^#/ && $1 == t { print $2 }' \
			$sdir/checkpatch-accepted)
		[ -n "$why" ] || why="NOT JUSTIFIED: no reason in scripts/series/checkpatch-accepted"
		echo "$why" | fmt -w 66 | sed 's/^/      /'
	done <"$scratch/checkpatch.types"
} >"$scratch/checkpatch.txt"
if grep -q 'NOT JUSTIFIED' "$scratch/checkpatch.txt"; then
	echo "make-series: checkpatch --strict types with no reason in $sdir/checkpatch-accepted:" >&2
	grep -B1 'NOT JUSTIFIED' "$scratch/checkpatch.txt" | grep -v 'NOT JUSTIFIED' >&2
fi

kversion=$(make -s -C "$src" kernelversion 2>/dev/null || echo 6.1)
dversion=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null || echo "(version unknown)")
awk -v steps="$scratch/steps.txt" -v cp="$scratch/checkpatch.txt" \
    -v kv="$kversion" -v dv="$dversion" '
	function cat(f,   l) { while ((getline l < f) > 0) print l; close(f) }
	$0 == "@STEPS@" { cat(steps); next }
	$0 == "@CHECKPATCH@" { cat(cp); next }
	{ gsub(/@KERNELVERSION@/, kv); gsub(/@DEBIANVERSION@/, dv); print }
' $sdir/cover.msg >"$scratch/cover.txt"
head -n 1 "$scratch/cover.txt" >"$scratch/cover.subject"
tail -n +3 "$scratch/cover.txt" >"$scratch/cover.body"
awk -v subj="$(cat "$scratch/cover.subject")" -v body="$scratch/cover.body" '
	/^Subject: .*\*\*\* SUBJECT HERE \*\*\*$/ {
		sub(/\*\*\* SUBJECT HERE \*\*\*$/, subj); print; done++; next
	}
	$0 == "*** BLURB HERE ***" {
		while ((getline l < body) > 0) print l
		done++; next
	}
	{ print }
	END { if (done != 2) exit 1 }
' "$cover" >"$scratch/cover.patch" || {
	echo "make-series: git format-patch wrote an unexpected cover letter" >&2
	exit 1
}
mv "$scratch/cover.patch" "$cover"
echo "make-series: $total patches and a cover letter in $out:"
sed 's/^/  /' "$out/series"
