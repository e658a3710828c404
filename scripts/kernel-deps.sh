#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the kernel-side checks need (make modules,
# make check-kernel): Debian's kernel image and headers, the 6.1 and 6.12
# source trees for the UML runs and Linux's own userspace tests, qemu to
# boot the image, busybox for the initramfs, sparse for "make C=1", and
# the usual kernel build tools.  Installs what is missing when run as
# root; otherwise prints the apt-get command and fails (apt-install.sh).
set -euo pipefail

pkgs=(linux-image-amd64 linux-headers-amd64 linux-source-6.1 linux-source-6.12
      qemu-system-x86 busybox-static cpio sparse
      gcc make bc bison flex libelf-dev libssl-dev python3 xz-utils kmod)

exec "$(dirname "$0")/apt-install.sh" --no-recommends "${pkgs[@]}"
