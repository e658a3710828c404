#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Make sure this machine runs 32-bit x86 programs, for make check-32.
#
# Most x86_64 kernels run them natively (IA32 emulation).  Some virtual
# machines' kernels refuse them with "Exec format error" even so (seen on
# a paravirtualised guest whose kernel has CONFIG_IA32_EMULATION=y).  On
# such a machine, as root, this installs Debian's qemu-user-static and
# registers qemu-i386-static with binfmt_misc for 32-bit x86 ELF files,
# so that the suites, and the programs they start, run under user-mode
# emulation, unchanged.  Not root: says how, and fails.  Either way a
# 32-bit program that still does not run fails the check, loudly.
set -euo pipefail

CC=${CC:-cc}
QEMU=/usr/bin/qemu-i386-static
MISC=/proc/sys/fs/binfmt_misc
NAME=maple-i386

tmp=$(mktemp -d /tmp/run32.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo 'int main(void) { return 0; }' > "$tmp/t.c"
"$CC" -m32 -o "$tmp/t" "$tmp/t.c"

runs() { "$tmp/t" 2>/dev/null; }

runs && exit 0

echo "run32-setup: this kernel does not run 32-bit x86 programs; using qemu-user"
if [ "$(id -u)" != 0 ]; then
	echo "run32-setup: as root: apt-get install qemu-user-static, mount" \
	     "binfmt_misc on $MISC and register $QEMU for i386 ELF" >&2
	exit 1
fi
[ -x "$QEMU" ] ||
	"$(dirname "$0")/apt-install.sh" --no-recommends qemu-user-static || exit 1
[ -e "$MISC/register" ] || mount -t binfmt_misc binfmt_misc "$MISC"
if [ ! -e "$MISC/$NAME" ]; then
	# An ELF file: 32-bit, little-endian, version 1 (bytes 4-6), any
	# OS ABI and padding, an executable or shared object (e_type 2 or 3,
	# hence the mask 0xfe), for machine EM_386 (3).  F: the interpreter
	# is opened now, so it works for programs in any mount namespace.
	magic='\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00'
	mask='\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00\x00\xfe\xff\xff\xff'
	printf '%s' ":$NAME:M::$magic:$mask:$QEMU:F" > "$MISC/register"
fi
if ! runs; then
	echo "run32-setup: a 32-bit program still does not run" >&2
	exit 1
fi
echo "run32-setup: 32-bit programs run under $QEMU"
