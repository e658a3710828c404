#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Linux's own self-test, lib/test_maple_tree.c, run in userspace on our
# tree: the file is taken out of Debian's linux-source-<KVER> at run time
# (never copied into this repository), compiled on our stand-ins against
# build/libmaple-debug.a built for that kernel's interface, and run.  It
# takes seconds where a kernel boot takes minutes, so a change to the
# tree's semantics shows here first; the UML boots run the same file in a
# real kernel.
#
#   scripts/linux-selftest-user.sh [KVER]     (6.12 by default, or 6.1)
#
# Passes if the test prints "maple_tree: N of N tests passed" with N > 0.
# Environment: OUT (default build/linux-selftest-<KVER>).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
kver=${1:-6.12}
case "$kver" in
6.1|6.12) ;;
*) echo "linux-selftest-user: KVER is 6.1 or 6.12, not $kver" >&2; exit 2 ;;
esac
OUT=${OUT:-$top/build/linux-selftest-$kver}
tarball=/usr/src/linux-source-$kver.tar.xz

[ -f "$tarball" ] || scripts/kernel-deps.sh
scripts/apt-install.sh liburcu-dev
src=$(LINUX_SRC_TARBALL=$tarball scripts/linux-src.sh lib/test_maple_tree.c)

# Our tree and stand-ins, built for that interface.
make --no-print-directory -s BUILD="$OUT/build" KVER="$kver" \
	"$OUT/build/libmaple-debug.a"

# What the kernel's module build gives the file, and the hooks its
# userspace half expects from Linux's own harness (allocation counters
# this one does not keep): no-ops.
mkdir -p "$OUT"
cat >"$OUT/selftest.c" <<C
#include <linux/maple_tree.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/gfp.h>
#include <linux/atomic.h>
#include <linux/xarray.h>
#include <linux/slab.h>
#define mt_set_non_kernel(x)		do { } while (0)
#define mt_zero_nr_tallocated(x)	do { } while (0)
#define mt_nr_tallocated()		0
#define mt_nr_allocated()		0
#define mt_get_alloc_size()		0
#define cond_resched()			do { } while (0)
#include "$src/lib/test_maple_tree.c"

int main(void)
{
	maple_tree_init();
	return maple_tree_seed() ? 1 : 0;
}
C
api=$([ "$kver" = 6.12 ] && echo 1 || echo 0)
# -w: the file is Linux's, not ours; its warnings are not ours to mend.
cc -std=gnu11 -O1 -g -fno-strict-aliasing -w -Iinclude -Itools/include \
	-DMT_API_612="$api" -DCONFIG_DEBUG_MAPLE_TREE -DCONFIG_PROVE_RCU \
	-o "$OUT/selftest" "$OUT/selftest.c" "$OUT/build/libmaple-debug.a" \
	-lurcu-memb -lpthread

log=$OUT/selftest.log
set +e
"$OUT/selftest" >"$log" 2>&1
rc=$?
set -e
line=$(grep -o 'maple_tree: [0-9]* of [0-9]* tests passed' "$log" | tail -n 1 || true)
echo "linux-selftest-user: Linux $kver's lib/test_maple_tree.c on our tree: ${line:-no result line}"
read -r passed run < <(echo "${line:-x 0 of 0}" | sed 's/.*: \([0-9]*\) of \([0-9]*\).*/\1 \2/')
if [ "$rc" != 0 ] || [ "$run" -eq 0 ] || [ "$passed" -ne "$run" ]; then
	grep -E 'BUG at|WARN at' "$log" | head -n 20 >&2 || true
	echo "linux-selftest-user: FAIL (exit $rc, log $log)" >&2
	exit 1
fi
echo "linux-selftest-user: PASS"
