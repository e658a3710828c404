// SPDX-License-Identifier: GPL-2.0
/*
 * The hold times that vma_bench's critical-section figures come from
 * (<linux/lock_stat.h> behind <linux/rwsem.h>'s write holds), and the
 * arithmetic it does with them (critical.h).  A lock's class is its
 * initializer, as lockdep's is: every lock that init_class() sets up is
 * of class "sem" (the argument's name), every other of its own.
 */
#include <pthread.h>
#include <time.h>

#include <kunit/test.h>
#include <linux/lock_stat.h>
#include <linux/rwsem.h>

#include "critical.h"

#define CLASS	"sem"

static void init_class(struct rw_semaphore *sem)
{
	init_rwsem(sem);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void lock_stat_is_off_by_default(struct kunit *test)
{
	struct rw_semaphore sem;
	struct lock_stat_holds h;

	init_class(&sem);
	lock_stat_reset();
	down_write(&sem);
	up_write(&sem);
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 0UL);
	KUNIT_EXPECT_EQ(test, h.holdtime_ns, 0ULL);
}

static void lock_stat_times_a_write_hold_of_the_class(struct kunit *test)
{
	struct rw_semaphore sem;
	struct lock_stat_holds h;

	init_class(&sem);
	lock_stat_start(CLASS);
	down_write(&sem);
	sleep_ms(2);
	up_write(&sem);
	lock_stat_stop();
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 1UL);
	/* The hold spans the 2 ms sleep. */
	KUNIT_EXPECT_GE(test, h.holdtime_ns, 2000000ULL);

	/* Stopped: the next hold is not counted, the totals stay. */
	down_write(&sem);
	up_write(&sem);
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 1UL);
	lock_stat_reset();
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 0UL);
	KUNIT_EXPECT_EQ(test, h.holdtime_ns, 0ULL);
}

static void lock_stat_counts_neither_reads_nor_other_classes(struct kunit *test)
{
	struct rw_semaphore sem, other;
	struct lock_stat_holds h;

	init_class(&sem);
	init_rwsem(&other);
	lock_stat_start(CLASS);
	down_read(&sem);
	up_read(&sem);
	down_write(&other);
	up_write(&other);
	KUNIT_EXPECT_EQ(test, down_write_trylock(&sem), 1);
	up_write(&sem);
	lock_stat_stop();
	lock_stat_read(&h);
	/* Only the write trylock of the class. */
	KUNIT_EXPECT_EQ(test, h.nr, 1UL);
}

/* Two locks of the class, one inside the other: one hold, the outer's. */
static void lock_stat_times_the_outermost_hold(struct kunit *test)
{
	struct rw_semaphore outer, inner;
	struct lock_stat_holds h;

	init_class(&outer);
	init_class(&inner);
	lock_stat_start(CLASS);
	down_write(&outer);
	down_write(&inner);
	up_write(&inner);
	sleep_ms(2);
	up_write(&outer);
	lock_stat_stop();
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 1UL);
	KUNIT_EXPECT_GE(test, h.holdtime_ns, 2000000ULL);
}

static void lock_stat_hold_ends_at_downgrade(struct kunit *test)
{
	struct rw_semaphore sem;
	struct lock_stat_holds h;

	init_class(&sem);
	lock_stat_start(CLASS);
	down_write(&sem);
	downgrade_write(&sem);
	sleep_ms(2);
	up_read(&sem);
	lock_stat_stop();
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 1UL);
	/* The read hold's sleep is not in it. */
	KUNIT_EXPECT_LT(test, h.holdtime_ns, 2000000ULL);
}

static struct rw_semaphore thread_sem;
static struct lock_stat_holds thread_holds;

static void *hold_twice(void *arg)
{
	(void)arg;
	down_write(&thread_sem);
	up_write(&thread_sem);
	down_write(&thread_sem);
	up_write(&thread_sem);
	lock_stat_read(&thread_holds);
	return NULL;
}

static void lock_stat_totals_are_per_thread(struct kunit *test)
{
	struct lock_stat_holds h;
	pthread_t thread;

	init_class(&thread_sem);
	lock_stat_start(CLASS);
	down_write(&thread_sem);
	up_write(&thread_sem);
	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL, hold_twice, NULL), 0);
	pthread_join(thread, NULL);
	lock_stat_stop();
	lock_stat_read(&h);
	KUNIT_EXPECT_EQ(test, h.nr, 1UL);
	KUNIT_EXPECT_EQ(test, thread_holds.nr, 2UL);
}

static int hook_open, hook_calls;

static void hook(bool begin)
{
	hook_open += begin ? 1 : -1;
	hook_calls++;
}

static void lock_stat_hook_brackets_each_timed_hold(struct kunit *test)
{
	struct rw_semaphore outer, inner, other;

	init_class(&outer);
	init_class(&inner);
	init_rwsem(&other);
	lock_stat_hold_hook = hook;
	lock_stat_start(CLASS);
	down_write(&outer);
	KUNIT_EXPECT_EQ(test, hook_open, 1);
	down_write(&inner);
	down_write(&other);
	up_write(&other);
	up_write(&inner);
	KUNIT_EXPECT_EQ(test, hook_open, 1);
	up_write(&outer);
	lock_stat_stop();
	lock_stat_hold_hook = NULL;
	KUNIT_EXPECT_EQ(test, hook_open, 0);
	KUNIT_EXPECT_EQ(test, hook_calls, 2);
}

static void cs_per_op_subtracts_each_hold_once(struct kunit *test)
{
	/* 4 holds summing 10,000 ns, 50 ns each empty, 2 ops: 4,900. */
	KUNIT_EXPECT_EQ(test, (long)cs_per_op(10000, 4, 50, 2), 4900L);
	/* 3 holds of 1,000 instructions, 12 each empty, 3 ops: 988. */
	KUNIT_EXPECT_EQ(test, (long)cs_per_op(3000, 3, 12, 3), 988L);
	/* No operations: nothing to divide. */
	KUNIT_EXPECT_EQ(test, (long)cs_per_op(3000, 3, 12, 0), 0L);
	/* Noise above the section: below zero, as measured. */
	KUNIT_EXPECT_EQ(test, (long)cs_per_op(90, 2, 50, 1), -10L);
}

static void cs_amdahl_ceiling_is_one_second_over_the_section(struct kunit *test)
{
	/* 500 ns held per op: 2,000,000 ops/s, whatever the tasks. */
	KUNIT_EXPECT_EQ(test, (long)cs_amdahl_ops(500), 2000000L);
	KUNIT_EXPECT_EQ(test, (long)cs_amdahl_ops(1250), 800000L);
	KUNIT_EXPECT_EQ(test, (long)cs_amdahl_ops(0), 0L);
	KUNIT_EXPECT_EQ(test, (long)cs_amdahl_ops(-3), 0L);
	/* 2 tasks at 600,000 ops/s each against a 2,000,000 ceiling: 60%. */
	KUNIT_EXPECT_EQ(test, (long)cs_ceiling_reached_pct(1200000, 2000000),
			60L);
	KUNIT_EXPECT_EQ(test, (long)cs_ceiling_reached_pct(1200000, 0), 0L);
}

static struct kunit_case lock_stat_cases[] = {
	KUNIT_CASE(lock_stat_is_off_by_default),
	KUNIT_CASE(lock_stat_times_a_write_hold_of_the_class),
	KUNIT_CASE(lock_stat_counts_neither_reads_nor_other_classes),
	KUNIT_CASE(lock_stat_times_the_outermost_hold),
	KUNIT_CASE(lock_stat_hold_ends_at_downgrade),
	KUNIT_CASE(lock_stat_totals_are_per_thread),
	KUNIT_CASE(lock_stat_hook_brackets_each_timed_hold),
	KUNIT_CASE(cs_per_op_subtracts_each_hold_once),
	KUNIT_CASE(cs_amdahl_ceiling_is_one_second_over_the_section),
	{}
};

static struct kunit_suite lock_stat_suite = {
	.name = "bench_lock_stat",
	.test_cases = lock_stat_cases,
};

kunit_test_suite(lock_stat_suite);
