/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/spinlock_types.h>: a spinlock is a pthread
 * mutex plus the lockdep map that records its owner.  An all-zero spinlock_t
 * is a valid unlocked lock (as a zeroed pthread mutex is with glibc).
 */
#ifndef _TOOLS_LINUX_SPINLOCK_TYPES_H
#define _TOOLS_LINUX_SPINLOCK_TYPES_H

#include <pthread.h>
#include <linux/lockdep.h>

typedef struct spinlock {
	pthread_mutex_t lock;
	struct lockdep_map dep_map;
} spinlock_t;

typedef spinlock_t raw_spinlock_t;

/* A brace initialiser, usable inside another struct's initialiser. */
#define __SPIN_LOCK_UNLOCKED(lockname)					\
	{								\
		.lock = PTHREAD_MUTEX_INITIALIZER,			\
		.dep_map = { .name = #lockname },			\
	}
#define __RAW_SPIN_LOCK_UNLOCKED(lockname)	__SPIN_LOCK_UNLOCKED(lockname)

#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define DEFINE_RAW_SPINLOCK(x)	raw_spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

#endif /* _TOOLS_LINUX_SPINLOCK_TYPES_H */
