/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/spinlock_types.h>: a spinlock is a word
 * taken with an atomic exchange plus the lockdep map that records its
 * owner.  An all-zero spinlock_t is a valid unlocked lock (glibc's own
 * pthread_spinlock_t is not: on x86 it is free at 1).  A spinning lock
 * keeps the uncontended cost near the kernel's, which the write benchmarks
 * depend on; a pthread mutex costs five times as much.
 */
#ifndef _TOOLS_LINUX_SPINLOCK_TYPES_H
#define _TOOLS_LINUX_SPINLOCK_TYPES_H

#include <pthread.h>
#include <linux/lockdep.h>

typedef struct spinlock {
	int lock;
	struct lockdep_map dep_map;
} spinlock_t;

typedef spinlock_t raw_spinlock_t;

/* A brace initialiser, usable inside another struct's initialiser. */
#define __SPIN_LOCK_UNLOCKED(lockname)					\
	{								\
		.lock = 0,						\
		.dep_map = { .name = #lockname },			\
	}
#define __RAW_SPIN_LOCK_UNLOCKED(lockname)	__SPIN_LOCK_UNLOCKED(lockname)

#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define DEFINE_RAW_SPINLOCK(x)	raw_spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

#endif /* _TOOLS_LINUX_SPINLOCK_TYPES_H */
