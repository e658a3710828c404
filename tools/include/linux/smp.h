/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/smp.h>.  The "processor id" is the CPU the
 * thread happens to run on; nothing pins it there.
 */
#ifndef _TOOLS_LINUX_SMP_H
#define _TOOLS_LINUX_SMP_H

#include <linux/preempt.h>

int __smp_processor_id(void);
unsigned int num_online_cpus(void);

#define smp_processor_id()	__smp_processor_id()
#define raw_smp_processor_id()	__smp_processor_id()
#define get_cpu()		({ preempt_disable(); __smp_processor_id(); })
#define put_cpu()		preempt_enable()
#define num_possible_cpus()	num_online_cpus()

#endif /* _TOOLS_LINUX_SMP_H */
