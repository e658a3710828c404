#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run two test binaries of the runner one after the other and end with one
# "N passed, M failed[, K skipped]" line that counts both, so that make
# check's last line still covers everything it ran.
#
#   both.sh LABEL FIRST [ARGS...] -- SECOND [ARGS...]
#
# LABEL names the first run in the lines around its output.  Exits 1 if
# either run failed or printed no summary line.  A run that exits 2 (its
# filter matched no case) counts as empty when the other run matched; when
# neither did, both.sh exits 2 too.
set -uo pipefail

label=$1
shift
first=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	first+=("$1")
	shift
done
[ $# -gt 1 ] || { echo "usage: both.sh LABEL FIRST... -- SECOND..." >&2; exit 2; }
shift

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# counts FILE: "passed failed skipped" from the runner's last line.
counts() {
	tail -n 1 "$1" | sed -n \
		's/^\([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p'
}

echo "# ---- $label: ${first[*]}"
"${first[@]}" | tee "$tmp"
rc1=${PIPESTATUS[0]}
read -r p1 f1 s1 < <(counts "$tmp")
echo "# ---- end of $label"
"$@" | tee "$tmp"
rc2=${PIPESTATUS[0]}
read -r p2 f2 s2 < <(counts "$tmp")

if [ -z "${p1:-}" ] || [ -z "${p2:-}" ]; then
	echo "both.sh: a run printed no summary line" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
passed=$((p1 + p2))
failed=$((f1 + f2))
skipped=$((${s1:-0} + ${s2:-0}))
echo "# both runs: $label $p1 passed, $f1 failed; then $p2 passed, $f2 failed"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
if [ "$rc1" = 2 ] && [ "$rc2" = 2 ]; then
	exit 2
fi
[ "$rc1" = 2 ] && [ "$rc2" != 2 ] && rc1=0
[ "$rc2" = 2 ] && [ "$rc1" != 2 ] && rc2=0
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ "$failed" = 0 ]
