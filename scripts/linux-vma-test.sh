#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Linux 6.12's own userspace VMA suite, tools/testing/vma, on Linux's tree
# and on ours.  The suite builds mm/vma.c on stubs and links a maple tree
# through tools/testing/shared/maple-shim.c, which compiles lib/maple_tree.c
# with Linux's userspace headers (tools/include, tools/testing/shared) and
# CONFIG_DEBUG_MAPLE_TREE: our two files must build there as they are.
#
#  1. Take tools/, include/, lib/ and mm/ out of Debian's linux-source-6.12
#     (scripts/linux-src.sh) and copy them twice, to $OUT/linux and
#     $OUT/maple.
#  2. Add the stub the stable release forgot: 6.12.y's mm/vma.c calls
#     vma_close(), which tools/testing/vma/vma_internal.h does not define,
#     so the suite does not link as shipped.  Added only where it is
#     missing.
#  3. In $OUT/maple, put include/linux/maple_tree.h and lib/maple_tree.c in
#     place of Linux's.
#  4. make and run both; each must print its "N tests run, N passed, 0
#     failed." line, and the two lines must be the same.
#
# Environment: OUT (default build/linux-vma-6.12), JOBS (default 2),
# LINUX_VMA_SRC (the tarball).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
OUT=${OUT:-$top/build/linux-vma-6.12}
JOBS=${JOBS:-2}
tarball=${LINUX_VMA_SRC:-/usr/src/linux-source-6.12.tar.xz}

[ -f "$tarball" ] || scripts/kernel-deps.sh
# Linux's harness takes its RCU from liburcu too.
scripts/apt-install.sh liburcu-dev
src=$(LINUX_SRC_TARBALL=$tarball scripts/linux-src.sh tools include lib mm)

# suite NAME: build and run the suite in $OUT/NAME; prints its result line.
suite() {
	local d=$OUT/$1 internal log
	rm -rf "$d"
	mkdir -p "$d"
	cp -a "$src/tools" "$src/include" "$src/lib" "$src/mm" "$d/"
	internal=$d/tools/testing/vma/vma_internal.h
	if ! grep -q 'vma_close(' "$internal"; then
		# Before the header's closing #endif.
		sed -i '$d' "$internal"
		cat >>"$internal" <<'STUB'

static inline void vma_close(struct vm_area_struct *)
{
}

#endif	/* __MM_VMA_INTERNAL_H */
STUB
	fi
	if [ "$1" = maple ]; then
		cp include/linux/maple_tree.h "$d/include/linux/maple_tree.h"
		cp lib/maple_tree.c "$d/lib/maple_tree.c"
	fi
	log=$OUT/$1.log
	if ! make -C "$d/tools/testing/vma" -j"$JOBS" >"$log" 2>&1; then
		echo "linux-vma-test: FAIL: the suite does not build on $1's tree:" >&2
		{ grep -E 'error|undefined' "$log" | head -n 20
		  echo "linux-vma-test: the log's end:"
		  tail -n 20 "$log"; } >&2
		return 1
	fi
	(cd "$d/tools/testing/vma" && ./vma) >>"$log" 2>&1 || true
	grep -E '^[0-9]+ tests run, [0-9]+ passed, [0-9]+ failed\.$' "$log" |
		tail -n 1
}

fail=0
theirs=$(suite linux) || fail=1
ours=$(suite maple) || fail=1
printf 'linux-vma-test: Linux 6.12 tree: %s\n' "${theirs:-no result line}"
printf 'linux-vma-test: our tree:        %s\n' "${ours:-no result line}"
case "$ours" in
*" 0 failed.") ;;
*) fail=1 ;;
esac
[ -n "$theirs" ] && [ "$ours" = "$theirs" ] || fail=1
if [ "$fail" = 0 ]; then
	echo "linux-vma-test: PASS"
else
	echo "linux-vma-test: FAIL (logs: $OUT/linux.log, $OUT/maple.log)" >&2
fi
exit "$fail"
