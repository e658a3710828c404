#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-kernel: every kernel-side check, one after the other, each
# timed; all of them run even when one fails, and the exit status is 1 if
# any failed.  KVER picks the kernel the set is about: 6.1 (the default,
# what CI runs, with the UML part of 6.12 too) or 6.12.
#   selftest-user scripts/linux-selftest-user.sh 6.1 and 6.12: each
#                                        kernel's lib/test_maple_tree.c
#                                        built in userspace on our tree
#   linux-vma    scripts/linux-vma-test.sh  Linux 6.12's own userspace
#                                        VMA suite (tools/testing/vma) on
#                                        its tree and on ours
#   qemu-module  scripts/qemu-test.sh    test_maple_tree_api.ko in Debian's kernel
#   kunit-uml    scripts/kunit-uml.sh    KUnit suites + built-in test on UML
#   series-prefixes scripts/apply-series.sh --prefixes: every prefix of
#                                        the patch series applied to a kept
#                                        UML tree, lib/ (and the touched
#                                        objects) built, no warning in our
#                                        files; the whole series is built
#                                        and booted by uml-kasan
#   static       scripts/static-check.sh sparse, W=1 and checkpatch on our
#                                        files
#   mm-upstream  mm/ built on Linux 6.1's and 6.12's own trees
#                                        (build/vma_bench_upstream, what
#                                        make bench times them with) and
#                                        one quick round of every workload
#                                        on all four backends: make check
#                                        builds neither
#   uml-kasan    scripts/boot-test.sh --kasan: Linux 6.1 patched with our
#                                        series booted on UML with KASAN,
#                                        lockdep and RCU checking: its mm/
#                                        on our tree, a VMA workload, the
#                                        kernel's own lib/test_maple_tree.c,
#                                        our KUnit; a read of a freed node
#                                        fails it
#   uml-boot-6.12 scripts/boot-test.sh --kver 6.12: Linux 6.12 with our
#                                        tree on UML: the same checks, our
#                                        self-test module too, and 20 s of
#                                        tools/testing/vma/fault_stress.c
# With KVER=6.12 instead: selftest-user, linux-vma, mm-upstream,
#   uml-boot-6.12 and
#   kunit-uml-6.12 scripts/kunit-uml.sh on Debian's linux-source-6.12
#   series-prefixes-6.12 every prefix of the 6.12 series, as
#                                        series-prefixes does for 6.1
#   uml-kasan-6.12 uml-boot-6.12 with KASAN
#   x86-boot-6.12 scripts/boot-test.sh --kver 6.12 --arch x86_64: under
#                                        qemu (TCG), page faults served
#                                        without mmap_lock
#                                        (CONFIG_PER_VMA_LOCK), 60 s of
#                                        fault_stress that must count
#                                        lock-free faults
#   x86-kasan-6.12 the same with KASAN
# With FULL=1 also, for 6.1 (left out of the default set, which CI runs,
# to keep CI inside its 90 minutes):
#   uml-boot     scripts/boot-test.sh    the uml-kasan boot without KASAN
#   x86-boot     scripts/boot-test.sh --arch x86_64: the same patched
#                                        kernel for x86_64 under qemu (TCG)
#   i386-boot    scripts/boot-test.sh --arch i386: and for 32-bit x86
#                                        (32-bit unsigned long, 32-slot
#                                        leaves, CONFIG_FRAME_WARN 1024)
# and for 6.12:
#   x86-kasan-6.12-unpatched  the KASAN stress boot of Linux 6.12 as
#                                        shipped, for comparison
#
# BOOT=1 is accepted and changes nothing.  CHECK_KERNEL_ONLY="qemu-module static" runs a subset.
set -uo pipefail
cd "$(dirname "$0")/.."

KVER=${KVER:-6.1}
case $KVER in
6.1)
	default="selftest-user linux-vma qemu-module kunit-uml series-prefixes"
	default="$default static mm-upstream uml-boot-6.12 uml-kasan"
	[ "${FULL:-0}" = 1 ] && default="$default uml-boot x86-boot i386-boot" ;;
6.12)
	default="selftest-user linux-vma mm-upstream kunit-uml-6.12"
	default="$default series-prefixes-6.12"
	default="$default uml-boot-6.12 uml-kasan-6.12 x86-boot-6.12 x86-kasan-6.12"
	[ "${FULL:-0}" = 1 ] && default="$default x86-kasan-6.12-unpatched" ;;
*)
	echo "check-kernel: unknown KVER $KVER (6.1, 6.12)" >&2
	exit 2 ;;
esac
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

series_prefixes() {	# series_prefixes <kernel version> <folder>
	local d=$2
	scripts/kernel-deps.sh &&
	KVER=$1 SERIES_OUT=$PWD/$d/patches scripts/make-series.sh >/dev/null &&
	KVER=$1 SERIES=$PWD/$d/patches scripts/apply-series.sh --prefixes "$d"
}

# A new make after the install: the set of versions linked in is decided
# when make reads its rules, from the tarballs that are there.
mm_upstream() {
	scripts/kernel-deps.sh &&
	make --no-print-directory build/vma_bench_upstream &&
	grep -qx ' *6.1 *6.12 *' build/vma/upstream-versions &&
	build/vma_bench_upstream --quick --runs 1 --no-json >build/vma/mm-upstream.log &&
	grep -q 'maple against Linux 6.1:' build/vma/mm-upstream.log &&
	grep -q 'maple against Linux 6.12:' build/vma/mm-upstream.log
}

selftest_user() {
	scripts/linux-selftest-user.sh 6.1 && scripts/linux-selftest-user.sh 6.12
}

run selftest-user selftest_user
run linux-vma scripts/linux-vma-test.sh
run qemu-module scripts/qemu-test.sh
run kunit-uml scripts/kunit-uml.sh
run kunit-uml-6.12 env OUT="$PWD/build/kunit-6.12" \
	KUNIT_SRC=/usr/src/linux-source-6.12.tar.xz scripts/kunit-uml.sh
run series-prefixes series_prefixes 6.1 build/series-prefixes
run series-prefixes-6.12 series_prefixes 6.12 build/series-prefixes-6.12
run uml-boot scripts/boot-test.sh --arch um
run uml-kasan scripts/boot-test.sh --arch um --kasan
run static scripts/static-check.sh
run mm-upstream mm_upstream
run x86-boot scripts/boot-test.sh --arch x86_64
run i386-boot scripts/boot-test.sh --arch i386
run uml-boot-6.12 scripts/boot-test.sh --kver 6.12 --arch um --stress 20
run uml-kasan-6.12 scripts/boot-test.sh --kver 6.12 --arch um --kasan --stress 20
run x86-boot-6.12 scripts/boot-test.sh --kver 6.12 --arch x86_64 --stress 60
run x86-kasan-6.12 scripts/boot-test.sh --kver 6.12 --arch x86_64 --kasan --stress 60
run x86-kasan-6.12-unpatched scripts/boot-test.sh --kver 6.12 --arch x86_64 \
	--kasan --stress 60 --unpatched

[ ${#failed[@]} -eq 0 ] || echo "check-kernel: FAILED: ${failed[*]}"
echo "check-kernel: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
