// SPDX-License-Identifier: GPL-2.0+
/*
 * Writers must hold the tree's lock: the tree's own spinlock, or for an
 * MT_FLAGS_LOCK_EXTERN tree the caller's lock named by
 * mt_set_external_lock().  Debug builds report a writer that does not
 * (through the lockdep checks of rcu_dereference_protected()), and stay
 * silent for one that does.
 */
#include <kunit/test.h>
#include <linux/bug.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"

static void writer_without_tree_lock_is_reported(struct kunit *test)
{
	DEFINE_MTREE(mt);
	MA_STATE(mas, &mt, 10, 19);
	long before;

	ktest_allow_warnings(test);
	before = kernel_warn_count();
	KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, xa_mk_value(1), GFP_KERNEL),
			0);
	KUNIT_EXPECT_GT(test, kernel_warn_count(), before);
	mtree_destroy(&mt);
}

static void writer_holding_tree_lock_is_silent(struct kunit *test)
{
	DEFINE_MTREE(mt);
	MA_STATE(mas, &mt, 10, 19);
	long before = kernel_warn_count();

	mtree_lock(&mt);
	KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, xa_mk_value(1), GFP_KERNEL),
			0);
	mas_set_range(&mas, 12, 40);
	KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, NULL, GFP_KERNEL), 0);
	mtree_unlock(&mt);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), before);
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mt, 11), xa_mk_value(1));
	KUNIT_EXPECT_NULL(test, mtree_load(&mt, 12));
	mtree_destroy(&mt);
}

static void writer_without_external_lock_is_reported(struct kunit *test)
{
	struct maple_tree mt;
	struct mutex lock;
	MA_STATE(mas, &mt, 10, 19);
	long before;

	mutex_init(&lock);
	mt_init_flags(&mt, MT_FLAGS_LOCK_EXTERN | MT_FLAGS_USE_RCU);
	mt_set_external_lock(&mt, &lock);
	ktest_allow_warnings(test);
	before = kernel_warn_count();
	KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, xa_mk_value(1), GFP_KERNEL),
			0);
	KUNIT_EXPECT_GT(test, kernel_warn_count(), before);

	mutex_lock(&lock);
	__mt_destroy(&mt);
	mutex_unlock(&lock);
}

static void writer_holding_external_lock_is_silent(struct kunit *test)
{
	struct maple_tree mt;
	struct mutex lock;
	MA_STATE(mas, &mt, 10, 19);
	long before = kernel_warn_count();
	unsigned long i;

	mutex_init(&lock);
	mt_init_flags(&mt, MT_FLAGS_LOCK_EXTERN | MT_FLAGS_USE_RCU |
		      MT_FLAGS_ALLOC_RANGE);
	mt_set_external_lock(&mt, &lock);
	mutex_lock(&lock);
	/* Enough ranges for splits and a second level. */
	for (i = 0; i < 100; i++) {
		mas_set_range(&mas, i * 10, i * 10 + 4);
		KUNIT_EXPECT_EQ(test, mas_store_gfp(&mas, xa_mk_value(i),
						    GFP_KERNEL), 0);
	}
	mas_set(&mas, 52);
	KUNIT_EXPECT_PTR_EQ(test, mas_erase(&mas), xa_mk_value(5));
	mutex_unlock(&lock);
	KUNIT_EXPECT_EQ(test, kernel_warn_count(), before);
	KUNIT_EXPECT_GE(test, mt_height(&mt), 2U);

	mutex_lock(&lock);
	__mt_destroy(&mt);
	mutex_unlock(&lock);
}

static struct kunit_case maple_lock_cases[] = {
	KUNIT_CASE(writer_without_tree_lock_is_reported),
	KUNIT_CASE(writer_holding_tree_lock_is_silent),
	KUNIT_CASE(writer_without_external_lock_is_reported),
	KUNIT_CASE(writer_holding_external_lock_is_silent),
	{}
};

static struct kunit_suite maple_lock_suite = {
	.name = "maple_lock",
	.test_cases = maple_lock_cases,
};
kunit_test_suite(maple_lock_suite);
