/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/spinlock.h>: an atomic-exchange spinlock
 * that yields the CPU while it waits (see spinlock_types.h for why).
 *
 * Holding a spinlock raises the thread's preempt count, so might_sleep()
 * (under CONFIG_DEBUG_ATOMIC_SLEEP) catches sleeping while holding one.
 * The _irq, _irqsave and _bh variants behave exactly like the plain ones:
 * userspace has no interrupts; irqsave sets @flags to 0.
 */
#ifndef _TOOLS_LINUX_SPINLOCK_H
#define _TOOLS_LINUX_SPINLOCK_H

#include <sched.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/spinlock_types.h>

static inline void __spin_acquire(int *word)
{
	while (__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(word, __ATOMIC_RELAXED))
			sched_yield();
}

static inline int __spin_try_acquire(int *word)
{
	return !__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE);
}

static inline void __spin_release(int *word)
{
	__atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

static inline void __spin_lock_init(spinlock_t *lock, const char *name)
{
	lock->lock = 0;
	lockdep_init_map(&lock->dep_map, name, NULL, 0);
}

#define spin_lock_init(lock)		__spin_lock_init(lock, #lock)

/**
 * spin_lock() - Acquire a spinlock.
 * @lock: The lock; taking it twice from one thread is a BUG().
 */
static inline void spin_lock(spinlock_t *lock) __acquires(lock)
{
	__lock_check_recursion(&lock->dep_map);
	__spin_acquire(&lock->lock);
	__lock_acquire_exclusive(&lock->dep_map);
	preempt_disable();
}

/**
 * spin_trylock() - Try to acquire a spinlock without waiting.
 * @lock: The lock.
 *
 * Return: 1 if acquired, 0 if someone else holds it.
 */
static inline int spin_trylock(spinlock_t *lock)
{
	if (!__spin_try_acquire(&lock->lock))
		return 0;
	__lock_acquire_exclusive(&lock->dep_map);
	preempt_disable();
	return 1;
}

/**
 * spin_unlock() - Release a spinlock.
 * @lock: The lock; releasing one the thread does not hold is a BUG().
 */
static inline void spin_unlock(spinlock_t *lock) __releases(lock)
{
	preempt_enable();
	__lock_release_exclusive(&lock->dep_map);
	__spin_release(&lock->lock);
}

/* True if anyone holds the lock (racy by nature, as in the kernel). */
static inline int spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->dep_map.owner, __ATOMIC_RELAXED) != NULL;
}

#define assert_spin_locked(lock)	WARN_ON(!lockdep_is_held(lock))

#define spin_lock_nested(lock, subclass)	spin_lock(lock)
#define spin_lock_irq(lock)			spin_lock(lock)
#define spin_unlock_irq(lock)			spin_unlock(lock)
#define spin_lock_bh(lock)			spin_lock(lock)
#define spin_unlock_bh(lock)			spin_unlock(lock)
#define spin_trylock_irq(lock)			spin_trylock(lock)
#define spin_trylock_bh(lock)			spin_trylock(lock)
#define spin_lock_irqsave(lock, flags)					\
	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_lock_irqsave_nested(lock, flags, subclass)			\
	spin_lock_irqsave(lock, flags)
#define spin_unlock_irqrestore(lock, flags)				\
	do { (void)(flags); spin_unlock(lock); } while (0)
#define spin_trylock_irqsave(lock, flags)				\
	({ (flags) = 0; spin_trylock(lock); })

#define raw_spin_lock_init(lock)		spin_lock_init(lock)
#define raw_spin_lock(lock)			spin_lock(lock)
#define raw_spin_unlock(lock)			spin_unlock(lock)
#define raw_spin_trylock(lock)			spin_trylock(lock)
#define raw_spin_lock_irq(lock)			spin_lock(lock)
#define raw_spin_unlock_irq(lock)		spin_unlock(lock)
#define raw_spin_lock_irqsave(lock, flags)	spin_lock_irqsave(lock, flags)
#define raw_spin_unlock_irqrestore(lock, flags)	\
	spin_unlock_irqrestore(lock, flags)

#endif /* _TOOLS_LINUX_SPINLOCK_H */
