#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of a pristine copy of Debian's linux-source-6.1, unpacked
# once from /usr/src/linux-source-6.1.tar.xz into $LINUX_SRC_CACHE (default
# build/linux-src) and unpacked again when the tarball changes.  Nothing may
# write into that copy: the series scripts copy it before patching.
#
# Environment: LINUX_SRC_TARBALL (the tarball), LINUX_SRC_CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."

tarball=${LINUX_SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${LINUX_SRC_CACHE:-$PWD/build/linux-src}
tree=$cache/linux

[ -f "$tarball" ] || { echo "linux-src: no $tarball (scripts/kernel-deps.sh)" >&2; exit 1; }
stamp="$(stat -c '%s %Y' "$tarball") $tarball"
if [ ! -f "$cache/stamp" ] || [ "$(cat "$cache/stamp")" != "$stamp" ]; then
	echo "linux-src: unpacking $tarball into $cache" >&2
	rm -rf "$cache"
	mkdir -p "$cache/unpack"
	tar -xf "$tarball" -C "$cache/unpack"
	mv "$cache"/unpack/linux-source-* "$tree"
	rmdir "$cache/unpack"
	echo "$stamp" >"$cache/stamp"
fi
echo "$tree"
