#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build one Linux 6.1 kernel out of tree: the steps that
# scripts/boot-test.sh and scripts/kernel-bench.sh share.
#
#   scripts/kernel-build.sh TREE BDIR ARCH FRAGMENT LOG
#
#  TREE      the kernel source (pristine, or a kept tree the series was
#            applied to with scripts/apply-series.sh --sync)
#  BDIR      the kept build folder (make O=BDIR); a second run rebuilds
#            only what changed
#  ARCH      um, x86_64 or i386
#  FRAGMENT  the options merged into "make defconfig" (um) or "make
#            tinyconfig" (x86_64, i386).  The configuration is made again
#            only when the fragment differs from the one BDIR was
#            configured with (kept as BDIR/.fragment.used); every
#            "CONFIG_X=..." and "# CONFIG_X is not set" line of it is then
#            checked in the final .config, and a missing one fails.
#  LOG       the build's output; its last lines are shown when it fails
#
# Prints the path of the built kernel (BDIR/linux for um, the bzImage
# otherwise) on stdout as its last line.  Environment: JOBS (default 2).
set -euo pipefail

[ $# -eq 5 ] || { echo "usage: $0 TREE BDIR ARCH FRAGMENT LOG" >&2; exit 2; }
tree=$1
bdir=$2
arch=$3
frag=$4
log=$5
JOBS=${JOBS:-2}
mkdir -p "$bdir"

kmake() { make -C "$tree" O="$bdir" ARCH="$arch" "$@"; }
if [ ! -f "$bdir/.config" ] || ! cmp -s "$frag" "$bdir/.fragment.used"; then
	base=defconfig
	[ "$arch" != um ] && base=tinyconfig
	kmake -s "$base" >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$bdir" "$bdir/.config" "$frag" >/dev/null
	kmake -s olddefconfig 2>&1 | grep -v 'override: UNWINDER_GUESS' >&2 || true
	cp "$frag" "$bdir/.fragment.used"
fi
missing=0
while read -r opt; do
	case $opt in
	CONFIG_*=*) grep -qx "$opt" "$bdir/.config" ||
		{ echo "kernel-build: .config lacks $opt" >&2; missing=1; } ;;
	"# CONFIG_"*" is not set") ! grep -q "^${opt#\# }=" "$bdir/.config" ||
		{ echo "kernel-build: .config sets ${opt#\# }" >&2; missing=1; } ;;
	esac
done < <(sed -n 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p; s/^\(# CONFIG_[A-Z0-9_]* is not set\)$/\1/p' "$frag")
if [ "$missing" != 0 ]; then
	rm -f "$bdir/.fragment.used"
	echo "kernel-build: FAIL: the configuration lacks options" >&2
	exit 1
fi

if [ "$arch" = um ]; then
	target=linux
	kernel=$bdir/linux
else
	target=bzImage
	kernel=$bdir/arch/x86/boot/bzImage
fi
kmake -j"$JOBS" "$target" >"$log" 2>&1 || { tail -n 40 "$log" >&2; exit 1; }
echo "$kernel"
