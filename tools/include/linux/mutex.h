/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/mutex.h> on pthread mutexes.  A mutex is a
 * sleeping lock: mutex_lock() may sleep (might_sleep()), and holding one
 * does not forbid sleeping.
 */
#ifndef _TOOLS_LINUX_MUTEX_H
#define _TOOLS_LINUX_MUTEX_H

#include <pthread.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>

struct mutex {
	pthread_mutex_t lock;
	struct lockdep_map dep_map;
};

#define __MUTEX_INITIALIZER(lockname)					\
	{								\
		.lock = PTHREAD_MUTEX_INITIALIZER,			\
		.dep_map = { .name = #lockname },			\
	}

#define DEFINE_MUTEX(mutexname) \
	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)

static inline void __mutex_init(struct mutex *lock, const char *name)
{
	pthread_mutex_init(&lock->lock, NULL);
	lockdep_init_map(&lock->dep_map, name, NULL, 0);
}

#define mutex_init(lock)	__mutex_init(lock, #lock)
#define mutex_destroy(lock)	do { (void)(lock); } while (0)

/**
 * mutex_lock() - Acquire a mutex, sleeping until it is free.
 * @lock: The mutex; taking it twice from one thread is a BUG().
 */
static inline void mutex_lock(struct mutex *lock) __acquires(lock)
{
	might_sleep();
	__lock_check_recursion(&lock->dep_map);
	pthread_mutex_lock(&lock->lock);
	__lock_acquire_exclusive(&lock->dep_map);
}

/**
 * mutex_trylock() - Try to acquire a mutex without waiting.
 * @lock: The mutex.
 *
 * Return: 1 if acquired, 0 if contended.
 */
static inline int mutex_trylock(struct mutex *lock)
{
	if (pthread_mutex_trylock(&lock->lock))
		return 0;
	__lock_acquire_exclusive(&lock->dep_map);
	return 1;
}

/**
 * mutex_unlock() - Release a mutex.
 * @lock: The mutex; releasing one the thread does not hold is a BUG().
 */
static inline void mutex_unlock(struct mutex *lock) __releases(lock)
{
	__lock_release_exclusive(&lock->dep_map);
	pthread_mutex_unlock(&lock->lock);
}

static inline bool mutex_is_locked(struct mutex *lock)
{
	return __atomic_load_n(&lock->dep_map.owner, __ATOMIC_RELAXED) != NULL;
}

/* Userspace waits are never interrupted: these always acquire, return 0. */
#define mutex_lock_interruptible(lock)	({ mutex_lock(lock); 0; })
#define mutex_lock_killable(lock)	({ mutex_lock(lock); 0; })
#define mutex_lock_nested(lock, sub)	mutex_lock(lock)
#define mutex_lock_io(lock)		mutex_lock(lock)

#endif /* _TOOLS_LINUX_MUTEX_H */
