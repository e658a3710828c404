/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/math.h>: integer rounding helpers. */
#ifndef _TOOLS_LINUX_MATH_H
#define _TOOLS_LINUX_MATH_H

/* Round up/down to a multiple of @y, which must be a power of two. */
#define __round_mask(x, y)	((__typeof__(x))((y) - 1))
#define round_up(x, y)		((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y)	((x) & ~__round_mask(x, y))

/* Round up/down to a multiple of any @y. */
#define roundup(x, y) ({						\
	__typeof__(y) __r_y = (y);					\
	(((x) + (__r_y - 1)) / __r_y) * __r_y;				\
})
#define rounddown(x, y) ({						\
	__typeof__(x) __r_x = (x);					\
	__r_x - (__r_x % (y));						\
})

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(n, d)	\
	((unsigned long long)DIV_ROUND_UP((unsigned long long)(n), (d)))
#define DIV_ROUND_DOWN_ULL(n, d) ((unsigned long long)(n) / (d))
#define DIV_ROUND_CLOSEST(x, d)	(((x) + ((d) / 2)) / (d))

#endif /* _TOOLS_LINUX_MATH_H */
