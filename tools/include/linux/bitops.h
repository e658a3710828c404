/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/bitops.h>: bit searches on compiler
 * builtins, and bit operations on unsigned long bitmaps.  The plain forms
 * (set_bit, clear_bit, test_and_*) are atomic; the __ forms are not.
 */
#ifndef _TOOLS_LINUX_BITOPS_H
#define _TOOLS_LINUX_BITOPS_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/math.h>
#include <linux/types.h>

#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)

/* Index of the lowest set bit; undefined for 0. */
static __always_inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

/* Index of the highest set bit; undefined for 0. */
static __always_inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

/* Index of the lowest clear bit; undefined for ~0UL. */
static __always_inline unsigned long ffz(unsigned long word)
{
	return __builtin_ctzl(~word);
}

/* 1-based position of the highest set bit; 0 for 0. */
static __always_inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static __always_inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static __always_inline unsigned int fls_long(unsigned long x)
{
	return x ? BITS_PER_LONG - __builtin_clzl(x) : 0;
}

#define hweight8(w)		((unsigned int)__builtin_popcount((u8)(w)))
#define hweight16(w)		((unsigned int)__builtin_popcount((u16)(w)))
#define hweight32(w)		((unsigned int)__builtin_popcount((u32)(w)))
#define hweight64(w)		((unsigned int)__builtin_popcountll((u64)(w)))
#define hweight_long(w)		((unsigned long)__builtin_popcountl(w))

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) >>
		(nr % BITS_PER_LONG)) & 1;
}

static inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline void change_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline bool test_and_set_bit(unsigned long nr,
				    volatile unsigned long *addr)
{
	return __atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(unsigned long nr,
				      volatile unsigned long *addr)
{
	return __atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline void __set_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

#endif /* _TOOLS_LINUX_BITOPS_H */
