/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/rcupdate.h> on liburcu's "memb" flavour
 * (link with -lurcu-memb).  Nothing RCU-related is implemented here: grace
 * periods, callbacks and barriers are liburcu's.  This header adds:
 *
 *  - automatic registration: the first rcu_read_lock() (or call_rcu()) in a
 *    thread registers it with liburcu, and the thread is unregistered when
 *    it exits, so tests need not call rcu_register_thread();
 *  - the kernel's pointer accessors, on __atomic builtins (acquire/release),
 *    which ThreadSanitizer understands;
 *  - with CONFIG_PROVE_RCU, the lockdep-style checks of
 *    rcu_dereference_check() and rcu_dereference_protected(): a WARNING when
 *    neither the condition nor rcu_read_lock_held() is true;
 *  - in ThreadSanitizer builds, happens-before annotations from every
 *    read-side critical section to the end of the grace periods and the
 *    callbacks that follow it (liburcu itself is not instrumented).
 *
 * struct rcu_head is liburcu's, which has the kernel's shape (two pointers).
 * The liburcu inline fast paths are used (_LGPL_SOURCE), so rcu_read_lock()
 * costs a few instructions, as in the kernel.
 */
#ifndef _TOOLS_LINUX_RCUPDATE_H
#define _TOOLS_LINUX_RCUPDATE_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/types.h>

#ifndef _LGPL_SOURCE
# define _LGPL_SOURCE
# define __TOOLS_RCU_UNDEF_LGPL
#endif
#include <urcu/urcu-memb.h>
#ifdef __TOOLS_RCU_UNDEF_LGPL
# undef _LGPL_SOURCE
# undef __TOOLS_RCU_UNDEF_LGPL
#endif

/* liburcu spells these differently; the kernel's versions follow. */
#undef rcu_dereference
#undef rcu_assign_pointer

typedef void (*rcu_callback_t)(struct rcu_head *head);

#ifdef __TOOLS_TSAN
# include <sanitizer/tsan_interface.h>
extern char __rcu_tsan_sync;
# define __rcu_tsan_release()	__tsan_release(&__rcu_tsan_sync)
#else
# define __rcu_tsan_release()	do { } while (0)
#endif

void __rcu_register_thread(void);

static inline void __rcu_ensure_registered(void)
{
	if (unlikely(!URCU_TLS(urcu_memb_reader).registered))
		__rcu_register_thread();
}

/**
 * rcu_read_lock() - Enter an RCU read-side critical section.
 *
 * Registers the calling thread with liburcu on first use.  Sections nest.
 * The caller must not sleep waiting for a grace period inside one.
 */
static inline void rcu_read_lock(void)
{
	__rcu_ensure_registered();
	_urcu_memb_read_lock();
}

/**
 * rcu_read_unlock() - Leave an RCU read-side critical section.
 */
static inline void rcu_read_unlock(void)
{
	__rcu_tsan_release();
	_urcu_memb_read_unlock();
}

/**
 * rcu_read_lock_held() - Is the calling thread in a read-side section?
 *
 * Return: 1 inside rcu_read_lock()/rcu_read_unlock(), else 0.
 */
static inline int rcu_read_lock_held(void)
{
	return URCU_TLS(urcu_memb_reader).registered &&
	       _urcu_memb_read_ongoing();
}

/* The bh and sched flavours are plain RCU, as in current kernels. */
#define rcu_read_lock_bh()		rcu_read_lock()
#define rcu_read_unlock_bh()		rcu_read_unlock()
#define rcu_read_lock_sched()		rcu_read_lock()
#define rcu_read_unlock_sched()		rcu_read_unlock()
#define rcu_read_lock_bh_held()		rcu_read_lock_held()
#define rcu_read_lock_sched_held()	rcu_read_lock_held()
#define rcu_read_lock_any_held()	rcu_read_lock_held()
#define rcu_is_watching()		1

/**
 * synchronize_rcu() - Wait until every read-side critical section that
 * was in progress when called has ended.
 *
 * Calling it from inside a read-side section is a BUG() (it would deadlock).
 * Also hands the caller's queued callbacks to liburcu and runs those of
 * its callbacks whose grace period has ended.
 */
void synchronize_rcu(void);
#define synchronize_rcu_expedited()	synchronize_rcu()

/**
 * call_rcu() - Run @func(@head) after a grace period.
 * @head: Storage for the request, usually embedded in the object to free.
 * @func: Callback.
 *
 * As in a kernel: queues on the calling thread's list (no allocation, no
 * system call); the callbacks go to liburcu in batches, and after their
 * grace period run on the thread that queued them, at its next call_rcu()
 * or synchronize_rcu(), or on another thread if that one has exited or
 * stays idle (see tools/lib/rcu.c).  Safe inside rcu_read_lock().
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func);

/**
 * rcu_barrier() - Wait for every callback queued by call_rcu() (and
 * kfree_rcu()) so far, by any thread, to have run.
 *
 * Runs the callbacks of other threads whose grace period has ended itself
 * rather than wait for their owners.
 */
void rcu_barrier(void);

void __kfree_rcu(void *ptr);

/**
 * kfree_rcu() - kfree() an object after a grace period.
 * @ptr: The object (from kmalloc()), or NULL.
 * @...: The name of its struct rcu_head member (accepted, not needed here).
 */
#define kfree_rcu(ptr, ...)	__kfree_rcu((void *)(ptr))
#define kvfree_rcu(ptr, ...)	__kfree_rcu((void *)(ptr))

#define init_rcu_head(head)		do { (void)(head); } while (0)
#define destroy_rcu_head(head)		do { (void)(head); } while (0)
#define init_rcu_head_on_stack(head)	do { (void)(head); } while (0)
#define destroy_rcu_head_on_stack(head)	do { (void)(head); } while (0)

/* ---- pointer accessors ---- */

#ifdef CONFIG_PROVE_RCU
# define RCU_LOCKDEP_WARN(cond, msg) do {				\
	if (unlikely(cond) && __WARN_FIRST_TIME())			\
		__kernel_warn(__FILE__, __LINE__, __func__, "%s", msg);	\
} while (0)
#else
# define RCU_LOCKDEP_WARN(cond, msg) do { if (0) (void)(cond); } while (0)
#endif

#define RCU_INITIALIZER(v)		(v)
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)
#define rcu_access_pointer(p)		READ_ONCE(p)
#define rcu_pointer_handoff(p)		(p)

/* Publish @v in @p: everything written before is visible to readers. */
#define rcu_assign_pointer(p, v) \
	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

#define rcu_dereference_raw(p)		__atomic_load_n(&(p), __ATOMIC_CONSUME)

#define rcu_dereference_check(p, c) ({					\
	RCU_LOCKDEP_WARN(!(c) && !rcu_read_lock_held(),			\
			 "suspicious rcu_dereference_check() usage");	\
	rcu_dereference_raw(p);						\
})
#define rcu_dereference(p)		rcu_dereference_check(p, 0)
#define rcu_dereference_bh(p)		rcu_dereference_check(p, 0)
#define rcu_dereference_sched(p)	rcu_dereference_check(p, 0)
#define rcu_dereference_bh_check(p, c)	rcu_dereference_check(p, c)
#define rcu_dereference_sched_check(p, c) rcu_dereference_check(p, c)

/* Updater-side read: the caller's lock (@c) keeps @p from changing. */
#define rcu_dereference_protected(p, c) ({				\
	RCU_LOCKDEP_WARN(!(c),						\
			 "suspicious rcu_dereference_protected() usage"); \
	(p);								\
})

#define rcu_replace_pointer(rcu_ptr, ptr, c) ({				\
	__typeof__(ptr) __rr_old = rcu_dereference_protected(rcu_ptr, c); \
	rcu_assign_pointer(rcu_ptr, ptr);				\
	__rr_old;							\
})

#endif /* _TOOLS_LINUX_RCUPDATE_H */
