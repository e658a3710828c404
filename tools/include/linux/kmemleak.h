/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/kmemleak.h>: no-ops.  Leaks are found by the
 * object counters in <linux/slab.h> instead (kmem_leak_check()).
 */
#ifndef _TOOLS_LINUX_KMEMLEAK_H
#define _TOOLS_LINUX_KMEMLEAK_H

#include <linux/types.h>

static inline void kmemleak_not_leak(const void *ptr) { (void)ptr; }
static inline void kmemleak_ignore(const void *ptr) { (void)ptr; }
static inline void kmemleak_alloc(const void *ptr, size_t size, int min_count,
				  gfp_t gfp)
{
	(void)ptr; (void)size; (void)min_count; (void)gfp;
}
static inline void kmemleak_free(const void *ptr) { (void)ptr; }
static inline void kmemleak_update_trace(const void *ptr) { (void)ptr; }

#endif /* _TOOLS_LINUX_KMEMLEAK_H */
