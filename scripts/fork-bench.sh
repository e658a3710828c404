#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Time fork() in a booted Linux 6.1 with and without the series' fork
# patch (scripts/series/fork.awk: dup_mmap() copies the VMA tree with
# __mt_dup()), both kernels otherwise the same: the whole series, or the
# series without its fork patch.
#
#   scripts/fork-bench.sh [--arch um|x86_64]
#
#  1. The series (scripts/make-series.sh); "base" is every patch but the
#     fork one.  Each is applied with scripts/apply-series.sh --sync to a
#     kept tree ($OUT/linux) and built in $OUT/build-<arch> (the second
#     build only recompiles kernel/fork.c); the kernels are kept as
#     $OUT/<arch>-base and $OUT/<arch>-dup.
#  2. The configuration has no debugging: "make defconfig" (um) or
#     "make tinyconfig" (x86_64) plus scripts/boot/<arch>-bench.config
#     (an initramfs, ELF, /proc; no lockdep, no DEBUG_VM, no self-tests,
#     which would time themselves rather than fork).
#  3. An initramfs whose /init runs tools/testing/vma/fork_bench.c
#     (FORKS forks per VMA count, default 300, at about 100 and 1,000
#     VMAs) and powers off.
#  4. ROUNDS rounds (default 5), each booting base then dup (A B A B ...),
#     so that the machine's drift hits both alike.  Per boot and VMA count
#     fork_bench prints the median ns of the fork() call and of the whole
#     fork + exit + wait cycle.
#  5. The table: per round base, dup and dup/base; then the medians over
#     the rounds and the median of the per-round ratios.  Raw lines go to
#     $OUT/results-<arch>.
#
# --arch x86_64 is not usable for numbers yet: in the tinyconfig kernel
# under qemu (TCG) CLOCK_MONOTONIC advances in 4 ms jiffies (no ACPI, so
# no HPET, and tsc=reliable did not change it), coarser than one fork.
#
# Environment: OUT (default build/fork-bench), ROUNDS, FORKS, JOBS (2),
# QEMU_ACCEL (default tcg), BOOT_MEM (default 512M).
set -euo pipefail
cd "$(dirname "$0")/.."
# The 6.1 series, whatever KVER the caller runs with.
export KVER=6.1
top=$PWD

arch=um
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:?}; shift 2 ;;
	--arch=*) arch=${1#--arch=}; shift ;;
	*) echo "usage: $0 [--arch um|x86_64]" >&2; exit 2 ;;
	esac
done
case $arch in um|x86_64) ;; *) echo "fork-bench: unknown arch $arch" >&2; exit 2 ;; esac

scripts/kernel-deps.sh
OUT=$(realpath -m "${OUT:-$top/build/fork-bench}")
ROUNDS=${ROUNDS:-5}
FORKS=${FORKS:-300}
JOBS=${JOBS:-2}
QEMU_ACCEL=${QEMU_ACCEL:-tcg}
BOOT_MEM=${BOOT_MEM:-512M}
tree=$OUT/linux
bdir=$OUT/build-$arch
mkdir -p "$OUT" "$bdir"

# 1. The two series.
scripts/make-series.sh >/dev/null
full=$top/build/series
grep -q -- '-fork-' "$full/series" || { echo "fork-bench: no fork patch in $full" >&2; exit 1; }
base=$OUT/series-base
rm -rf "$base"
cp -a "$full" "$base"
grep -v -- '-fork-' "$full/series" >"$base/series"

# 2. Configured and built by scripts/kernel-build.sh, the steps the boot
# tests and the kernel-level bench use too.
build() {	# build <name> <series folder>
	local img
	SERIES=$2 scripts/apply-series.sh --sync "$tree" | grep -v '^apply-series: applied' || true
	echo "fork-bench: building $1 ($arch, -j$JOBS)"
	img=$(JOBS=$JOBS scripts/kernel-build.sh "$tree" "$bdir" "$arch" \
		"$top/scripts/boot/$arch-bench.config" "$OUT/build-$arch-$1.log" |
		tail -n 1)
	cp "$img" "$OUT/$arch-$1"
}
build base "$base"
build dup "$full"

# 3. The initramfs.
root=$OUT/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/dev"
cp /bin/busybox "$root/bin/busybox"
gcc -static -O2 -Wall -Wextra -Werror -o "$root/fork_bench" tools/testing/vma/fork_bench.c
cat >"$root/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t devtmpfs devtmpfs /dev 2>/dev/null
/fork_bench $FORKS
echo "fork-bench: exit \$?"
sync
\${INIT_OFF:-poweroff} -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.gz"

# 4. Alternating boots.
boot() {	# boot <kernel> <log>
	if [ "$arch" = um ]; then
		timeout -k 10 900 "$1" mem="$BOOT_MEM" initrd="$OUT/initramfs.gz" \
			con0=null,fd:1 con=null quiet </dev/null >"$2" 2>&1
	else
		timeout -k 10 900 qemu-system-x86_64 -accel "$QEMU_ACCEL" \
			-m "$BOOT_MEM" -smp 1 -nographic -no-reboot -monitor none \
			-serial stdio -kernel "$1" -initrd "$OUT/initramfs.gz" \
			-append "console=ttyS0 panic=-1 quiet INIT_OFF=reboot" \
			</dev/null >"$2" 2>&1
	fi
	# The console may put terminal escapes before a line.
	tr -d '\r' <"$2" | grep -a -o 'fork-bench: .*$' || true
}
res=$OUT/results-$arch
: >"$res"
for r in $(seq 1 "$ROUNDS"); do
	for k in base dup; do
		log=$OUT/console-$arch-$k-$r.log
		out=$(boot "$OUT/$arch-$k" "$log")
		grep -q '^fork-bench: exit 0$' <<<"$out" ||
			{ echo "fork-bench: round $r $k failed, see $log" >&2; exit 1; }
		sed -n "s/^fork-bench: vmas \([0-9]*\) forks [0-9]* fork_ns \([0-9]*\) cycle_ns \([0-9]*\)$/$r $k \1 \2 \3/p" \
			<<<"$out" >>"$res"
		echo "fork-bench: round $r $k: $(awk -v r="$r" -v k="$k" '$1 == r && $2 == k { printf "%s VMAs %d ns  ", $3, $4 }' "$res")"
	done
done

# 5. The table.  VMA counts differ by a line or two between the kernels'
# boots at most; rows are matched by their order in a boot.
awk '
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	key = $1 " " $2
	idx[key]++
	i = idx[key]
	if (i > sizes) sizes = i
	if ($1 > rounds) rounds = $1
	vmas[i] = $3
	f[$2, $1, i] = $4
	c[$2, $1, i] = $5
}
END {
	for (i = 1; i <= sizes; i++) {
		printf "fork of about %d VMAs (ns per fork() call; ns per fork+exit+wait)\n", vmas[i]
		printf "  round      base       dup  dup/base |     base       dup  dup/base\n"
		for (r = 1; r <= rounds; r++) {
			fr[r] = f["dup", r, i] / f["base", r, i]
			cr[r] = c["dup", r, i] / c["base", r, i]
			fb[r] = f["base", r, i]; fd[r] = f["dup", r, i]
			cb[r] = c["base", r, i]; cd[r] = c["dup", r, i]
			printf "  %5d %9d %9d %9.3f | %8d %9d %9.3f\n", r,
				f["base", r, i], f["dup", r, i], fr[r],
				c["base", r, i], c["dup", r, i], cr[r]
		}
		printf "  median %7d %9d %9.3f | %8d %9d %9.3f\n",
			med(fb, rounds), med(fd, rounds), med(fr, rounds),
			med(cb, rounds), med(cd, rounds), med(cr, rounds)
	}
}' "$res" | tee "$OUT/table-$arch"
