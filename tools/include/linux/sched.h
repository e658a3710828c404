/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/sched.h>, reduced to what library code
 * touches: rescheduling points and a per-thread "current" task with a pid,
 * a name and an mm pointer (for later mm/ code).  The uapi header of the
 * same name (clone flags) is included first.
 */
#ifndef _TOOLS_LINUX_SCHED_H
#define _TOOLS_LINUX_SCHED_H

#include_next <linux/sched.h>

#include <linux/kernel.h>
#include <linux/mm_types_task.h>
#include <linux/preempt.h>
#include <linux/types.h>

#define TASK_COMM_LEN	16

struct mm_struct;

struct task_struct {
	int pid;
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;
	struct mm_struct *active_mm;
	struct vmacache vmacache;	/* mm/ with CONFIG_MM_VMA_RBTREE */
};

/* The calling thread's task; created on first use, zeroed but for pid/comm. */
struct task_struct *__get_current(void);
#define current		__get_current()

#define need_resched()	0
#define schedule()	do { } while (0)
#define yield()		do { } while (0)

#endif /* _TOOLS_LINUX_SCHED_H */
