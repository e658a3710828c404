// SPDX-License-Identifier: GPL-2.0+
/*
 * Stores in place in RCU mode that leave a leaf slot empty or fill an
 * empty one (MT_STORE_VACATE, MT_STORE_FILL in lib/maple_tree.c).
 *
 * The layout is the address space's: per step k, a NULL gap, then three
 * adjacent ranges C(k) A(k) B(k), and an isolated range D(k) in the middle
 * of the gap after them.  Removing C(k) (a NULL before it, an entry after),
 * B(k) (an entry before, a NULL after) or D(k) (NULLs on both sides) and
 * storing it again is what munmap() and mmap() do beside a VMA or in a
 * gap: in RCU mode each of these writes must take no node and keep the
 * leaf (the state's node is the same before and after), wherever the
 * range and its neighbours lie inside one leaf.
 * Every write is checked against the reference model and validated
 * (mt_validate_errors() accepts an empty slot only if it holds nothing),
 * and every read interface is compared with the model while empty slots
 * are in the tree; the writes that meet an empty slot (a NULL stored
 * beside one, ranges across them) go the full way and must read right
 * too.  Outside RCU mode the same writes are only held to the model.
 */
#include <kunit/test.h>
#include <linux/maple_tree.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"
#include "model.h"
#include "suite_helpers.h"

struct es_mode {
	const char *desc;
	unsigned int flags;
};

static const struct es_mode es_modes[] = {
	{ "rcu", MT_FLAGS_USE_RCU },
	{ "alloc rcu", MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU },
	{ "plain", 0 },
	{ "alloc", MT_FLAGS_ALLOC_RANGE },
};

KUNIT_ARRAY_PARAM_DESC(es_modes, es_modes, desc);

/* Only RCU mode keeps a reader's state good across a write. */
static const struct es_mode es_rcu_modes[] = {
	{ "rcu", MT_FLAGS_USE_RCU },
	{ "alloc rcu", MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU },
};

KUNIT_ARRAY_PARAM_DESC(es_rcu_modes, es_rcu_modes, desc);

#define ES_STEP		0x100000UL
#define ES_LEN		0x4000UL
#define ES_NR		120UL
#define C_FIRST(k)	((k) * ES_STEP - ES_LEN)
#define A_FIRST(k)	((k) * ES_STEP)
#define B_FIRST(k)	((k) * ES_STEP + ES_LEN)
#define D_FIRST(k)	((k) * ES_STEP + ES_STEP / 2)

enum es_which { ES_C, ES_A, ES_B, ES_D, ES_NR_WHICH };

static unsigned long es_first(unsigned long k, enum es_which w)
{
	switch (w) {
	case ES_C:
		return C_FIRST(k);
	case ES_A:
		return A_FIRST(k);
	case ES_B:
		return B_FIRST(k);
	default:
		return D_FIRST(k);
	}
}

static void *es_val(unsigned long k, enum es_which w)
{
	return val(k * 4 + w);
}

struct es_tree {
	struct maple_tree mt;
	struct model m;
	bool rcu;
	unsigned int bad;	/* writes the model disagreed with */
};

static void es_init(struct kunit *test, struct es_tree *t, unsigned int flags)
{
	unsigned long k;
	int w;

	mt_init_flags(&t->mt, flags);
	model_init(&t->m);
	t->rcu = flags & MT_FLAGS_USE_RCU;
	t->bad = 0;
	for (k = 1; k <= ES_NR; k++)
		for (w = ES_C; w < ES_NR_WHICH; w++) {
			unsigned long first = es_first(k, w);

			KUNIT_ASSERT_EQ(test, mtree_store_range(&t->mt, first,
						first + ES_LEN - 1,
						es_val(k, w), GFP_KERNEL), 0);
			model_store_range(&t->m, first, first + ES_LEN - 1,
					  es_val(k, w));
		}
	/* Leaves that are not the root (64-bit: height 3, 32-bit: 2). */
	KUNIT_ASSERT_GE(test, mt_height(&t->mt), 2U);
}

static void es_destroy(struct es_tree *t)
{
	mtree_destroy(&t->mt);
	model_destroy(&t->m);
}

/* The leaf holding @index and its bounds. */
static struct maple_enode *es_leaf(struct es_tree *t, unsigned long index,
				   unsigned long *min, unsigned long *max)
{
	MA_STATE(mas, &t->mt, index, index);
	struct maple_enode *leaf;

	mtree_lock(&t->mt);
	mas_walk(&mas);
	leaf = mas.node;
	*min = mas.min;
	*max = mas.max;
	mtree_unlock(&t->mt);
	return leaf;
}

/*
 * Store @entry over [@first, @last] as mm does, mas_preallocate() then
 * mas_store_prealloc(), and check it against the model.  Returns whether
 * the write took no node and left the leaf holding @first in place.
 */
static bool es_store(struct kunit *test, struct es_tree *t,
		     unsigned long first, unsigned long last, void *entry)
{
	MA_STATE(mas, &t->mt, first, last);
	char msg[MODEL_MSG_LEN];
	struct maple_enode *before, *after;
	unsigned long min, max;
	long allocs;
	int ret;

	before = es_leaf(t, first, &min, &max);
	mtree_lock(&t->mt);
	allocs = kmem_nr_allocated();
	ret = mas_preallocate(&mas, entry, GFP_NOWAIT);
	if (!ret)
		mas_store_prealloc(&mas, entry);
	allocs = kmem_nr_allocated() - allocs;
	mtree_unlock(&t->mt);
	mas_destroy(&mas);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "mas_preallocate([%lx, %lx])",
			    first, last);
	model_store_range(&t->m, first, last, entry);
	if (model_check_write(&t->mt, &t->m, first, last, msg, sizeof(msg))) {
		KUNIT_FAIL(test, "[%lx, %lx] <- %p: %s", first, last, entry,
			   msg);
		t->bad++;
	}
	after = es_leaf(t, first, &min, &max);
	return !allocs && before == after;
}

/*
 * Whether [@first, @last] and the ranges on both sides of it lie inside
 * one leaf, not at its edges: where the in-place stores apply.  @reach is
 * an index the range after it reaches (a NULL between NULLs must not take
 * the leaf's last slot).
 */
static bool es_inside_leaf(struct es_tree *t, unsigned long first,
			   unsigned long reach)
{
	unsigned long min, max;

	es_leaf(t, first, &min, &max);
	return first - ES_LEN > min && reach < max;
}

static void es_expect_model(struct kunit *test, struct es_tree *t)
{
	KUNIT_EXPECT_MODEL(test, &t->mt, &t->m);
}

/*
 * munmap() beside a VMA and mmap() back into the same place, at every
 * step: each write with its neighbours inside one leaf takes no node and
 * keeps the leaf in RCU mode.
 */
static void vacate_and_fill_keep_the_leaf(struct kunit *test)
{
	unsigned int flags = ((const struct es_mode *)test->param_value)->flags;
	unsigned long k, in_place = 0, inside = 0;
	enum es_which ws[] = { ES_C, ES_B, ES_D };
	struct es_tree t;
	unsigned int i;
	bool kept;

	es_init(test, &t, flags);
	for (k = 1; k <= ES_NR; k++) {
		for (i = 0; i < ARRAY_SIZE(ws); i++) {
			unsigned long first = es_first(k, ws[i]);
			unsigned long last = first + ES_LEN - 1;
			/* A neighbour's whole range must be in the leaf too. */
			/* D's NULL after it reaches C(k + 1) or the end. */
			unsigned long reach = ws[i] != ES_D ? last + ES_LEN :
					      k < ES_NR ? C_FIRST(k + 1) - 1 :
							  ULONG_MAX;
			bool in = es_inside_leaf(&t, first, reach);

			kept = es_store(test, &t, first, last, NULL);
			if (in && t.rcu) {
				inside++;
				KUNIT_EXPECT_TRUE_MSG(test, kept,
					"remove [%lx, %lx]: a node or a new leaf",
					first, last);
			}
			/* Back into the empty slot the removal left. */
			if (!kept || !t.rcu) {
				es_store(test, &t, first, last, es_val(k, ws[i]));
				continue;
			}
			in_place++;
			kept = es_store(test, &t, first, last, es_val(k, ws[i]));
			KUNIT_EXPECT_TRUE_MSG(test, kept,
				"store [%lx, %lx] back: a node or a new leaf",
				first, last);
		}
	}
	/* Most of the writes are inside a leaf: the test is not vacuous. */
	if (t.rcu) {
		KUNIT_EXPECT_GT(test, inside, ES_NR);
		KUNIT_EXPECT_GE(test, in_place, inside);
	}
	es_expect_model(test, &t);
	es_destroy(&t);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * Empty slots left all over the tree: every read interface must step
 * over them, then the writes that meet them (a NULL beside one, an entry
 * over one, ranges across several) must read right and validate.
 */
static void writes_and_reads_beside_empty_slots(struct kunit *test)
{
	unsigned int flags = ((const struct es_mode *)test->param_value)->flags;
	struct es_tree t;
	unsigned long k;

	es_init(test, &t, flags);
	for (k = 1; k <= ES_NR; k += 2) {
		es_store(test, &t, C_FIRST(k), C_FIRST(k) + ES_LEN - 1, NULL);
		es_store(test, &t, B_FIRST(k), B_FIRST(k) + ES_LEN - 1, NULL);
	}
	es_expect_model(test, &t);

	for (k = 1; k <= ES_NR; k += 2) {
		switch (k % 8) {
		case 1:	/* A NULL with empty slots on both sides. */
			es_store(test, &t, A_FIRST(k), A_FIRST(k) + ES_LEN - 1,
				 NULL);
			break;
		case 3:	/* An entry over the gap and the empty slot. */
			es_store(test, &t, B_FIRST(k) - 0x1000,
				 B_FIRST(k) + 0x1000, val(7));
			break;
		case 5:	/* Across the empty slots and the ranges between. */
			es_store(test, &t, C_FIRST(k) - 0x100,
				 B_FIRST(k) + ES_LEN + 0x100, val(9));
			break;
		default: /* The head of the NULL after, beside the empty. */
			es_store(test, &t, B_FIRST(k) + 0x2000,
				 B_FIRST(k) + 0x2fff, val(11));
			break;
		}
	}
	es_expect_model(test, &t);
	es_destroy(&t);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * Random removals and stores of whole ranges and of parts of the gaps
 * beside them, with a random range write now and then, checked against
 * the model after every write.
 */
static void random_vma_churn(struct kunit *test)
{
	unsigned int flags = ((const struct es_mode *)test->param_value)->flags;
	struct model_rng rng;
	struct es_tree t;
	unsigned int i;

	model_rng_seed(&rng, ktest_seed());
	es_init(test, &t, flags);
	for (i = 0; i < 20000 && !t.bad; i++) {
		unsigned long k = 1 + model_rng_below(&rng, ES_NR);
		enum es_which w = model_rng_below(&rng, ES_NR_WHICH);
		unsigned long first = es_first(k, w), last = first + ES_LEN - 1;
		unsigned long r = model_rng_below(&rng, 16);

		if (r < 6) {
			es_store(test, &t, first, last, NULL);
		} else if (r < 12) {
			/* Back in place, or its head or tail part only. */
			if (r == 10)
				last -= 0x1000;
			else if (r == 11)
				first += 0x1000;
			es_store(test, &t, first, last, es_val(k, w));
		} else if (r < 14) {
			/* A part of the gap before C(k) or after B(k). */
			first = r == 12 ? C_FIRST(k) - 0x2000 :
					  B_FIRST(k) + ES_LEN;
			es_store(test, &t, first, first + 0x1fff,
				 val(1000 + i));
		} else {
			first = A_FIRST(k) - model_rng_below(&rng, ES_STEP);
			last = first + model_rng_below(&rng, ES_STEP);
			es_store(test, &t, first, last,
				 r == 14 ? NULL : val(2000 + i));
		}
		if (!(i % 2000))
			es_expect_model(test, &t);
	}
	es_expect_model(test, &t);
	es_destroy(&t);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/* D(k)'s range, and the gap around it, from B(k) to C(k + 1). */
static void es_d_gap(unsigned long k, unsigned long *first,
		     unsigned long *last, unsigned long *gap_lo,
		     unsigned long *gap_hi)
{
	*first = D_FIRST(k);
	*last = *first + ES_LEN - 1;
	*gap_lo = B_FIRST(k) + ES_LEN;
	*gap_hi = C_FIRST(k + 1) - 1;
}

/* Park @mas on D(k) with mas_find_range(), then remove D(k). */
static void es_park_on_d_and_remove(struct kunit *test, struct es_tree *t,
				    struct ma_state *mas, unsigned long k)
{
	unsigned long first = D_FIRST(k), last = first + ES_LEN - 1;

	mas_set(mas, first);
	KUNIT_EXPECT_PTR_EQ(test, mas_find_range(mas, last), es_val(k, ES_D));
	es_store(test, t, first, last, NULL);
}

/*
 * A reader's state on an isolated range D(k) when the range is removed
 * and stored back (both in place in RCU mode, two pivots each), as a
 * reader would meet the writer between two of its steps:
 *  - after the removal the state's slot is empty and its end moved up:
 *    mas_next_range() with a limit inside the merged gap must return the
 *    gap, which holds D's last index + 1 (not stay where it was);
 *    mas_prev_range() must return the gap too, which starts before D;
 *  - after D is stored back inside the gap the state, on the gap, must
 *    go on to the range after the gap's old end.
 */
static void range_iterators_move_on_over_two_pivot_stores(struct kunit *test)
{
	unsigned int flags = ((const struct es_mode *)test->param_value)->flags;
	unsigned long k, first, last, gap_lo, gap_hi;
	struct es_tree t;
	void *entry;

	es_init(test, &t, flags);
	for (k = 1; k < ES_NR && !t.bad; k++) {
		MA_STATE(mas, &t.mt, 0, 0);

		es_d_gap(k, &first, &last, &gap_lo, &gap_hi);

		/* Forward from D(k) after its removal. */
		rcu_read_lock();
		es_park_on_d_and_remove(test, &t, &mas, k);
		entry = mas_next_range(&mas, last + 1);
		KUNIT_EXPECT_PTR_EQ(test, entry, NULL);
		KUNIT_EXPECT_EQ_MSG(test, mas.index, gap_lo, "k %lu", k);
		KUNIT_EXPECT_EQ_MSG(test, mas.last, gap_hi, "k %lu", k);

		/* Back into the gap under the state, which is on the gap. */
		es_store(test, &t, first, last, es_val(k, ES_D));
		entry = mas_next_range(&mas, ULONG_MAX);
		KUNIT_EXPECT_PTR_EQ(test, entry, es_val(k + 1, ES_C));
		KUNIT_EXPECT_EQ_MSG(test, mas.index, gap_hi + 1, "k %lu", k);

		/* Backward from D(k) after its removal. */
		es_park_on_d_and_remove(test, &t, &mas, k);
		entry = mas_prev_range(&mas, first - 1);
		KUNIT_EXPECT_PTR_EQ(test, entry, NULL);
		KUNIT_EXPECT_EQ_MSG(test, mas.index, gap_lo, "k %lu", k);
		KUNIT_EXPECT_EQ_MSG(test, mas.last, gap_hi, "k %lu", k);
		rcu_read_unlock();
		es_store(test, &t, first, last, es_val(k, ES_D));
	}
	es_expect_model(test, &t);
	es_destroy(&t);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

/*
 * A range iterator parked on D(k) while D(k) is removed (its slot and the
 * gap's after it are left empty) and another range is stored in the gap,
 * which fills those slots again: inside the gap below D(k)'s old place, so
 * that D(k)'s slot now holds that range and the gap's upper part is in the
 * slot after it; or at the gap's top, so that D(k)'s slot holds a range
 * above its old place and the gap's lower part is in the slot before it.
 * The state's slot no longer holds anything next to what the state saw:
 * mas_prev_range() must return the gap above the new range and
 * mas_next_range() the gap below it, not the range in the slot (which
 * would leave out the gap's part in between).
 */
static void range_iterators_walk_when_their_slot_is_filled_elsewhere(struct kunit *test)
{
	unsigned int flags = ((const struct es_mode *)test->param_value)->flags;
	unsigned long k, first, last, gap_lo, gap_hi, x0, x1;
	struct es_tree t;
	void *entry;

	es_init(test, &t, flags);
	for (k = 1; k < ES_NR && !t.bad; k++) {
		MA_STATE(mas, &t.mt, 0, 0);

		es_d_gap(k, &first, &last, &gap_lo, &gap_hi);

		/* Backward: the new range inside the gap, below D(k). */
		x0 = gap_lo + ES_LEN;
		x1 = x0 + ES_LEN - 1;
		rcu_read_lock();
		es_park_on_d_and_remove(test, &t, &mas, k);
		es_store(test, &t, x0, x1, es_val(k, ES_D));
		entry = mas_prev_range(&mas, 0);
		KUNIT_EXPECT_PTR_EQ(test, entry, NULL);
		KUNIT_EXPECT_EQ_MSG(test, mas.index, x1 + 1, "k %lu", k);
		KUNIT_EXPECT_EQ_MSG(test, mas.last, gap_hi, "k %lu", k);
		rcu_read_unlock();
		es_store(test, &t, x0, x1, NULL);
		es_store(test, &t, first, last, es_val(k, ES_D));

		/* Forward: the new range at the gap's top, above D(k). */
		x0 = gap_hi - ES_LEN + 1;
		x1 = gap_hi;
		rcu_read_lock();
		es_park_on_d_and_remove(test, &t, &mas, k);
		es_store(test, &t, x0, x1, es_val(k, ES_D));
		entry = mas_next_range(&mas, ULONG_MAX);
		KUNIT_EXPECT_PTR_EQ(test, entry, NULL);
		KUNIT_EXPECT_EQ_MSG(test, mas.index, gap_lo, "k %lu", k);
		KUNIT_EXPECT_EQ_MSG(test, mas.last, x0 - 1, "k %lu", k);
		rcu_read_unlock();
		es_store(test, &t, x0, x1, NULL);
		es_store(test, &t, first, last, es_val(k, ES_D));
	}
	es_expect_model(test, &t);
	es_destroy(&t);
	KUNIT_EXPECT_EQ(test, live_objects(), 0L);
}

static struct kunit_case maple_empty_slot_cases[] = {
	KUNIT_CASE_PARAM(vacate_and_fill_keep_the_leaf, es_modes_gen_params),
	KUNIT_CASE_PARAM(writes_and_reads_beside_empty_slots,
			 es_modes_gen_params),
	KUNIT_CASE_PARAM(random_vma_churn, es_modes_gen_params),
	KUNIT_CASE_PARAM(range_iterators_move_on_over_two_pivot_stores,
			 es_rcu_modes_gen_params),
	KUNIT_CASE_PARAM(range_iterators_walk_when_their_slot_is_filled_elsewhere,
			 es_rcu_modes_gen_params),
	{}
};

static struct kunit_suite maple_empty_slot_suite = {
	.name = "maple_empty_slot",
	.test_cases = maple_empty_slot_cases,
};

kunit_test_suite(maple_empty_slot_suite);
