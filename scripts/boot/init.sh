#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the boot test (scripts/boot-test.sh): a busybox userspace that
# uses the VMA tree of the kernel under test for real, then powers off.
# The kernel's self-tests (lib/test_maple_tree.c, our KUnit suites) have
# already run, built in, before this starts.  Every line this prints
# starts with "maple-init: "; scripts/boot/check-log.sh reads them.

/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# Slab fault injection where the kernel has it (the KASAN boot): through
# /proc/thread-self/fail-nth only (probability stays 0), for GFP_KERNEL
# allocations too, without a stack dump per injected failure.
if [ -d /sys/kernel/debug ] && mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null &&
   [ -d /sys/kernel/debug/failslab ]; then
	echo N >/sys/kernel/debug/failslab/ignore-gfp-wait
	echo 0 >/sys/kernel/debug/failslab/verbose
fi

say() { echo "maple-init: $*"; }
# Milliseconds since boot, from /proc/uptime.
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
result() {	# result <name> <start ms> <ok?> <detail>
	if [ "$3" = 1 ]; then
		say "$1: ok ($4, $(( $(ms) - $2 )) ms)"
	else
		say "$1: FAILED ($4)"
	fi
}

say "start, kernel $(uname -r) $(uname -m)"
t_all=$(ms)

# Shell pipelines: every stage is a forked process with its own VMAs.
t=$(ms)
sum=$(seq 1 20000 | awk '{ s += $1 } END { print s }')
words=$(seq 1 3000 | sed 's/$/ maple/' | grep -c 'maple$')
sorted=$(seq 500 -1 1 | sort -n | head -n 1)
ok=0
[ "$sum" = 200010000 ] && [ "$words" = 3000 ] && [ "$sorted" = 1 ] && ok=1
result pipelines "$t" "$ok" "sum $sum, $words lines, min $sorted"

# fork/exec loop: every exec builds a new address space, every exit
# tears one down.
t=$(ms)
i=0
n=0
while [ $i -lt 300 ]; do
	out=$(/bin/busybox echo "x$i") && [ "$out" = "x$i" ] && n=$((n + 1))
	i=$((i + 1))
done
ok=0
[ "$n" = 300 ] && ok=1
result fork-exec "$t" "$ok" "$n of 300 execs"

# Command substitutions over three-stage pipelines: short fork+exec in a
# row, each exec moving its new stack down (shift_arg_pages()).
t=$(ms)
v=
for i in $(seq 1 100); do v=$(echo $i | sed 's/^/x/' | tr x y); done
ok=0
[ "$v" = y100 ] && ok=1
result exec-pipes "$t" "$ok" "last $v"

# The kernel's own view of an address space.
t=$(ms)
maps=$(cat /proc/self/maps | wc -l)
stack=$(grep -c '\[stack\]' /proc/self/maps)
ok=0
[ "$maps" -ge 4 ] && [ "$stack" = 1 ] && ok=1
result proc-maps "$t" "$ok" "$maps mappings, $stack stack"

# Our workload: mmap/munmap/mprotect/mremap/brk/page faults in several
# processes and threads.
t=$(ms)
/vma_workload ${WORKLOAD_SCALE:-1}
rc=$?
say "vma_workload exit status $rc ($(( $(ms) - t )) ms)"

# Page faults racing VMA changes, when the command line asks for it
# (scripts/boot-test.sh --stress).
if [ -n "${FAULT_STRESS:-}" ]; then
	t=$(ms)
	/fault_stress "$FAULT_STRESS" ${FAULT_STRESS_OPTS:-}
	rc=$?
	say "fault_stress exit status $rc ($(( $(ms) - t )) ms)"
fi

say "done ($(( $(ms) - t_all )) ms)"
sync
# UML powers off; a tinyconfig x86_64 kernel has no ACPI to power off
# with, so there the command line says INIT_OFF=reboot and qemu runs with
# -no-reboot.
${INIT_OFF:-poweroff} -f
