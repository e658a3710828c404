#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Apply the patch series of scripts/make-series.sh to a fresh copy of
# Debian's linux-source-6.1.
#
#   scripts/apply-series.sh DEST
#	DEST must not exist.  Copy the pristine source (scripts/linux-src.sh)
#	to DEST and apply every patch of the series with patch -p1 --fuzz=0:
#	a patch that does not apply exactly (a conflict, an offset context,
#	an already applied change) stops the script with an error naming it,
#	and DEST is removed.
#
#   scripts/apply-series.sh --sync DEST
#	For a kept build tree: apply the series to a fresh copy of only the
#	files it touches (same checks), then copy into DEST (made from the
#	pristine source the first time) each of those files that differs,
#	and restore from the pristine source any file that an earlier series
#	touched and this one no longer does.  Unchanged files keep their
#	timestamps, so kbuild rebuilds only what the change affects.
#
# SERIES (default build/series) is the folder of patches and its "series"
# file; "make series" writes it.  Either way the result is checked: our
# include/linux/maple_tree.h, lib/maple_tree.c and lib/maple_tree_kunit.c
# must come out byte for byte: those of this checkout, or of the checkout
# OURS names (scripts/kernel-bench.sh's KERNEL_BASE, a series made from
# an older revision of this project).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

sync=0
if [ "${1:-}" = "--sync" ]; then
	sync=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--sync] DEST" >&2; exit 2; }
dest=$(realpath -m "$1")
series=$(realpath -m "${SERIES:-$top/build/series}")
[ -f "$series/series" ] || { echo "apply-series: no $series/series (run make series)" >&2; exit 1; }
src=$(scripts/linux-src.sh)
mapfile -t patches <"$series/series"
[ ${#patches[@]} -gt 0 ] || { echo "apply-series: empty series" >&2; exit 1; }

die() { echo "apply-series: FAILED: $*" >&2; exit 1; }

# Files named by the patches (both sides, /dev/null left out).
touched=$(cd "$series" && sed -n 's#^\(---\|+++\) [ab]/\(.*\)$#\2#p' "${patches[@]}" | sort -u)

apply_all() {	# apply_all <tree>
	local p out
	for p in "${patches[@]}"; do
		if ! out=$(patch -d "$1" -p1 --forward --batch --fuzz=0 \
			   --no-backup-if-mismatch --dry-run <"$series/$p" 2>&1) ||
		   grep -q -i 'offset\|fuzz\|hunk.*failed\|reversed' <<<"$out"; then
			echo "$out" >&2
			die "$p does not apply cleanly to $1"
		fi
		patch -d "$1" -p1 --forward --batch --fuzz=0 \
			--no-backup-if-mismatch --quiet <"$series/$p" ||
			die "$p failed to apply to $1"
		echo "apply-series: applied $p"
	done
}

check_ours() {	# check_ours <tree>
	local f ours=${OURS:-$top}
	for f in include/linux/maple_tree.h lib/maple_tree.c lib/maple_tree_kunit.c; do
		cmp -s "$ours/$f" "$1/$f" || die "$f in $1 is not ours after the series"
	done
}

if [ "$sync" = 0 ]; then
	[ ! -e "$dest" ] || die "$dest exists; give a new folder (or --sync)"
	trap 'rm -rf "$dest"' EXIT
	mkdir -p "$(dirname "$dest")"
	cp -a "$src" "$dest"
	apply_all "$dest"
	check_ours "$dest"
	trap - EXIT
	echo "apply-series: ${#patches[@]} patches applied to $dest"
	exit 0
fi

stage=$(mktemp -d /tmp/maple-apply.XXXXXX)
trap 'rm -rf "$stage"' EXIT
for f in $touched; do
	if [ -e "$src/$f" ]; then
		mkdir -p "$stage/$(dirname "$f")"
		cp -a "$src/$f" "$stage/$f"
	fi
done
apply_all "$stage"
check_ours "$stage"

if [ ! -f "$dest/.maple-series-files" ]; then
	echo "apply-series: copying the pristine source to $dest"
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	cp -a "$src" "$dest"
	: >"$dest/.maple-series-files"
fi
for f in $(printf '%s\n' $touched $(cat "$dest/.maple-series-files") | sort -u); do
	if [ -e "$stage/$f" ]; then
		want=$stage/$f
	elif [ -e "$src/$f" ]; then
		want=$src/$f
	else
		if [ -e "$dest/$f" ]; then
			rm -f "$dest/$f"
			echo "apply-series: removed $f"
		fi
		continue
	fi
	if ! cmp -s "$want" "$dest/$f"; then
		mkdir -p "$(dirname "$dest/$f")"
		cp "$want" "$dest/$f"
		echo "apply-series: updated $f"
	fi
done
printf '%s\n' $touched >"$dest/.maple-series-files"
echo "apply-series: ${#patches[@]} patches in effect in $dest"
