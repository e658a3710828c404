// SPDX-License-Identifier: GPL-2.0+
/*
 * test_maple_tree_api.c: the maple tree's self-test module.
 *
 * Written for the maple project.  Loading the module runs every check below
 * once; each check is an MT_BUG_ON(), which counts instead of crashing, and
 * the module ends with one line in the format of the kernel's own
 * lib/test_maple_tree.c (which builds and runs beside this one):
 *
 *	test_maple_tree_api: N of M tests passed
 *
 * module_init() fails with -EINVAL when N != M, so "insmod" reports the
 * failure too.  The same file runs in the userspace harness, where
 * module_call_init("test_maple_tree_api") calls the same init function.
 *
 * Only kernel interfaces are used here: the tree's public API, the debug
 * helpers of CONFIG_DEBUG_MAPLE_TREE, kmalloc() and the prandom state
 * functions.  The random stores print their seed; loading the module with
 * seed=N replays them.
 */

#include <linux/maple_tree.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>
#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/atomic.h>

#ifndef CONFIG_DEBUG_MAPLE_TREE
#error "test_maple_tree_api needs CONFIG_DEBUG_MAPLE_TREE (MT_BUG_ON counting)"
#endif

/* Entries are xa values: never reserved, easy to recompute. */
static inline void *tv(unsigned long v)
{
	return xa_mk_value(v);
}

/* MT_BUG_ON() on the tree's structural check. */
#define check_valid(mt)	MT_BUG_ON(mt, mt_validate_errors(mt) != 0)

/* [i * 10, i * 10 + 5] -> tv(i) for i in [0, count). */
static noinline void __init fill_tens(struct maple_tree *mt,
				      unsigned long count)
{
	unsigned long i;

	for (i = 0; i < count; i++)
		MT_BUG_ON(mt, mtree_store_range(mt, i * 10, i * 10 + 5, tv(i),
						GFP_KERNEL) != 0);
}

/* Every index of [0, count * 10) reads back what fill_tens() stored. */
static noinline void __init check_tens(struct maple_tree *mt,
				       unsigned long count)
{
	unsigned long i;
	bool bad = false;

	for (i = 0; i < count * 10; i++) {
		void *want = (i % 10) <= 5 ? tv(i / 10) : NULL;

		if (mtree_load(mt, i) != want)
			bad = true;
	}
	MT_BUG_ON(mt, bad);
}

static noinline void __init check_empty_tree(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
	MT_BUG_ON(mt, !mtree_empty(mt));
	MT_BUG_ON(mt, mtree_load(mt, 0) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 4096) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, ULONG_MAX) != NULL);
	MT_BUG_ON(mt, mt_height(mt) != 0);
	MT_BUG_ON(mt, mtree_erase(mt, 17) != NULL);
	check_valid(mt);
	mtree_destroy(mt);
}

static noinline void __init check_root_entry(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
	/* An entry at index 0 alone lives in the root pointer. */
	MT_BUG_ON(mt, mtree_store(mt, 0, tv(1), GFP_KERNEL) != 0);
	MT_BUG_ON(mt, mt_height(mt) != 0);
	MT_BUG_ON(mt, mtree_load(mt, 0) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 1) != NULL);
	/* A second entry needs a leaf. */
	MT_BUG_ON(mt, mtree_store(mt, 1, tv(2), GFP_KERNEL) != 0);
	MT_BUG_ON(mt, mt_height(mt) != 1);
	MT_BUG_ON(mt, mtree_load(mt, 0) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 1) != tv(2));
	check_valid(mt);
	mtree_destroy(mt);
	MT_BUG_ON(mt, !mtree_empty(mt));
}

static noinline void __init check_store_range(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
	MT_BUG_ON(mt, mtree_store_range(mt, 100, 199, tv(1), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 99) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 100) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 150) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 199) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 200) != NULL);

	/* Storing inside splits the range in three. */
	MT_BUG_ON(mt, mtree_store_range(mt, 140, 159, tv(2), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 139) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 140) != tv(2));
	MT_BUG_ON(mt, mtree_load(mt, 159) != tv(2));
	MT_BUG_ON(mt, mtree_load(mt, 160) != tv(1));

	/* Storing NULL over a part trims it. */
	MT_BUG_ON(mt, mtree_store_range(mt, 100, 119, NULL, GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 119) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 120) != tv(1));

	/* The ends of the index space. */
	MT_BUG_ON(mt, mtree_store(mt, ULONG_MAX, tv(3), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, ULONG_MAX) != tv(3));
	MT_BUG_ON(mt, mtree_load(mt, ULONG_MAX - 1) != NULL);

	/*
	 * Bad arguments.  (A reserved entry is refused too, with a warning
	 * as in Linux 6.1: the userspace suite checks that one.)
	 */
	MT_BUG_ON(mt, mtree_store_range(mt, 10, 9, tv(4), GFP_KERNEL) !=
		  -EINVAL);
	MT_BUG_ON(mt, mtree_load(mt, 10) != NULL);
	check_valid(mt);

	/* One store over everything replaces it all. */
	MT_BUG_ON(mt, mtree_store_range(mt, 0, ULONG_MAX, tv(5), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 0) != tv(5));
	MT_BUG_ON(mt, mtree_load(mt, 150) != tv(5));
	MT_BUG_ON(mt, mtree_load(mt, ULONG_MAX) != tv(5));
	MT_BUG_ON(mt, mtree_store_range(mt, 0, ULONG_MAX, NULL, GFP_KERNEL));
	MT_BUG_ON(mt, !mtree_empty(mt));
	mtree_destroy(mt);
}

static noinline void __init check_insert(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
	MT_BUG_ON(mt, mtree_insert_range(mt, 10, 19, tv(1), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_insert_range(mt, 5, 10, tv(2), GFP_KERNEL) !=
		  -EEXIST);
	MT_BUG_ON(mt, mtree_insert_range(mt, 19, 30, tv(2), GFP_KERNEL) !=
		  -EEXIST);
	MT_BUG_ON(mt, mtree_insert(mt, 15, tv(2), GFP_KERNEL) != -EEXIST);
	MT_BUG_ON(mt, mtree_insert_range(mt, 20, 10, tv(2), GFP_KERNEL) !=
		  -EINVAL);
	MT_BUG_ON(mt, mtree_load(mt, 5) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 20) != NULL);
	/* Exactly the free neighbours fit. */
	MT_BUG_ON(mt, mtree_insert_range(mt, 0, 9, tv(3), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_insert_range(mt, 20, ULONG_MAX, tv(4),
					 GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 9) != tv(3));
	MT_BUG_ON(mt, mtree_load(mt, 10) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, ULONG_MAX) != tv(4));
	check_valid(mt);
	mtree_destroy(mt);
}

static noinline void __init check_erase(struct maple_tree *mt)
{
	unsigned long i;

	mt_init_flags(mt, 0);
	fill_tens(mt, 500);
	MT_BUG_ON(mt, mt_height(mt) < 2);
	/* Erasing any index of a range removes all of it. */
	MT_BUG_ON(mt, mtree_erase(mt, 103) != tv(10));
	MT_BUG_ON(mt, mtree_load(mt, 100) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 105) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 110) != tv(11));
	/* Erasing a gap changes nothing. */
	MT_BUG_ON(mt, mtree_erase(mt, 107) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 95) != tv(9));

	for (i = 0; i < 500; i++) {
		void *want = i == 10 ? NULL : tv(i);

		MT_BUG_ON(mt, mtree_erase(mt, i * 10) != want);
		if (!(i % 50)) {
			check_valid(mt);
			cond_resched();
		}
	}
	MT_BUG_ON(mt, !mtree_empty(mt));
	MT_BUG_ON(mt, mt_height(mt) != 0);
	mtree_destroy(mt);
}

static noinline void __init check_many_ranges(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
	fill_tens(mt, 16);
	/* Sixteen ranges and the gaps between them... */
	MT_BUG_ON(mt, mt_height(mt) < 1);
	fill_tens(mt, 2000);
	MT_BUG_ON(mt, mt_height(mt) < 3);
	check_tens(mt, 2000);
	check_valid(mt);
	mtree_destroy(mt);

	/* The same, stored backwards. */
	mt_init_flags(mt, 0);
	{
		unsigned long i;

		for (i = 2000; i-- > 0;)
			MT_BUG_ON(mt, mtree_store_range(mt, i * 10, i * 10 + 5,
							tv(i), GFP_KERNEL));
	}
	check_tens(mt, 2000);
	check_valid(mt);
	mtree_destroy(mt);
}

/* A range store that spans many leaves and levels. */
static noinline void __init check_spanning_store(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
	fill_tens(mt, 3000);
	MT_BUG_ON(mt, mtree_store_range(mt, 1003, 25007, tv(99999),
					GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 1002) != tv(100));
	MT_BUG_ON(mt, mtree_load(mt, 1003) != tv(99999));
	MT_BUG_ON(mt, mtree_load(mt, 13000) != tv(99999));
	MT_BUG_ON(mt, mtree_load(mt, 25007) != tv(99999));
	MT_BUG_ON(mt, mtree_load(mt, 25008) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 25010) != tv(2501));
	check_valid(mt);

	/* A NULL spanning store leaves one gap. */
	MT_BUG_ON(mt, mtree_store_range(mt, 500, 27000, NULL, GFP_KERNEL));
	MT_BUG_ON(mt, mtree_load(mt, 495) != tv(49));
	MT_BUG_ON(mt, mtree_load(mt, 12345) != NULL);
	MT_BUG_ON(mt, mtree_load(mt, 27010) != tv(2701));
	check_valid(mt);
	mtree_destroy(mt);
}

static noinline void __init check_iterators(struct maple_tree *mt)
{
	unsigned long index, i;
	void *entry;
	bool bad;

	mt_init_flags(mt, 0);
	fill_tens(mt, 300);

	/* mt_for_each visits every entry once, in order. */
	index = 0;
	i = 0;
	bad = false;
	mt_for_each(mt, entry, index, ULONG_MAX) {
		if (entry != tv(i))
			bad = true;
		i++;
	}
	MT_BUG_ON(mt, bad);
	MT_BUG_ON(mt, i != 300);

	/* mas_for_each, pausing at every step. */
	{
		MA_STATE(mas, mt, 0, 0);

		i = 0;
		bad = false;
		rcu_read_lock();
		mas_for_each(&mas, entry, ULONG_MAX) {
			if (entry != tv(i) || mas.index != i * 10 ||
			    mas.last != i * 10 + 5)
				bad = true;
			i++;
			mas_pause(&mas);
		}
		rcu_read_unlock();
		MT_BUG_ON(mt, bad);
		MT_BUG_ON(mt, i != 300);
	}

	/* mas_find_rev walks back down to min. */
	{
		MA_STATE(mas, mt, ULONG_MAX, ULONG_MAX);

		i = 300;
		bad = false;
		rcu_read_lock();
		while ((entry = mas_find_rev(&mas, 1000)) != NULL) {
			i--;
			if (entry != tv(i))
				bad = true;
		}
		rcu_read_unlock();
		MT_BUG_ON(mt, bad);
		MT_BUG_ON(mt, i != 100);
	}

	/* mas_next and mas_prev step over the gaps. */
	{
		MA_STATE(mas, mt, 52, 52);

		rcu_read_lock();
		MT_BUG_ON(mt, mas_walk(&mas) != tv(5));
		MT_BUG_ON(mt, mas_next(&mas, ULONG_MAX) != tv(6));
		MT_BUG_ON(mt, mas.index != 60 || mas.last != 65);
		MT_BUG_ON(mt, mas_prev(&mas, 0) != tv(5));
		MT_BUG_ON(mt, mas_prev(&mas, 0) != tv(4));
		MT_BUG_ON(mt, mas.index != 40 || mas.last != 45);
		MT_BUG_ON(mt, mas_next(&mas, 59) != tv(5));
		MT_BUG_ON(mt, mas_next(&mas, 59) != NULL);
		rcu_read_unlock();
	}

	/* mas_walk in a gap returns NULL and the gap's bounds. */
	{
		MA_STATE(mas, mt, 57, 57);

		rcu_read_lock();
		MT_BUG_ON(mt, mas_walk(&mas) != NULL);
		MT_BUG_ON(mt, mas.index != 56 || mas.last != 59);
		rcu_read_unlock();
	}

	/* mt_find, mt_next, mt_prev. */
	index = 7;
	MT_BUG_ON(mt, mt_find(mt, &index, ULONG_MAX) != tv(1));
	MT_BUG_ON(mt, index != 16);
	index = 7;
	MT_BUG_ON(mt, mt_find(mt, &index, 9) != NULL);
	MT_BUG_ON(mt, mt_next(mt, 20, ULONG_MAX) != tv(3));
	MT_BUG_ON(mt, mt_prev(mt, 20, 0) != tv(1));
	mtree_destroy(mt);
}

static noinline void __init check_alloc_range(struct maple_tree *mt)
{
	unsigned long start = 0;

	mt_init_flags(mt, MT_FLAGS_ALLOC_RANGE);
	/* Used: [0, 9], [20, 29], [35, 99]; free: [10, 19], [30, 34]... */
	MT_BUG_ON(mt, mtree_store_range(mt, 0, 9, tv(1), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_store_range(mt, 20, 29, tv(2), GFP_KERNEL));
	MT_BUG_ON(mt, mtree_store_range(mt, 35, 99, tv(3), GFP_KERNEL));

	MT_BUG_ON(mt, mtree_alloc_range(mt, &start, tv(4), 5, 0, 1000,
					GFP_KERNEL));
	MT_BUG_ON(mt, start != 10);
	MT_BUG_ON(mt, mtree_alloc_rrange(mt, &start, tv(5), 5, 0, 99,
					 GFP_KERNEL));
	MT_BUG_ON(mt, start != 30);
	MT_BUG_ON(mt, mtree_load(mt, 34) != tv(5));
	MT_BUG_ON(mt, mtree_alloc_range(mt, &start, tv(6), 6, 0, 99,
					GFP_KERNEL) != -EBUSY);
	MT_BUG_ON(mt, mtree_alloc_range(mt, &start, tv(6), 6, 0, 1000,
					GFP_KERNEL));
	MT_BUG_ON(mt, start != 100);

	{
		MA_STATE(mas, mt, 0, 0);

		rcu_read_lock();
		MT_BUG_ON(mt, mas_empty_area(&mas, 0, ULONG_MAX, 5) != 0);
		MT_BUG_ON(mt, mas.index != 15 || mas.last != 19);
		mas_reset(&mas);
		MT_BUG_ON(mt, mas_empty_area_rev(&mas, 0, 99, 2) != 0);
		MT_BUG_ON(mt, mas.index != 18 || mas.last != 19);
		mas_reset(&mas);
		MT_BUG_ON(mt, mas_empty_area_rev(&mas, 0, 99, 6) != -EBUSY);
		rcu_read_unlock();
	}
	check_valid(mt);
	mtree_destroy(mt);

	/* Only allocation trees allocate. */
	mt_init_flags(mt, 0);
	MT_BUG_ON(mt, mtree_alloc_range(mt, &start, tv(1), 5, 0, 1000,
					GFP_KERNEL) != -EINVAL);
	mtree_destroy(mt);
}

/* Fill a big allocation tree, then allocate into every hole left. */
static noinline void __init check_alloc_big(struct maple_tree *mt)
{
	unsigned long i, start;
	bool bad = false;

	mt_init_flags(mt, MT_FLAGS_ALLOC_RANGE);
	/* Used: [i * 100, i * 100 + 97]; two free indices after each. */
	for (i = 0; i < 1000; i++)
		MT_BUG_ON(mt, mtree_store_range(mt, i * 100, i * 100 + 97,
						tv(i), GFP_KERNEL));
	check_valid(mt);
	/* Nothing of size 3 below 100000. */
	MT_BUG_ON(mt, mtree_alloc_range(mt, &start, tv(1), 3, 0, 99999,
					GFP_KERNEL) != -EBUSY);
	for (i = 0; i < 1000; i++) {
		if (mtree_alloc_range(mt, &start, tv(i), 2, 0, ULONG_MAX,
				      GFP_KERNEL) || start != i * 100 + 98)
			bad = true;
	}
	MT_BUG_ON(mt, bad);
	/* Now the first free index is 100000. */
	MT_BUG_ON(mt, mtree_alloc_range(mt, &start, tv(1), 1, 0, ULONG_MAX,
					GFP_KERNEL));
	MT_BUG_ON(mt, start != 100000);
	check_valid(mt);
	mtree_destroy(mt);
}

static noinline void __init check_rcu_mode(struct maple_tree *mt)
{
	MA_STATE(mas, mt, 0, 0);
	void *entry;

	mt_init_flags(mt, MT_FLAGS_USE_RCU);
	MT_BUG_ON(mt, !mt_in_rcu(mt));
	fill_tens(mt, 1000);
	check_tens(mt, 1000);

	/*
	 * A reader standing on a leaf while the writer replaces that leaf
	 * still gets one of the two states of each range.
	 */
	rcu_read_lock();
	mas_set(&mas, 52);
	MT_BUG_ON(mt, mas_walk(&mas) != tv(5));
	MT_BUG_ON(mt, mtree_store_range(mt, 53, 67, tv(777), GFP_ATOMIC));
	entry = mas_next(&mas, ULONG_MAX);
	MT_BUG_ON(mt, entry != tv(6) && entry != tv(777));
	rcu_read_unlock();
	MT_BUG_ON(mt, mtree_load(mt, 52) != tv(5));
	MT_BUG_ON(mt, mtree_load(mt, 53) != tv(777));
	MT_BUG_ON(mt, mtree_load(mt, 68) != NULL);
	check_valid(mt);

	mt_clear_in_rcu(mt);
	MT_BUG_ON(mt, mt_in_rcu(mt));
	MT_BUG_ON(mt, mtree_store_range(mt, 0, 1000, tv(1), GFP_KERNEL));
	mt_set_in_rcu(mt);
	MT_BUG_ON(mt, !mt_in_rcu(mt));
	MT_BUG_ON(mt, mtree_load(mt, 999) != tv(1));
	MT_BUG_ON(mt, mtree_load(mt, 1010) != tv(101));
	check_valid(mt);
	mtree_destroy(mt);
}

static DEFINE_MUTEX(test_bulk_lock);

static noinline void __init check_prealloc(struct maple_tree *mt)
{
	MA_STATE(mas, mt, 0, 0);

	mt_init_flags(mt, 0);
	fill_tens(mt, 500);

	/* Preallocate, then a store that spans leaves cannot fail. */
	mtree_lock(mt);
	mas_set_range(&mas, 95, 3004);
	MT_BUG_ON(mt, mas_preallocate(&mas, tv(4242), GFP_ATOMIC) != 0);
	mas_store_prealloc(&mas, tv(4242));
	mtree_unlock(mt);
	MT_BUG_ON(mt, mtree_load(mt, 94) != tv(9));
	MT_BUG_ON(mt, mtree_load(mt, 95) != tv(4242));
	MT_BUG_ON(mt, mtree_load(mt, 3004) != tv(4242));
	MT_BUG_ON(mt, mtree_load(mt, 3005) != tv(300));

	/* Preallocating and giving the nodes back changes nothing. */
	mtree_lock(mt);
	mas_set_range(&mas, 10, 20);
	MT_BUG_ON(mt, mas_preallocate(&mas, NULL, GFP_ATOMIC) != 0);
	mas_destroy(&mas);
	mtree_unlock(mt);
	MT_BUG_ON(mt, mtree_load(mt, 10) != tv(1));

	/*
	 * Bulk stores after mas_expected_entries(), which allocates with
	 * GFP_KERNEL: under a sleeping external lock, as fork() does.
	 */
	mtree_destroy(mt);
	mt_init_flags(mt, MT_FLAGS_LOCK_EXTERN);
	mt_set_external_lock(mt, &test_bulk_lock);
	mas_set(&mas, 0);
	mutex_lock(&test_bulk_lock);
	MT_BUG_ON(mt, mas_expected_entries(&mas, 1000) != 0);
	{
		unsigned long i;

		for (i = 0; i < 1000; i++) {
			mas_set_range(&mas, i * 10, i * 10 + 5);
			mas_store(&mas, tv(i));
		}
	}
	mas_destroy(&mas);
	check_tens(mt, 1000);
	check_valid(mt);
	__mt_destroy(mt);
	mutex_unlock(&test_bulk_lock);
}

static noinline void __init check_dup(struct maple_tree *mt)
{
	struct maple_tree copy;
	unsigned long start;

	mt_init_flags(mt, MT_FLAGS_ALLOC_RANGE);
	fill_tens(mt, 1500);
	mt_init_flags(&copy, MT_FLAGS_ALLOC_RANGE);
	MT_BUG_ON(mt, mtree_dup(mt, &copy, GFP_KERNEL) != 0);
	MT_BUG_ON(&copy, mt_height(&copy) != mt_height(mt));
	check_tens(&copy, 1500);
	check_valid(&copy);
	/* The copy's gaps are right: allocate into them. */
	MT_BUG_ON(&copy, mtree_alloc_range(&copy, &start, tv(1), 4, 0,
					   ULONG_MAX, GFP_KERNEL));
	MT_BUG_ON(&copy, start != 6);
	/* And the copy is independent. */
	MT_BUG_ON(&copy, mtree_store_range(&copy, 0, 5000, NULL, GFP_KERNEL));
	check_tens(mt, 1500);
	mtree_destroy(&copy);
	check_tens(mt, 1500);
	mtree_destroy(mt);
}

/*
 * Random stores over a small index space against a plain array of what
 * each index must hold.
 */
#define RAND_SPACE	512
#define RAND_OPS	4000

static unsigned long long seed;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "Seed of the random stores (0: a new one each load)");

static noinline void __init check_random(struct maple_tree *mt)
{
	struct rnd_state rnd;
	unsigned long long s = seed ? seed : get_random_u64();
	void **shadow;
	unsigned long op, i;
	bool bad = false;

	/* Printed first, so that a failure can be replayed with seed=. */
	pr_info("test_maple_tree_api: random stores, seed %llu\n", s);
	prandom_seed_state(&rnd, s);

	shadow = kcalloc(RAND_SPACE, sizeof(*shadow), GFP_KERNEL);
	MT_BUG_ON(mt, !shadow);
	if (!shadow)
		return;

	mt_init_flags(mt, 0);
	for (op = 0; op < RAND_OPS; op++) {
		unsigned long first = prandom_u32_state(&rnd) % RAND_SPACE;
		unsigned long len = prandom_u32_state(&rnd) % 24;
		unsigned long last = min(first + len, RAND_SPACE - 1UL);
		void *entry = (prandom_u32_state(&rnd) % 4) ? tv(op + 1) : NULL;

		if (mtree_store_range(mt, first, last, entry, GFP_KERNEL))
			bad = true;
		for (i = first; i <= last; i++)
			shadow[i] = entry;
		if (!(op % 256)) {
			check_valid(mt);
			cond_resched();
		}
	}
	for (i = 0; i < RAND_SPACE; i++)
		if (mtree_load(mt, i) != shadow[i])
			bad = true;
	MT_BUG_ON(mt, bad);
	check_valid(mt);
	mtree_destroy(mt);
	kfree(shadow);
}

static int __init maple_tree_test_init(void)
{
	/* Static: struct maple_tree is small, but keep the init frame lean. */
	static struct maple_tree tree __initdata;
	unsigned int run0 = atomic_read(&maple_tree_tests_run);
	unsigned int passed0 = atomic_read(&maple_tree_tests_passed);
	unsigned int run, passed;

	/*
	 * Built outside a kernel tree (make modules), the module carries its
	 * own copy of the tree, whose node cache nobody else sets up.  In a
	 * kernel tree, the kernel did it at boot and the function is gone.
	 */
#ifdef MAPLE_TREE_TEST_BUNDLED
	maple_tree_init();
#endif
	check_empty_tree(&tree);
	check_root_entry(&tree);
	check_store_range(&tree);
	check_insert(&tree);
	check_erase(&tree);
	check_many_ranges(&tree);
	check_spanning_store(&tree);
	check_iterators(&tree);
	check_alloc_range(&tree);
	check_alloc_big(&tree);
	check_rcu_mode(&tree);
	check_prealloc(&tree);
	check_dup(&tree);
	check_random(&tree);

	/* Let RCU-deferred frees of the nodes run before we report. */
	rcu_barrier();

	run = atomic_read(&maple_tree_tests_run) - run0;
	passed = atomic_read(&maple_tree_tests_passed) - passed0;
	pr_info("test_maple_tree_api: %u of %u tests passed\n", passed,
		run);
	return (run && passed == run) ? 0 : -EINVAL;
}

static void __exit maple_tree_test_exit(void)
{
}

module_init(maple_tree_test_init);
module_exit(maple_tree_test_exit);
MODULE_AUTHOR("The maple project");
MODULE_DESCRIPTION("Self-test of the maple tree");
MODULE_LICENSE("GPL");
