/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Forced in first (-include) when mm/ is built on Linux 6.1's own
 * lib/maple_tree.c for vma_bench's third backend (make bench): what mm/
 * calls that 6.1's tree does not have, written on 6.1's public API.
 * mm/ itself stays as it is.
 */
#ifndef _BENCH_UPSTREAM_MM_COMPAT_H
#define _BENCH_UPSTREAM_MM_COMPAT_H

#include <linux/maple_tree.h>
#include <linux/mm_types.h>

#include "mm_compat.h"

/*
 * __mas_set_range() (Linux 6.6) moves the range without resetting the
 * walk; 6.1 has only mas_set_range(), which also resets it.  The reset
 * costs a walk from the root, as every store of 6.1's own mm/ did.
 */
static inline void __mas_set_range(struct ma_state *mas, unsigned long start,
				   unsigned long last)
{
	mas_set_range(mas, start, last);
}

/*
 * mas_next_range() (Linux 6.6) steps to the next range, NULL or not, and
 * mm/'s vma_walk_next_upto() calls it a second time after a NULL range
 * that ends below @max, for the entry after it.  6.1's mas_next() goes
 * on to that entry at once (the result mm/ wants, in one call), and when
 * it finds none up to @max it leaves mas->last at @max, so mm/ makes no
 * second call.
 */
static inline void *mas_next_range(struct ma_state *mas, unsigned long max)
{
	return mas_next(mas, max);
}

/*
 * mas_prev_range() (Linux 6.6) steps back one range, NULL or not.  mm/
 * (vma_walk_start()) steps back on a copy of its state that it then drops,
 * keeping only the entry: what 6.1's mas_prev() finds if it ends right
 * before the state's range, else NULL (a NULL range lies between), as
 * mas_prev_range() would return.
 */
static inline void *mas_prev_range(struct ma_state *mas, unsigned long min)
{
	unsigned long index = mas->index;
	void *entry = mas_prev(mas, min);

	return entry && mas->last + 1 == index ? entry : NULL;
}

/*
 * __mt_dup() (Linux 6.8) copies a tree node for node.  6.1's fork built
 * the child's tree instead, storing its VMAs one by one in a bulk insert
 * (mas_expected_entries(), RCU mode off while the child is unseen); so
 * does this stand-in, with the same entries as @mt.  Its only caller is
 * mm/'s fork, so @new is an mm's tree whose map_count is the number of
 * entries, as 6.1's dup_mmap() passed it.  mm/ then swaps each entry for
 * the child's copy of the VMA: a pass 6.1 did not make, which both maple
 * backends pay alike.
 */
static inline int __mt_dup(struct maple_tree *mt, struct maple_tree *new,
			   gfp_t gfp)
{
	struct mm_struct *mm = container_of(mt, struct mm_struct, mm_mt);
	void *entry;
	int ret;
	MA_STATE(old_mas, mt, 0, 0);
	MA_STATE(new_mas, new, 0, 0);


	(void)gfp;
	mt_clear_in_rcu(new);
	ret = mas_expected_entries(&new_mas, mm->map_count);
	if (ret)
		goto out;
	mas_for_each(&old_mas, entry, ULONG_MAX) {
		new_mas.index = old_mas.index;
		new_mas.last = old_mas.last;
		mas_store(&new_mas, entry);
		if (mas_is_err(&new_mas)) {
			ret = -ENOMEM;	/* a bulk store fails for want of nodes */
			break;
		}
	}
	mas_destroy(&new_mas);
	if (ret)
		__mt_destroy(new);
out:
	mt_set_in_rcu(new);
	return ret;
}

#endif /* _BENCH_UPSTREAM_MM_COMPAT_H */
