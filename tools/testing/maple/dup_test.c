// SPDX-License-Identifier: GPL-2.0+
/*
 * Duplicating a tree node for node: __mt_dup() (both trees' locks held by
 * the caller) and mtree_dup() (takes them itself).
 *
 * A copy must validate, read entry for entry as the source (same index,
 * last and entry pointer for every range), have the same height and flags,
 * and be made of exactly as many nodes as the source.  The source's node
 * count is not readable through the API, so it is taken from the
 * allocator: the live objects its building left behind (after
 * rcu_barrier(), from an empty tree, nothing else live in between); the
 * copy must add exactly that many.  Writes to the copy must not show in
 * the source and the other way round, and the copy must outlive the
 * source.  Duplicating into a tree that is not empty is -EINVAL; failing
 * any one allocation of the copy is -ENOMEM with the copy left empty and
 * nothing leaked.
 *
 * The random trees (1 to 100,000 ranges, inserted in random order, then
 * an eighth of them erased) take their seed from ktest_seed().
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

/*
 * Walk @a and @b side by side: every range must have the same index, last
 * and entry in both, and both must end together.
 */
static void expect_same_ranges(struct kunit *test, struct maple_tree *a,
			       struct maple_tree *b)
{
	MA_STATE(ma, a, 0, 0);
	MA_STATE(mb, b, 0, 0);
	unsigned long n = 0;
	void *ea, *eb;

	rcu_read_lock();
	for (;;) {
		ea = mas_find(&ma, ULONG_MAX);
		eb = mas_find(&mb, ULONG_MAX);
		if (!ea && !eb)
			break;
		if (ea != eb || ma.index != mb.index || ma.last != mb.last) {
			KUNIT_FAIL(test, "range %lu: source [%lu, %lu] -> %p, copy [%lu, %lu] -> %p",
				   n, ea ? ma.index : 0, ea ? ma.last : 0, ea,
				   eb ? mb.index : 0, eb ? mb.last : 0, eb);
			break;
		}
		n++;
	}
	rcu_read_unlock();
}

/* The flags a copy takes from its source. */
#define DUP_FLAGS	(MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU)

static void expect_same_shape(struct kunit *test, struct maple_tree *src,
			      struct maple_tree *dst)
{
	KUNIT_EXPECT_EQ(test, mt_validate_errors(dst), 0);
	KUNIT_EXPECT_EQ(test, mt_height(dst), mt_height(src));
	KUNIT_EXPECT_EQ(test, dst->ma_flags & DUP_FLAGS,
			src->ma_flags & DUP_FLAGS);
	expect_same_ranges(test, src, dst);
}

/* __mt_dup() under both spinlocks, so without sleeping. */
static int dup_locked(struct maple_tree *src, struct maple_tree *dst)
{
	int ret;

	mtree_lock(dst);
	mtree_lock(src);
	ret = __mt_dup(src, dst, GFP_NOWAIT);
	mtree_unlock(src);
	mtree_unlock(dst);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Random trees */

struct drange {
	unsigned long first, last;
	void *entry;
	bool present;
};

struct dup_case {
	const char *desc;
	unsigned long nr;
	unsigned int flags;
};

#define DUP_CASE(n, f, d)	{ .desc = #n " " d, .nr = n, .flags = f }
#define DUP_CASES(n)							\
	DUP_CASE(n, 0, "plain"),					\
	DUP_CASE(n, MT_FLAGS_ALLOC_RANGE, "alloc"),			\
	DUP_CASE(n, MT_FLAGS_USE_RCU, "rcu"),				\
	DUP_CASE(n, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU, "alloc rcu")

static const struct dup_case dup_cases[] = {
	DUP_CASES(1), DUP_CASES(10), DUP_CASES(100), DUP_CASES(1000),
	DUP_CASES(10000), DUP_CASES(100000),
};

KUNIT_ARRAY_PARAM_DESC(dup_cases, dup_cases, desc);

/*
 * @nr ascending, non-overlapping ranges: mostly short, one in eight up to
 * 1M long; one in four directly after the previous one, the others after a
 * gap of up to 4K.
 */
static void random_ranges(struct model_rng *rng, struct drange *r,
			  unsigned long nr)
{
	/* 100,000 of them fit a 32-bit index space only with less room. */
	unsigned long gap = BITS_PER_LONG == 64 ? 4096 : 512;
	unsigned long wide = BITS_PER_LONG == 64 ? 1UL << 20 : 1UL << 12;
	unsigned long i, next = model_rng_below(rng, 2) ?
				0 : model_rng_below(rng, gap);

	for (i = 0; i < nr; i++) {
		if (i && model_rng_below(rng, 4))
			next += 1 + model_rng_below(rng, gap);
		r[i].first = next;
		r[i].last = next + (model_rng_below(rng, 8) ?
				    model_rng_below(rng, 64) :
				    model_rng_below(rng, wide));
		r[i].entry = val(i + 1);
		r[i].present = false;
		next = r[i].last + 1;
	}
}

/* The tree must hold exactly the present ranges of @r. */
static void expect_ranges(struct kunit *test, struct maple_tree *mt,
			  const struct drange *r, unsigned long nr)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long i = 0;
	void *entry;

	rcu_read_lock();
	mas_for_each(&mas, entry, ULONG_MAX) {
		while (i < nr && !r[i].present)
			i++;
		if (i == nr) {
			KUNIT_FAIL(test, "extra range [%lu, %lu] -> %p",
				   mas.index, mas.last, entry);
			break;
		}
		if (mas.index != r[i].first || mas.last != r[i].last ||
		    entry != r[i].entry) {
			KUNIT_FAIL(test, "[%lu, %lu] -> %p, expected [%lu, %lu] -> %p",
				   mas.index, mas.last, entry, r[i].first,
				   r[i].last, r[i].entry);
			break;
		}
		i++;
	}
	rcu_read_unlock();
	while (i < nr && !r[i].present)
		i++;
	KUNIT_EXPECT_EQ_MSG(test, i, nr, "range %lu [%lu, %lu] missing", i,
			    i < nr ? r[i].first : 0, i < nr ? r[i].last : 0);
}

/*
 * Insert the ranges into @mt in random order, then erase an eighth of
 * them, again in random order.
 */
static void random_tree(struct kunit *test, struct model_rng *rng,
			struct maple_tree *mt, struct drange *r,
			unsigned long *order, unsigned long nr)
{
	unsigned long i, j, t;

	for (i = 0; i < nr; i++)
		order[i] = i;
	for (i = nr - 1; i > 0; i--) {
		j = model_rng_below(rng, i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < nr; i++) {
		struct drange *d = &r[order[i]];

		KUNIT_ASSERT_EQ(test, mtree_store_range(mt, d->first, d->last,
							d->entry, GFP_KERNEL),
				0);
		d->present = true;
	}
	for (i = 0; i < nr / 8; i++) {
		struct drange *d = &r[order[model_rng_below(rng, nr)]];

		if (!d->present)
			continue;
		KUNIT_ASSERT_PTR_EQ(test, mtree_erase(mt, d->last), d->entry);
		d->present = false;
	}
}

static void dup_of_random_tree_is_node_for_node_copy(struct kunit *test)
{
	const struct dup_case *c = test->param_value;
	unsigned long nr = c->nr, seed = ktest_seed(), k;
	struct maple_tree src, dst;
	struct model_rng rng;
	struct drange *r;
	unsigned long *order;
	long base, src_nodes, before, copy_live;

	/* Test memory first: it stays live across the counts below. */
	r = kunit_kmalloc_array(test, nr, sizeof(*r), GFP_KERNEL);
	order = kunit_kmalloc_array(test, nr, sizeof(*order), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, order);
	model_rng_seed(&rng, seed ^ (nr * 4 + c->flags));
	random_ranges(&rng, r, nr);

	mt_init_flags(&src, c->flags);
	base = live_objects();
	random_tree(test, &rng, &src, r, order, nr);
	src_nodes = live_objects() - base;
	KUNIT_ASSERT_EQ(test, mt_validate_errors(&src), 0);
	expect_ranges(test, &src, r, nr);

	mt_init_flags(&dst, c->flags);
	before = live_objects();
	KUNIT_ASSERT_EQ(test, dup_locked(&src, &dst), 0);
	KUNIT_EXPECT_EQ_MSG(test, live_objects() - before, src_nodes,
			    "copy of a tree of %ld nodes, height %u",
			    src_nodes, mt_height(&src));
	expect_same_shape(test, &src, &dst);
	expect_ranges(test, &dst, r, nr);
	kunit_info(test, "%lu ranges, %ld nodes, height %u", nr, src_nodes,
		   mt_height(&src));

	/* Overwrite one range of the copy in place: the source keeps it. */
	for (k = nr / 2; k < nr && !r[k].present; k++)
		;
	if (k < nr) {
		KUNIT_EXPECT_EQ(test, mtree_store_range(&dst, r[k].first,
							r[k].last, val(0),
							GFP_KERNEL), 0);
		expect_ranges(test, &src, r, nr);
		r[k].entry = val(0);
		expect_ranges(test, &dst, r, nr);
	}

	/* The copy shares no node with the source: it outlives it. */
	copy_live = live_objects();
	mtree_destroy(&src);
	KUNIT_EXPECT_EQ(test, live_objects(), copy_live - src_nodes);
	KUNIT_EXPECT_EQ(test, mt_validate_errors(&dst), 0);
	expect_ranges(test, &dst, r, nr);
	mtree_destroy(&dst);
	KUNIT_EXPECT_EQ(test, live_objects(), base);
}

/* ---------------------------------------------------------------------- */
/* Written-down cases */

static void dup_of_empty_tree_is_empty_and_allocates_nothing(struct kunit *test)
{
	DEFINE_MTREE(src);
	DEFINE_MTREE(dst);
	struct maple_tree dst2;
	long live = live_objects();

	KUNIT_EXPECT_EQ(test, mtree_dup(&src, &dst, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&dst));
	KUNIT_EXPECT_EQ(test, mt_height(&dst), 0U);
	KUNIT_EXPECT_NULL(test, mtree_load(&dst, 0));
	KUNIT_EXPECT_EQ(test, live_objects(), live);

	mt_init_flags(&dst2, MT_FLAGS_ALLOC_RANGE);
	KUNIT_EXPECT_EQ(test, dup_locked(&src, &dst2), 0);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&dst2));
	KUNIT_EXPECT_EQ(test, live_objects(), live);

	/* The empty copy is a usable tree. */
	KUNIT_EXPECT_EQ(test, mtree_store_range(&dst, 5, 9, val(1),
						GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&dst, 7), val(1));
	KUNIT_EXPECT_TRUE(test, mtree_empty(&src));
	mtree_destroy(&dst);
	mtree_destroy(&dst2);
	KUNIT_EXPECT_EQ(test, live_objects(), live);
}

static void dup_of_root_entry_tree_copies_entry_without_a_node(struct kunit *test)
{
	DEFINE_MTREE(src);
	DEFINE_MTREE(dst);
	struct maple_tree dst2;
	long live;

	KUNIT_ASSERT_EQ(test, mtree_store(&src, 0, val(1), GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mt_height(&src), 0U);
	live = live_objects();
	KUNIT_EXPECT_EQ(test, mtree_dup(&src, &dst, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, live_objects(), live);
	KUNIT_EXPECT_EQ(test, mt_height(&dst), 0U);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&dst, 0), val(1));
	KUNIT_EXPECT_NULL(test, mtree_load(&dst, 1));
	KUNIT_EXPECT_NULL(test, mtree_load(&dst, ULONG_MAX));
	expect_same_shape(test, &src, &dst);

	mt_init_flags(&dst2, MT_FLAGS_USE_RCU);
	KUNIT_EXPECT_EQ(test, dup_locked(&src, &dst2), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&dst2, 0), val(1));
	KUNIT_EXPECT_EQ(test, live_objects(), live);

	/* Replacing the copy's entry leaves the source's. */
	KUNIT_EXPECT_EQ(test, mtree_store(&dst, 0, val(2), GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&src, 0), val(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&dst, 0), val(2));
	KUNIT_EXPECT_PTR_EQ(test, mtree_erase(&src, 0), val(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&dst2, 0), val(1));
	mtree_destroy(&dst);
	mtree_destroy(&dst2);
	mtree_destroy(&src);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static void dup_into_non_empty_tree_is_einval_and_changes_neither(struct kunit *test)
{
	DEFINE_MTREE(src);
	DEFINE_MTREE(dst);
	DEFINE_MTREE(root);
	struct model ms, md;
	long live;
	unsigned long i;

	model_init(&ms);
	model_init(&md);
	for (i = 1; i <= 100; i++) {
		KUNIT_ASSERT_EQ(test, mtree_store_range(&src, i * 10,
							i * 10 + 4, val(i),
							GFP_KERNEL), 0);
		model_store_range(&ms, i * 10, i * 10 + 4, val(i));
	}
	/* A destination with a leaf, and one with only a root entry. */
	KUNIT_ASSERT_EQ(test, mtree_store_range(&dst, 5, 9, val(500),
						GFP_KERNEL), 0);
	model_store_range(&md, 5, 9, val(500));
	KUNIT_ASSERT_EQ(test, mtree_store(&root, 0, val(600), GFP_KERNEL), 0);

	live = live_objects();
	KUNIT_EXPECT_EQ(test, mtree_dup(&src, &dst, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, dup_locked(&src, &dst), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_dup(&src, &root, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, dup_locked(&src, &root), -EINVAL);
	KUNIT_EXPECT_EQ(test, live_objects(), live);
	KUNIT_EXPECT_MODEL(test, &src, &ms);
	KUNIT_EXPECT_MODEL(test, &dst, &md);
	KUNIT_EXPECT_EQ(test, mt_height(&dst), 1U);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&root, 0), val(600));
	KUNIT_EXPECT_NULL(test, mtree_load(&root, 1));
	KUNIT_EXPECT_EQ(test, mt_height(&root), 0U);

	mtree_destroy(&src);
	mtree_destroy(&dst);
	mtree_destroy(&root);
	model_destroy(&ms);
	model_destroy(&md);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

struct tree_mode {
	const char *desc;
	unsigned int flags;
};

static const struct tree_mode tree_modes[] = {
	{ "plain", 0 },
	{ "alloc", MT_FLAGS_ALLOC_RANGE },
	{ "rcu", MT_FLAGS_USE_RCU },
	{ "alloc rcu", MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU },
};

KUNIT_ARRAY_PARAM_DESC(tree_modes, tree_modes, desc);

/* [k * 16, k * 16 + 9] -> val(k) for k = 1 ... nr, into @mt and @m. */
static void fill(struct kunit *test, struct maple_tree *mt, struct model *m,
		 unsigned long nr)
{
	unsigned long k;

	for (k = 1; k <= nr; k++) {
		KUNIT_ASSERT_EQ(test, mtree_store_range(mt, k * 16, k * 16 + 9,
							val(k), GFP_KERNEL),
				0);
		model_store_range(m, k * 16, k * 16 + 9, val(k));
	}
}

static void dup_writes_to_either_tree_leave_the_other_unchanged(struct kunit *test)
{
	unsigned int flags = ((const struct tree_mode *)test->param_value)->flags;
	struct maple_tree src, dst;
	struct model ms, md;

	model_init(&ms);
	model_init(&md);
	mt_init_flags(&src, flags);
	mt_init_flags(&dst, flags);
	fill(test, &src, &ms, 2000);
	KUNIT_ASSERT_GE(test, mt_height(&src), 3U);
	KUNIT_ASSERT_EQ(test, mtree_dup(&src, &dst, GFP_KERNEL), 0);
	model_copy(&md, &ms);
	expect_same_shape(test, &src, &dst);

	/* Into the copy: a slot store, a spanning store, an insert, an erase. */
	KUNIT_EXPECT_EQ(test, mtree_store_range(&dst, 1000 * 16, 1000 * 16 + 9,
						val(9000), GFP_KERNEL), 0);
	model_store_range(&md, 1000 * 16, 1000 * 16 + 9, val(9000));
	KUNIT_EXPECT_EQ(test, mtree_store_range(&dst, 10 * 16 + 3, 300 * 16 + 3,
						NULL, GFP_KERNEL), 0);
	model_store_range(&md, 10 * 16 + 3, 300 * 16 + 3, NULL);
	KUNIT_EXPECT_EQ(test, mtree_insert_range(&dst, 1500 * 16 + 11,
						 1500 * 16 + 13, val(9001),
						 GFP_KERNEL), 0);
	model_store_range(&md, 1500 * 16 + 11, 1500 * 16 + 13, val(9001));
	KUNIT_EXPECT_PTR_EQ(test, mtree_erase(&dst, 1800 * 16), val(1800));
	model_erase(&md, 1800 * 16);
	KUNIT_EXPECT_MODEL(test, &src, &ms);
	KUNIT_EXPECT_MODEL(test, &dst, &md);

	/* Into the source. */
	KUNIT_EXPECT_EQ(test, mtree_store_range(&src, 500 * 16, 500 * 16 + 9,
						val(8000), GFP_KERNEL), 0);
	model_store_range(&ms, 500 * 16, 500 * 16 + 9, val(8000));
	KUNIT_EXPECT_EQ(test, mtree_store_range(&src, 1200 * 16, 1900 * 16,
						val(8001), GFP_KERNEL), 0);
	model_store_range(&ms, 1200 * 16, 1900 * 16, val(8001));
	KUNIT_EXPECT_PTR_EQ(test, mtree_erase(&src, 20 * 16), val(20));
	model_erase(&ms, 20 * 16);
	KUNIT_EXPECT_MODEL(test, &src, &ms);
	KUNIT_EXPECT_MODEL(test, &dst, &md);

	/* The copy outlives its source. */
	mtree_destroy(&src);
	rcu_barrier();
	KUNIT_EXPECT_MODEL(test, &dst, &md);
	mtree_destroy(&dst);
	model_destroy(&ms);
	model_destroy(&md);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * The fork pattern: VMA-tree flags, each tree under its own mutex, the
 * caller holding both, GFP_KERNEL.  The copy keeps its own lock type.
 */
static void dup_under_callers_mutexes_copies_vma_style_tree(struct kunit *test)
{
	const unsigned int flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU |
				   MT_FLAGS_LOCK_EXTERN;
	struct maple_tree src, dst;
	struct mutex src_lock, dst_lock;
	MA_STATE(mas, &src, 0, 0);
	long base, src_nodes, before;
	unsigned long k;

	mutex_init(&src_lock);
	mutex_init(&dst_lock);
	mt_init_flags(&src, flags);
	mt_set_external_lock(&src, &src_lock);
	mt_init_flags(&dst, flags);
	mt_set_external_lock(&dst, &dst_lock);

	base = live_objects();
	mutex_lock(&src_lock);
	for (k = 1; k <= 1000; k++) {
		/* mappings of 1 to 8 pages with a page of guard gap */
		mas_set_range(&mas, k * 0x10000,
			      k * 0x10000 + (k % 8 + 1) * 4096 - 1);
		KUNIT_ASSERT_EQ(test, mas_store_gfp(&mas, val(k), GFP_KERNEL),
				0);
	}
	mutex_unlock(&src_lock);
	src_nodes = live_objects() - base;
	KUNIT_ASSERT_GE(test, mt_height(&src), 2U);

	before = live_objects();
	mutex_lock(&dst_lock);
	mutex_lock(&src_lock);
	KUNIT_EXPECT_EQ(test, __mt_dup(&src, &dst, GFP_KERNEL), 0);
	mutex_unlock(&src_lock);
	mutex_unlock(&dst_lock);
	KUNIT_EXPECT_EQ(test, live_objects() - before, src_nodes);
	KUNIT_EXPECT_TRUE(test, mt_external_lock(&dst));
	expect_same_shape(test, &src, &dst);

	mutex_lock(&dst_lock);
	__mt_destroy(&dst);
	mutex_unlock(&dst_lock);
	mutex_lock(&src_lock);
	__mt_destroy(&src);
	mutex_unlock(&src_lock);
	KUNIT_EXPECT_EQ(test, live_objects(), base);
}

/*
 * Fail the n-th allocation of __mt_dup() for n = 1, 2, ... until it
 * succeeds without meeting the fault.  Each failure is -ENOMEM with the
 * copy empty (height 0) and no object left over; the source is untouched.
 * Every node of the copy is one allocation, so there is one failing run
 * per node of the source.
 */
static void enomem_mt_dup_leaves_copy_empty_and_leaks_nothing(struct kunit *test)
{
	unsigned int flags = ((const struct tree_mode *)test->param_value)->flags;
	struct maple_tree src, dst;
	char msg[MODEL_MSG_LEN];
	long base, src_nodes, live, hit = 1, failures = 0;
	struct model m;
	unsigned long n;
	int ret = -ENOMEM;

	model_init(&m);
	mt_init_flags(&src, flags);
	base = live_objects();
	/*
	 * 801 slots: at least 51 leaves, so three levels or more (on 32-bit,
	 * 2,001 slots: at least 63 leaves of 32).
	 */
	fill(test, &src, &m, BITS_PER_LONG == 64 ? 400 : 1000);
	src_nodes = live_objects() - base;
	KUNIT_ASSERT_GE(test, mt_height(&src), 3U);

	for (n = 1; n < 10000 && hit; n++) {
		mt_init_flags(&dst, flags);
		/* Nothing is pending in RCU: the count needs no barrier. */
		live = kmem_nr_live();
		kmem_fault_nth(n);
		ret = dup_locked(&src, &dst);
		hit = kmem_fault_count();
		kmem_fault_reset();
		if (ret) {
			failures++;
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
					    "failing allocation %lu", n);
			KUNIT_EXPECT_EQ_MSG(test, hit, 1L,
					    "failing allocation %lu", n);
			KUNIT_EXPECT_TRUE_MSG(test, mtree_empty(&dst),
					      "failing allocation %lu", n);
			KUNIT_EXPECT_EQ(test, mt_height(&dst), 0U);
			if (kmem_nr_live() != live)
				KUNIT_EXPECT_EQ_MSG(test, live_objects(), live,
						    "leak after failing allocation %lu",
						    n);
			if (model_compare(&src, &m, msg, sizeof(msg)))
				KUNIT_FAIL(test, "source after failing allocation %lu: %s",
					   n, msg);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, hit, 0L,
					    "__mt_dup() succeeded through failed allocation %lu",
					    n);
			KUNIT_EXPECT_EQ(test, live_objects() - live, src_nodes);
			KUNIT_EXPECT_MODEL(test, &dst, &m);
			expect_same_shape(test, &src, &dst);
		}
		mtree_destroy(&dst);
		if (test->status == KUNIT_FAILURE)
			break;
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, failures, src_nodes);
	kunit_info(test, "source of %ld nodes: %ld runs failed", src_nodes,
		   failures);
	mtree_destroy(&src);
	model_destroy(&m);
	KUNIT_EXPECT_EQ(test, live_objects(), base);
}

static struct kunit_case maple_dup_cases[] = {
	KUNIT_CASE_PARAM(dup_of_random_tree_is_node_for_node_copy,
			 dup_cases_gen_params),
	KUNIT_CASE(dup_of_empty_tree_is_empty_and_allocates_nothing),
	KUNIT_CASE(dup_of_root_entry_tree_copies_entry_without_a_node),
	KUNIT_CASE(dup_into_non_empty_tree_is_einval_and_changes_neither),
	KUNIT_CASE_PARAM(dup_writes_to_either_tree_leave_the_other_unchanged,
			 tree_modes_gen_params),
	KUNIT_CASE(dup_under_callers_mutexes_copies_vma_style_tree),
	KUNIT_CASE_PARAM(enomem_mt_dup_leaves_copy_empty_and_leaks_nothing,
			 tree_modes_gen_params),
	{}
};

static struct kunit_suite maple_dup_suite = {
	.name = "maple_dup",
	.test_cases = maple_dup_cases,
};

kunit_test_suite(maple_dup_suite);
