// SPDX-License-Identifier: GPL-2.0+
/*
 * Maple states parked across writes made through another state.
 *
 * Linux 6.1's exec path (fs/exec.c, shift_arg_pages()) walks a VMA
 * iterator to the stack VMA, moves the stack's start down with
 * vma_adjust() (a write through a state of its own, prepared with
 * mas_preallocate() for [0, 0] and then set to the VMA's range), waits,
 * and goes on with vma_next() on the first iterator.  The mm tree is in
 * RCU mode, the caller holds the mmap lock but no rcu_read_lock(), so a
 * leaf that the write replaced is freed after a grace period and the
 * parked iterator would read freed memory.
 *
 * The rule (Documentation/core-api/maple_tree.rst, "Maple states across
 * writes"): a single store -- one range's entry replaced, or one boundary
 * moved between a range and a NULL or by the range's own entry -- keeps
 * its leaf, through every write API, so a state parked on that leaf may go
 * on.  These cases make each such store through each API on an RCU-mode
 * allocation tree under a mutex (as the mmap lock is), let a grace period
 * pass, check that the leaf is the one the state stands on, and let parked
 * states go on with mas_find(), mas_next(), mas_prev() and mas_walk().
 * Under ASan a parked state that reads a freed leaf fails at once.
 */
#include <kunit/test.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "suite_helpers.h"

#define PS_STEP		0x10000UL	/* one VMA per 64 KiB */
#define PS_LEN		0x4000UL	/* of 16 KiB */
#define PS_MOVE		0x2000UL	/* a boundary moves by 8 KiB */

/* VMA k (k >= 1) is [k * PS_STEP, k * PS_STEP + PS_LEN - 1] -> val(k). */
static inline unsigned long ps_start(unsigned long k)
{
	return k * PS_STEP;
}

static inline unsigned long ps_end(unsigned long k)
{
	return k * PS_STEP + PS_LEN - 1;
}

enum ps_kind {
	PS_GROW_DOWN,	/* the stack: its start moves down, same entry */
	PS_GROW_UP,	/* brk: the end moves up, same entry */
	PS_SHRINK_TAIL,	/* NULL over the tail */
	PS_SHRINK_HEAD,	/* NULL over the head */
	PS_REPLACE,	/* the exact range, another entry */
};

enum ps_api {
	PS_STORE_GFP,		/* mas_store_gfp() */
	PS_PREALLOC_ZERO,	/* mas_preallocate() at [0, 0], then the range */
	PS_PREALLOC_SAME,	/* mas_preallocate() of the range itself */
	PS_API_NR,
};

struct ps_case {
	const char *desc;
	unsigned long nr_vmas;		/* the target is VMA nr_vmas / 2 + 1 */
	enum ps_kind kind;
	/* What mas_walk() at the target's old start finds afterwards. */
	long walk_first, walk_last;	/* relative to old start / end */
	bool walk_null;
};

static const struct ps_case ps_cases[] = {
	{ "exec's stack alone, start moved down", 1, PS_GROW_DOWN,
	  -(long)PS_MOVE, 0, false },
	{ "stack alone, end moved up", 1, PS_GROW_UP, 0, PS_MOVE, false },
	{ "stack alone, NULL over the tail", 1, PS_SHRINK_TAIL,
	  0, -(long)PS_MOVE, false },
	{ "stack alone, NULL over the head", 1, PS_SHRINK_HEAD,
	  0, 0, true },
	{ "stack alone, replaced", 1, PS_REPLACE, 0, 0, false },
	{ "200 VMAs, start moved down", 200, PS_GROW_DOWN,
	  -(long)PS_MOVE, 0, false },
	{ "200 VMAs, end moved up", 200, PS_GROW_UP, 0, PS_MOVE, false },
	{ "200 VMAs, NULL over the tail", 200, PS_SHRINK_TAIL,
	  0, -(long)PS_MOVE, false },
	{ "200 VMAs, NULL over the head", 200, PS_SHRINK_HEAD, 0, 0, true },
	{ "200 VMAs, replaced", 200, PS_REPLACE, 0, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(ps_case, ps_cases, desc);

/* The store of @kind on VMA @k: its range and entry. */
static void ps_write_of(enum ps_kind kind, unsigned long k,
			unsigned long *first, unsigned long *last,
			void **entry)
{
	*first = ps_start(k);
	*last = ps_end(k);
	*entry = val(k);
	switch (kind) {
	case PS_GROW_DOWN:
		*first -= PS_MOVE;
		break;
	case PS_GROW_UP:
		*last += PS_MOVE;
		break;
	case PS_SHRINK_TAIL:
		*first = *last - PS_MOVE + 1;
		*entry = NULL;
		break;
	case PS_SHRINK_HEAD:
		*last = *first + PS_MOVE - 1;
		*entry = NULL;
		break;
	case PS_REPLACE:
		*entry = val(1000);
		break;
	}
}

static void ps_write(struct kunit *test, struct maple_tree *mt,
		     enum ps_api api, unsigned long k, unsigned long first,
		     unsigned long last, void *entry)
{
	MA_STATE(mas, mt, first, last);

	switch (api) {
	case PS_STORE_GFP:
		KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, entry, GFP_KERNEL),
				0);
		break;
	case PS_PREALLOC_ZERO:
		/* As 6.1's __vma_adjust(): prepared for the VMA at [0, 0]. */
		mas_set_range(&mas, 0, 0);
		KUNIT_ASSERT_EQ(test, mas_preallocate(&mas, val(k), GFP_KERNEL),
				0);
		mas_set_range(&mas, first, last);
		mas_store_prealloc(&mas, entry);
		break;
	default:
		KUNIT_ASSERT_EQ(test, mas_preallocate(&mas, entry, GFP_KERNEL),
				0);
		mas_store_prealloc(&mas, entry);
		break;
	}
	mas_destroy(&mas);
}

static void single_store_keeps_the_leaf_of_a_parked_state(struct kunit *test)
{
	const struct ps_case *c = test->param_value;
	unsigned long n = c->nr_vmas, k = n / 2 + 1, i, first, last;
	struct maple_tree mt;
	struct mutex lock;
	enum ps_api api;
	void *entry;

	for (api = 0; api < PS_API_NR; api++) {
		MA_STATE(found, &mt, 0, 0);
		MA_STATE(next, &mt, 0, 0);
		MA_STATE(prev, &mt, 0, 0);
		MA_STATE(walk, &mt, 0, 0);
		MA_STATE(fresh, &mt, 0, 0);

		kunit_info(test, "write API %u\n", api);
		mutex_init(&lock);
		mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN |
				   MT_FLAGS_USE_RCU);
		mt_set_external_lock(&mt, &lock);
		mutex_lock(&lock);
		for (i = 1; i <= n; i++) {
			MA_STATE(mas, &mt, ps_start(i), ps_end(i));

			KUNIT_ASSERT_EQ(test, mas_store_gfp(&mas, val(i),
							    GFP_KERNEL), 0);
		}

		/* Park: from the gap below, as exec's iterator does. */
		mas_set(&found, ps_start(k) - PS_MOVE - 1);
		KUNIT_ASSERT_PTR_EQ(test, mas_find(&found, ULONG_MAX), val(k));
		mas_set(&next, ps_start(k));
		KUNIT_ASSERT_PTR_EQ(test, mas_walk(&next), val(k));
		mas_set(&prev, ps_end(k));
		KUNIT_ASSERT_PTR_EQ(test, mas_walk(&prev), val(k));
		mas_set(&walk, ps_start(k) + 1);
		KUNIT_ASSERT_PTR_EQ(test, mas_walk(&walk), val(k));

		ps_write_of(c->kind, k, &first, &last, &entry);
		ps_write(test, &mt, api, k, first, last, entry);
		/* Whatever the write retired is freed now. */
		rcu_barrier();

		mas_set(&fresh, ps_start(k) - 1);
		mas_walk(&fresh);
		KUNIT_EXPECT_PTR_EQ(test, fresh.node, found.node);

		/* The next VMA, exactly, or none. */
		entry = mas_find(&found, ULONG_MAX);
		if (k < n) {
			KUNIT_EXPECT_PTR_EQ(test, entry, val(k + 1));
			KUNIT_EXPECT_EQ(test, found.index, ps_start(k + 1));
			KUNIT_EXPECT_EQ(test, found.last, ps_end(k + 1));
		} else {
			KUNIT_EXPECT_NULL(test, entry);
		}
		entry = mas_next(&next, ULONG_MAX);
		if (k < n) {
			KUNIT_EXPECT_PTR_EQ(test, entry, val(k + 1));
			KUNIT_EXPECT_EQ(test, next.index, ps_start(k + 1));
			KUNIT_EXPECT_EQ(test, next.last, ps_end(k + 1));
		} else {
			KUNIT_EXPECT_NULL(test, entry);
		}
		/* The VMA before, exactly, or none. */
		entry = mas_prev(&prev, 0);
		if (k > 1) {
			KUNIT_EXPECT_PTR_EQ(test, entry, val(k - 1));
			KUNIT_EXPECT_EQ(test, prev.index, ps_start(k - 1));
			KUNIT_EXPECT_EQ(test, prev.last, ps_end(k - 1));
		} else {
			KUNIT_EXPECT_NULL(test, entry);
		}
		/* A walk from the old start: the range there now. */
		mas_set(&walk, ps_start(k));
		entry = mas_walk(&walk);
		if (c->walk_null) {
			KUNIT_EXPECT_NULL(test, entry);
			KUNIT_EXPECT_EQ(test, walk.last, ps_start(k) + PS_MOVE - 1);
		} else {
			KUNIT_EXPECT_PTR_EQ(test, entry, c->kind == PS_REPLACE ?
					    val(1000) : val(k));
			KUNIT_EXPECT_EQ(test, walk.index,
					ps_start(k) + c->walk_first);
			KUNIT_EXPECT_EQ(test, walk.last,
					ps_end(k) + c->walk_last);
		}
		KUNIT_EXPECT_EQ(test, mt_validate_errors(&mt), 0);

		__mt_destroy(&mt);
		mutex_unlock(&lock);
	}
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * The range a state is on grows in place (a NULL stored over the head or
 * the tail of its neighbour): the range iterators then return that range
 * again with its new bounds, so that they move on and leave no index out,
 * and the searches for entries go on to the next entry.  (A replay of an
 * RCU stress failure: mas_next_range() returned with mas->last unchanged.)
 */
static void range_iterators_take_the_grown_range_again(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(range, &mt, 20, 20);
	MA_STATE(next, &mt, 20, 20);
	MA_STATE(back, &mt, 45, 45);
	MA_STATE(prev, &mt, 45, 45);
	void *entry;

	mt_init_flags(&mt, MT_FLAGS_USE_RCU);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 10, 19, val(1),
						GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 30, 39, val(2),
						GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 50, 59, val(3),
						GFP_KERNEL), 0);

	rcu_read_lock();
	KUNIT_ASSERT_NULL(test, mas_walk(&range));	/* [20, 29] */
	KUNIT_ASSERT_NULL(test, mas_walk(&next));
	KUNIT_ASSERT_NULL(test, mas_walk(&back));	/* [40, 49] */
	KUNIT_ASSERT_NULL(test, mas_walk(&prev));
	rcu_read_unlock();

	/* [20, 29] grows up to 34, [40, 49] down to 37: single stores. */
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 30, 34, NULL, GFP_KERNEL),
			0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 37, 39, NULL, GFP_KERNEL),
			0);
	EXPECT_TREE(test, &mt, { 10, 19, val(1) }, { 35, 36, val(2) },
		    { 50, 59, val(3) });

	rcu_read_lock();
	entry = mas_next_range(&range, ULONG_MAX);
	KUNIT_EXPECT_NULL(test, entry);
	KUNIT_EXPECT_EQ(test, range.index, 20UL);
	KUNIT_EXPECT_EQ(test, range.last, 34UL);
	KUNIT_EXPECT_PTR_EQ(test, mas_next_range(&range, ULONG_MAX), val(2));
	KUNIT_EXPECT_EQ(test, range.index, 35UL);
	KUNIT_EXPECT_EQ(test, range.last, 36UL);

	KUNIT_EXPECT_PTR_EQ(test, mas_next(&next, ULONG_MAX), val(2));
	KUNIT_EXPECT_EQ(test, next.index, 35UL);
	KUNIT_EXPECT_EQ(test, next.last, 36UL);

	entry = mas_prev_range(&back, 0);
	KUNIT_EXPECT_NULL(test, entry);
	KUNIT_EXPECT_EQ(test, back.index, 37UL);
	KUNIT_EXPECT_EQ(test, back.last, 49UL);
	KUNIT_EXPECT_PTR_EQ(test, mas_prev_range(&back, 0), val(2));
	KUNIT_EXPECT_EQ(test, back.index, 35UL);
	KUNIT_EXPECT_EQ(test, back.last, 36UL);

	KUNIT_EXPECT_PTR_EQ(test, mas_prev(&prev, 0), val(2));
	KUNIT_EXPECT_EQ(test, prev.index, 35UL);
	KUNIT_EXPECT_EQ(test, prev.last, 36UL);
	rcu_read_unlock();

	mtree_destroy(&mt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static struct kunit_case parked_state_cases[] = {
	KUNIT_CASE_PARAM(single_store_keeps_the_leaf_of_a_parked_state,
			 ps_case_gen_params),
	KUNIT_CASE(range_iterators_take_the_grown_range_again),
	{}
};

static struct kunit_suite parked_state_suite = {
	.name = "maple_parked_state",
	.test_cases = parked_state_cases,
};

kunit_test_suite(parked_state_suite);
