#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Apply the patch series of scripts/make-series.sh to a fresh copy of the
# Debian linux-source it was made for (6.1 or 6.12).
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
#	Check that every prefix of the series builds and links: for the
#	first patch, the first two, and so on to the whole series, bring a
#	kept tree to that prefix (as --sync does) and, for UML, build there
#	  - our objects (lib/maple_tree.o, and lib/maple_tree_kunit.o once
#	    its file is there) and those of the other .c files the prefix's
#	    patches touch (kernel/fork.o), with sparse (C=1);
#	  - the kernel, "linux", linked: defconfig with
#	    scripts/series/prefixes.config merged in (mm/'s tree checks, the
#	    kernel's own self-test and our KUnit suites built in, so every
#	    caller of the tree is linked; an option of it that the prefix's
#	    Kconfig has but the configuration drops fails the prefix);
#	  - our objects again with W=1, in a defconfig build of their own.
#	Fails if a build or the link fails, or on any warning or error in
#	our files (include/linux/maple_tree.h once it is ours,
#	lib/maple_tree.c, lib/maple_tree_new.h, lib/maple_tree_kunit.c) in
#	any of those builds, at any prefix.  Nothing is filtered.
#	Until the series' switch patch the kernel is built on its own
#	header; from it on, on ours.  As nearly every object reads that
#	header, the prefixes before the switch are built in DEST/old and
#	those from it on in DEST/new (each: the tree "linux", the build
#	folders "um" and "um-w1"), so that going from the last prefix back
#	to the first rebuilds nothing but what changed: the first run
#	builds the kernel twice (about 21 minutes in all on two cores),
#	later ones only the files the prefixes change, and link (4 to 5
#	minutes for the whole series).  Logs:
#	DEST/prefix-<n>.log; the table of results: DEST/summary.
#	Environment: JOBS (2).
#
# SERIES is the folder of patches with its "series" file and the "base"
# record of the kernel it was made for (make series writes them); by
# default build/series for KVER=6.1 (the default), build/series-6.12 for
# KVER=6.12.  A KVER that is not the series' own base is an error.  Either
# way the result is checked: our include/linux/maple_tree.h,
# lib/maple_tree.c and lib/maple_tree_kunit.c must come out byte for
# byte: those of this checkout, or of the checkout OURS names
# (scripts/kernel-bench.sh's KERNEL_BASE, a series made from an older
# revision of this project).
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

die() { echo "apply-series: FAILED: $*" >&2; exit 1; }

# The series and the kernel it applies to.
if [ -n "${SERIES:-}" ]; then
	series=$(realpath -m "$SERIES")
elif [ -z "${KVER:-}" ] || [ "$KVER" = 6.1 ]; then
	series=$top/build/series
else
	series=$top/build/series-$KVER
fi
[ -f "$series/series" ] || { echo "apply-series: no $series/series (run make series${KVER:+ KVER=$KVER})" >&2; exit 1; }
kver=6.1	# a series made before the record was written
tarball=
if [ -f "$series/base" ]; then
	kver=$(sed -n 's/^kver //p' "$series/base")
	tarball=$(sed -n 's/^tarball //p' "$series/base")
fi
[ -n "${KVER:-}" ] && [ "$KVER" != "$kver" ] &&
	die "$series is a series for Linux $kver, not KVER=$KVER"
tarball=${tarball:-/usr/src/linux-source-$kver.tar.xz}
src=$(LINUX_SRC_TARBALL=$tarball scripts/linux-src.sh)
mapfile -t patches <"$series/series"
[ ${#patches[@]} -gt 0 ] || { echo "apply-series: empty series" >&2; exit 1; }

# Files named by the patches (both sides, /dev/null left out, renames
# included).
touched=$(cd "$series" && sed -n -e 's#^\(---\|+++\) [ab]/\(.*\)$#\2#p' \
	-e 's#^rename \(from\|to\) \(.*\)$#\2#p' "${patches[@]}" | sort -u)

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
	echo "apply-series: ${#patches[@]} patches applied to $dest (Linux $kver)"
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
	# A tree made from another kernel's source is made again (one made
	# before the source was recorded is taken as this one's).
	[ ! -f "$dest/.maple-series-files" ] || [ -f "$dest/.maple-series-src" ] ||
		echo "$src" >"$dest/.maple-series-src"
	if [ ! -f "$dest/.maple-series-files" ] ||
	   [ "$(cat "$dest/.maple-series-src")" != "$src" ]; then
		echo "apply-series: copying the pristine source to $dest"
		rm -rf "$dest"
		mkdir -p "$(dirname "$dest")"
		cp -a "$src" "$dest"
		: >"$dest/.maple-series-files"
		echo "$src" >"$dest/.maple-series-src"
	fi
	for f in $(printf '%s\n' $touched $(cat "$dest/.maple-series-files") | sort -u); do
		if [ -e "$stage/$f" ]; then
			want=$stage/$f
		elif [ -e "$src/$f" ] && ! grep -q -x -F "$f" <<<"$touched"; then
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
	echo "apply-series: ${#patches[@]} patches in effect in $dest (Linux $kver)"
	exit 0
fi

# --prefixes
jobs=${JOBS:-2}
kmake() {	# kmake <tree> <build dir> <make arguments>...
	local t=$1 b=$2
	shift 2
	nice -n 10 make -C "$t" O="$b" ARCH=um -j"$jobs" "$@"
}
ourdiag() {	# ourdiag <phase> <log>...: the warnings and errors located in our files
	local f pat= files="lib/maple_tree.c lib/maple_tree_new.h lib/maple_tree_kunit.c"
	[ "$1" = new ] && files="$files include/linux/maple_tree.h"
	shift
	for f in $files; do
		pat="$pat${pat:+|}(^|/)${f//./\\.}:[0-9]+"
	done
	cat "$@" | grep -E '(warning|error):' | grep -E "$pat" || true
}
# configure <tree> <build dir> [<fragment>]: defconfig (made once, kept
# as .config.defconfig) with the fragment merged in, then checked.
configure() {
	local t=$1 b=$2 frag=${3:-} opt sym bad=0
	if [ ! -f "$b/.config.defconfig" ]; then
		kmake "$t" "$b" -s defconfig
		cp "$b/.config" "$b/.config.defconfig"
		# A new folder's first make settles some compiler options
		# wrongly (W=1's -Wunused-const-variable among them): prepare
		# it in a run of its own.
		kmake "$t" "$b" -s prepare
	fi
	[ -n "$frag" ] || return 0
	# Made aside and put in place only when it differs: a rewritten
	# .config relinks the kernel (UML builds it in).
	mkdir -p "$b/.merge"
	"$t/scripts/kconfig/merge_config.sh" -m -O "$b/.merge" "$b/.config.defconfig" "$frag" >/dev/null
	kmake "$t" "$b" -s KCONFIG_CONFIG=.merge/.config olddefconfig
	cmp -s "$b/.merge/.config" "$b/.config" || cp "$b/.merge/.config" "$b/.config"
	while read -r opt; do
		sym=${opt%%=*}
		grep -qx "$opt" "$b/.config" && continue
		# Not in this kernel (yet): an option of a later patch.
		grep -r -q -x --include='Kconfig*' "config ${sym#CONFIG_}" "$t" || continue
		echo "apply-series: the configuration lacks $opt" >&2
		bad=1
	done < <(sed -n 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p' "$frag")
	return $bad
}
mkdir -p "$dest"
# The layout of earlier versions of this script: one tree, no link.
for d in linux um um-w1; do
	[ -e "$dest/$d" ] && { echo "apply-series: removing $dest/$d (an earlier layout)"; rm -rf "${dest:?}/$d"; }
done
summary=$dest/summary
: >"$summary"
fail=0
t_all=$(date +%s)
for n in $(seq 1 ${#patches[@]}); do
	p=${patches[$((n - 1))]}
	log=$dest/prefix-$n.log
	echo "apply-series: prefix $n/${#patches[@]}: ... $p"
	t0=$(date +%s)
	stage_prefix "$stage" "$n" >"$log" 2>&1 || { cat "$log" >&2; die "prefix $n does not apply"; }
	# The kernel's header or ours?
	phase=old
	if [ -e "$stage/include/linux/maple_tree.h" ] &&
	   ! cmp -s "$stage/include/linux/maple_tree.h" "$src/include/linux/maple_tree.h"; then
		phase=new
	fi
	tree=$dest/$phase/linux
	bdir=$dest/$phase/um
	wdir=$dest/$phase/um-w1
	sync_tree "$stage" "$tree" >>"$log"
	mkdir -p "$bdir" "$wdir"
	rc=0
	{ configure "$tree" "$bdir" "$top/scripts/series/prefixes.config" &&
	  configure "$tree" "$wdir"; } >>"$log" 2>&1 || rc=$?
	# Our objects, compiled again at every prefix so that their warnings
	# show at every prefix, not only where the file changed, and those of
	# the other .c files this prefix's patches touch.
	objs=
	for f in lib/maple_tree.c lib/maple_tree_kunit.c; do
		[ -e "$tree/$f" ] && objs="$objs ${f%.c}.o"
	done
	ourobjs=$objs
	for f in $(cd "$series" && sed -n -e 's#^+++ b/\(.*\.c\)$#\1#p' \
			-e 's#^rename to \(.*\.c\)$#\1#p' "${patches[@]:0:$n}" | sort -u); do
		case " $objs " in *" ${f%.c}.o "*) continue ;; esac
		[ -e "$tree/$f" ] && objs="$objs ${f%.c}.o"
	done
	wlog=$dest/prefix-$n-w1.log
	: >"$wlog"
	if [ "$rc" = 0 ]; then
		for o in $ourobjs; do rm -f "$bdir/$o" "$wdir/$o"; done
		# The sparse build and the W=1 one side by side: each is mostly
		# one large file.
		if [ -n "$objs" ]; then
			kmake "$tree" "$bdir" C=1 $objs >>"$log" 2>&1 & pid=$!
		fi
		if [ -n "$ourobjs" ]; then
			kmake "$tree" "$wdir" W=1 $ourobjs >"$wlog" 2>&1 || rc=$?
		fi
		if [ -n "$objs" ]; then
			wait $pid || rc=$?
		fi
	fi
	if [ "$rc" = 0 ] && [ -n "$ourobjs" ]; then
		grep -q -e '-Wunused-const-variable' "$wdir/lib/.maple_tree.o.cmd" ||
			die "the W=1 build of prefix $n did not have W=1's options"
	fi
	if [ "$rc" = 0 ]; then
		echo "apply-series: prefix $n: linking linux" >>"$log"
		kmake "$tree" "$bdir" linux >>"$log" 2>&1 || rc=$?
	fi
	dcount=$(ourdiag "$phase" "$log" | grep -c . || true)
	warn=$(ourdiag "$phase" "$wlog" | grep -c . || true)
	verdict=ok
	if [ "$rc" != 0 ]; then
		verdict="BUILD FAILED"
	elif [ ! -x "$bdir/linux" ] || [ "$bdir/linux" -ot "$bdir/vmlinux.o" ]; then
		verdict="NOT LINKED"
	elif [ "$dcount" -gt 0 ]; then
		verdict="warnings in our files"
	elif [ "$warn" -gt 0 ]; then
		verdict="W=1 warnings in our files"
	fi
	printf '%-4s %-3s %-58.58s %3s %3s %4ss %s\n' "$n" "$phase" "$p" "$dcount" "$warn" \
		"$(( $(date +%s) - t0 ))" "$verdict" >>"$summary"
	if [ "$verdict" != ok ]; then
		fail=1
		grep -h -E '(warning|error):|Error [0-9]' "$log" "$wlog" | sed 's/^/  /' | tail -n 40 >&2 || true
		echo "apply-series: FAILED: prefix $n ($p): $verdict (logs $log, $wlog)" >&2
	fi
	ourdiag "$phase" "$log" | sed "s/^/apply-series: prefix $n: /"
	ourdiag "$phase" "$wlog" | sed "s/^/apply-series: prefix $n: W=1: /"
done
echo "apply-series: every prefix of the series for Linux $kver (n, the kernel's header or ours, last patch, warnings in our files: default build with sparse, W=1; time):"
cat "$summary"
[ "$fail" = 0 ] || die "a prefix of the series does not build and link cleanly"
check_ours "$tree"
echo "apply-series: every prefix of ${#patches[@]} patches builds and links ($(( $(date +%s) - t_all ))s)"
