/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * What mm/ calls that neither Linux 6.1's nor 6.12's tree has, written on
 * their public API; included by mm_compat-6.1.h and mm_compat-6.12.h.
 */
#ifndef _BENCH_UPSTREAM_MM_COMPAT_BOTH_H
#define _BENCH_UPSTREAM_MM_COMPAT_BOTH_H

#include <linux/maple_tree.h>

/*
 * mas_reserve_stores() is ours: Linux has no call that allocates for
 * several stores at once, and its own mm/ preallocates store by store.
 * Here it allocates nothing: the mas_store() calls that follow allocate
 * for themselves (GFP_NOWAIT), as Linux's stores without a preallocation
 * do, which in the benchmarks never fails.  The baselines keep the cost
 * of Linux's own path, not our tree's all-or-nothing commit.
 */
static inline int mas_reserve_stores(struct ma_state *mas, void *entry,
				     unsigned int nr_more, gfp_t gfp)
{
	(void)mas;
	(void)entry;
	(void)nr_more;
	(void)gfp;
	return 0;
}

#endif /* _BENCH_UPSTREAM_MM_COMPAT_BOTH_H */
