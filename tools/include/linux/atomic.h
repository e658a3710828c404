/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/atomic.h> on the compiler's __atomic
 * builtins.  As in the kernel: plain reads/sets and the void RMW operations
 * are relaxed; the operations that return a value are fully ordered.
 */
#ifndef _TOOLS_LINUX_ATOMIC_H
#define _TOOLS_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }
#define ATOMIC64_INIT(i)	{ (i) }

#define __ATOMIC_RLX	__ATOMIC_RELAXED
#define __ATOMIC_FULL	__ATOMIC_SEQ_CST

/*
 * One set of operations per counter type.  @pfx is the name prefix, @type
 * the struct, @ctype the counter's C type.
 */
#define __ATOMIC_OPS(pfx, type, ctype)					\
static inline ctype pfx##_read(const type *v)				\
{									\
	return __atomic_load_n(&v->counter, __ATOMIC_RLX);		\
}									\
static inline void pfx##_set(type *v, ctype i)				\
{									\
	__atomic_store_n(&v->counter, i, __ATOMIC_RLX);			\
}									\
static inline ctype pfx##_read_acquire(const type *v)			\
{									\
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);		\
}									\
static inline void pfx##_set_release(type *v, ctype i)			\
{									\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);		\
}									\
static inline void pfx##_add(ctype i, type *v)				\
{									\
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RLX);		\
}									\
static inline void pfx##_sub(ctype i, type *v)				\
{									\
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RLX);		\
}									\
static inline void pfx##_inc(type *v)					\
{									\
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RLX);		\
}									\
static inline void pfx##_dec(type *v)					\
{									\
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RLX);		\
}									\
static inline ctype pfx##_add_return(ctype i, type *v)			\
{									\
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_FULL);	\
}									\
static inline ctype pfx##_sub_return(ctype i, type *v)			\
{									\
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_FULL);	\
}									\
static inline ctype pfx##_inc_return(type *v)				\
{									\
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_FULL);	\
}									\
static inline ctype pfx##_dec_return(type *v)				\
{									\
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_FULL);	\
}									\
static inline ctype pfx##_fetch_add(ctype i, type *v)			\
{									\
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_FULL);	\
}									\
static inline ctype pfx##_fetch_sub(ctype i, type *v)			\
{									\
	return __atomic_fetch_sub(&v->counter, i, __ATOMIC_FULL);	\
}									\
static inline bool pfx##_inc_and_test(type *v)				\
{									\
	return pfx##_inc_return(v) == 0;				\
}									\
static inline bool pfx##_dec_and_test(type *v)				\
{									\
	return pfx##_dec_return(v) == 0;				\
}									\
static inline bool pfx##_sub_and_test(ctype i, type *v)			\
{									\
	return pfx##_sub_return(i, v) == 0;				\
}									\
static inline ctype pfx##_xchg(type *v, ctype i)			\
{									\
	return __atomic_exchange_n(&v->counter, i, __ATOMIC_FULL);	\
}									\
static inline ctype pfx##_cmpxchg(type *v, ctype old, ctype new)	\
{									\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    __ATOMIC_FULL, __ATOMIC_FULL);	\
	return old;							\
}									\
static inline bool pfx##_try_cmpxchg(type *v, ctype *old, ctype new)	\
{									\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   __ATOMIC_FULL, __ATOMIC_FULL); \
}									\
static inline bool pfx##_add_unless(type *v, ctype a, ctype u)		\
{									\
	ctype c = pfx##_read(v);					\
									\
	do {								\
		if (c == u)						\
			return false;					\
	} while (!pfx##_try_cmpxchg(v, &c, c + a));			\
	return true;							\
}									\
static inline bool pfx##_inc_not_zero(type *v)				\
{									\
	return pfx##_add_unless(v, 1, 0);				\
}

__ATOMIC_OPS(atomic, atomic_t, int)
__ATOMIC_OPS(atomic_long, atomic_long_t, long)
__ATOMIC_OPS(atomic64, atomic64_t, s64)

#undef __ATOMIC_OPS

/* Generic word-sized exchange operations, fully ordered. */
#define xchg(ptr, v)	__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)
#define cmpxchg(ptr, old, new) ({					\
	__typeof__(*(ptr)) __cx_old = (old);				\
	__atomic_compare_exchange_n((ptr), &__cx_old, (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	__cx_old;							\
})
#define try_cmpxchg(ptr, oldp, new)					\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define cmpxchg_relaxed(ptr, old, new) ({				\
	__typeof__(*(ptr)) __cx_old = (old);				\
	__atomic_compare_exchange_n((ptr), &__cx_old, (new), false,	\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
	__cx_old;							\
})

#endif /* _TOOLS_LINUX_ATOMIC_H */
