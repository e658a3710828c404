#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make series [KVER=6.1|6.12]: write the patch series that puts our maple
# tree into Debian's linux-source-$KVER (6.1 by default), as git
# format-patch files in $SERIES_OUT (default build/series for 6.1,
# build/series-6.12 for 6.12), with a cover letter.  Needs git and that
# source package only (scripts/apt-install.sh installs it as root).
#
#   0000 the cover letter: scripts/series/cover.msg (cover-6.12.msg for
#        6.12): what, why, the measurements, how it was tested, with the
#        patches listed and a count of checkpatch --strict's warnings by
#        type and patch filled in
#   move the kernel's lib/maple_tree.c becomes lib/maple_tree_old.c,
#        unchanged, and the kernel builds and links it under that name
#   tree the new tree in steps: lib/maple_tree.c growing section by
#        section as scripts/series/steps says (scripts/series/sections.awk)
#        from the first step, which also brings our header as
#        lib/maple_tree_new.h; until the switch lib/maple_tree.c is built
#        (sparse, W=1) with that header in place of <linux/maple_tree.h>,
#        but not linked.  The last step leaves lib/maple_tree.c exactly ours
#   switch our header becomes include/linux/maple_tree.h, lib/maple_tree.c
#        is linked in place of lib/maple_tree_old.c, which goes, and
#        lib/Makefile and MAINTAINERS are the kernel's again
#   kunit lib/maple_tree_kunit.c with its Kconfig entry (taken from our
#        top-level Kconfig), its lib/Makefile line and its line in the
#        MAPLE TREE entry of MAINTAINERS
#   doc  the kernel's Documentation/core-api/maple_tree.rst says what
#        this tree promises RCU readers and preallocating writers
#        (scripts/series/doc.awk and doc-*.rst)
#   fork (6.1 only) dup_mmap() copies the VMA tree with __mt_dup() and
#        then puts the child's VMAs in place (scripts/series/fork.awk
#        edits the kernel's own kernel/fork.c).  Linux 6.12's dup_mmap()
#        does so already.
#
# So every patch builds and links: before the switch the kernel runs on
# its own tree, from the switch on on ours, with every function its
# callers need (mm/, kernel/fork.c, fs/, lib/test_maple_tree.c) already
# there.  scripts/apply-series.sh --prefixes checks it.  Each step's
# commit message is scripts/series/<step>.msg, or <step>-<KVER>.msg where
# that exists; @KVER@, @KERNELVERSION@, @DEBIANVERSION@, @TOTAL@,
# @PATCH:<step>@ (a patch's number) and @LASTSTEP@ (the number of the
# tree's last step) are filled in.
#
# Every step is made from our files as they are, so the series follows
# them: a section of lib/maple_tree.c that no step names, or a step
# naming a section the file lacks, stops it (a renamed section cannot
# fall out of the series silently).
#
# The patches are made in a scratch git repository holding only the
# kernel files the series touches and exported with --zero-commit and no
# signature; the move is shown as a rename, every other patch without
# rename detection and a rewritten file whole (-B).  Every patch and the
# cover letter are from this repository's git user.name and user.email
# (a fixed "maple <maple@localhost>" where they are not set).  Each
# patch's Date: is that of the last commit of this project that changed
# the files it is made from (a fixed date outside a git checkout), the
# cover letter's the newest of them, so the same commit always gives
# byte-identical patches.  SIGNOFF=1 adds a Signed-off-by: of that
# identity to every patch; without it Signed-off-by is left to whoever
# submits them, and the cover letter says so.  The folder also holds
# "series" (the patches in order, the cover letter left out) and "base"
# (the kernel version it applies to: scripts/apply-series.sh reads it).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

kver=${KVER:-6.1}
case $kver in
6.1|6.12) ;;
*) echo "make-series: KVER=$kver: the series is made for 6.1 or 6.12" >&2; exit 2 ;;
esac
tarball=/usr/src/linux-source-$kver.tar.xz
if [ ! -f "$tarball" ]; then
	scripts/apt-install.sh "linux-source-$kver" ||
		{ echo "make-series: no $tarball" >&2; exit 1; }
fi
src=$(LINUX_SRC_TARBALL=$tarball scripts/linux-src.sh)
if [ "$kver" = 6.1 ]; then
	out=${SERIES_OUT:-$top/build/series}
else
	out=${SERIES_OUT:-$top/build/series-$kver}
fi
touched=(include/linux/maple_tree.h lib/maple_tree.c lib/Kconfig.debug
	 lib/Makefile MAINTAINERS Documentation/core-api/maple_tree.rst)
[ "$kver" = 6.1 ] && touched+=(kernel/fork.c)
sdir=scripts/series

scratch=$(mktemp -d /tmp/maple-series.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/linux

# One identity for every patch and the cover letter.
name=$(git config user.name 2>/dev/null || true)
email=$(git config user.email 2>/dev/null || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	echo "make-series: no git user.name and user.email here; the patches are from maple <maple@localhost>" >&2
	name=maple
	email=maple@localhost
fi
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
export GIT_AUTHOR_DATE="2024-01-01T00:00:00+0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
export GIT_CONFIG_NOSYSTEM=1 HOME=$scratch
git init -q "$repo"
g() { git -C "$repo" "$@"; }
g config core.autocrlf false

kversion=$(make -s -C "$src" kernelversion 2>/dev/null || echo "$kver")
dversion=$(dpkg-query -W -f '${Version}' "linux-source-$kver" 2>/dev/null ||
	   echo "(version unknown)")
for f in "${touched[@]}"; do
	mkdir -p "$repo/$(dirname "$f")"
	cp "$src/$f" "$repo/$f"
done
g add -A
g commit -q -m "Linux $kversion (Debian linux-source-$kver)"
base=$(g rev-parse HEAD)

# The patches, in order: the names of their steps.
mapfile -t steps < <(awk -F '\t' '!/^#/ && NF > 1 && !seen[$1]++ { print $1 }' $sdir/steps)
[ ${#steps[@]} -gt 0 ] || { echo "make-series: no step in $sdir/steps" >&2; exit 1; }
for step in "${steps[@]}"; do
	case $step in move|switch|kunit|doc|fork|cover)
		echo "make-series: step name $step in $sdir/steps is taken" >&2
		exit 1 ;;
	esac
done
plan=(move "${steps[@]}" switch kunit doc)
[ "$kver" = 6.1 ] && plan+=(fork)
total=${#plan[@]}

# msg <step>: its commit message file, for this kernel version if there
# is one.
msg() {
	if [ -f "$sdir/$1-$kver.msg" ]; then
		echo "$sdir/$1-$kver.msg"
	elif [ -f "$sdir/$1.msg" ]; then
		echo "$sdir/$1.msg"
	else
		echo "make-series: no $sdir/$1.msg" >&2
		exit 1
	fi
}
# fill <file>: the file with its placeholders filled in.
fill() {
	awk -v kv="$kversion" -v dv="$dversion" -v kver="$kver" \
	    -v total="$total" -v plan="${plan[*]}" '
		BEGIN { n = split(plan, p, " "); for (i = 1; i <= n; i++) num[p[i]] = i }
		{
			while (match($0, /@PATCH:[a-z0-9_]+@/)) {
				s = substr($0, RSTART + 7, RLENGTH - 8)
				if (!(s in num)) {
					print "make-series: no patch " s " in this series" > "/dev/stderr"
					exit 1
				}
				$0 = substr($0, 1, RSTART - 1) num[s] substr($0, RSTART + RLENGTH)
			}
			gsub(/@LASTSTEP@/, num["switch"] - 1)
			gsub(/@KVER@/, kver); gsub(/@KERNELVERSION@/, kv)
			gsub(/@DEBIANVERSION@/, dv); gsub(/@TOTAL@/, total)
			print
		}
	' "$1"
}

# authored <path>...: the next patch's date, from the last commit of ours
# that changed those paths.
authored() {
	local when

	when=$(git -C "$top" log -1 --format=%aI -- "$@" 2>/dev/null) || when=
	[ -n "$when" ] || return 0
	GIT_AUTHOR_DATE=$when
	GIT_COMMITTER_DATE=$when
}

commit() {	# commit <step>
	local m so=()

	m=$(msg "$1")
	[ "${SIGNOFF:-0}" = 1 ] && so=(--signoff)
	fill "$m" >"$scratch/msg"
	g add -A
	if g diff --cached --quiet; then
		echo "make-series: step $1 changes nothing" >&2
		exit 1
	fi
	g commit -q "${so[@]}" -F "$scratch/msg"
}

# maint_add <path>: add "F:<tab><path>" to the MAPLE TREE entry of the
# scratch MAINTAINERS, among its F: lines in order.
maint_add() {
	LC_ALL=C awk -v f="$1" '
		/^MAPLE TREE$/ { inentry = 1 }
		inentry && /^F:\t/ && !done && substr($0, 4) > f {
			print "F:\t" f; done = 1
		}
		inentry && /^$/ {
			if (!done) { print "F:\t" f; done = 1 }
			inentry = 0
		}
		{ print }
		END { if (!done) exit 1 }
	' "$repo/MAINTAINERS" >"$scratch/MAINTAINERS" || {
		echo "make-series: no MAPLE TREE entry in MAINTAINERS" >&2
		exit 1
	}
	mv "$scratch/MAINTAINERS" "$repo/MAINTAINERS"
}

# The tree, in the steps of scripts/series/steps.  Check the mapping
# first: every section in a step, every step's section in the file.
awk -v upto=0 -f $sdir/sections.awk $sdir/steps lib/maple_tree.c >/dev/null || {
	echo "make-series: scripts/series/steps does not fit lib/maple_tree.c" >&2
	exit 1
}

# move: the kernel's tree under another name, so that ours can grow at
# lib/maple_tree.c while the kernel still links the old one.
g mv lib/maple_tree.c lib/maple_tree_old.c
awk '
	/^lib-y[ \t]*:?=/ { inlib = 1 }
	inlib && / maple_tree\.o / { sub(/ maple_tree\.o /, " maple_tree_old.o "); done++ }
	inlib && !/\\$/ { inlib = 0 }
	{ print }
	END { if (done != 1) exit 1 }
' "$src/lib/Makefile" >"$repo/lib/Makefile" || {
	echo "make-series: no maple_tree.o in lib-y of lib/Makefile" >&2
	exit 1
}
maint_add lib/maple_tree_old.c
authored "$(msg move)" scripts/make-series.sh
commit move

# The steps.  The first also brings our header, as lib/maple_tree_new.h,
# and the lines of lib/Makefile that build lib/maple_tree.c with it.
cp include/linux/maple_tree.h "$repo/lib/maple_tree_new.h"
awk '
	/^lib-y[ \t]*:?=/ { inlib = 1 }
	{ print }
	inlib && !/\\$/ {
		inlib = 0; done++
		print ""
		print "# The new maple tree is built beside the current one (maple_tree_old.o)"
		print "# until it takes its place: compiled with its own header, which stands"
		print "# in for <linux/maple_tree.h> until then, but not linked."
		print "always-y += maple_tree.o"
		print "CFLAGS_maple_tree.o += -include $(srctree)/lib/maple_tree_new.h"
	}
	END { if (done != 1) exit 1 }
' "$repo/lib/Makefile" >"$scratch/Makefile" || {
	echo "make-series: no lib-y list in lib/Makefile" >&2
	exit 1
}
mv "$scratch/Makefile" "$repo/lib/Makefile"
maint_add lib/maple_tree_new.h
n=0
for step in "${steps[@]}"; do
	n=$((n + 1))
	awk -v upto=$n -f $sdir/sections.awk $sdir/steps lib/maple_tree.c \
		>"$repo/lib/maple_tree.c"
	if [ $n = 1 ]; then
		authored include/linux/maple_tree.h lib/maple_tree.c $sdir/steps \
			$sdir/sections.awk "$(msg "$step")" scripts/make-series.sh
	else
		authored lib/maple_tree.c $sdir/steps $sdir/sections.awk "$(msg "$step")"
	fi
	commit "$step"
done
cmp -s lib/maple_tree.c "$repo/lib/maple_tree.c" || {
	echo "make-series: the last step's lib/maple_tree.c is not ours" >&2
	exit 1
}

# switch: our header in its place, lib/maple_tree.c linked, the old tree
# and the stand-in header gone; lib/Makefile and MAINTAINERS are the
# kernel's again.
cp include/linux/maple_tree.h "$repo/include/linux/maple_tree.h"
g rm -q lib/maple_tree_old.c lib/maple_tree_new.h
cp "$src/lib/Makefile" "$repo/lib/Makefile"
cp "$src/MAINTAINERS" "$repo/MAINTAINERS"
authored include/linux/maple_tree.h "$(msg switch)" scripts/make-series.sh
commit switch

# kunit: the KUnit suites.  Their Kconfig entry is the one of our
# Kconfig, placed after the kernel's TEST_MAPLE_TREE entry (an entry ends
# where the next Kconfig statement starts).
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
	intest && /^(config|menuconfig|menu|endmenu|if|endif|source|comment|choice|endchoice)( |$)/ {
		while ((getline l < entry) > 0)
			print l
		print ""
		intest = 0; done = 1
	}
	{ print }
	/^config TEST_MAPLE_TREE$/ { intest = 1 }
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
maint_add lib/maple_tree_kunit.c
authored lib/maple_tree_kunit.c Kconfig "$(msg kunit)"
commit kunit

# doc: the kernel's maple_tree.rst, edited by scripts/series/doc.awk,
# which holds none of the kernel's lines (its text is in doc-*.rst).
f=Documentation/core-api/maple_tree.rst
awk -v dir=$sdir -f $sdir/doc.awk "$src/$f" >"$repo/$f" || {
	echo "make-series: scripts/series/doc.awk does not fit $f" >&2
	exit 1
}
authored $sdir/doc.awk $sdir/doc-*.rst "$(msg doc)"
commit doc

# fork (6.1): dup_mmap() duplicates the VMA tree whole.  The kernel's own
# kernel/fork.c is edited by scripts/series/fork.awk, which holds only
# our lines and fails unless every edit is made exactly once.
if [ "$kver" = 6.1 ]; then
	awk -f $sdir/fork.awk "$src/kernel/fork.c" >"$repo/kernel/fork.c" || {
		echo "make-series: scripts/series/fork.awk does not fit kernel/fork.c" >&2
		exit 1
	}
	authored $sdir/fork.awk "$(msg fork)"
	commit fork
fi
[ "$(g rev-list --count "$base..HEAD")" = "$total" ] || {
	echo "make-series: $(g rev-list --count "$base..HEAD") commits for $total patches" >&2
	exit 1
}

# Export.  The cover letter is from the same identity, dated as the
# newest patch.  A patch that moves a file is taken from a run with
# rename detection (a rename, not the file removed and added whole);
# every other from a run without it, where -B shows a file rewritten
# from scratch as all of the old lines removed and all of the new added
# (with renames, git would pair the header's new text with the stand-in
# header removed in the same patch and lose the old header's removal).
GIT_AUTHOR_DATE=$(g log --format='%at %aI' "$base..HEAD" | sort -n | tail -n 1 | cut -d ' ' -f 2)
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
rm -rf "$out"
mkdir -p "$out"
g format-patch -q --zero-commit --no-signature --cover-letter --no-renames -B \
	-o "$out" "$base..HEAD" >/dev/null
g format-patch -q --zero-commit --no-signature -M \
	-o "$scratch/renames" "$base..HEAD" >/dev/null
cover=$out/0000-cover-letter.patch
(cd "$out" && ls *.patch | grep -v -x 0000-cover-letter.patch >series)
mapfile -t patches <"$out/series"
[ ${#patches[@]} = "$total" ] || { echo "make-series: ${#patches[@]} patches for $total" >&2; exit 1; }
i=0
for c in $(g rev-list --reverse "$base..HEAD"); do
	if g diff-tree -r -M --name-status "$c" | grep -q '^R'; then
		cp "$scratch/renames/${patches[$i]}" "$out/${patches[$i]}"
	fi
	i=$((i + 1))
done
printf 'kver %s\ntarball %s\nkernelversion %s\ndebian %s\n' "$kver" "$tarball" \
	"$kversion" "$dversion" >"$out/base"

# The cover letter: scripts/series/cover.msg (cover-<KVER>.msg) with its
# placeholders filled.  @STEPS@: each patch, and for the tree's steps
# their sections and lines.
{
	n=0
	prev=0
	i=0
	for step in "${plan[@]}"; do
		i=$((i + 1))
		printf '  %*d/%d %s\n' ${#total} $i $total "$(fill "$(msg "$step")" | head -n 1)"
		case " ${steps[*]} " in *" $step "*) ;; *) continue ;; esac
		n=$((n + 1))
		lines=$(awk -v upto=$n -f $sdir/sections.awk $sdir/steps lib/maple_tree.c | wc -l)
		awk -F '\t' -v s="$step" '!/^#/ && $1 == s { print $2 }' $sdir/steps |
			paste -s -d ';' | sed 's/;/; /g' |
			sed "s/\$/ (lib\/maple_tree.c +$((lines - prev)) lines)/" |
			fmt -w 66 | sed 's/^/      /'
		prev=$lines
	done
} >"$scratch/steps.txt"

# @CHECKPATCH@: checkpatch.pl --strict of the kernel tree, run from its
# top as a reviewer would, on every patch: each type it reports, the
# count per patch, and the reason from scripts/series/checkpatch-accepted
# (or "NOT JUSTIFIED").  Without SIGNOFF=1, Signed-off-by is the
# submitter's to add and its absence is not counted.
ignore=()
[ "${SIGNOFF:-0}" = 1 ] || ignore=(--ignore MISSING_SIGN_OFF)
(cd "$src" && perl scripts/checkpatch.pl --strict --terse --show-types \
	--no-summary "${ignore[@]}" "${patches[@]/#/$out/}") \
	>"$scratch/checkpatch.log" 2>&1 || true
sed -n -E 's#^.*/([0-9]{4})-[^/]*\.patch:[0-9]+: (ERROR|WARNING|CHECK):([A-Z0-9_]+):.*#\3 \2 \1#p' \
	"$scratch/checkpatch.log" | sort | uniq -c |
	awk '{ key = $2 " " $3; if (!(key in c)) order[++n] = key
	       c[key] = c[key] (c[key] == "" ? "" : ", ") $1 " in " ($4 + 0) }
	     END { for (i = 1; i <= n; i++) print order[i] "\t" c[order[i]] }' \
	>"$scratch/checkpatch.types"
{
	aside=
	[ "${SIGNOFF:-0}" = 1 ] || aside=" (the missing Signed-off-by aside)"
	echo "Run from the top of the tree on every patch$aside; the warnings" \
	     "and checks by type, with their count in each patch and why they" \
	     "stay:" | fmt -w 72
	echo
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

# @SIGNOFF@: who certifies the patches.
if [ "${SIGNOFF:-0}" = 1 ]; then
	fmt -w 72 <<EOF
Every patch carries the Signed-off-by: of its author, $name <$email>,
added when the series was made (make series SIGNOFF=1).
EOF
else
	cat <<EOF
No patch has a Signed-off-by: line.  They are generated by the maple
project (make series), and certifying them under the Developer's
Certificate of Origin is for whoever submits them (make series
SIGNOFF=1 adds the author's).
EOF
fi >"$scratch/signoff.txt"

if [ -f "$sdir/cover-$kver.msg" ]; then cmsg=$sdir/cover-$kver.msg; else cmsg=$sdir/cover.msg; fi
fill "$cmsg" | awk -v steps="$scratch/steps.txt" -v cp="$scratch/checkpatch.txt" \
    -v so="$scratch/signoff.txt" '
	function cat(f,   l) { while ((getline l < f) > 0) print l; close(f) }
	$0 == "@STEPS@" { cat(steps); next }
	$0 == "@CHECKPATCH@" { cat(cp); next }
	$0 == "@SIGNOFF@" { cat(so); next }
	{ print }
' >"$scratch/cover.txt"
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
echo "make-series: $total patches for Linux $kversion and a cover letter in $out:"
sed 's/^/  /' "$out/series"
