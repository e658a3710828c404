#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# apt-install.sh [--arch ARCH] [--no-recommends] PACKAGE...
#
# Install the Debian packages of the list that are missing.  As root it
# installs them; otherwise it prints the command to run and fails.  The
# one place the project talks to apt, so every target gets the same
# behaviour on a fresh machine:
#
# A mirror in the middle of a sync answers "File has unexpected size ...
# Mirror sync in progress?" for an index or two and apt-get update exits
# non-zero, sometimes for hours.  So a failed update is not an error: the
# install is tried anyway, because the indices that did arrive usually
# hold every package asked for (an i386 security index missing does not
# stop liburcu-dev:i386 from the main archive).  A failed install is
# retried after a growing pause and a new update; only its last failure
# is an error.
#
# --arch ARCH first adds a dpkg foreign architecture (multiarch), needed
# for PACKAGE:ARCH names; --no-recommends leaves the packages' Recommends
# out (the kernel tools: a qemu without its GUI).
set -uo pipefail

arch=
opts=()
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--no-recommends) opts+=(--no-install-recommends); shift ;;
	*) break ;;
	esac
done

missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing Debian packages: ${missing[*]}" >&2
	echo "run: ${arch:+sudo dpkg --add-architecture $arch && }sudo apt-get update &&" \
	     "sudo apt-get install -y ${opts[*]+${opts[*]} }${missing[*]}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "installing: ${missing[*]}"
if [ -n "$arch" ] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	dpkg --add-architecture "$arch" || exit 1
fi

apt-get update -qq ||
	echo "apt-install: apt-get update failed; trying the install with the" \
	     "indices there are" >&2

# Four installs over about two minutes, updating before each retry.
pause=15
for try in 1 2 3 4; do
	apt-get install -y -qq ${opts[@]+"${opts[@]}"} "${missing[@]}" >/dev/null && exit 0
	[ "$try" = 4 ] && break
	echo "apt-install: apt-get install failed (try $try), again in ${pause}s" >&2
	sleep "$pause"
	pause=$((pause * 2))
	apt-get update -qq
done
echo "apt-install: could not install: ${missing[*]}" >&2
exit 1
