// SPDX-License-Identifier: GPL-2.0+
/*
 * The reference model held to itself: model_compare() takes what every
 * search of the tree must return from one sweep over the model's ranges
 * (model_expect_at()), not from a search of the model per boundary.  These
 * cases show that the sweep gives, at every point model_compare() asks
 * about, exactly the ranges the model's own searches give there.
 *
 * Random models take their seed from ktest_seed(), which prints it;
 * SEED=<n> replays a run.
 */
#include <kunit/test.h>
#include <linux/xarray.h>

#include <stdlib.h>

#include "../harness/ktest.h"
#include "model.h"

static bool same_range(const struct model_range *a,
		       const struct model_range *b)
{
	if (!a || !b)
		return a == b;
	return a->first == b->first && a->last == b->last &&
	       a->entry == b->entry;
}

static void expect_same(struct kunit *test, const char *search,
			unsigned long p, const struct model_range *sweep,
			const struct model_range *want, unsigned long seed)
{
	if (same_range(sweep, want))
		return;
	KUNIT_FAIL(test, "%s(%lu): the sweep says %s[%lu, %lu] %p, the search %s[%lu, %lu] %p; seed %lu",
		   search, p, sweep ? "" : "none ", sweep ? sweep->first : 0,
		   sweep ? sweep->last : 0, sweep ? sweep->entry : NULL,
		   want ? "" : "none ", want ? want->first : 0,
		   want ? want->last : 0, want ? want->entry : NULL, seed);
}

/* The points of all[i] model_compare() asks at: both ends, one inside. */
static int sweep_points(const struct model_range *r, unsigned long *p)
{
	int n = 0;

	p[n++] = r->first;
	if (r->last != r->first)
		p[n++] = r->last;
	if (r->last - r->first >= 2) {
		p[n++] = r->first + 1;
		p[n++] = r->last - 1;
	}
	return n;
}

static void check_sweep(struct kunit *test, const struct model *m,
			unsigned long seed)
{
	struct model_range *all;
	unsigned long nr, i, p[4], first, last;
	int k, n;

	all = model_all_ranges(m, &nr);
	KUNIT_ASSERT_TRUE(test, nr >= 1);
	KUNIT_EXPECT_EQ(test, all[0].first, 0UL);
	KUNIT_EXPECT_EQ(test, all[nr - 1].last, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, nr, model_nr_ranges(m));

	for (i = 0; i < nr; i++) {
		struct model_expect e;

		if (i)
			KUNIT_EXPECT_EQ(test, all[i].first, all[i - 1].last + 1);
		model_expect_at(all, nr, i, &e);
		n = sweep_points(&all[i], p);
		for (k = 0; k < n; k++) {
			struct model_range walk;

			walk.entry = model_walk(m, p[k], &first, &last);
			walk.first = first;
			walk.last = last;
			expect_same(test, "model_walk", p[k], &all[i], &walk,
				    seed);
			expect_same(test, "model_find", p[k], e.find,
				    model_find(m, p[k], ULONG_MAX), seed);
			expect_same(test, "model_find_rev", p[k], e.find_rev,
				    model_find_rev(m, p[k], 0), seed);
			expect_same(test, "model_next", p[k], e.next,
				    model_next(m, p[k], ULONG_MAX), seed);
			expect_same(test, "model_prev", p[k], e.prev,
				    model_prev(m, p[k], 0), seed);
		}
	}
	free(all);
}

static void model_sweep_of_written_down_models(struct kunit *test)
{
	const struct model_range full[] = {
		{ 0, ULONG_MAX, xa_mk_value(1) },
	};
	const struct model_range ends[] = {
		{ 0, 0, xa_mk_value(1) },
		{ ULONG_MAX, ULONG_MAX, xa_mk_value(2) },
	};
	const struct model_range touching[] = {
		{ 5, 9, xa_mk_value(1) },
		{ 10, 10, xa_mk_value(2) },
		{ 11, 20, xa_mk_value(3) },
		{ 22, 22, xa_mk_value(4) },
	};
	struct model m;

	model_init(&m);
	check_sweep(test, &m, 0);		/* empty: one NULL range */
	model_set(&m, full, ARRAY_SIZE(full));
	check_sweep(test, &m, 0);
	model_set(&m, ends, ARRAY_SIZE(ends));
	check_sweep(test, &m, 0);
	model_set(&m, touching, ARRAY_SIZE(touching));
	check_sweep(test, &m, 0);
	model_destroy(&m);
}

/* An index near 0, near ULONG_MAX or in the middle of the index space. */
static unsigned long rnd_index(struct model_rng *rng)
{
	switch (model_rng_below(rng, 3)) {
	case 0:
		return model_rng_below(rng, 64);
	case 1:
		return ULONG_MAX - model_rng_below(rng, 64);
	default:
		return ULONG_MAX / 2 + model_rng_below(rng, 64);
	}
}

static void model_sweep_of_random_models(struct kunit *test)
{
	unsigned long seed = ktest_seed(), round, w, first, last, len;
	struct model_rng rng;
	struct model m;

	model_rng_seed(&rng, seed);
	model_init(&m);
	for (round = 0; round < 3000 && test->status != KUNIT_FAILURE;
	     round++) {
		unsigned long writes = model_rng_below(&rng, 40);

		model_clear(&m);
		for (w = 0; w < writes; w++) {
			first = rnd_index(&rng);
			len = model_rng_below(&rng, 4) ? model_rng_below(&rng, 4)
						       : model_rng_below(&rng, 40);
			last = len > ULONG_MAX - first ? ULONG_MAX : first + len;
			model_store_range(&m, first, last,
					  model_rng_below(&rng, 4) ?
					  xa_mk_value(w) : NULL);
		}
		check_sweep(test, &m, seed);
	}
	model_destroy(&m);
}

static struct kunit_case maple_model_cases[] = {
	KUNIT_CASE(model_sweep_of_written_down_models),
	KUNIT_CASE(model_sweep_of_random_models),
	{}
};

static struct kunit_suite maple_model_suite = {
	.name = "maple_model",
	.test_cases = maple_model_cases,
};
kunit_test_suite(maple_model_suite);
