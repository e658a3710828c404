// SPDX-License-Identifier: GPL-2.0
/*
 * Hold times of one lock class's write holds (see <linux/lock_stat.h>).
 *
 * Conventions: t the calling thread's state, map the lockdep map of the
 * lock being acquired or released.
 */
#include <string.h>
#include <time.h>

#include <linux/lock_stat.h>

int __lock_stat_enabled;
void (*lock_stat_hold_hook)(bool begin);
static const char *lock_stat_class;

/**
 * struct lock_stat_thread - What one thread knows of its holds.
 * @held: The lock of its timed hold, or NULL when none is open.
 * @t0: When that hold began (ns).
 * @sum: Its closed holds.
 */
struct lock_stat_thread {
	const struct lockdep_map *held;
	u64 t0;
	struct lock_stat_holds sum;
};

static __thread struct lock_stat_thread lock_stat_self;

static inline u64 lock_stat_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void __lock_stat_acquired(const struct lockdep_map *map)
{
	struct lock_stat_thread *t = &lock_stat_self;
	const char *class = __atomic_load_n(&lock_stat_class, __ATOMIC_RELAXED);
	void (*hook)(bool) = __atomic_load_n(&lock_stat_hold_hook,
					     __ATOMIC_RELAXED);

	if (t->held || !class || !map->name || strcmp(map->name, class))
		return;
	t->held = map;
	t->t0 = lock_stat_clock();
	if (hook)
		hook(true);
}

void __lock_stat_release(const struct lockdep_map *map)
{
	struct lock_stat_thread *t = &lock_stat_self;
	void (*hook)(bool);

	if (t->held != map)
		return;
	hook = __atomic_load_n(&lock_stat_hold_hook, __ATOMIC_RELAXED);
	if (hook)
		hook(false);
	t->sum.holdtime_ns += lock_stat_clock() - t->t0;
	t->sum.nr++;
	t->held = NULL;
}

void lock_stat_start(const char *class)
{
	lock_stat_self.held = NULL;
	lock_stat_reset();
	__atomic_store_n(&lock_stat_class, class, __ATOMIC_RELAXED);
	__atomic_store_n(&__lock_stat_enabled, 1, __ATOMIC_RELEASE);
}

void lock_stat_stop(void)
{
	__atomic_store_n(&__lock_stat_enabled, 0, __ATOMIC_RELEASE);
}

void lock_stat_read(struct lock_stat_holds *holds)
{
	*holds = lock_stat_self.sum;
}

void lock_stat_reset(void)
{
	lock_stat_self.sum.holdtime_ns = 0;
	lock_stat_self.sum.nr = 0;
}
