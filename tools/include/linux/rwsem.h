/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/rwsem.h> on a writer-preferring pthread
 * rwlock (so a steady stream of readers cannot starve a writer, like the
 * kernel's rwsem).  Held-for-read counts as held for lockdep_is_held();
 * lockdep_is_held_type(sem, 0) asks for write, (sem, 1) for read.
 *
 * downgrade_write() is not atomic here: another writer may get in between
 * the release of the write hold and the read acquisition.
 *
 * Write holds are reported to <linux/lock_stat.h>, which can time them
 * (off by default: one predictable branch each way).
 */
#ifndef _TOOLS_LINUX_RWSEM_H
#define _TOOLS_LINUX_RWSEM_H

#include <pthread.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/lock_stat.h>

struct rw_semaphore {
	pthread_rwlock_t lock;
	struct lockdep_map dep_map;
};

#if defined(PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP)
# define __RWSEM_PTHREAD_INIT	PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
#elif defined(__PTHREAD_RWLOCK_INITIALIZER)
# define __RWSEM_PTHREAD_INIT	\
	{ { __PTHREAD_RWLOCK_INITIALIZER(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) } }
#else
# define __RWSEM_PTHREAD_INIT	PTHREAD_RWLOCK_INITIALIZER
#endif

#define __RWSEM_INITIALIZER(semname)					\
	{								\
		.lock = __RWSEM_PTHREAD_INIT,				\
		.dep_map = { .name = #semname },			\
	}

#define DECLARE_RWSEM(semname) \
	struct rw_semaphore semname = __RWSEM_INITIALIZER(semname)

void __init_rwsem(struct rw_semaphore *sem, const char *name);
#define init_rwsem(sem)		__init_rwsem(sem, #sem)

/**
 * down_read() - Acquire a rwsem for reading, sleeping while a writer has it.
 * @sem: The rwsem.
 */
static inline void down_read(struct rw_semaphore *sem) __acquires(sem)
{
	might_sleep();
	__lock_check_recursion(&sem->dep_map);
	pthread_rwlock_rdlock(&sem->lock);
	__lock_acquire_shared(&sem->dep_map);
}

/**
 * down_read_trylock() - Try to acquire a rwsem for reading.
 * @sem: The rwsem.
 *
 * Return: 1 if acquired, 0 if not.
 */
static inline int down_read_trylock(struct rw_semaphore *sem)
{
	if (pthread_rwlock_tryrdlock(&sem->lock))
		return 0;
	__lock_acquire_shared(&sem->dep_map);
	return 1;
}

/**
 * up_read() - Release a read hold on a rwsem.
 * @sem: The rwsem.
 */
static inline void up_read(struct rw_semaphore *sem) __releases(sem)
{
	__lock_release_shared(&sem->dep_map);
	pthread_rwlock_unlock(&sem->lock);
}

/**
 * down_write() - Acquire a rwsem for writing, sleeping until it is free.
 * @sem: The rwsem; taking it twice from one thread is a BUG().
 */
static inline void down_write(struct rw_semaphore *sem) __acquires(sem)
{
	might_sleep();
	__lock_check_recursion(&sem->dep_map);
	pthread_rwlock_wrlock(&sem->lock);
	__lock_acquire_exclusive(&sem->dep_map);
	lock_stat_acquired(&sem->dep_map);
}

/**
 * down_write_trylock() - Try to acquire a rwsem for writing.
 * @sem: The rwsem.
 *
 * Return: 1 if acquired, 0 if not.
 */
static inline int down_write_trylock(struct rw_semaphore *sem)
{
	if (pthread_rwlock_trywrlock(&sem->lock))
		return 0;
	__lock_acquire_exclusive(&sem->dep_map);
	lock_stat_acquired(&sem->dep_map);
	return 1;
}

/**
 * up_write() - Release a write hold on a rwsem.
 * @sem: The rwsem; releasing one the thread does not hold is a BUG().
 */
static inline void up_write(struct rw_semaphore *sem) __releases(sem)
{
	lock_stat_release(&sem->dep_map);
	__lock_release_exclusive(&sem->dep_map);
	pthread_rwlock_unlock(&sem->lock);
}

/**
 * downgrade_write() - Turn a write hold into a read hold (not atomically).
 * @sem: The rwsem, held for writing by the caller.
 */
static inline void downgrade_write(struct rw_semaphore *sem)
{
	up_write(sem);
	down_read(sem);
}

/*
 * True if anyone holds the rwsem in any mode (racy by nature).  Shared
 * holds are not counted in the lock (see <linux/lockdep.h>), so the rwlock
 * itself is asked: a write try fails while anyone holds it.
 */
static inline int rwsem_is_locked(struct rw_semaphore *sem)
{
	if (__atomic_load_n(&sem->dep_map.owner, __ATOMIC_RELAXED) ||
	    pthread_rwlock_trywrlock(&sem->lock))
		return 1;
	pthread_rwlock_unlock(&sem->lock);
	return 0;
}

#define rwsem_is_contended(sem)		0
#define rwsem_assert_held(sem)		lockdep_assert_held(sem)
#define rwsem_assert_held_write(sem)	lockdep_assert_held_write(sem)

/* Userspace waits are never interrupted: these always acquire, return 0. */
#define down_read_killable(sem)		({ down_read(sem); 0; })
#define down_read_interruptible(sem)	({ down_read(sem); 0; })
#define down_write_killable(sem)	({ down_write(sem); 0; })
#define down_read_nested(sem, sub)	down_read(sem)
#define down_write_nested(sem, sub)	down_write(sem)
#define down_write_killable_nested(sem, sub)	down_write_killable(sem)

#endif /* _TOOLS_LINUX_RWSEM_H */
