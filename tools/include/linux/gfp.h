/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/gfp.h>.
 *
 * The bit values are this file's own; what matters is how the flags combine:
 * GFP_KERNEL may block (direct reclaim), GFP_NOWAIT and GFP_ATOMIC may not.
 * The allocator honours __GFP_ZERO and __GFP_NOFAIL (never fault-injected);
 * with CONFIG_DEBUG_ATOMIC_SLEEP a blocking allocation checks might_sleep().
 */
#ifndef _TOOLS_LINUX_GFP_H
#define _TOOLS_LINUX_GFP_H

#include <linux/types.h>

#define __GFP_DMA		((gfp_t)0x00001u)
#define __GFP_HIGHMEM		((gfp_t)0x00002u)
#define __GFP_DMA32		((gfp_t)0x00004u)
#define __GFP_MOVABLE		((gfp_t)0x00008u)
#define __GFP_RECLAIMABLE	((gfp_t)0x00010u)
#define __GFP_HIGH		((gfp_t)0x00020u)
#define __GFP_IO		((gfp_t)0x00040u)
#define __GFP_FS		((gfp_t)0x00080u)
#define __GFP_ZERO		((gfp_t)0x00100u)
#define __GFP_ATOMIC		((gfp_t)0x00200u)
#define __GFP_DIRECT_RECLAIM	((gfp_t)0x00400u)
#define __GFP_KSWAPD_RECLAIM	((gfp_t)0x00800u)
#define __GFP_WRITE		((gfp_t)0x01000u)
#define __GFP_NOWARN		((gfp_t)0x02000u)
#define __GFP_RETRY_MAYFAIL	((gfp_t)0x04000u)
#define __GFP_NOFAIL		((gfp_t)0x08000u)
#define __GFP_NORETRY		((gfp_t)0x10000u)
#define __GFP_MEMALLOC		((gfp_t)0x20000u)
#define __GFP_COMP		((gfp_t)0x40000u)
#define __GFP_NOMEMALLOC	((gfp_t)0x80000u)
#define __GFP_HARDWALL		((gfp_t)0x100000u)
#define __GFP_THISNODE		((gfp_t)0x200000u)
#define __GFP_ACCOUNT		((gfp_t)0x400000u)

#define __GFP_RECLAIM	(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)

#define GFP_ATOMIC	(__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL	(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT	(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO	(__GFP_RECLAIM)
#define GFP_NOFS	(__GFP_RECLAIM | __GFP_IO)
#define GFP_USER	(__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_HIGHUSER	(GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE	(GFP_HIGHUSER | __GFP_MOVABLE)

/**
 * gfpflags_allow_blocking() - May an allocation with @gfp sleep?
 * @gfp: Allocation flags.
 *
 * Return: true if @gfp includes direct reclaim.
 */
static inline bool gfpflags_allow_blocking(const gfp_t gfp)
{
	return !!(gfp & __GFP_DIRECT_RECLAIM);
}

#endif /* _TOOLS_LINUX_GFP_H */
