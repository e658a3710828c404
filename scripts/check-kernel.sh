#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-kernel: every kernel-side check, each under the shared heavy
# lock when one is given (HEAVY_LOCK=/path, for machines where builds must
# take turns).  Runs them all and fails if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

heavy() {
	if [ -n "${HEAVY_LOCK:-}" ]; then
		flock "$HEAVY_LOCK" "$@"
	else
		"$@"
	fi
}

failed=()
run() {
	local name=$1
	shift
	echo "==== check-kernel: $name"
	local t0=$(date +%s)
	if heavy "$@"; then
		echo "==== check-kernel: $name: ok ($(( $(date +%s) - t0 ))s)"
	else
		echo "==== check-kernel: $name: FAILED ($(( $(date +%s) - t0 ))s)"
		failed+=("$name")
	fi
}

run qemu-module scripts/qemu-test.sh

if [ ${#failed[@]} -ne 0 ]; then
	echo "check-kernel: FAILED: ${failed[*]}"
	exit 1
fi
echo "check-kernel: all passed"
