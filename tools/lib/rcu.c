// SPDX-License-Identifier: GPL-2.0
/*
 * Glue between the kernel RCU API and liburcu's memb flavour.
 *
 * All grace-period machinery is liburcu's.  This file registers threads on
 * demand (and unregisters them at thread exit), refuses the calls that
 * would deadlock, queues call_rcu() callbacks the way a kernel does (below),
 * implements kfree_rcu() on call_rcu(), in ThreadSanitizer builds tells
 * TSan about the ordering a grace period provides (liburcu is not
 * instrumented, so TSan cannot see it), and in builds with
 * TOOLS_RCU_PENDING (the fuzzer) counts the callbacks still waiting.
 *
 * Why call_rcu() does not simply call liburcu's: the cost would not be a
 * kernel's.  In a kernel, call_rcu() links the callback onto its CPU's list
 * (no allocation, no wake-up), and the callbacks run in batches after the
 * grace period, in softirq on that same CPU, so the objects they free go
 * back to that CPU's hot slab cache.  liburcu's call_rcu() wakes its worker
 * thread (a futex), the worker sleeps 10 ms between two passes, and the
 * callbacks run there: every object the tree or mm/ frees lands, cold, in
 * the worker's slab cache, and the writer allocates from the depot or
 * malloc().  The stand-in, not the tree, took a third of a writer's time.
 * So, per thread (the stand-in for a CPU), in a struct rcu_cbq:
 *
 *  - call_rcu() pushes the callback onto the thread's pending list: one
 *    compare-and-swap on a line only this thread writes, no syscall;
 *  - every RCU_BATCH callbacks (and at synchronize_rcu(), rcu_barrier() and
 *    thread exit) the pending list becomes one struct rcu_batch, queued
 *    for the grace-period thread, which is woken only if it sleeps;
 *  - the grace-period thread (the stand-in for the kernel's RCU kthread)
 *    takes every queued batch, waits for ONE grace period with liburcu's
 *    urcu_memb_synchronize_rcu(), and pushes each batch onto its owner's
 *    done list; the owner runs it at its next call_rcu() or
 *    synchronize_rcu(), so the frees land in the owner's slab cache, as
 *    they would on the owner's CPU;
 *  - someone else runs them when the owner cannot: the grace-period thread
 *    itself once the owner has exited (thread exit closes the done list);
 *    rcu_barrier(), which queues every thread's pending list, waits for a
 *    pass of the grace-period thread that began after that, then runs
 *    every thread's done list; and the tick, the stand-in for the
 *    scheduler tick that drives a kernel's RCU: every RCU_TICK_MS while
 *    some list is non-empty the grace-period thread queues a pending list
 *    and runs a done list that saw no activity of their owner for a whole
 *    tick, so no callback waits for its thread's next call_rcu() longer
 *    than about two ticks each side of its grace period.  With nothing
 *    queued anywhere the thread sleeps until woken.
 *
 * Who runs a thread's lists: the owner without a lock (a "busy" count
 * tells rcu_barrier() to wait for it), everyone else with rcu_cbq_lock
 * held.  A struct rcu_cbq lives until its thread has exited and no batch
 * of it is in flight (a reference count).  Grace periods are liburcu's
 * alone; liburcu's own call_rcu() and rcu_barrier() are not used.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include <linux/bug.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#ifdef __TOOLS_TSAN
/*
 * Every rcu_read_unlock() releases this object and every grace-period end
 * acquires it: "all readers that finished happen before what follows the
 * grace period".
 */
char __rcu_tsan_sync;
# define rcu_tsan_acquire()	__tsan_acquire(&__rcu_tsan_sync)

/*
 * liburcu is not instrumented, so TSan misreads two of its internals.  TSan
 * calls this hook at startup, in every binary that links this file:
 *
 *  - memory liburcu allocates in one thread and frees in its call_rcu
 *    worker (rcu_barrier()'s bookkeeping, for instance) looks racy: ignore
 *    the allocator calls made by liburcu itself (our callbacks' frees are
 *    still checked, and ordered by the annotations above);
 *  - the grace-period wake-up word, inlined into rcu_read_unlock() from
 *    <urcu/static/urcu-common.h>, is read and cleared with volatile (not
 *    __atomic) accesses by concurrent readers: liburcu's intended futex
 *    handshake, not a bug in the code under test.
 */
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void)
{
	return "called_from_lib:liburcu-memb.so\n"
	       "called_from_lib:liburcu-common.so\n"
	       "race:urcu_common_wake_up_gp\n";
}
#else
# define rcu_tsan_acquire()	do { } while (0)
#endif

#define RCU_BATCH	128	/* callbacks per batch */
#define RCU_SPARE	8	/* batch descriptors a thread keeps */
#define RCU_GP_GAP_US	1000	/* least time between grace periods... */
#define RCU_GP_BACKLOG	16	/* ...unless this many batches wait */
#define RCU_TICK_MS	10	/* the tick's period */

/* Callbacks that share a grace period. */
struct rcu_batch {
	struct rcu_head *cbs;		/* the callbacks, oldest first */
	struct rcu_cbq *owner;
	struct rcu_batch *next;		/* rcu_gp_queue, ->done or ->spare */
};

/* A thread's callbacks: the stand-in for a CPU's callback list. */
struct rcu_cbq {
	struct rcu_head *pending;	/* newest first; owner pushes */
	struct rcu_batch *done;		/* grace period over, not yet run */
	unsigned int nr_pending;	/* owner's pushes since its hand-off */
	int busy;			/* owner is handing off or running */
	bool running;			/* owner is running callbacks */
	long refs;			/* the thread's + batches in flight */
	unsigned long handoffs;		/* batches queued for a grace period */
	unsigned long runs;		/* done lists the owner ran */
	/* The tick's view at the last tick (under rcu_cbq_lock). */
	unsigned long tick_handoffs, tick_runs;
	bool tick_pending, tick_done;
	struct rcu_batch *spare;	/* owner's free descriptors */
	unsigned int nr_spare;
	struct rcu_cbq *next, **pprev;	/* on rcu_cbqs, under rcu_cbq_lock */
};

/* ->done of a thread that has exited: the grace-period thread runs them. */
#define RCU_DONE_CLOSED	((struct rcu_batch *)1)

static pthread_mutex_t rcu_cbq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcu_cbq *rcu_cbqs;
static __thread struct rcu_cbq *rcu_my_cbq;

/*
 * The grace-period thread.  rcu_gp_queue is a lock-free stack of batches;
 * the rest is under rcu_gp_lock.  A pass takes the whole queue, so every
 * batch queued before pass N started is delivered when pass N completes.
 */
static pthread_mutex_t rcu_gp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rcu_gp_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t rcu_gp_passed = PTHREAD_COND_INITIALIZER;
static struct rcu_batch *rcu_gp_queue;
static int rcu_gp_running;		/* the thread exists */
static int rcu_gp_idle;			/* it waits on rcu_gp_wake */
static int rcu_tick_armed;		/* some list may be non-empty */
static unsigned int rcu_gp_nr_queued;	/* batches queued (about) */
static unsigned long rcu_gp_started, rcu_gp_completed, rcu_gp_wanted;

static pthread_key_t rcu_exit_key;
static pthread_once_t rcu_key_once = PTHREAD_ONCE_INIT;

static void rcu_cbq_exit(struct rcu_cbq *q);

static void rcu_thread_exit(void *unused)
{
	(void)unused;
	if (rcu_my_cbq)
		rcu_cbq_exit(rcu_my_cbq);
	if (!URCU_TLS(urcu_memb_reader).registered)
		return;
	WARN(_urcu_memb_read_ongoing(),
	     "thread exiting inside an RCU read-side critical section");
	urcu_memb_unregister_thread();
}

/*
 * A forked child has one thread: no grace-period thread, no one in the
 * locks, no other owner busy with its lists.  Batches queued in the parent
 * are delivered by the child's own grace-period thread, started on demand.
 */
static void rcu_after_fork_child(void)
{
	struct rcu_cbq *q;

	for (q = rcu_cbqs; q; q = q->next)
		if (q != rcu_my_cbq)
			q->busy = 0;
	pthread_mutex_init(&rcu_cbq_lock, NULL);
	pthread_mutex_init(&rcu_gp_lock, NULL);
	pthread_cond_init(&rcu_gp_wake, NULL);
	pthread_cond_init(&rcu_gp_passed, NULL);
	rcu_gp_running = 0;
	rcu_gp_idle = 0;
	rcu_gp_completed = rcu_gp_started;
	rcu_gp_wanted = rcu_gp_started;
}

static void rcu_make_key(void)
{
	if (pthread_key_create(&rcu_exit_key, rcu_thread_exit))
		BUG();
	pthread_atfork(NULL, NULL, rcu_after_fork_child);
}

void __rcu_register_thread(void)
{
	pthread_once(&rcu_key_once, rcu_make_key);
	urcu_memb_register_thread();
	pthread_setspecific(rcu_exit_key, (void *)1);
}

/* ---- running callbacks ---- */

/*
 * The rcu_head is the first words of the object, and until the grace
 * period ends lock-free readers may still read them (the tree's readers
 * read a retired node's first pivots, then see it is dead): write them,
 * and read them back, with relaxed atomics, plain moves that TSan knows.
 */
static inline struct rcu_head *rcu_next(struct rcu_head *head)
{
	return (struct rcu_head *)__atomic_load_n(&head->next.next,
						  __ATOMIC_RELAXED);
}

static inline void rcu_set_next(struct rcu_head *head, struct rcu_head *next)
{
	__atomic_store_n(&head->next.next, (struct cds_wfcq_node *)next,
			 __ATOMIC_RELAXED);
}

static inline rcu_callback_t rcu_func(struct rcu_head *head)
{
	return __atomic_load_n(&head->func, __ATOMIC_RELAXED);
}

#ifdef TOOLS_RCU_PENDING
/*
 * Callbacks queued and not yet run, and a sequence count that is odd while
 * one runs (it frees an object, then leaves the queue): a reader that saw
 * the count even and unchanged around its reads saw both at rest.
 */
static long rcu_pending_nr;
static unsigned long rcu_pending_seq;

static inline void rcu_pending_add(void)
{
	__atomic_add_fetch(&rcu_pending_nr, 1, __ATOMIC_SEQ_CST);
}

static void rcu_invoke(struct rcu_head *head)
{
	rcu_callback_t func = rcu_func(head);

	__atomic_add_fetch(&rcu_pending_seq, 1, __ATOMIC_SEQ_CST);
	func(head);
	__atomic_sub_fetch(&rcu_pending_nr, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&rcu_pending_seq, 1, __ATOMIC_SEQ_CST);
}

long kmem_nr_live_settled(void)
{
	unsigned long seq;
	long live;

	for (;;) {
		seq = __atomic_load_n(&rcu_pending_seq, __ATOMIC_SEQ_CST);
		if (seq & 1)
			continue;
		live = kmem_nr_live() -
		       __atomic_load_n(&rcu_pending_nr, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&rcu_pending_seq, __ATOMIC_SEQ_CST) == seq)
			return live;
	}
}
#else
static inline void rcu_pending_add(void)
{
}

static inline void rcu_invoke(struct rcu_head *head)
{
	rcu_callback_t func = rcu_func(head);

	func(head);
}
#endif

/* Run a list of callbacks whose grace period has ended, oldest first. */
static void rcu_run_list(struct rcu_head *head)
{
	struct rcu_head *next;

	rcu_tsan_acquire();
	for (; head; head = next) {
		next = rcu_next(head);
		rcu_invoke(head);
	}
}

static struct rcu_batch *rcu_batch_reverse(struct rcu_batch *b)
{
	struct rcu_batch *prev = NULL, *next;

	for (; b; b = next) {
		next = b->next;
		b->next = prev;
		prev = b;
	}
	return prev;
}

/*
 * Run a done list (pushed newest first).  Descriptors go to @me's spares
 * if @mine (the caller owns the list), else back to the C library.
 */
static void rcu_run_batches(struct rcu_cbq *me, struct rcu_batch *b,
			    bool mine)
{
	struct rcu_batch *next;

	for (b = rcu_batch_reverse(b); b; b = next) {
		next = b->next;
		rcu_run_list(b->cbs);
		if (mine && me->nr_spare < RCU_SPARE) {
			b->next = me->spare;
			me->spare = b;
			me->nr_spare++;
		} else {
			free(b);
		}
	}
}

/* ---- a thread's lists ---- */

static inline void rcu_busy_enter(struct rcu_cbq *q)
{
	__atomic_store_n(&q->busy, q->busy + 1, __ATOMIC_SEQ_CST);
}

static inline void rcu_busy_exit(struct rcu_cbq *q)
{
	__atomic_store_n(&q->busy, q->busy - 1, __ATOMIC_RELEASE);
}

static void rcu_cbq_wait_idle(struct rcu_cbq *q)
{
	while (__atomic_load_n(&q->busy, __ATOMIC_SEQ_CST))
		sched_yield();
}

static void rcu_cbq_free(struct rcu_cbq *q)
{
	struct rcu_batch *b, *next;

	for (b = q->spare; b; b = next) {
		next = b->next;
		free(b);
	}
	free(q);
}

static void rcu_cbq_put(struct rcu_cbq *q)
{
	if (!__atomic_sub_fetch(&q->refs, 1, __ATOMIC_ACQ_REL))
		rcu_cbq_free(q);
}

static void rcu_gp_kick(bool arm, bool force);

/* A list went from empty to non-empty: make sure the tick watches it. */
static inline void rcu_tick_need(void)
{
	if (!__atomic_load_n(&rcu_tick_armed, __ATOMIC_SEQ_CST))
		rcu_gp_kick(true, false);
}

/* Push a chain (@first..@last, newest first) back onto @q's pending. */
static void rcu_cbq_push(struct rcu_cbq *q, struct rcu_head *first,
			 struct rcu_head *last)
{
	struct rcu_head *old = __atomic_load_n(&q->pending, __ATOMIC_RELAXED);

	do {
		rcu_set_next(last, old);
	} while (!__atomic_compare_exchange_n(&q->pending, &old, first, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (!old)
		rcu_tick_need();
}

/*
 * Queue @q's pending callbacks, as one batch, for the grace-period thread.
 * Called by the owner (@mine: it may use its spare descriptors) or under
 * rcu_cbq_lock.
 */
static void rcu_cbq_handoff(struct rcu_cbq *q, bool mine)
{
	struct rcu_head *head, *prev = NULL, *next, *last;
	struct rcu_batch *b, *old;

	head = __atomic_exchange_n(&q->pending, NULL, __ATOMIC_ACQ_REL);
	if (!head)
		return;
	last = head;
	for (; head; head = next) {
		next = rcu_next(head);
		rcu_set_next(head, prev);
		prev = head;
	}
	if (mine && q->spare) {
		b = q->spare;
		q->spare = b->next;
		q->nr_spare--;
	} else {
		b = malloc(sizeof(*b));
	}
	if (unlikely(!b)) {
		/* No memory for the descriptor: wait here, if we may. */
		if (!rcu_read_lock_held()) {
			urcu_memb_synchronize_rcu();
			rcu_run_list(prev);
			return;
		}
		/* Back onto the list, newest first again, for a later try. */
		for (head = prev, prev = NULL; head; head = next) {
			next = rcu_next(head);
			rcu_set_next(head, prev);
			prev = head;
		}
		rcu_cbq_push(q, prev, last);
		return;
	}
	b->cbs = prev;
	b->owner = q;
	__atomic_add_fetch(&q->refs, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&q->handoffs, 1, __ATOMIC_RELAXED);
	old = __atomic_load_n(&rcu_gp_queue, __ATOMIC_RELAXED);
	do {
		b->next = old;
	} while (!__atomic_compare_exchange_n(&rcu_gp_queue, &old, b, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	/* Pairs with the grace-period thread's look at the queue when idle. */
	if (__atomic_add_fetch(&rcu_gp_nr_queued, 1, __ATOMIC_SEQ_CST) ==
	    RCU_GP_BACKLOG)
		rcu_gp_kick(false, true);
	else if (!__atomic_load_n(&rcu_gp_running, __ATOMIC_SEQ_CST) ||
		 __atomic_load_n(&rcu_gp_idle, __ATOMIC_SEQ_CST))
		rcu_gp_kick(false, false);
}

/* The owner queues its pending list (batch full, or a sync point). */
static noinline void rcu_cbq_flush(struct rcu_cbq *q)
{
	rcu_busy_enter(q);
	q->nr_pending = 0;
	rcu_cbq_handoff(q, true);
	rcu_busy_exit(q);
}

/* The owner runs the batches whose grace period has ended. */
static noinline void rcu_cbq_run_done(struct rcu_cbq *q)
{
	struct rcu_batch *b;

	if (q->running)
		return;
	rcu_busy_enter(q);
	q->running = true;
	b = __atomic_exchange_n(&q->done, NULL, __ATOMIC_ACQ_REL);
	rcu_run_batches(q, b, true);
	__atomic_store_n(&q->runs, q->runs + 1, __ATOMIC_RELAXED);
	q->running = false;
	rcu_busy_exit(q);
}

/* Run @q's done list on its owner's behalf (under rcu_cbq_lock). */
static void rcu_cbq_steal_done(struct rcu_cbq *q, struct rcu_cbq *me)
{
	struct rcu_batch *b = __atomic_load_n(&q->done, __ATOMIC_RELAXED);

	do {
		if (!b || b == RCU_DONE_CLOSED)
			return;
	} while (!__atomic_compare_exchange_n(&q->done, &b, NULL, true,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	rcu_run_batches(me, b, q == me);
}

static noinline struct rcu_cbq *rcu_cbq_create(void)
{
	struct rcu_cbq *q;

	__rcu_ensure_registered();
	q = calloc(1, sizeof(*q));
	if (!q)
		__kernel_bug(__FILE__, __LINE__, __func__,
			     "no memory for a thread's RCU callback list");
	q->refs = 1;
	/* Threads liburcu registered itself reach rcu_thread_exit() too. */
	pthread_once(&rcu_key_once, rcu_make_key);
	pthread_setspecific(rcu_exit_key, (void *)1);
	pthread_mutex_lock(&rcu_cbq_lock);
	q->next = rcu_cbqs;
	if (q->next)
		q->next->pprev = &q->next;
	q->pprev = &rcu_cbqs;
	rcu_cbqs = q;
	pthread_mutex_unlock(&rcu_cbq_lock);
	rcu_my_cbq = q;
	return q;
}

static inline struct rcu_cbq *rcu_cbq_mine(void)
{
	struct rcu_cbq *q = rcu_my_cbq;

	return likely(q) ? q : rcu_cbq_create();
}

/*
 * Thread exit: run what is done, close the done list (the grace-period
 * thread runs batches that arrive later), queue what is pending, leave.
 */
static void rcu_cbq_exit(struct rcu_cbq *q)
{
	struct rcu_batch *b;

	rcu_busy_enter(q);
	q->running = true;
	b = __atomic_exchange_n(&q->done, RCU_DONE_CLOSED, __ATOMIC_ACQ_REL);
	rcu_run_batches(q, b, true);
	while (__atomic_load_n(&q->pending, __ATOMIC_RELAXED))
		rcu_cbq_handoff(q, true);
	rcu_busy_exit(q);

	pthread_mutex_lock(&rcu_cbq_lock);
	*q->pprev = q->next;
	if (q->next)
		q->next->pprev = q->pprev;
	pthread_mutex_unlock(&rcu_cbq_lock);
	rcu_my_cbq = NULL;
	rcu_cbq_put(q);
}

/* ---- the grace-period thread ---- */

/* After the grace period: give a batch back to the thread that queued it. */
static void rcu_batch_deliver(struct rcu_batch *b)
{
	struct rcu_cbq *q = b->owner;
	struct rcu_batch *first = __atomic_load_n(&q->done, __ATOMIC_RELAXED);

	do {
		if (first == RCU_DONE_CLOSED) {
			rcu_run_list(b->cbs);
			free(b);
			rcu_cbq_put(q);
			return;
		}
		b->next = first;
	} while (!__atomic_compare_exchange_n(&q->done, &first, b, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (!first)
		__atomic_store_n(&rcu_tick_armed, 1, __ATOMIC_SEQ_CST);
	rcu_cbq_put(q);
}

/*
 * One tick, under rcu_cbq_lock: queue and run, on the owner's behalf, the
 * lists that were non-empty a tick ago and saw no owner activity since.
 * Return: true if some list is still non-empty.
 */
static bool rcu_tick(struct rcu_cbq *me)
{
	struct rcu_cbq *q;
	bool active = false;

	pthread_mutex_lock(&rcu_cbq_lock);
	for (q = rcu_cbqs; q; q = q->next) {
		unsigned long handoffs, runs;
		struct rcu_batch *done;
		bool pending;

		pending = __atomic_load_n(&q->pending, __ATOMIC_SEQ_CST);
		handoffs = __atomic_load_n(&q->handoffs, __ATOMIC_RELAXED);
		if (pending && q->tick_pending &&
		    handoffs == q->tick_handoffs) {
			rcu_cbq_handoff(q, q == me);
			pending = false;
			handoffs = __atomic_load_n(&q->handoffs,
						   __ATOMIC_RELAXED);
		}
		q->tick_pending = pending;
		q->tick_handoffs = handoffs;

		done = __atomic_load_n(&q->done, __ATOMIC_SEQ_CST);
		runs = __atomic_load_n(&q->runs, __ATOMIC_RELAXED);
		if (done == RCU_DONE_CLOSED)
			done = NULL;
		if (done && q->tick_done && runs == q->tick_runs) {
			rcu_cbq_steal_done(q, me);
			done = NULL;
		}
		q->tick_done = done;
		q->tick_runs = runs;
		active |= q->tick_pending || q->tick_done;
	}
	pthread_mutex_unlock(&rcu_cbq_lock);
	return active;
}

/* CLOCK_REALTIME, the clock of rcu_gp_wake's timed waits, in ns. */
static unsigned long long rcu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline bool rcu_gp_backlogged(void)
{
	return __atomic_load_n(&rcu_gp_nr_queued, __ATOMIC_RELAXED) >=
	       RCU_GP_BACKLOG;
}

/*
 * Wait for work (under rcu_gp_lock): a barrier, batches to wait for and
 * RCU_GP_GAP_US since the last grace period, or the tick at @tick.  Idle
 * (woken by the next hand-off) only once that gap is over with nothing
 * queued.
 * Return: the time.
 */
static unsigned long long rcu_gp_wait(unsigned long long last,
				      unsigned long long tick)
{
	unsigned long long now, until;
	struct timespec ts;
	bool work;

	for (;;) {
		now = rcu_now();
		work = __atomic_load_n(&rcu_gp_queue, __ATOMIC_SEQ_CST);
		if (rcu_gp_wanted > rcu_gp_completed)
			return now;
		if (work && (now >= last + RCU_GP_GAP_US * 1000ULL ||
			     rcu_gp_backlogged()))
			return now;
		if (__atomic_load_n(&rcu_tick_armed, __ATOMIC_RELAXED) &&
		    now >= tick)
			return now;
		/*
		 * Until the gap after the last grace period is over, stay
		 * awake (a timed wait, not idle) even with nothing queued:
		 * a batch queued meanwhile is taken when the gap ends, as
		 * it would be anyway, without its thread waking us first.
		 */
		until = ~0ULL;
		if (work || now < last + RCU_GP_GAP_US * 1000ULL)
			until = last + RCU_GP_GAP_US * 1000ULL;
		if (__atomic_load_n(&rcu_tick_armed, __ATOMIC_RELAXED) &&
		    tick < until)
			until = tick;
		if (!work && now >= last + RCU_GP_GAP_US * 1000ULL) {
			/* Pairs with the look at rcu_gp_idle after a push. */
			__atomic_store_n(&rcu_gp_idle, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&rcu_gp_queue, __ATOMIC_SEQ_CST)) {
				__atomic_store_n(&rcu_gp_idle, 0,
						 __ATOMIC_RELAXED);
				continue;
			}
		}
		if (until == ~0ULL) {
			pthread_cond_wait(&rcu_gp_wake, &rcu_gp_lock);
		} else {
			ts.tv_sec = until / 1000000000ULL;
			ts.tv_nsec = until % 1000000000ULL;
			pthread_cond_timedwait(&rcu_gp_wake, &rcu_gp_lock, &ts);
		}
		__atomic_store_n(&rcu_gp_idle, 0, __ATOMIC_RELAXED);
	}
}

static void *rcu_gp_thread(void *unused)
{
	struct rcu_cbq *me = rcu_cbq_mine();
	unsigned long long now, last = 0, tick;
	struct rcu_batch *b, *next;
	unsigned long pass;

	(void)unused;
	tick = rcu_now() + RCU_TICK_MS * 1000000ULL;
	for (;;) {
		pthread_mutex_lock(&rcu_gp_lock);
		now = rcu_gp_wait(last, tick);
		pass = ++rcu_gp_started;
		pthread_mutex_unlock(&rcu_gp_lock);

		__atomic_store_n(&rcu_gp_nr_queued, 0, __ATOMIC_SEQ_CST);
		b = __atomic_exchange_n(&rcu_gp_queue, NULL, __ATOMIC_ACQ_REL);
		if (b) {
			last = now;
			urcu_memb_synchronize_rcu();
			for (b = rcu_batch_reverse(b); b; b = next) {
				next = b->next;
				rcu_batch_deliver(b);
			}
		}

		pthread_mutex_lock(&rcu_gp_lock);
		rcu_gp_completed = pass;
		pthread_cond_broadcast(&rcu_gp_passed);
		pthread_mutex_unlock(&rcu_gp_lock);

		if (__atomic_load_n(&me->done, __ATOMIC_RELAXED))
			rcu_cbq_run_done(me);
		if (!__atomic_load_n(&rcu_tick_armed, __ATOMIC_RELAXED) ||
		    now < tick)
			continue;
		tick = now + RCU_TICK_MS * 1000000ULL;
		if (rcu_tick(me))
			continue;
		/*
		 * Quiet: disarm, then look once more.  A thread whose list
		 * became non-empty reads the flag after its push, so either
		 * it saw 0 and re-armed, or this look sees its list.
		 */
		__atomic_store_n(&rcu_tick_armed, 0, __ATOMIC_SEQ_CST);
		if (rcu_tick(me))
			__atomic_store_n(&rcu_tick_armed, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

/*
 * Start or wake the grace-period thread: if it sleeps with nothing to do
 * (or @force: whatever it waits for), or @arm it for the tick.
 */
static noinline void rcu_gp_kick(bool arm, bool force)
{
	pthread_attr_t attr;
	pthread_t thread;

	pthread_mutex_lock(&rcu_gp_lock);
	if (arm)
		__atomic_store_n(&rcu_tick_armed, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&rcu_gp_running, __ATOMIC_RELAXED)) {
		if (rcu_gp_idle || force)
			pthread_cond_signal(&rcu_gp_wake);
	} else if (!pthread_attr_init(&attr)) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&thread, &attr, rcu_gp_thread, NULL))
			__kernel_bug(__FILE__, __LINE__, __func__,
				     "cannot start the RCU grace-period thread");
		__atomic_store_n(&rcu_gp_running, 1, __ATOMIC_SEQ_CST);
		pthread_attr_destroy(&attr);
	}
	pthread_mutex_unlock(&rcu_gp_lock);
}

/* Wait for a grace-period pass that starts after this call. */
static void rcu_gp_wait_pass(void)
{
	unsigned long target;

	pthread_mutex_lock(&rcu_gp_lock);
	target = rcu_gp_started + 1;
	if (rcu_gp_wanted < target)
		rcu_gp_wanted = target;
	pthread_mutex_unlock(&rcu_gp_lock);
	rcu_gp_kick(false, true);
	pthread_mutex_lock(&rcu_gp_lock);
	while (rcu_gp_completed < target)
		pthread_cond_wait(&rcu_gp_passed, &rcu_gp_lock);
	pthread_mutex_unlock(&rcu_gp_lock);
}

#ifdef __TOOLS_TSAN
/*
 * Lock-free readers of the tree may read a retired node's first words,
 * its rcu_head, until the grace period ends (the tree expects call_rcu()
 * to write there and checks the node is dead afterwards), some with plain
 * loads that TSan would report against call_rcu()'s stores.  So in TSan
 * builds call_rcu() queues a separate request and leaves the object alone
 * until its callback runs, as the stand-in did before it queued per thread.
 */
struct rcu_tsan_req {
	struct rcu_head rh;
	struct rcu_head *head;
	rcu_callback_t func;
};

static void rcu_tsan_unwrap(struct rcu_head *rh)
{
	struct rcu_tsan_req *req = container_of(rh, struct rcu_tsan_req, rh);
	struct rcu_head *head = req->head;
	rcu_callback_t func = req->func;

	free(req);
	func(head);
}

static struct rcu_head *rcu_tsan_wrap(struct rcu_head *head,
				      rcu_callback_t *func)
{
	struct rcu_tsan_req *req = malloc(sizeof(*req));

	if (!req)
		return head;
	req->head = head;
	req->func = *func;
	*func = rcu_tsan_unwrap;
	return &req->rh;
}
#else
static inline struct rcu_head *rcu_tsan_wrap(struct rcu_head *head,
					     rcu_callback_t *func)
{
	(void)func;
	return head;
}
#endif

/* ---- the API ---- */

void synchronize_rcu(void)
{
	struct rcu_cbq *q = rcu_my_cbq;

	if (rcu_read_lock_held())
		__kernel_bug(__FILE__, __LINE__, __func__,
			     "synchronize_rcu() inside an RCU read-side critical section");
	if (q && __atomic_load_n(&q->pending, __ATOMIC_RELAXED))
		rcu_cbq_flush(q);
	urcu_memb_synchronize_rcu();
	rcu_tsan_acquire();
	if (q && __atomic_load_n(&q->done, __ATOMIC_RELAXED))
		rcu_cbq_run_done(q);
}

/*
 * Every thread's pending callbacks are queued; once a grace-period pass
 * begun after that has delivered them, they sit on done lists (or have run
 * on the grace-period thread): run those, and wait for owners running
 * theirs.
 */
void rcu_barrier(void)
{
	struct rcu_cbq *me, *q;

	if (rcu_read_lock_held())
		__kernel_bug(__FILE__, __LINE__, __func__,
			     "rcu_barrier() inside an RCU read-side critical section");
	me = rcu_cbq_mine();

	pthread_mutex_lock(&rcu_cbq_lock);
	for (q = rcu_cbqs; q; q = q->next) {
		rcu_cbq_handoff(q, q == me);
		if (q != me)
			rcu_cbq_wait_idle(q);
	}
	pthread_mutex_unlock(&rcu_cbq_lock);
	me->nr_pending = 0;

	rcu_gp_wait_pass();

	pthread_mutex_lock(&rcu_cbq_lock);
	for (q = rcu_cbqs; q; q = q->next) {
		rcu_cbq_steal_done(q, me);
		if (q != me)
			rcu_cbq_wait_idle(q);
	}
	pthread_mutex_unlock(&rcu_cbq_lock);
	rcu_tsan_acquire();
}

/*
 * Strict grace periods, the stand-in's CONFIG_RCU_STRICT_GRACE_PERIOD:
 * with RCU_STRICT=n in the environment, every n-th call_rcu() of a thread
 * (unless the thread is itself a reader) waits for a grace period and runs
 * the callback before it returns.  A batched callback runs long after the
 * writer that queued it has moved on, so a writer that retires a node a
 * moment before it unlinks it almost never loses the race to a reader;
 * a strict call frees such a node while it can still be reached, and a
 * reader that gets to it touches freed memory (what ASan reports).  Each
 * strict call costs the writer a grace period (a millisecond or so), so n
 * keeps writers writing between them.  For the RCU stress suites: a test
 * that holds a reader across its own writes would wait forever.
 */
static long rcu_strict;
static __thread long rcu_strict_count;

static void __attribute__((constructor)) rcu_strict_init(void)
{
	const char *env = getenv("RCU_STRICT");

	rcu_strict = env ? strtol(env, NULL, 0) : 0;
	if (rcu_strict < 0)
		rcu_strict = 0;
}

static bool rcu_strict_now(void)
{
	if (rcu_read_lock_held() || ++rcu_strict_count < rcu_strict)
		return false;
	rcu_strict_count = 0;
	return true;
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_cbq *q;
	struct rcu_head *old;

	if (unlikely(rcu_strict) && rcu_strict_now()) {
		urcu_memb_synchronize_rcu();
		rcu_tsan_acquire();
		func(head);
		return;
	}
	q = rcu_cbq_mine();
	if (unlikely(__atomic_load_n(&q->done, __ATOMIC_RELAXED)))
		rcu_cbq_run_done(q);
	head = rcu_tsan_wrap(head, &func);
	__atomic_store_n(&head->func, func, __ATOMIC_RELAXED);
	rcu_pending_add();
	old = __atomic_load_n(&q->pending, __ATOMIC_RELAXED);
	do {
		rcu_set_next(head, old);
	} while (!__atomic_compare_exchange_n(&q->pending, &old, head, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (unlikely(!old))
		rcu_tick_need();
	if (unlikely(++q->nr_pending >= RCU_BATCH))
		rcu_cbq_flush(q);
}

/*
 * kfree_rcu() cannot use the object's own rcu_head: the callback would need
 * the member's offset, which the stand-in's macro does not pass on.  So a
 * small request (from the C library, not counted) carries the pointer.
 */
struct kfree_rcu_req {
	struct rcu_head rh;
	void *ptr;
};

static void kfree_rcu_callback(struct rcu_head *rh)
{
	struct kfree_rcu_req *req = (struct kfree_rcu_req *)rh;

	kfree(req->ptr);
	free(req);
}

void __kfree_rcu(void *ptr)
{
	struct kfree_rcu_req *req;

	if (!ptr)
		return;
	req = malloc(sizeof(*req));
	if (!req) {
		synchronize_rcu();
		kfree(ptr);
		return;
	}
	req->ptr = ptr;
	call_rcu(&req->rh, kfree_rcu_callback);
}
