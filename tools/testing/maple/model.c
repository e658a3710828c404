// SPDX-License-Identifier: GPL-2.0+
/*
 * Reference model of a maple tree and the checker that holds a tree to it.
 * See model.h for what the model is and why it is built this way.
 *
 * Conventions in this file: @m is the model, @mt the tree under test,
 * @mas a maple state on @mt, @r a range of the model, @i an index into the
 * model's array, @p an index of the tree's key space.
 */
#include "model.h"

#include <linux/build_bug.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* The array of ranges */

void model_init(struct model *m)
{
	m->r = NULL;
	m->nr = 0;
	m->cap = 0;
}

void model_destroy(struct model *m)
{
	free(m->r);
	model_init(m);
}

void model_clear(struct model *m)
{
	m->nr = 0;
}

static void model_reserve(struct model *m, unsigned long nr)
{
	unsigned long cap = m->cap ? m->cap : 16;
	struct model_range *r;

	if (nr <= m->cap)
		return;
	while (cap < nr)
		cap *= 2;
	r = realloc(m->r, cap * sizeof(*r));
	if (!r) {
		fprintf(stderr, "model: out of memory\n");
		abort();
	}
	m->r = r;
	m->cap = cap;
}

void model_copy(struct model *dst, const struct model *src)
{
	model_reserve(dst, src->nr);
	if (src->nr)
		memcpy(dst->r, src->r, src->nr * sizeof(*src->r));
	dst->nr = src->nr;
}

void model_set(struct model *m, const struct model_range *ranges,
	       unsigned long nr)
{
	unsigned long i;

	model_clear(m);
	for (i = 0; i < nr; i++)
		if (ranges[i].entry)
			model_store_range(m, ranges[i].first, ranges[i].last,
					  ranges[i].entry);
}

/* Position of the first range that ends at or after @index. */
static unsigned long model_lower(const struct model *m, unsigned long index)
{
	unsigned long lo = 0, hi = m->nr;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (m->r[mid].last < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Move @nr ranges from @src to @dst, which may overlap.  Every write moves
 * the tail of the array, thousands of ranges in the fuzzer's big trees.
 * memmove() would do it, but in the sanitizer builds (the fuzzer's) that is
 * the sanitizer's own byte-at-a-time copy, and so is a structure assignment
 * (one memmove() call each): together they took a third of the time of a
 * fuzz input that stores runs into a big tree.  So copy word by word, let
 * the compiler vectorize it (and not turn it back into a memmove() call),
 * and do not instrument this loop over the model's own array (the checks
 * would keep it from being vectorized): the tree's code and memory are
 * instrumented as before.
 */
#if defined(__clang__)
__attribute__((no_builtin("memmove", "memcpy")))
__attribute__((no_sanitize("address", "undefined")))
#elif defined(__GNUC__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
__attribute__((no_sanitize_address, no_sanitize_undefined))
#endif
static void model_move(struct model_range *dst, const struct model_range *src,
		       unsigned long nr)
{
	unsigned long *d = (unsigned long *)dst;
	const unsigned long *s = (const unsigned long *)src;
	unsigned long i, words = nr * (sizeof(*dst) / sizeof(*d));

	BUILD_BUG_ON(sizeof(*dst) % sizeof(*d));
	if (d < s) {
		for (i = 0; i < words; i++)
			d[i] = s[i];
	} else if (d > s) {
		for (i = words; i-- > 0;)
			d[i] = s[i];
	}
}

/* Replace elements [lo, hi) of the array by @n new ones. */
static void model_replace(struct model *m, unsigned long lo, unsigned long hi,
			  const struct model_range *piece, unsigned long n)
{
	unsigned long tail = m->nr - hi;

	model_reserve(m, m->nr - (hi - lo) + n);
	if (tail)
		model_move(&m->r[lo + n], &m->r[hi], tail);
	if (n)
		model_move(&m->r[lo], piece, n);
	m->nr = lo + n + tail;
}

/* ---------------------------------------------------------------------- */
/* Writes */

void model_store_range(struct model *m, unsigned long first,
		       unsigned long last, void *entry)
{
	struct model_range piece[3];
	unsigned long lo = model_lower(m, first);
	unsigned long hi = lo;
	unsigned long n = 0;

	/* Elements [lo, hi) overlap [first, last]. */
	while (hi < m->nr && m->r[hi].first <= last)
		hi++;

	/* What sticks out to the left of the new range survives ... */
	if (hi > lo && m->r[lo].first < first) {
		piece[n].first = m->r[lo].first;
		piece[n].last = first - 1;
		piece[n].entry = m->r[lo].entry;
		n++;
	}
	if (entry) {
		piece[n].first = first;
		piece[n].last = last;
		piece[n].entry = entry;
		n++;
	}
	/* ... and so does what sticks out to the right. */
	if (hi > lo && m->r[hi - 1].last > last) {
		piece[n].first = last + 1;
		piece[n].last = m->r[hi - 1].last;
		piece[n].entry = m->r[hi - 1].entry;
		n++;
	}
	model_replace(m, lo, hi, piece, n);
}

void *model_erase(struct model *m, unsigned long index)
{
	unsigned long i = model_lower(m, index);
	void *entry;

	if (i == m->nr || m->r[i].first > index)
		return NULL;
	entry = m->r[i].entry;
	model_replace(m, i, i + 1, NULL, 0);
	return entry;
}

bool model_range_empty(const struct model *m, unsigned long first,
		       unsigned long last)
{
	unsigned long i = model_lower(m, first);

	return i == m->nr || m->r[i].first > last;
}

/* ---------------------------------------------------------------------- */
/* Reads */

void *model_load(const struct model *m, unsigned long index)
{
	unsigned long i = model_lower(m, index);

	if (i < m->nr && m->r[i].first <= index)
		return m->r[i].entry;
	return NULL;
}

void *model_walk(const struct model *m, unsigned long index,
		 unsigned long *first, unsigned long *last)
{
	unsigned long i = model_lower(m, index);

	if (i < m->nr && m->r[i].first <= index) {
		*first = m->r[i].first;
		*last = m->r[i].last;
		return m->r[i].entry;
	}
	/* A NULL gap: from after the previous range to before the next. */
	*first = i ? m->r[i - 1].last + 1 : 0;
	*last = i < m->nr ? m->r[i].first - 1 : ULONG_MAX;
	return NULL;
}

const struct model_range *model_find(const struct model *m,
				     unsigned long index, unsigned long max)
{
	unsigned long i = model_lower(m, index);

	if (i < m->nr && m->r[i].first <= max)
		return &m->r[i];
	return NULL;
}

const struct model_range *model_find_rev(const struct model *m,
					 unsigned long index,
					 unsigned long min)
{
	unsigned long i = model_lower(m, index);

	/* The last range that starts at or before @index. */
	if (i == m->nr || m->r[i].first > index) {
		if (!i)
			return NULL;
		i--;
	}
	if (m->r[i].last >= min)
		return &m->r[i];
	return NULL;
}

const struct model_range *model_next(const struct model *m,
				     unsigned long index, unsigned long max)
{
	unsigned long first, last;

	model_walk(m, index, &first, &last);
	if (last == ULONG_MAX)
		return NULL;
	return model_find(m, last + 1, max);
}

const struct model_range *model_prev(const struct model *m,
				     unsigned long index, unsigned long min)
{
	unsigned long first, last;

	model_walk(m, index, &first, &last);
	if (first == 0)
		return NULL;
	return model_find_rev(m, first - 1, min);
}

/* The NULL gap in front of element @i (i == nr: after the last one). */
static bool model_gap(const struct model *m, unsigned long i,
		      unsigned long *first, unsigned long *last)
{
	if (i > 0) {
		if (m->r[i - 1].last == ULONG_MAX)
			return false;
		*first = m->r[i - 1].last + 1;
	} else {
		*first = 0;
	}
	if (i < m->nr) {
		if (m->r[i].first == 0)
			return false;
		*last = m->r[i].first - 1;
	} else {
		*last = ULONG_MAX;
	}
	return *first <= *last;
}

unsigned long model_nr_ranges(const struct model *m)
{
	unsigned long i, first, last, nr = m->nr;

	for (i = 0; i <= m->nr; i++)
		if (model_gap(m, i, &first, &last))
			nr++;
	return nr;
}

struct model_range *model_all_ranges(const struct model *m, unsigned long *nr)
{
	struct model_range *all;
	unsigned long i, n = 0, first, last;

	all = malloc((2 * m->nr + 1) * sizeof(*all));
	if (!all)
		abort();
	for (i = 0; i <= m->nr; i++) {
		if (model_gap(m, i, &first, &last)) {
			all[n].first = first;
			all[n].last = last;
			all[n].entry = NULL;
			n++;
		}
		if (i < m->nr) {
			/* not a structure copy: a memcpy() call in the fuzzer */
			all[n].first = m->r[i].first;
			all[n].last = m->r[i].last;
			all[n].entry = m->r[i].entry;
			n++;
		}
	}
	*nr = n;
	return all;
}

/*
 * all[] alternates: a NULL gap is maximal, so it is followed (and preceded)
 * by a non-NULL range or by the end of the index space.  Each search from
 * an index inside all[i] therefore stops at all[i] itself or at most two
 * ranges away.
 */
void model_expect_at(const struct model_range *all, unsigned long nr,
		     unsigned long i, struct model_expect *e)
{
	const struct model_range *r = &all[i];

	if (r->entry) {
		e->find = r;
		e->find_rev = r;
	} else {
		e->find = i + 1 < nr ? &all[i + 1] : NULL;
		e->find_rev = i ? &all[i - 1] : NULL;
	}
	if (i + 1 == nr)
		e->next = NULL;
	else if (all[i + 1].entry)
		e->next = &all[i + 1];
	else
		e->next = i + 2 < nr ? &all[i + 2] : NULL;
	if (!i)
		e->prev = NULL;
	else if (all[i - 1].entry)
		e->prev = &all[i - 1];
	else
		e->prev = i >= 2 ? &all[i - 2] : NULL;
}

/* The part of gap @i inside [min, max] that can hold @size indices. */
static bool model_fit(const struct model *m, unsigned long i,
		      unsigned long min, unsigned long max, unsigned long size,
		      unsigned long *lo, unsigned long *hi)
{
	unsigned long first, last;

	if (!model_gap(m, i, &first, &last))
		return false;
	if (last < min || first > max)
		return false;
	*lo = first < min ? min : first;
	*hi = last > max ? max : last;
	return *hi - *lo >= size - 1;
}

bool model_empty_area(const struct model *m, unsigned long min,
		      unsigned long max, unsigned long size,
		      unsigned long *start)
{
	unsigned long i, lo, hi;

	if (!size || min > max)
		return false;
	for (i = 0; i <= m->nr; i++) {
		if (model_fit(m, i, min, max, size, &lo, &hi)) {
			*start = lo;
			return true;
		}
	}
	return false;
}

bool model_empty_area_rev(const struct model *m, unsigned long min,
			  unsigned long max, unsigned long size,
			  unsigned long *start)
{
	unsigned long i, lo, hi;

	if (!size || min > max)
		return false;
	for (i = m->nr + 1; i-- > 0;) {
		if (model_fit(m, i, min, max, size, &lo, &hi)) {
			*start = hi - (size - 1);
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------------- */
/* Holding a tree to the model */

struct cmp {
	char *msg;
	size_t len;
	int bad;
};

static void cmp_fail(struct cmp *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cmp_fail(struct cmp *c, const char *fmt, ...)
{
	va_list ap;

	if (c->bad++ || !c->len)
		return;
	va_start(ap, fmt);
	vsnprintf(c->msg, c->len, fmt, ap);
	va_end(ap);
}

/* Compare one returned (entry, index, last) with an expected range. */
static bool cmp_range(struct cmp *c, const char *what, unsigned long from,
		      unsigned long step, void *entry,
		      const struct ma_state *mas, const struct model_range *r)
{
	if (entry == r->entry && mas->index == r->first && mas->last == r->last)
		return true;
	cmp_fail(c, "%s from %lu, step %lu: got %p [%lu, %lu], expected %p [%lu, %lu]",
		 what, from, step, entry, mas->index, mas->last, r->entry,
		 r->first, r->last);
	return false;
}

/* mtree_load() and mas_walk() at @p, which lies in the range @want. */
static void cmp_point_in(struct cmp *c, struct maple_tree *mt,
			 unsigned long p, const struct model_range *want)
{
	MA_STATE(mas, mt, p, p);
	void *entry;

	entry = mtree_load(mt, p);
	if (entry != want->entry)
		cmp_fail(c, "mtree_load(%lu) = %p, expected %p", p, entry,
			 want->entry);

	rcu_read_lock();
	entry = mas_walk(&mas);
	rcu_read_unlock();
	if (entry != want->entry || mas.index != want->first ||
	    mas.last != want->last)
		cmp_fail(c, "mas_walk(%lu) = %p [%lu, %lu], expected %p [%lu, %lu]",
			 p, entry, mas.index, mas.last, want->entry,
			 want->first, want->last);
}

static void cmp_point(struct cmp *c, struct maple_tree *mt,
		      const struct model *m, unsigned long p)
{
	struct model_range want;

	want.entry = model_walk(m, p, &want.first, &want.last);
	cmp_point_in(c, mt, p, &want);
}

static void cmp_validate(struct cmp *c, struct maple_tree *mt)
{
	int errors = mt_validate_errors(mt);

	if (errors)
		cmp_fail(c, "mt_validate_errors() = %d", errors);
}

int model_check_point(struct maple_tree *mt, const struct model *m,
		      unsigned long index, char *msg, size_t len)
{
	struct cmp c = { .msg = msg, .len = len };

	cmp_point(&c, mt, m, index);
	return c.bad;
}

int model_check_write(struct maple_tree *mt, const struct model *m,
		      unsigned long first, unsigned long last, char *msg,
		      size_t len)
{
	struct cmp c = { .msg = msg, .len = len };

	if (first)
		cmp_point(&c, mt, m, first - 1);
	cmp_point(&c, mt, m, first);
	if (last != first)
		cmp_point(&c, mt, m, last);
	if (last != ULONG_MAX)
		cmp_point(&c, mt, m, last + 1);
	if (!c.bad)
		cmp_validate(&c, mt);
	return c.bad;
}

/* mas_find() from 0 to the end, optionally pausing after every entry. */
static void cmp_find_forward(struct cmp *c, struct maple_tree *mt,
			     const struct model *m, bool pause)
{
	const char *what = pause ? "mas_find+mas_pause" : "mas_find";
	MA_STATE(mas, mt, 0, 0);
	unsigned long i = 0;
	void *entry;

	rcu_read_lock();
	while ((entry = mas_find(&mas, ULONG_MAX)) != NULL) {
		if (i == m->nr) {
			cmp_fail(c, "%s: extra entry %p [%lu, %lu] after %lu entries",
				 what, entry, mas.index, mas.last, i);
			break;
		}
		if (!cmp_range(c, what, 0, i, entry, &mas, &m->r[i]))
			break;
		i++;
		if (pause) {
			mas_pause(&mas);
			rcu_read_unlock();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	if (!c->bad && i != m->nr)
		cmp_fail(c, "%s: stopped after %lu of %lu entries", what, i,
			 m->nr);
}

/* mas_find() with a @max that stops the walk at element @k. */
static void cmp_find_bounded(struct cmp *c, struct maple_tree *mt,
			     const struct model *m, unsigned long max,
			     unsigned long expect_nr)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long i = 0;
	void *entry;

	rcu_read_lock();
	while ((entry = mas_find(&mas, max)) != NULL) {
		if (i == expect_nr) {
			cmp_fail(c, "mas_find(max %lu): extra entry %p [%lu, %lu]",
				 max, entry, mas.index, mas.last);
			break;
		}
		if (!cmp_range(c, "mas_find bounded", 0, i, entry, &mas,
			       &m->r[i]))
			break;
		i++;
	}
	rcu_read_unlock();
	if (!c->bad && i != expect_nr)
		cmp_fail(c, "mas_find(max %lu): %lu entries, expected %lu", max,
			 i, expect_nr);
}

/* mas_next() from a fresh state at 0: skips the range holding 0. */
static void cmp_next_forward(struct cmp *c, struct maple_tree *mt,
			     const struct model *m)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long i = (m->nr && m->r[0].first == 0) ? 1 : 0;
	unsigned long step = 0;
	void *entry;

	rcu_read_lock();
	while ((entry = mas_next(&mas, ULONG_MAX)) != NULL) {
		if (i == m->nr) {
			cmp_fail(c, "mas_next: extra entry %p [%lu, %lu]",
				 entry, mas.index, mas.last);
			break;
		}
		if (!cmp_range(c, "mas_next", 0, step, entry, &mas, &m->r[i]))
			break;
		i++;
		step++;
	}
	rcu_read_unlock();
	if (!c->bad && i != m->nr)
		cmp_fail(c, "mas_next: stopped at element %lu of %lu", i,
			 m->nr);
}

/*
 * mas_find_rev() from ULONG_MAX down to 0, with a lower bound @min that
 * stops it at element @stop, optionally pausing after every entry.
 */
static void cmp_find_reverse(struct cmp *c, struct maple_tree *mt,
			     const struct model *m, unsigned long min,
			     unsigned long stop, bool pause)
{
	const char *what = pause ? "mas_find_rev+mas_pause" : "mas_find_rev";
	MA_STATE(mas, mt, ULONG_MAX, ULONG_MAX);
	unsigned long i = m->nr;
	void *entry;

	rcu_read_lock();
	while ((entry = mas_find_rev(&mas, min)) != NULL) {
		if (i == stop) {
			cmp_fail(c, "%s(min %lu): extra entry %p [%lu, %lu]",
				 what, min, entry, mas.index, mas.last);
			break;
		}
		i--;
		if (!cmp_range(c, what, ULONG_MAX, m->nr - 1 - i, entry, &mas,
			       &m->r[i]))
			break;
		if (pause) {
			mas_pause(&mas);
			rcu_read_unlock();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	if (!c->bad && i != stop)
		cmp_fail(c, "%s(min %lu): stopped at element %lu, expected %lu",
			 what, min, i, stop);
}

/* mas_prev() from a fresh state at ULONG_MAX: skips the last range. */
static void cmp_prev_reverse(struct cmp *c, struct maple_tree *mt,
			     const struct model *m)
{
	MA_STATE(mas, mt, ULONG_MAX, ULONG_MAX);
	unsigned long i = m->nr;
	unsigned long step = 0;
	void *entry;

	if (i && m->r[i - 1].last == ULONG_MAX)
		i--;
	rcu_read_lock();
	while ((entry = mas_prev(&mas, 0)) != NULL) {
		if (i == 0) {
			cmp_fail(c, "mas_prev: extra entry %p [%lu, %lu]",
				 entry, mas.index, mas.last);
			break;
		}
		i--;
		if (!cmp_range(c, "mas_prev", ULONG_MAX, step, entry, &mas,
			       &m->r[i]))
			break;
		step++;
	}
	rcu_read_unlock();
	if (!c->bad && i != 0)
		cmp_fail(c, "mas_prev: stopped at element %lu", i);
}

/*
 * Range iteration over every range including the NULL gaps.  Each walk
 * asks for exactly as many ranges as there are, never beyond the end.
 */
static void cmp_ranges(struct cmp *c, struct maple_tree *mt,
		       const struct model_range *all, unsigned long nr)
{
	unsigned long i;
	void *entry;

	{
		MA_STATE(mas, mt, 0, 0);

		rcu_read_lock();
		for (i = 0; i < nr; i++) {
			entry = mas_find_range(&mas, ULONG_MAX);
			if (!cmp_range(c, "mas_find_range", 0, i, entry, &mas,
				       &all[i]))
				break;
		}
		rcu_read_unlock();
	}
	{
		MA_STATE(mas, mt, 0, 0);

		rcu_read_lock();
		for (i = 1; i < nr; i++) {
			entry = mas_next_range(&mas, ULONG_MAX);
			if (!cmp_range(c, "mas_next_range", 0, i, entry, &mas,
				       &all[i]))
				break;
		}
		rcu_read_unlock();
	}
	{
		MA_STATE(mas, mt, ULONG_MAX, ULONG_MAX);

		rcu_read_lock();
		for (i = nr; i-- > 0;) {
			entry = mas_find_range_rev(&mas, 0);
			if (!cmp_range(c, "mas_find_range_rev", ULONG_MAX,
				       nr - 1 - i, entry, &mas, &all[i]))
				break;
		}
		rcu_read_unlock();
	}
	{
		MA_STATE(mas, mt, ULONG_MAX, ULONG_MAX);

		rcu_read_lock();
		for (i = nr - 1; i-- > 0;) {
			entry = mas_prev_range(&mas, 0);
			if (!cmp_range(c, "mas_prev_range", ULONG_MAX,
				       nr - 2 - i, entry, &mas, &all[i]))
				break;
		}
		rcu_read_unlock();
	}
}

static void cmp_mt_for_each(struct cmp *c, struct maple_tree *mt,
			    const struct model *m)
{
	unsigned long index = 0, i = 0;
	void *entry;

	mt_for_each(mt, entry, index, ULONG_MAX) {
		if (i == m->nr) {
			cmp_fail(c, "mt_for_each: extra entry %p, index now %lu",
				 entry, index);
			return;
		}
		if (entry != m->r[i].entry || index != m->r[i].last + 1) {
			cmp_fail(c, "mt_for_each step %lu: got %p index %lu, expected %p index %lu",
				 i, entry, index, m->r[i].entry,
				 m->r[i].last + 1);
			return;
		}
		i++;
		if (i > m->nr + 1)
			break;
	}
	if (i != m->nr)
		cmp_fail(c, "mt_for_each: %lu entries, expected %lu", i, m->nr);
}

/* One-shot searches from point @p, which the model answers with @e. */
static void cmp_searches(struct cmp *c, struct maple_tree *mt,
			 unsigned long p, const struct model_expect *e)
{
	const struct model_range *r;
	unsigned long index;
	void *entry;

	r = e->next;
	entry = mt_next(mt, p, ULONG_MAX);
	if (entry != (r ? r->entry : NULL))
		cmp_fail(c, "mt_next(%lu) = %p, expected %p", p, entry,
			 r ? r->entry : NULL);

	r = e->prev;
	entry = mt_prev(mt, p, 0);
	if (entry != (r ? r->entry : NULL))
		cmp_fail(c, "mt_prev(%lu) = %p, expected %p", p, entry,
			 r ? r->entry : NULL);

	r = e->find;
	index = p;
	entry = mt_find(mt, &index, ULONG_MAX);
	if (entry != (r ? r->entry : NULL) ||
	    (r && index != r->last + 1))
		cmp_fail(c, "mt_find(%lu) = %p index %lu, expected %p index %lu",
			 p, entry, index, r ? r->entry : NULL,
			 r ? r->last + 1 : p);

	{
		MA_STATE(mas, mt, p, p);

		rcu_read_lock();
		entry = mas_find(&mas, ULONG_MAX);
		rcu_read_unlock();
		if (r)
			cmp_range(c, "mas_find first call", p, 0, entry, &mas,
				  r);
		else if (entry)
			cmp_fail(c, "mas_find(%lu) = %p, expected NULL", p,
				 entry);
	}
	{
		MA_STATE(mas, mt, p, p);

		r = e->find_rev;
		rcu_read_lock();
		entry = mas_find_rev(&mas, 0);
		rcu_read_unlock();
		if (r)
			cmp_range(c, "mas_find_rev first call", p, 0, entry,
				  &mas, r);
		else if (entry)
			cmp_fail(c, "mas_find_rev(%lu) = %p, expected NULL", p,
				 entry);
	}
	{
		MA_STATE(mas, mt, p, p);

		r = e->next;
		rcu_read_lock();
		entry = mas_next(&mas, ULONG_MAX);
		rcu_read_unlock();
		if (r)
			cmp_range(c, "mas_next first call", p, 0, entry, &mas,
				  r);
		else if (entry)
			cmp_fail(c, "mas_next(%lu) = %p, expected NULL", p,
				 entry);
	}
	{
		MA_STATE(mas, mt, p, p);

		r = e->prev;
		rcu_read_lock();
		entry = mas_prev(&mas, 0);
		rcu_read_unlock();
		if (r)
			cmp_range(c, "mas_prev first call", p, 0, entry, &mas,
				  r);
		else if (entry)
			cmp_fail(c, "mas_prev(%lu) = %p, expected NULL", p,
				 entry);
	}
}

/*
 * The whole-tree part of model_compare(): mt_validate_errors(), the shape
 * facts and every iteration interface over every range.  Each step of an
 * iteration is cheap; the per-boundary questions (cmp_boundaries()) are
 * where model_compare() spends its time.
 */
static void cmp_walks(struct cmp *c, struct maple_tree *mt,
		      const struct model *m, const struct model_range *all,
		      unsigned long nr_all)
{
	cmp_validate(c, mt);

	/* Shape facts that hold for any tree with 16-slot leaves. */
	if (mtree_empty(mt) && m->nr)
		cmp_fail(c, "mtree_empty() but the model has %lu entries",
			 m->nr);
	if (mt_height(mt) == 0 && !mtree_empty(mt) &&
	    !(m->nr == 1 && m->r[0].first == 0 && m->r[0].last == 0))
		cmp_fail(c, "height 0 (root entry) but the model has %lu ranges",
			 nr_all);
	if (nr_all > MAPLE_RANGE64_SLOTS && mt_height(mt) < 2)
		cmp_fail(c, "height %u holding %lu ranges", mt_height(mt),
			 nr_all);

	cmp_find_forward(c, mt, m, false);
	cmp_find_forward(c, mt, m, true);
	cmp_next_forward(c, mt, m);
	cmp_find_reverse(c, mt, m, 0, 0, false);
	cmp_find_reverse(c, mt, m, 0, 0, true);
	cmp_prev_reverse(c, mt, m);
	cmp_ranges(c, mt, all, nr_all);
	cmp_mt_for_each(c, mt, m);

	/* Walks bounded by the middle entry, forwards and backwards. */
	if (m->nr) {
		const struct model_range *r = &m->r[m->nr / 2];
		unsigned long k = m->nr / 2;

		cmp_find_bounded(c, mt, m, r->first, k + 1);
		if (r->first)
			cmp_find_bounded(c, mt, m, r->first - 1, k);
		cmp_find_reverse(c, mt, m, r->last, k, false);
		if (r->last != ULONG_MAX)
			cmp_find_reverse(c, mt, m, r->last + 1, k + 1, false);
	}
}

/*
 * Every range boundary, one inside it and so (via the neighbour) one
 * outside it.  One sweep over all[]: what the model answers at an index of
 * all[i] is all[i] or a range next to it.  Each distinct index is asked
 * once: a range of one index has one boundary, and in a range of three
 * the index after the first is the one before the last.
 */
static void cmp_boundaries(struct cmp *c, struct maple_tree *mt,
			   const struct model_range *all, unsigned long nr_all)
{
	unsigned long i;

	for (i = 0; i < nr_all && c->bad == 0; i++) {
		const struct model_range *r = &all[i];
		unsigned long span = r->last - r->first;
		struct model_expect e;

		model_expect_at(all, nr_all, i, &e);
		cmp_point_in(c, mt, r->first, r);
		if (span)
			cmp_point_in(c, mt, r->last, r);
		if (span >= 2)
			cmp_point_in(c, mt, r->first + 1, r);
		if (span >= 3)
			cmp_point_in(c, mt, r->last - 1, r);
		cmp_searches(c, mt, r->first, &e);
		if (span)
			cmp_searches(c, mt, r->last, &e);
	}
}

int model_compare(struct maple_tree *mt, const struct model *m, char *msg,
		  size_t len)
{
	struct cmp c = { .msg = msg, .len = len };
	struct model_range *all;
	unsigned long nr_all;

	all = model_all_ranges(m, &nr_all);
	cmp_walks(&c, mt, m, all, nr_all);
	cmp_boundaries(&c, mt, all, nr_all);
	free(all);
	return c.bad;
}

int model_recheck(struct maple_tree *mt, const struct model *m, char *msg,
		  size_t len)
{
	struct cmp c = { .msg = msg, .len = len };

	cmp_validate(&c, mt);
	cmp_find_forward(&c, mt, m, false);
	return c.bad;
}

/* ---------------------------------------------------------------------- */
/* Fuzz input decoding */

/*
 * Input format: one flags byte (bit 0: MT_FLAGS_ALLOC_RANGE, bit 1:
 * MT_FLAGS_USE_RCU), then operations, each an opcode byte followed by its
 * arguments.  The opcode is the byte's low five bits; numbers past the
 * last operation do nothing.  Numbers never change meaning: a new
 * operation takes the next free number, so old regression inputs keep
 * doing what they did.  Running out of bytes ends the run (missing bytes
 * read as 0); every byte string is a valid input.
 *
 * An index (I) is a selector byte and, by its low two bits: 0: one byte
 * (0..255); 1: two bytes big-endian; 2: ULONG_MAX minus one byte; 3: eight
 * bytes big-endian.  A length (L) is a selector byte and 0: one byte & 15;
 * 1: two bytes; 2: nothing, the range runs to ULONG_MAX; 3: eight bytes;
 * last = first + length, saturating.  An entry (E) is one byte: below 0x80
 * xa_mk_value(b), otherwise one of sixteen static objects.  B is a byte.
 */
enum fuzz_op {
	FUZZ_STORE_RANGE,	/* I L E: mtree_store_range */
	FUZZ_INSERT_RANGE,	/* I L E: mtree_insert_range, -EEXIST per model */
	FUZZ_ERASE,		/* I: mtree_erase */
	FUZZ_STORE_NULL,	/* I L: mtree_store_range(NULL) */
	FUZZ_STORE,		/* I E: mtree_store */
	FUZZ_MAS_STORE,		/* I L B [E if B is odd, else NULL]: mas_store */
	FUZZ_MAS_ERASE,		/* I: mas_erase */
	FUZZ_LOAD,		/* I: mtree_load and mas_walk */
	FUZZ_MT_FIND,		/* I L: mt_find(I, last) */
	FUZZ_MT_NEXT,		/* I L: mt_next(I, last) */
	FUZZ_MT_PREV,		/* I B [B]: mt_prev(I, 0 or I - B % I) */
	FUZZ_FIND_REV,		/* I: up to 8 steps of mas_find_rev(0) */
	FUZZ_COMPARE,		/* model_compare() */
	FUZZ_ALLOC,		/* I L B E: mtree_alloc_range(size B + 1) */
	FUZZ_ALLOC_REV,		/* I L B E: mtree_alloc_rrange(size B + 1) */
	FUZZ_RANGE_WALK,	/* I: up to 8 steps of mas_find_range */
	FUZZ_STORE_RUN,		/* I B1 B2 E: B1 + 1 stores, B2 % 16 + 1 apart */
	FUZZ_ERASE_RUN,		/* I B: erase the next B + 1 entries from I */
	FUZZ_PREALLOC,		/* I L E: mas_preallocate + mas_store_prealloc */
	FUZZ_DUP,		/* mtree_dup, the copy compared to the model */
	FUZZ_BULK,		/* I B: destroy, then B + 1 bulk stores from I */
	FUZZ_WALK_START,	/* I B: start a paused walk at I, reverse if B odd */
	FUZZ_WALK_STEP,		/* one step of the walk, then mas_pause */
	FUZZ_PREALLOC_OTHER,	/* I L E B I L E: mas_preallocate for the first
				 * range and entry, then the state pointed at the
				 * second without a reset (__mas_set_range(), as
				 * the VMA iterator does) and stored through
				 * mas_store_prealloc (B even) or mas_store_gfp */
	FUZZ_NR_OPS,
};

#define FUZZ_OP_MASK	31

#define FUZZ_MAX_OPS	4096

static long fuzz_objs[16];

struct fuzz {
	const unsigned char *p;
	size_t n;
	struct maple_tree *mt;
	struct model *m;
	unsigned long op_nr;
	char op[160];		/* the operation being run, for messages */
	bool in_run;		/* inside a run: validate at its end only */
	/*
	 * The write of a run being made, added to @op in a failure message
	 * only: formatting @op for every write of a run cost 3 to 6 percent
	 * of the fuzzer's time.
	 */
	bool item_on, item_erase;
	unsigned long item, item_first, item_last;
	void *item_entry;
	bool changed;		/* written since the last model_compare() */
	/* the paused walk of FUZZ_WALK_START/STEP */
	struct ma_state walk;
	unsigned long walk_from;
	bool walk_on, walk_rev;
	char *msg;
	size_t len;
	int bad;
};

static unsigned long fz_byte(struct fuzz *f)
{
	if (!f->n)
		return 0;
	f->n--;
	return *f->p++;
}

static unsigned long fz_bytes(struct fuzz *f, int nr)
{
	unsigned long v = 0;

	while (nr--)
		v = (v << 8) | fz_byte(f);
	return v;
}

static unsigned long fz_index(struct fuzz *f)
{
	switch (fz_byte(f) & 3) {
	case 0:
		return fz_byte(f);
	case 1:
		return fz_bytes(f, 2);
	case 2:
		return ULONG_MAX - fz_byte(f);
	default:
		return fz_bytes(f, sizeof(unsigned long));
	}
}

static unsigned long fz_last(struct fuzz *f, unsigned long first)
{
	unsigned long len;

	switch (fz_byte(f) & 3) {
	case 0:
		len = fz_byte(f) & 15;
		break;
	case 1:
		len = fz_bytes(f, 2);
		break;
	case 2:
		return ULONG_MAX;
	default:
		len = fz_bytes(f, sizeof(unsigned long));
		break;
	}
	return len > ULONG_MAX - first ? ULONG_MAX : first + len;
}

static void *fz_entry(struct fuzz *f)
{
	unsigned long b = fz_byte(f);

	if (b < 0x80)
		return xa_mk_value(b);
	return &fuzz_objs[b & 15];
}

static void fz_fail(struct fuzz *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fz_fail(struct fuzz *f, const char *fmt, ...)
{
	char what[MODEL_MSG_LEN];
	va_list ap;

	if (f->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (f->item_on && f->item_erase)
		snprintf(f->msg, f->len, "op %lu (%s: #%lu mtree_erase(%lu)): %s",
			 f->op_nr, f->op, f->item, f->item_first, what);
	else if (f->item_on)
		snprintf(f->msg, f->len,
			 "op %lu (%s: #%lu mtree_store_range(%lu, %lu, %p)): %s",
			 f->op_nr, f->op, f->item, f->item_first, f->item_last,
			 f->item_entry, what);
	else
		snprintf(f->msg, f->len, "op %lu (%s): %s", f->op_nr, f->op,
			 what);
}

/* Name the write a run makes now, in case it fails. */
static void fz_item(struct fuzz *f, bool erase, unsigned long i,
		    unsigned long first, unsigned long last, void *entry)
{
	f->item_on = true;
	f->item_erase = erase;
	f->item = i;
	f->item_first = first;
	f->item_last = last;
	f->item_entry = entry;
}

static void fz_check_write(struct fuzz *f, unsigned long first,
			   unsigned long last)
{
	char what[MODEL_MSG_LEN];

	if (!f->in_run) {
		if (model_check_write(f->mt, f->m, first, last, what,
				      sizeof(what)))
			fz_fail(f, "%s", what);
		return;
	}
	/* The same points, leaving mt_validate_errors() to fz_end_run() */
	if ((first && model_check_point(f->mt, f->m, first - 1, what,
					sizeof(what))) ||
	    model_check_point(f->mt, f->m, first, what, sizeof(what)) ||
	    model_check_point(f->mt, f->m, last, what, sizeof(what)) ||
	    (last != ULONG_MAX && model_check_point(f->mt, f->m, last + 1,
						     what, sizeof(what))))
		fz_fail(f, "%s", what);
}

static void fz_end_run(struct fuzz *f)
{
	int errors;

	f->in_run = false;
	if (f->bad)
		return;
	errors = mt_validate_errors(f->mt);
	if (errors)
		fz_fail(f, "mt_validate_errors() = %d after the run", errors);
}

static void fz_expect_ret(struct fuzz *f, int ret, int expect)
{
	if (ret != expect)
		fz_fail(f, "returned %d, expected %d", ret, expect);
}

static void fz_store_range(struct fuzz *f, unsigned long first,
			   unsigned long last, void *entry)
{
	int ret = mtree_store_range(f->mt, first, last, entry, GFP_KERNEL);

	fz_expect_ret(f, ret, 0);
	model_store_range(f->m, first, last, entry);
	fz_check_write(f, first, last);
}

static void fz_erase(struct fuzz *f, unsigned long index)
{
	unsigned long first, last;
	void *expect, *entry;

	expect = model_walk(f->m, index, &first, &last);
	entry = mtree_erase(f->mt, index);
	if (entry != expect)
		fz_fail(f, "mtree_erase(%lu) = %p, expected %p", index, entry,
			expect);
	model_erase(f->m, index);
	fz_check_write(f, first, last);
}

static void fz_mas_store(struct fuzz *f, unsigned long first,
			 unsigned long last, void *entry)
{
	MA_STATE(mas, f->mt, first, last);
	void *expect = model_load(f->m, first);
	void *old;

	mas_lock(&mas);
retry:
	old = mas_store(&mas, entry);
	if (mas_nomem(&mas, GFP_KERNEL))
		goto retry;
	mas_unlock(&mas);
	if (old != expect)
		fz_fail(f, "mas_store returned %p, expected %p", old, expect);
	model_store_range(f->m, first, last, entry);
	fz_check_write(f, first, last);
}

static void fz_mas_erase(struct fuzz *f, unsigned long index)
{
	MA_STATE(mas, f->mt, index, index);
	unsigned long first, last;
	void *expect, *entry;

	expect = model_walk(f->m, index, &first, &last);
	mas_lock(&mas);
	entry = mas_erase(&mas);
	mas_unlock(&mas);
	mas_destroy(&mas);
	if (entry != expect)
		fz_fail(f, "mas_erase(%lu) = %p, expected %p", index, entry,
			expect);
	model_erase(f->m, index);
	fz_check_write(f, first, last);
}

static void fz_alloc(struct fuzz *f, bool rev)
{
	unsigned long min = fz_index(f);
	unsigned long max = fz_last(f, min);
	unsigned long size = fz_bytes(f, 1) + 1;
	unsigned long start = 0, expect;
	void *entry = fz_entry(f);
	bool found, degenerate;
	int ret;

	snprintf(f->op, sizeof(f->op), "mtree_alloc_%srange(size %lu, [%lu, %lu], %p)",
		 rev ? "r" : "", size, min, max, entry);
	if (!(f->mt->ma_flags & MT_FLAGS_ALLOC_RANGE))
		return;
	if (rev) {
		found = model_empty_area_rev(f->m, min, max, size, &expect);
		ret = mtree_alloc_rrange(f->mt, &start, entry, size, min, max,
					 GFP_KERNEL);
	} else {
		found = model_empty_area(f->m, min, max, size, &expect);
		ret = mtree_alloc_range(f->mt, &start, entry, size, min, max,
					GFP_KERNEL);
	}
	/*
	 * A request that could not fit even an empty [min, max], or a
	 * one-index window, may be refused as invalid; an impossible one must
	 * fail; a possible one must succeed.
	 */
	degenerate = min == max || max - min < size - 1;
	if (ret) {
		if (found && !degenerate)
			fz_fail(f, "returned %d, expected 0 at %lu", ret, expect);
		else if (ret != -EBUSY && (ret != -EINVAL || !degenerate))
			fz_fail(f, "returned %d, expected -EBUSY", ret);
		fz_check_write(f, min, max);
		return;
	}
	if (!found) {
		fz_fail(f, "allocated at %lu, expected no room", start);
		return;
	}
	if (start != expect)
		fz_fail(f, "allocated at %lu, expected %lu", start, expect);
	model_store_range(f->m, start, start + size - 1, entry);
	fz_check_write(f, start, start + size - 1);
}

static void fz_range_walk(struct fuzz *f, unsigned long index)
{
	MA_STATE(mas, f->mt, index, index);
	unsigned long first, last, step;
	void *expect, *entry;

	rcu_read_lock();
	for (step = 0; step < 8; step++) {
		expect = model_walk(f->m, index, &first, &last);
		entry = mas_find_range(&mas, ULONG_MAX);
		if (entry != expect || mas.index != first || mas.last != last) {
			fz_fail(f, "mas_find_range step %lu = %p [%lu, %lu], expected %p [%lu, %lu]",
				step, entry, mas.index, mas.last, expect,
				first, last);
			break;
		}
		if (last == ULONG_MAX)
			break;
		index = last + 1;
	}
	rcu_read_unlock();
}

static void fz_prealloc(struct fuzz *f, unsigned long first,
			unsigned long last, void *entry)
{
	MA_STATE(mas, f->mt, first, last);
	int ret;

	mas_lock(&mas);
	ret = mas_preallocate(&mas, entry, GFP_NOWAIT);
	if (!ret)
		mas_store_prealloc(&mas, entry);
	mas_unlock(&mas);
	mas_destroy(&mas);
	fz_expect_ret(f, ret, 0);
	model_store_range(f->m, first, last, entry);
	fz_check_write(f, first, last);
}

/*
 * The preparation made for one write and the store of another from the
 * same state, which stays where mas_preallocate() left it: what a single
 * store recorded there must be checked against the range stored.
 */
static void fz_prealloc_other(struct fuzz *f)
{
	unsigned long first = fz_index(f), last = fz_last(f, first);
	void *entry = fz_entry(f);
	bool gfp = fz_byte(f) & 1;
	unsigned long first2 = fz_index(f), last2 = fz_last(f, first2);
	void *entry2 = fz_entry(f);
	MA_STATE(mas, f->mt, first, last);
	int ret;

	snprintf(f->op, sizeof(f->op),
		 "mas_preallocate([%lu, %lu], %p), then [%lu, %lu] = %p by %s",
		 first, last, entry, first2, last2, entry2,
		 gfp ? "mas_store_gfp" : "mas_store_prealloc");
	mas_lock(&mas);
	ret = mas_preallocate(&mas, entry, GFP_NOWAIT);
	if (!ret) {
		__mas_set_range(&mas, first2, last2);
		if (gfp)
			ret = mas_store_gfp(&mas, entry2, GFP_NOWAIT);
		else
			mas_store_prealloc(&mas, entry2);
	}
	mas_unlock(&mas);
	mas_destroy(&mas);
	fz_expect_ret(f, ret, 0);
	model_store_range(f->m, first2, last2, entry2);
	fz_check_write(f, first2, last2);
}

static void fz_dup(struct fuzz *f)
{
	struct maple_tree copy;
	char what[MODEL_MSG_LEN];
	int ret;

	mt_init_flags(&copy, f->mt->ma_flags & ~MT_FLAGS_HEIGHT_MASK);
	ret = mtree_dup(f->mt, &copy, GFP_KERNEL);
	fz_expect_ret(f, ret, 0);
	if (!ret && model_compare(&copy, f->m, what, sizeof(what)))
		fz_fail(f, "the copy: %s", what);
	mtree_destroy(&copy);
}

static void fz_bulk(struct fuzz *f, unsigned long first, unsigned long n)
{
	MA_STATE(mas, f->mt, 0, 0);
	unsigned long i, last;
	void *entry;
	int ret;

	mtree_destroy(f->mt);
	model_clear(f->m);
	f->walk_on = false;
	/* It allocates with GFP_KERNEL: before the tree's spinlock. */
	ret = mas_expected_entries(&mas, n);
	mas_lock(&mas);
	for (i = 0; !ret && i < n && first <= ULONG_MAX - 2; i++) {
		last = first + (i & 1);
		entry = xa_mk_value(i & 0xff);
		mas_set_range(&mas, first, last);
		mas_store(&mas, entry);
		model_store_range(f->m, first, last, entry);
		first += 3;
	}
	mas_destroy(&mas);
	mas_unlock(&mas);
	fz_expect_ret(f, ret, 0);
	fz_end_run(f);
}

static void fz_walk_step(struct fuzz *f)
{
	const struct model_range *r;
	void *entry;

	if (!f->walk_on)
		return;
	rcu_read_lock();
	if (f->walk_rev) {
		r = model_find_rev(f->m, f->walk_from, 0);
		entry = mas_find_rev(&f->walk, 0);
	} else {
		r = model_find(f->m, f->walk_from, ULONG_MAX);
		entry = mas_find(&f->walk, ULONG_MAX);
	}
	if (r && (entry != r->entry || f->walk.index != r->first ||
		  f->walk.last != r->last))
		fz_fail(f, "got %p [%lu, %lu], expected %p [%lu, %lu]", entry,
			f->walk.index, f->walk.last, r->entry, r->first,
			r->last);
	else if (!r && entry)
		fz_fail(f, "got %p [%lu, %lu], expected NULL", entry,
			f->walk.index, f->walk.last);
	mas_pause(&f->walk);
	rcu_read_unlock();
	if (!r || (f->walk_rev ? r->first == 0 : r->last == ULONG_MAX))
		f->walk_on = false;
	else
		f->walk_from = f->walk_rev ? r->first - 1 : r->last + 1;
}

/* Operations that only read the tree (mtree_dup() reads its source). */
static bool fz_op_reads(unsigned int op)
{
	switch (op) {
	case FUZZ_LOAD:
	case FUZZ_MT_FIND:
	case FUZZ_MT_NEXT:
	case FUZZ_MT_PREV:
	case FUZZ_FIND_REV:
	case FUZZ_COMPARE:
	case FUZZ_RANGE_WALK:
	case FUZZ_DUP:
	case FUZZ_WALK_START:
	case FUZZ_WALK_STEP:
		return true;
	default:
		return op >= FUZZ_NR_OPS;
	}
}

/*
 * model_compare() the tree, unless it was compared already and nothing but
 * reads ran since: every read interface gave the model's answers for this
 * very state, so the same questions need not be asked again.  The tree is
 * still held to the model by a forward walk and mt_validate_errors(), so a
 * read that changed the tree would not go unnoticed.
 */
static void fz_compare(struct fuzz *f)
{
	char what[MODEL_MSG_LEN];
	int bad;

	if (f->changed)
		bad = model_compare(f->mt, f->m, what, sizeof(what));
	else
		bad = model_recheck(f->mt, f->m, what, sizeof(what));
	f->changed = false;
	if (bad)
		fz_fail(f, "%s", what);
}

static void fz_one(struct fuzz *f)
{
	const struct model_range *r;
	unsigned long first, last, index, n, step, i;
	unsigned int op = fz_byte(f) & FUZZ_OP_MASK;
	void *entry;
	char what[MODEL_MSG_LEN];
	int ret;

	if (!fz_op_reads(op))
		f->changed = true;
	switch (op) {
	case FUZZ_STORE_RANGE:
		first = fz_index(f);
		last = fz_last(f, first);
		entry = fz_entry(f);
		snprintf(f->op, sizeof(f->op), "mtree_store_range(%lu, %lu, %p)",
			 first, last, entry);
		fz_store_range(f, first, last, entry);
		break;
	case FUZZ_INSERT_RANGE:
		first = fz_index(f);
		last = fz_last(f, first);
		entry = fz_entry(f);
		snprintf(f->op, sizeof(f->op), "mtree_insert_range(%lu, %lu, %p)",
			 first, last, entry);
		ret = mtree_insert_range(f->mt, first, last, entry, GFP_KERNEL);
		if (model_range_empty(f->m, first, last)) {
			fz_expect_ret(f, ret, 0);
			model_store_range(f->m, first, last, entry);
		} else {
			fz_expect_ret(f, ret, -EEXIST);
		}
		fz_check_write(f, first, last);
		break;
	case FUZZ_ERASE:
		index = fz_index(f);
		snprintf(f->op, sizeof(f->op), "mtree_erase(%lu)", index);
		fz_erase(f, index);
		break;
	case FUZZ_STORE_NULL:
		first = fz_index(f);
		last = fz_last(f, first);
		snprintf(f->op, sizeof(f->op), "mtree_store_range(%lu, %lu, NULL)",
			 first, last);
		fz_store_range(f, first, last, NULL);
		break;
	case FUZZ_STORE:
		index = fz_index(f);
		entry = fz_entry(f);
		snprintf(f->op, sizeof(f->op), "mtree_store(%lu, %p)", index,
			 entry);
		ret = mtree_store(f->mt, index, entry, GFP_KERNEL);
		fz_expect_ret(f, ret, 0);
		model_store_range(f->m, index, index, entry);
		fz_check_write(f, index, index);
		break;
	case FUZZ_MAS_STORE:
		first = fz_index(f);
		last = fz_last(f, first);
		entry = fz_byte(f) & 1 ? fz_entry(f) : NULL;
		snprintf(f->op, sizeof(f->op), "mas_store([%lu, %lu], %p)",
			 first, last, entry);
		fz_mas_store(f, first, last, entry);
		break;
	case FUZZ_MAS_ERASE:
		index = fz_index(f);
		snprintf(f->op, sizeof(f->op), "mas_erase(%lu)", index);
		fz_mas_erase(f, index);
		break;
	case FUZZ_LOAD:
		index = fz_index(f);
		snprintf(f->op, sizeof(f->op), "load/walk(%lu)", index);
		if (model_check_point(f->mt, f->m, index, what, sizeof(what)))
			fz_fail(f, "%s", what);
		break;
	case FUZZ_MT_FIND:
		index = fz_index(f);
		last = fz_last(f, index);
		snprintf(f->op, sizeof(f->op), "mt_find(%lu, %lu)", index, last);
		r = model_find(f->m, index, last);
		first = index;
		entry = mt_find(f->mt, &first, last);
		if (entry != (r ? r->entry : NULL) ||
		    (r && first != r->last + 1))
			fz_fail(f, "got %p index %lu, expected %p index %lu",
				entry, first, r ? r->entry : NULL,
				r ? r->last + 1 : index);
		break;
	case FUZZ_MT_NEXT:
		index = fz_index(f);
		last = fz_last(f, index);
		snprintf(f->op, sizeof(f->op), "mt_next(%lu, %lu)", index, last);
		r = model_next(f->m, index, last);
		entry = mt_next(f->mt, index, last);
		if (entry != (r ? r->entry : NULL))
			fz_fail(f, "got %p, expected %p", entry,
				r ? r->entry : NULL);
		break;
	case FUZZ_MT_PREV:
		index = fz_index(f);
		first = fz_byte(f) & 1 ? 0 : index - (index ? fz_byte(f) % index : 0);
		snprintf(f->op, sizeof(f->op), "mt_prev(%lu, %lu)", index, first);
		r = model_prev(f->m, index, first);
		entry = mt_prev(f->mt, index, first);
		if (entry != (r ? r->entry : NULL))
			fz_fail(f, "got %p, expected %p", entry,
				r ? r->entry : NULL);
		break;
	case FUZZ_FIND_REV:
		index = fz_index(f);
		snprintf(f->op, sizeof(f->op), "mas_find_rev(%lu, 0) loop", index);
		{
			MA_STATE(mas, f->mt, index, index);

			r = model_find_rev(f->m, index, 0);
			rcu_read_lock();
			for (step = 0; step < 8; step++) {
				entry = mas_find_rev(&mas, 0);
				if (!r) {
					if (entry)
						fz_fail(f, "step %lu: got %p [%lu, %lu], expected NULL",
							step, entry, mas.index,
							mas.last);
					break;
				}
				if (entry != r->entry || mas.index != r->first ||
				    mas.last != r->last) {
					fz_fail(f, "step %lu: got %p [%lu, %lu], expected %p [%lu, %lu]",
						step, entry, mas.index,
						mas.last, r->entry, r->first,
						r->last);
					break;
				}
				r = r->first ? model_find_rev(f->m, r->first - 1, 0)
					     : NULL;
			}
			rcu_read_unlock();
		}
		break;
	case FUZZ_COMPARE:
		snprintf(f->op, sizeof(f->op), "model_compare");
		fz_compare(f);
		break;
	case FUZZ_ALLOC:
		fz_alloc(f, false);
		break;
	case FUZZ_ALLOC_REV:
		fz_alloc(f, true);
		break;
	case FUZZ_RANGE_WALK:
		index = fz_index(f);
		snprintf(f->op, sizeof(f->op), "mas_find_range walk from %lu",
			 index);
		fz_range_walk(f, index);
		break;
	case FUZZ_STORE_RUN:
		/* Many small ranges at once, to grow the tree cheaply. */
		first = fz_index(f);
		n = fz_byte(f) + 1;
		step = (fz_byte(f) & 15) + 1;
		entry = fz_entry(f);
		snprintf(f->op, sizeof(f->op), "store run from %lu step %lu",
			 first, step);
		f->in_run = true;
		for (i = 0; i < n && !f->bad; i++) {
			if (first > ULONG_MAX - i * step)
				break;
			index = first + i * step;
			last = index + (step > 1 ? (i % step) % (step - 1) : 0);
			if (last < index)
				last = ULONG_MAX;
			fz_item(f, false, i, index, last, entry);
			fz_store_range(f, index, last, entry);
		}
		fz_end_run(f);
		break;
	case FUZZ_ERASE_RUN:
		index = fz_index(f);
		n = fz_byte(f) + 1;
		snprintf(f->op, sizeof(f->op), "erase run");
		f->in_run = true;
		for (i = 0; i < n && !f->bad; i++) {
			r = model_find(f->m, index, ULONG_MAX);
			if (!r)
				break;
			index = r->first;
			fz_item(f, true, i, index, index, NULL);
			fz_erase(f, index);
		}
		fz_end_run(f);
		break;
	case FUZZ_PREALLOC:
		first = fz_index(f);
		last = fz_last(f, first);
		entry = fz_entry(f);
		snprintf(f->op, sizeof(f->op),
			 "mas_preallocate+mas_store_prealloc([%lu, %lu], %p)",
			 first, last, entry);
		fz_prealloc(f, first, last, entry);
		break;
	case FUZZ_DUP:
		snprintf(f->op, sizeof(f->op), "mtree_dup");
		fz_dup(f);
		break;
	case FUZZ_BULK:
		first = fz_index(f);
		n = fz_byte(f) + 1;
		snprintf(f->op, sizeof(f->op),
			 "mas_expected_entries(%lu) and stores from %lu", n,
			 first);
		f->in_run = true;
		fz_bulk(f, first, n);
		break;
	case FUZZ_WALK_START:
		f->walk_from = fz_index(f);
		f->walk_rev = fz_byte(f) & 1;
		f->walk_on = true;
		{
			MA_STATE(fresh, f->mt, f->walk_from, f->walk_from);

			f->walk = fresh;
		}
		break;
	case FUZZ_PREALLOC_OTHER:
		fz_prealloc_other(f);
		break;
	case FUZZ_WALK_STEP:
		snprintf(f->op, sizeof(f->op), "%s step from %lu after mas_pause",
			 f->walk_rev ? "mas_find_rev" : "mas_find",
			 f->walk_from);
		fz_walk_step(f);
		break;
	}
}

int model_fuzz_run(const unsigned char *data, size_t size, char *msg,
		   size_t len)
{
	struct maple_tree tree;
	struct model model;
	struct fuzz f = {
		.p = data,
		.n = size,
		.mt = &tree,
		.m = &model,
		.msg = msg,
		.len = len,
		.changed = true,
	};
	unsigned int flags = 0;
	unsigned long b;

	if (len)
		msg[0] = '\0';
	b = fz_byte(&f);
	if (b & 1)
		flags |= MT_FLAGS_ALLOC_RANGE;
	if (b & 2)
		flags |= MT_FLAGS_USE_RCU;
	mt_init_flags(&tree, flags);
	model_init(&model);

	while (f.n && !f.bad && f.op_nr < FUZZ_MAX_OPS) {
		f.op[0] = '\0';
		f.item_on = false;
		fz_one(&f);
		f.op_nr++;
	}
	if (!f.bad) {
		snprintf(f.op, sizeof(f.op), "final model_compare");
		fz_compare(&f);
	}

	mtree_destroy(&tree);
	model_destroy(&model);
	return f.bad;
}
