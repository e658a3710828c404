#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the kernel-side checks need (make modules,
# make check-kernel): Debian's kernel image and headers, its source tree for
# the KUnit run on UML, qemu to boot the image, busybox for the initramfs,
# sparse for "make C=1", and the usual kernel build tools.  Installs what is
# missing when run as root; otherwise prints the apt-get command and fails.
set -euo pipefail

pkgs=(linux-image-amd64 linux-headers-amd64 linux-source-6.1
      qemu-system-x86 busybox-static cpio sparse
      gcc make bc bison flex libelf-dev libssl-dev python3 xz-utils kmod)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing Debian packages: ${missing[*]}" >&2
	echo "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
