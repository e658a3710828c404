#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the kernel-level benchmark (scripts/kernel-bench.sh): say which
# clocksource the kernel timed with, run tools/testing/vma/wis_bench.c and
# power off.  WIS_SECONDS and WIS_TESTS (comma-separated) come from the
# kernel command line.
# Every line the script itself prints starts with "wis-bench: ", as
# wis_bench's own lines do; kernel-bench.sh reads them off the console.

/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null

cs=/sys/devices/system/clocksource/clocksource0
echo "wis-bench: kernel $(uname -r) clocksource $(cat $cs/current_clocksource 2>/dev/null) available $(cat $cs/available_clocksource 2>/dev/null)"
dmesg | grep -i -E 'clocksource|tsc' | sed 's/^/wis-bench: dmesg: /'
/wis_bench -t "${WIS_SECONDS:-2}" $(echo "${WIS_TESTS:-}" | tr , " ")
rc=$?
echo "wis-bench: clocksource at the end $(cat $cs/current_clocksource 2>/dev/null)"
echo "wis-bench: exit $rc"
sync
${INIT_OFF:-poweroff} -f
