#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the release (e.g. 6.1.0-57-amd64) of the newest Debian kernel whose
# image (/boot/vmlinuz-*) and headers (/lib/modules/*/build) are both
# installed, i.e. what linux-image-amd64 + linux-headers-amd64 brought.
# The machine's running kernel is not used: it may not be Debian's.
set -euo pipefail

best=
for d in /lib/modules/*/build; do
	[ -e "$d/Makefile" ] || continue
	rel=${d#/lib/modules/}
	rel=${rel%/build}
	[ -e "/boot/vmlinuz-$rel" ] || continue
	best=$(printf '%s\n%s\n' "$best" "$rel" | sed '/^$/d' | sort -V | tail -n1)
done
if [ -z "$best" ]; then
	echo "no Debian kernel with headers found (run scripts/kernel-deps.sh)" >&2
	exit 1
fi
echo "$best"
