/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TOOLS_LINUX_BITS_H
#define _TOOLS_LINUX_BITS_H

#define BITS_PER_BYTE		8
#define BITS_PER_LONG		(__SIZEOF_LONG__ * BITS_PER_BYTE)
#define BITS_PER_LONG_LONG	(__SIZEOF_LONG_LONG__ * BITS_PER_BYTE)

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)

/* Contiguous mask from bit @l up to bit @h, inclusive. */
#define GENMASK(h, l) \
	((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	((~0ULL << (l)) & (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif /* _TOOLS_LINUX_BITS_H */
