#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-kernel: every kernel-side check, one after the other, each
# timed; all of them run even when one fails, and the exit status is 1 if
# any failed.
#   qemu-module  scripts/qemu-test.sh    test_maple_tree.ko in Debian's kernel
#   kunit-uml    scripts/kunit-uml.sh    KUnit suites + built-in test on UML
#   static       scripts/static-check.sh sparse and checkpatch on our files
# CHECK_KERNEL_ONLY="qemu-module static" runs a subset.
set -uo pipefail
cd "$(dirname "$0")/.."

only=${CHECK_KERNEL_ONLY:-qemu-module kunit-uml static}
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

run qemu-module scripts/qemu-test.sh
run kunit-uml scripts/kunit-uml.sh
run static scripts/static-check.sh

[ ${#failed[@]} -eq 0 ] || echo "check-kernel: FAILED: ${failed[*]}"
echo "check-kernel: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
