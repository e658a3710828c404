/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Forced in first (-include) when mm/ is built on Linux 6.12's own
 * lib/maple_tree.c for vma_bench's "upstream-6.12" backend (make bench).
 * 6.12 has everything of Linux's API that mm/ calls (__mt_dup(),
 * __mas_set_range(), the three-argument mas_preallocate()); what differs
 * is how a fresh state is spelt and which ranges __mas_set_range() may
 * move a state to, and mm_compat.h adds what is ours alone.
 * mm/ itself stays as it is.
 */
#ifndef _BENCH_UPSTREAM_MM_COMPAT_612_H
#define _BENCH_UPSTREAM_MM_COMPAT_612_H

/* 6.12's maple_tree.h calls memset() without including its header. */
#include <linux/string.h>
#include <linux/maple_tree.h>

/*
 * mm/ (vma_iter_init(), VMA_ITERATOR(), vma_walk_start()) sets up a state
 * with a designated initializer holding ".node = MAS_START,", the 6.1
 * way, where the node pointer itself marks a walk not yet started.  6.12
 * has no MAS_START: the state's status field says so (ma_start), and a
 * zeroed status is ma_active, a walk in progress.  So the sentinel
 * becomes a NULL node followed by the status member, which completes
 * those initializers as 6.12's MA_STATE() would set them up.  Only
 * designated initializers may use this spelling; mm/ uses no other.
 */
#define MAS_START	NULL, .status = ma_start

/*
 * mm/'s commit moves the walk that collected a window to each store's
 * range with __mas_set_range(), wherever the walk stopped: our writes
 * walk from the root when the state's leaf does not hold the range.
 * 6.12's __mas_set_range() is for a range that starts inside the one the
 * state is on (it warns otherwise), and its writes trust the state's
 * node.  So here it resets as mas_set_range() does, and each store walks
 * from the root, as mm/'s stores on this tree always did.  6.12's header
 * is read above: its own mas_set_range() keeps the real one.
 */
#define __mas_set_range(mas, start, last)	mas_set_range(mas, start, last)

#include <linux/mm_types.h>

#include "mm_compat.h"

#endif /* _BENCH_UPSTREAM_MM_COMPAT_612_H */
