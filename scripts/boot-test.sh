#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Linux 6.1 or 6.12 (Debian's linux-source-<version>) with our maple
# tree in place, run a userspace that uses the VMA tree for real, and
# judge the console.
#
#   scripts/boot-test.sh [--kver 6.1|6.12] [--arch um|x86_64|i386]
#                        [--kasan] [--unpatched] [--stress SECONDS]
#
#  1. The tree, in a kept copy of the source that every arch shares (each
#     builds in its own $OUT/build), so later runs rebuild only what
#     changed.  6.1 (the default, or $KVER): the patch series
#     (scripts/make-series.sh) applied with scripts/apply-series.sh --sync
#     in $BOOT_TREE (default build/boot-linux).  6.12: our files put in
#     by scripts/linux-put-ours.sh in $BOOT_TREE (default
#     build/boot-linux-6.12).  --unpatched builds the pristine source
#     instead (the comparison run).
#  2. The config: "make defconfig" (um) or "make tinyconfig" (x86_64, i386) plus
#     scripts/boot/<arch>.config, with every line of that fragment checked
#     in the final .config (scripts/kernel-build.sh configures and builds).  It builds the kernel's own
#     lib/test_maple_tree.c and our KUnit suites in, so both run at boot.
#     6.12 on x86_64 adds scripts/boot/x86_64-6.12.config: page faults
#     served without mmap_lock (CONFIG_PER_VMA_LOCK), counted in
#     /proc/vmstat.  --kasan (um, x86_64) adds scripts/boot/<arch>-kasan.config,
#     builds in its own folder and boots with kasan_multi_shot, so every
#     report prints.
#  3. An initramfs: busybox-static, tools/testing/vma/vma_workload.c and
#     fault_stress.c built static, and scripts/boot/init.sh as /init.
#     --stress SECONDS has /init run fault_stress that long after the
#     workload (on 6.12 x86_64 it must count faults taken without
#     mmap_lock, --require-lockfree).  For i386 both are 32-bit
#     (make deps-32's multilib gcc; Debian's i386 busybox-static package,
#     downloaded and unpacked, not installed: it would replace the host's).
#  4. Boot: UML's ./linux as a plain process (um), or qemu-system-x86_64 /
#     qemu-system-i386 with TCG and a serial console; /init powers off at
#     the end.  Under TCG on a busy host the boot-time self-test can keep
#     a CPU from RCU's kthread for longer than the default 21 s stall
#     timeout (PREEMPT_NONE): the qemu boots wait 300 s before a stall
#     counts (a real hang still ends in BOOT_TIMEOUT).
#  5. scripts/boot/check-log.sh judges the console log ($OUT/console.log).
#
# Environment: KVER (the version when --kver is not given), OUT (default
# build/boot-<arch>[-<version> but 6.1][-kasan][-unpatched]), BOOT_TREE,
# JOBS (2),
# BOOT_TIMEOUT (seconds for the boot and tests, default 1800; a KASAN qemu
# boot BOOT_TIMEOUT_KASAN, default 3600), BOOT_MEM
# (default 512M, 1G for a KASAN qemu boot), WORKLOAD_SCALE (loop count multiplier, default 1),
# QEMU_ACCEL (default tcg).  Times of each phase go to $OUT/times.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

usage="usage: $0 [--kver 6.1|6.12] [--arch um|x86_64|i386] [--kasan] [--unpatched] [--stress SECONDS]"
arch=um
kver=${KVER:-6.1}
unpatched=0
kasan=0
stress=0
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:?}; shift 2 ;;
	--arch=*) arch=${1#--arch=}; shift ;;
	--kver) kver=${2:?}; shift 2 ;;
	--kver=*) kver=${1#--kver=}; shift ;;
	--kasan) kasan=1; shift ;;
	--unpatched) unpatched=1; shift ;;
	--stress) stress=${2:?}; shift 2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
case $arch in um|x86_64|i386) ;; *) echo "boot-test: unknown arch $arch" >&2; exit 2 ;; esac
case $kver in 6.1|6.12) ;; *) echo "boot-test: unknown kernel version $kver (6.1, 6.12)" >&2; exit 2 ;; esac
[[ $stress =~ ^[0-9]+$ ]] || { echo "$usage" >&2; exit 2; }
[ "$kasan" = 0 ] || [ "$arch" != i386 ] ||
	{ echo "boot-test: --kasan is for --arch um or x86_64" >&2; exit 2; }
tarball=/usr/src/linux-source-$kver.tar.xz

scripts/kernel-deps.sh
[ "$arch" = i386 ] && make -s --no-print-directory deps-32
suffix=$arch
[ "$kver" != 6.1 ] && suffix=$suffix-$kver
[ "$kasan" = 1 ] && suffix=$suffix-kasan
[ "$unpatched" = 1 ] && suffix=$suffix-unpatched
OUT=$(realpath -m "${OUT:-$top/build/boot-$suffix}")
JOBS=${JOBS:-2}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-1800}
# KASAN under TCG: the self-test alone takes about 12 minutes.
[ "$kasan" = 1 ] && [ "$arch" != um ] && BOOT_TIMEOUT=${BOOT_TIMEOUT_KASAN:-3600}
BOOT_MEM=${BOOT_MEM:-512M}
[ "$kasan" = 1 ] && [ "$arch" != um ] && BOOT_MEM=${BOOT_MEM_KASAN:-1G}
WORKLOAD_SCALE=${WORKLOAD_SCALE:-1}
QEMU_ACCEL=${QEMU_ACCEL:-tcg}
bdir=$OUT/build
mkdir -p "$OUT" "$bdir"
: >"$OUT/times"
phase() {	# phase <name> <start seconds>
	echo "$1 $(( $(date +%s) - $2 ))s" | tee -a "$OUT/times" | sed 's/^/boot-test: time: /'
}

# 1. The source tree.
t=$(date +%s)
if [ "$unpatched" = 1 ]; then
	tree=$(LINUX_SRC_TARBALL=$tarball scripts/linux-src.sh)
elif [ "$kver" = 6.1 ]; then
	tree=$(realpath -m "${BOOT_TREE:-$top/build/boot-linux}")
	KVER=6.1 scripts/make-series.sh
	KVER=6.1 scripts/apply-series.sh --sync "$tree"
else
	tree=$(realpath -m "${BOOT_TREE:-$top/build/boot-linux-$kver}")
	LINUX_SRC_TARBALL=$tarball scripts/linux-put-ours.sh "$tree"
fi
phase source "$t"

# 2. and 3. The configuration and the kernel (scripts/kernel-build.sh,
# which scripts/kernel-bench.sh shares).
frag=$OUT/fragment.config
cat "$top/scripts/boot/$arch.config" >"$frag"
[ -f "$top/scripts/boot/$arch-$kver.config" ] &&
	cat "$top/scripts/boot/$arch-$kver.config" >>"$frag"
[ "$kasan" = 1 ] && cat "$top/scripts/boot/$arch-kasan.config" >>"$frag"
want=$OUT/want.config
if [ "$unpatched" = 1 ]; then
	# The pristine source has neither our KUnit suites nor our module.
	grep -v -E 'MAPLE_TREE_KUNIT_TEST|TEST_MAPLE_TREE_API' "$frag" >"$want"
else
	cp "$frag" "$want"
fi
t=$(date +%s)
echo "boot-test: building $arch kernel in $bdir ($(basename "$tree"), -j$JOBS)"
kernel=$(JOBS=$JOBS scripts/kernel-build.sh "$tree" "$bdir" "$arch" "$want" \
	"$OUT/build.log" | tail -n 1)
[ -n "$kernel" ] || { echo "boot-test: FAIL: the build failed" >&2; exit 1; }
grep -E ' warning: ' "$OUT/build.log" | grep -E 'maple_tree' | sed 's/^/boot-test: /' || true
phase build "$t"

# 4. The initramfs.
root=$OUT/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
wflags=
if [ "$arch" = i386 ]; then
	bb=$OUT/busybox-i386
	if [ ! -x "$bb/bin/busybox" ]; then
		rm -rf "$bb" && mkdir -p "$bb"
		(cd "$bb" && apt-get download -q busybox-static:i386 \
			>/dev/null 2>&1 && dpkg-deb -x busybox-static_*_i386.deb .) ||
			{ echo "boot-test: FAIL: no i386 busybox-static (apt-get download)" >&2; exit 1; }
	fi
	cp "$bb/bin/busybox" "$root/bin/busybox"
	wflags=-m32
else
	cp /bin/busybox "$root/bin/busybox"
fi
for prog in vma_workload fault_stress; do
	gcc $wflags -static -O2 -pthread -Wall -Wextra -Werror -o "$root/$prog" \
		tools/testing/vma/$prog.c
done
cp scripts/boot/init.sh "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.gz"

# 5. Boot.
log=$OUT/console.log
t=$(date +%s)
echo "boot-test: booting (timeout ${BOOT_TIMEOUT}s), console in $log"
# Words of the command line the kernel does not know reach /init as
# environment variables.
initenv="WORKLOAD_SCALE=$WORKLOAD_SCALE"
# Linux 6.12 on UML cannot take a fork that fails part way: dup_mmap()
# leaves XA_ZERO_ENTRY in the child's tree where the copy stopped, and
# UML's flush_tlb_mm(), called from exit_mmap(), walks the VMAs into it
# ("Kernel mode fault at addr 0x40e", the marker read as a VMA).  6.12
# as shipped stops the same way, so the workload's fork_fail (which needs
# the fault injection of the KASAN boots) is left out there.
[ "$kver" = 6.12 ] && [ "$arch" = um ] &&
	initenv="$initenv VMA_WORKLOAD_SKIP=fork_fail"
checkopts=
if [ "$stress" != 0 ]; then
	initenv="$initenv FAULT_STRESS=$stress"
	checkopts=--stress
	[ "$kver" != 6.1 ] && [ "$arch" = x86_64 ] &&
		initenv="$initenv FAULT_STRESS_OPTS=--require-lockfree"
fi
extra=
[ "$kasan" = 1 ] && extra=kasan_multi_shot
set +e
if [ "$arch" = um ]; then
	timeout -k 10 "$BOOT_TIMEOUT" "$kernel" mem="$BOOT_MEM" \
		initrd="$OUT/initramfs.gz" con0=null,fd:1 con=null log_buf_len=64M \
		$extra $initenv </dev/null >"$log" 2>&1
else
	timeout -k 10 "$BOOT_TIMEOUT" "qemu-system-$arch" -accel "$QEMU_ACCEL" \
		-m "$BOOT_MEM" -smp 2 -nographic -no-reboot -monitor none \
		-serial stdio -kernel "$kernel" -initrd "$OUT/initramfs.gz" \
		-append "console=ttyS0 panic=-1 log_buf_len=64M rcupdate.rcu_cpu_stall_timeout=300 $extra INIT_OFF=reboot $initenv" \
		</dev/null >"$log" 2>&1
fi
rc=$?
set -e
phase boot "$t"
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
fail=0
case $rc in
0) ;;
124|137) echo "boot-test: FAIL: no power-off within ${BOOT_TIMEOUT}s" >&2; fail=1 ;;
*) echo "boot-test: the kernel exited with status $rc" >&2 ;;
esac
[ "$unpatched" = 1 ] && checkopts="$checkopts --no-kunit"
grep -q '^CONFIG_TEST_MAPLE_TREE_API=y' "$want" && checkopts="$checkopts --api"
scripts/boot/check-log.sh $checkopts "$log" || fail=1
# The boot-time self-tests' run time, from the printk timestamps.
grep -a -E '^\[ *[0-9.]+\] (maple_tree: [0-9]+ of|# Totals|Run /init|Freeing unused)' "$log" |
	sed 's/^/boot-test: /' || true
tail -n 1 "$OUT/times" >/dev/null
[ "$fail" = 0 ] && echo "boot-test: PASS ($suffix)"
exit "$fail"
