#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The one place that unpacks Debian's linux-source-6.1 tarball
# (/usr/src/linux-source-6.1.tar.xz), or another version's
# (LINUX_SRC_TARBALL, e.g. linux-source-6.12's, unpacked into a cache of
# its own, build/linux-src-6.12: a cache holds one tarball's files at a
# time).
#
#   scripts/linux-src.sh            print the path of a pristine copy of the
#                                   whole tree, unpacked once into
#                                   $LINUX_SRC_CACHE/linux (default
#                                   build/linux-src) and again when the
#                                   tarball changes
#   scripts/linux-src.sh FILE...    print the path of a tree that holds at
#                                   least FILE... (paths inside the kernel
#                                   tree): the whole copy if it is there,
#                                   else just those files, taken out of the
#                                   tarball into $LINUX_SRC_CACHE/part
#
# Nothing may write into either: users copy what they change.
#
# Environment: LINUX_SRC_TARBALL (the tarball), LINUX_SRC_CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."

tarball=${LINUX_SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# One cache per version: build/linux-src for 6.1, build/linux-src-<v> for
# the others, so that a run on one kernel does not unpack over the other.
ver=$(basename "$tarball" .tar.xz)
ver=${ver#linux-source-}
if [ "$ver" = 6.1 ]; then
	cache=${LINUX_SRC_CACHE:-$PWD/build/linux-src}
else
	cache=${LINUX_SRC_CACHE:-$PWD/build/linux-src-$ver}
fi
tree=$cache/linux
part=$cache/part

[ -f "$tarball" ] || { echo "linux-src: no $tarball (scripts/kernel-deps.sh)" >&2; exit 1; }
stamp="$(stat -c '%s %Y' "$tarball") $tarball"

if [ $# -gt 0 ] && [ -f "$cache/stamp" ] && [ "$(cat "$cache/stamp")" = "$stamp" ]; then
	echo "$tree"
	exit 0
fi
if [ $# -gt 0 ]; then
	if [ ! -f "$part/.stamp" ] || [ "$(cat "$part/.stamp")" != "$stamp" ]; then
		rm -rf "$part"
		mkdir -p "$part"
		echo "$stamp" >"$part/.stamp"
	fi
	# A path is there only if it, or a directory above it, was taken
	# whole: lib/ holding the one file an earlier call took is not lib/.
	touch "$part/.taken"
	missing=()
	for f in "$@"; do
		f=${f%/}
		d=$f
		while ! grep -qxF "$d" "$part/.taken"; do
			[ "$d" = "${d%/*}" ] && { missing+=("$f"); break; }
			d=${d%/*}
		done
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "linux-src: taking ${missing[*]} out of $tarball" >&2
		tar -xf "$tarball" -C "$part" --strip-components=1 --wildcards \
			"${missing[@]/#/*/}"
		printf '%s\n' "${missing[@]}" >>"$part/.taken"
	fi
	echo "$part"
	exit 0
fi

if [ ! -f "$cache/stamp" ] || [ "$(cat "$cache/stamp")" != "$stamp" ]; then
	echo "linux-src: unpacking $tarball into $cache" >&2
	rm -rf "$tree" "$cache/stamp" "$cache/unpack"
	mkdir -p "$cache/unpack"
	tar -xf "$tarball" -C "$cache/unpack"
	mv "$cache"/unpack/linux-source-* "$tree"
	rmdir "$cache/unpack"
	echo "$stamp" >"$cache/stamp"
fi
echo "$tree"
