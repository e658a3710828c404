/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/minmax.h>.
 *
 * Each argument is evaluated once.  min()/max() insist that both sides have
 * the same type (comparing their addresses makes the compiler warn about
 * "distinct pointer types" otherwise), as the kernel's do; use min_t()/max_t()
 * to compare in an explicit type.
 */
#ifndef _TOOLS_LINUX_MINMAX_H
#define _TOOLS_LINUX_MINMAX_H

#define __mm_pick(x, y, op) ({						\
	__auto_type __mm_x = (x);					\
	__auto_type __mm_y = (y);					\
	(void)(&__mm_x == &__mm_y);					\
	__mm_x op __mm_y ? __mm_x : __mm_y;				\
})

#define min(x, y)		__mm_pick(x, y, <)
#define max(x, y)		__mm_pick(x, y, >)
#define min3(x, y, z)		min((__typeof__(x))min(x, y), z)
#define max3(x, y, z)		max((__typeof__(x))max(x, y), z)

#define min_t(type, x, y)	__mm_pick((type)(x), (type)(y), <)
#define max_t(type, x, y)	__mm_pick((type)(x), (type)(y), >)

/* The smaller of two values, ignoring a side that is zero. */
#define min_not_zero(x, y) ({						\
	__auto_type __mm_a = (x);					\
	__auto_type __mm_b = (y);					\
	__mm_a == 0 ? __mm_b : (__mm_b == 0 ? __mm_a : min(__mm_a, __mm_b)); \
})

#define clamp(val, lo, hi)	min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) \
	min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)	clamp_t(__typeof__(val), val, lo, hi)

#define swap(a, b) do {							\
	__typeof__(a) __mm_tmp = (a);					\
	(a) = (b);							\
	(b) = __mm_tmp;							\
} while (0)

#endif /* _TOOLS_LINUX_MINMAX_H */
