/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/compiler.h> and friends: attributes, branch
 * hints, sparse annotations (all empty outside __CHECKER__), compiler and
 * CPU barriers, and READ_ONCE()/WRITE_ONCE().
 *
 * READ_ONCE()/WRITE_ONCE() are relaxed __atomic accesses: they compile to a
 * plain load or store, cannot be torn or fused, and ThreadSanitizer sees them
 * as atomic, so intended races between lockless readers and a writer are not
 * reported.  The CPU barriers are __atomic fences (on x86 smp_rmb() and
 * smp_wmb() cost nothing but a compiler barrier, as in the kernel).
 */
#ifndef _TOOLS_LINUX_COMPILER_H
#define _TOOLS_LINUX_COMPILER_H

#include <linux/kconfig.h>

/* ---- attributes ---- */
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline		__attribute__((__noinline__))
#endif
#ifndef __noinline
#define __noinline		__attribute__((__noinline__))
#endif
#ifndef __must_check
#define __must_check		__attribute__((__warn_unused_result__))
#endif
#ifndef __maybe_unused
#define __maybe_unused		__attribute__((__unused__))
#endif
#ifndef __always_unused
#define __always_unused		__attribute__((__unused__))
#endif
#ifndef __used
#define __used			__attribute__((__used__))
#endif
#ifndef __packed
#define __packed		__attribute__((__packed__))
#endif
#ifndef __aligned
#define __aligned(x)		__attribute__((__aligned__(x)))
#endif
#ifndef __printf
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#endif
#ifndef __scanf
#define __scanf(a, b)		__attribute__((__format__(scanf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn		__attribute__((__noreturn__))
#endif
#ifndef __cold
#define __cold			__attribute__((__cold__))
#endif
#ifndef __pure
#define __pure			__attribute__((__pure__))
#endif
#ifndef __attribute_const__
#define __attribute_const__	__attribute__((__const__))
#endif
#ifndef __weak
#define __weak			__attribute__((__weak__))
#endif
#ifndef __section
#define __section(s)		__attribute__((__section__(s)))
#endif
#ifndef __visible
#define __visible
#endif
#ifndef __flatten
#define __flatten		__attribute__((__flatten__))
#endif
#ifndef __malloc
#define __malloc		__attribute__((__malloc__))
#endif
#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif
#ifndef notrace
#define notrace
#endif

/* ---- sparse annotations: meaningful only to the checker ---- */
#ifdef __CHECKER__
# define __rcu		__attribute__((noderef, address_space(__rcu)))
# define __user		__attribute__((noderef, address_space(__user)))
# define __iomem	__attribute__((noderef, address_space(__iomem)))
# define __percpu	__attribute__((noderef, address_space(__percpu)))
# define __force	__attribute__((force))
# define __must_hold(x)	__attribute__((context(x, 1, 1)))
# define __acquires(x)	__attribute__((context(x, 0, 1)))
# define __releases(x)	__attribute__((context(x, 1, 0)))
# define __acquire(x)	__context__(x, 1)
# define __release(x)	__context__(x, -1)
# define __cond_lock(x, c) ((c) ? ({ __acquire(x); 1; }) : 0)
#else
# define __rcu
# define __user
# define __iomem
# define __percpu
# define __force
# define __must_hold(x)
# define __acquires(x)
# define __releases(x)
# define __acquire(x)	((void)0)
# define __release(x)	((void)0)
# define __cond_lock(x, c) (c)
#endif
#ifndef __kernel
#define __kernel
#endif

/* ---- branch hints and helpers ---- */
#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#define __same_type(a, b) \
	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define unreachable()	__builtin_unreachable()

/* Intentional data races: kept as plain expressions. */
#define data_race(expr)	(expr)

/* Keep the compiler from reasoning about a variable's value. */
#define OPTIMIZER_HIDE_VAR(var)	__asm__ ("" : "=r" (var) : "0" (var))

/*
 * Sanitizer detection, for gcc (__SANITIZE_*__) and clang (__has_feature).
 * Userspace-only helpers: __TOOLS_ASAN / __TOOLS_TSAN are 1 in such builds.
 */
#if defined(__SANITIZE_ADDRESS__)
# define __TOOLS_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define __TOOLS_ASAN 1
# endif
#endif
#if defined(__SANITIZE_THREAD__)
# define __TOOLS_TSAN 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define __TOOLS_TSAN 1
# endif
#endif

/* ---- barriers ---- */
#define barrier()	__asm__ __volatile__("" ::: "memory")
#define mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define smp_store_mb(var, value) \
	do { WRITE_ONCE(var, value); smp_mb(); } while (0)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* ---- single-copy accesses ---- */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#endif /* _TOOLS_LINUX_COMPILER_H */
