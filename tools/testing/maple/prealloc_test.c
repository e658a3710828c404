// SPDX-License-Identifier: GPL-2.0+
/*
 * Exact preallocation: mas_preallocate() must allocate exactly the nodes
 * the pending store will use, the store must then allocate nothing, and
 * allocation failure at any point of a preallocation or of a bulk store
 * (mas_expected_entries()) must change nothing and leak nothing.
 *
 * How a write is measured (prealloc_store()):
 *	requested = allocations made by mas_preallocate()
 *	then mas_store() (not mas_store_prealloc(), which would free the
 *	unused nodes): it must allocate nothing and leave mas.alloc NULL,
 *	i.e. use every node that was requested.
 *
 * The shapes with an exact count are built so that where the write lands
 * is known from the layout rules alone (16-slot leaves, a leaf other than
 * the rightmost one holds at least 6 slots, a NULL range is never split
 * across leaves):
 *	- replacing one range needs no node, RCU mode or not;
 *	- moving one boundary between two ranges of a leaf, or any other
 *	  change that stays inside one leaf, needs no node outside RCU mode
 *	  and, in RCU mode, none for a removal beside a NULL or a store into
 *	  empty slots of a leaf that is not the root, else exactly one (the
 *	  copy of the leaf).
 * Splits, spanning stores, rebalancing, height changes and random writes
 * are only held to "requested == used" (and "> 0" where a node must be
 * made).
 *
 * mas_expected_entries() is held to its kernel-doc: outside RCU mode its
 * pool must cover the ascending stores that follow.
 *
 * Every case runs over the tree modes of tree_modes[]: plain, allocation
 * tree, RCU, both, and the VMA tree's flags with an external mutex (the
 * mas_expected_entries() pool case over the first two only).
 */
#include <kunit/test.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"
#include "model.h"
#include "suite_helpers.h"

/* ---------------------------------------------------------------------- */
/* Helpers */

struct tree_mode {
	const char *desc;
	unsigned int flags;
};

#define VMA_FLAGS (MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU | MT_FLAGS_LOCK_EXTERN)

static const struct tree_mode tree_modes[] = {
	{ "plain", 0 },
	{ "alloc", MT_FLAGS_ALLOC_RANGE },
	{ "rcu", MT_FLAGS_USE_RCU },
	{ "alloc rcu", MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU },
	{ "vma external mutex", VMA_FLAGS },
};

KUNIT_ARRAY_PARAM_DESC(tree_modes, tree_modes, desc);

/*
 * A tree under test, the lock its writers hold and its model.  Trees with
 * MT_FLAGS_LOCK_EXTERN are written under @lock (a mutex, as the VMA tree's
 * mmap lock is a sleeping lock) with GFP_KERNEL; the others under their
 * own spinlock with GFP_NOWAIT.
 */
struct ptree {
	struct maple_tree mt;
	struct mutex lock;
	struct model m;
	bool ext;
	/* A store after a preparation is mas_store_prealloc(), not mas_store(). */
	bool store_prealloc;
};

static void pt_init(struct ptree *pt, unsigned int flags)
{
	pt->ext = flags & MT_FLAGS_LOCK_EXTERN;
	pt->store_prealloc = false;
	mutex_init(&pt->lock);
	mt_init_flags(&pt->mt, flags);
	if (pt->ext)
		mt_set_external_lock(&pt->mt, &pt->lock);
	model_init(&pt->m);
}

static void pt_lock(struct ptree *pt)
{
	if (pt->ext)
		mutex_lock(&pt->lock);
	else
		mtree_lock(&pt->mt);
}

static void pt_unlock(struct ptree *pt)
{
	if (pt->ext)
		mutex_unlock(&pt->lock);
	else
		mtree_unlock(&pt->mt);
}

static gfp_t pt_gfp(const struct ptree *pt)
{
	return pt->ext ? GFP_KERNEL : GFP_NOWAIT;
}

static void pt_destroy(struct ptree *pt)
{
	pt_lock(pt);
	__mt_destroy(&pt->mt);
	pt_unlock(pt);
	model_destroy(&pt->m);
}

/* Store without measuring (to build a tree), into the tree and the model. */
static void pt_store(struct kunit *test, struct ptree *pt,
		     unsigned long first, unsigned long last, void *entry)
{
	MA_STATE(mas, &pt->mt, first, last);
	int ret;

	pt_lock(pt);
	ret = mas_store_gfp(&mas, entry, GFP_KERNEL);
	pt_unlock(pt);
	mas_destroy(&mas);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "build store [%lu, %lu]", first,
			    last);
	model_store_range(&pt->m, first, last, entry);
}

static void pt_expect_model(struct kunit *test, struct ptree *pt)
{
	KUNIT_EXPECT_MODEL(test, &pt->mt, &pt->m);
}

/* Nodes still held by a maple state (for failure messages only). */
static unsigned long held_nodes(const struct ma_state *mas)
{
	if (!mas->alloc || ((unsigned long)mas->alloc & 1))
		return 0;
	return mas->alloc->total;
}

/*
 * mas_preallocate() then mas_store() of @entry over [@first, @last].
 * Checks that the store allocated nothing and used every node requested,
 * that the tree reads as the model and validates.  Returns the number of
 * nodes mas_preallocate() allocated, or -1 if it failed.
 */
static long prealloc_store(struct kunit *test, struct ptree *pt,
			   unsigned long first, unsigned long last, void *entry)
{
	MA_STATE(mas, &pt->mt, first, last);
	char msg[MODEL_MSG_LEN];
	long before, requested, store_allocs;
	unsigned long unused;
	bool err;
	int ret;

	pt_lock(pt);
	before = kmem_nr_allocated();
	ret = mas_preallocate(&mas, entry, pt_gfp(pt));
	requested = kmem_nr_allocated() - before;
	if (ret) {
		pt_unlock(pt);
		mas_destroy(&mas);
		KUNIT_FAIL(test, "mas_preallocate([%lu, %lu], %p) = %d",
			   first, last, entry, ret);
		return -1;
	}
	before = kmem_nr_allocated();
	mas_store(&mas, entry);
	store_allocs = kmem_nr_allocated() - before;
	err = mas_is_err(&mas);
	unused = held_nodes(&mas);
	KUNIT_EXPECT_NULL_MSG(test, mas.alloc,
			      "[%lu, %lu] <- %p: %lu of %ld preallocated nodes unused",
			      first, last, entry, unused, requested);
	mas_destroy(&mas);
	pt_unlock(pt);

	KUNIT_EXPECT_FALSE_MSG(test, err, "mas_store([%lu, %lu], %p) failed",
			       first, last, entry);
	KUNIT_EXPECT_EQ_MSG(test, store_allocs, 0L,
			    "[%lu, %lu] <- %p: mas_store() allocated after mas_preallocate() gave %ld",
			    first, last, entry, requested);
	model_store_range(&pt->m, first, last, entry);
	if (model_check_write(&pt->mt, &pt->m, first, last, msg, sizeof(msg)))
		KUNIT_FAIL(test, "[%lu, %lu] <- %p: %s", first, last, entry,
			   msg);
	KUNIT_EXPECT_EQ(test, mt_validate_errors(&pt->mt), 0);
	return requested;
}

/*
 * The ranges R(k) = [k * 64K, k * 64K + 8K - 1] -> val(k).  Built for
 * k = 1 ... nr in ascending order, each R(k) is followed by a NULL gap of
 * 56K, and index 0 starts with a NULL gap of 64K.
 */
#define R_STEP		0x10000UL
#define R_LEN		0x2000UL
#define R_FIRST(k)	((k) * R_STEP)
#define R_LAST(k)	((k) * R_STEP + R_LEN - 1)

static void build_ranges(struct kunit *test, struct ptree *pt,
			 unsigned long from, unsigned long to)
{
	unsigned long k;

	for (k = from; k <= to; k++)
		pt_store(test, pt, R_FIRST(k), R_LAST(k), val(k));
}

/*
 * R(1) ... R(5): NULL, R1, NULL, R2, NULL, R3, NULL, R4, NULL, R5, NULL is
 * 11 slots, a single root leaf.
 */
static void root_leaf_tree(struct kunit *test, struct ptree *pt,
			   unsigned int flags)
{
	pt_init(pt, flags);
	build_ranges(test, pt, 1, 5);
	KUNIT_ASSERT_EQ(test, mt_height(&pt->mt), 1U);
}

/*
 * Half a leaf's slots: 8 on 64-bit, 16 on 32-bit, where leaves hold 32.
 * The shapes below are written for 64-bit and scale with it.
 */
#define PT_HALF		(MAPLE_RANGE64_SLOTS / 2)

/*
 * R(1) ... R(8): 17 slots, two leaves.  The left one holds at least 6
 * slots, so the rightmost one, which holds the last NULL gap
 * [R_LAST(8) + 1, ULONG_MAX], holds at most 11.  (32-bit: R(16), 33.)
 */
static void two_leaf_tree(struct kunit *test, struct ptree *pt,
			  unsigned int flags)
{
	pt_init(pt, flags);
	build_ranges(test, pt, 1, PT_HALF);
	KUNIT_ASSERT_EQ(test, mt_height(&pt->mt), 2U);
}

/*
 * R(1) ... R(2000): 4001 slots need at least 251 leaves, more than one
 * 16-slot (or 10-slot) node can parent.  The first leaf holds at least 6
 * slots: NULL, R1, NULL, R2, NULL, R3.
 */
#define BIG_NR	2000UL
static void three_level_tree(struct kunit *test, struct ptree *pt,
			     unsigned int flags)
{
	pt_init(pt, flags);
	build_ranges(test, pt, 1, BIG_NR);
	KUNIT_ASSERT_GE(test, mt_height(&pt->mt), 3U);
}

/*
 * [0, 8K - 1] -> val(100), then R(1) ... R(7): 8 ranges and 8 NULL gaps,
 * a root leaf with all 16 slots used (32-bit: R(15), 32 slots).
 */
static void full_root_leaf_tree(struct kunit *test, struct ptree *pt,
				unsigned int flags)
{
	pt_init(pt, flags);
	pt_store(test, pt, 0, R_LEN - 1, val(100));
	build_ranges(test, pt, 1, PT_HALF - 1);
	KUNIT_ASSERT_EQ(test, mt_height(&pt->mt), 1U);
}

static unsigned int param_flags(struct kunit *test)
{
	return ((const struct tree_mode *)test->param_value)->flags;
}

/* ---------------------------------------------------------------------- */
/* Exact counts */

static void preallocate_slot_store_requests_no_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;

	/* In a root leaf: R3 replaced, then the NULL gap after R3 filled. */
	root_leaf_tree(test, &pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(3), R_LAST(3),
					     val(33)), 0L);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_LAST(3) + 1,
					     R_FIRST(4) - 1, val(34)), 0L);
	/* A range replaced by another entry a second time. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(3), R_LAST(3),
					     val(35)), 0L);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);

	/* Deep in a three-level tree, and its first and last ranges. */
	three_level_tree(test, &pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(1000),
					     R_LAST(1000), val(5000)), 0L);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(1),
					     R_LAST(1), val(5001)), 0L);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(BIG_NR),
					     R_LAST(BIG_NR), val(5002)), 0L);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/* The end of a range moves up into, or down away from, the NULL after it. */
static void preallocate_end_boundary_move_requests_no_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	/* One pivot store, in RCU mode too. */
	const long no_node = 0;
	struct ptree pt;

	root_leaf_tree(test, &pt, flags);
	/* R2 grows by a page into the NULL gap after it. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(2),
					     R_LAST(2) + 4096, val(2)),
			no_node);
	/* The last page of R4 becomes NULL, joining the gap after it. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_LAST(4) - 4095,
					     R_LAST(4), NULL), no_node);
	/* R2 grows again. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(2),
					     R_LAST(2) + 8192, val(2)),
			no_node);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);

	/* The same in the first leaf of a three-level tree. */
	three_level_tree(test, &pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(1),
					     R_LAST(1) + 4096, val(1)),
			no_node);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_LAST(2) - 4095,
					     R_LAST(2), NULL), no_node);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/* The start of a range moves down into, or up away from, the NULL before. */
static void preallocate_start_boundary_move_requests_no_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	/* One pivot store, in RCU mode too. */
	const long no_node = 0;
	struct ptree pt;

	root_leaf_tree(test, &pt, flags);
	/* R3 grows by a page down into the NULL gap before it. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(3) - 4096,
					     R_LAST(3), val(3)), no_node);
	/* The first page of R5 becomes NULL, joining the gap before it. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(5),
					     R_FIRST(5) + 4095, NULL),
			no_node);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);

	/* R2 grows down by a page, in the first leaf of a three-level tree. */
	three_level_tree(test, &pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(2) - 4096,
					     R_LAST(2), val(2)), no_node);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * mas_preallocate() of @entry over [@first, @last], then mas_store() of it
 * over [@first2, @last2], the caller having moved the range in between.
 * The store must be the one asked for at the time of the store: what
 * mas_preallocate() recorded (a slot, one boundary) is checked, not
 * trusted.  The returned entry is the one that was at @first2.
 */
static void prealloc_then_store_entry(struct kunit *test, struct ptree *pt,
				      unsigned long first, unsigned long last,
				      void *entry, unsigned long first2,
				      unsigned long last2, void *entry2)
{
	MA_STATE(mas, &pt->mt, first, last);
	char msg[MODEL_MSG_LEN];
	void *old, *want = model_load(&pt->m, first2);
	bool err;
	int ret;

	pt_lock(pt);
	ret = mas_preallocate(&mas, entry, pt_gfp(pt));
	mas.index = first2;
	mas.last = last2;
	if (ret) {
		old = NULL;
	} else if (pt->store_prealloc) {
		/* It returns nothing; the model check below covers it. */
		mas_store_prealloc(&mas, entry2);
		old = want;
	} else {
		old = mas_store(&mas, entry2);
	}
	err = mas_is_err(&mas);
	mas_destroy(&mas);
	pt_unlock(pt);

	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "mas_preallocate([%lu, %lu])",
			    first, last);
	KUNIT_EXPECT_FALSE(test, err);
	KUNIT_EXPECT_PTR_EQ_MSG(test, old, want,
				"[%lu, %lu] (prepared [%lu, %lu]) <- %p",
				first2, last2, first, last, entry2);
	model_store_range(&pt->m, first2, last2, entry2);
	if (model_check_write(&pt->mt, &pt->m, first2, last2, msg,
			      sizeof(msg)))
		KUNIT_FAIL(test, "[%lu, %lu] (prepared [%lu, %lu]) <- %p: %s",
			   first2, last2, first, last, entry2, msg);
	KUNIT_EXPECT_EQ(test, mt_validate_errors(&pt->mt), 0);
}

/* Prepared for one range, stored over another (the same entry). */
static void prealloc_then_store_other(struct kunit *test, struct ptree *pt,
				      unsigned long first, unsigned long last,
				      void *entry, unsigned long first2,
				      unsigned long last2)
{
	prealloc_then_store_entry(test, pt, first, last, entry, first2, last2,
				  entry);
}

/*
 * The single stores of preallocated_single_store_is_checked_at_the_store(),
 * into @pt, a three_level_tree().
 */
static void prepared_single_stores_moved(struct kunit *test, struct ptree *pt)
{
	unsigned long k;

	/* A grown end, then grown further: still one boundary. */
	prealloc_then_store_other(test, pt, R_FIRST(10), R_LAST(10) + 4096,
				  val(10), R_FIRST(10), R_LAST(10) + 8192);
	/* A grown end, then over the start of the next range. */
	prealloc_then_store_other(test, pt, R_FIRST(20), R_LAST(20) + 4096,
				  val(20), R_FIRST(20), R_FIRST(21) + 4095);
	/* A NULL over a range's tail, then over all of it. */
	prealloc_then_store_other(test, pt, R_LAST(30) - 4095, R_LAST(30),
				  NULL, R_FIRST(30), R_LAST(30));
	/* A NULL over a range's head, then over its middle. */
	prealloc_then_store_other(test, pt, R_FIRST(40), R_FIRST(40) + 4095,
				  NULL, R_FIRST(40) + 4096, R_FIRST(40) + 4199);
	/* A range replaced, then the range and a page after it. */
	prealloc_then_store_other(test, pt, R_FIRST(50), R_LAST(50), val(99),
				  R_FIRST(50), R_LAST(50) + 4096);
	/* A range replaced, then a range in another leaf. */
	prealloc_then_store_other(test, pt, R_FIRST(60), R_LAST(60), val(98),
				  R_FIRST(1500), R_LAST(1500));
	/* A start moved down, then a NULL gap filled exactly. */
	prealloc_then_store_other(test, pt, R_FIRST(70) - 4096, R_LAST(70),
				  val(70), R_LAST(70) + 1, R_FIRST(71) - 1);
	/* A grown end, then the same range with another entry. */
	prealloc_then_store_entry(test, pt, R_FIRST(90), R_LAST(90) + 4096,
				  val(90), R_FIRST(90), R_LAST(90) + 4096,
				  val(990));
	/* A NULL over a range's tail, then an entry over it. */
	prealloc_then_store_entry(test, pt, R_LAST(91) - 4095, R_LAST(91),
				  NULL, R_LAST(91) - 4095, R_LAST(91),
				  val(991));
	/* A start moved down, then the same range with another entry. */
	prealloc_then_store_entry(test, pt, R_FIRST(92) - 4096, R_LAST(92),
				  val(92), R_FIRST(92) - 4096, R_LAST(92),
				  val(992));
	/* Each kind of move stored as prepared, with the entry it replaces. */
	prealloc_then_store_other(test, pt, R_FIRST(94), R_LAST(94) + 4096,
				  val(94), R_FIRST(94), R_LAST(94) + 4096);
	prealloc_then_store_other(test, pt, R_LAST(95) - 4095, R_LAST(95),
				  NULL, R_LAST(95) - 4095, R_LAST(95));
	prealloc_then_store_other(test, pt, R_FIRST(96), R_FIRST(96) + 4095,
				  NULL, R_FIRST(96), R_FIRST(96) + 4095);
	prealloc_then_store_other(test, pt, R_FIRST(97) - 4096, R_LAST(97),
				  val(97), R_FIRST(97) - 4096, R_LAST(97));
	prealloc_then_store_other(test, pt, R_LAST(98) + 1,
				  R_FIRST(99) + 4095, NULL, R_LAST(98) + 1,
				  R_FIRST(99) + 4095);
	/*
	 * The same beside a larger gap, so that a move's leaf gap is known
	 * without a look at the leaf (what a record needs in an allocation
	 * tree; beside equal gaps it takes none).
	 */
	for (k = 200; k < 260; k += 4) {
		prealloc_then_store_other(test, pt, R_FIRST(k), R_LAST(k), NULL,
					  R_FIRST(k), R_LAST(k));
		prealloc_then_store_entry(test, pt, R_FIRST(k + 1),
					  R_LAST(k + 1) + 4096, val(k + 1),
					  R_FIRST(k + 1), R_LAST(k + 1) + 4096,
					  val(k + 5001));
		prealloc_then_store_other(test, pt, R_FIRST(k + 2),
					  R_LAST(k + 2) + 4096, val(k + 2),
					  R_FIRST(k + 2), R_LAST(k + 2) + 4096);
		prealloc_then_store_entry(test, pt, R_LAST(k + 3) - 4095,
					  R_LAST(k + 3), NULL, R_LAST(k + 3) - 4095,
					  R_LAST(k + 3), val(k + 5003));
		prealloc_then_store_other(test, pt, R_LAST(k + 3) - 4095,
					  R_LAST(k + 3), NULL, R_LAST(k + 3) - 4095,
					  R_LAST(k + 3));
	}
}

/*
 * A single store prepared, then the state walked to another leaf and set
 * to a range there that would be a single store of the same kind: the
 * store must not take the preparation's leaf or slot.
 */
static void prepared_single_store_walked_elsewhere(struct kunit *test,
						   struct ptree *pt)
{
	MA_STATE(mas, &pt->mt, R_FIRST(80), R_LAST(80) + 4096);
	char msg[MODEL_MSG_LEN];
	int ret;

	pt_lock(pt);
	ret = mas_preallocate(&mas, val(80), pt_gfp(pt));
	mas_set(&mas, R_FIRST(1400));
	KUNIT_EXPECT_PTR_EQ(test, mas_walk(&mas), val(1400));
	mas.index = R_FIRST(1400);
	mas.last = R_LAST(1400) + 4096;
	if (!ret)
		mas_store_prealloc(&mas, val(1400));
	mas_destroy(&mas);
	pt_unlock(pt);

	KUNIT_ASSERT_EQ(test, ret, 0);
	model_store_range(&pt->m, R_FIRST(1400), R_LAST(1400) + 4096,
			  val(1400));
	if (model_check_write(&pt->mt, &pt->m, R_FIRST(1400),
			      R_LAST(1400) + 4096, msg, sizeof(msg)))
		KUNIT_FAIL(test, "walked elsewhere: %s", msg);
	KUNIT_EXPECT_EQ(test, mt_validate_errors(&pt->mt), 0);
}

static void preallocated_single_store_is_checked_at_the_store(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;

	/* Through mas_store(), then through mas_store_prealloc(). */
	three_level_tree(test, &pt, flags);
	prepared_single_stores_moved(test, &pt);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);

	three_level_tree(test, &pt, flags);
	pt.store_prealloc = true;
	prepared_single_stores_moved(test, &pt);
	prepared_single_store_walked_elsewhere(test, &pt);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * A one-leaf rewrite prepared, then the range moved to the previous range
 * (mostly in the same leaf): the store must find its slot again, not take
 * the one the preparing walk found.
 */
static void preallocated_rewrite_moved_in_its_leaf_is_found_again(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;
	unsigned long k;

	three_level_tree(test, &pt, flags);
	/* Room in the leaves: every third range erased. */
	for (k = 100; k < 160; k += 3)
		prealloc_store(test, &pt, R_FIRST(k), R_LAST(k), NULL);
	/* Prepared: a new tail of range k + 1; stored: one of range k. */
	for (k = 101; k < 160; k += 3)
		prealloc_then_store_other(test, &pt, R_FIRST(k + 1) + 4096,
					  R_LAST(k + 1), val(k + 5000),
					  R_FIRST(k) + 4096, R_LAST(k));
	/*
	 * Prepared: a range into the middle of a gap (NULL, entry, NULL);
	 * stored: a NULL over the same range, which merges instead.  In RCU
	 * mode the store finds the preparation's record and must not take it.
	 */
	for (k = 101; k < 160; k += 3)
		prealloc_then_store_entry(test, &pt, R_LAST(k) + 0x3000,
					  R_LAST(k) + 0x3fff, val(k + 6000),
					  R_LAST(k) + 0x3000,
					  R_LAST(k) + 0x3fff, NULL);
	/* The other way round: a NULL prepared, an entry stored. */
	for (k = 101; k < 160; k += 3)
		prealloc_then_store_entry(test, &pt, R_FIRST(k) + 0x100,
					  R_FIRST(k) + 0x1ff, NULL,
					  R_FIRST(k) + 0x100,
					  R_FIRST(k) + 0x1ff, val(k + 8000));
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void preallocate_in_leaf_insert_requests_node_only_in_rcu(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	long no_node = (flags & MT_FLAGS_USE_RCU) ? 1 : 0;
	struct ptree pt;

	/* 11 slots: each insert adds at most 2 and stays in the root leaf. */
	root_leaf_tree(test, &pt, flags);
	/* Into the middle of the gap after R1: NULL, E, NULL. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_LAST(1) + 0x1000,
					     R_LAST(1) + 0x1fff, val(11)),
			no_node);
	/* At the start of the gap after R3: E, NULL. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_LAST(3) + 1,
					     R_LAST(3) + 0x100, val(31)),
			no_node);
	/* Inside R5: R5, E, R5. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(5) + 0x100,
					     R_FIRST(5) + 0x1ff, val(51)),
			no_node);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 1U);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);

	/*
	 * Into the last NULL gap, in a rightmost leaf of at most 11 slots:
	 * the two unused slots after it take the entry and the NULL after
	 * it, in place in RCU mode too (a fill, see maple_empty_slot).
	 */
	two_leaf_tree(test, &pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(2 * PT_HALF),
					     R_LAST(2 * PT_HALF), val(16)),
			0L);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 2U);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void preallocate_in_leaf_erase_requests_node_only_in_rcu(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	long no_node = (flags & MT_FLAGS_USE_RCU) ? 1 : 0;
	struct ptree pt;

	/* 11 slots, then 9, then 7: NULL gaps merge, root leaf stays. */
	root_leaf_tree(test, &pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(3), R_LAST(3),
					     NULL), no_node);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, R_FIRST(1), R_LAST(1),
					     NULL), no_node);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 1U);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * Leaves filled to all 16 slots: an erase frees two slots (outside RCU
 * mode; in it the two stay, empty), a range into the middle of the merged
 * gap takes them back (a rewrite in place, or a fill of the two empty
 * slots in RCU mode) and shrinks what was the leaf's largest gap, so that
 * its gap is looked for again.  Each write is checked against the model
 * and validated; those at a leaf's edge (a NULL merging across leaves) go
 * the full way, the others must take no node.
 */
static void preallocate_rewrite_fills_a_leaf(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	unsigned long k, nr_no_node = 0;
	struct ptree pt;

	three_level_tree(test, &pt, flags);
	for (k = 300; k < 340; k++) {
		prealloc_store(test, &pt, R_FIRST(k), R_LAST(k), NULL);
		nr_no_node += prealloc_store(test, &pt, R_FIRST(k) + 0x1000,
					     R_LAST(k) + 0x1000,
					     val(k + 7000)) == 0;
	}
	/*
	 * In RCU mode an erase whose NULL would reach the leaf's end is a
	 * copy too (it would shrink the leaf's used slots), and so is the
	 * store after it: about one leaf in eight ranges.
	 */
	KUNIT_EXPECT_GE(test, nr_no_node,
			(flags & MT_FLAGS_USE_RCU) ? 25UL : 30UL);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * The bounds of the leaf holding @index, as a walk leaves them in the
 * state.
 */
static void leaf_bounds(struct ptree *pt, unsigned long index,
			unsigned long *min, unsigned long *max)
{
	MA_STATE(mas, &pt->mt, index, index);

	pt_lock(pt);
	mas_walk(&mas);
	*min = mas.min;
	*max = mas.max;
	pt_unlock(pt);
}

/*
 * A NULL at a leaf's edge next to an entry in the neighbour leaf stands
 * alone: it merges with nothing across the leaves, so the write stays in
 * its leaf.  The leaves of an ascending build start with the gap after a
 * range; for such a gap G before R(k), at the start of its leaf L, after
 * R(k - 1) at the end of the leaf before, P:
 *  - G filled and erased again: slot stores, the erase a NULL at L's start
 *    between two entries: no node in any mode;
 *  - G filled, then R(k - 1) erased: it merges with the gap before it in
 *    P, a new NULL at P's end beside G's entry: a one-leaf write.
 */
static void null_at_leaf_edge_beside_entry_stays_in_leaf(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	long one_leaf = (flags & MT_FLAGS_USE_RCU) ? 1 : 0;
	unsigned long k, g, min, max, edges = 0;
	struct ptree pt;

	three_level_tree(test, &pt, flags);
	for (k = 100; k < BIG_NR - 100 && edges < 8; k += 3) {
		g = R_LAST(k - 1) + 1;
		leaf_bounds(&pt, g, &min, &max);
		if (min != g)
			continue;
		edges++;
		KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, g,
						     R_FIRST(k) - 1,
						     val(k + 9000)), 0L);
		KUNIT_EXPECT_EQ_MSG(test, prealloc_store(test, &pt, g,
							 R_FIRST(k) - 1, NULL),
				    0L, "gap before R(%lu) erased at a leaf's start",
				    k);
		KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, g,
						     R_FIRST(k) - 1,
						     val(k + 9000)), 0L);
		KUNIT_EXPECT_EQ_MSG(test, prealloc_store(test, &pt,
							 R_FIRST(k - 1),
							 R_LAST(k - 1), NULL),
				    one_leaf, "R(%lu) erased at a leaf's end",
				    k - 1);
	}
	KUNIT_EXPECT_GE(test, edges, 4UL);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void preallocate_into_empty_and_root_entry_trees(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;

	/* An entry at 0 alone lives in the root pointer: no node. */
	pt_init(&pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, 0, 0, val(1)), 0L);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 0U);
	/* Replacing it: still no node. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, 0, 0, val(2)), 0L);
	/* A second range needs the root leaf: [0] -> 2, [5, 9], NULL. */
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, 5, 9, val(3)), 1L);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 1U);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);

	/* NULL, E, NULL into an empty tree: one leaf. */
	pt_init(&pt, flags);
	KUNIT_EXPECT_EQ(test, prealloc_store(test, &pt, 10, 19, val(1)), 1L);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 1U);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/* ---------------------------------------------------------------------- */
/* Shapes that need nodes: requested == used */

static void preallocate_leaf_split_and_height_growth_use_every_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;
	long nodes, split = 0;
	unsigned long i;

	/* 16 + 2 slots cannot stay in one leaf: the root splits. */
	full_root_leaf_tree(test, &pt, flags);
	nodes = prealloc_store(test, &pt, R_LAST(4) + 0x1000,
			       R_LAST(4) + 0x1fff, val(41));
	KUNIT_EXPECT_GT(test, nodes, 0L);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 2U);

	/*
	 * 24 more ranges into the gap after R2: 47 more slots, 65 in all,
	 * more than two 16-slot leaves hold, so at least one insert splits
	 * a leaf.  (32-bit: 48 more, 129 in all.)
	 */
	for (i = 0; i < 3 * PT_HALF; i++) {
		nodes = prealloc_store(test, &pt, R_LAST(2) + 1 + i * 0x400,
				       R_LAST(2) + 0x1ff + i * 0x400,
				       val(200 + i));
		if (nodes > 0)
			split++;
	}
	KUNIT_EXPECT_GT(test, split, 0L);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void preallocate_spanning_store_uses_every_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;

	three_level_tree(test, &pt, flags);
	/* Across hundreds of leaves, cutting R100 and R900 short. */
	KUNIT_EXPECT_GT(test, prealloc_store(test, &pt, R_FIRST(100) + 5,
					     R_LAST(900) - 5, val(9000)), 0L);
	/* NULL over R1000 ... R1500 and the gaps between. */
	KUNIT_EXPECT_GT(test, prealloc_store(test, &pt, R_FIRST(1000),
					     R_LAST(1500), NULL), 0L);
	/* From a NULL gap into the middle of a range, a few leaves on. */
	KUNIT_EXPECT_GT(test, prealloc_store(test, &pt, R_LAST(1600) + 7,
					     R_FIRST(1700) + 7, val(9001)), 0L);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void preallocate_rebalance_uses_every_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;
	long nodes, rebuilt = 0;
	unsigned long k;

	three_level_tree(test, &pt, flags);
	/*
	 * Erase R500 ... R530 one by one.  A leaf holds at most 8 ranges,
	 * so some non-rightmost leaf loses all of its ranges and would fall
	 * under 6 slots: at least one erase rebalances.
	 */
	for (k = 500; k <= 530; k++) {
		nodes = prealloc_store(test, &pt, R_FIRST(k), R_LAST(k), NULL);
		if (nodes > 0)
			rebuilt++;
	}
	KUNIT_EXPECT_GT(test, rebuilt, 0L);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void preallocate_height_shrink_uses_every_node(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct ptree pt;

	three_level_tree(test, &pt, flags);
	/*
	 * NULL, R1, NULL, R2000, NULL is left: 5 slots, too few for any
	 * non-rightmost leaf, so one new root leaf.
	 */
	KUNIT_EXPECT_GT(test, prealloc_store(test, &pt, R_FIRST(2),
					     R_LAST(BIG_NR - 1), NULL), 0L);
	KUNIT_EXPECT_EQ(test, mt_height(&pt.mt), 1U);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * Random preallocate + store pairs on a tree kept between about 100 and
 * 600 ranges: small inserts, exact overwrites and erases of existing
 * ranges, their ends moved, and wide spanning stores.
 */
#define RANDOM_WRITES	4000
#define RANDOM_SPAN	(1UL << 22)

static void random_write(struct model_rng *rng, const struct model *m,
			 unsigned long *first, unsigned long *last,
			 void **entry)
{
	unsigned long pick = model_rng_below(rng, 16);
	const struct model_range *r = NULL;
	unsigned long len;

	*entry = model_rng_below(rng, 4) ? val(model_rng_below(rng, 1000) + 1)
					 : NULL;
	if (m->nr > 600 && pick < 8)
		*entry = NULL;
	if (m->nr)
		r = &m->r[model_rng_below(rng, m->nr)];
	if (r && pick < 4) {
		/* exactly one existing range */
		*first = r->first;
		*last = r->last;
	} else if (r && pick < 6) {
		/* move its end by up to 4K either way */
		*first = r->first;
		len = model_rng_below(rng, 4096) + 1;
		*last = model_rng_below(rng, 2) || r->last - r->first < len ?
			r->last + len : r->last - len;
		if (m->nr < 100)
			*entry = r->entry;
	} else if (r && pick < 7) {
		/* move its start */
		*last = r->last;
		len = model_rng_below(rng, 4096) + 1;
		*first = r->first >= len && model_rng_below(rng, 2) ?
			 r->first - len : r->first + (r->last > r->first);
	} else if (pick < 15) {
		*first = model_rng_below(rng, RANDOM_SPAN);
		*last = *first + model_rng_below(rng, 4096);
		if (m->nr < 100)
			*entry = val(model_rng_below(rng, 1000) + 1);
	} else {
		/* spanning store */
		*first = model_rng_below(rng, RANDOM_SPAN);
		*last = *first + model_rng_below(rng, RANDOM_SPAN / 8);
	}
}

/* A tree of @flags with 300 random ranges of up to 4 KiB. */
static void pt_init_random(struct kunit *test, struct ptree *pt,
			   struct model_rng *rng, unsigned int flags)
{
	unsigned long i, first;

	pt_init(pt, flags);
	for (i = 0; i < 300; i++) {
		first = model_rng_below(rng, RANDOM_SPAN);
		pt_store(test, pt, first, first + model_rng_below(rng, 4096),
			 val(i + 1));
	}
}

static void preallocate_random_stores_request_exactly_what_they_use(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	struct model_rng rng;
	struct ptree pt;
	unsigned long i, first, last, seed = ktest_seed();
	unsigned long with_nodes = 0, without = 0;
	void *entry;
	long nodes;

	model_rng_seed(&rng, seed ^ flags);
	pt_init_random(test, &pt, &rng, flags);
	for (i = 0; i < RANDOM_WRITES; i++) {
		random_write(&rng, &pt.m, &first, &last, &entry);
		nodes = prealloc_store(test, &pt, first, last, entry);
		if (nodes > 0)
			with_nodes++;
		else
			without++;
		if (test->status == KUNIT_FAILURE) {
			kunit_info(test, "write %lu: [%lu, %lu] <- %p; seed %lu (replay with SEED=%lu)",
				   i, first, last, entry, seed, seed);
			break;
		}
		if (i % 500 == 499)
			pt_expect_model(test, &pt);
	}
	pt_expect_model(test, &pt);
	kunit_info(test, "%lu writes with nodes, %lu without, %lu ranges at the end",
		   with_nodes, without, pt.m.nr);
	/* The mix must have exercised both kinds of write. */
	KUNIT_EXPECT_GT(test, with_nodes, 0UL);
	KUNIT_EXPECT_GT(test, without, 0UL);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * Writes start from the leaf their state stands on: a state walked to a
 * random place (mas_walk(), mas_find(), mas_next(), mas_prev(), near the
 * write's range or anywhere), then moved to the range with
 * __mas_set_range() and written through mas_store_gfp() or
 * mas_preallocate() + mas_store() (held to exact preallocation), up to
 * three times in a row without a reset.  Ranges in the walked leaf, in
 * another leaf and across leaves; the tree must read as the model and
 * validate after each write.
 */
#define WALKED_WRITES	3000

/* Walk @mas to somewhere near @first, or anywhere; under the tree lock. */
static void walk_somewhere(struct model_rng *rng, struct ma_state *mas,
			   unsigned long first)
{
	unsigned long at = model_rng_below(rng, 2) ? first :
			   model_rng_below(rng, RANDOM_SPAN);

	mas_set(mas, at);
	switch (model_rng_below(rng, 4)) {
	case 0:
		mas_walk(mas);
		break;
	case 1:
		mas_find(mas, ULONG_MAX);
		break;
	case 2:
		mas_walk(mas);
		mas_next(mas, ULONG_MAX);
		break;
	default:
		mas_walk(mas);
		mas_prev(mas, 0);
		break;
	}
}

static void writes_start_from_the_leaf_a_walk_left(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	unsigned long i, n, first, last, seed = ktest_seed();
	unsigned long prepared = 0, stored = 0;
	char msg[MODEL_MSG_LEN];
	struct model_rng rng;
	struct ptree pt;
	void *entry;

	model_rng_seed(&rng, seed ^ flags);
	pt_init_random(test, &pt, &rng, flags);
	for (i = 0; i < WALKED_WRITES && test->status != KUNIT_FAILURE; i++) {
		MA_STATE(mas, &pt.mt, 0, 0);

		random_write(&rng, &pt.m, &first, &last, &entry);
		pt_lock(&pt);
		walk_somewhere(&rng, &mas, first);
		for (n = model_rng_below(&rng, 3) + 1; n; n--) {
			bool prep = model_rng_below(&rng, 2);
			long before = 0, allocs = 0;
			int ret;

			__mas_set_range(&mas, first, last);
			if (prep) {
				ret = mas_preallocate(&mas, entry, pt_gfp(&pt));
				before = kmem_nr_allocated();
				if (!ret)
					mas_store(&mas, entry);
				allocs = kmem_nr_allocated() - before;
				ret = ret ?: mas_is_err(&mas);
				prepared++;
			} else {
				ret = mas_store_gfp(&mas, entry, pt_gfp(&pt));
				stored++;
			}
			KUNIT_EXPECT_EQ_MSG(test, ret, 0,
					    "write %lu: [%lu, %lu] <- %p",
					    i, first, last, entry);
			KUNIT_EXPECT_EQ_MSG(test, allocs, 0L,
					    "write %lu: [%lu, %lu] <- %p allocated after mas_preallocate()",
					    i, first, last, entry);
			KUNIT_EXPECT_NULL_MSG(test, mas.alloc,
					      "write %lu: [%lu, %lu] <- %p left preallocated nodes",
					      i, first, last, entry);
			mas_destroy(&mas);
			model_store_range(&pt.m, first, last, entry);
			if (model_check_write(&pt.mt, &pt.m, first, last, msg,
					      sizeof(msg)))
				KUNIT_FAIL(test, "write %lu: [%lu, %lu] <- %p: %s",
					   i, first, last, entry, msg);
			KUNIT_EXPECT_EQ(test, mt_validate_errors(&pt.mt), 0);
			if (test->status == KUNIT_FAILURE)
				break;
			random_write(&rng, &pt.m, &first, &last, &entry);
		}
		pt_unlock(&pt);
	}
	if (test->status == KUNIT_FAILURE)
		kunit_info(test, "failed at write %lu; seed %lu (replay with SEED=%lu)",
			   i - 1, seed, seed);
	pt_expect_model(test, &pt);
	kunit_info(test, "%lu prepared writes, %lu mas_store_gfp(), %lu ranges at the end; seed %lu",
		   prepared, stored, pt.m.nr, seed);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * mas_reserve_stores() for a random store and up to three more, then the
 * stores with every allocation made to fail: none may fail, and the tree
 * must read as the model after each.  600 rounds from an empty tree up to
 * a few hundred ranges (height growth, spanning stores, rebalancing).
 * Then a failing allocation inside the reservation: -ENOMEM, the tree
 * untouched, nothing left allocated.
 */
#define RESERVE_ROUNDS	600

/* A random write; in the first half of the rounds never NULL (growth). */
static void reserve_write(struct model_rng *rng, const struct model *m,
			  unsigned long round, unsigned long *first,
			  unsigned long *last, void **entry)
{
	random_write(rng, m, first, last, entry);
	if (round < RESERVE_ROUNDS / 2 && !*entry)
		*entry = val(round + 1);
}

static void reserved_stores_cannot_fail(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	unsigned long i, j, n, first, last, seed = ktest_seed();
	unsigned long held, took, most = 0, most_height = 0;
	struct model_rng rng;
	struct ptree pt;
	long live, before;
	unsigned int height;
	void *entry;
	int ret;

	model_rng_seed(&rng, seed ^ flags);
	pt_init(&pt, flags);
	for (i = 0; i < RESERVE_ROUNDS && test->status != KUNIT_FAILURE; i++) {
		MA_STATE(mas, &pt.mt, 0, 0);

		n = model_rng_below(&rng, 4);
		reserve_write(&rng, &pt.m, i, &first, &last, &entry);
		pt_lock(&pt);
		mas_set_range(&mas, first, last);
		ret = mas_reserve_stores(&mas, entry, n, pt_gfp(&pt));
		KUNIT_ASSERT_EQ(test, ret, 0);
		kmem_fault_after(0);
		before = kmem_nr_allocated();
		for (j = 0; j <= n; j++) {
			if (j) {
				reserve_write(&rng, &pt.m, i, &first, &last,
					      &entry);
				mas_set_range(&mas, first, last);
			}
			held = held_nodes(&mas);
			height = mt_height(&pt.mt);
			mas_store(&mas, entry);
			if (mas_is_err(&mas)) {
				KUNIT_FAIL(test, "round %lu, store %lu of %lu: [%lu, %lu] <- %p failed; seed %lu (replay with SEED=%lu)",
					   i, j + 1, n + 1, first, last, entry,
					   seed, seed);
				break;
			}
			/* Each store within the documented bound. */
			took = held - held_nodes(&mas);
			KUNIT_EXPECT_LE_MSG(test, took, 3UL * height + 1,
					    "round %lu, store %lu: [%lu, %lu] <- %p at height %u",
					    i, j + 1, first, last, entry, height);
			if (took > most) {
				most = took;
				most_height = height;
			}
			model_store_range(&pt.m, first, last, entry);
		}
		kmem_fault_reset();
		mas_destroy(&mas);
		pt_unlock(&pt);
		KUNIT_EXPECT_EQ(test, kmem_nr_allocated(), before);
		if (i % 50 == 49)
			pt_expect_model(test, &pt);
	}
	pt_expect_model(test, &pt);
	KUNIT_EXPECT_EQ(test, mt_validate_errors(&pt.mt), 0);
	kunit_info(test, "%lu ranges, height %u at the end; most nodes one store took: %lu, at height %lu; seed %lu",
		   pt.m.nr, mt_height(&pt.mt), most, most_height, seed);
	/* The tree must have grown past a root leaf. */
	KUNIT_EXPECT_GT(test, mt_height(&pt.mt), 1U);

	/* A failing allocation inside the reservation. */
	for (n = 1; n < 8; n++) {
		MA_STATE(mas, &pt.mt, R_FIRST(1), R_FIRST(1) + 0x1000);

		live = live_objects();
		pt_lock(&pt);
		kmem_fault_nth(n);
		ret = mas_reserve_stores(&mas, val(1), 2, pt_gfp(&pt));
		kmem_fault_reset();
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "failing allocation %lu", n);
		KUNIT_EXPECT_NULL(test, mas.alloc);
		mas_destroy(&mas);
		pt_unlock(&pt);
		KUNIT_EXPECT_EQ_MSG(test, live_objects(), live,
				    "leak after failing allocation %lu", n);
	}
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/* ---------------------------------------------------------------------- */
/* Allocation failure */

/*
 * Fail the n-th allocation of mas_preallocate() for n = 1, 2, ... until it
 * succeeds without meeting the fault.  Each failure returns -ENOMEM, leaves
 * the tree as the model says and, after mas_destroy(), nothing more live
 * than before.  The success then stores without allocating; it must have
 * made exactly as many allocations as there were failing runs.
 */
static void preallocate_sweep(struct kunit *test, struct ptree *pt,
			      unsigned long first, unsigned long last,
			      void *entry, bool must_allocate)
{
	long live, before, requested = 0, store_allocs, failures = 0, hit;
	char msg[MODEL_MSG_LEN];
	unsigned long n;
	int ret = -ENOMEM;

	for (n = 1; n < 1000; n++) {
		MA_STATE(mas, &pt->mt, first, last);

		live = live_objects();
		pt_lock(pt);
		before = kmem_nr_allocated();
		kmem_fault_nth(n);
		ret = mas_preallocate(&mas, entry, pt_gfp(pt));
		hit = kmem_fault_count();
		kmem_fault_reset();
		requested = kmem_nr_allocated() - before;
		if (ret) {
			pt_unlock(pt);
			mas_destroy(&mas);
			failures++;
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
					    "failing allocation %lu", n);
			KUNIT_EXPECT_EQ_MSG(test, hit, 1L,
					    "failing allocation %lu", n);
			KUNIT_EXPECT_EQ_MSG(test, live_objects(), live,
					    "leak after failing allocation %lu",
					    n);
			if (model_compare(&pt->mt, &pt->m, msg, sizeof(msg)))
				KUNIT_FAIL(test, "failing allocation %lu: %s",
					   n, msg);
			if (test->status == KUNIT_FAILURE)
				return;
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, hit, 0L,
				    "mas_preallocate() succeeded through failed allocation %lu",
				    n);
		before = kmem_nr_allocated();
		mas_store(&mas, entry);
		store_allocs = kmem_nr_allocated() - before;
		KUNIT_EXPECT_FALSE(test, mas_is_err(&mas));
		KUNIT_EXPECT_NULL(test, mas.alloc);
		mas_destroy(&mas);
		pt_unlock(pt);
		KUNIT_EXPECT_EQ(test, store_allocs, 0L);
		break;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	/* Each allocation of the successful call failed once before. */
	KUNIT_EXPECT_EQ(test, failures, requested);
	if (must_allocate)
		KUNIT_EXPECT_GT(test, failures, 0L);
	model_store_range(&pt->m, first, last, entry);
	pt_expect_model(test, pt);
}

static void enomem_preallocate_changes_nothing_and_leaks_nothing(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	bool rcu = flags & MT_FLAGS_USE_RCU;
	struct ptree pt;

	/* In-leaf insert: one node in RCU mode, none otherwise. */
	root_leaf_tree(test, &pt, flags);
	preallocate_sweep(test, &pt, R_LAST(1) + 0x1000, R_LAST(1) + 0x1fff,
			  val(11), rcu);
	pt_destroy(&pt);

	/* Root leaf split: height growth. */
	full_root_leaf_tree(test, &pt, flags);
	preallocate_sweep(test, &pt, R_LAST(4) + 0x1000, R_LAST(4) + 0x1fff,
			  val(41), true);
	pt_destroy(&pt);

	/* Spanning stores over a three-level tree: an entry, then NULL. */
	three_level_tree(test, &pt, flags);
	preallocate_sweep(test, &pt, R_FIRST(100) + 5, R_LAST(900) - 5,
			  val(9000), true);
	preallocate_sweep(test, &pt, R_FIRST(1000), R_LAST(1500), NULL, true);
	/* Height shrink. */
	preallocate_sweep(test, &pt, R_FIRST(2), R_LAST(BIG_NR - 1), NULL,
			  true);
	pt_destroy(&pt);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * mas_expected_entries(nr) on an empty tree, then nr ascending mas_store()
 * calls, then mas_destroy(), with the n-th allocation of the whole sequence
 * failing, for n = 1, 2, ... until no fault is met.  If
 * mas_expected_entries() fails it returns -ENOMEM and the tree stays empty;
 * if a store fails, the sequence stops there (as dup_mmap() does) and the
 * tree holds exactly the ranges stored before it.  Either way, once the
 * tree is destroyed nothing is live.
 */
#define BULK_NR	100UL

static void expected_entries_sweep(struct kunit *test, unsigned int flags)
{
	char msg[MODEL_MSG_LEN];
	unsigned long n, i, stored = 0, early = 0, late = 0;
	long hit = 1;
	int ret;

	for (n = 1; n < 10000 && hit; n++) {
		struct ptree pt;
		MA_STATE(mas, &pt.mt, 0, 0);

		pt_init(&pt, flags);
		/* It allocates with GFP_KERNEL: before a spinlock. */
		kmem_fault_nth(n);
		ret = mas_expected_entries(&mas, BULK_NR);
		pt_lock(&pt);
		stored = 0;
		if (!ret) {
			for (i = 1; i <= BULK_NR; i++) {
				mas_set_range(&mas, R_FIRST(i), R_LAST(i));
				mas_store(&mas, val(i));
				if (mas_is_err(&mas))
					break;
				model_store_range(&pt.m, R_FIRST(i),
						  R_LAST(i), val(i));
				stored++;
			}
		}
		hit = kmem_fault_count();
		kmem_fault_reset();
		if (ret || stored < BULK_NR) {
			if (ret) {
				early++;
				KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
						    "failing allocation %lu", n);
			} else {
				late++;
				KUNIT_EXPECT_EQ_MSG(test, xa_err(mas.node),
						    -ENOMEM,
						    "store %lu, failing allocation %lu",
						    stored + 1, n);
			}
			KUNIT_EXPECT_EQ_MSG(test, hit, 1L,
					    "failing allocation %lu", n);
		}
		mas_destroy(&mas);
		pt_unlock(&pt);
		if (model_compare(&pt.mt, &pt.m, msg, sizeof(msg)))
			KUNIT_FAIL(test, "failing allocation %lu, %lu stored: %s",
				   n, stored, msg);
		KUNIT_EXPECT_EQ(test, mt_validate_errors(&pt.mt), 0);
		pt_destroy(&pt);
		KUNIT_EXPECT_EQ_MSG(test, live_objects(), 0L,
				    "leak after failing allocation %lu", n);
		if (test->status == KUNIT_FAILURE)
			break;
	}
	KUNIT_EXPECT_EQ(test, hit, 0L);
	KUNIT_EXPECT_EQ(test, stored, BULK_NR);
	/* The pool allocation itself must have been failed at least once. */
	KUNIT_EXPECT_GT(test, early, 0UL);
	kunit_info(test, "%lu runs: %lu failed in mas_expected_entries(), %lu in a store",
		   n - 1, early, late);
}

static void enomem_expected_entries_keeps_stored_prefix_and_leaks_nothing(struct kunit *test)
{
	expected_entries_sweep(test, param_flags(test));
}

/*
 * mas_expected_entries() "allocates enough nodes for @nr_entries ranges
 * (and the gaps between them) appended in ascending order".  Outside RCU
 * mode nothing forces a node to be copied, so the appends must take every
 * node from that pool and allocate none of their own; mas_destroy() then
 * frees what is left, leaving exactly the tree's nodes live.
 */
static const struct tree_mode no_rcu_modes[] = {
	{ "plain", 0 },
	{ "alloc", MT_FLAGS_ALLOC_RANGE },
};

KUNIT_ARRAY_PARAM_DESC(no_rcu_modes, no_rcu_modes, desc);

static void expected_entries_pool_covers_ascending_stores(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	static const unsigned long sizes[] = { 10, 100, 1000, 5000 };
	unsigned long i, k, nr;
	long before, pool, store_allocs, live;
	struct ptree pt;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		MA_STATE(mas, &pt.mt, 0, 0);

		nr = sizes[i];
		pt_init(&pt, flags);
		live = live_objects();
		before = kmem_nr_allocated();
		KUNIT_ASSERT_EQ(test, mas_expected_entries(&mas, nr), 0);
		pool = kmem_nr_allocated() - before;
		pt_lock(&pt);
		before = kmem_nr_allocated();
		for (k = 1; k <= nr; k++) {
			mas_set_range(&mas, R_FIRST(k), R_LAST(k));
			mas_store(&mas, val(k));
			KUNIT_ASSERT_FALSE(test, mas_is_err(&mas));
			model_store_range(&pt.m, R_FIRST(k), R_LAST(k), val(k));
		}
		store_allocs = kmem_nr_allocated() - before;
		mas_destroy(&mas);
		pt_unlock(&pt);
		KUNIT_EXPECT_EQ_MSG(test, store_allocs, 0L,
				    "%lu ascending stores after a pool of %ld nodes",
				    nr, pool);
		pt_expect_model(test, &pt);
		kunit_info(test, "%lu entries: pool %ld, stores allocated %ld, tree %ld nodes",
			   nr, pool, store_allocs, live_objects() - live);
		pt_destroy(&pt);
		KUNIT_EXPECT_EQ(test, live_objects(), live);
	}
}

/*
 * mas_preallocate() for a rewrite (an entry inside a NULL range), then the
 * state pointed with __mas_set_range() at another range of the same leaf,
 * one that is a single store from the slot that holds it -- but a boundary
 * move from the slot the preparation found: range [25, 29] stored with
 * B, which [20, 29] already holds.  The store must take the slot of its
 * own first index (it took the prepared one, moved the boundary after it
 * and gave [20, 24] to the NULL before it).
 */
static void store_after_preparing_another_range_takes_its_own_slot(struct kunit *test)
{
	unsigned int flags = param_flags(test);
	void *a = val(1), *b = val(2), *c = val(3), *x = val(4);
	int use_gfp, ret;
	struct ptree pt;

	for (use_gfp = 0; use_gfp < 2; use_gfp++) {
		MA_STATE(mas, &pt.mt, 12, 14);

		pt_init(&pt, flags);
		pt_store(test, &pt, 0, 9, a);
		pt_store(test, &pt, 20, 29, b);
		pt_store(test, &pt, 40, 49, c);
		pt_lock(&pt);
		ret = mas_preallocate(&mas, x, pt_gfp(&pt));
		if (!ret) {
			__mas_set_range(&mas, 25, 29);
			if (use_gfp)
				ret = mas_store_gfp(&mas, b, pt_gfp(&pt));
			else
				mas_store_prealloc(&mas, b);
		}
		pt_unlock(&pt);
		mas_destroy(&mas);
		KUNIT_EXPECT_EQ(test, ret, 0);
		model_store_range(&pt.m, 25, 29, b);
		KUNIT_EXPECT_PTR_EQ_MSG(test, mtree_load(&pt.mt, 22), b,
					"%s", use_gfp ? "mas_store_gfp" :
					"mas_store_prealloc");
		pt_expect_model(test, &pt);
		pt_destroy(&pt);
	}
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * mas_store_prealloc() on a state that never had a mas_preallocate()
 * breaks the contract (its store may need a node it cannot report failing
 * to get): debug builds warn, once, and the store is still done.  A state
 * prepared once may store more than once, as Linux 6.1's __vma_adjust()
 * does: no warning.
 */
static void store_prealloc_without_preallocate_warns(struct kunit *test)
{
	long warnings = kernel_warn_count();
	struct ptree pt;

	ktest_allow_warnings(test);
	root_leaf_tree(test, &pt, MT_FLAGS_ALLOC_RANGE);
	{
		MA_STATE(mas, &pt.mt, R_FIRST(3), R_LAST(3));

		pt_lock(&pt);
		mas_store_prealloc(&mas, val(33));
		pt_unlock(&pt);
		mas_destroy(&mas);
	}
	model_store_range(&pt.m, R_FIRST(3), R_LAST(3), val(33));
	KUNIT_EXPECT_EQ(test, kernel_warn_count() - warnings, 1);
	pt_expect_model(test, &pt);

	/* After a mas_preallocate(), no warning. */
	warnings = kernel_warn_count();
	{
		MA_STATE(mas, &pt.mt, R_FIRST(2), R_LAST(2));

		pt_lock(&pt);
		KUNIT_EXPECT_EQ(test, mas_preallocate(&mas, val(22),
						      GFP_NOWAIT), 0);
		mas_store_prealloc(&mas, val(22));
		mas_set_range(&mas, R_FIRST(4), R_LAST(4));
		mas_store_prealloc(&mas, val(44));
		pt_unlock(&pt);
		mas_destroy(&mas);
	}
	model_store_range(&pt.m, R_FIRST(2), R_LAST(2), val(22));
	model_store_range(&pt.m, R_FIRST(4), R_LAST(4), val(44));
	KUNIT_EXPECT_EQ(test, kernel_warn_count() - warnings, 0);
	pt_expect_model(test, &pt);
	pt_destroy(&pt);
}

static struct kunit_case maple_prealloc_cases[] = {
	KUNIT_CASE(store_prealloc_without_preallocate_warns),
	KUNIT_CASE_PARAM(preallocate_slot_store_requests_no_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(null_at_leaf_edge_beside_entry_stays_in_leaf,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(store_after_preparing_another_range_takes_its_own_slot,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_end_boundary_move_requests_no_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_start_boundary_move_requests_no_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocated_single_store_is_checked_at_the_store,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocated_rewrite_moved_in_its_leaf_is_found_again,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_in_leaf_insert_requests_node_only_in_rcu,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_in_leaf_erase_requests_node_only_in_rcu,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_rewrite_fills_a_leaf,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_into_empty_and_root_entry_trees,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_leaf_split_and_height_growth_use_every_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_spanning_store_uses_every_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_rebalance_uses_every_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_height_shrink_uses_every_node,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(preallocate_random_stores_request_exactly_what_they_use,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(writes_start_from_the_leaf_a_walk_left,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(reserved_stores_cannot_fail, tree_modes_gen_params),
	KUNIT_CASE_PARAM(enomem_preallocate_changes_nothing_and_leaks_nothing,
			 tree_modes_gen_params),
	KUNIT_CASE_PARAM(expected_entries_pool_covers_ascending_stores,
			 no_rcu_modes_gen_params),
	KUNIT_CASE_PARAM(enomem_expected_entries_keeps_stored_prefix_and_leaks_nothing,
			 tree_modes_gen_params),
	{}
};

static struct kunit_suite maple_prealloc_suite = {
	.name = "maple_prealloc",
	.test_cases = maple_prealloc_cases,
};

kunit_test_suite(maple_prealloc_suite);
