/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/log2.h>.  All of these fold to constants for
 * constant arguments; ilog2(0) and the pow_of_two helpers of 0 are undefined.
 */
#ifndef _TOOLS_LINUX_LOG2_H
#define _TOOLS_LINUX_LOG2_H

#include <linux/bits.h>
#include <linux/types.h>

#define ilog2(n) \
	((int)(BITS_PER_LONG_LONG - 1 - __builtin_clzll((unsigned long long)(n))))

#define is_power_of_2(n) \
	({ __auto_type __l2_n = (n); __l2_n != 0 && (__l2_n & (__l2_n - 1)) == 0; })

#define roundup_pow_of_two(n) \
	((n) == 1 ? 1UL : 1UL << (ilog2((unsigned long)(n) - 1) + 1))
#define rounddown_pow_of_two(n)	(1UL << ilog2(n))
#define order_base_2(n)		((n) > 1 ? ilog2((n) - 1) + 1 : 0)

#endif /* _TOOLS_LINUX_LOG2_H */
