// SPDX-License-Identifier: GPL-2.0+
/*
 * Tests of allocation trees (MT_FLAGS_ALLOC_RANGE): the gap searches
 * mas_empty_area() and mas_empty_area_rev(), and mtree_alloc_range() and
 * mtree_alloc_rrange(), which search and store in one step.
 *
 * What a search must return (Linux 6.1 semantics):
 *
 *   mas_empty_area(mas, min, max, size) finds the lowest run of @size NULL
 *   indices lying inside [min, max]: mas->index is its first index and
 *   mas->last = mas->index + size - 1.  mas_empty_area_rev() finds the
 *   highest such run: mas->last is the highest possible end.  Both return
 *   -EBUSY when nothing fits, -EINVAL for size 0 or min > max, and for a
 *   window smaller than @size (max - min + 1 < size) SMALL_WINDOW: -EBUSY
 *   in Linux 6.1's interface, -EINVAL in 6.12's.
 *   mtree_alloc_range() and mtree_alloc_rrange() refuse the small window
 *   with -EINVAL, like size 0 and min > max.
 *
 * The suites:
 *
 *   maple_alloc_diff        randomized differential test: random trees of
 *                           1 to 100,000 ranges, writes of every kind
 *                           (mtree_store_range(), mas_store_gfp(),
 *                           mas_preallocate() + mas_store_prealloc(),
 *                           spanning stores, erases, mtree_alloc_{,r}range()),
 *                           mt_validate_errors() after writes, and batteries
 *                           of searches compared with the model's own search
 *                           (model_empty_area{,_rev}(), a plain scan of the
 *                           model's gaps).  The seed is printed; SEED=N
 *                           replays a run.
 *   maple_alloc_exhaustive  every occupancy pattern of the universe [0, 11],
 *                           every window inside [0, 20] (and up to ULONG_MAX)
 *                           and every size 1..12, against the model and
 *                           against a bit-by-bit scan.
 *   maple_alloc_api         one behaviour per case, the expected result
 *                           written down; -ENOMEM sweeps over the allocations
 *                           of mtree_alloc_{,r}range().
 *   maple_alloc_vma         the mmap() pattern: top-down searches below a
 *                           ceiling for a size plus a guard gap, until full,
 *                           then freed holes must be found again.
 */
#include <kunit/test.h>
#include <linux/maple_tree.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"
#include "model.h"
#include "suite_helpers.h"

/* ---------------------------------------------------------------------- */
/* Helpers shared by the suites */

/* A request mtree_alloc_{,r}range() must refuse with -EINVAL. */
static bool bad_window(unsigned long min, unsigned long max,
		       unsigned long size)
{
	return !size || min > max || max - min < size - 1;
}

/* What a search returns for a window smaller than the size asked for. */
#define SMALL_WINDOW	(MT_API_612 ? -EINVAL : -EBUSY)

/*
 * What a search returns for a request it cannot serve, or 0: -EINVAL for
 * size 0 or min > max, SMALL_WINDOW for a window smaller than @size.
 */
static int search_refusal(unsigned long min, unsigned long max,
			  unsigned long size)
{
	if (!size || min > max)
		return -EINVAL;
	return max - min < size - 1 ? SMALL_WINDOW : 0;
}

/*
 * What a search must return on a tree that reads as @m, by the model's own
 * search; on 0, *@start is the first index of the area.
 */
static int model_search(const struct model *m, unsigned long min,
			unsigned long max, unsigned long size, bool rev,
			unsigned long *start)
{
	bool found;
	int ret = search_refusal(min, max, size);

	if (ret)
		return ret;
	if (rev)
		found = model_empty_area_rev(m, min, max, size, start);
	else
		found = model_empty_area(m, min, max, size, start);
	return found ? 0 : -EBUSY;
}

/* One search from a fresh maple state; the caller holds the RCU lock. */
static int tree_search(struct maple_tree *mt, unsigned long min,
		       unsigned long max, unsigned long size, bool rev,
		       unsigned long *index, unsigned long *last)
{
	MA_STATE(mas, mt, 0, 0);
	int ret;

	if (rev)
		ret = mas_empty_area_rev(&mas, min, max, size);
	else
		ret = mas_empty_area(&mas, min, max, size);
	*index = mas.index;
	*last = mas.last;
	return ret;
}

static const char *search_name(bool rev)
{
	return rev ? "mas_empty_area_rev" : "mas_empty_area";
}

/*
 * Search the tree (the caller holds the RCU lock) and hold the result to
 * @expect, and on 0 to the area starting at @start.  On a difference,
 * describe it in @msg and return false.
 */
static bool search_agrees(struct maple_tree *mt, unsigned long min,
			  unsigned long max, unsigned long size, bool rev,
			  int expect, unsigned long start, char *msg,
			  size_t len)
{
	unsigned long index, last;
	int ret;

	ret = tree_search(mt, min, max, size, rev, &index, &last);
	if (ret == expect &&
	    (ret || (index == start && last == start + size - 1)))
		return true;
	if (expect)
		snprintf(msg, len,
			 "%s(min %lu, max %lu, size %lu) = %d [%lu, %lu], expected %d",
			 search_name(rev), min, max, size, ret, index, last,
			 expect);
	else
		snprintf(msg, len,
			 "%s(min %lu, max %lu, size %lu) = %d [%lu, %lu], expected 0 [%lu, %lu]",
			 search_name(rev), min, max, size, ret, index, last,
			 start, start + size - 1);
	return false;
}

static unsigned long name_hash(const char *s)
{
	unsigned long h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* ====================================================================== */
/* maple_alloc_diff: random trees against the model's search */

/*
 * Writes are validated (mt_validate_errors() == 0) one by one, except while
 * a tree is first grown beyond AD_VALIDATE_ALL ranges: a full validation
 * costs time linear in the tree, so that growth is validated every
 * nr / AD_GROWTH_CHECKS writes (and every write is still read back at its
 * bounds).  Once a tree has its size, every write is validated.
 */
#define AD_VALIDATE_ALL		10000
#define AD_GROWTH_CHECKS	256

struct adiff {
	struct kunit *test;
	const char *name;
	unsigned long seed;
	struct model_rng rng;
	struct maple_tree mt;
	struct model m;
	/* Most writes fall in [base, base + span - 1]. */
	unsigned long base, span;
	bool growing;
	/* counts for the report */
	unsigned long writes, validations, searches, found, allocs;
	unsigned long trees, max_nr;
	unsigned int max_height;
	unsigned long since_validate;
	bool failed;
	char what[192];		/* the operation being checked */
};

static unsigned long ad_rnd(struct adiff *d, unsigned long n)
{
	return model_rng_below(&d->rng, n);
}

/* A length spread over magnitudes: mostly short, sometimes up to @max. */
static unsigned long ad_len(struct adiff *d, unsigned long max)
{
	unsigned long bits = 0, v;

	while (bits < BITS_PER_LONG - 1 && (1UL << bits) < max)
		bits++;
	v = ad_rnd(d, bits + 1);
	v = v ? (unsigned long)model_rng_next(&d->rng) & ((1UL << v) - 1) : 0;
	return v > max ? max : v;
}

static unsigned long sat_add(unsigned long a, unsigned long b)
{
	return b > ULONG_MAX - a ? ULONG_MAX : a + b;
}

static void *ad_entry(struct adiff *d)
{
	return val(model_rng_next(&d->rng) & 0xfffffUL);
}

static void __printf(2, 3) ad_note(struct adiff *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->what, sizeof(d->what), fmt, ap);
	va_end(ap);
}

static bool __printf(2, 3) ad_fail(struct adiff *d, const char *fmt, ...)
{
	char msg[MODEL_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	KUNIT_FAIL(d->test,
		   "%s: tree %lu, write %lu, %lu ranges: %s: %s; seed %lu (replay with SEED=%lu)",
		   d->name, d->trees, d->writes, d->m.nr, d->what, msg,
		   d->seed, d->seed);
	d->failed = true;
	return false;
}

/* An index inside the universe. */
static unsigned long ad_index(struct adiff *d)
{
	return d->base + ad_rnd(d, d->span);
}

/* The NULL gap below model range @j (j == nr: the gap after the last). */
static bool ad_gap(const struct model *m, unsigned long j, unsigned long *lo,
		   unsigned long *hi)
{
	if (j > 0 && m->r[j - 1].last == ULONG_MAX)
		return false;
	*lo = j > 0 ? m->r[j - 1].last + 1 : 0;
	if (j < m->nr) {
		if (m->r[j].first == 0)
			return false;
		*hi = m->r[j].first - 1;
	} else {
		*hi = ULONG_MAX;
	}
	return *lo <= *hi;
}

/*
 * An index worth searching from: 0 or ULONG_MAX and next to them, the
 * bounds of a range and next to them, a point inside a gap, or anywhere
 * in the universe.
 */
static unsigned long ad_point(struct adiff *d)
{
	const struct model_range *r;
	unsigned long lo, hi;

	switch (ad_rnd(d, 10)) {
	case 0:
		return ad_rnd(d, 3);
	case 1:
		return ULONG_MAX - ad_rnd(d, 3);
	case 2:
	case 3:
		if (!d->m.nr)
			break;
		r = &d->m.r[ad_rnd(d, d->m.nr)];
		switch (ad_rnd(d, 4)) {
		case 0:
			return r->first ? r->first - 1 : 0;
		case 1:
			return r->first;
		case 2:
			return r->last;
		default:
			return sat_add(r->last, 1);
		}
	case 4:
	case 5:
		if (!ad_gap(&d->m, ad_rnd(d, d->m.nr + 1), &lo, &hi))
			break;
		return lo + ad_rnd(d, hi - lo < 4096 ? hi - lo + 1 : 4096);
	default:
		break;
	}
	return ad_index(d);
}

/* First model range whose first index is above @index (or nr). */
static unsigned long ad_first_above(const struct model *m,
				    unsigned long index)
{
	unsigned long lo = 0, hi = m->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->r[mid].first > index)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The largest number of NULL indices in one gap inside [min, max],
 * saturated at ULONG_MAX (the empty tree's [0, ULONG_MAX]).
 */
static unsigned long ad_gap_in(const struct model *m, unsigned long min,
			       unsigned long max)
{
	unsigned long j, lo, hi, best = 0, n;

	for (j = ad_first_above(m, min); j <= m->nr; j++) {
		if (!ad_gap(m, j, &lo, &hi))
			continue;
		if (lo > max)
			break;
		if (hi < min)
			continue;
		lo = lo < min ? min : lo;
		hi = hi > max ? max : hi;
		n = hi - lo == ULONG_MAX ? ULONG_MAX : hi - lo + 1;
		if (n > best)
			best = n;
	}
	return best;
}

/* Search both ways for @size in [min, max] and hold both to the model. */
static bool ad_search(struct adiff *d, unsigned long min, unsigned long max,
		      unsigned long size)
{
	char msg[MODEL_MSG_LEN];
	unsigned long start = 0;
	int rev, expect;

	for (rev = 0; rev < 2; rev++) {
		expect = model_search(&d->m, min, max, size, rev, &start);
		d->searches++;
		if (!expect)
			d->found++;
		if (!search_agrees(&d->mt, min, max, size, rev, expect, start,
				   msg, sizeof(msg)))
			return ad_fail(d, "%s", msg);
	}
	return true;
}

/*
 * A battery of searches over @nr_windows random windows: for each, the
 * sizes 1, a random one, exactly the largest gap inside the window and one
 * more, one more than the largest gap in the whole tree, exactly the
 * window and one more, and a window of exactly a random size placed at a
 * random point.
 */
static bool ad_battery(struct adiff *d, unsigned long nr_windows)
{
	unsigned long k, a, b, min, max, gap, all, size, window;
	bool ok = true;

	ad_note(d, "search battery");
	all = ad_gap_in(&d->m, 0, ULONG_MAX);
	rcu_read_lock();
	for (k = 0; ok && k < nr_windows; k++) {
		a = ad_point(d);
		if (ad_rnd(d, 4))
			b = ad_point(d);
		else
			b = sat_add(a, ad_len(d, 1UL << 20));
		min = a < b ? a : b;
		max = a < b ? b : a;
		if (!ad_rnd(d, 8))
			min = 0;
		if (!ad_rnd(d, 8))
			max = ULONG_MAX;
		gap = ad_gap_in(&d->m, min, max);
		window = max - min == ULONG_MAX ? ULONG_MAX : max - min + 1;

		ok = ad_search(d, min, max, 1) &&
		     ad_search(d, min, max, 1 + ad_len(d, window - 1)) &&
		     (!gap || ad_search(d, min, max, gap)) &&
		     (gap == ULONG_MAX || ad_search(d, min, max, gap + 1)) &&
		     (all == ULONG_MAX || ad_search(d, min, max, all + 1)) &&
		     ad_search(d, min, max, window) &&
		     (window == ULONG_MAX ||
		      ad_search(d, min, max, window + 1));
		if (!ok)
			break;

		/* a window of exactly @size */
		size = 1 + ad_len(d, 64);
		min = ad_point(d);
		if (min > ULONG_MAX - (size - 1))
			min = ULONG_MAX - (size - 1);
		ok = ad_search(d, min, min + size - 1, size);
	}
	rcu_read_unlock();
	/* Searching must not have changed the tree. */
	if (ok && mt_validate_errors(&d->mt))
		return ad_fail(d, "mt_validate_errors() after searching");
	return ok;
}

/* The checks after a write of [first, last]. */
static bool ad_written(struct adiff *d, unsigned long first,
		       unsigned long last)
{
	char msg[MODEL_MSG_LEN];
	unsigned long every = 1;

	d->writes++;
	if (d->m.nr > d->max_nr)
		d->max_nr = d->m.nr;
	if (mt_height(&d->mt) > d->max_height)
		d->max_height = mt_height(&d->mt);
	if (d->growing && d->m.nr > AD_VALIDATE_ALL)
		every = d->m.nr / AD_GROWTH_CHECKS;
	if (++d->since_validate >= every) {
		d->since_validate = 0;
		d->validations++;
		if (model_check_write(&d->mt, &d->m, first, last, msg,
				      sizeof(msg)))
			return ad_fail(d, "%s", msg);
		return true;
	}
	if (model_check_point(&d->mt, &d->m, first, msg, sizeof(msg)) ||
	    model_check_point(&d->mt, &d->m, last, msg, sizeof(msg)) ||
	    (first && model_check_point(&d->mt, &d->m, first - 1, msg,
					sizeof(msg))) ||
	    (last < ULONG_MAX && model_check_point(&d->mt, &d->m, last + 1,
						   msg, sizeof(msg))))
		return ad_fail(d, "%s", msg);
	return true;
}

/*
 * Store through the normal API most of the time, else as mm/ does:
 * mas_store_gfp(), or mas_preallocate() and mas_store_prealloc().
 */
static bool ad_store(struct adiff *d, unsigned long first, unsigned long last,
		     void *entry)
{
	MA_STATE(mas, &d->mt, first, last);
	int ret;

	switch (ad_rnd(d, 8)) {
	case 0:
		ad_note(d, "mas_store_gfp(%lu, %lu, %p)", first, last, entry);
		mas_lock(&mas);
		ret = mas_store_gfp(&mas, entry, GFP_KERNEL);
		mas_unlock(&mas);
		mas_destroy(&mas);
		break;
	case 1:
		ad_note(d, "mas_preallocate+mas_store_prealloc(%lu, %lu, %p)",
			first, last, entry);
		/* Under a spinlock preallocation may not sleep. */
		mas_lock(&mas);
		ret = mas_preallocate(&mas, entry, GFP_NOWAIT);
		if (!ret)
			mas_store_prealloc(&mas, entry);
		mas_unlock(&mas);
		mas_destroy(&mas);
		break;
	default:
		ad_note(d, "mtree_store_range(%lu, %lu, %p)", first, last,
			entry);
		ret = mtree_store_range(&d->mt, first, last, entry,
					GFP_KERNEL);
	}
	if (ret)
		return ad_fail(d, "returned %d", ret);
	model_store_range(&d->m, first, last, entry);
	return ad_written(d, first, last);
}

static bool ad_erase(struct adiff *d, unsigned long index)
{
	MA_STATE(mas, &d->mt, index, index);
	unsigned long first, last;
	void *expect, *old;

	expect = model_walk(&d->m, index, &first, &last);
	if (ad_rnd(d, 4)) {
		ad_note(d, "mtree_erase(%lu)", index);
		old = mtree_erase(&d->mt, index);
	} else {
		ad_note(d, "mas_erase(%lu)", index);
		mas_lock(&mas);
		old = mas_erase(&mas);
		mas_unlock(&mas);
		mas_destroy(&mas);
	}
	if (old != expect)
		return ad_fail(d, "returned %p, expected %p", old, expect);
	model_erase(&d->m, index);
	return ad_written(d, first, last);
}

/* mtree_alloc_{,r}range() must allocate where the model's search says. */
static bool ad_alloc(struct adiff *d, unsigned long min, unsigned long max,
		     unsigned long size, bool rev)
{
	unsigned long start = 0, expect_start = 0;
	void *entry = ad_entry(d);
	int ret, expect;

	ad_note(d, "%s(size %lu, min %lu, max %lu, %p)",
		rev ? "mtree_alloc_rrange" : "mtree_alloc_range", size, min,
		max, entry);
	expect = bad_window(min, max, size) ? -EINVAL :
		 model_search(&d->m, min, max, size, rev, &expect_start);
	if (rev)
		ret = mtree_alloc_rrange(&d->mt, &start, entry, size, min, max,
					 GFP_KERNEL);
	else
		ret = mtree_alloc_range(&d->mt, &start, entry, size, min, max,
					GFP_KERNEL);
	if (ret != expect)
		return ad_fail(d, "returned %d, expected %d (at %lu)", ret,
			       expect, expect_start);
	if (ret)
		return ad_written(d, min, min);
	if (start != expect_start)
		return ad_fail(d, "allocated at %lu, expected %lu", start,
			       expect_start);
	d->allocs++;
	model_store_range(&d->m, start, start + size - 1, entry);
	return ad_written(d, start, start + size - 1);
}

/* A random entry's index, or @fallback in an empty tree. */
static unsigned long ad_entry_index(struct adiff *d, unsigned long fallback)
{
	const struct model_range *r;

	if (!d->m.nr)
		return fallback;
	r = &d->m.r[ad_rnd(d, d->m.nr)];
	return r->first + ad_rnd(d, r->last - r->first < 64 ?
				    r->last - r->first + 1 : 64);
}

/*
 * One random write.  @target is the number of ranges the tree should stay
 * near: below it stores win, above it erases and NULL stores do.
 */
static bool ad_write(struct adiff *d, unsigned long target)
{
	unsigned long first = ad_index(d), min, size, len;
	unsigned long avg = d->span / (target + 1) + 1;
	unsigned int pick = ad_rnd(d, 20);

	if (d->m.nr > target + target / 4 && pick < 8)
		pick += 12;
	else if (d->m.nr < target - target / 4 && pick >= 12)
		pick -= 12;

	switch (pick) {
	case 0: case 1: case 2: case 3: case 4:
		/* a small range, often splitting or trimming others */
		return ad_store(d, first, sat_add(first, ad_len(d, avg)),
				ad_entry(d));
	case 5:
		/* a spanning store over many ranges */
		len = ad_len(d, d->span / 8);
		return ad_store(d, first, sat_add(first, len), ad_entry(d));
	case 6: case 7:
		size = 1 + ad_len(d, 2 * avg);
		min = ad_rnd(d, 4) ? ad_point(d) : d->base;
		return ad_alloc(d, min, ad_rnd(d, 4) ?
				sat_add(min, size - 1 + ad_len(d, d->span)) :
				ULONG_MAX, size, false);
	case 8: case 9:
		size = 1 + ad_len(d, 2 * avg);
		min = ad_rnd(d, 4) ? ad_point(d) : 0;
		return ad_alloc(d, min, ad_rnd(d, 4) ?
				sat_add(min, size - 1 + ad_len(d, d->span)) :
				ULONG_MAX, size, true);
	case 10:
		/* at and next to the ends of the index space */
		first = ad_rnd(d, 2) ? ad_rnd(d, 4) : ULONG_MAX - ad_rnd(d, 4);
		len = ad_rnd(d, 3);
		return ad_store(d, first, sat_add(first, len),
				ad_rnd(d, 2) ? ad_entry(d) : NULL);
	case 11:
		/* a window of exactly the size asked for */
		size = 1 + ad_len(d, avg);
		min = ad_point(d);
		if (min > ULONG_MAX - (size - 1))
			min = ULONG_MAX - (size - 1);
		return ad_alloc(d, min, min + size - 1, size, ad_rnd(d, 2));
	case 12: case 13: case 14: case 15:
		return ad_erase(d, ad_entry_index(d, first));
	case 16: case 17:
		return ad_store(d, first, sat_add(first, ad_len(d, avg)), NULL);
	default:
		/* a spanning NULL store: one big gap out of many ranges */
		len = ad_len(d, d->span / 16);
		return ad_store(d, first, sat_add(first, len), NULL);
	}
}

/*
 * One tree: grow it to @target ranges (stores and allocations), search,
 * then @nr_writes random writes with a battery of @nr_windows windows
 * @checkpoints times along the way, and a full model_compare() at the end.
 */
static bool ad_tree(struct adiff *d, unsigned int flags, unsigned long target,
		    unsigned long nr_writes, unsigned long checkpoints,
		    unsigned long nr_windows)
{
	char msg[MODEL_MSG_LEN];
	unsigned long k, every, limit;

	d->trees++;
	d->span = target * (32 + ad_rnd(d, 64)) + 64;
	switch (ad_rnd(d, 4)) {
	case 0:
		d->base = ULONG_MAX - d->span + 1;
		break;
	case 1:
		d->base = ad_rnd(d, ULONG_MAX / 2);
		break;
	default:
		d->base = 0;
	}
	mt_init_flags(&d->mt, flags);
	model_init(&d->m);

	d->growing = true;
	d->since_validate = 0;
	/* Sometimes start from a lone entry at 0, held in the root pointer. */
	if (!ad_rnd(d, 8) &&
	    !(ad_store(d, 0, 0, ad_entry(d)) && ad_battery(d, nr_windows)))
		return false;
	limit = 8 * target + 64;
	for (k = 0; d->m.nr < target && k < limit; k++) {
		unsigned long first = ad_index(d);
		unsigned long avg = d->span / (target + 1) + 1;
		unsigned long size = 1 + ad_len(d, avg), max;
		bool ok;

		switch (ad_rnd(d, 10)) {
		case 0:
			max = ULONG_MAX;
			if (ad_rnd(d, 2))
				max = sat_add(first,
					      size - 1 + ad_len(d, d->span));
			ok = ad_alloc(d, first, max, size, false);
			break;
		case 1:
			max = first < size - 1 ? size - 1 : first;
			ok = ad_alloc(d, ad_rnd(d, 2) ? 0 : d->base, max, size,
				      true);
			break;
		case 2:
			ok = ad_erase(d, ad_entry_index(d, first));
			break;
		default:
			ok = ad_store(d, first, sat_add(first, size - 1),
				      ad_entry(d));
		}
		if (!ok)
			return false;
	}
	d->growing = false;
	if (model_check_write(&d->mt, &d->m, 0, 0, msg, sizeof(msg)))
		return ad_fail(d, "after growing: %s", msg);
	if (!ad_battery(d, nr_windows))
		return false;

	every = checkpoints ? nr_writes / checkpoints : 0;
	for (k = 1; k <= nr_writes; k++) {
		if (!ad_write(d, target))
			return false;
		if (every && k % every == 0 && !ad_battery(d, nr_windows))
			return false;
	}

	ad_note(d, "full compare at the end");
	if (model_compare(&d->mt, &d->m, msg, sizeof(msg)))
		return ad_fail(d, "%s", msg);
	mtree_destroy(&d->mt);
	model_destroy(&d->m);
	return true;
}

struct ad_plan {
	unsigned int flags;
	unsigned long trees;
	unsigned long min_ranges, max_ranges;	/* size of each tree */
	unsigned long nr_writes;		/* after growing */
	unsigned long checkpoints;		/* batteries meanwhile */
	unsigned long nr_windows;		/* windows per battery */
};

static void ad_run(struct kunit *test, const char *name,
		   const struct ad_plan *p)
{
	struct adiff *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned long t, target;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->test = test;
	d->name = name;
	d->seed = ktest_seed();
	model_rng_seed(&d->rng, d->seed ^ name_hash(name));

	for (t = 0; t < p->trees; t++) {
		target = p->min_ranges +
			 ad_rnd(d, p->max_ranges - p->min_ranges + 1);
		if (!ad_tree(d, p->flags, target, p->nr_writes, p->checkpoints,
			     p->nr_windows)) {
			mtree_destroy(&d->mt);
			model_destroy(&d->m);
			break;
		}
	}
	kunit_info(test,
		   "%lu trees, up to %lu ranges, height %u: %lu writes (%lu validated), %lu allocations, %lu searches (%lu found); seed %lu\n",
		   d->trees, d->max_nr, d->max_height, d->writes,
		   d->validations, d->allocs, d->searches, d->found, d->seed);
}

#define AD_CASE(fn, ...)						\
static void fn(struct kunit *test)					\
{									\
	static const struct ad_plan plan = { __VA_ARGS__ };		\
									\
	ad_run(test, #fn, &plan);					\
}

AD_CASE(alloc_diff_trees_of_1_to_100_ranges,
	.flags = MT_FLAGS_ALLOC_RANGE, .trees = 1000, .min_ranges = 1,
	.max_ranges = 100, .nr_writes = 60, .checkpoints = 2,
	.nr_windows = 24)
AD_CASE(alloc_diff_trees_of_1000_ranges,
	.flags = MT_FLAGS_ALLOC_RANGE, .trees = 8, .min_ranges = 500,
	.max_ranges = 1500, .nr_writes = 2000, .checkpoints = 4,
	.nr_windows = 128)
AD_CASE(alloc_diff_tree_of_10000_ranges,
	.flags = MT_FLAGS_ALLOC_RANGE, .trees = 1, .min_ranges = 10000,
	.max_ranges = 10000, .nr_writes = 3000, .checkpoints = 3,
	.nr_windows = 128)
AD_CASE(alloc_diff_rcu_tree_of_10000_ranges,
	.flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU, .trees = 1,
	.min_ranges = 10000, .max_ranges = 10000, .nr_writes = 2000,
	.checkpoints = 2, .nr_windows = 128)
AD_CASE(alloc_diff_tree_of_100000_ranges,
	.flags = MT_FLAGS_ALLOC_RANGE, .trees = 1, .min_ranges = 100000,
	.max_ranges = 100000, .nr_writes = 1500, .checkpoints = 3,
	.nr_windows = 64)

static struct kunit_case maple_alloc_diff_cases[] = {
	KUNIT_CASE(alloc_diff_trees_of_1_to_100_ranges),
	KUNIT_CASE(alloc_diff_trees_of_1000_ranges),
	KUNIT_CASE(alloc_diff_tree_of_10000_ranges),
	KUNIT_CASE(alloc_diff_rcu_tree_of_10000_ranges),
	KUNIT_CASE(alloc_diff_tree_of_100000_ranges),
	{}
};

static struct kunit_suite maple_alloc_diff_suite = {
	.name = "maple_alloc_diff",
	.test_cases = maple_alloc_diff_cases,
};
kunit_test_suite(maple_alloc_diff_suite);

/* ====================================================================== */
/* maple_alloc_exhaustive: every pattern of a 12-index universe */

#define EX_BITS		12	/* the universe [0, 11] */
#define EX_PATTERNS	(1U << EX_BITS)
#define EX_REACH	20	/* windows end up to base + 20 */
#define EX_MAX_SIZE	12
#define EX_MAX_FAILURES	5

/*
 * How a pattern becomes a tree:
 * EX_RUNS:   each maximal run of occupied indices is one range, stored in
 *            ascending order;
 * EX_POINTS: each occupied index is a range of its own, stored in
 *            descending order;
 * EX_OFFSET: the runs placed above 16 to 47 single-index entries (every
 *            other index from 0), so the tree has several leaves and the
 *            pattern sits at a different place relative to their bounds.
 */
enum ex_layout {
	EX_RUNS,
	EX_POINTS,
	EX_OFFSET,
};

static const char *const ex_layout_name[] = {
	[EX_RUNS] = "runs",
	[EX_POINTS] = "points",
	[EX_OFFSET] = "offset",
};

struct ex {
	struct kunit *test;
	struct maple_tree mt;
	struct model m;
	enum ex_layout layout;
	unsigned int pattern;
	/*
	 * Occupancy for the bit scan: index lo + i is occupied if bit i of
	 * busy is set; indices from lo + 64 up are free.  Windows start at
	 * lo or above, so what lies below lo never matters.
	 */
	unsigned long lo;
	u64 busy;
	unsigned long top;	/* highest window end below ULONG_MAX */
	unsigned long searches, failures;
};

static bool ex_busy(const struct ex *x, unsigned long index)
{
	unsigned long bit = index - x->lo;

	return index >= x->lo && bit < 64 && ((x->busy >> bit) & 1);
}

/*
 * The answer found the slowest way: try every start of the window in turn,
 * from the bottom (or the top for @rev), and check each of its indices.
 */
static int ex_scan(const struct ex *x, unsigned long min, unsigned long max,
		   unsigned long size, bool rev, unsigned long *start)
{
	unsigned long k, s, i;
	int ret = search_refusal(min, max, size);

	if (ret)
		return ret;
	for (k = 0; k <= max - min - (size - 1); k++) {
		s = rev ? max - (size - 1) - k : min + k;
		for (i = 0; i < size && !ex_busy(x, s + i); i++)
			;
		if (i == size) {
			*start = s;
			return 0;
		}
	}
	return -EBUSY;
}

static void ex_store(struct ex *x, unsigned long first, unsigned long last,
		     void *entry)
{
	KUNIT_ASSERT_EQ(x->test, mtree_store_range(&x->mt, first, last, entry,
						   GFP_KERNEL), 0);
	model_store_range(&x->m, first, last, entry);
}

static void ex_build(struct ex *x, unsigned int pattern)
{
	unsigned long base = 0, i, j, fill;

	x->pattern = pattern;
	x->lo = 0;
	x->busy = 0;
	mt_init_flags(&x->mt, MT_FLAGS_ALLOC_RANGE);
	model_clear(&x->m);

	if (x->layout == EX_OFFSET) {
		fill = 16 + pattern % 32;
		for (i = 0; i < fill; i++)
			ex_store(x, 2 * i, 2 * i, val(100 + i));
		base = 2 * fill;
		/* base - 4 and base - 2 are occupied, base - 3, base - 1 not */
		x->lo = base - 4;
		x->busy = 0x5;
	}
	x->busy |= (u64)pattern << (base - x->lo);
	x->top = base + EX_REACH;

	if (x->layout == EX_POINTS) {
		for (i = EX_BITS; i-- > 0;)
			if (pattern & (1U << i))
				ex_store(x, base + i, base + i, val(i + 1));
	} else {
		for (i = 0; i < EX_BITS; i = j + 1) {
			j = i;
			if (!(pattern & (1U << i)))
				continue;
			while (j + 1 < EX_BITS && (pattern & (1U << (j + 1))))
				j++;
			ex_store(x, base + i, base + j, val(i + 1));
		}
	}
	KUNIT_ASSERT_EQ_MSG(x->test, mt_validate_errors(&x->mt), 0,
			    "pattern %#x (%s)", pattern,
			    ex_layout_name[x->layout]);
}

static void __printf(2, 3) ex_fail(struct ex *x, const char *fmt, ...)
{
	char msg[MODEL_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	KUNIT_FAIL(x->test, "pattern %#05x (bit i: index %lu + i occupied, %s): %s",
		   x->pattern, x->lo + (x->layout == EX_OFFSET ? 4 : 0),
		   ex_layout_name[x->layout], msg);
	x->failures++;
}

/*
 * Every window [min, max] with x->lo <= min <= max <= x->top, and
 * [min, ULONG_MAX], every size 1..EX_MAX_SIZE, both directions: the tree
 * must answer as the bit scan does, and so must the model's search.
 */
static void ex_check(struct ex *x)
{
	char msg[MODEL_MSG_LEN];
	unsigned long min, max, size, start, mstart;
	int rev, expect, mexpect;

	rcu_read_lock();
	for (min = x->lo; min <= x->top; min++) {
		for (max = min; ; max = max < x->top ? max + 1 : ULONG_MAX) {
			for (size = 1; size <= EX_MAX_SIZE; size++) {
				for (rev = 0; rev < 2; rev++) {
					start = mstart = 0;
					expect = ex_scan(x, min, max, size, rev,
							 &start);
					mexpect = model_search(&x->m, min, max,
							       size, rev,
							       &mstart);
					if (mexpect != expect ||
					    (!expect && mstart != start))
						ex_fail(x, "model: %s(min %lu, max %lu, size %lu) = %d at %lu, bit scan says %d at %lu",
							search_name(rev), min,
							max, size, mexpect,
							mstart, expect, start);
					x->searches++;
					if (!search_agrees(&x->mt, min, max,
							   size, rev, expect,
							   start, msg,
							   sizeof(msg)))
						ex_fail(x, "%s", msg);
					if (x->failures >= EX_MAX_FAILURES)
						goto out;
				}
			}
			if (max == ULONG_MAX)
				break;
		}
	}
out:
	rcu_read_unlock();
}

/* Patterns @first, @first + @step, ... laid out as @layout. */
static void ex_run(struct kunit *test, enum ex_layout layout,
		   unsigned int first, unsigned int step)
{
	struct ex *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	unsigned int pattern, trees = 0;

	KUNIT_ASSERT_NOT_NULL(test, x);
	x->test = test;
	x->layout = layout;
	model_init(&x->m);
	for (pattern = first; pattern < EX_PATTERNS; pattern += step) {
		ex_build(x, pattern);
		ex_check(x);
		mtree_destroy(&x->mt);
		trees++;
		if (x->failures >= EX_MAX_FAILURES)
			break;
	}
	model_destroy(&x->m);
	kunit_info(test, "%u trees (%s), %lu searches\n", trees,
		   ex_layout_name[layout], x->searches);
}

static void exhaustive_runs_every_pattern(struct kunit *test)
{
	ex_run(test, EX_RUNS, 0, 1);
}

static void exhaustive_points_every_third_pattern(struct kunit *test)
{
	ex_run(test, EX_POINTS, 0, 3);
}

static void exhaustive_offset_every_fifth_pattern(struct kunit *test)
{
	ex_run(test, EX_OFFSET, 1, 5);
}

static struct kunit_case maple_alloc_exhaustive_cases[] = {
	KUNIT_CASE(exhaustive_runs_every_pattern),
	KUNIT_CASE(exhaustive_points_every_third_pattern),
	KUNIT_CASE(exhaustive_offset_every_fifth_pattern),
	{}
};

static struct kunit_suite maple_alloc_exhaustive_suite = {
	.name = "maple_alloc_exhaustive",
	.test_cases = maple_alloc_exhaustive_cases,
};
kunit_test_suite(maple_alloc_exhaustive_suite);

/* ====================================================================== */
/* maple_alloc_api: one behaviour per case */

/* A search must find exactly [@index, @last]. */
#define EXPECT_AREA(test, mt, rev, min, max, size, index, last) do {	\
	unsigned long __i, __l;						\
	int __ret;							\
									\
	rcu_read_lock();						\
	__ret = tree_search((mt), (min), (max), (size), (rev), &__i, &__l); \
	rcu_read_unlock();						\
	KUNIT_EXPECT_EQ_MSG(test, __ret, 0, "%s(%lu, %lu, %lu)",	\
			    search_name(rev), (unsigned long)(min),	\
			    (unsigned long)(max), (unsigned long)(size)); \
	KUNIT_EXPECT_EQ_MSG(test, __i, (unsigned long)(index),		\
			    "%s(%lu, %lu, %lu) index", search_name(rev), \
			    (unsigned long)(min), (unsigned long)(max),	\
			    (unsigned long)(size));			\
	KUNIT_EXPECT_EQ_MSG(test, __l, (unsigned long)(last),		\
			    "%s(%lu, %lu, %lu) last", search_name(rev),	\
			    (unsigned long)(min), (unsigned long)(max),	\
			    (unsigned long)(size));			\
} while (0)

/* A search must fail with @err. */
#define EXPECT_NO_AREA(test, mt, rev, min, max, size, err) do {		\
	unsigned long __i, __l;						\
	int __ret;							\
									\
	rcu_read_lock();						\
	__ret = tree_search((mt), (min), (max), (size), (rev), &__i, &__l); \
	rcu_read_unlock();						\
	KUNIT_EXPECT_EQ_MSG(test, __ret, (err), "%s(%lu, %lu, %lu)",	\
			    search_name(rev), (unsigned long)(min),	\
			    (unsigned long)(max), (unsigned long)(size)); \
} while (0)

#define FWD	false
#define REV	true

/*
 * The hand-built allocation tree:
 *   [0, 9] -> 1, [15, 19] -> 2, [23, 29] -> 3, [40, 49] -> 4, [52, 99] -> 5
 * so the gaps are [10, 14] (5), [20, 22] (3), [30, 39] (10), [50, 51] (2)
 * and [100, ULONG_MAX].
 */
static void hand_tree(struct kunit *test, struct maple_tree *mt)
{
	static const struct model_range ranges[] = {
		{ 0, 9, NULL }, { 15, 19, NULL }, { 23, 29, NULL },
		{ 40, 49, NULL }, { 52, 99, NULL },
	};
	unsigned long i;

	mt_init_flags(mt, MT_FLAGS_ALLOC_RANGE);
	for (i = 0; i < ARRAY_SIZE(ranges); i++)
		KUNIT_ASSERT_EQ(test, mtree_store_range(mt, ranges[i].first,
							ranges[i].last,
							val(i + 1),
							GFP_KERNEL), 0);
}

#define HAND_TREE_RANGES						\
	{ 0, 9, val(1) }, { 15, 19, val(2) }, { 23, 29, val(3) },	\
	{ 40, 49, val(4) }, { 52, 99, val(5) }

static void search_of_size_zero_is_einval(struct kunit *test)
{
	struct maple_tree mt;

	hand_tree(test, &mt);
	EXPECT_NO_AREA(test, &mt, FWD, 0, 100, 0, -EINVAL);
	EXPECT_NO_AREA(test, &mt, REV, 0, 100, 0, -EINVAL);
	EXPECT_NO_AREA(test, &mt, FWD, 0, ULONG_MAX, 0, -EINVAL);
	EXPECT_NO_AREA(test, &mt, REV, 0, ULONG_MAX, 0, -EINVAL);
	mtree_destroy(&mt);
}

static void search_with_min_above_max_is_einval(struct kunit *test)
{
	struct maple_tree mt;

	hand_tree(test, &mt);
	EXPECT_NO_AREA(test, &mt, FWD, 101, 100, 1, -EINVAL);
	EXPECT_NO_AREA(test, &mt, REV, 101, 100, 1, -EINVAL);
	EXPECT_NO_AREA(test, &mt, FWD, ULONG_MAX, 0, 1, -EINVAL);
	EXPECT_NO_AREA(test, &mt, REV, ULONG_MAX, 0, 1, -EINVAL);
	mtree_destroy(&mt);
}

static void search_window_smaller_than_size_is_refused(struct kunit *test)
{
	struct maple_tree mt;

	hand_tree(test, &mt);
	/*
	 * [10, 14] is free but holds only 5.  Linux 6.1's
	 * lib/test_maple_tree.c (check_empty_area_window()) expects -EBUSY
	 * for a window smaller than the size, 6.12's -EINVAL: SMALL_WINDOW.
	 */
	EXPECT_NO_AREA(test, &mt, FWD, 10, 14, 6, SMALL_WINDOW);
	EXPECT_NO_AREA(test, &mt, REV, 10, 14, 6, SMALL_WINDOW);
	EXPECT_NO_AREA(test, &mt, FWD, 200, 200, 2, SMALL_WINDOW);
	EXPECT_NO_AREA(test, &mt, REV, ULONG_MAX, ULONG_MAX, 2, SMALL_WINDOW);
	EXPECT_NO_AREA(test, &mt, FWD, 2, ULONG_MAX, ULONG_MAX, SMALL_WINDOW);
	EXPECT_NO_AREA(test, &mt, REV, 1, ULONG_MAX - 1, ULONG_MAX, SMALL_WINDOW);
	/* [1, ULONG_MAX] holds ULONG_MAX indices: a valid, busy window */
	EXPECT_NO_AREA(test, &mt, FWD, 1, ULONG_MAX, ULONG_MAX, -EBUSY);
	mtree_destroy(&mt);
}

static void search_window_of_exactly_size_fits_only_if_free(struct kunit *test)
{
	struct maple_tree mt;

	hand_tree(test, &mt);
	EXPECT_AREA(test, &mt, FWD, 10, 14, 5, 10, 14);
	EXPECT_AREA(test, &mt, REV, 10, 14, 5, 10, 14);
	EXPECT_AREA(test, &mt, FWD, 11, 13, 3, 11, 13);
	EXPECT_AREA(test, &mt, REV, 11, 13, 3, 11, 13);
	EXPECT_AREA(test, &mt, REV, 50, 50, 1, 50, 50);
	/* one occupied index in the window */
	EXPECT_NO_AREA(test, &mt, FWD, 9, 11, 3, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, 9, 11, 3, -EBUSY);
	EXPECT_NO_AREA(test, &mt, FWD, 49, 51, 3, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, 50, 52, 3, -EBUSY);
	EXPECT_NO_AREA(test, &mt, FWD, 9, 9, 1, -EBUSY);
	mtree_destroy(&mt);
}

static void search_takes_lowest_gap_that_fits(struct kunit *test)
{
	struct maple_tree mt;

	hand_tree(test, &mt);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 1, 10, 10);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 5, 10, 14);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 6, 30, 35);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 10, 30, 39);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 11, 100, 110);
	/* the window cuts gaps short */
	EXPECT_AREA(test, &mt, FWD, 12, 1000, 3, 12, 14);
	EXPECT_AREA(test, &mt, FWD, 13, 1000, 3, 20, 22);
	EXPECT_AREA(test, &mt, FWD, 16, 21, 2, 20, 21);
	EXPECT_NO_AREA(test, &mt, FWD, 16, 21, 3, -EBUSY);
	EXPECT_AREA(test, &mt, FWD, 45, 60, 2, 50, 51);
	EXPECT_NO_AREA(test, &mt, FWD, 0, 99, 11, -EBUSY);
	EXPECT_NO_AREA(test, &mt, FWD, 0, 9, 1, -EBUSY);
	mtree_destroy(&mt);
}

static void search_rev_takes_highest_gap_that_fits(struct kunit *test)
{
	struct maple_tree mt;

	hand_tree(test, &mt);
	EXPECT_AREA(test, &mt, REV, 0, 99, 1, 51, 51);
	EXPECT_AREA(test, &mt, REV, 0, 99, 2, 50, 51);
	EXPECT_AREA(test, &mt, REV, 0, 99, 3, 37, 39);
	EXPECT_AREA(test, &mt, REV, 0, 99, 10, 30, 39);
	EXPECT_NO_AREA(test, &mt, REV, 0, 99, 11, -EBUSY);
	/* the window cuts gaps short */
	EXPECT_AREA(test, &mt, REV, 0, 35, 3, 33, 35);
	EXPECT_AREA(test, &mt, REV, 0, 29, 4, 11, 14);
	EXPECT_AREA(test, &mt, REV, 11, 29, 4, 11, 14);
	EXPECT_NO_AREA(test, &mt, REV, 12, 29, 4, -EBUSY);
	EXPECT_AREA(test, &mt, REV, 0, ULONG_MAX, 1, ULONG_MAX, ULONG_MAX);
	EXPECT_AREA(test, &mt, REV, 0, 1000, 100, 901, 1000);
	EXPECT_NO_AREA(test, &mt, REV, 0, 9, 1, -EBUSY);
	mtree_destroy(&mt);
}

static void search_of_empty_tree_returns_window_ends(struct kunit *test)
{
	struct maple_tree mt;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	EXPECT_AREA(test, &mt, FWD, 100, 1000, 10, 100, 109);
	EXPECT_AREA(test, &mt, REV, 100, 1000, 10, 991, 1000);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 1, 0, 0);
	EXPECT_AREA(test, &mt, REV, 0, ULONG_MAX, 1, ULONG_MAX, ULONG_MAX);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, ULONG_MAX, 0, ULONG_MAX - 1);
	EXPECT_AREA(test, &mt, REV, 0, ULONG_MAX, ULONG_MAX, 1, ULONG_MAX);
	EXPECT_AREA(test, &mt, FWD, 7, 7, 1, 7, 7);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	mtree_destroy(&mt);
}

static void search_around_only_entry_at_zero(struct kunit *test)
{
	struct maple_tree mt;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_store(&mt, 0, val(7), GFP_KERNEL), 0);
	/* a single entry at 0 lives in the root pointer: no node */
	KUNIT_EXPECT_EQ(test, mt_height(&mt), 0U);
	KUNIT_EXPECT_FALSE(test, mtree_empty(&mt));
	EXPECT_AREA(test, &mt, FWD, 0, 100, 1, 1, 1);
	EXPECT_AREA(test, &mt, REV, 0, 100, 1, 100, 100);
	EXPECT_AREA(test, &mt, REV, 0, 5, 5, 1, 5);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, ULONG_MAX, 1, ULONG_MAX);
	EXPECT_AREA(test, &mt, REV, 0, ULONG_MAX, ULONG_MAX, 1, ULONG_MAX);
	EXPECT_NO_AREA(test, &mt, FWD, 0, 0, 1, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, 0, 0, 1, -EBUSY);
	EXPECT_NO_AREA(test, &mt, FWD, 0, 5, 6, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, 0, 5, 6, -EBUSY);
	EXPECT_TREE(test, &mt, { 0, 0, val(7) });
	mtree_destroy(&mt);
}

static void search_of_full_tree_is_ebusy(struct kunit *test)
{
	struct maple_tree mt;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 0, ULONG_MAX, val(1),
						GFP_KERNEL), 0);
	EXPECT_NO_AREA(test, &mt, FWD, 0, ULONG_MAX, 1, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, 0, ULONG_MAX, 1, -EBUSY);
	EXPECT_NO_AREA(test, &mt, FWD, 5, 5, 1, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, ULONG_MAX, ULONG_MAX, 1, -EBUSY);
	mtree_destroy(&mt);
}

static void search_of_full_window_is_ebusy(struct kunit *test)
{
	struct maple_tree mt;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 100, 199, val(1),
						GFP_KERNEL), 0);
	EXPECT_NO_AREA(test, &mt, FWD, 100, 199, 1, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, 100, 199, 1, -EBUSY);
	EXPECT_AREA(test, &mt, FWD, 100, 200, 1, 200, 200);
	EXPECT_AREA(test, &mt, REV, 99, 199, 1, 99, 99);
	EXPECT_AREA(test, &mt, REV, 0, 199, 100, 0, 99);
	EXPECT_NO_AREA(test, &mt, REV, 0, 199, 101, -EBUSY);
	mtree_destroy(&mt);
}

static void search_next_to_ulong_max(struct kunit *test)
{
	struct maple_tree mt;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, ULONG_MAX - 9, ULONG_MAX,
						val(1), GFP_KERNEL), 0);
	EXPECT_AREA(test, &mt, REV, 0, ULONG_MAX, 1, ULONG_MAX - 10,
		    ULONG_MAX - 10);
	EXPECT_AREA(test, &mt, FWD, ULONG_MAX - 20, ULONG_MAX, 11,
		    ULONG_MAX - 20, ULONG_MAX - 10);
	EXPECT_NO_AREA(test, &mt, FWD, ULONG_MAX - 20, ULONG_MAX, 12, -EBUSY);
	EXPECT_NO_AREA(test, &mt, REV, ULONG_MAX - 9, ULONG_MAX, 1, -EBUSY);
	mtree_destroy(&mt);

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_store(&mt, ULONG_MAX, val(2), GFP_KERNEL),
			0);
	EXPECT_AREA(test, &mt, REV, ULONG_MAX - 1, ULONG_MAX, 1,
		    ULONG_MAX - 1, ULONG_MAX - 1);
	EXPECT_NO_AREA(test, &mt, REV, ULONG_MAX - 1, ULONG_MAX, 2, -EBUSY);
	EXPECT_AREA(test, &mt, REV, 0, ULONG_MAX, ULONG_MAX, 0,
		    ULONG_MAX - 1);
	mtree_destroy(&mt);
}

/*
 * [10 i, 10 i + 8] -> i + 1 for i < 10,000, then a NULL store over
 * [50000, 59999] leaves one gap [49999, 59999] of 10,001 that was spread
 * over many leaves; every other gap holds one index, and the last is
 * [99999, ULONG_MAX].
 */
static void search_finds_gap_spanning_former_leaves(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long i;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	for (i = 0; i < 10000; i++)
		KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 10 * i,
							10 * i + 8,
							val(i + 1),
							GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 50000, 59999, NULL,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, mt_validate_errors(&mt), 0);
	KUNIT_EXPECT_GE(test, mt_height(&mt), 3U);

	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 1, 9, 9);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 2, 49999, 50000);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 10001, 49999, 59999);
	EXPECT_AREA(test, &mt, FWD, 0, ULONG_MAX, 10002, 99999, 110000);
	EXPECT_AREA(test, &mt, REV, 0, 99998, 10001, 49999, 59999);
	EXPECT_AREA(test, &mt, REV, 0, 99998, 2, 59998, 59999);
	EXPECT_AREA(test, &mt, REV, 0, 55000, 2, 54999, 55000);
	EXPECT_AREA(test, &mt, FWD, 55000, ULONG_MAX, 5000, 55000, 59999);
	EXPECT_AREA(test, &mt, FWD, 55000, ULONG_MAX, 5001, 99999, 104999);
	EXPECT_NO_AREA(test, &mt, REV, 0, 99998, 10002, -EBUSY);
	/* the big gap fits, but not inside the window */
	EXPECT_AREA(test, &mt, REV, 0, 50003, 5, 49999, 50003);
	EXPECT_NO_AREA(test, &mt, REV, 0, 50003, 6, -EBUSY);
	EXPECT_AREA(test, &mt, FWD, 59995, 70000, 5, 59995, 59999);
	EXPECT_NO_AREA(test, &mt, FWD, 59996, 70000, 5, -EBUSY);
	EXPECT_NO_AREA(test, &mt, FWD, 60000, 99998, 2, -EBUSY);
	mtree_destroy(&mt);
}

static void search_under_tree_lock_matches_rcu_search(struct kunit *test)
{
	struct maple_tree mt;
	MA_STATE(mas, &mt, 0, 0);

	hand_tree(test, &mt);
	mtree_lock(&mt);
	KUNIT_EXPECT_EQ(test, mas_empty_area(&mas, 0, ULONG_MAX, 6), 0);
	KUNIT_EXPECT_EQ(test, mas.index, 30UL);
	KUNIT_EXPECT_EQ(test, mas.last, 35UL);
	mas_reset(&mas);
	KUNIT_EXPECT_EQ(test, mas_empty_area_rev(&mas, 0, 99, 3), 0);
	KUNIT_EXPECT_EQ(test, mas.index, 37UL);
	KUNIT_EXPECT_EQ(test, mas.last, 39UL);
	/* a reset state can search again after a failure */
	mas_reset(&mas);
	KUNIT_EXPECT_EQ(test, mas_empty_area(&mas, 0, 99, 11), -EBUSY);
	mas_reset(&mas);
	KUNIT_EXPECT_EQ(test, mas_empty_area(&mas, 0, 99, 2), 0);
	KUNIT_EXPECT_EQ(test, mas.index, 10UL);
	mtree_unlock(&mt);
	EXPECT_TREE(test, &mt, HAND_TREE_RANGES);
	mtree_destroy(&mt);
}

static void alloc_range_fills_exactly_the_area(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	hand_tree(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(10), 5, 0,
						ULONG_MAX, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 10UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(11), 3, 0,
						 99, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 37UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(12), 2, 0,
						99, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 20UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(13), 1, 0,
						 ULONG_MAX, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, ULONG_MAX);
	EXPECT_TREE(test, &mt,
		    { 0, 9, val(1) }, { 10, 14, val(10) }, { 15, 19, val(2) },
		    { 20, 21, val(12) }, { 23, 29, val(3) },
		    { 37, 39, val(11) }, { 40, 49, val(4) },
		    { 52, 99, val(5) }, { ULONG_MAX, ULONG_MAX, val(13) });
	mtree_destroy(&mt);
}

static void alloc_range_into_root_entry_tree(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	KUNIT_ASSERT_EQ(test, mtree_alloc_range(&mt, &start, val(1), 1, 0, 10,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 0UL);
	KUNIT_EXPECT_EQ(test, mt_height(&mt), 0U);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(2), 5, 0, 100,
						GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 1UL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(3), 5, 0,
						 100, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, start, 96UL);
	EXPECT_TREE(test, &mt, { 0, 0, val(1) }, { 1, 5, val(2) },
		    { 96, 100, val(3) });
	mtree_destroy(&mt);
}

static void alloc_range_until_window_full_then_ebusy(struct kunit *test)
{
	struct maple_tree mt;
	struct model m;
	unsigned long start = 0, i;

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	model_init(&m);
	for (i = 0; i < 10; i++) {
		KUNIT_ASSERT_EQ(test, mtree_alloc_range(&mt, &start, val(i), 10,
							100, 199, GFP_KERNEL),
				0);
		KUNIT_EXPECT_EQ(test, start, 100 + 10 * i);
		model_store_range(&m, 100 + 10 * i, 109 + 10 * i, val(i));
	}
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(99), 1, 100,
						199, GFP_KERNEL), -EBUSY);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(99), 1, 100,
						 199, GFP_KERNEL), -EBUSY);
	KUNIT_EXPECT_MODEL(test, &mt, &m);
	mtree_destroy(&mt);

	mt_init_flags(&mt, MT_FLAGS_ALLOC_RANGE);
	model_clear(&m);
	for (i = 0; i < 10; i++) {
		KUNIT_ASSERT_EQ(test, mtree_alloc_rrange(&mt, &start, val(i),
							 10, 100, 199,
							 GFP_KERNEL), 0);
		KUNIT_EXPECT_EQ(test, start, 190 - 10 * i);
		model_store_range(&m, 190 - 10 * i, 199 - 10 * i, val(i));
	}
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(99), 1, 100,
						 199, GFP_KERNEL), -EBUSY);
	KUNIT_EXPECT_MODEL(test, &mt, &m);
	mtree_destroy(&mt);
	model_destroy(&m);
}

static void alloc_bad_window_is_einval_and_changes_nothing(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 12345;

	hand_tree(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(9), 0, 0,
						1000, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(9), 0, 0,
						 1000, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(9), 1, 1000,
						999, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(9), 1, 1000,
						 999, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(9), 6, 10,
						14, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(9), 6, 10,
						 14, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, start, 12345UL);
	EXPECT_TREE(test, &mt, HAND_TREE_RANGES);
	mtree_destroy(&mt);
}

static void alloc_range_on_tree_without_alloc_flag_is_einval(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	/* Bad input may WARN, as in the kernel. */
	ktest_allow_warnings(test);
	mt_init_flags(&mt, 0);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(1), 10, 0,
						1000, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start, val(1), 10, 0,
						 1000, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	KUNIT_ASSERT_EQ(test, mtree_store_range(&mt, 0, 9, val(2), GFP_KERNEL),
			0);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, val(1), 10, 0,
						1000, GFP_KERNEL), -EINVAL);
	EXPECT_TREE(test, &mt, { 0, 9, val(2) });
	mtree_destroy(&mt);
}

static void alloc_range_of_reserved_entry_is_einval(struct kunit *test)
{
	struct maple_tree mt;
	unsigned long start = 0;

	/* Bad input may WARN, as in the kernel. */
	ktest_allow_warnings(test);
	hand_tree(test, &mt);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, xa_mk_internal(1),
						5, 0, 1000, GFP_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_rrange(&mt, &start,
						 xa_mk_internal(1), 5, 0, 1000,
						 GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtree_alloc_range(&mt, &start, XA_ZERO_ENTRY, 5,
						0, 1000, GFP_KERNEL), -EINVAL);
	EXPECT_TREE(test, &mt, HAND_TREE_RANGES);
	mtree_destroy(&mt);
}

/*
 * Allocation failure.  A shape is a tree of @nr ranges
 * [first + i * step, first + i * step + len] -> i + 1 and one allocation
 * in it with the start it must get.
 */
struct alloc_shape {
	const char *name;
	unsigned int flags;
	unsigned long nr, first, step, len;
	bool rev;
	unsigned long size, min, max;
	unsigned long expect;
	bool needs_nodes;	/* the allocation cannot succeed without one */
	bool no_nodes;		/* the allocation needs no new node */
};

static void shape_build(struct kunit *test, const struct alloc_shape *s,
			struct maple_tree *mt, struct model *m)
{
	unsigned long i, first;

	mt_init_flags(mt, s->flags);
	model_clear(m);
	for (i = 0; i < s->nr; i++) {
		first = s->first + i * s->step;
		KUNIT_ASSERT_EQ(test, mtree_store_range(mt, first,
							first + s->len,
							val(i + 1),
							GFP_KERNEL), 0);
		model_store_range(m, first, first + s->len, val(i + 1));
	}
}

static int shape_alloc(struct maple_tree *mt, const struct alloc_shape *s,
		       unsigned long *start)
{
	if (s->rev)
		return mtree_alloc_rrange(mt, start, val(999), s->size, s->min,
					  s->max, GFP_KERNEL);
	return mtree_alloc_range(mt, start, val(999), s->size, s->min, s->max,
				 GFP_KERNEL);
}

/*
 * kmem_fault_after(n) for n = 0, 1, ... until the allocation succeeds, then
 * kmem_fault_nth(n) for every allocation it made: a failed call returns
 * -ENOMEM, the tree reads as before and no object is left behind; a
 * successful one allocates at the expected start.
 */
static void shape_sweep(struct kunit *test, const struct alloc_shape *s,
			unsigned long *runs, unsigned long *failed)
{
	struct maple_tree mt;
	struct model before, after;
	unsigned long n, start, failures = 0;
	long base = live_objects(), live, allocs = 0;
	int ret;

	model_init(&before);
	model_init(&after);
	for (n = 0; n < 10000; n++) {
		shape_build(test, s, &mt, &before);
		live = live_objects();
		allocs = kmem_nr_allocated();
		start = 0;
		kmem_fault_after(n);
		ret = shape_alloc(&mt, s, &start);
		kmem_fault_reset();
		allocs = kmem_nr_allocated() - allocs;
		(*runs)++;
		if (ret == -ENOMEM) {
			failures++;
			KUNIT_EXPECT_MODEL(test, &mt, &before);
			KUNIT_EXPECT_EQ_MSG(test, live_objects(), live,
					    "%s: leak after failing allocation %lu",
					    s->name, n + 1);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s", s->name);
			KUNIT_EXPECT_EQ_MSG(test, start, s->expect, "%s",
					    s->name);
			model_copy(&after, &before);
			model_store_range(&after, s->expect,
					  s->expect + s->size - 1, val(999));
			KUNIT_EXPECT_MODEL(test, &mt, &after);
		}
		mtree_destroy(&mt);
		KUNIT_EXPECT_EQ(test, live_objects(), base);
		if (ret != -ENOMEM)
			break;
	}
	*failed += failures;
	if (s->needs_nodes)
		KUNIT_EXPECT_GT_MSG(test, failures, 0UL, "%s", s->name);
	if (s->no_nodes)
		KUNIT_EXPECT_EQ_MSG(test, allocs, 0L, "%s", s->name);

	/* One failure alone may be retried inside the call. */
	for (n = 1; n <= (unsigned long)allocs + 1; n++) {
		shape_build(test, s, &mt, &before);
		live = live_objects();
		start = 0;
		kmem_fault_nth(n);
		ret = shape_alloc(&mt, s, &start);
		kmem_fault_reset();
		(*runs)++;
		if (ret == -ENOMEM) {
			(*failed)++;
			KUNIT_EXPECT_MODEL(test, &mt, &before);
			KUNIT_EXPECT_EQ_MSG(test, live_objects(), live,
					    "%s: leak after failing allocation %lu only",
					    s->name, n);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s: nth %lu",
					    s->name, n);
			KUNIT_EXPECT_EQ_MSG(test, start, s->expect, "%s",
					    s->name);
			model_copy(&after, &before);
			model_store_range(&after, s->expect,
					  s->expect + s->size - 1, val(999));
			KUNIT_EXPECT_MODEL(test, &mt, &after);
		}
		mtree_destroy(&mt);
		KUNIT_EXPECT_EQ(test, live_objects(), base);
	}
	model_destroy(&before);
	model_destroy(&after);
}

static const struct alloc_shape alloc_shapes[] = {
	{ .name = "empty tree", .flags = MT_FLAGS_ALLOC_RANGE,
	  .size = 5, .min = 10, .max = 100, .expect = 10, .needs_nodes = true },
	{ .name = "empty tree, rev", .flags = MT_FLAGS_ALLOC_RANGE,
	  .rev = true, .size = 5, .min = 10, .max = 100, .expect = 96,
	  .needs_nodes = true },
	{ .name = "index 0 into empty tree", .flags = MT_FLAGS_ALLOC_RANGE,
	  .size = 1, .min = 0, .max = 100, .expect = 0, .no_nodes = true },
	{ .name = "root entry", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = 1, .step = 1, .size = 5, .min = 0, .max = 100, .expect = 1,
	  .needs_nodes = true },
	{ .name = "root entry, rev", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = 1, .step = 1, .rev = true, .size = 5, .min = 0, .max = 100,
	  .expect = 96, .needs_nodes = true },
	/*
	 * [0, 8], [10, 18], ... [70, 78]: with the gaps, 16 slots (on 32-bit
	 * up to [150, 158]: 32 slots)
	 */
	{ .name = "full leaf, rev", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = MAPLE_RANGE64_SLOTS / 2, .step = 10, .len = 8, .rev = true,
	  .size = 2, .min = 0, .max = ULONG_MAX, .expect = ULONG_MAX - 1,
	  .needs_nodes = true },
	{ .name = "full leaf", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = MAPLE_RANGE64_SLOTS / 2, .step = 10, .len = 8, .size = 2,
	  .min = MAPLE_RANGE64_SLOTS * 5 - 1, .max = 1000,
	  .expect = MAPLE_RANGE64_SLOTS * 5 - 1, .needs_nodes = true },
	/* [0, 4], [10, 14], ... [1990, 1994] */
	{ .name = "two levels", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = 200, .step = 10, .len = 4, .size = 3, .min = 0,
	  .max = ULONG_MAX, .expect = 5 },
	{ .name = "two levels, rev", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = 200, .step = 10, .len = 4, .rev = true, .size = 3, .min = 0,
	  .max = 1000, .expect = 997 },
	/*
	 * [0, 2], [4, 6], ... [7996, 7998] in RCU mode: a gap of one index
	 * filled exactly, or the last gap split.
	 */
	{ .name = "three levels, RCU, exact gap",
	  .flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU,
	  .nr = 2000, .step = 4, .len = 2, .size = 1, .min = 0,
	  .max = ULONG_MAX, .expect = 3 },
	{ .name = "three levels, RCU, rev exact gap",
	  .flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU,
	  .nr = 2000, .step = 4, .len = 2, .rev = true, .size = 1, .min = 0,
	  .max = 7000, .expect = 6999 },
	{ .name = "three levels, RCU",
	  .flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU,
	  .nr = 2000, .step = 4, .len = 2, .size = 2, .min = 0,
	  .max = ULONG_MAX, .expect = 7999 },
	{ .name = "three levels, RCU, rev",
	  .flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU,
	  .nr = 2000, .step = 4, .len = 2, .rev = true, .size = 2, .min = 0,
	  .max = ULONG_MAX, .expect = ULONG_MAX - 1 },
	{ .name = "three levels, big", .flags = MT_FLAGS_ALLOC_RANGE,
	  .nr = 2000, .step = 4, .len = 2, .size = 100, .min = 0,
	  .max = ULONG_MAX, .expect = 7999 },
};

static void alloc_enomem_changes_nothing_and_leaks_nothing(struct kunit *test)
{
	unsigned long i, runs = 0, failed = 0;

	for (i = 0; i < ARRAY_SIZE(alloc_shapes); i++)
		shape_sweep(test, &alloc_shapes[i], &runs, &failed);
	kunit_info(test, "%lu shapes, %lu runs, %lu failed with -ENOMEM\n",
		   (unsigned long)ARRAY_SIZE(alloc_shapes), runs, failed);
}

static struct kunit_case maple_alloc_api_cases[] = {
	KUNIT_CASE(search_of_size_zero_is_einval),
	KUNIT_CASE(search_with_min_above_max_is_einval),
	KUNIT_CASE(search_window_smaller_than_size_is_refused),
	KUNIT_CASE(search_window_of_exactly_size_fits_only_if_free),
	KUNIT_CASE(search_takes_lowest_gap_that_fits),
	KUNIT_CASE(search_rev_takes_highest_gap_that_fits),
	KUNIT_CASE(search_of_empty_tree_returns_window_ends),
	KUNIT_CASE(search_around_only_entry_at_zero),
	KUNIT_CASE(search_of_full_tree_is_ebusy),
	KUNIT_CASE(search_of_full_window_is_ebusy),
	KUNIT_CASE(search_next_to_ulong_max),
	KUNIT_CASE(search_finds_gap_spanning_former_leaves),
	KUNIT_CASE(search_under_tree_lock_matches_rcu_search),
	KUNIT_CASE(alloc_range_fills_exactly_the_area),
	KUNIT_CASE(alloc_range_into_root_entry_tree),
	KUNIT_CASE(alloc_range_until_window_full_then_ebusy),
	KUNIT_CASE(alloc_bad_window_is_einval_and_changes_nothing),
	KUNIT_CASE(alloc_range_on_tree_without_alloc_flag_is_einval),
	KUNIT_CASE(alloc_range_of_reserved_entry_is_einval),
	KUNIT_CASE(alloc_enomem_changes_nothing_and_leaks_nothing),
	{}
};

static struct kunit_suite maple_alloc_api_suite = {
	.name = "maple_alloc_api",
	.test_cases = maple_alloc_api_cases,
};
kunit_test_suite(maple_alloc_api_suite);

/* ====================================================================== */
/* maple_alloc_vma: the mmap() pattern */

/*
 * An address space's tree (MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU) is
 * filled top-down below VMA_CEILING, down to VMA_FLOOR, as mmap() places
 * mappings without a hint: search for the highest area of size plus a guard
 * gap, put the range at the top of it and leave the guard free below.  A
 * range must not sit in the guard of the range above it either: when the
 * area found reaches into that guard, search again below the guard.
 */
#define VMA_PAGE	4096UL
/* A 64-bit user address space's top; a 32-bit one's (3 GiB split). */
#define VMA_CEILING	(BITS_PER_LONG == 64 ? (unsigned long)0x7fff00000000ULL : \
			 0xbfff0000UL)
#define VMA_PAGES	20000UL
#define VMA_FLOOR	(VMA_CEILING - VMA_PAGES * VMA_PAGE)
#define VMA_GUARD	VMA_PAGE
#define VMA_MAX_PAGES	8
#define VMA_MAX		(VMA_PAGES / 2)

struct vma {
	unsigned long start, last;
	bool live;
};

struct vma_space {
	struct kunit *test;
	struct maple_tree mt;
	struct model_rng rng;
	struct model m;		/* the live ranges */
	struct vma *vma;	/* every range placed, by number */
	unsigned long nr;	/* ranges placed */
	unsigned long searches;
};

/*
 * Where the range of @size must go, by a plain scan of the model's gaps from
 * the top: the highest end below the ceiling and below the guard of the
 * range above, with a guard's worth of free space (above the floor) below
 * the range.  0 and *@start, or -EBUSY.
 */
static int vma_model_place(const struct model *m, unsigned long size,
			   unsigned long *start)
{
	unsigned long j, lo, hi;

	for (j = m->nr + 1; j-- > 0;) {
		lo = j ? m->r[j - 1].last + 1 : 0;
		hi = j < m->nr ? m->r[j].first - VMA_GUARD - 1 :
			VMA_CEILING - 1;
		if (lo < VMA_FLOOR)
			lo = VMA_FLOOR;
		if (hi > VMA_CEILING - 1)
			hi = VMA_CEILING - 1;
		if (hi >= lo && hi - lo >= size + VMA_GUARD - 1) {
			*start = hi - size + 1;
			return 0;
		}
	}
	return -EBUSY;
}

/*
 * Where a range of @size goes: 0 and *@start, or the error of the last
 * search.
 */
static int vma_place(struct vma_space *vs, unsigned long size,
		     unsigned long *start)
{
	MA_STATE(mas, &vs->mt, 0, 0);
	unsigned long high = VMA_CEILING - 1, end;
	void *above;
	int ret;

	rcu_read_lock();
	for (;;) {
		/* A window smaller than the request would be -EINVAL. */
		if (high - VMA_FLOOR < size + VMA_GUARD - 1) {
			ret = -EBUSY;
			break;
		}
		mas_reset(&mas);
		vs->searches++;
		ret = mas_empty_area_rev(&mas, VMA_FLOOR, high,
					 size + VMA_GUARD);
		if (ret)
			break;
		end = mas.last;
		KUNIT_EXPECT_EQ(vs->test, mas.index,
				end - size - VMA_GUARD + 1);
		if (end == VMA_CEILING - 1) {
			*start = end - size + 1;
			break;
		}
		mas_set(&mas, end + 1);
		above = mas_find(&mas, ULONG_MAX);
		if (!above || mas.index - VMA_GUARD > end) {
			*start = end - size + 1;
			break;
		}
		/* Keep out of the guard of the range above. */
		high = mas.index - VMA_GUARD - 1;
	}
	rcu_read_unlock();
	return ret;
}

/* Place a range of @pages: 0 and its number in *@nr, or -EBUSY. */
static int vma_map(struct vma_space *vs, unsigned long pages,
		   unsigned long *nr)
{
	unsigned long size = pages * VMA_PAGE, start = 0, expect = 0;
	int ret, expect_ret;

	ret = vma_place(vs, size, &start);
	expect_ret = vma_model_place(&vs->m, size, &expect);
	KUNIT_ASSERT_EQ_MSG(vs->test, ret, expect_ret, "placing %lu pages",
			    pages);
	if (ret)
		return ret;
	KUNIT_ASSERT_EQ_MSG(vs->test, start, expect, "placing %lu pages",
			    pages);
	KUNIT_ASSERT_LT(vs->test, vs->nr, VMA_MAX);
	KUNIT_ASSERT_EQ_MSG(vs->test,
			    mtree_insert_range(&vs->mt, start, start + size - 1,
					       val(vs->nr), GFP_KERNEL), 0,
			    "range %lu at [%#lx, %#lx]", vs->nr, start,
			    start + size - 1);
	KUNIT_ASSERT_EQ(vs->test, mt_validate_errors(&vs->mt), 0);
	model_store_range(&vs->m, start, start + size - 1, val(vs->nr));
	vs->vma[vs->nr].start = start;
	vs->vma[vs->nr].last = start + size - 1;
	vs->vma[vs->nr].live = true;
	*nr = vs->nr++;
	return 0;
}

/* Unmap range @i. */
static void vma_unmap(struct vma_space *vs, unsigned long i)
{
	KUNIT_EXPECT_PTR_EQ(vs->test, mtree_erase(&vs->mt, vs->vma[i].start),
			    val(i));
	KUNIT_ASSERT_EQ(vs->test, mt_validate_errors(&vs->mt), 0);
	model_erase(&vs->m, vs->vma[i].start);
	vs->vma[i].live = false;
}

/*
 * Map ranges of 1 to VMA_MAX_PAGES pages, unmapping a random one now and
 * then, until not even one page fits; after each -EBUSY the sizes drawn are
 * smaller than the one refused.
 */
static void vma_fill(struct vma_space *vs)
{
	unsigned long cap = VMA_MAX_PAGES, pages, nr, i;
	int ret;

	while (cap) {
		pages = 1 + model_rng_below(&vs->rng, cap);
		ret = vma_map(vs, pages, &nr);
		if (ret) {
			KUNIT_ASSERT_EQ(vs->test, ret, -EBUSY);
			cap = pages - 1;
			continue;
		}
		if (model_rng_below(&vs->rng, 8))
			continue;
		i = model_rng_below(&vs->rng, vs->nr);
		if (vs->vma[i].live)
			vma_unmap(vs, i);
	}
}

/*
 * The tree must hold exactly the live ranges, each below the ceiling and
 * above the floor, with at least a guard gap below each of them; and when
 * @full, no gap may have room for one more page with its guard and the
 * guard of the range above.
 */
static void vma_check(struct vma_space *vs, bool full)
{
	MA_STATE(mas, &vs->mt, 0, 0);
	unsigned long count = 0, live = 0, below = VMA_FLOOR - 1, i, room;
	struct vma *v;
	void *entry;

	KUNIT_EXPECT_MODEL(vs->test, &vs->mt, &vs->m);
	for (i = 0; i < vs->nr; i++)
		live += vs->vma[i].live;

	rcu_read_lock();
	mas_for_each(&mas, entry, ULONG_MAX) {
		KUNIT_ASSERT_TRUE(vs->test, xa_is_value(entry));
		i = xa_to_value(entry);
		KUNIT_ASSERT_LT(vs->test, i, vs->nr);
		v = &vs->vma[i];
		KUNIT_EXPECT_TRUE_MSG(vs->test, v->live, "range %lu", i);
		KUNIT_EXPECT_EQ_MSG(vs->test, mas.index, v->start,
				    "range %lu", i);
		KUNIT_EXPECT_EQ_MSG(vs->test, mas.last, v->last, "range %lu",
				    i);
		KUNIT_EXPECT_GE(vs->test, mas.index, VMA_FLOOR);
		KUNIT_EXPECT_LT(vs->test, mas.last, VMA_CEILING);
		/* the guard below: [start - guard, start - 1] is free */
		KUNIT_EXPECT_GE_MSG(vs->test, mas.index - below - 1, VMA_GUARD,
				    "range %lu at %#lx, the range below ends at %#lx",
				    i, mas.index, below);
		room = mas.index - below - 1;
		if (full)
			KUNIT_EXPECT_LT_MSG(vs->test, room,
					    VMA_PAGE + 2 * VMA_GUARD,
					    "room below range %lu at %#lx", i,
					    mas.index);
		below = mas.last;
		count++;
	}
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(vs->test, count, live);
	if (full && count)
		KUNIT_EXPECT_LT(vs->test, VMA_CEILING - 1 - below,
				VMA_PAGE + VMA_GUARD);
}

/* A new address space, freed when the case ends (see vma_exit()). */
static struct vma_space *vma_init(struct kunit *test)
{
	struct vma_space *vs = kunit_kzalloc(test, sizeof(*vs), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, vs);
	vs->test = test;
	vs->vma = kunit_kzalloc(test, VMA_MAX * sizeof(*vs->vma), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, vs->vma);
	model_rng_seed(&vs->rng, ktest_seed() ^ name_hash(test->name));
	mt_init_flags(&vs->mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU);
	model_init(&vs->m);
	test->priv = vs;
	return vs;
}

/* Free the tree of a case that stopped at a failed assertion. */
static void vma_exit(struct kunit *test)
{
	struct vma_space *vs = test->priv;

	if (vs) {
		mtree_destroy(&vs->mt);
		model_destroy(&vs->m);
	}
}

static void vma_topdown_fill_until_full_keeps_guard_gaps(struct kunit *test)
{
	struct vma_space *vs = vma_init(test);

	vma_fill(vs);
	/* The first range went right below the ceiling. */
	KUNIT_EXPECT_EQ(test, vs->vma[0].last, VMA_CEILING - 1);
	KUNIT_EXPECT_GT(test, vs->nr, VMA_PAGES / (VMA_MAX_PAGES + 1));
	KUNIT_EXPECT_GE(test, mt_height(&vs->mt), 3U);
	vma_check(vs, true);
	kunit_info(test, "%lu ranges, height %u, %lu searches\n", vs->nr,
		   mt_height(&vs->mt), vs->searches);
}

/*
 * Fill, unmap a random tenth of the ranges still mapped (and the first, if
 * it is), then map one page at a time until the space is full again.  Only
 * the holes have room, and each had room for its range: every page must
 * land in a hole (where exactly, vma_map() checks against the model), one
 * below the other, and every hole must receive at least one.
 */
static void vma_freed_holes_are_found_again(struct kunit *test)
{
	struct vma_space *vs = vma_init(test);
	struct { unsigned long first, last, found; } *hole, t;
	unsigned long nr_holes = 0, filled, i, j, nr, below = ULONG_MAX;
	unsigned long *gone, nr_gone = 0, mapped = 0;
	struct vma *v;

	vma_fill(vs);
	filled = vs->nr;
	hole = kunit_kzalloc(test, filled * sizeof(*hole), GFP_KERNEL);
	gone = kunit_kzalloc(test, filled * sizeof(*gone), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hole);
	KUNIT_ASSERT_NOT_NULL(test, gone);

	for (i = 0; i < filled; i++) {
		if (!vs->vma[i].live || (i && model_rng_below(&vs->rng, 10)))
			continue;
		vma_unmap(vs, i);
		gone[nr_gone++] = vs->vma[i].start;
	}
	/* The holes: the NULL ranges around the ranges just unmapped. */
	for (i = 0; i < nr_gone; i++) {
		KUNIT_ASSERT_NULL(test, model_walk(&vs->m, gone[i],
						   &hole[nr_holes].first,
						   &hole[nr_holes].last));
		for (j = 0; j < nr_holes; j++)
			if (hole[j].first == hole[nr_holes].first)
				break;
		if (j == nr_holes)
			nr_holes++;
	}
	/* highest first */
	for (i = 1; i < nr_holes; i++)
		for (j = i; j > 0 && hole[j - 1].first < hole[j].first; j--) {
			t = hole[j];
			hole[j] = hole[j - 1];
			hole[j - 1] = t;
		}
	vma_check(vs, false);

	while (!vma_map(vs, 1, &nr)) {
		v = &vs->vma[nr];
		KUNIT_EXPECT_LT(test, v->last, below);
		below = v->start;
		for (j = 0; j < nr_holes; j++)
			if (v->start >= hole[j].first &&
			    v->last <= hole[j].last)
				break;
		KUNIT_ASSERT_LT_MSG(test, j, nr_holes,
				    "page mapped at %#lx outside every hole",
				    v->start);
		hole[j].found++;
		mapped++;
	}
	for (j = 0; j < nr_holes; j++)
		KUNIT_EXPECT_GT_MSG(test, hole[j].found, 0UL,
				    "hole [%#lx, %#lx] not found again",
				    hole[j].first, hole[j].last);
	vma_check(vs, true);
	kunit_info(test, "%lu ranges, %lu unmapped, %lu holes, %lu pages mapped into them\n",
		   filled, nr_gone, nr_holes, mapped);
}

static struct kunit_case maple_alloc_vma_cases[] = {
	KUNIT_CASE(vma_topdown_fill_until_full_keeps_guard_gaps),
	KUNIT_CASE(vma_freed_holes_are_found_again),
	{}
};

static struct kunit_suite maple_alloc_vma_suite = {
	.name = "maple_alloc_vma",
	.exit = vma_exit,
	.test_cases = maple_alloc_vma_cases,
};
kunit_test_suite(maple_alloc_vma_suite);
