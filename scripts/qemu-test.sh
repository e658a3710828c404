#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's kernel under qemu (TCG, serial console), load
# test_maple_tree_api.ko from a busybox initramfs and read the module's result
# line from the console:
#
#	test_maple_tree_api: N of M tests passed
#
# Exit status 0 only if that line shows N == M > 0, insmod succeeded, and
# the console shows no kernel BUG, WARNING or Oops.  A missing line or a
# boot that does not power off within QEMU_TIMEOUT seconds fails.
#
# Environment: QEMU_TIMEOUT (default 300), KREL (default: the newest Debian
# kernel installed, scripts/debian-kernel.sh), OUT (work folder, default
# build/qemu), QEMU_ACCEL (default tcg: KVM is not usable on every host).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

scripts/kernel-deps.sh
KREL=${KREL:-$(scripts/debian-kernel.sh)}
OUT=${OUT:-$top/build/qemu}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}
QEMU_ACCEL=${QEMU_ACCEL:-tcg}
vmlinuz=/boot/vmlinuz-$KREL

echo "qemu-test: building test_maple_tree_api.ko for $KREL"
make --no-print-directory -s modules KDIR="/lib/modules/$KREL/build" >/dev/null
ko=$top/build/kmod/test_maple_tree_api.ko
[ -f "$ko" ] || { echo "qemu-test: $ko was not built" >&2; exit 1; }
# The module must not export anything the kernel already exports.
if nm "$ko" | grep -q ' __ksymtab_'; then
	echo "qemu-test: test_maple_tree_api.ko exports symbols" >&2
	exit 1
fi

rm -rf "$OUT"
mkdir -p "$OUT/root/bin" "$OUT/root/proc" "$OUT/root/sys" "$OUT/root/dev"
cp /bin/busybox "$OUT/root/bin/busybox"
cp "$ko" "$OUT/root/test_maple_tree_api.ko"
cat >"$OUT/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo 7 >/proc/sys/kernel/printk
echo "maple-init: insmod test_maple_tree_api.ko"
insmod /test_maple_tree_api.ko
echo "maple-init: insmod exit status $?"
poweroff -f
INIT
chmod +x "$OUT/root/init"
(cd "$OUT/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.gz"

log=$OUT/console.log
echo "qemu-test: booting $vmlinuz (accel=$QEMU_ACCEL, timeout ${QEMU_TIMEOUT}s)"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$QEMU_TIMEOUT" \
	qemu-system-x86_64 -accel "$QEMU_ACCEL" -m 512 -smp 1 \
	-nographic -no-reboot -monitor none -serial stdio \
	-kernel "$vmlinuz" -initrd "$OUT/initramfs.gz" \
	-append "console=ttyS0 panic=-1 quiet oops=panic" \
	</dev/null >"$log" 2>&1
qrc=$?
set -e
echo "qemu-test: qemu exited with $qrc after $(( $(date +%s) - start ))s; console in $log"

fail=0
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "qemu-test: FAIL: timeout after ${QEMU_TIMEOUT}s" >&2
	fail=1
fi
line=$(grep -a -o 'test_maple_tree_api: [0-9]* of [0-9]* tests passed' "$log" | tail -n1 || true)
if [ -z "$line" ]; then
	echo "qemu-test: FAIL: no 'test_maple_tree_api: N of M tests passed' line on the console" >&2
	tail -n 30 "$log" >&2
	exit 1
fi
grep -a 'test_maple_tree_api: [0-9]* of [0-9]* tests passed' "$log" | tail -n1
read -r passed run < <(echo "$line" | sed 's/test_maple_tree_api: \([0-9]*\) of \([0-9]*\).*/\1 \2/')
if [ "$run" -eq 0 ] || [ "$passed" -ne "$run" ]; then
	echo "qemu-test: FAIL: $line" >&2
	fail=1
fi
if ! grep -a -q 'maple-init: insmod exit status 0' "$log"; then
	echo "qemu-test: FAIL: insmod did not succeed:" >&2
	grep -a 'maple-init:\|insmod' "$log" >&2 || true
	fail=1
fi
if grep -a -E -q 'BUG:|WARNING:|Oops|Call Trace:|Kernel panic' "$log"; then
	echo "qemu-test: FAIL: kernel reported a problem:" >&2
	grep -a -E -A20 'BUG:|WARNING:|Oops|Kernel panic' "$log" | head -n 60 >&2
	fail=1
fi
[ "$fail" = 0 ] && echo "qemu-test: PASS"
exit "$fail"
