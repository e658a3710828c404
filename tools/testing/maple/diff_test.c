// SPDX-License-Identifier: GPL-2.0+
/*
 * Randomized differential test: random writes go to a maple tree and to the
 * reference model (model.c) side by side, and the tree must always read as
 * the model says.
 *
 * Each test case drives one distribution of writes (appends, descending
 * stores, random ranges, dense points, wide ranges, spanning overwrites,
 * erase-heavy cycles, inserts, allocation trees, the advanced API, RCU
 * mode, the ends of the index space).  After every write the written
 * bounds and the indices next to them are read back and mt_validate_errors()
 * must be 0; every DIFF_FULL_EVERY writes, and at the end, every read
 * interface is compared against the model (model_compare()).
 *
 * The run's seed comes from ktest_seed() and is printed; SEED=<n> replays
 * it.  A mismatch names the case, the write number, the write and the seed.
 * All cases together do more than 1,000,000 writes.
 */
#include <kunit/test.h>
#include <linux/maple_tree.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"
#include "model.h"

#define DIFF_FULL_EVERY	4096

enum diff_kind {
	D_STORE,
	D_INSERT,
	D_ERASE,
	D_MAS_STORE,
	D_MAS_STORE_GFP,
	D_MAS_ERASE,
	D_ALLOC,
	D_ALLOC_REV,
	D_DESTROY,
	D_PREALLOC,
	D_BULK,
	D_DUP,
	D_WALK,
};

static const char *const diff_kind_name[] = {
	[D_STORE] = "mtree_store_range",
	[D_INSERT] = "mtree_insert_range",
	[D_ERASE] = "mtree_erase",
	[D_MAS_STORE] = "mas_store",
	[D_MAS_STORE_GFP] = "mas_store_gfp",
	[D_MAS_ERASE] = "mas_erase",
	[D_ALLOC] = "mtree_alloc_range",
	[D_ALLOC_REV] = "mtree_alloc_rrange",
	[D_DESTROY] = "mtree_destroy",
	[D_PREALLOC] = "mas_preallocate+mas_store_prealloc",
	[D_BULK] = "mas_expected_entries+mas_store",
	[D_DUP] = "mtree_dup",
	[D_WALK] = "mas_find/mas_find_rev step after mas_pause, from",
};

struct diff {
	struct kunit *test;
	const char *name;
	unsigned long seed;
	struct model_rng rng;
	struct maple_tree mt;
	struct model m;
	unsigned long op_nr;		/* writes done so far */
	unsigned long max_nr;		/* most entries held at once */
	unsigned int max_height;	/* tallest the tree has been */
	unsigned long since_full;	/* writes since the last full compare */
	/* the write being checked, for the failure message */
	enum diff_kind kind;
	unsigned long first, last, size;
	void *entry;
	/* generator state */
	unsigned long cursor, limit;
	bool draining;
	/* a paused walk that writes interleave with (gen_paused_walk) */
	struct ma_state walk;
	unsigned long walk_from;	/* where the walk's next step starts */
	bool walk_rev, walk_on;
	bool failed;
};

static long diff_objs[64];

/* ---------------------------------------------------------------------- */
/* Random choices */

static unsigned long rnd(struct diff *d, unsigned long n)
{
	return model_rng_below(&d->rng, n);
}

/* Lengths spread over magnitudes: mostly short, sometimes up to @max. */
static unsigned long rnd_len(struct diff *d, unsigned long max)
{
	unsigned long bits = 0, v;

	while ((1UL << bits) < max && bits < BITS_PER_LONG - 1)
		bits++;
	v = rnd(d, bits + 1);
	v = v ? (unsigned long)model_rng_next(&d->rng) & ((1UL << v) - 1) : 0;
	return v > max ? max : v;
}

static void *rnd_entry(struct diff *d)
{
	unsigned long r = (unsigned long)model_rng_next(&d->rng);

	if (r & 3)
		return xa_mk_value((r >> 2) & 0xffffff);
	return &diff_objs[(r >> 2) & 63];
}

/* An index anywhere in 64 bits, often at or next to 0 and ULONG_MAX. */
static unsigned long rnd_wide_index(struct diff *d)
{
	switch (rnd(d, 6)) {
	case 0:
		return rnd(d, 4);
	case 1:
		return ULONG_MAX - rnd(d, 4);
	case 2:
		return rnd(d, 1UL << 20);
	case 3:
		return ULONG_MAX - rnd(d, 1UL << 20);
	default:
		return (unsigned long)model_rng_next(&d->rng);
	}
}

static unsigned long add_sat(unsigned long a, unsigned long b)
{
	return b > ULONG_MAX - a ? ULONG_MAX : a + b;
}

/* ---------------------------------------------------------------------- */
/* Checking */

static bool diff_fail(struct diff *d, const char *what)
{
	KUNIT_FAIL(d->test,
		   "%s: write %lu: %s(first %lu, last %lu, size %lu, entry %p): %s; seed %lu (replay with SEED=%lu)",
		   d->name, d->op_nr, diff_kind_name[d->kind], d->first,
		   d->last, d->size, d->entry, what, d->seed, d->seed);
	d->failed = true;
	return false;
}

static bool diff_full(struct diff *d)
{
	char msg[MODEL_MSG_LEN];

	d->since_full = 0;
	if (model_compare(&d->mt, &d->m, msg, sizeof(msg)))
		return diff_fail(d, msg);
	return true;
}

/* The cheap check after each write, touching [first, last]. */
static bool diff_check(struct diff *d, unsigned long first, unsigned long last)
{
	char msg[MODEL_MSG_LEN];

	d->op_nr++;
	if (d->m.nr > d->max_nr)
		d->max_nr = d->m.nr;
	if (mt_height(&d->mt) > d->max_height)
		d->max_height = mt_height(&d->mt);
	if (model_check_write(&d->mt, &d->m, first, last, msg, sizeof(msg)))
		return diff_fail(d, msg);
	if (++d->since_full >= DIFF_FULL_EVERY)
		return diff_full(d);
	return true;
}

static bool diff_expect_ret(struct diff *d, int ret, int expect)
{
	char msg[64];

	if (ret == expect)
		return true;
	snprintf(msg, sizeof(msg), "returned %d, expected %d", ret, expect);
	return diff_fail(d, msg);
}

static bool diff_expect_entry(struct diff *d, void *got, void *expect)
{
	char msg[96];

	if (got == expect)
		return true;
	snprintf(msg, sizeof(msg), "returned entry %p, expected %p", got,
		 expect);
	return diff_fail(d, msg);
}

static void diff_note(struct diff *d, enum diff_kind kind, unsigned long first,
		      unsigned long last, void *entry)
{
	d->kind = kind;
	d->first = first;
	d->last = last;
	d->entry = entry;
	d->size = 0;
}

/* ---------------------------------------------------------------------- */
/* Writes, each on the tree and the model */

static bool d_store(struct diff *d, unsigned long first, unsigned long last,
		    void *entry)
{
	diff_note(d, D_STORE, first, last, entry);
	if (!diff_expect_ret(d, mtree_store_range(&d->mt, first, last, entry,
						  GFP_KERNEL), 0))
		return false;
	model_store_range(&d->m, first, last, entry);
	return diff_check(d, first, last);
}

static bool d_insert(struct diff *d, unsigned long first, unsigned long last,
		     void *entry)
{
	int expect = model_range_empty(&d->m, first, last) ? 0 : -EEXIST;

	diff_note(d, D_INSERT, first, last, entry);
	if (!diff_expect_ret(d, mtree_insert_range(&d->mt, first, last, entry,
						   GFP_KERNEL), expect))
		return false;
	if (!expect)
		model_store_range(&d->m, first, last, entry);
	return diff_check(d, first, last);
}

static bool d_erase(struct diff *d, unsigned long index)
{
	unsigned long first, last;
	void *expect;

	diff_note(d, D_ERASE, index, index, NULL);
	expect = model_walk(&d->m, index, &first, &last);
	if (!diff_expect_entry(d, mtree_erase(&d->mt, index), expect))
		return false;
	model_erase(&d->m, index);
	return diff_check(d, first, last);
}

static bool d_mas_store(struct diff *d, unsigned long first,
			unsigned long last, void *entry)
{
	MA_STATE(mas, &d->mt, first, last);
	void *expect = model_load(&d->m, first);
	void *old;

	diff_note(d, D_MAS_STORE, first, last, entry);
	mas_lock(&mas);
retry:
	old = mas_store(&mas, entry);
	if (mas_nomem(&mas, GFP_KERNEL))
		goto retry;
	mas_unlock(&mas);
	if (!diff_expect_entry(d, old, expect))
		return false;
	model_store_range(&d->m, first, last, entry);
	return diff_check(d, first, last);
}

static bool d_mas_store_gfp(struct diff *d, unsigned long first,
			    unsigned long last, void *entry)
{
	MA_STATE(mas, &d->mt, first, last);
	int ret;

	diff_note(d, D_MAS_STORE_GFP, first, last, entry);
	mas_lock(&mas);
	ret = mas_store_gfp(&mas, entry, GFP_KERNEL);
	mas_unlock(&mas);
	mas_destroy(&mas);
	if (!diff_expect_ret(d, ret, 0))
		return false;
	model_store_range(&d->m, first, last, entry);
	return diff_check(d, first, last);
}

static bool d_mas_erase(struct diff *d, unsigned long index)
{
	MA_STATE(mas, &d->mt, index, index);
	unsigned long first, last;
	void *expect, *old;

	diff_note(d, D_MAS_ERASE, index, index, NULL);
	expect = model_walk(&d->m, index, &first, &last);
	mas_lock(&mas);
	old = mas_erase(&mas);
	mas_unlock(&mas);
	mas_destroy(&mas);
	if (!diff_expect_entry(d, old, expect))
		return false;
	model_erase(&d->m, index);
	return diff_check(d, first, last);
}

/* mtree_alloc_{,r}range of @size in [min, max], with max - min >= size. */
static bool d_alloc(struct diff *d, unsigned long min, unsigned long max,
		    unsigned long size, bool rev)
{
	unsigned long start = 0, expect = 0;
	void *entry = rnd_entry(d);
	bool found;
	int ret;
	char msg[96];

	diff_note(d, rev ? D_ALLOC_REV : D_ALLOC, min, max, entry);
	d->size = size;
	if (rev) {
		found = model_empty_area_rev(&d->m, min, max, size, &expect);
		ret = mtree_alloc_rrange(&d->mt, &start, entry, size, min, max,
					 GFP_KERNEL);
	} else {
		found = model_empty_area(&d->m, min, max, size, &expect);
		ret = mtree_alloc_range(&d->mt, &start, entry, size, min, max,
					GFP_KERNEL);
	}
	if (!diff_expect_ret(d, ret, found ? 0 : -EBUSY))
		return false;
	if (!found)
		return diff_check(d, min, max);
	if (start != expect) {
		snprintf(msg, sizeof(msg), "allocated at %lu, expected %lu",
			 start, expect);
		return diff_fail(d, msg);
	}
	model_store_range(&d->m, start, start + size - 1, entry);
	return diff_check(d, start, start + size - 1);
}

static bool d_destroy(struct diff *d)
{
	diff_note(d, D_DESTROY, 0, ULONG_MAX, NULL);
	mtree_destroy(&d->mt);
	model_clear(&d->m);
	if (!mtree_empty(&d->mt))
		return diff_fail(d, "tree not empty after mtree_destroy()");
	return diff_check(d, 0, ULONG_MAX);
}

/* mas_preallocate() then mas_store_prealloc(), as mm/ stores a VMA. */
static bool d_prealloc(struct diff *d, unsigned long first,
		       unsigned long last, void *entry)
{
	MA_STATE(mas, &d->mt, first, last);
	int ret;

	diff_note(d, D_PREALLOC, first, last, entry);
	mas_lock(&mas);
	/* Under the tree's spinlock: mm/ holds a sleeping lock instead. */
	ret = mas_preallocate(&mas, entry, GFP_NOWAIT);
	if (!ret)
		mas_store_prealloc(&mas, entry);
	mas_unlock(&mas);
	mas_destroy(&mas);
	if (!diff_expect_ret(d, ret, 0))
		return false;
	model_store_range(&d->m, first, last, entry);
	return diff_check(d, first, last);
}

/*
 * Fill an empty tree in bulk: mas_expected_entries() and then @nr
 * ascending stores through one maple state, as fork() duplicates an mm.
 */
static bool d_bulk_fill(struct diff *d, unsigned long nr)
{
	MA_STATE(mas, &d->mt, 0, 0);
	unsigned long i, first = rnd(d, 100), last;
	void *entry;
	int ret;

	diff_note(d, D_BULK, first, first, NULL);
	d->size = nr;
	/* It allocates with GFP_KERNEL: before the tree's spinlock. */
	ret = mas_expected_entries(&mas, nr);
	mas_lock(&mas);
	for (i = 0; !ret && i < nr; i++) {
		last = first + rnd_len(d, 30);
		entry = rnd_entry(d);
		mas_set_range(&mas, first, last);
		mas_store(&mas, entry);
		model_store_range(&d->m, first, last, entry);
		first = last + 1 + rnd(d, 3);
	}
	mas_destroy(&mas);
	mas_unlock(&mas);
	if (!diff_expect_ret(d, ret, 0))
		return false;
	d->last = first;
	return diff_full(d) && diff_check(d, 0, first);
}

/* Duplicate the tree: the copy must read as the model too. */
static bool d_dup(struct diff *d)
{
	struct maple_tree copy;
	char msg[MODEL_MSG_LEN];
	int ret, bad;

	diff_note(d, D_DUP, 0, ULONG_MAX, NULL);
	mt_init_flags(&copy, d->mt.ma_flags & ~MT_FLAGS_HEIGHT_MASK);
	ret = mtree_dup(&d->mt, &copy, GFP_KERNEL);
	bad = ret ? 0 : model_compare(&copy, &d->m, msg, sizeof(msg));
	mtree_destroy(&copy);
	if (!diff_expect_ret(d, ret, 0))
		return false;
	if (bad)
		return diff_fail(d, msg);
	return diff_check(d, 0, ULONG_MAX);
}

/* A random index inside a random entry of the model, or @fallback. */
static unsigned long rnd_entry_index(struct diff *d, unsigned long fallback)
{
	const struct model_range *r;

	if (!d->m.nr)
		return fallback;
	r = &d->m.r[rnd(d, d->m.nr)];
	return r->first + rnd(d, r->last - r->first < 64 ?
				 r->last - r->first + 1 : 64);
}

/* Erase every entry, then the tree must be empty again. */
static bool d_drain(struct diff *d)
{
	while (d->m.nr) {
		unsigned long index = rnd_entry_index(d, 0);
		bool ok = rnd(d, 2) ? d_erase(d, index) : d_mas_erase(d, index);

		if (!ok)
			return false;
	}
	if (!mtree_empty(&d->mt) || mt_height(&d->mt) != 0)
		return diff_fail(d, "every entry erased but the tree is not empty");
	return true;
}

/* ---------------------------------------------------------------------- */
/* Distributions: each call does a few writes */

/* Ascending appends with small gaps; restart at a random size. */
static bool gen_append(struct diff *d)
{
	unsigned long first, last;

	if (d->m.nr >= d->limit) {
		d->limit = 16 + rnd(d, 4000);
		d->cursor = rnd(d, 1000);
		switch (rnd(d, 4)) {
		case 0:
			if (!d_destroy(d))
				return false;
			/* then fill it in bulk, and go on appending after */
			if (!d_bulk_fill(d, 1 + rnd(d, d->limit)))
				return false;
			d->cursor = d->last + 1;
			return true;
		case 1:
			return d_destroy(d);
		default:
			return d_drain(d);
		}
	}
	first = d->cursor + rnd(d, 3);
	last = first + rnd_len(d, 16);
	d->cursor = last + 1;
	switch (rnd(d, 8)) {
	case 0:
		return d_insert(d, first, last, rnd_entry(d));
	case 1:
		return d_mas_store(d, first, last, rnd_entry(d));
	case 2:
		return d_erase(d, rnd_entry_index(d, first));
	default:
		return d_store(d, first, last, rnd_entry(d));
	}
}

/* Descending stores from high indices. */
static bool gen_reverse(struct diff *d)
{
	unsigned long first, last;

	if (d->m.nr >= d->limit || d->cursor < 100000) {
		d->limit = 16 + rnd(d, 1500);
		d->cursor = ULONG_MAX - rnd(d, 3) * (ULONG_MAX / 4);
		return d_destroy(d);
	}
	last = d->cursor - rnd(d, 3);
	first = last - rnd_len(d, 16);
	d->cursor = first - 1;
	if (!rnd(d, 8))
		return d_erase(d, rnd_entry_index(d, last));
	return d_store(d, first, last, rnd_entry(d));
}

/* Random stores, NULL stores and erases in [0, 5000). */
static bool gen_random(struct diff *d)
{
	unsigned long first = rnd(d, 5000);
	unsigned long last = first + rnd_len(d, 100);

	switch (rnd(d, 10)) {
	case 0:
	case 1:
		return d_erase(d, rnd(d, 2) ? rnd_entry_index(d, first) : first);
	case 2:
		return d_store(d, first, last, NULL);
	default:
		return d_store(d, first, last, rnd_entry(d));
	}
}

/* Single-index stores and erases packed into [0, 1024). */
static bool gen_dense(struct diff *d)
{
	unsigned long index = rnd(d, 1024);

	switch (rnd(d, 5)) {
	case 0:
	case 1:
		return d_erase(d, index);
	case 2:
		return d_store(d, index, index, NULL);
	default:
		return d_store(d, index, index, rnd_entry(d));
	}
}

/* Ranges of any size anywhere in the 64-bit index space. */
static bool gen_wide(struct diff *d)
{
	unsigned long first = rnd_wide_index(d);
	unsigned long last = add_sat(first, rnd(d, 4) ?
				     rnd_len(d, ULONG_MAX) : rnd(d, 3));

	switch (rnd(d, 10)) {
	case 0:
	case 1:
		return d_erase(d, rnd(d, 2) ? rnd_entry_index(d, first) : first);
	case 2:
		return d_store(d, first, last, NULL);
	case 3:
		return d_insert(d, first, last, rnd_entry(d));
	default:
		return d_store(d, first, last, rnd_entry(d));
	}
}

/*
 * Keep about a thousand small ranges in [0, 20000) and overwrite many of
 * them at once with entries and NULLs: spanning stores across leaves and
 * levels, with the rebalancing that follows.
 */
static bool gen_spanning(struct diff *d)
{
	unsigned long first, last;

	if (!rnd(d, 5000))
		return d_dup(d);
	if (d->m.nr < 600 || rnd(d, 3)) {
		first = rnd(d, 20000);
		return d_store(d, first, first + rnd(d, 8), rnd_entry(d));
	}
	first = rnd(d, 20000);
	last = first + 100 + rnd_len(d, 6000);
	switch (rnd(d, 4)) {
	case 0:
		return d_store(d, first, last, NULL);
	case 1:
		return d_mas_store(d, first, last, rnd_entry(d));
	default:
		return d_store(d, first, last, rnd_entry(d));
	}
}

/* Fill up to a random size, then erase everything in random order. */
static bool gen_erase_heavy(struct diff *d)
{
	unsigned long first;

	if (!d->draining) {
		if (d->m.nr >= d->limit) {
			d->draining = true;
			return rnd(d, 4) ? true : d_dup(d);
		}
		first = rnd(d, 50000);
		return d_store(d, first, first + rnd_len(d, 40), rnd_entry(d));
	}
	d->draining = false;
	d->limit = 10 + rnd(d, 3000);
	return d_drain(d);
}

/* Inserts that must fail with -EEXIST exactly where the model is occupied. */
static bool gen_insert(struct diff *d)
{
	unsigned long first = rnd(d, 20000);
	unsigned long last = first + rnd_len(d, 200);

	switch (rnd(d, 10)) {
	case 0:
	case 1:
		return d_erase(d, rnd_entry_index(d, first));
	case 2:
		return d_store(d, first, last, NULL);
	default:
		return d_insert(d, first, last, rnd_entry(d));
	}
}

/* Allocation tree: stores, erases and gap allocations. */
static bool gen_alloc(struct diff *d)
{
	unsigned long first = rnd(d, 100000);
	unsigned long size;

	if (d->m.nr > 1500)
		return d_erase(d, rnd_entry_index(d, first));
	switch (rnd(d, 10)) {
	case 0:
	case 1:
	case 2:
		return d_store(d, first, first + rnd_len(d, 300),
			       rnd_entry(d));
	case 3:
	case 4:
		return d_erase(d, rnd_entry_index(d, first));
	case 5:
		return d_store(d, first, first + rnd_len(d, 2000), NULL);
	case 6:
	case 7:
		size = 1 + rnd_len(d, 300);
		return d_alloc(d, first, first + size + rnd_len(d, 60000),
			       size, false);
	default:
		size = 1 + rnd_len(d, 300);
		return d_alloc(d, first, first + size + rnd_len(d, 60000),
			       size, true);
	}
}

/* The advanced API: mas_store, mas_store_gfp, mas_erase. */
static bool gen_advanced(struct diff *d)
{
	unsigned long first = rnd(d, 10000);
	unsigned long last = first + rnd_len(d, 300);

	switch (rnd(d, 8)) {
	case 0:
		return d_mas_erase(d, rnd_entry_index(d, first));
	case 1:
		return d_mas_store(d, first, last, NULL);
	case 2:
		return d_mas_store_gfp(d, first, last, rnd_entry(d));
	case 3:
		return d_prealloc(d, first, last, rnd_entry(d));
	case 4:
		return d_prealloc(d, first, last, NULL);
	default:
		return d_mas_store(d, first, last, rnd_entry(d));
	}
}

/* Tiny ranges at and next to both ends of the index space. */
static bool gen_boundary(struct diff *d)
{
	unsigned long first, last;

	first = rnd(d, 2) ? rnd(d, 6) : ULONG_MAX - rnd(d, 6);
	last = add_sat(first, rnd(d, 4));
	if (!rnd(d, 16))
		last = ULONG_MAX;
	if (!rnd(d, 16))
		first = 0;
	switch (rnd(d, 8)) {
	case 0:
		return d_erase(d, first);
	case 1:
		return d_store(d, first, last, NULL);
	case 2:
		return d_insert(d, first, last, rnd_entry(d));
	case 3:
		return d_mas_store(d, first, last, rnd_entry(d));
	default:
		return d_store(d, first, last, rnd_entry(d));
	}
}

/*
 * A walk that pauses after every step while random writes go on: each step
 * of mas_find() (or mas_find_rev()) must return the first entry at or
 * after (before) the end of the previous one in the tree as it is now.
 */
static bool walk_step(struct diff *d)
{
	const struct model_range *r;
	char msg[MODEL_MSG_LEN];
	void *entry;

	if (!d->walk_on) {
		d->walk_from = rnd(d, 4) ? rnd(d, 25000) : ULONG_MAX;
		d->walk_rev = rnd(d, 2);
		{
			MA_STATE(fresh, &d->mt, d->walk_from, d->walk_from);

			d->walk = fresh;
		}
		d->walk_on = true;
	}
	diff_note(d, D_WALK, d->walk_from, d->walk_from, NULL);
	rcu_read_lock();
	if (d->walk_rev) {
		r = model_find_rev(&d->m, d->walk_from, 0);
		entry = mas_find_rev(&d->walk, 0);
	} else {
		r = model_find(&d->m, d->walk_from, ULONG_MAX);
		entry = mas_find(&d->walk, ULONG_MAX);
	}
	if (!r && entry) {
		snprintf(msg, sizeof(msg), "%s returned %p [%lu, %lu], expected NULL",
			 d->walk_rev ? "mas_find_rev" : "mas_find", entry,
			 d->walk.index, d->walk.last);
		rcu_read_unlock();
		return diff_fail(d, msg);
	}
	if (r && (entry != r->entry || d->walk.index != r->first ||
		  d->walk.last != r->last)) {
		snprintf(msg, sizeof(msg), "%s returned %p [%lu, %lu], expected %p [%lu, %lu]",
			 d->walk_rev ? "mas_find_rev" : "mas_find", entry,
			 d->walk.index, d->walk.last, r->entry, r->first,
			 r->last);
		rcu_read_unlock();
		return diff_fail(d, msg);
	}
	mas_pause(&d->walk);
	rcu_read_unlock();
	if (!r || (d->walk_rev ? r->first == 0 : r->last == ULONG_MAX))
		d->walk_on = false;
	else
		d->walk_from = d->walk_rev ? r->first - 1 : r->last + 1;
	return true;
}

static bool gen_paused_walk(struct diff *d)
{
	unsigned long first = rnd(d, 25000);
	unsigned long last = first + rnd_len(d, 500);

	if (rnd(d, 2))
		return walk_step(d);
	switch (rnd(d, 6)) {
	case 0:
		return d_erase(d, rnd_entry_index(d, first));
	case 1:
		return d_store(d, first, last, NULL);
	case 2:
		/* Often right where the walk is */
		first = d->walk_from > 3 ? d->walk_from - rnd(d, 4) : 0;
		return d_store(d, first, add_sat(first, rnd(d, 8)),
			       rnd_entry(d));
	default:
		return d_store(d, first, last, rnd_entry(d));
	}
}

/* ---------------------------------------------------------------------- */
/* Driver */

static unsigned long name_hash(const char *s)
{
	unsigned long h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void diff_run(struct kunit *test, const char *name, unsigned int flags,
		     unsigned long nr_ops, bool (*gen)(struct diff *d))
{
	struct diff diff = { 0 };
	struct diff *d = &diff;

	d->test = test;
	d->name = name;
	d->seed = ktest_seed();
	model_rng_seed(&d->rng, d->seed ^ name_hash(name));
	mt_init_flags(&d->mt, flags);
	model_init(&d->m);
	d->limit = 16 + rnd(d, 1500);
	d->cursor = ULONG_MAX / 2;

	while (d->op_nr < nr_ops && !d->failed)
		if (!gen(d))
			break;
	if (!d->failed)
		diff_full(d);
	kunit_info(test, "%lu writes, up to %lu entries, height %u, seed %lu\n",
		   d->op_nr, d->max_nr, d->max_height, d->seed);

	mtree_destroy(&d->mt);
	model_destroy(&d->m);
}

#define DIFF_CASE(fn, nr, flags, gen)					\
static void fn(struct kunit *test)					\
{									\
	diff_run(test, #fn, flags, nr, gen);				\
}

DIFF_CASE(diff_sequential_append, 200000, 0, gen_append)
DIFF_CASE(diff_descending_stores, 100000, 0, gen_reverse)
DIFF_CASE(diff_random_ranges, 150000, 0, gen_random)
DIFF_CASE(diff_dense_points, 100000, 0, gen_dense)
DIFF_CASE(diff_wide_ranges, 100000, 0, gen_wide)
DIFF_CASE(diff_spanning_overwrites, 80000, 0, gen_spanning)
DIFF_CASE(diff_erase_heavy_cycles, 150000, 0, gen_erase_heavy)
DIFF_CASE(diff_insert_expects_eexist_from_model, 80000, 0, gen_insert)
DIFF_CASE(diff_alloc_tree_allocations, 60000, MT_FLAGS_ALLOC_RANGE, gen_alloc)
DIFF_CASE(diff_alloc_tree_spanning, 50000, MT_FLAGS_ALLOC_RANGE, gen_spanning)
DIFF_CASE(diff_alloc_tree_random, 50000, MT_FLAGS_ALLOC_RANGE, gen_random)
DIFF_CASE(diff_advanced_api, 60000, 0, gen_advanced)
DIFF_CASE(diff_rcu_mode_random, 50000, MT_FLAGS_USE_RCU, gen_random)
DIFF_CASE(diff_rcu_alloc_tree_spanning, 40000,
	  MT_FLAGS_USE_RCU | MT_FLAGS_ALLOC_RANGE, gen_spanning)
DIFF_CASE(diff_rcu_mode_advanced_api, 40000, MT_FLAGS_USE_RCU, gen_advanced)
DIFF_CASE(diff_index_space_ends, 50000, 0, gen_boundary)
DIFF_CASE(diff_paused_walks_across_writes, 60000, 0, gen_paused_walk)

static struct kunit_case maple_diff_cases[] = {
	KUNIT_CASE(diff_sequential_append),
	KUNIT_CASE(diff_descending_stores),
	KUNIT_CASE(diff_random_ranges),
	KUNIT_CASE(diff_dense_points),
	KUNIT_CASE(diff_wide_ranges),
	KUNIT_CASE(diff_spanning_overwrites),
	KUNIT_CASE(diff_erase_heavy_cycles),
	KUNIT_CASE(diff_insert_expects_eexist_from_model),
	KUNIT_CASE(diff_alloc_tree_allocations),
	KUNIT_CASE(diff_alloc_tree_spanning),
	KUNIT_CASE(diff_alloc_tree_random),
	KUNIT_CASE(diff_advanced_api),
	KUNIT_CASE(diff_rcu_mode_random),
	KUNIT_CASE(diff_rcu_alloc_tree_spanning),
	KUNIT_CASE(diff_rcu_mode_advanced_api),
	KUNIT_CASE(diff_index_space_ends),
	KUNIT_CASE(diff_paused_walks_across_writes),
	{}
};

static struct kunit_suite maple_diff_suite = {
	.name = "maple_diff",
	.test_cases = maple_diff_cases,
};
kunit_test_suite(maple_diff_suite);
