/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Reference model of a maple tree, for the userspace tests.
 *
 * The model is the dumbest thing that can hold the same information as a
 * maple tree: a sorted array of non-overlapping, non-NULL ranges
 * [first, last] -> entry.  NULL ranges are implicit: every index that no
 * array element covers reads as NULL, and the NULL gap around such an index
 * runs from just after the previous range to just before the next one.
 * Adjacent non-NULL ranges stay separate elements, as they do in the tree.
 *
 * Every operation is a linear or binary search over that array, so it can
 * be read and believed at a glance; none of it shares code or ideas with
 * lib/maple_tree.c.
 *
 * model_compare() checks every read interface of a tree against a model.
 * model_fuzz_run() decodes a byte string into tree operations, runs them on
 * a tree and on a model side by side, and reports the first difference; it
 * is shared by the libFuzzer target and the regression replay suite.
 *
 * Userspace only: uses the C library for its own memory so that it never
 * disturbs the allocation counters or fault injection of the slab stand-in.
 */
#ifndef _MAPLE_TEST_MODEL_H
#define _MAPLE_TEST_MODEL_H

#include <linux/maple_tree.h>
#include <linux/xarray.h>
#include <stdbool.h>
#include <stddef.h>

struct model_range {
	unsigned long first;
	unsigned long last;
	void *entry;
};

struct model {
	struct model_range *r;	/* non-NULL ranges in ascending order */
	unsigned long nr;	/* used elements of @r */
	unsigned long cap;	/* allocated elements of @r */
};

void model_init(struct model *m);
void model_destroy(struct model *m);
void model_clear(struct model *m);
void model_copy(struct model *dst, const struct model *src);
/* Fill @m from a literal list of non-NULL ranges (NULL entries skipped). */
void model_set(struct model *m, const struct model_range *ranges,
	       unsigned long nr);

/* Writes. */
void model_store_range(struct model *m, unsigned long first,
		       unsigned long last, void *entry);
void *model_erase(struct model *m, unsigned long index);
bool model_range_empty(const struct model *m, unsigned long first,
		       unsigned long last);

/* Reads. */
void *model_load(const struct model *m, unsigned long index);
void *model_walk(const struct model *m, unsigned long index,
		 unsigned long *first, unsigned long *last);
const struct model_range *model_find(const struct model *m,
				     unsigned long index, unsigned long max);
const struct model_range *model_find_rev(const struct model *m,
					 unsigned long index,
					 unsigned long min);
const struct model_range *model_next(const struct model *m,
				     unsigned long index, unsigned long max);
const struct model_range *model_prev(const struct model *m,
				     unsigned long index, unsigned long min);
/*
 * Every range in order, NULL gaps included, in a malloc()ed array the
 * caller frees; @nr is set to its length.
 */
struct model_range *model_all_ranges(const struct model *m, unsigned long *nr);

/*
 * What the searches of a tree holding all[] (model_all_ranges()) return
 * from any index inside all[i]: the same ranges model_find(index,
 * ULONG_MAX), model_find_rev(index, 0), model_next(index, ULONG_MAX) and
 * model_prev(index, 0) return (NULL for none), found in O(1) so that a
 * sweep over all[] can ask at every boundary.
 */
struct model_expect {
	const struct model_range *find;
	const struct model_range *find_rev;
	const struct model_range *next;
	const struct model_range *prev;
};

void model_expect_at(const struct model_range *all, unsigned long nr,
		     unsigned long i, struct model_expect *e);
/* Number of ranges counting the NULL gaps: what a tree must hold. */
unsigned long model_nr_ranges(const struct model *m);
/* Lowest / highest free [s, s + size - 1] inside [min, max]. */
bool model_empty_area(const struct model *m, unsigned long min,
		      unsigned long max, unsigned long size,
		      unsigned long *start);
bool model_empty_area_rev(const struct model *m, unsigned long min,
			  unsigned long max, unsigned long size,
			  unsigned long *start);

/*
 * Checks against a tree.  Each returns 0 when the tree agrees and otherwise
 * a positive count, with the first difference described in @msg.
 *
 * model_compare() runs every read interface over the whole tree (forward
 * and reverse iteration, range iteration, lookups and walks at every range
 * boundary and next to it, mt_find, mt_next, mt_prev) and mt_validate_errors().
 * model_check_point() checks mtree_load() and mas_walk() at one index.
 * model_check_write() is the cheap check after a write of [first, last]:
 * the points first - 1, first, last, last + 1 and mt_validate_errors().
 */
#define MODEL_MSG_LEN	512
int model_compare(struct maple_tree *mt, const struct model *m, char *msg,
		  size_t len);
/*
 * model_recheck() is for a tree that passed model_compare() against the
 * same model and was only read since: mt_validate_errors() and a forward
 * walk show it still holds what it held.
 */
int model_recheck(struct maple_tree *mt, const struct model *m, char *msg,
		  size_t len);
int model_check_point(struct maple_tree *mt, const struct model *m,
		      unsigned long index, char *msg, size_t len);
int model_check_write(struct maple_tree *mt, const struct model *m,
		      unsigned long first, unsigned long last, char *msg,
		      size_t len);

/*
 * KUNIT_EXPECT_MODEL() - the tree must read exactly as the model says.
 * For use inside a KUnit test case (needs <kunit/test.h>).
 */
#define KUNIT_EXPECT_MODEL(test, mt, m) do {				\
	char __msg[MODEL_MSG_LEN];					\
									\
	if (model_compare((mt), (m), __msg, sizeof(__msg)))		\
		KUNIT_FAIL((test), "tree differs from model: %s", __msg); \
} while (0)

/* Small deterministic generator (xorshift64*) so runs replay by seed. */
struct model_rng {
	unsigned long long s;
};

static inline void model_rng_seed(struct model_rng *rng,
				  unsigned long long seed)
{
	/* splitmix64 step, so that nearby seeds give unrelated streams */
	unsigned long long z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	rng->s = z ? z : 1;
}

static inline unsigned long long model_rng_next(struct model_rng *rng)
{
	rng->s ^= rng->s >> 12;
	rng->s ^= rng->s << 25;
	rng->s ^= rng->s >> 27;
	return rng->s * 0x2545f4914f6cdd1dULL;
}

/* Uniform-ish value in [0, n), n > 0. */
static inline unsigned long model_rng_below(struct model_rng *rng,
					    unsigned long n)
{
	return (unsigned long)(model_rng_next(rng) % n);
}

/*
 * Fuzz decoding shared by fuzz_maple.c and fuzz_regress_test.c.
 *
 * Returns 0 if the tree matched the model throughout, otherwise non-zero
 * with the first difference (and the operation number) described in @msg.
 * Leaves nothing allocated.
 */
int model_fuzz_run(const unsigned char *data, size_t size, char *msg,
		   size_t len);

#endif /* _MAPLE_TEST_MODEL_H */
