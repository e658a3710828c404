/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/cache.h>; assumes 64-byte cache lines. */
#ifndef _TOOLS_LINUX_CACHE_H
#define _TOOLS_LINUX_CACHE_H

#include <linux/compiler.h>

#define L1_CACHE_SHIFT		6
#define L1_CACHE_BYTES		(1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES		L1_CACHE_BYTES
#define L1_CACHE_ALIGN(x)	(((x) + L1_CACHE_BYTES - 1) & ~(L1_CACHE_BYTES - 1))

#define ____cacheline_aligned		__attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp	____cacheline_aligned
#define __cacheline_aligned		____cacheline_aligned
#define __cacheline_aligned_in_smp	____cacheline_aligned
#define ____cacheline_internodealigned_in_smp ____cacheline_aligned
#define __read_mostly
#ifndef __ro_after_init
#define __ro_after_init
#endif

#define cache_line_size()	L1_CACHE_BYTES

#endif /* _TOOLS_LINUX_CACHE_H */
