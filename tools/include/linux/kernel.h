/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/kernel.h>: the grab-bag of helpers kernel
 * code expects to get from one include.  The uapi header of the same name
 * is included first, since system headers may use it.
 */
#ifndef _TOOLS_LINUX_KERNEL_H
#define _TOOLS_LINUX_KERNEL_H

#include_next <linux/kernel.h>

#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/sprintf.h>
#include <linux/stddef.h>
#include <linux/stringify.h>
#include <linux/types.h>

/* Number of elements of an array; fails to build for a pointer. */
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))

#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

#define _RET_IP_	((unsigned long)__builtin_return_address(0))
#define _THIS_IP_	({ __label__ __here; __here: (unsigned long)&&__here; })

/* Fail the build unless @x has type @type; evaluates to 1. */
#define typecheck(type, x) ({						\
	type __tc_a;							\
	__typeof__(x) __tc_b;						\
	(void)(&__tc_a == &__tc_b);					\
	1;								\
})

/*
 * might_sleep() documents (and, with CONFIG_DEBUG_ATOMIC_SLEEP, checks) that
 * the caller may block: it must not hold a spinlock nor be inside an RCU
 * read-side critical section.  A violation is reported as a WARNING.
 */
#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
void __might_sleep(const char *file, int line);
# define might_sleep()	__might_sleep(__FILE__, __LINE__)
#else
# define might_sleep()	do { } while (0)
#endif
#define might_sleep_if(cond)	do { if (cond) might_sleep(); } while (0)

/* Userspace never needs to yield for the scheduler's sake. */
#define cond_resched()	({ might_sleep(); 0; })

#endif /* _TOOLS_LINUX_KERNEL_H */
