#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Read the console log of a boot test (scripts/boot-test.sh) and decide.
#
#   scripts/boot/check-log.sh [--no-kunit] [--stress] [--api] LOG
#
# Passes (exit 0) only when all of these hold:
#  - /init ran to its end: "maple-init: done", every "maple-init: <step>:"
#    line says ok (pipelines, fork-exec, exec-pipes, proc-maps),
#    "vma_workload exit
#    status 0", the workload's final "vma-workload: ok (" line and no
#    "vma-workload: ... FAILED";
#  - with --stress: /init ran tools/testing/vma/fault_stress.c, which
#    printed "fault-stress: ok (" and exited 0;
#  - the kernel's own self-test printed "maple_tree: N of M tests passed"
#    with N == M > 0, or N == M - 1 where the one failed check is the one
#    the unpatched 6.1.192 source fails too: "BUG at next_prev_test:1991";
#  - with --api (a kernel with our self-test module built in): it printed
#    "test_maple_tree_api: N of M tests passed" with N == M > 0;
#  - unless --no-kunit (a kernel without our suites): every KUnit suite
#    named in lib/maple_tree_kunit.c is "ok" and no test is "not ok";
#  - the kernel printed no BUG:, WARNING:, Oops, panic, call trace or
#    lockdep INFO:, and dropped no messages (a dropped message could be
#    one of these).
# It prints the lines it judged, then "check-log: PASS" or the reasons.
set -uo pipefail
cd "$(dirname "$0")/../.."

kunit=1
stress=0
api=0
while [ $# -gt 1 ]; do
	case $1 in
	--no-kunit) kunit=0; shift ;;
	--stress) stress=1; shift ;;
	--api) api=1; shift ;;
	*) break ;;
	esac
done
raw=${1:?usage: $0 [--no-kunit] [--stress] [--api] LOG}
[ -s "$raw" ] || { echo "check-log: FAIL: empty or missing log $raw"; exit 1; }
# Judge the log without printk's "[    1.234567] " time stamps.
log=$(mktemp /tmp/check-log.XXXXXX)
trap 'rm -f "$log"' EXIT
sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$raw" >"$log"

fail=0
bad() { echo "check-log: FAIL: $*"; fail=1; }
has() { grep -a -q -E "$1" "$log"; }

# /init and the workload.
grep -a -E '^(maple-init|vma-workload): ' "$log" | sed 's/^/  /'
for step in pipelines fork-exec exec-pipes proc-maps; do
	has "^maple-init: $step: ok " || bad "/init step $step did not pass"
done
has '^maple-init: vma_workload exit status 0 ' || bad "vma_workload failed"
has '^vma-workload: ok \(' || bad "no final 'vma-workload: ok' line"
! has '^vma-workload: .*FAILED' || bad "a workload pattern failed"
has '^maple-init: done ' || bad "/init did not finish"
if [ "$stress" = 1 ]; then
	grep -a -E '^fault-stress: ' "$log" | sed 's/^/  /'
	has '^maple-init: fault_stress exit status 0 ' || bad "fault_stress failed"
	has '^fault-stress: ok \(' || bad "no 'fault-stress: ok' line"
fi

# The kernel's own lib/test_maple_tree.c.
line=$(grep -a -o 'maple_tree: [0-9]* of [0-9]* tests passed' "$log" | tail -n1)
if [ -z "$line" ]; then
	bad "no 'maple_tree: N of M tests passed' line"
else
	echo "  $line"
	read -r passed run < <(sed 's/maple_tree: \([0-9]*\) of \([0-9]*\).*/\1 \2/' <<<"$line")
	bugs=$(grep -a -o 'BUG at [A-Za-z0-9_]*:[0-9]*' "$log" | sort | uniq -c)
	if [ -n "$bugs" ]; then
		echo "  failed checks:"
		echo "$bugs" | sed 's/^/    /'
	fi
	if [ "$run" -eq 0 ]; then
		bad "the self-test ran no checks"
	elif [ "$passed" -eq "$run" ]; then
		[ -z "$bugs" ] || bad "all checks passed but failures were printed"
	elif [ "$passed" -eq $((run - 1)) ] &&
	     [ "$(echo "$bugs" | sed 's/^ *//')" = "1 BUG at next_prev_test:1991" ]; then
		echo "  (the one failure unpatched 6.1.192 shows too)"
	else
		bad "self-test: $line"
	fi
fi

# Our self-test module.
if [ "$api" = 1 ]; then
	line=$(grep -a -o 'test_maple_tree_api: [0-9]* of [0-9]* tests passed' "$log" | tail -n1)
	echo "  ${line:-no test_maple_tree_api result line}"
	read -r passed run < <(sed 's/.*: \([0-9]*\) of \([0-9]*\).*/\1 \2/' <<<"${line:-x: 0 of 0}")
	[ -n "$line" ] && [ "$run" -gt 0 ] && [ "$passed" -eq "$run" ] ||
		bad "our self-test module: ${line:-no result line}"
fi

# Our KUnit suites.
if [ "$kunit" = 1 ]; then
	suites=$(sed -n 's/^[[:space:]]*\.name = "\(maple_tree_[a-z_]*\)",$/\1/p' lib/maple_tree_kunit.c)
	[ -n "$suites" ] || bad "no suite names in lib/maple_tree_kunit.c"
	for s in $suites; do
		if grep -a -E -q "^[[:space:]]*ok [0-9]+ $s\$" "$log"; then
			echo "  kunit: ok $s"
		else
			bad "KUnit suite $s did not pass"
		fi
	done
	if has '^[[:space:]]*not ok '; then
		grep -a -E '^[[:space:]]*not ok ' "$log" | sed 's/^/  /'
		bad "KUnit tests failed"
	fi
fi

# Anything the kernel complained about.  Two kinds of report are left out
# of this scan, counted and shown:
#  - the stack dump that the 6.1 MT_BUG_ON() prints after a failed
#    self-test check ("Pass: N Run:M", then "CPU: ..." to the end of its
#    call trace): the self-test result above already judges that check;
#  - "suspicious RCU usage" from UML's force_flush_all()
#    (arch/um/kernel/tlb.c, run in every forked child), which walks the
#    VMA tree without mmap_lock -- the unpatched 6.1.192 kernel prints the
#    same, once per tree read site.  Only reports whose call trace runs
#    through force_flush_all() are left out.
filtered=$(mktemp /tmp/check-log.XXXXXX)
trap 'rm -f "$log" "$filtered"' EXIT
read -r known dumps < <(awk -v out="$filtered" '
	function flush() {
		if (kind == "dump")
			dumps++
		else if (buf ~ /force_flush_all\+/)
			known++
		else
			printf "%s", buf > out
		buf = ""; kind = ""
	}
	kind != "" {
		buf = buf $0 "\n"
		if ($0 ~ /^Call Trace:/) trace = 1
		else if (trace && $0 !~ /^ \[</) flush()
		next
	}
	/^WARNING: suspicious RCU usage$/ {
		kind = "rcu"; trace = 0; buf = $0 "\n"; next
	}
	after_pass && /^CPU: / {
		kind = "dump"; trace = 0; buf = $0 "\n"; after_pass = 0; next
	}
	{ after_pass = ($0 ~ /^Pass: [0-9]+ Run:[0-9]+$/); print > out }
	END { if (kind != "") flush(); print known + 0, dumps + 0 }
' "$log")
[ "$dumps" -gt 0 ] && echo "  $dumps stack dump(s) of failed self-test checks (judged above)"
[ "$known" -gt 0 ] && echo "  known: $known suspicious RCU usage report(s) from UML's force_flush_all() (upstream 6.1 UML, not the tree)"
log=$filtered
# (lockdep reports some problems as "INFO:" and then turns itself off;
# printk reports a ring buffer that overflowed before the console read it.)
pat='BUG:|WARNING:|Oops|Kernel panic|Call Trace:|general protection fault|Unable to handle|segfault at|^INFO: |locking correctness validator|printk messages dropped'
if has "$pat"; then
	grep -a -n -E -A12 "$pat" "$log" | head -n 60 | sed 's/^/  /'
	bad "the kernel reported a problem"
fi

[ "$fail" = 0 ] && echo "check-log: PASS"
exit "$fail"
