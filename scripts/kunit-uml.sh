#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run our KUnit suites (lib/maple_tree_kunit.c), our self-test module
# (lib/test_maple_tree_api.c) and the kernel's own lib/test_maple_tree.c,
# all built in, in a real kernel: Debian's linux-source-6.1 (or, with
# KUNIT_SRC, another version's, such as linux-source-6.12) on UML, with
# our tree in place of the kernel's.
#
#  1. and 2. scripts/linux-put-ours.sh: a kept copy of the pristine
#     source in $OUT/linux with our header, lib/maple_tree.c, self-test
#     module, KUnit suites and Kconfig entry in place of the kernel's
#     (the kernel's lib/test_maple_tree.c stays as it is).
#  3. tools/testing/kunit/kunit.py run --arch=um with
#     scripts/kunit/maple.kunitconfig.
#  4. Read the results ourselves: kunit.py exits 0 even when a non-KUnit
#     self-test failed.  Pass only if every suite named in
#     lib/maple_tree_kunit.c is "ok" in the kernel's KTAP, none is "not ok",
#     kunit.py reported no failure, both self-tests printed their result
#     line ("test_maple_tree_api: N of M tests passed", the kernel's
#     "maple_tree: N of M tests passed") with N == M > 0, and the kernel
#     log holds no BUG, WARNING or Oops.
#
# Environment: OUT (default build/kunit), JOBS (default 2), KUNIT_TIMEOUT
# (seconds for the tests to run, default 900), KUNIT_SRC (the tarball).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

scripts/kernel-deps.sh
OUT=${OUT:-$top/build/kunit}
JOBS=${JOBS:-2}
KUNIT_TIMEOUT=${KUNIT_TIMEOUT:-900}
KUNIT_SRC=${KUNIT_SRC:-/usr/src/linux-source-6.1.tar.xz}
tree=$OUT/linux
bdir=$OUT/build

# 1. and 2. The kept copy of the source with our files in place; a new
#    copy (another tarball) starts its build afresh.
old=$(cat "$tree/.maple-src" 2>/dev/null || true)
LINUX_SRC_TARBALL=$KUNIT_SRC scripts/linux-put-ours.sh "$tree"
[ "$old" = "$(cat "$tree/.maple-src")" ] || rm -rf "$bdir"

# 3. Build and run on UML.
log=$OUT/kunit.log
raw=$bdir/test.log
rm -f "$raw"
echo "kunit-uml: kunit.py run --arch=um (build folder $bdir)"
set +e
python3 "$tree/tools/testing/kunit/kunit.py" run --arch=um \
	--kunitconfig="$top/scripts/kunit/maple.kunitconfig" \
	--build_dir="$bdir" --jobs="$JOBS" --timeout="$KUNIT_TIMEOUT" \
	2>&1 | tee "$log"
krc=${PIPESTATUS[0]}
set -e

# 4. Our own reading of the results.
fail=0
[ "$krc" = 0 ] || { echo "kunit-uml: FAIL: kunit.py exited with $krc" >&2; fail=1; }
if [ ! -s "$raw" ]; then
	echo "kunit-uml: FAIL: no kernel log ($raw)" >&2
	exit 1
fi
suites=$(sed -n 's/^[[:space:]]*\.name = "\(maple_tree_[a-z_]*\)",$/\1/p' lib/maple_tree_kunit.c)
[ -n "$suites" ] || { echo "kunit-uml: FAIL: no suite names found" >&2; exit 1; }
for s in $suites; do
	if ! grep -a -E -q "^[[:space:]]*ok [0-9]+ $s\$" "$raw"; then
		echo "kunit-uml: FAIL: suite $s did not pass" >&2
		fail=1
	fi
done
if grep -a -E -q '^[[:space:]]*not ok ' "$raw"; then
	echo "kunit-uml: FAIL: failed KUnit tests:" >&2
	grep -a -E '^[[:space:]]*not ok ' "$raw" >&2
	fail=1
fi
for name in test_maple_tree_api maple_tree; do
	line=$(grep -a -o "\(^\|[] ]\)$name: [0-9]* of [0-9]* tests passed" "$raw" |
	       sed 's/^[] ]//' | tail -n1 || true)
	if [ -z "$line" ]; then
		echo "kunit-uml: FAIL: no '$name: N of M tests passed' line" >&2
		fail=1
		continue
	fi
	read -r passed run < <(echo "$line" | sed 's/.*: \([0-9]*\) of \([0-9]*\).*/\1 \2/')
	echo "kunit-uml: self-test on UML: $line"
	if [ "$run" -eq 0 ] || [ "$passed" -ne "$run" ]; then
		echo "kunit-uml: FAIL: $line" >&2
		fail=1
	fi
done
if grep -a -E -q 'BUG:|WARNING:|Oops|Kernel panic' "$raw"; then
	echo "kunit-uml: FAIL: the kernel reported a problem:" >&2
	grep -a -E -A20 'BUG:|WARNING:|Oops|Kernel panic' "$raw" | head -n 60 >&2
	fail=1
fi
summary=$(grep -a -o 'Testing complete\. .*' "$log" | tail -n1 || true)
echo "kunit-uml: ${summary:-no summary from kunit.py}"
case "$summary" in
*"Ran "*"passed: "*) case "$summary" in *failed*|*crashed*|*errors*) fail=1 ;; esac ;;
*) fail=1 ;;
esac
[ "$fail" = 0 ] && echo "kunit-uml: PASS"
exit "$fail"
