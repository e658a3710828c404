// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the userspace stand-ins in tools/include and tools/lib, and of
 * the test runner itself.  If these fail, no other result can be trusted.
 *
 * Suites:
 *   shim_rcu       grace periods really wait for readers in other threads
 *   shim_slab      fault injection, counters, leak check, alignment, ctor
 *   shim_locks     lockdep_is_held() and friends for every lock type
 *   shim_encoding  xarray entry and ERR_PTR encodings, errno values
 *   shim_kernel    kernel.h helpers, printk, module_init, random
 *   shim_runner    the runner's own behaviour (via build/runner-selftest)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"

/* ---- helpers ---- */

static void set_flag(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}

static int get_flag(int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_SEQ_CST);
}

static void wait_flag(int *flag)
{
	while (!get_flag(flag))
		usleep(100);
}

/* Redirect stdout to a temporary file between start and end. */
struct capture {
	FILE *file;
	int saved_fd;
};

static void capture_start(struct capture *c)
{
	fflush(stdout);
	c->file = tmpfile();
	c->saved_fd = dup(STDOUT_FILENO);
	dup2(fileno(c->file), STDOUT_FILENO);
}

static void capture_end(struct capture *c, char *buf, size_t size)
{
	size_t n;

	fflush(stdout);
	dup2(c->saved_fd, STDOUT_FILENO);
	close(c->saved_fd);
	rewind(c->file);
	n = fread(buf, 1, size - 1, c->file);
	buf[n] = '\0';
	fclose(c->file);
}

/* ---- shim_rcu ---- */

struct reader_sync {
	int inside;		/* reader holds rcu_read_lock() */
	int release;		/* reader may leave */
	int outside;		/* reader is about to rcu_read_unlock() */
	int held_inside;	/* rcu_read_lock_held() inside */
	int held_outside;	/* rcu_read_lock_held() after unlock */
	unsigned int hold_us;	/* how long to stay after release */
};

/* A thread that never registers with liburcu itself. */
static void *rcu_reader(void *arg)
{
	struct reader_sync *rs = arg;

	rcu_read_lock();
	rs->held_inside = rcu_read_lock_held();
	set_flag(&rs->inside);
	wait_flag(&rs->release);
	usleep(rs->hold_us);
	set_flag(&rs->outside);
	rcu_read_unlock();
	rs->held_outside = rcu_read_lock_held();
	return NULL;
}

static void synchronize_rcu_waits_for_reader_in_other_thread(struct kunit *test)
{
	struct reader_sync rs = { .hold_us = 100000 };
	pthread_t thread;

	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL, rcu_reader, &rs), 0);
	wait_flag(&rs.inside);
	/* The reader stays 100 ms inside after this. */
	set_flag(&rs.release);
	synchronize_rcu();
	KUNIT_EXPECT_EQ_MSG(test, get_flag(&rs.outside), 1,
			    "synchronize_rcu() returned while a reader was inside");
	pthread_join(thread, NULL);
	KUNIT_EXPECT_TRUE(test, rs.held_inside);
	KUNIT_EXPECT_FALSE(test, rs.held_outside);
}

struct rcu_probe {
	struct rcu_head rh;
	struct reader_sync *rs;
	int ran;
	int reader_was_out;
};

static void rcu_probe_callback(struct rcu_head *rh)
{
	struct rcu_probe *probe = container_of(rh, struct rcu_probe, rh);

	probe->reader_was_out = get_flag(&probe->rs->outside);
	set_flag(&probe->ran);
}

static void call_rcu_callback_runs_only_after_reader_leaves(struct kunit *test)
{
	struct reader_sync rs = { .hold_us = 0 };
	struct rcu_probe probe = { .rs = &rs };
	pthread_t thread;

	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL, rcu_reader, &rs), 0);
	wait_flag(&rs.inside);
	call_rcu(&probe.rh, rcu_probe_callback);
	usleep(100000);
	KUNIT_EXPECT_EQ_MSG(test, get_flag(&probe.ran), 0,
			    "callback ran while a reader was inside");
	set_flag(&rs.release);
	pthread_join(thread, NULL);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, get_flag(&probe.ran), 1);
	KUNIT_EXPECT_EQ(test, probe.reader_was_out, 1);
}

static void rcu_read_lock_nests_and_reports_held(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
	rcu_read_lock();
	rcu_read_lock();
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_held());
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_held());
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
}

struct rcu_boxed {
	long value;
	struct rcu_head rcu;
};

static void kfree_rcu_frees_after_grace_period(struct kunit *test)
{
	long live = kmem_nr_live();
	struct rcu_boxed *box = kmalloc(sizeof(*box), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, box);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live + 1);
	kfree_rcu(box, rcu);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live);
}

/*
 * call_rcu() as in a kernel (tools/lib/rcu.c): callbacks queued per thread
 * and run, after their grace period, by the thread that queued them; by
 * someone else when that thread exits or stays idle; all of them by
 * rcu_barrier().
 */
#define RCU_TEST_CBS	1000	/* several of rcu.c's batches */

struct rcu_mark {
	struct rcu_head rh;
	pthread_t runner;	/* the thread that ran the callback */
	int ran;
};

static void rcu_mark_callback(struct rcu_head *rh)
{
	struct rcu_mark *mark = container_of(rh, struct rcu_mark, rh);

	mark->runner = pthread_self();
	set_flag(&mark->ran);
}

/* Poll @flag for up to @ms milliseconds: no rcu_barrier(), no sync. */
static int wait_flag_ms(int *flag, unsigned int ms)
{
	unsigned int i;

	for (i = 0; i < ms * 10 && !get_flag(flag); i++)
		usleep(100);
	return get_flag(flag);
}

struct rcu_queuer {
	struct rcu_mark *marks;
	int nr_queued;
	int hold;		/* stay alive, idle, until cleared */
	int queued;		/* all queued, now idle */
};

/* Queue until the first callback has run, or all are queued. */
static void *rcu_queue_until_first_runs(void *arg)
{
	struct rcu_queuer *qr = arg;
	int i;

	for (i = 0; i < RCU_TEST_CBS; i++) {
		call_rcu(&qr->marks[i].rh, rcu_mark_callback);
		qr->nr_queued = i + 1;
		if (get_flag(&qr->marks[0].ran))
			break;
		if (i % 16 == 15)
			usleep(200);
	}
	return NULL;
}

static void call_rcu_callbacks_run_on_the_thread_that_queued_them(struct kunit *test)
{
	struct rcu_queuer qr = { 0 };
	pthread_t thread;
	int i, mine = 0;

	qr.marks = calloc(RCU_TEST_CBS, sizeof(*qr.marks));
	KUNIT_ASSERT_NOT_NULL(test, qr.marks);
	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     rcu_queue_until_first_runs, &qr), 0);
	pthread_join(thread, NULL);
	/* The queueing thread saw its first callback run while queueing. */
	KUNIT_EXPECT_EQ(test, get_flag(&qr.marks[0].ran), 1);
	KUNIT_EXPECT_LT(test, qr.nr_queued, RCU_TEST_CBS);
	rcu_barrier();
	for (i = 0; i < qr.nr_queued; i++) {
		KUNIT_EXPECT_EQ(test, get_flag(&qr.marks[i].ran), 1);
		mine += pthread_equal(qr.marks[i].runner, thread) != 0;
	}
	/* Those it found done before it exited, it ran itself. */
	KUNIT_EXPECT_TRUE_MSG(test, pthread_equal(qr.marks[0].runner, thread),
			      "callback 0 ran on another thread");
	KUNIT_EXPECT_GT(test, mine, 0);
	free(qr.marks);
}

/* Queue a few callbacks (less than a batch), then stay idle. */
static void *rcu_queue_few_and_idle(void *arg)
{
	struct rcu_queuer *qr = arg;
	int i;

	for (i = 0; i < qr->nr_queued; i++)
		call_rcu(&qr->marks[i].rh, rcu_mark_callback);
	set_flag(&qr->queued);
	while (get_flag(&qr->hold))
		usleep(1000);
	return NULL;
}

static void rcu_barrier_runs_callbacks_of_an_idle_thread(struct kunit *test)
{
	struct rcu_mark marks[3] = { 0 };
	struct rcu_queuer qr = { .marks = marks, .nr_queued = 3, .hold = 1 };
	pthread_t thread;
	int i;

	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     rcu_queue_few_and_idle, &qr), 0);
	wait_flag(&qr.queued);
	rcu_barrier();
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, get_flag(&marks[i].ran), 1);
	/* The owner was idle: someone else ran them. */
	KUNIT_EXPECT_FALSE(test, pthread_equal(marks[0].runner, thread));
	__atomic_store_n(&qr.hold, 0, __ATOMIC_SEQ_CST);
	pthread_join(thread, NULL);
}

static void call_rcu_of_an_idle_thread_runs_without_barrier(struct kunit *test)
{
	struct rcu_mark marks[1] = { 0 };
	struct rcu_queuer qr = { .marks = marks, .nr_queued = 1, .hold = 1 };
	pthread_t thread;

	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     rcu_queue_few_and_idle, &qr), 0);
	wait_flag(&qr.queued);
	/* One callback, far from a batch, its thread idle: the tick. */
	KUNIT_EXPECT_EQ_MSG(test, wait_flag_ms(&marks[0].ran, 5000), 1,
			    "a lone callback of an idle thread did not run in 5 s");
	__atomic_store_n(&qr.hold, 0, __ATOMIC_SEQ_CST);
	pthread_join(thread, NULL);
}

static void call_rcu_of_an_exited_thread_runs_without_barrier(struct kunit *test)
{
	struct rcu_mark marks[2] = { 0 };
	struct rcu_queuer qr = { .marks = marks, .nr_queued = 2 };
	pthread_t thread;

	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     rcu_queue_few_and_idle, &qr), 0);
	pthread_join(thread, NULL);
	KUNIT_EXPECT_EQ_MSG(test, wait_flag_ms(&marks[1].ran, 5000), 1,
			    "callbacks of an exited thread did not run in 5 s");
	KUNIT_EXPECT_EQ(test, get_flag(&marks[0].ran), 1);
}

struct rcu_count {
	struct rcu_head rh;
	int *ran;
};

static void rcu_count_callback(struct rcu_head *rh)
{
	struct rcu_count *c = container_of(rh, struct rcu_count, rh);

	__atomic_add_fetch(c->ran, 1, __ATOMIC_SEQ_CST);
}

struct rcu_flood {
	struct rcu_count counts[RCU_TEST_CBS];
	int queued;
	int hold;
};

/* Queue RCU_TEST_CBS callbacks (several batches and a part), then idle. */
static void *rcu_flood_and_idle(void *arg)
{
	struct rcu_flood *fl = arg;
	int i;

	for (i = 0; i < RCU_TEST_CBS; i++)
		call_rcu(&fl->counts[i].rh, rcu_count_callback);
	set_flag(&fl->queued);
	while (get_flag(&fl->hold))
		usleep(1000);
	return NULL;
}

static void rcu_barrier_runs_every_callback_of_every_thread(struct kunit *test)
{
	static struct rcu_flood floods[4];
	pthread_t threads[4];
	int t, i, ran = 0;

	for (t = 0; t < 4; t++) {
		for (i = 0; i < RCU_TEST_CBS; i++)
			floods[t].counts[i].ran = &ran;
		floods[t].queued = 0;
		floods[t].hold = 1;
		KUNIT_ASSERT_EQ(test, pthread_create(&threads[t], NULL,
						     rcu_flood_and_idle,
						     &floods[t]), 0);
	}
	for (t = 0; t < 4; t++)
		wait_flag(&floods[t].queued);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, get_flag(&ran), 4 * RCU_TEST_CBS);
	for (t = 0; t < 4; t++) {
		__atomic_store_n(&floods[t].hold, 0, __ATOMIC_SEQ_CST);
		pthread_join(threads[t], NULL);
	}
}

/*
 * Queue RCU_TEST_CBS callbacks a few dozen at a time, 300 us apart, so
 * that batches are handed off at every point of the grace-period
 * thread's cycle, some while it waits out the gap after a grace period
 * (awake, and not woken for them), then idle.
 */
static void *rcu_trickle_and_idle(void *arg)
{
	struct rcu_flood *fl = arg;
	int i;

	for (i = 0; i < RCU_TEST_CBS; i++) {
		call_rcu(&fl->counts[i].rh, rcu_count_callback);
		if (i % 50 == 49)
			usleep(300);
	}
	set_flag(&fl->queued);
	while (get_flag(&fl->hold))
		usleep(1000);
	return NULL;
}

static void call_rcu_batches_handed_off_between_grace_periods_all_run(struct kunit *test)
{
	static struct rcu_flood fl;
	pthread_t thread;
	int i, ran = 0;

	for (i = 0; i < RCU_TEST_CBS; i++)
		fl.counts[i].ran = &ran;
	fl.queued = 0;
	fl.hold = 1;
	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     rcu_trickle_and_idle, &fl), 0);
	wait_flag(&fl.queued);
	/* No rcu_barrier(): the grace-period thread and the tick alone. */
	for (i = 0; i < 50000 && get_flag(&ran) < RCU_TEST_CBS; i++)
		usleep(100);
	KUNIT_EXPECT_EQ_MSG(test, get_flag(&ran), RCU_TEST_CBS,
			    "callbacks of an idle thread still waiting after 5 s");
	__atomic_store_n(&fl.hold, 0, __ATOMIC_SEQ_CST);
	pthread_join(thread, NULL);
}

static void rcu_pointer_accessors_publish_and_read(struct kunit *test)
{
	static long a = 1, b = 2;
	long __rcu *slot = NULL;
	long *seen;

	RCU_INIT_POINTER(slot, &a);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(slot), &a);
	rcu_assign_pointer(slot, &b);
	rcu_read_lock();
	seen = rcu_dereference(slot);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, seen, &b);
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_protected(slot, 1), &b);
}

static void rcu_dereference_outside_reader_warns(struct kunit *test)
{
	long __rcu *slot = NULL;
	long warns = kernel_warn_count();

	ktest_allow_warnings(test);
	(void)rcu_dereference(slot);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns + 1);
	/* The same access under a lock the condition names is fine. */
	(void)rcu_dereference_check(slot, 1);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns + 1);
}

static struct kunit_case shim_rcu_cases[] = {
	KUNIT_CASE(synchronize_rcu_waits_for_reader_in_other_thread),
	KUNIT_CASE(call_rcu_callback_runs_only_after_reader_leaves),
	KUNIT_CASE(rcu_read_lock_nests_and_reports_held),
	KUNIT_CASE(kfree_rcu_frees_after_grace_period),
	KUNIT_CASE(call_rcu_callbacks_run_on_the_thread_that_queued_them),
	KUNIT_CASE(rcu_barrier_runs_callbacks_of_an_idle_thread),
	KUNIT_CASE(call_rcu_of_an_idle_thread_runs_without_barrier),
	KUNIT_CASE(call_rcu_of_an_exited_thread_runs_without_barrier),
	KUNIT_CASE(rcu_barrier_runs_every_callback_of_every_thread),
	KUNIT_CASE(call_rcu_batches_handed_off_between_grace_periods_all_run),
	KUNIT_CASE(rcu_pointer_accessors_publish_and_read),
	KUNIT_CASE(rcu_dereference_outside_reader_warns),
	{}
};

static struct kunit_suite shim_rcu_suite = {
	.name = "shim_rcu",
	.test_cases = shim_rcu_cases,
};

/* ---- shim_slab ---- */

static struct kmem_cache *test_cache;

static int shim_slab_init(struct kunit *test)
{
	(void)test;
	test_cache = kmem_cache_create("shim_test_cache", 64, 0, 0, NULL);
	return test_cache ? 0 : -ENOMEM;
}

static void shim_slab_exit(struct kunit *test)
{
	(void)test;
	kmem_fault_reset();
	kmem_cache_destroy(test_cache);
	test_cache = NULL;
}

static void fault_nth_fails_exactly_that_allocation(struct kunit *test)
{
	void *p[5];
	int i;

	kmem_fault_nth(3);
	for (i = 0; i < 5; i++)
		p[i] = kmem_cache_alloc(test_cache, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, p[0]);
	KUNIT_EXPECT_NOT_NULL(test, p[1]);
	KUNIT_EXPECT_NULL(test, p[2]);
	KUNIT_EXPECT_NOT_NULL(test, p[3]);
	KUNIT_EXPECT_NOT_NULL(test, p[4]);
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 1);
	for (i = 0; i < 5; i++)
		kmem_cache_free(test_cache, p[i]);
	kmem_fault_reset();
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 0);
}

/*
 * The harness is built with CONFIG_DEBUG_MAPLE_TREE: an object not asked
 * to be zeroed comes full of 0x5a (a freed and reused one too), one asked
 * to be zeroed is zero.
 */
static void unzeroed_objects_are_poisoned_zeroed_ones_are_zero(struct kunit *test)
{
	unsigned int size = kmem_cache_size(test_cache), i, k;
	unsigned char *p;

	for (k = 0; k < 2; k++) {
		p = kmem_cache_alloc(test_cache, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		for (i = 0; i < size; i++)
			if (p[i] != 0x5a)
				break;
		KUNIT_EXPECT_EQ_MSG(test, i, size, "round %u", k);
		memset(p, 0, size);
		kmem_cache_free(test_cache, p);
	}
	p = kmem_cache_zalloc(test_cache, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < size; i++)
		if (p[i])
			break;
	KUNIT_EXPECT_EQ(test, i, size);
	kmem_cache_free(test_cache, p);
}

static void fault_after_fails_every_later_allocation(struct kunit *test)
{
	void *p[5];
	int i;

	kmem_fault_after(2);
	for (i = 0; i < 5; i++)
		p[i] = kmem_cache_alloc(test_cache, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, p[0]);
	KUNIT_EXPECT_NOT_NULL(test, p[1]);
	KUNIT_EXPECT_NULL(test, p[2]);
	KUNIT_EXPECT_NULL(test, p[3]);
	KUNIT_EXPECT_NULL(test, p[4]);
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 3);
	for (i = 0; i < 5; i++)
		kmem_cache_free(test_cache, p[i]);

	kmem_fault_after(-1);		/* disables */
	p[0] = kmem_cache_alloc(test_cache, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, p[0]);
	kmem_cache_free(test_cache, p[0]);
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 3);
}

static void fault_in_bulk_counts_objects_and_frees_partial(struct kunit *test)
{
	long live = kmem_nr_live();
	void *p[5];

	kmem_fault_nth(4);
	KUNIT_EXPECT_EQ(test, kmem_cache_alloc_bulk(test_cache, GFP_KERNEL,
						    5, p), 0);
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 1);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live);

	KUNIT_ASSERT_EQ(test, kmem_cache_alloc_bulk(test_cache, GFP_KERNEL,
						    5, p), 5);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live + 5);
	kmem_cache_free_bulk(test_cache, 5, p);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live);
}

static void fault_injection_covers_kmalloc_family(struct kunit *test)
{
	kmem_fault_after(0);
	KUNIT_EXPECT_NULL(test, kmalloc(16, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kzalloc(16, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kcalloc(4, 16, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kmem_cache_zalloc(test_cache, GFP_ATOMIC));
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 4);
}

static void nofail_allocation_is_never_failed(struct kunit *test)
{
	void *p;

	kmem_fault_after(0);
	p = kmalloc(16, GFP_KERNEL | __GFP_NOFAIL);
	KUNIT_EXPECT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, kmem_fault_count(), 0);
	kfree(p);
}

static void *alloc_five_and_exit(void *arg)
{
	void **p = arg;
	int i;

	for (i = 0; i < 5; i++)
		p[i] = kmem_cache_alloc(test_cache, GFP_KERNEL);
	return NULL;
}

static void counters_are_exact_across_threads(struct kunit *test)
{
	long allocated = kmem_nr_allocated();
	long freed = kmem_nr_freed();
	long live = kmem_nr_live();
	void *p[10], *q[5], *k;
	pthread_t thread;
	int i;

	for (i = 0; i < 10; i++)
		p[i] = kmem_cache_alloc(test_cache, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, kmem_nr_allocated(), allocated + 10);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live + 10);
	KUNIT_EXPECT_EQ(test, kmem_cache_nr_live(test_cache), 10);

	for (i = 0; i < 4; i++)
		kmem_cache_free(test_cache, p[i]);
	KUNIT_EXPECT_EQ(test, kmem_nr_freed(), freed + 4);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live + 6);

	k = kmalloc(100, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, kmem_nr_allocated(), allocated + 11);
	KUNIT_EXPECT_EQ(test, kmem_cache_nr_live(NULL), 1);
	kfree(k);

	/* A thread's counts outlive it. */
	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     alloc_five_and_exit, q), 0);
	pthread_join(thread, NULL);
	KUNIT_EXPECT_EQ(test, kmem_nr_allocated(), allocated + 16);
	KUNIT_EXPECT_EQ(test, kmem_cache_nr_live(test_cache), 11);

	for (i = 0; i < 5; i++)
		kmem_cache_free(test_cache, q[i]);
	for (i = 4; i < 10; i++)
		kmem_cache_free(test_cache, p[i]);
	KUNIT_EXPECT_EQ(test, kmem_nr_freed(), freed + 16);
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live);
	KUNIT_EXPECT_EQ(test, kmem_cache_nr_live(test_cache), 0);
}

static void leak_check_reports_live_objects(struct kunit *test)
{
	struct kmem_cache *leaky;
	struct capture cap;
	char out[4096];
	long live;
	void *obj;

	leaky = kmem_cache_create("shim_leaky", 40, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, leaky);
	live = kmem_leak_check();

	obj = kmem_cache_alloc(leaky, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	capture_start(&cap);
	KUNIT_EXPECT_EQ(test, kmem_leak_check(), live + 1);
	capture_end(&cap, out, sizeof(out));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(out, "shim_leaky: 1 live object"),
				  "leak report was: %s", out);

	kmem_cache_free(leaky, obj);
	KUNIT_EXPECT_EQ(test, kmem_leak_check(), live);
	kmem_cache_destroy(leaky);
}

static void cache_objects_honour_alignment(struct kunit *test)
{
	struct {
		unsigned int size, align;
		slab_flags_t flags;
		unsigned long want;
	} shapes[] = {
		{ 256, 256, 0, 256 },		/* the maple node shape */
		{ 24, 0, 0, sizeof(void *) },
		{ 100, 0, SLAB_HWCACHE_ALIGN, 64 },
		{ 128, 128, SLAB_PANIC | SLAB_RECLAIM_ACCOUNT, 128 },
		{ 8, 4096, 0, 4096 },
	};
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		struct kmem_cache *cache;
		void *obj[40];

		cache = kmem_cache_create("shim_aligned", shapes[s].size,
					  shapes[s].align, shapes[s].flags,
					  NULL);
		KUNIT_ASSERT_NOT_NULL(test, cache);
		KUNIT_ASSERT_EQ(test, kmem_cache_alloc_bulk(cache, GFP_KERNEL,
						20, obj), 20);
		for (i = 20; i < 40; i++)
			obj[i] = kmem_cache_alloc(cache, GFP_KERNEL);
		for (i = 0; i < 40; i++)
			KUNIT_EXPECT_EQ_MSG(test,
				(unsigned long)obj[i] % shapes[s].want, 0,
				"size %u align %u object %u at %p",
				shapes[s].size, shapes[s].align, i, obj[i]);
		/* Freed objects come back aligned too. */
		kmem_cache_free_bulk(cache, 40, obj);
		for (i = 0; i < 40; i++) {
			obj[i] = kmem_cache_alloc(cache, GFP_KERNEL);
			KUNIT_EXPECT_EQ(test,
				(unsigned long)obj[i] % shapes[s].want, 0);
		}
		kmem_cache_free_bulk(cache, 40, obj);
		kmem_cache_destroy(cache);
	}
}

static atomic_t ctor_calls;

static void pattern_ctor(void *obj)
{
	memset(obj, 0xa5, 48);
	atomic_inc(&ctor_calls);
}

static void ctor_runs_once_per_object_and_zalloc_zeroes(struct kunit *test)
{
	static const unsigned char pattern[48] = {
		[0 ... 47] = 0xa5,
	};
	static const unsigned char zeroes[48];
	struct kmem_cache *cache;
	unsigned char *obj;

	atomic_set(&ctor_calls, 0);
	cache = kmem_cache_create("shim_ctor", 48, 0, 0, pattern_ctor);
	KUNIT_ASSERT_NOT_NULL(test, cache);

	obj = kmem_cache_alloc(cache, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_EXPECT_MEMEQ(test, obj, pattern, sizeof(pattern));
	KUNIT_EXPECT_EQ(test, atomic_read(&ctor_calls), 1);
	/* Freed in constructed state: a reused object keeps the pattern. */
	kmem_cache_free(cache, obj);
	obj = kmem_cache_alloc(cache, GFP_KERNEL);
	KUNIT_EXPECT_MEMEQ(test, obj, pattern, sizeof(pattern));
	kmem_cache_free(cache, obj);

	obj = kmem_cache_zalloc(cache, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_EXPECT_MEMEQ(test, obj, zeroes, sizeof(zeroes));
	kmem_cache_free(cache, obj);
	kmem_cache_destroy(cache);
}

static void destroyed_cache_slots_are_reused_cleanly(struct kunit *test)
{
	long live = kmem_nr_live();
	int round;

	/* More rounds than there are cache slots. */
	for (round = 0; round < 200; round++) {
		unsigned int size = 16 + (round % 7) * 40;
		struct kmem_cache *cache;
		void *obj[8];
		int i;

		cache = kmem_cache_create("shim_churn", size, 16 << (round % 4),
					  0, NULL);
		KUNIT_ASSERT_NOT_NULL(test, cache);
		for (i = 0; i < 8; i++) {
			obj[i] = kmem_cache_alloc(cache, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, obj[i]);
			memset(obj[i], 0x5a, size);
		}
		for (i = 0; i < 8; i++)
			kmem_cache_free(cache, obj[i]);
		kmem_cache_destroy(cache);
	}
	KUNIT_EXPECT_EQ(test, kmem_nr_live(), live);
}

static void kunit_kzalloc_memory_is_released_after_the_case(struct kunit *test)
{
	static const unsigned char zeroes[32];
	void *p = kunit_kzalloc(test, 32, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_MEMEQ(test, p, zeroes, sizeof(zeroes));
	/* Not freed here: the runner's leak check proves it was. */
}

struct depot_probe {
	struct kmem_cache *cache;
	void **objs;
	int nr;
};

static void *free_them_all(void *arg)
{
	struct depot_probe *dp = arg;
	int i;

	for (i = 0; i < dp->nr; i++)
		kmem_cache_free(dp->cache, dp->objs[i]);
	return NULL;
}

/*
 * Objects another thread frees, far more than its own free list keeps,
 * go to the cache's depot in batches and come back from there to a
 * thread that allocates, rather than from the C library.
 */
static void objects_freed_on_another_thread_are_reused_through_the_depot(struct kunit *test)
{
	enum { NR = 256, KEPT = 32 };	/* KEPT: a thread's free list */
	static void *first[NR], *again[NR];
	struct kmem_cache *cache;
	struct depot_probe dp = { .objs = first, .nr = NR };
	const char *nocache = getenv("KMEM_NOCACHE");
	pthread_t thread;
	int i, j, reused = 0;

#if defined(__TOOLS_ASAN) || defined(__TOOLS_TSAN)
	kunit_skip(test, "sanitizer builds keep no freed objects");
#endif
	if (nocache && *nocache && *nocache != '0')
		kunit_skip(test, "KMEM_NOCACHE keeps no freed objects");
	cache = kmem_cache_create("depot_probe", 64, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	dp.cache = cache;
	for (i = 0; i < NR; i++) {
		first[i] = kmem_cache_alloc(cache, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, first[i]);
	}
	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL, free_them_all,
					     &dp), 0);
	pthread_join(thread, NULL);
	for (i = 0; i < NR; i++) {
		again[i] = kmem_cache_alloc(cache, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, again[i]);
		for (j = 0; j < NR && again[i] != first[j]; j++)
			;
		reused += j < NR;
	}
	/* All but those the other thread's own list held when it exited. */
	KUNIT_EXPECT_GE(test, reused, NR - KEPT);
	for (i = 0; i < NR; i++)
		kmem_cache_free(cache, again[i]);
	kmem_cache_destroy(cache);
}

static struct kunit_case shim_slab_cases[] = {
	KUNIT_CASE(fault_nth_fails_exactly_that_allocation),
	KUNIT_CASE(fault_after_fails_every_later_allocation),
	KUNIT_CASE(unzeroed_objects_are_poisoned_zeroed_ones_are_zero),
	KUNIT_CASE(fault_in_bulk_counts_objects_and_frees_partial),
	KUNIT_CASE(fault_injection_covers_kmalloc_family),
	KUNIT_CASE(nofail_allocation_is_never_failed),
	KUNIT_CASE(counters_are_exact_across_threads),
	KUNIT_CASE(leak_check_reports_live_objects),
	KUNIT_CASE(cache_objects_honour_alignment),
	KUNIT_CASE(ctor_runs_once_per_object_and_zalloc_zeroes),
	KUNIT_CASE(destroyed_cache_slots_are_reused_cleanly),
	KUNIT_CASE(objects_freed_on_another_thread_are_reused_through_the_depot),
	KUNIT_CASE(kunit_kzalloc_memory_is_released_after_the_case),
	{}
};

static struct kunit_suite shim_slab_suite = {
	.name = "shim_slab",
	.init = shim_slab_init,
	.exit = shim_slab_exit,
	.test_cases = shim_slab_cases,
};

/* ---- shim_locks ---- */

/* Shaped like DEFINE_MTREE(): a lock initialised inside a struct. */
struct locked_thing {
	spinlock_t lock;
	int value;
};

static struct locked_thing static_thing = {
	.lock = __SPIN_LOCK_UNLOCKED(static_thing.lock),
	.value = 7,
};
static DEFINE_SPINLOCK(static_spin);
static DEFINE_MUTEX(static_mutex);
static DECLARE_RWSEM(static_rwsem);

struct held_probe {
	struct lockdep_map *map;
	int held;		/* lock_is_held() as seen by the other thread */
	int trylock;		/* spin_trylock() result in the other thread */
	spinlock_t *spin;
	struct rw_semaphore *sem;
	int *go, *done;
};

static void *probe_held(void *arg)
{
	struct held_probe *hp = arg;

	hp->held = lock_is_held(hp->map);
	if (hp->spin) {
		hp->trylock = spin_trylock(hp->spin);
		if (hp->trylock)
			spin_unlock(hp->spin);
	}
	return NULL;
}

static int held_elsewhere(struct lockdep_map *map, spinlock_t *spin,
			  int *trylock)
{
	struct held_probe hp = { .map = map, .spin = spin };
	pthread_t thread;

	if (pthread_create(&thread, NULL, probe_held, &hp))
		return -1;
	pthread_join(thread, NULL);
	if (trylock)
		*trylock = hp.trylock;
	return hp.held;
}

static void spinlock_is_held_only_by_its_owner(struct kunit *test)
{
	spinlock_t lock;
	int trylock = -1;

	spin_lock_init(&lock);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&lock));
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&lock));
	spin_lock(&lock);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&lock));
	KUNIT_EXPECT_TRUE(test, lock_is_held(&lock.dep_map));
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&lock));
	KUNIT_EXPECT_EQ(test, held_elsewhere(&lock.dep_map, &lock, &trylock), 0);
	KUNIT_EXPECT_EQ(test, trylock, 0);
	spin_unlock(&lock);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&lock));
	KUNIT_EXPECT_EQ(test, held_elsewhere(&lock.dep_map, &lock, &trylock), 0);
	KUNIT_EXPECT_EQ(test, trylock, 1);
}

static void spinlock_irqsave_variants_track_ownership(struct kunit *test)
{
	unsigned long flags = 123;

	spin_lock_irqsave(&static_spin, flags);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&static_spin));
	KUNIT_EXPECT_EQ(test, preempt_count(), 1);
	spin_unlock_irqrestore(&static_spin, flags);
	spin_lock_bh(&static_spin);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&static_spin));
	spin_unlock_bh(&static_spin);
	spin_lock_irq(&static_spin);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&static_spin));
	spin_unlock_irq(&static_spin);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&static_spin));
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
}

static void lock_initialised_inside_struct_works(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, static_thing.lock.dep_map.name,
			   "static_thing.lock");
	spin_lock(&static_thing.lock);
	static_thing.value++;
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&static_thing.lock));
	spin_unlock(&static_thing.lock);
	KUNIT_EXPECT_EQ(test, static_thing.value, 8);
}

static void mutex_is_held_only_by_its_owner(struct kunit *test)
{
	struct mutex lock;

	mutex_init(&lock);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&lock));
	mutex_lock(&lock);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&lock));
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&lock));
	KUNIT_EXPECT_EQ(test, held_elsewhere(&lock.dep_map, NULL, NULL), 0);
	mutex_unlock(&lock);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&lock));

	KUNIT_EXPECT_EQ(test, mutex_trylock(&static_mutex), 1);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&static_mutex));
	mutex_unlock(&static_mutex);
}

static void rwsem_held_for_read_or_write_counts_as_held(struct kunit *test)
{
	struct rw_semaphore sem;

	init_rwsem(&sem);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&sem));
	KUNIT_EXPECT_FALSE(test, rwsem_is_locked(&sem));

	down_read(&sem);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&sem));
	KUNIT_EXPECT_TRUE(test, lockdep_is_held_type(&sem, 1));
	KUNIT_EXPECT_FALSE(test, lockdep_is_held_type(&sem, 0));
	KUNIT_EXPECT_TRUE(test, rwsem_is_locked(&sem));
	KUNIT_EXPECT_EQ(test, held_elsewhere(&sem.dep_map, NULL, NULL), 0);
	up_read(&sem);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&sem));

	down_write(&sem);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&sem));
	KUNIT_EXPECT_TRUE(test, lockdep_is_held_type(&sem, 0));
	KUNIT_EXPECT_FALSE(test, lockdep_is_held_type(&sem, 1));
	KUNIT_EXPECT_EQ(test, down_read_trylock(&sem), 0);
	downgrade_write(&sem);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held_type(&sem, 1));
	up_read(&sem);
	KUNIT_EXPECT_FALSE(test, rwsem_is_locked(&sem));

	KUNIT_EXPECT_EQ(test, down_write_trylock(&static_rwsem), 1);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&static_rwsem));
	up_write(&static_rwsem);
}

static void *hold_read_until_told(void *arg)
{
	struct held_probe *hp = arg;

	down_read(hp->sem);
	set_flag(hp->done);
	wait_flag(hp->go);
	up_read(hp->sem);
	return NULL;
}

static void rwsem_read_held_by_another_thread_is_not_ours(struct kunit *test)
{
	struct rw_semaphore sem;
	int go = 0, done = 0;
	struct held_probe hp = { .sem = &sem, .go = &go, .done = &done };
	pthread_t thread;

	init_rwsem(&sem);
	KUNIT_ASSERT_EQ(test, pthread_create(&thread, NULL,
					     hold_read_until_told, &hp), 0);
	wait_flag(&done);
	KUNIT_EXPECT_TRUE(test, rwsem_is_locked(&sem));
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&sem));
	down_read(&sem);		/* shared with the other reader */
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&sem));
	up_read(&sem);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&sem));
	set_flag(&go);
	pthread_join(thread, NULL);
}

struct write_probe {
	struct rw_semaphore *sem;
	int done;
};

static void *take_write_once(void *arg)
{
	struct write_probe *wp = arg;

	down_write(wp->sem);
	up_write(wp->sem);
	set_flag(&wp->done);
	return NULL;
}

/*
 * init_rwsem() over memory that held anything: a lock that works, and
 * prefers a waiting writer to new readers as DECLARE_RWSEM()'s does.
 */
static void init_rwsem_prefers_a_waiting_writer_to_new_readers(struct kunit *test)
{
	struct rw_semaphore sem;
	int go = 0, done = 0, i, refused = 0;
	struct held_probe hp = { .sem = &sem, .go = &go, .done = &done };
	struct write_probe wp = { .sem = &sem };
	pthread_t reader, writer;

	memset(&sem, 0xa5, sizeof(sem));
	init_rwsem(&sem);
	KUNIT_EXPECT_FALSE(test, rwsem_is_locked(&sem));
	KUNIT_ASSERT_EQ(test, pthread_create(&reader, NULL,
					     hold_read_until_told, &hp), 0);
	wait_flag(&done);
	KUNIT_ASSERT_EQ(test, pthread_create(&writer, NULL, take_write_once,
					     &wp), 0);
	/* Once the writer waits, a new reader is turned away. */
	for (i = 0; i < 50000 && !refused; i++) {
		if (down_read_trylock(&sem))
			up_read(&sem);
		else
			refused = 1;
		if (!refused)
			usleep(100);
	}
	KUNIT_EXPECT_TRUE_MSG(test, refused,
			      "readers still admitted past a waiting writer after 5 s");
	KUNIT_EXPECT_FALSE(test, get_flag(&wp.done));
	set_flag(&go);
	pthread_join(reader, NULL);
	pthread_join(writer, NULL);
	KUNIT_EXPECT_TRUE(test, get_flag(&wp.done));
	KUNIT_EXPECT_FALSE(test, rwsem_is_locked(&sem));
}

static void lockdep_assert_held_warns_when_not_held(struct kunit *test)
{
	spinlock_t lock;
	long warns = kernel_warn_count();

	ktest_allow_warnings(test);
	spin_lock_init(&lock);
	spin_lock(&lock);
	lockdep_assert_held(&lock);
	spin_unlock(&lock);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns);
	lockdep_assert_held(&lock);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns + 1);
}

/*
 * The test builds check sleeping in atomic context (MIGHT_SLEEP, on by
 * default): a blocking allocation or mutex_lock() under a spinlock or
 * inside rcu_read_lock() warns; the same with GFP_NOWAIT, or outside, not.
 */
static void sleeping_in_atomic_context_warns(struct kunit *test)
{
#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
	long warns = kernel_warn_count();
	struct mutex mutex;
	spinlock_t lock;
	void *p;

	ktest_allow_warnings(test);
	spin_lock_init(&lock);
	mutex_init(&mutex);

	kfree(kmalloc(8, GFP_KERNEL));
	mutex_lock(&mutex);
	mutex_unlock(&mutex);
	spin_lock(&lock);
	kfree(kmalloc(8, GFP_NOWAIT));
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns);

	p = kmalloc(8, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns + 1);
	spin_unlock(&lock);
	kfree(p);

	rcu_read_lock();
	mutex_lock(&mutex);
	mutex_unlock(&mutex);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), warns + 2);
#else
	kunit_skip(test, "built with MIGHT_SLEEP=0");
#endif
}

static struct kunit_case shim_locks_cases[] = {
	KUNIT_CASE(spinlock_is_held_only_by_its_owner),
	KUNIT_CASE(spinlock_irqsave_variants_track_ownership),
	KUNIT_CASE(lock_initialised_inside_struct_works),
	KUNIT_CASE(mutex_is_held_only_by_its_owner),
	KUNIT_CASE(rwsem_held_for_read_or_write_counts_as_held),
	KUNIT_CASE(rwsem_read_held_by_another_thread_is_not_ours),
	KUNIT_CASE(init_rwsem_prefers_a_waiting_writer_to_new_readers),
	KUNIT_CASE(lockdep_assert_held_warns_when_not_held),
	KUNIT_CASE(sleeping_in_atomic_context_warns),
	{}
};

static struct kunit_suite shim_locks_suite = {
	.name = "shim_locks",
	.test_cases = shim_locks_cases,
};

/* ---- shim_encoding ---- */

static void xa_value_entries_use_kernel_encoding(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, xa_mk_value(0), (void *)0x1);
	KUNIT_EXPECT_PTR_EQ(test, xa_mk_value(5), (void *)0xb);
	KUNIT_EXPECT_PTR_EQ(test, xa_mk_value(LONG_MAX), (void *)ULONG_MAX);
	KUNIT_EXPECT_EQ(test, xa_to_value((void *)0xb), 5);
	KUNIT_EXPECT_EQ(test, xa_to_value((void *)ULONG_MAX), LONG_MAX);
	KUNIT_EXPECT_TRUE(test, xa_is_value((void *)0x1));
	KUNIT_EXPECT_FALSE(test, xa_is_value((void *)0x2));
	KUNIT_EXPECT_FALSE(test, xa_is_value((void *)0x1000));
}

static void xa_internal_and_reserved_entries_use_kernel_encoding(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, xa_mk_internal(1), (void *)0x6);
	KUNIT_EXPECT_EQ(test, xa_to_internal((void *)0x6), 1);
	KUNIT_EXPECT_PTR_EQ(test, XA_RETRY_ENTRY, (void *)0x402);
	KUNIT_EXPECT_PTR_EQ(test, XA_ZERO_ENTRY, (void *)0x406);
	KUNIT_EXPECT_TRUE(test, xa_is_internal((void *)0x406));
	KUNIT_EXPECT_FALSE(test, xa_is_internal((void *)0x404));
	KUNIT_EXPECT_FALSE(test, xa_is_internal((void *)0x407));
	KUNIT_EXPECT_TRUE(test, xa_is_zero((void *)0x406));
	KUNIT_EXPECT_FALSE(test, xa_is_zero(NULL));
	KUNIT_EXPECT_TRUE(test, xa_is_advanced((void *)0x2));
	KUNIT_EXPECT_TRUE(test, xa_is_advanced((void *)0x402));
	KUNIT_EXPECT_FALSE(test, xa_is_advanced((void *)0x406));
	KUNIT_EXPECT_FALSE(test, xa_is_advanced((void *)0x3));
}

static void xa_err_entries_use_kernel_encoding(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, xa_mk_internal(-ENOMEM),
			    (void *)0xffffffffffffffd2UL);
	KUNIT_EXPECT_PTR_EQ(test, xa_mk_internal(-MAX_ERRNO),
			    (void *)0xffffffffffffc006UL);
	KUNIT_EXPECT_TRUE(test, xa_is_err((void *)0xffffffffffffffd2UL));
	KUNIT_EXPECT_EQ(test, xa_err((void *)0xffffffffffffffd2UL), -ENOMEM);
	KUNIT_EXPECT_TRUE(test, xa_is_err((void *)0xffffffffffffc006UL));
	KUNIT_EXPECT_EQ(test, xa_err((void *)0xffffffffffffc006UL), -4095);
	/* One below -MAX_ERRNO is an ordinary internal entry. */
	KUNIT_EXPECT_FALSE(test, xa_is_err((void *)0xffffffffffffc002UL));
	KUNIT_EXPECT_EQ(test, xa_err((void *)0xffffffffffffc002UL), 0);
	KUNIT_EXPECT_EQ(test, xa_err(NULL), 0);
	KUNIT_EXPECT_EQ(test, xa_err(XA_ZERO_ENTRY), 0);
	KUNIT_EXPECT_EQ(test, xa_err(xa_mk_value(3)), 0);
}

static void err_ptr_round_trips(struct kunit *test)
{
	int x;
	void *p = ERR_PTR(-ENOMEM);

	KUNIT_EXPECT_PTR_EQ(test, p, (void *)-12L);
	KUNIT_EXPECT_TRUE(test, IS_ERR(p));
	KUNIT_EXPECT_EQ(test, PTR_ERR(p), -ENOMEM);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(p), -ENOMEM);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ERR_PTR(-MAX_ERRNO)));
	KUNIT_EXPECT_FALSE(test, IS_ERR((void *)(-MAX_ERRNO - 1L)));
	KUNIT_EXPECT_FALSE(test, IS_ERR(NULL));
	KUNIT_EXPECT_TRUE(test, IS_ERR_OR_NULL(NULL));
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(&x));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(&x), 0);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, &x);
}

static void errno_values_are_the_kernels(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ENOENT, 2);
	KUNIT_EXPECT_EQ(test, ENOMEM, 12);
	KUNIT_EXPECT_EQ(test, EBUSY, 16);
	KUNIT_EXPECT_EQ(test, EEXIST, 17);
	KUNIT_EXPECT_EQ(test, EINVAL, 22);
	KUNIT_EXPECT_EQ(test, ENOTSUPP, 524);
	KUNIT_EXPECT_EQ(test, ERESTARTSYS, 512);
	KUNIT_EXPECT_EQ(test, MAX_ERRNO, 4095);
}

static struct kunit_case shim_encoding_cases[] = {
	KUNIT_CASE(xa_value_entries_use_kernel_encoding),
	KUNIT_CASE(xa_internal_and_reserved_entries_use_kernel_encoding),
	KUNIT_CASE(xa_err_entries_use_kernel_encoding),
	KUNIT_CASE(err_ptr_round_trips),
	KUNIT_CASE(errno_values_are_the_kernels),
	{}
};

static struct kunit_suite shim_encoding_suite = {
	.name = "shim_encoding",
	.test_cases = shim_encoding_cases,
};

/* ---- shim_kernel ---- */

struct outer {
	int a;
	long member;
};

static void kernel_h_helpers_compute_kernel_values(struct kunit *test)
{
	int arr[7];
	struct outer o;
	unsigned long big = ULONG_MAX;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(arr), 7);
	KUNIT_EXPECT_EQ(test, BITS_PER_LONG, 8 * sizeof(long));
	KUNIT_EXPECT_EQ(test, big, ~0UL);
	KUNIT_EXPECT_EQ(test, U64_MAX, ~0ULL);
	KUNIT_EXPECT_EQ(test, U32_MAX, 0xffffffffU);
	KUNIT_EXPECT_EQ(test, min(3, 5), 3);
	KUNIT_EXPECT_EQ(test, max(3UL, 5UL), 5);
	KUNIT_EXPECT_EQ(test, min_t(long, -1, 2UL), -1);
	KUNIT_EXPECT_EQ(test, max_t(unsigned int, 7, 3), 7);
	KUNIT_EXPECT_EQ(test, clamp(15, 0, 10), 10);
	KUNIT_EXPECT_EQ(test, clamp(-5, 0, 10), 0);
	KUNIT_EXPECT_EQ(test, DIV_ROUND_UP(7, 2), 4);
	KUNIT_EXPECT_EQ(test, DIV_ROUND_UP(8, 2), 4);
	KUNIT_EXPECT_EQ(test, round_up(13, 8), 16);
	KUNIT_EXPECT_EQ(test, round_down(13, 8), 8);
	KUNIT_EXPECT_EQ(test, ALIGN(4097UL, 4096), 8192);
	KUNIT_EXPECT_EQ(test, upper_32_bits(0x123456789abcdef0ULL), 0x12345678);
	KUNIT_EXPECT_EQ(test, lower_32_bits(0x123456789abcdef0ULL), 0x9abcdef0);
	KUNIT_EXPECT_PTR_EQ(test, container_of(&o.member, struct outer, member),
			    &o);
}

static void bit_helpers_find_the_right_bits(struct kunit *test)
{
	unsigned long map[2] = { 0, 0 };

	KUNIT_EXPECT_EQ(test, BIT(3), 8);
	KUNIT_EXPECT_EQ(test, GENMASK(7, 4), 0xf0);
	KUNIT_EXPECT_EQ(test, GENMASK(BITS_PER_LONG - 1, 0), ULONG_MAX);
	KUNIT_EXPECT_EQ(test, __ffs(0x10UL), 4);
	KUNIT_EXPECT_EQ(test, __fls(0x10UL), 4);
	KUNIT_EXPECT_EQ(test, __fls(ULONG_MAX), BITS_PER_LONG - 1);
	KUNIT_EXPECT_EQ(test, ffz(0x7UL), 3);
	KUNIT_EXPECT_EQ(test, fls(0), 0);
	KUNIT_EXPECT_EQ(test, fls(1), 1);
	KUNIT_EXPECT_EQ(test, fls(0x80000000U), 32);
	KUNIT_EXPECT_EQ(test, fls64(1ULL << 40), 41);
	KUNIT_EXPECT_EQ(test, ilog2(4096), 12);
	KUNIT_EXPECT_EQ(test, roundup_pow_of_two(5), 8);
	KUNIT_EXPECT_EQ(test, rounddown_pow_of_two(5), 4);
	KUNIT_EXPECT_TRUE(test, is_power_of_2(64));
	KUNIT_EXPECT_FALSE(test, is_power_of_2(0));
	KUNIT_EXPECT_EQ(test, hweight_long(0xf0f0UL), 8);
	/* A bit of the second word, on 32-bit and 64-bit builds alike. */
	set_bit(BITS_PER_LONG + 6, map);
	KUNIT_EXPECT_TRUE(test, test_bit(BITS_PER_LONG + 6, map));
	KUNIT_EXPECT_EQ(test, map[1], 1UL << 6);
	KUNIT_EXPECT_TRUE(test, test_and_clear_bit(BITS_PER_LONG + 6, map));
	KUNIT_EXPECT_EQ(test, map[1], 0);
}

static void atomics_return_new_values(struct kunit *test)
{
	atomic_t a = ATOMIC_INIT(5);
	atomic_long_t l = ATOMIC_LONG_INIT(-1);

	atomic_inc(&a);
	KUNIT_EXPECT_EQ(test, atomic_read(&a), 6);
	KUNIT_EXPECT_EQ(test, atomic_inc_return(&a), 7);
	KUNIT_EXPECT_EQ(test, atomic_add_return(3, &a), 10);
	KUNIT_EXPECT_TRUE(test, atomic_sub_and_test(10, &a));
	KUNIT_EXPECT_EQ(test, atomic_cmpxchg(&a, 0, 4), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a), 4);
	KUNIT_EXPECT_EQ(test, atomic_long_inc_return(&l), 0);
	KUNIT_EXPECT_TRUE(test, atomic_long_dec_and_test(&(atomic_long_t){1}));
}

static void printk_strips_levels_and_prefixes_lines(struct kunit *test)
{
	struct capture cap;
	char out[512];
	int x = 0;
	char expect[128];

	capture_start(&cap);
	printk_set_prefix("P: ");
	pr_info("one %d\n", 1);
	printk(KERN_ERR "two\nthree\n");
	pr_warn("four");
	pr_cont(" and more\n");
	pr_debug("never printed\n");
	printk("%px\n", &x);
	printk_set_prefix("    # ");
	capture_end(&cap, out, sizeof(out));
	snprintf(expect, sizeof(expect),
		 "P: one 1\nP: two\nP: three\nP: four and more\nP: %p\n",
		 (void *)&x);
	KUNIT_EXPECT_STREQ(test, out, expect);
}

static int shim_module_ran;

static int shim_module_init(void)
{
	shim_module_ran++;
	return 42;
}
module_init(shim_module_init);

static void shim_module_exit(void)
{
	shim_module_ran += 100;
}
module_exit(shim_module_exit);

static void module_init_functions_are_callable_by_name(struct kunit *test)
{
	shim_module_ran = 0;
	KUNIT_EXPECT_EQ(test, module_call_init("shim_module_init"), 42);
	KUNIT_EXPECT_EQ(test, module_call_init("shim_test"), 42);
	KUNIT_EXPECT_EQ(test, shim_module_ran, 2);
	KUNIT_EXPECT_EQ(test, module_call_exit("shim_module_exit"), 0);
	KUNIT_EXPECT_EQ(test, shim_module_ran, 102);
	KUNIT_EXPECT_EQ(test, module_call_init("no_such_module"), -ENOENT);
	KUNIT_EXPECT_EQ(test, module_call_exit("shim_module_init"), -ENOENT);
}

static void random_numbers_repeat_for_a_seed(struct kunit *test)
{
	u32 first[8];
	unsigned int i;

	random_set_seed(1234);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		first[i] = get_random_u32();
	random_set_seed(1234);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		KUNIT_EXPECT_EQ(test, get_random_u32(), first[i]);
	KUNIT_EXPECT_NE(test, first[0], first[1]);
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_LT(test, get_random_u32_below(10), 10);
}

static void ktest_seed_is_stable_within_a_case(struct kunit *test)
{
	unsigned long seed = ktest_seed();
	u32 a, b;

	KUNIT_EXPECT_EQ(test, ktest_seed(), seed);
	a = get_random_u32();
	random_set_seed(seed);
	b = get_random_u32();
	KUNIT_EXPECT_EQ(test, a, b);
}

/* A table-driven case: each row is reported as a subtest. */
struct fls_row {
	unsigned int in;
	int want;
	const char *name;
};

static const struct fls_row fls_rows[] = {
	{ 0, 0, "zero" },
	{ 1, 1, "one" },
	{ 0x30, 6, "0x30" },
	{ 0xffffffff, 32, "all-ones" },
};

KUNIT_ARRAY_PARAM_DESC(fls_rows, fls_rows, name);

static void fls_matches_table(struct kunit *test)
{
	const struct fls_row *row = test->param_value;

	KUNIT_EXPECT_EQ(test, fls(row->in), row->want);
}

static struct kunit_case shim_kernel_cases[] = {
	KUNIT_CASE(kernel_h_helpers_compute_kernel_values),
	KUNIT_CASE(bit_helpers_find_the_right_bits),
	KUNIT_CASE(atomics_return_new_values),
	KUNIT_CASE(printk_strips_levels_and_prefixes_lines),
	KUNIT_CASE(module_init_functions_are_callable_by_name),
	KUNIT_CASE(random_numbers_repeat_for_a_seed),
	KUNIT_CASE(ktest_seed_is_stable_within_a_case),
	KUNIT_CASE_PARAM(fls_matches_table, fls_rows_gen_params),
	{}
};

static struct kunit_suite shim_kernel_suite = {
	.name = "shim_kernel",
	.test_cases = shim_kernel_cases,
};

/* ---- shim_runner ---- */

/*
 * Run runner-selftest (built next to this binary) with @extra_env added to
 * a cleaned environment; return its wait status, and its stdout in @out.
 */
static int run_selftest(struct kunit *test, const char *extra_env[],
			char *out, size_t size)
{
	extern char **environ;
	char self[PATH_MAX], bin[PATH_MAX + 32];
	char *argv[] = { bin, NULL };
	char *envp[256];
	posix_spawn_file_actions_t fa;
	size_t n = 0, e = 0;
	ssize_t len, got;
	int fds[2], status;
	pid_t pid;
	char **v;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	KUNIT_ASSERT_GT(test, len, 0);
	self[len] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(bin, sizeof(bin), "%s/runner-selftest", self);
	KUNIT_ASSERT_EQ_MSG(test, access(bin, X_OK), 0,
			    "%s is missing: build it with make", bin);

	/* The outer run's knobs must not leak into the inner one. */
	for (v = environ; *v && e < ARRAY_SIZE(envp) - 8; v++)
		if (strncmp(*v, "KTEST_", 6) && strncmp(*v, "SEED=", 5) &&
		    !strstr(*v, "SAN_OPTIONS="))
			envp[e++] = *v;
	/* A sanitizer must let the crash case die of its signal. */
	envp[e++] = "ASAN_OPTIONS=handle_segv=0:detect_leaks=0";
	envp[e++] = "TSAN_OPTIONS=handle_segv=0";
	envp[e++] = "UBSAN_OPTIONS=handle_segv=0";
	for (; *extra_env; extra_env++)
		envp[e++] = (char *)*extra_env;
	envp[e] = NULL;

	KUNIT_ASSERT_EQ(test, pipe(fds), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	KUNIT_ASSERT_EQ(test, posix_spawn(&pid, bin, &fa, NULL, argv, envp), 0);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while (n < size - 1 && (got = read(fds[0], out + n, size - 1 - n)) > 0)
		n += got;
	out[n] = '\0';
	close(fds[0]);
	KUNIT_ASSERT_EQ(test, waitpid(pid, &status, 0), pid);
	return status;
}

static const char *last_line(char *out)
{
	size_t n = strlen(out);
	char *nl;

	while (n && out[n - 1] == '\n')
		out[--n] = '\0';
	nl = strrchr(out, '\n');
	return nl ? nl + 1 : out;
}

static void runner_reports_pass_fail_crash_and_skip(struct kunit *test)
{
	static const char *no_env[] = { NULL };
	char out[16384];
	int status;

	status = run_selftest(test, no_env, out, sizeof(out));
	KUNIT_EXPECT_TRUE(test, WIFEXITED(status));
	KUNIT_EXPECT_NE(test, WEXITSTATUS(status), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "KTAP version 1\n1..1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "    ok 1 selftest_passes\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "not ok"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"    not ok 2 selftest_fails # expectation failed at"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "# Expected 1 + 1 == three, but"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "#     1 + 1 == 2 (0x2)"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "#     three == 3 (0x3)"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "signal 11"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"    not ok 3 selftest_crashes # crashed: signal 11 (Segmentation fault)\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "# SKIP"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"    ok 4 selftest_skips # SKIP skipped on purpose\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "not ok 1 runner_selftest\n"));
	KUNIT_EXPECT_STREQ(test, last_line(out), "1 passed, 2 failed, 1 skipped");
}

static void runner_kills_a_case_that_times_out(struct kunit *test)
{
	static const char *env[] = {
		"RUNNER_SELFTEST_HANG=1",
		"KTEST_FILTER=runner_selftest_hang",
		"KTEST_TIMEOUT=1",
		NULL
	};
	char out[8192];
	int status;

	status = run_selftest(test, env, out, sizeof(out));
	KUNIT_EXPECT_TRUE(test, WIFEXITED(status));
	KUNIT_EXPECT_NE(test, WEXITSTATUS(status), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "KTAP version 1\n1..1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"    not ok 1 selftest_hangs # timeout"));
	KUNIT_EXPECT_STREQ(test, last_line(out), "0 passed, 1 failed");
}

static void set_flag_action(void *flag)
{
	set_flag(flag);
}

static void kunit_actions_run_when_released(struct kunit *test)
{
	int ran = 0;

	KUNIT_ASSERT_EQ(test, kunit_add_action(test, set_flag_action, &ran), 0);
	KUNIT_EXPECT_EQ(test, ran, 0);
	kunit_release_action(test, set_flag_action, &ran);
	KUNIT_EXPECT_EQ(test, ran, 1);
	KUNIT_EXPECT_PTR_EQ(test, kunit_get_current_test(), test);
}

static struct kunit_case shim_runner_cases[] = {
	KUNIT_CASE(runner_reports_pass_fail_crash_and_skip),
	KUNIT_CASE(runner_kills_a_case_that_times_out),
	KUNIT_CASE(kunit_actions_run_when_released),
	{}
};

static struct kunit_suite shim_runner_suite = {
	.name = "shim_runner",
	.test_cases = shim_runner_cases,
};

kunit_test_suites(&shim_rcu_suite, &shim_slab_suite, &shim_locks_suite,
		  &shim_encoding_suite, &shim_kernel_suite, &shim_runner_suite);
