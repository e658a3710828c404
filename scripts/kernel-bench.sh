#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench KERNEL=1: will-it-scale style loops inside a booted Linux 6.1
# (or, with KVER=6.12, Linux 6.12) x86_64, the kernel with our tree against
# the kernel's own, under qemu's TCG (every guest instruction emulated, so
# a syscall's kernel work keeps about its native share of the time).  In
# 6.12 both kernels serve page faults without mmap_lock
# (CONFIG_PER_VMA_LOCK, on by default for SMP x86_64), so the page-fault
# rows time the tree's RCU walk.
#
#   scripts/kernel-bench.sh
#
#  1. Kernels, each in a kept build folder under $OUT, so a second run
#     rebuilds only what changed (scripts/kernel-build.sh, the steps
#     scripts/boot-test.sh uses too): "maple", Debian's linux-source-6.1
#     with our series (scripts/make-series.sh, then scripts/apply-series.sh
#     --sync into $OUT/linux; for 6.12 our files put in by
#     scripts/linux-put-ours.sh), and "upstream", the pristine source.  The
#     configuration is "make tinyconfig" plus scripts/boot/x86_64-kbench.config:
#     SMP, an initramfs, a serial console, and no debugging, no KASAN, no
#     lib/test_maple_tree or KUnit at boot.
#     KERNEL_BASE=<rev> (6.1 only) adds "base": the series made from that revision of
#     this project (git archive into a temporary folder, "make series"
#     there), with any patch HEAD's series has and that one lacks added
#     if it changes no file that one changes (the fork patch, for older
#     revisions; not HEAD's tree split into other steps), so that only
#     the tree differs.  It has its own kept tree and build folder ($OUT/linux-base,
#     $OUT/build-base): syncing it into maple's would recompile most of
#     the kernel twice a run whenever maple_tree.h differs (mm_types.h
#     includes it); this way a second run with the same base rebuilds
#     nothing.
#  2. An initramfs: busybox-static, tools/testing/vma/wis_bench.c built
#     static, scripts/boot/wis-init.sh as /init.
#  3. ROUNDS rounds (default 5; QUICK=1: 2 rounds of 1 s loops).  A round
#     boots every kernel once, plus "control", the upstream kernel a second
#     time (the A/A run: its ratio to upstream is the noise floor); each
#     round starts one kernel later (A B C, B C A, ...).  Every boot is
#     qemu-system-x86_64 -accel tcg with one vCPU, qemu pinned with taskset
#     to host CPU $BENCH_CPU (default the last one).
#  4. The table, in the kernel test robot's format, per pair of kernels:
#     the median ops/s of each over the rounds with ±the rounds' standard
#     deviation relative to their mean, %change the median of the
#     per-round ratios, and those ratios' min and max.  The run as JSON in
#     bench-results/<stamp>-<commit>[-quick]-kernel[-6.12].json; raw lines and
#     consoles under $OUT.  Progress on stderr; the build and run times
#     are printed at the end.
#
# Environment: KVER (6.1 or 6.12, default 6.1), OUT (default build/kbench,
# build/kbench-6.12), ROUNDS, QUICK, WIS_SECONDS (each
# loop's time, default 2), WIS_TESTS (comma-separated, default all),
# KERNEL_BASE, JOBS (2), BUILD_NICE (10), BENCH_CPU, BOOT_MEM (512M),
# BOOT_TIMEOUT (600 s a boot), QEMU_CPU (qemu's -cpu, default qemu64),
# RESULTS (default bench-results).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

scripts/kernel-deps.sh
KVER=${KVER:-6.1}
case $KVER in
6.1) OUT=$(realpath -m "${OUT:-$top/build/kbench}") ;;
6.12) OUT=$(realpath -m "${OUT:-$top/build/kbench-$KVER}") ;;
*) echo "kernel-bench: unknown KVER $KVER (6.1, 6.12)" >&2; exit 2 ;;
esac
tarball=/usr/src/linux-source-$KVER.tar.xz
QUICK=${QUICK:-0}
case $QUICK in 1|y|yes|true) quick=1 ;; *) quick=0 ;; esac
if [ "$quick" = 1 ]; then
	ROUNDS=${ROUNDS:-2}
	WIS_SECONDS=${WIS_SECONDS:-1}
else
	ROUNDS=${ROUNDS:-5}
	WIS_SECONDS=${WIS_SECONDS:-2}
fi
WIS_TESTS=${WIS_TESTS:-}
KERNEL_BASE=${KERNEL_BASE:-}
JOBS=${JOBS:-2}
BUILD_NICE=${BUILD_NICE:-10}
BENCH_CPU=${BENCH_CPU:-$(( $(nproc) - 1 ))}
BOOT_MEM=${BOOT_MEM:-512M}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
QEMU_CPU=${QEMU_CPU:-qemu64}
RESULTS=$(realpath -m "${RESULTS:-$top/bench-results}")
frag=$top/scripts/boot/x86_64-kbench.config
tree=$OUT/linux
mkdir -p "$OUT"
if [ "$KVER" = 6.12 ]; then
	# 6.12 has no SLOB and no BASE_FULL (BASE_SMALL, off, took its
	# place); lock-free faults are what its page-fault rows are about.
	sed -e '/^CONFIG_BASE_FULL=y$/d' -e '/^# CONFIG_SLOB is not set$/d' \
		"$frag" >"$OUT/kbench.config.new"
	printf '%s\n' '# CONFIG_BASE_SMALL is not set' 'CONFIG_PER_VMA_LOCK=y' \
		>>"$OUT/kbench.config.new"
	cmp -s "$OUT/kbench.config.new" "$OUT/kbench.config" ||
		mv "$OUT/kbench.config.new" "$OUT/kbench.config"
	rm -f "$OUT/kbench.config.new"
	frag=$OUT/kbench.config
fi
: >"$OUT/times"

say() { echo "kernel-bench: $*" >&2; }
t_all=$(date +%s)
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- 2>/dev/null || commit=$commit-dirty

build() {	# build <name> <source tree> <build folder>
	local t img
	t=$(date +%s)
	say "building $1 in $3 (-j$JOBS, nice $BUILD_NICE)"
	img=$(JOBS=$JOBS nice -n "$BUILD_NICE" scripts/kernel-build.sh "$2" "$3" \
		x86_64 "$frag" "$OUT/build-$1.log" | tail -n 1)
	cp "$img" "$OUT/bzImage-$1"
	echo "build-$1 $(( $(date +%s) - t ))" >>"$OUT/times"
	say "built $1 in $(( $(date +%s) - t ))s"
}
sync_tree() {	# sync_tree <kept tree> <series folder> <checkout whose files it carries>
	SERIES=$2 OURS=$3 scripts/apply-series.sh --sync "$1" >"$OUT/apply.log" 2>&1 ||
		{ cat "$OUT/apply.log" >&2; exit 1; }
	grep -v '^apply-series: applied' "$OUT/apply.log" | sed 's/^/kernel-bench: /' >&2 || true
}

# 1. The kernels.
[ "$KVER" = 6.1 ] || [ -z "${KERNEL_BASE:-}" ] ||
	{ say "KERNEL_BASE is for Linux 6.1 only"; exit 2; }
pristine=$(LINUX_SRC_TARBALL=$tarball scripts/linux-src.sh)
build upstream "$pristine" "$OUT/build-upstream"
kernels=(upstream maple)
if [ -n "$KERNEL_BASE" ]; then
	rev=$(git rev-parse --short "$KERNEL_BASE^{commit}")
	say "KERNEL_BASE $rev: its series"
	tmp=$(mktemp -d /tmp/kernel-bench.XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
	git archive "$rev" | tar -x -C "$tmp"
	bseries=$OUT/series-base
	rm -rf "$bseries"
	(cd "$tmp" && LINUX_SRC_CACHE=$(dirname "$pristine") SERIES_OUT=$bseries \
		make -s --no-print-directory series) >"$OUT/series-base.log" 2>&1 ||
		{ cat "$OUT/series-base.log" >&2; say "FAIL: make series of $rev"; exit 1; }
	scripts/make-series.sh >/dev/null
	# The files the base's own series changes.
	(cd "$bseries" && sed -n 's|^+++ b/||p' $(cat series)) | sort -u \
		>"$tmp/base-files"
	while read -r p; do
		grep -q -- "-${p#*-}$" "$bseries/series" && continue
		# Only a change the base does not make at all (the fork patch,
		# for older revisions): a patch to a file the base's series
		# already changes is the base's own tree, split another way.
		if sed -n 's|^+++ b/||p' "build/series/$p" |
		   grep -qxF -f "$tmp/base-files"; then
			say "base: leaving out HEAD's $p (its files are $rev's)"
			continue
		fi
		say "base: adding HEAD's $p (not in $rev's series)"
		cp "build/series/$p" "$bseries/$p"
		echo "$p" >>"$bseries/series"
	done <build/series/series
	sync_tree "$OUT/linux-base" "$bseries" "$tmp"
	build base "$OUT/linux-base" "$OUT/build-base"
	kernels+=(base)
fi
if [ "$KVER" = 6.1 ]; then
	scripts/make-series.sh >/dev/null
	sync_tree "$tree" "$top/build/series" "$top"
else
	LINUX_SRC_TARBALL=$tarball scripts/linux-put-ours.sh "$tree"
fi
build maple "$tree" "$OUT/build-maple"
kernels+=(control)
cp "$OUT/bzImage-upstream" "$OUT/bzImage-control"

# 2. The initramfs.
root=$OUT/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev"
cp /bin/busybox "$root/bin/busybox"
gcc -static -O2 -pthread -Wall -Wextra -Werror -o "$root/wis_bench" \
	tools/testing/vma/wis_bench.c
cp scripts/boot/wis-init.sh "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.gz"
t_builds=$(( $(date +%s) - t_all ))

# 3. The boots.
boot() {	# boot <kernel> <round>; prints the wis-bench lines
	local log=$OUT/console-$1-$2.log
	timeout -k 10 "$BOOT_TIMEOUT" taskset -c "$BENCH_CPU" \
		qemu-system-x86_64 -accel tcg -cpu "$QEMU_CPU" -smp 1 \
		-m "$BOOT_MEM" -nographic -no-reboot -monitor none \
		-serial stdio -kernel "$OUT/bzImage-$1" -initrd "$OUT/initramfs.gz" \
		-append "console=ttyS0 panic=-1 quiet INIT_OFF=reboot WIS_SECONDS=$WIS_SECONDS WIS_TESTS=$WIS_TESTS" \
		</dev/null >"$log" 2>&1 || true
	# The console may put terminal escapes before a line.
	tr -d '\r' <"$log" | grep -a -o 'wis-bench: .*$' || true
}
res=$OUT/results
: >"$res"
t_run=$(date +%s)
nk=${#kernels[@]}
say "${ROUNDS} rounds of ${kernels[*]}, ${WIS_SECONDS} s a loop, qemu on host CPU $BENCH_CPU"
for r in $(seq 1 "$ROUNDS"); do
	for i in $(seq 0 $(( nk - 1 ))); do
		k=${kernels[$(( (r - 1 + i) % nk ))]}
		t=$(date +%s)
		out=$(boot "$k" "$r")
		grep -q '^wis-bench: exit 0$' <<<"$out" ||
			{ say "FAIL: round $r $k, see $OUT/console-$k-$r.log"; exit 1; }
		[ "$r" = 1 ] && grep -E '^wis-bench: (kernel|clock)' <<<"$out" |
			sed "s/^wis-bench: /kernel-bench: $k: /" >&2
		sed -n "s/^wis-bench: test \([a-z0-9_]*\) mode \([a-z]*\) ops [0-9]* ns [0-9]* ops_per_sec \([0-9.]*\)$/$r $k \1.\2 \3/p" \
			<<<"$out" >>"$res"
		say "round $r of $ROUNDS: $k booted and ran in $(( $(date +%s) - t ))s"
	done
done
t_run=$(( $(date +%s) - t_run ))
echo "run $t_run" >>"$OUT/times"
clocksource=$(tr -d '\r' <"$OUT/console-upstream-1.log" |
	sed -n 's/^wis-bench: clocksource at the end \([^ ]*\).*/\1/p')

# 4. The table and the JSON.
mkdir -p "$RESULTS"
stamp=${BENCH_STAMP:-$(date -u +%Y%m%d-%H%M%S)}
suffix=
[ "$quick" = 1 ] && suffix=-quick
ksuffix=
[ "$KVER" = 6.1 ] || ksuffix=-$KVER
json=$RESULTS/$stamp-$commit$suffix-kernel$ksuffix.json
say "upstream: Linux $KVER as Debian ships it ($(basename "$tarball")); maple: the same with our tree"
python3 - "$res" "$json" "$commit" "$ROUNDS" "$WIS_SECONDS" "$OUT/times" \
	"$clocksource" "${KERNEL_BASE:+$rev}" "$KVER" <<'EOF'
import json, statistics, sys, time

res, out, commit, rounds, secs, times, clock, base, kver = sys.argv[1:10]
vals = {}			# vals[kernel][metric][round]
metrics = []
for line in open(res):
    r, k, m, v = line.split()
    vals.setdefault(k, {}).setdefault(m, {})[int(r)] = float(v)
    if m not in metrics:
        metrics.append(m)

def rsd(xs):
    return 100 * statistics.pstdev(xs) / statistics.mean(xs) if len(xs) > 1 else 0

def cell(v, sd):
    s = ' ±%3.0f%%' % sd if sd >= 0.5 else ''
    return ('%10.0f' if v >= 1000 else '%10.1f') % v + '%6s' % s

pairs = [('upstream', 'maple')]
if 'base' in vals:
    pairs += [('base', 'maple'), ('upstream', 'base')]
pairs += [('upstream', 'control')]
doc = {'commit': commit, 'kernel_version': kver, 'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
       'rounds': int(rounds), 'seconds_per_loop': float(secs),
       'clocksource': clock, 'kernel_base': base or None,
       'times_s': dict(l.split() for l in open(times)),
       'unit': 'ops/s (page_fault1: pages/s)',
       'metrics': {}, 'rsd_pct': {}, 'rounds_ops': {}, 'ratios': {}}
for k in vals:
    doc['metrics'][k] = {m: statistics.median(vals[k][m].values()) for m in metrics}
    doc['rsd_pct'][k] = {m: round(rsd(list(vals[k][m].values())), 2) for m in metrics}
    doc['rounds_ops'][k] = {m: [vals[k][m][r] for r in sorted(vals[k][m])] for m in metrics}
for a, b in pairs:
    title = a + ' %change ' + b + (' (A/A control: the same kernel booted twice a round)' if b == 'control' else '')
    print('\n%s\n' % title)
    print('%16s %27s' % (a, b))
    print('---------------- ---------------------------')
    print('         %stddev     %change         %stddev')
    print('             \\          |                \\')
    doc['ratios'][b + '/' + a] = {}
    for m in metrics:
        ra = [vals[b][m][r] / vals[a][m][r] for r in sorted(vals[a][m]) if r in vals[b][m]]
        med = statistics.median(ra)
        va, vb = list(vals[a][m].values()), list(vals[b][m].values())
        print('%s %10s %s  will-it-scale.%s.ops_per_sec  [ratio %.3f, %.3f-%.3f]' % (
            cell(statistics.median(va), rsd(va)), '%+.1f%%' % (100 * (med - 1)),
            cell(statistics.median(vb), rsd(vb)), m, med, min(ra), max(ra)))
        doc['ratios'][b + '/' + a][m] = {'median': round(med, 4), 'min': round(min(ra), 4),
                                         'max': round(max(ra), 4)}
with open(out, 'w') as f:
    json.dump(doc, f, indent=2)
    f.write('\n')
EOF
say "clocksource (upstream, round 1, at the end of the run): $clocksource"
say "times: $(tr '\n' ' ' <"$OUT/times")(seconds; builds and initramfs ${t_builds}s, $ROUNDS rounds ${t_run}s)"
say "results in $json"
