// SPDX-License-Identifier: GPL-2.0
/*
 * Lock ownership tracking behind <linux/lockdep.h>, and rwsem setup.
 *
 * Exclusive holds are recorded in the lock itself (dep_map.owner, handled
 * inline).  Shared holds cannot be: many threads hold the lock at once.  So
 * each thread keeps a small stack of the maps it holds for read, and its
 * depth answers most "held?" questions (nothing held) without a search.
 * A shared hold writes nothing shared: with a count in the lock, two
 * threads faulting in one mm bounced that count's cache line on every
 * fault besides the rwlock's, and ran at a third of the speed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/bug.h>
#include <linux/lockdep.h>
#include <linux/printk.h>
#include <linux/rwsem.h>

#define LOCKDEP_MAX_READ_HELD	48

__thread char __lockdep_thread_token;

static __thread const struct lockdep_map *read_held[LOCKDEP_MAX_READ_HELD];
__thread unsigned int __lockdep_nr_read_held;
static __thread bool read_held_overflow;

void __lockdep_bug(const struct lockdep_map *map, const char *what)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "lock %s: %s",
		 map->name ? map->name : "(unnamed)", what);
	__kernel_bug(__FILE__, __LINE__, __func__, msg);
}

void __lock_acquire_shared(struct lockdep_map *map)
{
	if (__lockdep_nr_read_held < LOCKDEP_MAX_READ_HELD) {
		read_held[__lockdep_nr_read_held++] = map;
	} else if (!read_held_overflow) {
		read_held_overflow = true;
		WARN(1, "more than %d read locks held; lockdep_is_held() may be wrong",
		     LOCKDEP_MAX_READ_HELD);
	}
}

void __lock_release_shared(struct lockdep_map *map)
{
	unsigned int i;

	for (i = __lockdep_nr_read_held; i-- > 0; ) {
		if (read_held[i] != map)
			continue;
		read_held[i] = read_held[--__lockdep_nr_read_held];
		return;
	}
	if (!read_held_overflow)
		__lockdep_bug(map, "read-releasing a lock this thread does not hold");
}

int __lock_is_read_held(const struct lockdep_map *map)
{
	unsigned int i;

	for (i = 0; i < __lockdep_nr_read_held; i++)
		if (read_held[i] == map)
			return 1;
	return 0;
}

/*
 * A copy of DECLARE_RWSEM()'s initial state (the writer-preferring kind
 * pthread_rwlock_init() would set up from an attribute), so that
 * init_rwsem() is a few stores, as in a kernel, not four library calls:
 * the maple backend of mm/ initialises one for every VMA it creates.
 */
static DECLARE_RWSEM(rwsem_proto);

void __init_rwsem(struct rw_semaphore *sem, const char *name)
{
	sem->lock = rwsem_proto.lock;
	lockdep_init_map(&sem->dep_map, name, NULL, 0);
}
