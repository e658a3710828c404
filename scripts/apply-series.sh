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
#   scripts/apply-series.sh --prefixes DEST
#	Check that every prefix of the series builds: for the first patch,
#	the first two, and so on to the whole series, bring the kept tree
#	DEST/linux to that prefix (as --sync does) and build in it, for
#	UML's defconfig (made once), lib/ and the object of every .c file
#	the prefix's patches touch (lib/maple_tree.o, lib/maple_tree_kunit.o,
#	kernel/fork.o): in DEST/um with the kernel's default flags and
#	sparse (C=1), and lib/maple_tree.o again in DEST/um-w1 with W=1.
#	Fails if a build fails, or on any warning in our files
#	(include/linux/maple_tree.h, lib/maple_tree.c,
#	lib/maple_tree_kunit.c) in the default build or with W=1, at
#	every prefix: a table or helper comes with the section of its first
#	user (scripts/series/steps).  Nothing is filtered.  The whole kernel is built, and
#	booted, with the whole series by scripts/boot-test.sh; the middle
#	patches need not link (the cover letter says which do).  Each
#	prefix recompiles a few files; the first run prepares the trees
#	(about a minute on two cores).  Logs: DEST/prefix-<n>.log and
#	DEST/prefix-<n>-w1.log; the table of results: DEST/summary.
#	Environment: JOBS (2).
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

mode=new
case ${1:-} in
--sync) mode=sync; shift ;;
--prefixes) mode=prefixes; shift ;;
esac
[ $# -eq 1 ] || { echo "usage: $0 [--sync | --prefixes] DEST" >&2; exit 2; }
dest=$(realpath -m "$1")
series=$(realpath -m "${SERIES:-$top/build/series}")
[ -f "$series/series" ] || { echo "apply-series: no $series/series (run make series)" >&2; exit 1; }
src=$(scripts/linux-src.sh)
mapfile -t patches <"$series/series"
[ ${#patches[@]} -gt 0 ] || { echo "apply-series: empty series" >&2; exit 1; }

die() { echo "apply-series: FAILED: $*" >&2; exit 1; }

# Files named by the patches (both sides, /dev/null left out).
touched=$(cd "$series" && sed -n 's#^\(---\|+++\) [ab]/\(.*\)$#\2#p' "${patches[@]}" | sort -u)

apply_all() {	# apply_all <tree> [<how many patches>]
	local p out
	for p in "${patches[@]:0:${2:-${#patches[@]}}}"; do
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

if [ "$mode" = new ]; then
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

# stage <dir> <n>: a copy of the pristine files the series touches, with
# the first n patches applied.
stage_prefix() {
	local f
	rm -rf "$1"
	mkdir -p "$1"
	for f in $touched; do
		if [ -e "$src/$f" ]; then
			mkdir -p "$1/$(dirname "$f")"
			cp -a "$src/$f" "$1/$f"
		fi
	done
	apply_all "$1" "$2"
}

# sync_tree <stage> <tree>: make <tree> the pristine source with the
# staged files, copying only what differs (unchanged files keep their
# timestamps, so kbuild rebuilds only what changed).
sync_tree() {
	local stage=$1 dest=$2 f want
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
}

stage=$(mktemp -d /tmp/maple-apply.XXXXXX)
trap 'rm -rf "$stage"' EXIT

if [ "$mode" = sync ]; then
	stage_prefix "$stage" "${#patches[@]}"
	check_ours "$stage"
	sync_tree "$stage" "$dest"
	echo "apply-series: ${#patches[@]} patches in effect in $dest"
	exit 0
fi

# --prefixes
ours="include/linux/maple_tree.h lib/maple_tree.c lib/maple_tree_kunit.c"
tree=$dest/linux
jobs=${JOBS:-2}
kmake() {	# kmake <build dir> <make arguments>...
	local b=$1
	shift
	nice -n 10 make -C "$tree" O="$b" ARCH=um -j"$jobs" "$@"
}
ourdiag() {	# ourdiag <log>: the warnings and errors located in our files
	local f pat=
	for f in $ours; do
		pat="$pat${pat:+|}(^|/)${f//./\\.}:[0-9]+"
	done
	grep -E '(warning|error):' "$1" | grep -E "$pat" || true
}
mkdir -p "$dest"
summary=$dest/summary
: >"$summary"
fail=0
for n in $(seq 1 ${#patches[@]}); do
	p=${patches[$((n - 1))]}
	log=$dest/prefix-$n.log
	wlog=$dest/prefix-$n-w1.log
	echo "apply-series: prefix $n/${#patches[@]}: ... $p"
	stage_prefix "$stage" "$n" >"$log" 2>&1 || { cat "$log" >&2; die "prefix $n does not apply"; }
	sync_tree "$stage" "$tree" >>"$log"
	# A new build folder is configured and prepared by make runs of its
	# own: the first make in a new folder settles some compiler options
	# wrongly (W=1's -Wunused-const-variable among them), later ones do
	# not.
	if [ ! -f "$dest/um/.config" ]; then
		kmake "$dest/um" -s defconfig >>"$log" 2>&1
		kmake "$dest/um" prepare >>"$log" 2>&1
	fi
	if [ ! -f "$dest/um-w1/.config" ]; then
		kmake "$dest/um-w1" -s defconfig >>"$log" 2>&1
		kmake "$dest/um-w1" W=1 prepare >>"$log" 2>&1
	fi
	# The objects of the .c files this prefix's patches touch.
	objs=$(cd "$series" && sed -n 's#^+++ b/\(.*\)\.c$#\1.o#p' "${patches[@]:0:$n}" | sort -u)
	# Our objects are always compiled again, so that their warnings show
	# at every prefix, not only where the file changed.
	rm -f "$dest/um/lib/maple_tree.o" "$dest/um/lib/maple_tree_kunit.o" \
		"$dest/um-w1/lib/maple_tree.o"
	t0=$(date +%s)
	rc=0
	kmake "$dest/um" C=1 lib/ $objs >>"$log" 2>&1 || rc=$?
	kmake "$dest/um-w1" W=1 lib/maple_tree.o >"$wlog" 2>&1 || rc=$?
	grep -q -e '-Wunused-const-variable' "$dest/um-w1/lib/.maple_tree.o.cmd" ||
		die "the W=1 build of prefix $n did not have W=1's options"
	dcount=$(ourdiag "$log" | grep -c . || true)
	warn=$(ourdiag "$wlog" | grep -c . || true)
	verdict=ok
	if [ "$rc" != 0 ]; then
		verdict="BUILD FAILED"
	elif [ "$dcount" -gt 0 ]; then
		verdict="warnings in our files"
	elif [ "$warn" -gt 0 ]; then
		verdict="W=1 warnings in our files"
	fi
	printf '%-4s %-62.62s %3s %3s %4ss %s\n' "$n" "$p" "$dcount" "$warn" \
		"$(( $(date +%s) - t0 ))" "$verdict" >>"$summary"
	if [ "$verdict" != ok ]; then
		fail=1
		grep -h -E '(warning|error):' "$log" "$wlog" | sed 's/^/  /' >&2 || true
		echo "apply-series: FAILED: prefix $n ($p): $verdict (logs $log, $wlog)" >&2
	fi
	ourdiag "$log" | sed "s/^/apply-series: prefix $n: /"
	ourdiag "$wlog" | sed "s/^/apply-series: prefix $n: W=1: /"
done
echo "apply-series: every prefix of the series (n, last patch, warnings in our files: default build with sparse, W=1; time):"
cat "$summary"
[ "$fail" = 0 ] || die "a prefix of the series does not build cleanly"
check_ours "$tree"
echo "apply-series: every prefix of ${#patches[@]} patches builds"
