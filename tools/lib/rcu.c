// SPDX-License-Identifier: GPL-2.0
/*
 * Glue between the kernel RCU API and liburcu's memb flavour.
 *
 * All grace-period machinery is liburcu's.  This file only registers
 * threads on demand (and unregisters them at thread exit), refuses the
 * calls that would deadlock, implements kfree_rcu() on call_rcu(), in
 * ThreadSanitizer builds tells TSan about the ordering a grace period
 * provides (liburcu is not instrumented, so TSan cannot see it), and in
 * builds with TOOLS_RCU_PENDING (the fuzzer) counts the callbacks still
 * waiting for a grace period.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

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

static pthread_key_t rcu_exit_key;
static pthread_once_t rcu_key_once = PTHREAD_ONCE_INIT;

static void rcu_thread_exit(void *unused)
{
	(void)unused;
	if (!URCU_TLS(urcu_memb_reader).registered)
		return;
	WARN(_urcu_memb_read_ongoing(),
	     "thread exiting inside an RCU read-side critical section");
	urcu_memb_unregister_thread();
}

static void rcu_make_key(void)
{
	if (pthread_key_create(&rcu_exit_key, rcu_thread_exit))
		BUG();
}

void __rcu_register_thread(void)
{
	pthread_once(&rcu_key_once, rcu_make_key);
	urcu_memb_register_thread();
	pthread_setspecific(rcu_exit_key, (void *)1);
}

void synchronize_rcu(void)
{
	if (rcu_read_lock_held())
		__kernel_bug(__FILE__, __LINE__, __func__,
			     "synchronize_rcu() inside an RCU read-side critical section");
	urcu_memb_synchronize_rcu();
	rcu_tsan_acquire();
}

void rcu_barrier(void)
{
	if (rcu_read_lock_held())
		__kernel_bug(__FILE__, __LINE__, __func__,
			     "rcu_barrier() inside an RCU read-side critical section");
	__rcu_ensure_registered();
	urcu_memb_barrier();
	rcu_tsan_acquire();
}

#if defined(__TOOLS_TSAN) || defined(TOOLS_RCU_PENDING)
/*
 * The real request, wrapped: so that the callback can acquire first (TSan),
 * and so that callbacks still waiting for their grace period are counted
 * (TOOLS_RCU_PENDING, see kmem_nr_live_settled()).
 */
struct rcu_wrap_req {
	struct rcu_head rh;
	struct rcu_head *head;
	rcu_callback_t func;
};

#ifdef TOOLS_RCU_PENDING
/*
 * Callbacks queued and not yet run, and a sequence count that is odd while
 * one runs (it frees an object, then leaves the queue): a reader that saw
 * the count even and unchanged around its reads saw both at rest.
 */
static long rcu_pending_nr;
static unsigned long rcu_pending_seq;

static void rcu_pending_run(struct rcu_wrap_req *req)
{
	__atomic_add_fetch(&rcu_pending_seq, 1, __ATOMIC_SEQ_CST);
	req->func(req->head);
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
static void rcu_pending_run(struct rcu_wrap_req *req)
{
	req->func(req->head);
}
#endif

static void rcu_wrap_callback(struct rcu_head *rh)
{
	struct rcu_wrap_req *req = (struct rcu_wrap_req *)rh;

#ifdef __TOOLS_TSAN
	__tsan_acquire(req);
#endif
	rcu_tsan_acquire();
	rcu_pending_run(req);
	free(req);
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_wrap_req *req = malloc(sizeof(*req));

	__rcu_ensure_registered();
	if (!req) {
		synchronize_rcu();
		func(head);
		return;
	}
	req->head = head;
	req->func = func;
#ifdef __TOOLS_TSAN
	__tsan_release(req);
#endif
#ifdef TOOLS_RCU_PENDING
	__atomic_add_fetch(&rcu_pending_nr, 1, __ATOMIC_SEQ_CST);
#endif
	urcu_memb_call_rcu(&req->rh, rcu_wrap_callback);
}
#else
void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	__rcu_ensure_registered();
	urcu_memb_call_rcu(head, func);
}
#endif

/*
 * kfree_rcu() cannot use the object's own rcu_head: the callback would need
 * the member's offset, and liburcu's rcu_head has no room for it.  So a
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
