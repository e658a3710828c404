/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the part of the kernel's lock statistics
 * (CONFIG_LOCK_STAT, /proc/lock_stat) that the benchmarks need: the hold
 * time of one lock class's write holds.  A class is named as lockdep
 * names it, by the lock's initializer: init_rwsem(&mm->mmap_lock) makes
 * "&mm->mmap_lock".
 *
 * <linux/rwsem.h> reports every write hold here: lock_stat_acquired()
 * once down_write() or down_write_trylock() has the rwsem,
 * lock_stat_release() before up_write() lets it go.  Both cost one
 * predictable branch while the statistics are off, which is the default.
 * While they are on, each thread times its outermost write hold of the
 * class (a nested hold of the same class is part of it) with
 * CLOCK_MONOTONIC, from just after the acquisition to just before the
 * release, as the kernel's holdtime is; every other write hold costs a
 * call that returns at once.  Each thread adds up its own holds, so no
 * two threads share a counter.
 *
 * A timed hold's time includes part of the two clock reads around it:
 * see lock_stat_read() for what to subtract.
 */
#ifndef _TOOLS_LINUX_LOCK_STAT_H
#define _TOOLS_LINUX_LOCK_STAT_H

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/types.h>

/* Non-zero while the statistics are on (lock_stat_start()). */
extern int __lock_stat_enabled;

void __lock_stat_acquired(const struct lockdep_map *map);
void __lock_stat_release(const struct lockdep_map *map);

/* A lock was just acquired for writing. */
static inline void lock_stat_acquired(const struct lockdep_map *map)
{
	if (unlikely(__atomic_load_n(&__lock_stat_enabled, __ATOMIC_RELAXED)))
		__lock_stat_acquired(map);
}

/* A write hold is about to end. */
static inline void lock_stat_release(const struct lockdep_map *map)
{
	if (unlikely(__atomic_load_n(&__lock_stat_enabled, __ATOMIC_RELAXED)))
		__lock_stat_release(map);
}

/**
 * struct lock_stat_holds - One thread's timed write holds.
 * @holdtime_ns: Their summed time, each with the clock's cost in it.
 * @nr: How many there were.
 */
struct lock_stat_holds {
	u64 holdtime_ns;
	unsigned long nr;
};

/**
 * lock_stat_start() - Time the write holds of one lock class.
 * @class: The class's name, as the lock's initializer gave it; kept, not
 *	copied.
 *
 * Call it, and lock_stat_stop(), while no thread holds a lock of the
 * class for writing: a hold that spans either is not counted right.
 * The calling thread's totals start from zero; a thread started later
 * starts from zero too.
 */
void lock_stat_start(const char *class);

/**
 * lock_stat_stop() - Stop timing; the totals stay readable.
 */
void lock_stat_stop(void);

/**
 * lock_stat_read() - The calling thread's timed holds so far.
 * @holds: Filled in.
 *
 * Each hold's time includes what runs between the two clock reads that
 * bound it but is not the locked code: the end of the first read, the
 * start of the second, the calls of this file, and the hook.  An empty
 * hold (down_write() then up_write() at once) measures that cost, to be
 * subtracted once per hold.
 */
void lock_stat_read(struct lock_stat_holds *holds);

/**
 * lock_stat_reset() - Zero the calling thread's totals.
 */
void lock_stat_reset(void);

/*
 * Called, when not NULL, with true right after a timed hold's first clock
 * read and with false right before its second: a profiler's bracket
 * around the locked code, such as one that toggles callgrind's
 * collection.  Set it before lock_stat_start().
 */
extern void (*lock_stat_hold_hook)(bool begin);

#endif /* _TOOLS_LINUX_LOCK_STAT_H */
