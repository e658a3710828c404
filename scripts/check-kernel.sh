#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-kernel: every kernel-side check, one after the other, each
# timed; all of them run even when one fails, and the exit status is 1 if
# any failed.
#   qemu-module  scripts/qemu-test.sh    test_maple_tree_api.ko in Debian's kernel
#   kunit-uml    scripts/kunit-uml.sh    KUnit suites + built-in test on UML
#   series-prefixes scripts/apply-series.sh --prefixes: every prefix of
#                                        the patch series applied to a kept
#                                        UML tree, lib/ (and the touched
#                                        objects) built, no warning in our
#                                        files; the whole series is built
#                                        and booted by uml-boot
#   static       scripts/static-check.sh sparse, W=1 and checkpatch on our
#                                        files
#   uml-boot     scripts/boot-test.sh    Linux 6.1 patched with our series
#                                        booted on UML: its mm/ on our tree,
#                                        a VMA workload, the kernel's own
#                                        lib/test_maple_tree.c, our KUnit
#   uml-kasan    scripts/boot-test.sh --kasan: the same boot with KASAN
#                                        (and lockdep, RCU checking): a
#                                        read of a freed node fails it
# With FULL=1 also:
#   x86-boot     scripts/boot-test.sh --arch x86_64: the same patched
#                                        kernel for x86_64 under qemu (TCG)
#   i386-boot    scripts/boot-test.sh --arch i386: and for 32-bit x86
#                                        (32-bit unsigned long, 32-slot
#                                        leaves, CONFIG_FRAME_WARN 1024)
#
# CI runs the default set.  BOOT=1 is accepted and changes nothing now that
# uml-boot is in the default set.
# CHECK_KERNEL_ONLY="qemu-module static" runs a subset.
set -uo pipefail
cd "$(dirname "$0")/.."

default="qemu-module kunit-uml series-prefixes static uml-boot uml-kasan"
[ "${FULL:-0}" = 1 ] && default="$default x86-boot i386-boot"
only=${CHECK_KERNEL_ONLY:-$default}
failed=()
passed=0
run() {
	local name=$1 t0
	shift
	case " $only " in *" $name "*) ;; *) return 0 ;; esac
	echo "==== check-kernel: $name"
	t0=$(date +%s)
	if "$@"; then
		echo "==== check-kernel: $name: ok ($(( $(date +%s) - t0 ))s)"
		passed=$((passed + 1))
	else
		echo "==== check-kernel: $name: FAILED ($(( $(date +%s) - t0 ))s)"
		failed+=("$name")
	fi
}

series_prefixes() {
	local d=build/series-prefixes
	scripts/kernel-deps.sh &&
	SERIES_OUT=$PWD/$d/patches scripts/make-series.sh >/dev/null &&
	SERIES=$PWD/$d/patches scripts/apply-series.sh --prefixes "$d"
}

run qemu-module scripts/qemu-test.sh
run kunit-uml scripts/kunit-uml.sh
run series-prefixes series_prefixes
run uml-boot scripts/boot-test.sh --arch um
run uml-kasan scripts/boot-test.sh --arch um --kasan
run static scripts/static-check.sh
run x86-boot scripts/boot-test.sh --arch x86_64
run i386-boot scripts/boot-test.sh --arch i386

[ ${#failed[@]} -eq 0 ] || echo "check-kernel: FAILED: ${failed[*]}"
echo "check-kernel: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
