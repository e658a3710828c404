/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/lockdep.h>.
 *
 * This is not the kernel's lock validator.  It keeps just enough per lock to
 * answer "does the calling thread hold this lock?", which is what
 * lockdep_is_held(), lockdep_assert_held() and rcu_dereference_check()
 * conditions ask:
 *
 *  - every lock type (spinlock_t, struct mutex, struct rw_semaphore) embeds
 *    a struct lockdep_map named dep_map;
 *  - an exclusive holder stores its thread token in dep_map.owner;
 *  - a shared (read) holder is remembered on a small per-thread stack; a
 *    thread that holds nothing for read answers "not held" from its own
 *    count, without looking at the lock.  Nothing in the lock is written
 *    for a shared hold: readers on other CPUs share only the lock's own
 *    word, as with a kernel rwsem built without lockdep.
 *
 * Taking an exclusive lock the thread already owns, or releasing one it does
 * not own, is a BUG() (it would otherwise deadlock or corrupt silently).
 * CONFIG_LOCKDEP is always on in userspace.
 */
#ifndef _TOOLS_LINUX_LOCKDEP_H
#define _TOOLS_LINUX_LOCKDEP_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

struct lock_class_key {
	char __unused_key;
};

struct lockdep_map {
	const char *name;
	void *owner;		/* exclusive holder's thread token, or NULL */
};

/* How many shared holds the calling thread has (tools/lib/locks.c). */
extern __thread unsigned int __lockdep_nr_read_held;

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ .name = (_name) }

#define SINGLE_DEPTH_NESTING	1
#define debug_locks		1

/* A per-thread address that identifies the calling thread. */
extern __thread char __lockdep_thread_token;
#define __lockdep_self()	((void *)&__lockdep_thread_token)

void __noreturn __lockdep_bug(const struct lockdep_map *map, const char *what);
void __lock_acquire_shared(struct lockdep_map *map);
void __lock_release_shared(struct lockdep_map *map);
int __lock_is_read_held(const struct lockdep_map *map);

static inline void __lock_acquire_exclusive(struct lockdep_map *map)
{
	__atomic_store_n(&map->owner, __lockdep_self(), __ATOMIC_RELAXED);
}

static inline void __lock_release_exclusive(struct lockdep_map *map)
{
	if (unlikely(__atomic_load_n(&map->owner, __ATOMIC_RELAXED) !=
		     __lockdep_self()))
		__lockdep_bug(map, "releasing a lock this thread does not hold");
	__atomic_store_n(&map->owner, NULL, __ATOMIC_RELAXED);
}

/* Call before blocking on an exclusive lock: self-deadlock check. */
static inline void __lock_check_recursion(const struct lockdep_map *map)
{
	if (unlikely(__atomic_load_n(&map->owner, __ATOMIC_RELAXED) ==
		     __lockdep_self()))
		__lockdep_bug(map, "recursive locking (self-deadlock)");
}

/**
 * lock_is_held_type() - Does the calling thread hold a lock?
 * @map: The lock's dep_map.
 * @read: 0 for held exclusively, 1 for held shared, -1 for either.
 *
 * Return: 1 if held in the asked mode, else 0.  A NULL @map is not held.
 */
static inline int lock_is_held_type(const struct lockdep_map *map, int read)
{
	if (!map)
		return 0;
	if (read != 1 &&
	    __atomic_load_n(&map->owner, __ATOMIC_RELAXED) == __lockdep_self())
		return 1;
	if (read == 0 || !__lockdep_nr_read_held)
		return 0;
	return __lock_is_read_held(map);
}

/**
 * lock_is_held() - Does the calling thread hold a lock in any mode?
 * @map: The lock's dep_map.
 *
 * Return: 1 if held (read or write), else 0.
 */
static inline int lock_is_held(const struct lockdep_map *map)
{
	return lock_is_held_type(map, -1);
}

#define lockdep_is_held(lock)		lock_is_held(&(lock)->dep_map)
#define lockdep_is_held_type(lock, r)	lock_is_held_type(&(lock)->dep_map, (r))

#define lockdep_assert(cond)		do { WARN_ON(!(cond)); } while (0)
#define lockdep_assert_once(cond)	do { WARN_ON_ONCE(!(cond)); } while (0)
#define lockdep_assert_held(l)		lockdep_assert(lockdep_is_held(l))
#define lockdep_assert_held_write(l)	lockdep_assert(lockdep_is_held_type(l, 0))
#define lockdep_assert_held_read(l)	lockdep_assert(lockdep_is_held_type(l, 1))
#define lockdep_assert_held_once(l)	lockdep_assert_once(lockdep_is_held(l))
#define lockdep_assert_not_held(l)	lockdep_assert(!lockdep_is_held(l))

#define lockdep_init_map(map, n, key, sub)				\
	do {								\
		(map)->name = (n);					\
		(map)->owner = NULL;					\
	} while (0)
#define lockdep_set_class(lock, key)			do { } while (0)
#define lockdep_set_class_and_name(lock, key, n)	do { } while (0)
#define lockdep_set_subclass(lock, sub)			do { } while (0)
#define lockdep_set_novalidate_class(lock)		do { } while (0)
#define lockdep_off()					do { } while (0)
#define lockdep_on()					do { } while (0)
#define lockdep_assert_irqs_enabled()			do { } while (0)
#define lockdep_assert_irqs_disabled()			do { } while (0)
#define lockdep_assert_preemption_enabled()		do { } while (0)
#define might_lock(lock)				do { } while (0)
#define might_lock_read(lock)				do { } while (0)

#endif /* _TOOLS_LINUX_LOCKDEP_H */
