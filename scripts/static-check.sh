#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of our kernel files:
#  - sparse (Debian's "sparse" package) through kbuild, "make C=2 W=1" on
#    the out-of-tree module build (x86_64, Debian's headers, with
#    CONFIG_DEBUG_MAPLE_TREE): fails on any sparse or compiler warning or
#    error in our files, W=1's extra warnings included (warnings that come
#    from the kernel's own headers are counted and shown, but are not ours
#    to fix); gcc's -Wframe-larger-than=1024 (CONFIG_FRAME_WARN of 32-bit
#    kernels, half the 64-bit default) is on, and a frame over it fails
#    like any other warning;
#  - the same in the kernel tree: lib/maple_tree.o and
#    lib/maple_tree_kunit.o built with W=1 and C=2 for UML in Linux 6.1
#    patched with the series: fails on any warning or error in our files;
#  - scripts/checkpatch.pl --strict on the patches of make series (from
#    the top of the pristine tree, the cover letter left out): fails on
#    any error (Signed-off-by is left to the submitter), lists the
#    warnings and checks by type, and fails if the cover letter does not
#    justify each type (scripts/series/checkpatch-accepted);
#  - scripts/checkpatch.pl from Debian's linux-source-6.1: fails on any
#    ERROR; warnings are printed (the accepted ones are listed in
#    Documentation/dev-tools/testing.rst);
#  - sparse (C=1) and -Wframe-larger-than=1024 on the kernel's own files
#    the series changes (kernel/fork.c), built for UML in the patched tree
#    and in the pristine one: fails on any diagnostic the pristine file
#    does not give.
set -euo pipefail
cd "$(dirname "$0")/.."
# The 6.1 series, whatever KVER the caller runs with.
export KVER=6.1
top=$PWD

scripts/kernel-deps.sh
OUT=${OUT:-$top/build/static}
KUNIT_SRC=${KUNIT_SRC:-/usr/src/linux-source-6.1.tar.xz}
mkdir -p "$OUT"
fail=0

# ---- sparse ----
echo "static-check: sparse and W=1 (make modules C=2 W=1)"
# Recompile too, so gcc's own warnings on our files show in the log.
rm -f build/kmod/lib/*.o
set +e
# Without the caller's MAKEFLAGS: under "make -s" kbuild would print no
# "CHECK" line, and the count below would read no file checked.
MAKEFLAGS= make --no-print-directory modules \
	KBUILD_ARGS="C=2 W=1 KCFLAGS=-Wframe-larger-than=1024" >"$OUT/sparse.log" 2>&1
mrc=$?
set -e
# W=1 must have been in effect (its -Wextra and -Wunused-const-variable).
for o in build/kmod/lib/maple_tree.o build/kmod/lib/test_maple_tree_api.o; do
	c=$(dirname "$o")/.$(basename "$o").cmd
	if ! grep -q -e '-Wextra' "$c" 2>/dev/null ||
	   ! grep -q -e '-Wunused-const-variable' "$c"; then
		echo "static-check: FAIL: $o was not built with W=1's options" >&2
		fail=1
	fi
done
if [ "$mrc" != 0 ]; then
	echo "static-check: FAIL: the sparse build failed:" >&2
	tail -n 30 "$OUT/sparse.log" >&2
	fail=1
fi
grep -c '^  CHECK ' "$OUT/sparse.log" | sed 's/^/static-check: sparse checked /; s/$/ files/'
ours=$(grep -E '(warning|error):' "$OUT/sparse.log" | grep -E '/build/kmod/|^(lib|include|scripts)/' || true)
theirs=$(grep -E '(warning|error):' "$OUT/sparse.log" | grep -v -E '/build/kmod/' || true)
if [ -n "$theirs" ]; then
	echo "static-check: $(echo "$theirs" | wc -l) sparse/compiler diagnostics in the kernel's own headers (not ours):"
	echo "$theirs" | sort | uniq -c | sort -rn | head -n 10
fi
if [ -n "$ours" ]; then
	echo "static-check: FAIL: sparse on our files:" >&2
	echo "$ours" >&2
	fail=1
else
	echo "static-check: sparse: no warnings in our files"
fi

# ---- checkpatch ----
cp_dir=$(LINUX_SRC_TARBALL=$KUNIT_SRC scripts/linux-src.sh \
	scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)
files=(include/linux/maple_tree.h lib/maple_tree.c lib/test_maple_tree_api.c
       lib/maple_tree_kunit.c scripts/kbuild/bundled.h Kconfig Kbuild)
echo "static-check: checkpatch.pl --no-tree -f ${files[*]}"
set +e
perl "$cp_dir/scripts/checkpatch.pl" --no-tree -f --terse --show-types \
	--no-summary "${files[@]}" >"$OUT/checkpatch.log" 2>&1
set -e
cat "$OUT/checkpatch.log"
errors=$(grep -c ': ERROR:' "$OUT/checkpatch.log" || true)
warnings=$(grep -c ': WARNING:' "$OUT/checkpatch.log" || true)
echo "static-check: checkpatch: $errors errors, $warnings warnings"
[ "$errors" = 0 ] || fail=1

# ---- checkpatch --strict on the patch series, as a reviewer runs it ----
# From the top of the pristine tree, so the checks that look at the tree
# (MAINTAINERS, existing files) run too.  Signed-off-by is left to the
# submitter (scripts/make-series.sh): MISSING_SIGN_OFF is not counted.
series=$OUT/series
SERIES_OUT=$series scripts/make-series.sh >/dev/null
src=$(scripts/linux-src.sh)
mapfile -t spatches < <(sed "s#^#$series/#" "$series/series")
echo "static-check: checkpatch.pl --strict on ${#spatches[@]} patches of make series"
set +e
(cd "$src" && perl scripts/checkpatch.pl --strict --terse --show-types \
	--no-summary --ignore MISSING_SIGN_OFF "${spatches[@]}") \
	>"$OUT/checkpatch-series.log" 2>&1
set -e
errors=$(grep -c ': ERROR:' "$OUT/checkpatch-series.log" || true)
echo "static-check: checkpatch --strict on the series: $errors errors;" \
	"warnings and checks by type:"
grep -oE ': (WARNING|CHECK):[A-Z_]+' "$OUT/checkpatch-series.log" |
	sed 's/^: //' | sort | uniq -c | sort -rn | sed 's/^/  /'
grep ': ERROR:' "$OUT/checkpatch-series.log" || true
[ "$errors" = 0 ] || fail=1
if grep -q 'NOT JUSTIFIED' "$series/0000-cover-letter.patch"; then
	echo "static-check: FAIL: checkpatch types the cover letter does not justify" \
		"(add them to scripts/series/checkpatch-accepted):" >&2
	grep -B1 'NOT JUSTIFIED' "$series/0000-cover-letter.patch" >&2
	fail=1
fi

# ---- W=1 and sparse on our files in the kernel tree ----
# Linux 6.1 patched with the series (the boot test's tree, kept in step
# by apply-series --sync), built for UML in its own folder: our objects
# with W=1 and C=2 (sparse on every file compiled).  Any warning or error
# located in one of our files fails.
tree=$(realpath -m "${BOOT_TREE:-$top/build/boot-linux}")
SERIES=$series scripts/apply-series.sh --sync "$tree" >/dev/null
wdir=$OUT/w1-um
wmake() { make -C "$tree" O="$wdir" ARCH=um -j"${JOBS:-2}" W=1 "$@"; }
if [ ! -f "$wdir/.config" ]; then
	mkdir -p "$wdir"
	wmake -s defconfig >/dev/null
	# In its own run: a new folder's first make settles some of W=1's
	# options wrongly.
	wmake prepare >/dev/null 2>&1
fi
rm -f "$wdir/lib/maple_tree.o" "$wdir/lib/maple_tree_kunit.o"
echo "static-check: W=1 C=2 lib/maple_tree.o lib/maple_tree_kunit.o in Linux 6.1 with the series (UML)"
set +e
wmake C=2 lib/maple_tree.o lib/maple_tree_kunit.o >"$OUT/w1-um.log" 2>&1
wrc=$?
set -e
if [ "$wrc" != 0 ]; then
	echo "static-check: FAIL: the W=1 build failed:" >&2
	tail -n 30 "$OUT/w1-um.log" >&2
	fail=1
fi
if ! grep -q -e '-Wunused-const-variable' "$wdir/lib/.maple_tree.o.cmd" 2>/dev/null; then
	echo "static-check: FAIL: lib/maple_tree.o was not built with W=1's options" >&2
	fail=1
fi
wours=$(grep -E '(warning|error):' "$OUT/w1-um.log" |
	grep -E '(^|/)(include/linux/maple_tree\.h|lib/maple_tree\.c|lib/maple_tree_kunit\.c):[0-9]+' || true)
if [ -n "$wours" ]; then
	echo "static-check: FAIL: W=1 or sparse on our files in the kernel tree:" >&2
	echo "$wours" >&2
	fail=1
else
	echo "static-check: W=1 and sparse: no warnings in our files ($(grep -c '^  CHECK ' "$OUT/w1-um.log") files checked)"
fi

# ---- sparse and the frame limit on the series' kernel files ----
# The series also changes kernel files that are not ours (kernel/fork.c).
# Build those objects with C=1 and -Wframe-larger-than=1024 in a UML tree
# patched with the series (the boot test's tree, kept in sync by
# apply-series) and fail on any warning that the pristine file does not
# give too (compared without line numbers).
kfiles=$(cd "$series" && sed -n 's#^+++ b/\(.*\.c\)$#\1#p' $(cat series) | sort -u |
	 grep -v -E '^lib/(maple_tree|maple_tree_kunit|test_maple_tree_api)\.c$' || true)
if [ -n "$kfiles" ]; then
	sdiag() {	# sdiag <tree> <build dir> <object>: its warnings, no line numbers
		[ -f "$2/.config" ] || make -C "$1" O="$2" ARCH=um -s defconfig >/dev/null
		rm -f "$2/$3"
		make -C "$1" O="$2" ARCH=um -j"${JOBS:-2}" C=1 \
			KCFLAGS=-Wframe-larger-than=1024 "$3" 2>&1 |
			grep -E '(warning|error):' |
			sed -E -e "s#^$1/##" -e 's/:[0-9]+:[0-9]+:/:/' | sort
	}
	for f in $kfiles; do
		echo "static-check: sparse and frames on $f of the series (UML)"
		mkdir -p "$OUT/pristine-um" "$OUT/series-um"
		sdiag "$src" "$OUT/pristine-um" "${f%.c}.o" >"$OUT/pristine-${f//\//_}.diag" || true
		sdiag "$tree" "$OUT/series-um" "${f%.c}.o" >"$OUT/series-${f//\//_}.diag" || true
		new=$(comm -13 "$OUT/pristine-${f//\//_}.diag" "$OUT/series-${f//\//_}.diag")
		echo "static-check: $f: $(wc -l <"$OUT/pristine-${f//\//_}.diag") diagnostics in the pristine file, $(echo -n "$new" | grep -c . || true) new"
		if [ -n "$new" ]; then
			echo "static-check: FAIL: new diagnostics in $f:" >&2
			echo "$new" >&2
			fail=1
		fi
	done
fi

[ "$fail" = 0 ] && echo "static-check: PASS"
exit "$fail"
