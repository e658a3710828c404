#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A kept copy of a pristine kernel source with our tree in place of the
# kernel's: what the 6.12 boots and the KUnit runs build (the 6.1 boots
# build the patch series instead, scripts/apply-series.sh).
#
#   scripts/linux-put-ours.sh TREE
#
#  1. Copy the pristine source (scripts/linux-src.sh; LINUX_SRC_TARBALL
#     picks the version, default 6.1's) to TREE, once: it is kept for
#     incremental builds and copied again when the tarball changes.
#  2. Put include/linux/maple_tree.h, lib/maple_tree.c,
#     lib/test_maple_tree_api.c and lib/maple_tree_kunit.c in place
#     (copied only when they differ, so kbuild rebuilds only what
#     changed), install our Kconfig as lib/Kconfig.maple instead of the
#     kernel's DEBUG_MAPLE_TREE entry, and append scripts/kbuild/lib.Makefile
#     to lib/Makefile.  The kernel's lib/test_maple_tree.c stays as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -eq 1 ] || { echo "usage: $0 TREE" >&2; exit 2; }
tree=$(realpath -m "$1")

# 1. The pristine copy, made once per tarball.
pristine=$(scripts/linux-src.sh)
stamp=$(cat "$pristine/../stamp")
if [ ! -f "$tree/.maple-src" ] || [ "$(cat "$tree/.maple-src")" != "$stamp" ]; then
	echo "linux-put-ours: copying $pristine to $tree" >&2
	rm -rf "$tree"
	mkdir -p "$(dirname "$tree")"
	cp -a "$pristine" "$tree"
	cp "$tree/lib/Kconfig.debug" "$tree/lib/Kconfig.debug.maple-orig"
	cp "$tree/lib/Makefile" "$tree/lib/Makefile.maple-orig"
	echo "$stamp" >"$tree/.maple-src"
fi

# 2. Our files in place; unchanged files keep their timestamps.
put() {	# put <generated or source file> <destination in the tree>
	if ! cmp -s "$1" "$tree/$2"; then
		cp "$1" "$tree/$2"
		echo "linux-put-ours: updated $2" >&2
	fi
}
gen=$tree/.maple-gen
mkdir -p "$gen"
put include/linux/maple_tree.h include/linux/maple_tree.h
put lib/maple_tree.c lib/maple_tree.c
put lib/test_maple_tree_api.c lib/test_maple_tree_api.c
# The kernel's own self-test, as shipped (older runs put ours over it).
orig=$tree/lib/test_maple_tree.c.maple-orig
[ -s "$orig" ] || cp "$pristine/lib/test_maple_tree.c" "$orig"
put "$orig" lib/test_maple_tree.c
put lib/maple_tree_kunit.c lib/maple_tree_kunit.c
put Kconfig lib/Kconfig.maple
# The kernel's DEBUG_MAPLE_TREE entry becomes a "source" of ours; its
# TEST_MAPLE_TREE entry stays.  An entry ends at the next line that starts
# a Kconfig statement.
awk '
	/^(config|menuconfig|menu|endmenu|if|endif|source|comment|choice|endchoice) / ||
	/^(endmenu|endif|endchoice)$/ { skip = 0 }
	/^config DEBUG_MAPLE_TREE$/ { print "source \"lib/Kconfig.maple\"\n"; skip = 1 }
	!skip { print }
' "$tree/lib/Kconfig.debug.maple-orig" >"$gen/Kconfig.debug"
grep -q '^source "lib/Kconfig.maple"' "$gen/Kconfig.debug" || {
	echo "linux-put-ours: no DEBUG_MAPLE_TREE entry in lib/Kconfig.debug" >&2
	exit 1
}
put "$gen/Kconfig.debug" lib/Kconfig.debug
cat "$tree/lib/Makefile.maple-orig" scripts/kbuild/lib.Makefile >"$gen/Makefile"
put "$gen/Makefile" lib/Makefile
