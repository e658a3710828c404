// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler-flavoured odds and ends: the per-thread preempt count, the
 * might_sleep() check, "current", and CPU numbers.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>

__thread int __preempt_count;

static __thread struct task_struct current_task;
static __thread bool current_task_ready;

void __might_sleep(const char *file, int line)
{
	int held_rcu = rcu_read_lock_held();

	if (likely(!__preempt_count && !held_rcu))
		return;
	__kernel_warn(file, line, __func__,
		      "sleeping function called from invalid context (preempt_count %d, in RCU read-side section %d)",
		      __preempt_count, held_rcu);
	dump_stack();
}

struct task_struct *__get_current(void)
{
	if (unlikely(!current_task_ready)) {
		current_task.pid = (int)syscall(SYS_gettid);
		snprintf(current_task.comm, sizeof(current_task.comm),
			 "thread-%d", current_task.pid);
		current_task_ready = true;
	}
	return &current_task;
}

int __smp_processor_id(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : cpu;
}

unsigned int num_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : (unsigned int)n;
}
