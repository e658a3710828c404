/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Helpers shared by the tree's KUnit suites in this folder: entries made
 * with val(), the allocator's live objects once deferred frees have run,
 * and EXPECT_TREE() for a tree that must read as a written-down list.
 */
#ifndef _MAPLE_SUITE_HELPERS_H
#define _MAPLE_SUITE_HELPERS_H

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "model.h"

/* The test entry number @n: a value entry, never a reserved one. */
static inline void *val(unsigned long n)
{
	return xa_mk_value(n);
}

/* Live allocator objects once every deferred free has run. */
static inline long live_objects(void)
{
	rcu_barrier();
	return (long)kmem_nr_live();
}

/* The tree must read exactly as the list of non-NULL ranges says. */
static inline void expect_tree(struct kunit *test, struct maple_tree *mt,
			       const struct model_range *ranges,
			       unsigned long nr)
{
	struct model m;

	model_init(&m);
	model_set(&m, ranges, nr);
	KUNIT_EXPECT_MODEL(test, mt, &m);
	model_destroy(&m);
}

#define EXPECT_TREE(test, mt, ...) do {					\
	const struct model_range __exp[] = { __VA_ARGS__ };		\
									\
	expect_tree((test), (mt), __exp, ARRAY_SIZE(__exp));		\
} while (0)

#endif /* _MAPLE_SUITE_HELPERS_H */
