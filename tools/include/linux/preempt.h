/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/preempt.h>.
 *
 * There is no preemption to disable, but the per-thread count is kept so
 * that might_sleep() can tell when a spinlock is held (spin_lock() raises
 * the count, as in the kernel).  Userspace code never runs in interrupt
 * context.
 */
#ifndef _TOOLS_LINUX_PREEMPT_H
#define _TOOLS_LINUX_PREEMPT_H

#include <linux/compiler.h>

extern __thread int __preempt_count;

#define preempt_count()		(__preempt_count)
#define preempt_disable()	do { __preempt_count++; barrier(); } while (0)
#define preempt_enable()	do { barrier(); __preempt_count--; } while (0)
#define preempt_enable_no_resched()	preempt_enable()
#define preempt_disable_notrace()	preempt_disable()
#define preempt_enable_notrace()	preempt_enable()

#define in_atomic()		(preempt_count() != 0)
#define preemptible()		(preempt_count() == 0)
#define in_task()		1
#define in_interrupt()		0
#define in_irq()		0
#define in_hardirq()		0
#define in_softirq()		0
#define in_serving_softirq()	0
#define in_nmi()		0

#endif /* _TOOLS_LINUX_PREEMPT_H */
