/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/irqflags.h>: there are no interrupts. */
#ifndef _TOOLS_LINUX_IRQFLAGS_H
#define _TOOLS_LINUX_IRQFLAGS_H

#define local_irq_disable()		do { } while (0)
#define local_irq_enable()		do { } while (0)
#define local_irq_save(flags)		do { (flags) = 0; } while (0)
#define local_irq_restore(flags)	do { (void)(flags); } while (0)
#define irqs_disabled()			0
#define local_bh_disable()		do { } while (0)
#define local_bh_enable()		do { } while (0)

#endif /* _TOOLS_LINUX_IRQFLAGS_H */
