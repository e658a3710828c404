// SPDX-License-Identifier: GPL-2.0+
/*
 * KUnit suites for the maple tree.
 *
 * Written for the maple project.  The same file runs in a kernel through
 * the real KUnit (CONFIG_MAPLE_TREE_KUNIT_TEST, scripts/kunit-uml.sh) and in
 * userspace through the KUnit stand-in of tools/include/kunit/, so only
 * kernel interfaces are used: the tree's API, kunit_*() and kmalloc().
 *
 * Each case builds a tree, does one kind of thing to it and compares the
 * outcome with values written down in the case.
 */

#include <kunit/test.h>
#include <linux/maple_tree.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/errno.h>
#include <linux/limits.h>

/* Entries are xa values: never reserved, easy to tell apart. */
static inline void *kv(unsigned long v)
{
	return xa_mk_value(v);
}

/* [i * 10, i * 10 + 5] -> kv(i) for i in [0, count). */
static void kfill_tens(struct kunit *test, struct maple_tree *mt,
		       unsigned long count)
{
	unsigned long i;

	for (i = 0; i < count; i++)
		KUNIT_ASSERT_EQ(test, mtree_store_range(mt, i * 10, i * 10 + 5,
							kv(i), GFP_KERNEL), 0);
}

/* How many indices of [0, count * 10) do not read what kfill_tens() put. */
static unsigned long kbad_tens(struct maple_tree *mt, unsigned long count)
{
	unsigned long i, bad = 0;

	for (i = 0; i < count * 10; i++) {
		void *want = (i % 10) <= 5 ? kv(i / 10) : NULL;

		if (mtree_load(mt, i) != want)
			bad++;
	}
	return bad;
}

#ifdef CONFIG_DEBUG_MAPLE_TREE
#define KEXPECT_VALID(test, mt)	KUNIT_EXPECT_EQ(test, mt_validate_errors(mt), 0)
#else
#define KEXPECT_VALID(test, mt)	do { } while (0)
#endif

/* ---- maple_tree_normal: the normal API ------------------------------ */

static void normal_new_tree_reads_null_everywhere(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 0));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 12345));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, ULONG_MAX));
	KUNIT_EXPECT_EQ(test, mt_height(&mt), 0U);
	mtree_destroy(&mt);
}

static void normal_store_range_covers_exactly_its_indices(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 10, 20, kv(1),
						GFP_KERNEL), 0);
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 9));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 10), kv(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 15), kv(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 20), kv(1));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 21));
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
}

static void normal_store_inside_range_splits_it(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 0, 99, kv(1),
						GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 40, 49, kv(2),
						GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 39), kv(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 40), kv(2));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 49), kv(2));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 50), kv(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 99), kv(1));
	mtree_destroy(&mt);
}

static void normal_insert_over_occupied_index_is_eexist(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	KUNIT_ASSERT_EQ(test, mtree_insert_range(&mt, 100, 199, kv(1),
						 GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, mtree_insert_range(&mt, 50, 100, kv(2),
						 GFP_KERNEL), -EEXIST);
	KUNIT_EXPECT_EQ(test, mtree_insert(&mt, 199, kv(2), GFP_KERNEL),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, mtree_insert_range(&mt, 200, 299, kv(3),
						 GFP_KERNEL), 0);
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 99));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 200), kv(3));
	mtree_destroy(&mt);
}

static void normal_bad_arguments_are_einval(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	KUNIT_EXPECT_EQ(test, mtree_store_range(&mt, 20, 10, kv(1),
						GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_insert_range(&mt, 20, 10, kv(1),
						 GFP_KERNEL), -EINVAL);
	/*
	 * Internal entries below 4096 are the tree's own: refused with a
	 * warning, as in Linux 6.1 (tools/testing/maple/api_test.c checks it,
	 * so that this suite leaves no WARNING in a kernel's log).
	 */
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	mtree_destroy(&mt);
}

static void normal_erase_returns_entry_and_frees_range(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	kfill_tens(test, &mt, 100);
	KUNIT_EXPECT_PTR_EQ(test, mtree_erase(&mt, 503), kv(50));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 500));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 505));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 495), kv(49));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 510), kv(51));
	/* Erasing in a gap finds nothing. */
	KUNIT_EXPECT_NULL(test, mtree_erase(&mt, 508));
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
}

static void normal_thousands_of_ranges_read_back(struct kunit *test)
{
	struct maple_tree mt;

	mt_init(&mt);
	kfill_tens(test, &mt, 5000);
	KUNIT_EXPECT_GE(test, mt_height(&mt), 3U);
	KUNIT_EXPECT_EQ(test, kbad_tens(&mt, 5000), 0UL);
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
}

static void normal_iteration_visits_entries_in_order(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long index = 0, n = 0, bad = 0;
	void *entry;

	mt_init(&mt);
	kfill_tens(test, &mt, 400);
	mt_for_each(&mt, entry, index, ULONG_MAX) {
		if (entry != kv(n))
			bad++;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 400UL);
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	index = 1237;
	KUNIT_EXPECT_PTR_EQ(test, mt_find(&mt, &index, ULONG_MAX), kv(124));
	KUNIT_EXPECT_EQ(test, index, 1246UL);
	KUNIT_EXPECT_PTR_EQ(test, mt_next(&mt, 1240, ULONG_MAX), kv(125));
	KUNIT_EXPECT_PTR_EQ(test, mt_prev(&mt, 1240, 0), kv(123));
	mtree_destroy(&mt);
}

static struct kunit_case maple_tree_normal_cases[] = {
	KUNIT_CASE(normal_new_tree_reads_null_everywhere),
	KUNIT_CASE(normal_store_range_covers_exactly_its_indices),
	KUNIT_CASE(normal_store_inside_range_splits_it),
	KUNIT_CASE(normal_insert_over_occupied_index_is_eexist),
	KUNIT_CASE(normal_bad_arguments_are_einval),
	KUNIT_CASE(normal_erase_returns_entry_and_frees_range),
	KUNIT_CASE(normal_thousands_of_ranges_read_back),
	KUNIT_CASE(normal_iteration_visits_entries_in_order),
	{}
};

static struct kunit_suite maple_tree_normal_suite = {
	.name = "maple_tree_normal",
	.test_cases = maple_tree_normal_cases,
};

/* ---- maple_tree_advanced: ma_state operations ----------------------- */

static void advanced_walk_returns_entry_and_bounds(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 33, 33);

	mt_init(&mt);
	kfill_tens(test, &mt, 10);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, mas_walk(&mas), kv(3));
	KUNIT_EXPECT_EQ(test, mas.index, 30UL);
	KUNIT_EXPECT_EQ(test, mas.last, 35UL);
	mas_set(&mas, 37);
	KUNIT_EXPECT_NULL(test, mas_walk(&mas));
	KUNIT_EXPECT_EQ(test, mas.index, 36UL);
	KUNIT_EXPECT_EQ(test, mas.last, 39UL);
	mas_set(&mas, 1000);
	KUNIT_EXPECT_NULL(test, mas_walk(&mas));
	KUNIT_EXPECT_EQ(test, mas.index, 96UL);
	KUNIT_EXPECT_EQ(test, mas.last, ULONG_MAX);
	rcu_read_unlock();
	mtree_destroy(&mt);
}

static void advanced_store_returns_previous_entry(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 10, 19);

	mt_init(&mt);
	mas_lock(&mas);
	KUNIT_EXPECT_NULL(test, mas_store(&mas, kv(1)));
	mas_set_range(&mas, 10, 19);
	KUNIT_EXPECT_PTR_EQ(test, mas_store(&mas, kv(2)), kv(1));
	mas_set(&mas, 15);
	KUNIT_EXPECT_PTR_EQ(test, mas_erase(&mas), kv(2));
	mas_unlock(&mas);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	mtree_destroy(&mt);
}

static void advanced_store_gfp_checks_its_range(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 50, 40);

	mt_init(&mt);
	mas_lock(&mas);
	KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, kv(1), GFP_KERNEL),
			-EINVAL);
	mas_set_range(&mas, 40, 50);
	KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, kv(1), GFP_KERNEL), 0);
	mas_unlock(&mas);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 45), kv(1));
	mtree_destroy(&mt);
}

static void advanced_find_with_pause_visits_everything(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 0, 0);
	unsigned long n = 0, bad = 0;
	void *entry;

	mt_init(&mt);
	kfill_tens(test, &mt, 300);
	rcu_read_lock();
	mas_for_each(&mas, entry, ULONG_MAX) {
		if (entry != kv(n) || mas.index != n * 10 ||
		    mas.last != n * 10 + 5)
			bad++;
		n++;
		mas_pause(&mas);
		KUNIT_EXPECT_TRUE(test, mas_is_paused(&mas));
	}
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, n, 300UL);
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	mtree_destroy(&mt);
}

static void advanced_find_rev_walks_down_to_min(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 999, 999);
	unsigned long n = 100, bad = 0;
	void *entry;

	mt_init(&mt);
	kfill_tens(test, &mt, 100);
	rcu_read_lock();
	while ((entry = mas_find_rev(&mas, 200)) != NULL) {
		n--;
		if (entry != kv(n))
			bad++;
	}
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, n, 20UL);
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	mtree_destroy(&mt);
}

static void advanced_next_and_prev_step_over_gaps(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 71, 71);

	mt_init(&mt);
	kfill_tens(test, &mt, 50);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, mas_walk(&mas), kv(7));
	KUNIT_EXPECT_PTR_EQ(test, mas_next(&mas, ULONG_MAX), kv(8));
	KUNIT_EXPECT_EQ(test, mas.index, 80UL);
	KUNIT_EXPECT_PTR_EQ(test, mas_prev(&mas, 0), kv(7));
	KUNIT_EXPECT_PTR_EQ(test, mas_prev(&mas, 0), kv(6));
	KUNIT_EXPECT_EQ(test, mas.last, 65UL);
	/* Bounded: nothing starts in [66, 69]. */
	KUNIT_EXPECT_PTR_EQ(test, mas_next(&mas, 69), NULL);
	rcu_read_unlock();
	mtree_destroy(&mt);
}

static void advanced_range_iterators_return_gaps_too(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 0, 0);

	mt_init(&mt);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 10, 19, kv(1),
						GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 30, 39, kv(2),
						GFP_KERNEL), 0);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, mas_find_range(&mas, ULONG_MAX));
	KUNIT_EXPECT_EQ(test, mas.last, 9UL);
	KUNIT_EXPECT_PTR_EQ(test, mas_find_range(&mas, ULONG_MAX), kv(1));
	KUNIT_EXPECT_NULL(test, mas_next_range(&mas, ULONG_MAX));
	KUNIT_EXPECT_EQ(test, mas.index, 20UL);
	KUNIT_EXPECT_EQ(test, mas.last, 29UL);
	KUNIT_EXPECT_PTR_EQ(test, mas_next_range(&mas, ULONG_MAX), kv(2));
	KUNIT_EXPECT_NULL(test, mas_next_range(&mas, ULONG_MAX));
	KUNIT_EXPECT_EQ(test, mas.index, 40UL);
	KUNIT_EXPECT_EQ(test, mas.last, ULONG_MAX);
	KUNIT_EXPECT_PTR_EQ(test, mas_prev_range(&mas, 0), kv(2));
	KUNIT_EXPECT_EQ(test, mas.index, 30UL);
	rcu_read_unlock();
	mtree_destroy(&mt);
}

static struct kunit_case maple_tree_advanced_cases[] = {
	KUNIT_CASE(advanced_walk_returns_entry_and_bounds),
	KUNIT_CASE(advanced_store_returns_previous_entry),
	KUNIT_CASE(advanced_store_gfp_checks_its_range),
	KUNIT_CASE(advanced_find_with_pause_visits_everything),
	KUNIT_CASE(advanced_find_rev_walks_down_to_min),
	KUNIT_CASE(advanced_next_and_prev_step_over_gaps),
	KUNIT_CASE(advanced_range_iterators_return_gaps_too),
	{}
};

static struct kunit_suite maple_tree_advanced_suite = {
	.name = "maple_tree_advanced",
	.test_cases = maple_tree_advanced_cases,
};

/* ---- maple_tree_alloc: allocation trees ------------------------------ */

/* Used: [0, 9], [20, 29], [35, 99]; free: [10, 19], [30, 34], [100, ...]. */
static void kalloc_tree(struct kunit *test, struct maple_tree *mt)
{
	mt_init_flags(mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_store_range(mt, 0, 9, kv(1), GFP_KERNEL),
			0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(mt, 20, 29, kv(2),
						GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(mt, 35, 99, kv(3),
						GFP_KERNEL), 0);
}

static void alloc_range_takes_lowest_fitting_gap(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	kalloc_tree(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, kv(4), 5, 0, 999,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 10UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, kv(5), 6, 0, 999,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 100UL);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 105), kv(5));
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
}

static void alloc_rrange_takes_highest_fitting_gap(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	kalloc_tree(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, kv(4), 5, 0, 99,
						 GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 30UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, kv(5), 3, 0, 99,
						 GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 17UL);
	mtree_destroy(&mt);
}

static void alloc_without_room_is_ebusy(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	kalloc_tree(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, kv(4), 11, 0, 99,
						GFP_KERNEL), -EBUSY);
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 10));
	mtree_destroy(&mt);
}

static void alloc_on_plain_tree_is_einval(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	mt_init(&mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, kv(1), 5, 0, 99,
						GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	mtree_destroy(&mt);
}

static void alloc_empty_area_both_directions(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 0, 0);

	kalloc_tree(test, &mt);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, mas_empty_area(&mas, 0, 99, 4), 0);
	KUNIT_EXPECT_EQ(test, mas.index, 10UL);
	KUNIT_EXPECT_EQ(test, mas.last, 13UL);
	mas_reset(&mas);
	KUNIT_EXPECT_EQ(test, mas_empty_area_rev(&mas, 0, 99, 4), 0);
	KUNIT_EXPECT_EQ(test, mas.index, 31UL);
	KUNIT_EXPECT_EQ(test, mas.last, 34UL);
	mas_reset(&mas);
	KUNIT_EXPECT_EQ(test, mas_empty_area(&mas, 0, 99, 11), -EBUSY);
	rcu_read_unlock();
	mtree_destroy(&mt);
}

static void alloc_fills_every_hole_of_a_big_tree(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long i, start, bad = 0;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	for (i = 0; i < 2000; i++)
		KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, i * 64,
							i * 64 + 60, kv(i),
							GFP_KERNEL), 0);
	/* Each hole is [i * 64 + 61, i * 64 + 63]. */
	for (i = 0; i < 2000; i++) {
		if (mtree_alloc_range(&mt, &start, kv(i), 3, 0, ULONG_MAX,
				      GFP_KERNEL) || start != i * 64 + 61)
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, kv(1), 1, 0,
						2000 * 64 - 1, GFP_KERNEL),
			-EBUSY);
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
}

static struct kunit_case maple_tree_alloc_cases[] = {
	KUNIT_CASE(alloc_range_takes_lowest_fitting_gap),
	KUNIT_CASE(alloc_rrange_takes_highest_fitting_gap),
	KUNIT_CASE(alloc_without_room_is_ebusy),
	KUNIT_CASE(alloc_on_plain_tree_is_einval),
	KUNIT_CASE(alloc_empty_area_both_directions),
	KUNIT_CASE(alloc_fills_every_hole_of_a_big_tree),
	{}
};

static struct kunit_suite maple_tree_alloc_suite = {
	.name = "maple_tree_alloc",
	.test_cases = maple_tree_alloc_cases,
};

/* ---- maple_tree_rcu: RCU mode ---------------------------------------- */

static void rcu_mode_flag_follows_set_and_clear(struct kunit *test)
{
	struct maple_tree mt;
	struct maple_tree rt;

	mt_init(&mt);
	KUNIT_EXPECT_FALSE(test, mt_in_rcu(&mt));
	mt_set_in_rcu(&mt);
	KUNIT_EXPECT_TRUE(test, mt_in_rcu(&mt));
	mt_clear_in_rcu(&mt);
	KUNIT_EXPECT_FALSE(test, mt_in_rcu(&mt));
	mt_init_flags(&rt, MT_FLAGS_USE_RCU);
	KUNIT_EXPECT_TRUE(test, mt_in_rcu(&rt));
	mtree_destroy(&rt);
	mtree_destroy(&mt);
}

static void rcu_tree_reads_back_after_many_writes(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long i;

	mt_init_flags(&mt, MT_FLAGS_USE_RCU);
	kfill_tens(test, &mt, 2000);
	/* Overwrite every other range, then erase a third of them. */
	for (i = 0; i < 2000; i += 2)
		KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, i * 10,
							i * 10 + 5, kv(i),
							GFP_KERNEL), 0);
	for (i = 0; i < 2000; i += 3)
		KUNIT_EXPECT_PTR_EQ(test, mtree_erase(&mt, i * 10), kv(i));
	for (i = 0; i < 2000; i += 3)
		KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, i * 10,
							i * 10 + 5, kv(i),
							GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, kbad_tens(&mt, 2000), 0UL);
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
}

/*
 * A reader inside rcu_read_lock() that stands on a leaf while the writer
 * replaces it gets, for each range, the old or the new entry.
 */
static void rcu_reader_sees_old_or_new_state(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 52, 52);
	void *entry;

	mt_init_flags(&mt, MT_FLAGS_USE_RCU);
	kfill_tens(test, &mt, 100);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, mas_walk(&mas), kv(5));
	/* GFP_ATOMIC: no sleeping inside the read-side section. */
	KUNIT_EXPECT_EQ(test, mtree_store_range(&mt, 54, 87, kv(999),
						GFP_ATOMIC), 0);
	entry = mas_next(&mas, ULONG_MAX);
	KUNIT_EXPECT_TRUE(test, entry == kv(6) || entry == kv(999));
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 53), kv(5));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 54), kv(999));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 87), kv(999));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 88));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 90), kv(9));
	mtree_destroy(&mt);
}

static void rcu_spanning_store_then_erase_all(struct kunit *test)
{
	struct maple_tree mt;

	mt_init_flags(&mt, MT_FLAGS_USE_RCU | MT_FLAGS_ALLOC_RANGE);
	kfill_tens(test, &mt, 3000);
	KUNIT_EXPECT_EQ(test, mtree_store_range(&mt, 105, 29000, kv(7),
						GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 104), kv(10));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 15000), kv(7));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 29003), kv(2900));
	KEXPECT_VALID(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_store_range(&mt, 0, ULONG_MAX, NULL,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	mtree_destroy(&mt);
}

static struct kunit_case maple_tree_rcu_cases[] = {
	KUNIT_CASE(rcu_mode_flag_follows_set_and_clear),
	KUNIT_CASE(rcu_tree_reads_back_after_many_writes),
	KUNIT_CASE(rcu_reader_sees_old_or_new_state),
	KUNIT_CASE(rcu_spanning_store_then_erase_all),
	{}
};

static struct kunit_suite maple_tree_rcu_suite = {
	.name = "maple_tree_rcu",
	.test_cases = maple_tree_rcu_cases,
};

/* ---- maple_tree_prealloc: preallocation and bulk stores -------------- */

static void prealloc_then_spanning_store(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 95, 4004);

	mt_init(&mt);
	kfill_tens(test, &mt, 600);
	mas_lock(&mas);
	KUNIT_EXPECT_EQ(test, mas_preallocate(&mas, kv(7777), GFP_ATOMIC), 0);
	mas_store_prealloc(&mas, kv(7777));
	mas_unlock(&mas);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 94), kv(9));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 95), kv(7777));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 4004), kv(7777));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 4005), kv(400));
	KEXPECT_VALID(test, &mt);
	mtree_destroy(&mt);
}

static void prealloc_then_destroy_changes_nothing(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 10, 2000);

	mt_init(&mt);
	kfill_tens(test, &mt, 300);
	mas_lock(&mas);
	KUNIT_EXPECT_EQ(test, mas_preallocate(&mas, NULL, GFP_ATOMIC), 0);
	mas_destroy(&mas);
	mas_unlock(&mas);
	KUNIT_EXPECT_EQ(test, kbad_tens(&mt, 300), 0UL);
	mtree_destroy(&mt);
}

static void prealloc_into_empty_and_root_trees(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 0, 0);

	mt_init(&mt);
	mas_lock(&mas);
	KUNIT_EXPECT_EQ(test, mas_preallocate(&mas, kv(1), GFP_ATOMIC), 0);
	mas_store_prealloc(&mas, kv(1));
	mas_set_range(&mas, 5, 9);
	KUNIT_EXPECT_EQ(test, mas_preallocate(&mas, kv(2), GFP_ATOMIC), 0);
	mas_store_prealloc(&mas, kv(2));
	mas_unlock(&mas);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 0), kv(1));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 4));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 9), kv(2));
	mtree_destroy(&mt);
}

static DEFINE_MUTEX(kunit_bulk_lock);

static void prealloc_expected_entries_bulk_store(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 0, 0);
	unsigned long i;

	/* A sleeping external lock, as fork() holds mmap_lock. */
	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN);
	mt_set_external_lock(&mt, &kunit_bulk_lock);
	mutex_lock(&kunit_bulk_lock);
	KUNIT_EXPECT_EQ(test, mas_expected_entries(&mas, 3000), 0);
	for (i = 0; i < 3000; i++) {
		mas_set_range(&mas, i * 10, i * 10 + 5);
		mas_store(&mas, kv(i));
	}
	mas_destroy(&mas);
	KUNIT_EXPECT_EQ(test, kbad_tens(&mt, 3000), 0UL);
	KEXPECT_VALID(test, &mt);
	__mt_destroy(&mt);
	mutex_unlock(&kunit_bulk_lock);
}

static struct kunit_case maple_tree_prealloc_cases[] = {
	KUNIT_CASE(prealloc_then_spanning_store),
	KUNIT_CASE(prealloc_then_destroy_changes_nothing),
	KUNIT_CASE(prealloc_into_empty_and_root_trees),
	KUNIT_CASE(prealloc_expected_entries_bulk_store),
	{}
};

static struct kunit_suite maple_tree_prealloc_suite = {
	.name = "maple_tree_prealloc",
	.test_cases = maple_tree_prealloc_cases,
};

/* ---- maple_tree_dup: whole-tree duplication --------------------------- */

static void dup_copies_every_range(struct kunit *test)
{
	struct maple_tree mt;
	struct maple_tree copy;

	mt_init(&mt);
	mt_init(&copy);
	kfill_tens(test, &mt, 2500);
	KUNIT_ASSERT_EQ(test, mtree_dup(&mt, &copy, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, mt_height(&copy), mt_height(&mt));
	KUNIT_EXPECT_EQ(test, kbad_tens(&copy, 2500), 0UL);
	KEXPECT_VALID(test, &copy);
	mtree_destroy(&copy);
	mtree_destroy(&mt);
}

static void dup_copy_is_independent(struct kunit *test)
{
	struct maple_tree mt;
	struct maple_tree copy;

	mt_init(&mt);
	mt_init(&copy);
	kfill_tens(test, &mt, 500);
	KUNIT_ASSERT_EQ(test, mtree_dup(&mt, &copy, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, mtree_store_range(&copy, 0, 3000, kv(1),
						GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_erase(&mt, 4000), kv(400));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&copy, 2999), kv(1));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&copy, 4000), kv(400));
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 2999), NULL);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 2995), kv(299));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 4000));
	mtree_destroy(&copy);
	mtree_destroy(&mt);
}

static void dup_of_empty_and_root_entry_trees(struct kunit *test)
{
	struct maple_tree mt;
	struct maple_tree copy;

	mt_init(&mt);
	mt_init(&copy);
	KUNIT_EXPECT_EQ(test, mtree_dup(&mt, &copy, GFP_KERNEL), 0);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&copy));
	KUNIT_ASSERT_EQ(test, mtree_store(&mt, 0, kv(5), GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, mtree_dup(&mt, &copy, GFP_KERNEL), 0);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&copy, 0), kv(5));
	KUNIT_EXPECT_NULL(test, mtree_load(&copy, 1));
	mtree_destroy(&copy);
	mtree_destroy(&mt);
}

static void dup_under_locks_keeps_gaps_of_alloc_tree(struct kunit *test)
{
	struct maple_tree mt, copy;
	unsigned long start = 0;

	kalloc_tree(test, &mt);
	mt_init_flags(&copy, MT_FLAGS_ALLOC_RANGE);
	mtree_lock(&mt);
	/* Both locks are of one lockdep class: say the nesting is meant. */
	spin_lock_nested(&copy.ma_lock, SINGLE_DEPTH_NESTING);
	KUNIT_EXPECT_EQ(test, __mt_dup(&mt, &copy, GFP_ATOMIC), 0);
	mtree_unlock(&copy);
	mtree_unlock(&mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&copy, &start, kv(9), 5, 0,
						99, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 10UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&copy, &start, kv(9), 5, 0,
						 99, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 30UL);
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 10));
	mtree_destroy(&copy);
	mtree_destroy(&mt);
}

static struct kunit_case maple_tree_dup_cases[] = {
	KUNIT_CASE(dup_copies_every_range),
	KUNIT_CASE(dup_copy_is_independent),
	KUNIT_CASE(dup_of_empty_and_root_entry_trees),
	KUNIT_CASE(dup_under_locks_keeps_gaps_of_alloc_tree),
	{}
};

static struct kunit_suite maple_tree_dup_suite = {
	.name = "maple_tree_dup",
	.test_cases = maple_tree_dup_cases,
};

kunit_test_suites(&maple_tree_normal_suite, &maple_tree_advanced_suite,
		  &maple_tree_alloc_suite, &maple_tree_rcu_suite,
		  &maple_tree_prealloc_suite, &maple_tree_dup_suite);

MODULE_DESCRIPTION("KUnit suites for the maple tree");
MODULE_LICENSE("GPL");
