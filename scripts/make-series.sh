#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: write the patch series that puts our maple tree into
# Debian's linux-source-6.1, as git format-patch files in $SERIES_OUT
# (default build/series):
#
#   0001 maple_tree: our include/linux/maple_tree.h and lib/maple_tree.c
#        in place of the kernel's
#   0002 lib/maple_tree_kunit.c with its Kconfig entry (taken from our
#        top-level Kconfig), its lib/Makefile line and its line in the
#        MAPLE TREE entry of MAINTAINERS
#   0003 fork: dup_mmap() copies the VMA tree with __mt_dup() and then
#        puts the child's VMAs in place (scripts/series/0003-fork.awk
#        edits the kernel's own kernel/fork.c)
#
# The patches are made in a scratch git repository holding only the
# kernel files the series touches and exported with --zero-commit and no
# signature.  Each patch's From: and Date: are the author and date of
# the last commit of this project that changed the files it is made from
# (a fixed author and date outside a git checkout), so the same commit
# always gives byte-identical patches.  Signed-off-by is left to whoever
# submits them.  scripts/apply-series.sh applies them.
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

# 0001: the tree.
cp include/linux/maple_tree.h "$repo/include/linux/maple_tree.h"
cp lib/maple_tree.c "$repo/lib/maple_tree.c"
authored include/linux/maple_tree.h lib/maple_tree.c scripts/series/0001.msg
commit "$top"/scripts/series/0001.msg

# 0002: the KUnit suites.  Their Kconfig entry is the one of our Kconfig,
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
authored lib/maple_tree_kunit.c Kconfig scripts/series/0002.msg
commit "$top"/scripts/series/0002.msg

# 0003: fork duplicates the VMA tree whole.  The kernel's own
# kernel/fork.c is edited by scripts/series/0003-fork.awk, which holds
# only our lines and fails unless every edit is made exactly once.
awk -f scripts/series/0003-fork.awk "$src/kernel/fork.c" \
	>"$repo/kernel/fork.c" || {
	echo "make-series: scripts/series/0003-fork.awk does not fit kernel/fork.c" >&2
	exit 1
}
authored scripts/series/0003-fork.awk scripts/series/0003.msg
commit "$top"/scripts/series/0003.msg

rm -rf "$out"
mkdir -p "$out"
g format-patch -q --zero-commit --no-signature \
	-o "$out" "$base..HEAD" >/dev/null
(cd "$out" && ls *.patch >series)
echo "make-series: $(wc -l <"$out/series") patches in $out:"
sed 's/^/  /' "$out/series"
