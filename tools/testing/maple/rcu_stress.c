// SPDX-License-Identifier: GPL-2.0+
/*
 * RCU stress and grace-period tests of the maple tree.
 *
 * Suite maple_rcu_stress: reader threads look up, walk and iterate under
 * rcu_read_lock() while one writer stores, erases, appends and overwrites
 * many leaves at a time.  Every entry the writer stores is a pointer to an
 * immutable record {first, last, version}: the range it was stored for and
 * a number that grows with every store.  A reader can therefore check that
 * what it got was really stored over what it looked at:
 *
 *  - a lookup at i returns NULL or a record whose range holds i;
 *  - a range [index, last] returned by a walk or an iteration holds the
 *    index asked for and is exactly its record's range, unless the writer
 *    has marked the record clipped (it does so before any store that cuts
 *    the record short), and then lies inside it: the tree never reports a
 *    range an entry did not have at some moment;
 *  - iterations move strictly forward (backward): each range ends after
 *    (starts before) the one before it;
 *  - sentinels, point entries that are stored before the readers start and
 *    never touched again, are always found, by every interface, exactly as
 *    [s, s]: a reader never misses a range that was there all along, and no
 *    range (NULL or not) ever runs over one;
 *  - per index, versions never go back: once a reader has seen version v at
 *    i, it never sees an older record there again;
 *  - a record is freed with call_rcu() once the writer's shadow copy of the
 *    tree no longer holds it, and its magic word is poisoned first, so a
 *    reader that reaches a freed record fails (and ASan sees the access).
 *
 * The writer keeps a shadow of the tree: one record pointer per index of a
 * bounded index space (the low indices, one slot for the whole middle of
 * the 64-bit space, and the top indices).  Stores that touch the middle
 * cover all of it, so the shadow is exact.  The writer checks each write's
 * return value and the entries at its ends against the shadow, and every
 * RS_VERIFY_EVERY writes compares the whole tree with it under the lock and
 * runs mt_validate_errors().
 *
 * The tree stays in RCU mode the whole time: mt_clear_in_rcu() is not
 * allowed while readers run.
 *
 * Each case runs for STRESS_SECONDS seconds (environment, may be a
 * fraction; RS_DEFAULT_SECONDS when unset).  The seed is printed; SEED=n
 * replays the writer's and readers' choices, though not the interleaving.
 *
 * Suite maple_rcu_grace: a reader parks inside rcu_read_lock() on a leaf
 * while the writer replaces that leaf (or destroys the tree) and keeps
 * writing.  Nothing the writer retired may be freed, or handed out again
 * by the allocator, before the reader leaves; the reader's stale maple
 * state must walk again and see the new tree; after the reader leaves and
 * rcu_barrier(), the retired nodes are freed.
 *
 * Conventions in this file: rs is the stress run, rd a reader, rec a
 * record, s a shadow slot, i an index, [lo, hi] a reader's window, [f, l]
 * a range returned by the tree, mt the tree, mas a maple state.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/maple_tree.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "../harness/ktest.h"
#include "model.h"

#define RS_DEFAULT_SECONDS	3.0
#define RS_MAX_READERS		4
#define RS_VERIFY_EVERY		4096
#define RS_PHASE_OPS		512
#define RS_MSG_LEN		768
#define RS_MAX_STEPS		(1UL << 22)	/* runaway iteration guard */

/* Cut to a word (the last four letters on 32-bit): compared as stored. */
#define RS_MAGIC		((unsigned long)0x6d61706c65726373ULL)	/* "maplercs" */
#define RS_POISON		((unsigned long)0x5a5a5a5a5a5a5a5aULL)

/*
 * An entry as the writer stores it.  Immutable once published, except
 * @nidx, which only the writer uses, and @magic, poisoned just before the
 * record is freed.
 */
struct rs_rec {
	unsigned long magic;
	unsigned long first;
	unsigned long last;
	unsigned long version;		/* 0 for sentinels */
	unsigned long nidx;		/* shadow slots holding it (writer) */
	int clipped;			/* a store cut it short */
	struct rcu_head rcu;
};

/*
 * The index space a run uses.  Shadow slots 0 .. @low_end - 1 are indices
 * 0 .. @low_end - 1; slot @low_end (the middle slot) is every index from
 * @low_end to ULONG_MAX - @top; the last @top slots are the top @top
 * indices.  Sentinels sit at k * @sent_step + @sent_step / 2 below
 * @sent_space.  Appends go to [@append_base, @low_end).  Random writes go
 * anywhere below @low_end (wide ones no wider than @span_max).
 */
struct rs_layout {
	unsigned long low_end;
	unsigned long top;
	unsigned long sent_space;
	unsigned long sent_step;	/* 0: no sentinels */
	unsigned long append_base;
	unsigned long span_max;
};

/* 64 sentinels, ~5,000 appended ranges, trees of height 3 to 5. */
static const struct rs_layout rs_layout_big = {
	.low_end = 98304,
	.top = 64,
	.sent_space = 65536,
	.sent_step = 1024,
	.append_base = 65536,
	.span_max = 1023,
};

/* No sentinels: the tree goes through empty, a root entry, height 1..3. */
static const struct rs_layout rs_layout_small = {
	.low_end = 1024,
	.top = 16,
	.sent_space = 0,
	.sent_step = 0,
	.append_base = 0,
	.span_max = 600,
};

struct rs_config {
	const struct rs_layout *lay;
	unsigned int mt_flags;
	unsigned int mas_readers;	/* readers using the advanced API */
	unsigned int mt_readers;	/* readers using mt_find() & co */
	unsigned int min_height;	/* the tree must reach this height */
	bool rcu_after_setup;		/* mt_set_in_rcu() once filled */
	bool want_small_heights;	/* and must pass through 0, 1 and 2 */
};

/* Writer operations. */
enum rs_wop {
	W_STORE,		/* mtree_store_range() of a short range */
	W_STORE_MAS,		/* mas_store_gfp() */
	W_PREALLOC,		/* mas_preallocate() + mas_store_prealloc() */
	W_INSERT,		/* mtree_insert_range() */
	W_NULL,			/* mtree_store_range(NULL) of a short range */
	W_ERASE,		/* mtree_erase() */
	W_MAS_ERASE,		/* mas_erase() */
	W_SPAN,			/* a wide store over many ranges and leaves */
	W_SPAN_NULL,		/* a wide NULL store */
	W_APPEND,		/* the next range after the append cursor */
	W_WIPE,			/* drop (or cover) the append zone and above */
	W_TOP,			/* the top of the index space */
	W_ALLOC,		/* mtree_alloc_range() */
	W_ALLOC_REV,		/* mtree_alloc_rrange() */
	W_NR
};

static const char *const rs_wop_name[W_NR] = {
	[W_STORE] = "mtree_store_range",
	[W_STORE_MAS] = "mas_store_gfp",
	[W_PREALLOC] = "mas_preallocate+mas_store_prealloc",
	[W_INSERT] = "mtree_insert_range",
	[W_NULL] = "mtree_store_range(NULL)",
	[W_ERASE] = "mtree_erase",
	[W_MAS_ERASE] = "mas_erase",
	[W_SPAN] = "spanning mtree_store_range",
	[W_SPAN_NULL] = "spanning mtree_store_range(NULL)",
	[W_APPEND] = "append",
	[W_WIPE] = "wipe",
	[W_TOP] = "top store",
	[W_ALLOC] = "mtree_alloc_range",
	[W_ALLOC_REV] = "mtree_alloc_rrange",
};

enum rs_phase { P_GROW, P_SHRINK, P_CHURN, P_NR };

/* How often each operation is picked, by phase. */
static const unsigned char rs_weight[P_NR][W_NR] = {
	[P_GROW] = {
		[W_STORE] = 25, [W_STORE_MAS] = 8, [W_PREALLOC] = 5,
		[W_INSERT] = 8, [W_NULL] = 3, [W_ERASE] = 4,
		[W_MAS_ERASE] = 2, [W_SPAN] = 5, [W_SPAN_NULL] = 1,
		[W_APPEND] = 30, [W_WIPE] = 0, [W_TOP] = 3,
		[W_ALLOC] = 3, [W_ALLOC_REV] = 3,
	},
	[P_SHRINK] = {
		[W_STORE] = 6, [W_STORE_MAS] = 2, [W_PREALLOC] = 2,
		[W_INSERT] = 2, [W_NULL] = 20, [W_ERASE] = 25,
		[W_MAS_ERASE] = 10, [W_SPAN] = 4, [W_SPAN_NULL] = 12,
		[W_APPEND] = 5, [W_WIPE] = 2, [W_TOP] = 3,
		[W_ALLOC] = 2, [W_ALLOC_REV] = 2,
	},
	[P_CHURN] = {
		[W_STORE] = 20, [W_STORE_MAS] = 6, [W_PREALLOC] = 5,
		[W_INSERT] = 5, [W_NULL] = 10, [W_ERASE] = 12,
		[W_MAS_ERASE] = 5, [W_SPAN] = 8, [W_SPAN_NULL] = 4,
		[W_APPEND] = 15, [W_WIPE] = 1, [W_TOP] = 3,
		[W_ALLOC] = 3, [W_ALLOC_REV] = 3,
	},
};

struct rs_stress;

struct rs_reader {
	struct rs_stress *rs;
	pthread_t thread;
	unsigned int id;
	bool use_mt;			/* mt_find() & co instead of mas_*() */
	struct model_rng rng;
	unsigned long *seen;		/* newest version seen, per slot */
	unsigned long ops;
	unsigned long entries;		/* non-NULL entries checked */
};

struct rs_stress {
	struct kunit *test;
	const struct rs_config *cfg;
	const struct rs_layout *lay;
	unsigned long seed;
	struct maple_tree mt;

	/* shared with the readers */
	int stop;
	int failed;
	pthread_mutex_t msg_lock;
	char msg[RS_MSG_LEN];
	unsigned long wr_ops;		/* writes done so far */
	unsigned long wr_op;		/* the write in progress: kind, */
	unsigned long wr_first;		/* and range */
	unsigned long wr_last;
	unsigned long append_next;	/* append cursor */
	struct rs_rec **sentinel;	/* by sentinel number */
	unsigned long nr_sentinels;

	/* writer only */
	struct model_rng rng;
	struct rs_rec **shadow;
	unsigned long nslots;
	unsigned long version;
	enum rs_phase phase;
	unsigned long retired;		/* records handed to call_rcu() */
	unsigned int height_seen;	/* bit h: the tree had height h */
	unsigned long verifies;

	struct rs_reader reader[RS_MAX_READERS];
	unsigned int nr_readers;
};

/* ---------------------------------------------------------------------- */
/* Index space, shadow slots and sentinels */

static inline unsigned long rs_top_first(const struct rs_layout *lay)
{
	return ULONG_MAX - lay->top + 1;
}

static inline unsigned long rs_nslots(const struct rs_layout *lay)
{
	return lay->low_end + 1 + lay->top;
}

static unsigned long rs_slot(const struct rs_layout *lay, unsigned long i)
{
	if (i < lay->low_end)
		return i;
	if (i < rs_top_first(lay))
		return lay->low_end;
	return lay->low_end + 1 + (i - rs_top_first(lay));
}

static unsigned long rs_slot_first(const struct rs_layout *lay,
				   unsigned long s)
{
	if (s <= lay->low_end)
		return s;
	return rs_top_first(lay) + (s - lay->low_end - 1);
}

static unsigned long rs_slot_last(const struct rs_layout *lay,
				  unsigned long s)
{
	if (s < lay->low_end)
		return s;
	if (s == lay->low_end)
		return rs_top_first(lay) - 1;
	return rs_slot_first(lay, s);
}

static inline bool rs_is_sentinel(const struct rs_layout *lay,
				  unsigned long i)
{
	return lay->sent_step && i < lay->sent_space &&
	       i % lay->sent_step == lay->sent_step / 2;
}

/* The first sentinel at or after @i, if any. */
static bool rs_sent_from(const struct rs_layout *lay, unsigned long i,
			 unsigned long *sent)
{
	unsigned long s;

	if (!lay->sent_step || i >= lay->sent_space)
		return false;
	s = i - i % lay->sent_step + lay->sent_step / 2;
	if (s < i)
		s += lay->sent_step;
	if (s >= lay->sent_space)
		return false;
	*sent = s;
	return true;
}

/* The last sentinel at or before @i, if any. */
static bool rs_sent_upto(const struct rs_layout *lay, unsigned long i,
			 unsigned long *sent)
{
	unsigned long s;

	if (!lay->sent_step)
		return false;
	if (i >= lay->sent_space)
		i = lay->sent_space - 1;
	s = i - i % lay->sent_step + lay->sent_step / 2;
	if (s > i) {
		if (s < lay->sent_step)
			return false;
		s -= lay->sent_step;
	}
	*sent = s;
	return true;
}

/* Is there a sentinel in [@first, @last]?  The first one goes to @sent. */
static bool rs_sent_in(const struct rs_layout *lay, unsigned long first,
		       unsigned long last, unsigned long *sent)
{
	return rs_sent_from(lay, first, sent) && *sent <= last;
}

static inline unsigned long rs_add_sat(unsigned long a, unsigned long b)
{
	return b > ULONG_MAX - a ? ULONG_MAX : a + b;
}

static inline unsigned long rs_sub_sat(unsigned long a, unsigned long b)
{
	return a < b ? 0 : a - b;
}

/* ---------------------------------------------------------------------- */
/* Failure reporting */

static bool rs_stopped(struct rs_stress *rs)
{
	return __atomic_load_n(&rs->stop, __ATOMIC_ACQUIRE);
}

static void __printf(2, 3) rs_fail(struct rs_stress *rs, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&rs->msg_lock);
	if (!rs->failed) {
		va_start(ap, fmt);
		vsnprintf(rs->msg, sizeof(rs->msg), fmt, ap);
		va_end(ap);
		rs->failed = 1;
	}
	pthread_mutex_unlock(&rs->msg_lock);
	__atomic_store_n(&rs->stop, 1, __ATOMIC_RELEASE);
}

/* Describe @entry for a message. */
static const char *rs_desc(const void *entry, char *buf, size_t len)
{
	const struct rs_rec *rec = entry;
	unsigned long magic;

	if (!entry) {
		snprintf(buf, len, "NULL");
	} else if (xa_is_internal(entry) || ((unsigned long)entry & 7)) {
		snprintf(buf, len, "foreign entry %p", entry);
	} else {
		magic = READ_ONCE(rec->magic);
		snprintf(buf, len, "%s%p [%lu, %lu] v%lu",
			 magic == RS_MAGIC ? "rec " : "FREED rec ",
			 entry, rec->first, rec->last, rec->version);
	}
	return buf;
}

/* A reader's failure: which reader, what it did, and where the writer was. */
static void __printf(3, 4) rd_fail(struct rs_reader *rd, const char *op,
				   const char *fmt, ...)
{
	struct rs_stress *rs = rd->rs;
	char what[RS_MSG_LEN / 2];
	unsigned long kind;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	kind = READ_ONCE(rs->wr_op);
	rs_fail(rs, "reader %u, %s: %s (writer at write %lu: %s [%lu, %lu])",
		rd->id, op, what, READ_ONCE(rs->wr_ops),
		kind < W_NR ? rs_wop_name[kind] : "-",
		READ_ONCE(rs->wr_first), READ_ONCE(rs->wr_last));
}

/* ---------------------------------------------------------------------- */
/* Reader checks */

static bool rs_is_sentinel_rec(const struct rs_rec *rec, unsigned long s)
{
	return rec && rec->version == 0 && rec->first == s && rec->last == s;
}

/* @entry must be a live record; returns it, or NULL after failing. */
static const struct rs_rec *rd_rec(struct rs_reader *rd, const char *op,
				   void *entry, unsigned long at)
{
	const struct rs_rec *rec = entry;
	char d[96];

	if (xa_is_internal(entry) || ((unsigned long)entry & 7)) {
		rd_fail(rd, op, "at %lu: got %p, which the writer never stored",
			at, entry);
		return NULL;
	}
	if (READ_ONCE(rec->magic) != RS_MAGIC) {
		rd_fail(rd, op, "at %lu: got a freed record: %s", at,
			rs_desc(entry, d, sizeof(d)));
		return NULL;
	}
	return rec;
}

/* Versions seen at one index never go back. */
static bool rd_version(struct rs_reader *rd, const char *op,
		       const struct rs_rec *rec, unsigned long at)
{
	unsigned long s = rs_slot(rd->rs->lay, at);
	char d[96];

	if (rec->version < rd->seen[s]) {
		rd_fail(rd, op, "at %lu: %s is older than v%lu seen there before",
			at, rs_desc(rec, d, sizeof(d)), rd->seen[s]);
		return false;
	}
	rd->seen[s] = rec->version;
	rd->entries++;
	return true;
}

/*
 * @entry was read for index @at (from mtree_load() or an mt_*() call that
 * does not say where the range starts): NULL or a record holding @at.
 */
static bool rd_check_at(struct rs_reader *rd, const char *op, void *entry,
			unsigned long at)
{
	const struct rs_layout *lay = rd->rs->lay;
	const struct rs_rec *rec;
	char d[96];

	if (!entry) {
		if (rs_is_sentinel(lay, at)) {
			rd_fail(rd, op, "sentinel %lu read as NULL", at);
			return false;
		}
		return true;
	}
	rec = rd_rec(rd, op, entry, at);
	if (!rec)
		return false;
	if (rec->first > at || rec->last < at) {
		rd_fail(rd, op, "at %lu: %s was not stored over %lu", at,
			rs_desc(rec, d, sizeof(d)), at);
		return false;
	}
	if (rs_is_sentinel(lay, at) && !rs_is_sentinel_rec(rec, at)) {
		rd_fail(rd, op, "sentinel %lu read as %s", at,
			rs_desc(rec, d, sizeof(d)));
		return false;
	}
	return rd_version(rd, op, rec, at);
}

/*
 * The tree said [@f, @l] holds @entry.  A range holding a sentinel must be
 * exactly that sentinel; a record must have been stored over all of it.
 */
static bool rd_check_range(struct rs_reader *rd, const char *op,
			   void *entry, unsigned long f, unsigned long l)
{
	const struct rs_layout *lay = rd->rs->lay;
	const struct rs_rec *rec = NULL;
	unsigned long sent;
	char d[96];

	if (f > l) {
		rd_fail(rd, op, "range [%lu, %lu] is upside down", f, l);
		return false;
	}
	if (entry) {
		rec = rd_rec(rd, op, entry, f);
		if (!rec)
			return false;
	}
	if (rs_sent_in(lay, f, l, &sent) &&
	    (f != l || !rs_is_sentinel_rec(rec, sent))) {
		rd_fail(rd, op, "range [%lu, %lu] -> %s runs over sentinel %lu",
			f, l, rs_desc(entry, d, sizeof(d)), sent);
		return false;
	}
	if (!rec)
		return true;
	if (rec->first > f || rec->last < l) {
		rd_fail(rd, op, "range [%lu, %lu] -> %s: not stored over all of it",
			f, l, rs_desc(rec, d, sizeof(d)));
		return false;
	}
	/* Pairs with the smp_wmb() in rs_shadow_clip(). */
	smp_rmb();
	if ((rec->first != f || rec->last != l) && !READ_ONCE(rec->clipped)) {
		rd_fail(rd, op, "range [%lu, %lu] -> %s: the record was stored over [%lu, %lu] and never clipped",
			f, l, rs_desc(rec, d, sizeof(d)), rec->first,
			rec->last);
		return false;
	}
	return rd_version(rd, op, rec, f);
}

/* ---------------------------------------------------------------------- */
/* Reader choices */

static inline unsigned long rd_rand(struct rs_reader *rd, unsigned long n)
{
	return model_rng_below(&rd->rng, n);
}

/* An index: mostly low, often next to a sentinel, the append cursor, the
 * middle and the top of the index space. */
static unsigned long rd_pick_index(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long r = rd_rand(rd, 100), i;

	if (r < 60)
		return rd_rand(rd, lay->low_end);
	if (r < 72 && lay->sent_step) {
		i = rd_rand(rd, lay->sent_space / lay->sent_step) *
		    lay->sent_step + lay->sent_step / 2;
		return i + rd_rand(rd, 3) - 1;
	}
	if (r < 82) {
		i = READ_ONCE(rd->rs->append_next);
		return rs_sub_sat(i, rd_rand(rd, 96));
	}
	if (r < 92)
		return ULONG_MAX - rd_rand(rd, lay->top + 2);
	switch (rd_rand(rd, 4)) {
	case 0:
		return lay->low_end - 1 + rd_rand(rd, 3);
	case 1:
		return rs_top_first(lay) - 2 + rd_rand(rd, 3);
	default:
		i = (unsigned long)model_rng_next(&rd->rng);
		return i < lay->low_end ? lay->low_end : i;
	}
}

static void rd_pick_window(struct rs_reader *rd, unsigned long *lo,
			   unsigned long *hi)
{
	unsigned long r = rd_rand(rd, 100), w;

	if (r < 2) {
		*lo = 0;
		*hi = ULONG_MAX;
		return;
	}
	if (r < 45)
		w = rd_rand(rd, 64);
	else if (r < 85)
		w = rd_rand(rd, 2048);
	else
		w = rd_rand(rd, 65536);
	if (r & 1) {
		*lo = rd_pick_index(rd);
		*hi = rs_add_sat(*lo, w);
	} else {
		*hi = rd_pick_index(rd);
		*lo = rs_sub_sat(*hi, w);
	}
}

/* Drop the RCU lock for a moment in the middle of a walk now and then. */
static bool rd_maybe_pause(struct rs_reader *rd, struct ma_state *mas)
{
	if (rd_rand(rd, 16))
		return false;
	mas_pause(mas);
	rcu_read_unlock();
	rcu_read_lock();
	return true;
}

/* ---------------------------------------------------------------------- */
/* Reader operations: advanced API */

static void rd_load(struct rs_reader *rd)
{
	struct maple_tree *mt = &rd->rs->mt;
	int n;

	rcu_read_lock();
	for (n = 0; n < 8; n++) {
		unsigned long i = rd_pick_index(rd);

		if (!rd_check_at(rd, "mtree_load", mtree_load(mt, i), i))
			break;
	}
	rcu_read_unlock();
}

/* Several walks with one maple state, reset to a new index each time. */
static void rd_walk(struct rs_reader *rd)
{
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;
	int n;

	rcu_read_lock();
	for (n = 0; n < 8; n++) {
		unsigned long i = rd_pick_index(rd);

		mas_set(&mas, i);
		entry = mas_walk(&mas);
		if (mas.index > i || mas.last < i) {
			rd_fail(rd, "mas_walk", "walk to %lu gave range [%lu, %lu]",
				i, mas.index, mas.last);
			break;
		}
		if (!rd_check_range(rd, "mas_walk", entry, mas.index,
				    mas.last))
			break;
	}
	rcu_read_unlock();
}

/*
 * Forward iteration over [lo, hi] with mas_find() (mas_for_each()), with
 * the occasional pause.  Each range must end after the last one ended,
 * and every sentinel of the window must come up.
 */
static void rd_find(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long lo, hi, sent = 0, prev_last = 0, steps = 0;
	bool first = true, paused = false, want;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;

	rd_pick_window(rd, &lo, &hi);
	mas_set(&mas, lo);
	want = rs_sent_in(lay, lo, hi, &sent);
	rcu_read_lock();
	mas_for_each(&mas, entry, hi) {
		unsigned long f = mas.index, l = mas.last;

		if (f > hi || l < lo || (!first && l <= prev_last)) {
			rd_fail(rd, "mas_find", "window [%lu, %lu]: [%lu, %lu] after [.., %lu]%s",
				lo, hi, f, l, prev_last,
				paused ? " and a pause" : "");
			goto out;
		}
		if (!rd_check_range(rd, "mas_find", entry, f, l))
			goto out;
		if (want && f > sent) {
			rd_fail(rd, "mas_find", "window [%lu, %lu]: skipped sentinel %lu, went from [.., %lu] to [%lu, %lu]",
				lo, hi, sent, prev_last, f, l);
			goto out;
		}
		if (want && l >= sent)
			want = l < ULONG_MAX &&
			       rs_sent_in(lay, l + 1, hi, &sent);
		prev_last = l;
		first = false;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, "mas_find", "window [%lu, %lu]: no end after %lu steps",
				lo, hi, steps);
			goto out;
		}
		paused = rd_maybe_pause(rd, &mas);
	}
	if (want)
		rd_fail(rd, "mas_find", "window [%lu, %lu]: sentinel %lu never came, last range ended at %lu",
			lo, hi, sent, prev_last);
out:
	rcu_read_unlock();
}

/* The mirror of rd_find() with mas_find_rev(). */
static void rd_find_rev(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long lo, hi, sent = 0, prev_first = 0, steps = 0;
	bool first = true, paused = false, want;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;

	rd_pick_window(rd, &lo, &hi);
	mas_set(&mas, hi);
	want = rs_sent_upto(lay, hi, &sent) && sent >= lo;
	rcu_read_lock();
	while ((entry = mas_find_rev(&mas, lo)) != NULL) {
		unsigned long f = mas.index, l = mas.last;

		if (f > hi || l < lo || (!first && f >= prev_first)) {
			rd_fail(rd, "mas_find_rev", "window [%lu, %lu]: [%lu, %lu] after [%lu, ..]%s",
				lo, hi, f, l, prev_first,
				paused ? " and a pause" : "");
			goto out;
		}
		if (!rd_check_range(rd, "mas_find_rev", entry, f, l))
			goto out;
		if (want && l < sent) {
			rd_fail(rd, "mas_find_rev", "window [%lu, %lu]: skipped sentinel %lu, went from [%lu, ..] to [%lu, %lu]",
				lo, hi, sent, prev_first, f, l);
			goto out;
		}
		if (want && f <= sent)
			want = f && rs_sent_upto(lay, f - 1, &sent) &&
			       sent >= lo;
		prev_first = f;
		first = false;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, "mas_find_rev", "window [%lu, %lu]: no end after %lu steps",
				lo, hi, steps);
			goto out;
		}
		paused = rd_maybe_pause(rd, &mas);
	}
	if (want)
		rd_fail(rd, "mas_find_rev", "window [%lu, %lu]: sentinel %lu never came, last range started at %lu",
			lo, hi, sent, prev_first);
out:
	rcu_read_unlock();
}

/*
 * mas_next() from lo: entries after the range holding lo that start at or
 * before hi, each ending after the one before, every sentinel in (lo, hi]
 * included.
 */
static void rd_next(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long lo, hi, sent = 0, prev_last, steps = 0;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;
	bool want;

	rd_pick_window(rd, &lo, &hi);
	mas_set(&mas, lo);
	want = lo < ULONG_MAX && rs_sent_in(lay, lo + 1, hi, &sent);
	prev_last = lo;
	rcu_read_lock();
	while ((entry = mas_next(&mas, hi)) != NULL) {
		unsigned long f = mas.index, l = mas.last;

		if (l <= prev_last || f > hi) {
			rd_fail(rd, "mas_next", "window [%lu, %lu]: [%lu, %lu] after [.., %lu]",
				lo, hi, f, l, prev_last);
			goto out;
		}
		if (!rd_check_range(rd, "mas_next", entry, f, l))
			goto out;
		if (want && f > sent) {
			rd_fail(rd, "mas_next", "window [%lu, %lu]: skipped sentinel %lu, went from [.., %lu] to [%lu, %lu]",
				lo, hi, sent, prev_last, f, l);
			goto out;
		}
		if (want && l >= sent)
			want = l < ULONG_MAX &&
			       rs_sent_in(lay, l + 1, hi, &sent);
		prev_last = l;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, "mas_next", "window [%lu, %lu]: no end", lo, hi);
			goto out;
		}
	}
	if (want)
		rd_fail(rd, "mas_next", "window [%lu, %lu]: sentinel %lu never came, last range ended at %lu",
			lo, hi, sent, prev_last);
out:
	rcu_read_unlock();
}

/* The mirror of rd_next() with mas_prev(): sentinels in [lo, hi). */
static void rd_prev(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long lo, hi, sent = 0, prev_first, steps = 0;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;
	bool want;

	rd_pick_window(rd, &lo, &hi);
	mas_set(&mas, hi);
	want = hi && rs_sent_upto(lay, hi - 1, &sent) && sent >= lo;
	prev_first = hi;
	rcu_read_lock();
	while ((entry = mas_prev(&mas, lo)) != NULL) {
		unsigned long f = mas.index, l = mas.last;

		if (f >= prev_first || l < lo) {
			rd_fail(rd, "mas_prev", "window [%lu, %lu]: [%lu, %lu] after [%lu, ..]",
				lo, hi, f, l, prev_first);
			goto out;
		}
		if (!rd_check_range(rd, "mas_prev", entry, f, l))
			goto out;
		if (want && l < sent) {
			rd_fail(rd, "mas_prev", "window [%lu, %lu]: skipped sentinel %lu, went from [%lu, ..] to [%lu, %lu]",
				lo, hi, sent, prev_first, f, l);
			goto out;
		}
		if (want && f <= sent)
			want = f && rs_sent_upto(lay, f - 1, &sent) &&
			       sent >= lo;
		prev_first = f;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, "mas_prev", "window [%lu, %lu]: no end", lo, hi);
			goto out;
		}
	}
	if (want)
		rd_fail(rd, "mas_prev", "window [%lu, %lu]: sentinel %lu never came, last range started at %lu",
			lo, hi, sent, prev_first);
out:
	rcu_read_unlock();
}

/*
 * mas_find_range() then mas_next_range() over [lo, hi]: NULL ranges too,
 * each ending after the one before.  (They tile the window unless the
 * tree changed between two steps: a range may then reach back over the one
 * before, or the one before may have grown past where it was returned.)
 */
static void rd_range(struct rs_reader *rd)
{
	unsigned long lo, hi, prev, steps = 0;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;

	rd_pick_window(rd, &lo, &hi);
	mas_set(&mas, lo);
	rcu_read_lock();
	entry = mas_find_range(&mas, hi);
	if (mas.index > lo || mas.last < lo) {
		rd_fail(rd, "mas_find_range", "from %lu: got [%lu, %lu]", lo,
			mas.index, mas.last);
		goto out;
	}
	if (!rd_check_range(rd, "mas_find_range", entry, mas.index, mas.last))
		goto out;
	while (mas.last < hi) {
		prev = mas.last;
		entry = mas_next_range(&mas, hi);
		if (mas.last <= prev) {
			rd_fail(rd, "mas_next_range", "window [%lu, %lu]: [%lu, %lu] after [.., %lu]",
				lo, hi, mas.index, mas.last, prev);
			goto out;
		}
		if (!rd_check_range(rd, "mas_next_range", entry, mas.index,
				    mas.last))
			goto out;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, "mas_next_range", "window [%lu, %lu]: no end",
				lo, hi);
			goto out;
		}
	}
out:
	rcu_read_unlock();
}

/* The mirror of rd_range(): mas_find_range_rev(), mas_prev_range(). */
static void rd_range_rev(struct rs_reader *rd)
{
	unsigned long lo, hi, prev, steps = 0;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	void *entry;

	rd_pick_window(rd, &lo, &hi);
	mas_set(&mas, hi);
	rcu_read_lock();
	entry = mas_find_range_rev(&mas, lo);
	if (mas.index > hi || mas.last < hi) {
		rd_fail(rd, "mas_find_range_rev", "from %lu: got [%lu, %lu]",
			hi, mas.index, mas.last);
		goto out;
	}
	if (!rd_check_range(rd, "mas_find_range_rev", entry, mas.index,
			    mas.last))
		goto out;
	while (mas.index > lo) {
		prev = mas.index;
		entry = mas_prev_range(&mas, lo);
		if (mas.index >= prev) {
			rd_fail(rd, "mas_prev_range", "window [%lu, %lu]: [%lu, %lu] after [%lu, ..]",
				lo, hi, mas.index, mas.last, prev);
			goto out;
		}
		if (!rd_check_range(rd, "mas_prev_range", entry, mas.index,
				    mas.last))
			goto out;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, "mas_prev_range", "window [%lu, %lu]: no end",
				lo, hi);
			goto out;
		}
	}
out:
	rcu_read_unlock();
}

/*
 * Allocation trees: a free area found under RCU lies in the window, has
 * the size asked for, and never holds a sentinel.
 */
static void rd_empty_area(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	MA_STATE(mas, &rd->rs->mt, 0, 0);
	unsigned long lo, hi, size, sent;
	bool rev = rd_rand(rd, 2);
	const char *op = rev ? "mas_empty_area_rev" : "mas_empty_area";
	int ret;

	rd_pick_window(rd, &lo, &hi);
	size = 1 + rd_rand(rd, rd_rand(rd, 4) ? 8 : 512);
	if (hi - lo < size - 1)
		hi = rs_add_sat(lo, size - 1);
	if (hi - lo < size - 1)
		lo = hi - (size - 1);
	rcu_read_lock();
	ret = rev ? mas_empty_area_rev(&mas, lo, hi, size) :
		    mas_empty_area(&mas, lo, hi, size);
	if (ret == -EBUSY)
		goto out;
	if (ret) {
		rd_fail(rd, op, "window [%lu, %lu] size %lu: error %d", lo, hi,
			size, ret);
	} else if (mas.index < lo || mas.last > hi ||
		   mas.last - mas.index != size - 1) {
		rd_fail(rd, op, "window [%lu, %lu] size %lu: got [%lu, %lu]",
			lo, hi, size, mas.index, mas.last);
	} else if (rs_sent_in(lay, mas.index, mas.last, &sent)) {
		rd_fail(rd, op, "window [%lu, %lu] size %lu: [%lu, %lu] holds sentinel %lu",
			lo, hi, size, mas.index, mas.last, sent);
	}
out:
	rcu_read_unlock();
}

/* ---------------------------------------------------------------------- */
/* Reader operations: normal API */

/* The last index of the range mt_find() found, from its updated index. */
static inline unsigned long rd_found_last(unsigned long next)
{
	return next ? next - 1 : ULONG_MAX;
}

/*
 * mt_for_each() over [lo, hi] (a single mt_find() when @once): each entry
 * ends after the one before, holds the index just before the updated
 * *index, starts in the window, and no sentinel is passed over.
 */
static void rd_mt_for_each(struct rs_reader *rd, bool once)
{
	const struct rs_layout *lay = rd->rs->lay;
	struct maple_tree *mt = &rd->rs->mt;
	const char *op = once ? "mt_find" : "mt_for_each";
	unsigned long lo, hi, idx, from, l, sent = 0, steps = 0;
	const struct rs_rec *rec;
	void *entry;
	bool want;

	rd_pick_window(rd, &lo, &hi);
	want = rs_sent_in(lay, lo, hi, &sent);
	idx = lo;
	from = lo;
	rcu_read_lock();
	mt_for_each(mt, entry, idx, hi) {
		l = rd_found_last(idx);
		if (l < from) {
			rd_fail(rd, op, "window [%lu, %lu]: from %lu found a range ending at %lu",
				lo, hi, from, l);
			goto out;
		}
		if (!rd_check_at(rd, op, entry, l))
			goto out;
		rec = entry;
		if (rec->first > hi) {
			rd_fail(rd, op, "window [%lu, %lu]: found [%lu, %lu] v%lu",
				lo, hi, rec->first, rec->last, rec->version);
			goto out;
		}
		if (want && sent < l) {
			rd_fail(rd, op, "window [%lu, %lu]: from %lu skipped sentinel %lu to reach %lu",
				lo, hi, from, sent, l);
			goto out;
		}
		if (want && sent == l)
			want = l < ULONG_MAX &&
			       rs_sent_in(lay, l + 1, hi, &sent);
		from = idx;
		if (once || !idx)
			break;
		if (++steps > RS_MAX_STEPS) {
			rd_fail(rd, op, "window [%lu, %lu]: no end", lo, hi);
			goto out;
		}
	}
	if (!entry && once && idx != lo)
		rd_fail(rd, op, "found nothing but moved the index from %lu to %lu",
			lo, idx);
	else if (want && (!once || !entry))
		rd_fail(rd, op, "window [%lu, %lu]: sentinel %lu never came, searched from %lu",
			lo, hi, sent, from);
out:
	rcu_read_unlock();
}

/* mt_next(i, hi): the first entry after i's range, no sentinel skipped. */
static void rd_mt_next(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long i, hi, sent = 0;
	const struct rs_rec *rec;
	void *entry;
	bool want;
	char d[96];

	rd_pick_window(rd, &i, &hi);
	want = i < ULONG_MAX && rs_sent_in(lay, i + 1, hi, &sent);
	rcu_read_lock();
	entry = mt_next(&rd->rs->mt, i, hi);
	if (!entry) {
		if (want)
			rd_fail(rd, "mt_next", "mt_next(%lu, %lu) = NULL, but sentinel %lu is there",
				i, hi, sent);
		goto out;
	}
	rec = rd_rec(rd, "mt_next", entry, i);
	if (!rec)
		goto out;
	if (rec->last <= i || rec->first > hi || (want && rec->first > sent))
		rd_fail(rd, "mt_next", "mt_next(%lu, %lu) = %s%s", i, hi,
			rs_desc(rec, d, sizeof(d)),
			want ? ", sentinel before it" : "");
	else
		rd->entries++;
out:
	rcu_read_unlock();
}

/* mt_prev(i, lo): the first entry before i's range, no sentinel skipped. */
static void rd_mt_prev(struct rs_reader *rd)
{
	const struct rs_layout *lay = rd->rs->lay;
	unsigned long lo, i, sent = 0;
	const struct rs_rec *rec;
	void *entry;
	bool want;
	char d[96];

	rd_pick_window(rd, &lo, &i);
	want = i && rs_sent_upto(lay, i - 1, &sent) && sent >= lo;
	rcu_read_lock();
	entry = mt_prev(&rd->rs->mt, i, lo);
	if (!entry) {
		if (want)
			rd_fail(rd, "mt_prev", "mt_prev(%lu, %lu) = NULL, but sentinel %lu is there",
				i, lo, sent);
		goto out;
	}
	rec = rd_rec(rd, "mt_prev", entry, i);
	if (!rec)
		goto out;
	if (rec->first >= i || rec->last < lo || (want && rec->last < sent))
		rd_fail(rd, "mt_prev", "mt_prev(%lu, %lu) = %s%s", i, lo,
			rs_desc(rec, d, sizeof(d)),
			want ? ", sentinel after it" : "");
	else
		rd->entries++;
out:
	rcu_read_unlock();
}

static void rd_op_mas(struct rs_reader *rd)
{
	unsigned long r = rd_rand(rd, 100);

	if (r < 15)
		rd_load(rd);
	else if (r < 30)
		rd_walk(rd);
	else if (r < 48)
		rd_find(rd);
	else if (r < 62)
		rd_find_rev(rd);
	else if (r < 69)
		rd_next(rd);
	else if (r < 76)
		rd_prev(rd);
	else if (r < 84)
		rd_range(rd);
	else if (r < 92 || !(rd->rs->cfg->mt_flags & MT_FLAGS_ALLOC_RANGE))
		rd_range_rev(rd);
	else
		rd_empty_area(rd);
}

static void rd_op_mt(struct rs_reader *rd)
{
	unsigned long r = rd_rand(rd, 100);

	if (r < 20)
		rd_load(rd);
	else if (r < 40)
		rd_mt_for_each(rd, true);
	else if (r < 75)
		rd_mt_for_each(rd, false);
	else if (r < 88)
		rd_mt_next(rd);
	else
		rd_mt_prev(rd);
}

static void *rs_reader_thread(void *arg)
{
	struct rs_reader *rd = arg;

	while (!rs_stopped(rd->rs)) {
		if (rd->use_mt)
			rd_op_mt(rd);
		else
			rd_op_mas(rd);
		rd->ops++;
	}
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Writer: records and the shadow */

static void rs_rec_free_rcu(struct rcu_head *head)
{
	struct rs_rec *rec = container_of(head, struct rs_rec, rcu);

	WRITE_ONCE(rec->magic, RS_POISON);
	kfree(rec);
}

static struct rs_rec *rs_rec_new(struct rs_stress *rs, unsigned long first,
				 unsigned long last, bool sentinel)
{
	struct rs_rec *rec = kmalloc(sizeof(*rec), GFP_KERNEL);

	if (!rec)
		return NULL;
	rec->magic = RS_MAGIC;
	rec->first = first;
	rec->last = last;
	rec->version = sentinel ? 0 : ++rs->version;
	rec->nidx = 0;
	rec->clipped = 0;
	return rec;
}

/*
 * A store over shadow slots [@s0, @s1] is about to cut short the records
 * that reach out of it at either end: mark them before the tree changes.
 */
static void rs_shadow_clip(struct rs_stress *rs, unsigned long s0,
			   unsigned long s1)
{
	struct rs_rec *rec = rs->shadow[s0];

	if (rec && s0 && rs->shadow[s0 - 1] == rec)
		WRITE_ONCE(rec->clipped, 1);
	rec = rs->shadow[s1];
	if (rec && s1 + 1 < rs->nslots && rs->shadow[s1 + 1] == rec)
		WRITE_ONCE(rec->clipped, 1);
	/*
	 * Pairs with the smp_rmb() in rd_check_range(): a reader that saw
	 * any word of the store also sees the mark.
	 */
	smp_wmb();
}

/* Shadow slots [@s0, @s1] now hold @rec; retire records left nowhere. */
static void rs_shadow_store(struct rs_stress *rs, unsigned long s0,
			    unsigned long s1, struct rs_rec *rec)
{
	unsigned long s;

	for (s = s0; s <= s1; s++) {
		struct rs_rec *old = rs->shadow[s];

		if (old && !--old->nidx) {
			call_rcu(&old->rcu, rs_rec_free_rcu);
			rs->retired++;
		}
		rs->shadow[s] = rec;
	}
	if (rec)
		rec->nidx += s1 - s0 + 1;
}

/* The run of slots around @s holding the same entry: one tree range. */
static void rs_shadow_run(struct rs_stress *rs, unsigned long s,
			  unsigned long *s0, unsigned long *s1)
{
	struct rs_rec *rec = rs->shadow[s];

	*s0 = s;
	while (*s0 && rs->shadow[*s0 - 1] == rec)
		(*s0)--;
	*s1 = s;
	while (*s1 + 1 < rs->nslots && rs->shadow[*s1 + 1] == rec)
		(*s1)++;
}

static inline unsigned long wr_rand(struct rs_stress *rs, unsigned long n)
{
	return model_rng_below(&rs->rng, n);
}

/* Mostly short lengths, sometimes up to @max. */
static unsigned long wr_len(struct rs_stress *rs, unsigned long max)
{
	unsigned long r = wr_rand(rs, 8);

	if (r < 4)
		return 1 + wr_rand(rs, 4 < max ? 4 : max);
	if (r < 7)
		return 1 + wr_rand(rs, 16 < max ? 16 : max);
	return 1 + wr_rand(rs, max);
}

/*
 * A range of low slots [*s0, *s1] of at most @maxlen slots in [@lo, @hi],
 * holding no sentinel.
 */
static void wr_pick_range(struct rs_stress *rs, unsigned long lo,
			  unsigned long hi, unsigned long maxlen,
			  unsigned long *s0, unsigned long *s1)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long a, b, sent;

	a = lo + wr_rand(rs, hi - lo + 1);
	if (rs_is_sentinel(lay, a))
		a = a < hi ? a + 1 : a - 1;
	b = a + wr_len(rs, maxlen) - 1;
	if (b > hi)
		b = hi;
	if (rs_sent_in(lay, a, b, &sent))
		b = sent - 1;
	*s0 = a;
	*s1 = b;
}

/*
 * A wide range of low slots: many ranges, often several leaves.  Two
 * widths in three are those a VMA-like workload makes most: 2 to 40 and
 * 64 to 364 indices.
 */
static void wr_pick_span(struct rs_stress *rs, unsigned long *s0,
			 unsigned long *s1)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long sent;

	*s0 = wr_rand(rs, lay->low_end);
	if (rs_is_sentinel(lay, *s0))
		(*s0)++;
	switch (wr_rand(rs, 3)) {
	case 0:
		*s1 = *s0 + 1 + wr_rand(rs, 39);
		break;
	case 1:
		*s1 = *s0 + 63 + wr_rand(rs, 301);
		break;
	default:
		*s1 = *s0 + lay->span_max / 4 +
		      wr_rand(rs, lay->span_max * 3 / 4);
		break;
	}
	if (*s1 >= lay->low_end)
		*s1 = lay->low_end - 1;
	if (rs_sent_in(lay, *s0, *s1, &sent))
		*s1 = sent - 1;
}

/* Where random writes go: anywhere below low_end, now and then the top. */
static void wr_pick_any(struct rs_stress *rs, unsigned long maxlen,
			unsigned long *s0, unsigned long *s1)
{
	const struct rs_layout *lay = rs->lay;

	if (wr_rand(rs, 32)) {
		wr_pick_range(rs, 0, lay->low_end - 1, maxlen, s0, s1);
		return;
	}
	/* the middle slot and the top slots */
	wr_pick_range(rs, lay->low_end, rs->nslots - 1, maxlen, s0, s1);
}

/* ---------------------------------------------------------------------- */
/* Writer: checks */

static void __printf(2, 3) wr_fail(struct rs_stress *rs, const char *fmt, ...)
{
	char what[RS_MSG_LEN / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	rs_fail(rs, "writer, write %lu (%s [%lu, %lu]): %s", rs->wr_ops,
		rs_wop_name[rs->wr_op], rs->wr_first, rs->wr_last, what);
}

/* After a write of [first, last]: its ends and their neighbours. */
static bool wr_check_ends(struct rs_stress *rs, unsigned long first,
			  unsigned long last)
{
	unsigned long at[4] = { first - 1, first, last, last + 1 };
	char d1[96], d2[96];
	int n;

	for (n = 0; n < 4; n++) {
		void *want, *got;

		if ((n == 0 && !first) || (n == 3 && last == ULONG_MAX))
			continue;
		want = rs->shadow[rs_slot(rs->lay, at[n])];
		got = mtree_load(&rs->mt, at[n]);
		if (got != want) {
			wr_fail(rs, "mtree_load(%lu) = %s, should be %s", at[n],
				rs_desc(got, d1, sizeof(d1)),
				rs_desc(want, d2, sizeof(d2)));
			return false;
		}
	}
	return true;
}

/*
 * The whole tree against the shadow, under the lock: every range, NULL
 * ones merged, and mt_validate_errors().
 */
static bool wr_verify(struct rs_stress *rs)
{
	const struct rs_layout *lay = rs->lay;
	MA_STATE(mas, &rs->mt, 0, 0);
	void *entry, *prev = XA_ZERO_ENTRY;
	unsigned long expect = 0, s, n = 0;
	char d1[96], d2[96];
	bool ok = false;
	int errors;

	rs->verifies++;
	mtree_lock(&rs->mt);
	entry = mas_find_range(&mas, ULONG_MAX);
	for (;;) {
		if (mas.index != expect || mas.last < mas.index) {
			wr_fail(rs, "verify: range [%lu, %lu] where %lu was due",
				mas.index, mas.last, expect);
			goto out;
		}
		if (!entry && !prev) {
			wr_fail(rs, "verify: NULL range [%lu, %lu] follows another",
				mas.index, mas.last);
			goto out;
		}
		for (s = rs_slot(lay, mas.index); s <= rs_slot(lay, mas.last);
		     s++) {
			if (rs->shadow[s] != entry) {
				wr_fail(rs, "verify: [%lu, %lu] holds %s, index %lu should hold %s",
					mas.index, mas.last,
					rs_desc(entry, d1, sizeof(d1)),
					rs_slot_first(lay, s),
					rs_desc(rs->shadow[s], d2, sizeof(d2)));
				goto out;
			}
		}
		if (mas.last == ULONG_MAX)
			break;
		if (++n > 4 * rs->nslots) {
			wr_fail(rs, "verify: no end");
			goto out;
		}
		expect = mas.last + 1;
		prev = entry;
		entry = mas_next_range(&mas, ULONG_MAX);
	}
	errors = mt_validate_errors(&rs->mt);
	if (errors) {
		wr_fail(rs, "verify: mt_validate_errors() = %d", errors);
		goto out;
	}
	ok = true;
out:
	mtree_unlock(&rs->mt);
	return ok;
}

/* ---------------------------------------------------------------------- */
/* Writer: operations */

/* Store @rec (or NULL) over slots [s0, s1] with the API @op names. */
static bool wr_store(struct rs_stress *rs, enum rs_wop op, unsigned long s0,
		     unsigned long s1, struct rs_rec *rec)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long first = rs_slot_first(lay, s0);
	unsigned long last = rs_slot_last(lay, s1);
	MA_STATE(mas, &rs->mt, first, last);
	int ret;

	WRITE_ONCE(rs->wr_first, first);
	WRITE_ONCE(rs->wr_last, last);
	rs_shadow_clip(rs, s0, s1);
	switch (op) {
	case W_STORE_MAS:
		mtree_lock(&rs->mt);
		ret = mas_store_gfp(&mas, rec, GFP_KERNEL);
		mtree_unlock(&rs->mt);
		break;
	case W_PREALLOC:
		mtree_lock(&rs->mt);
		ret = mas_preallocate(&mas, rec, GFP_NOWAIT | __GFP_NOWARN);
		if (!ret)
			mas_store_prealloc(&mas, rec);
		mtree_unlock(&rs->mt);
		if (ret == -ENOMEM)
			ret = mtree_store_range(&rs->mt, first, last, rec,
						GFP_KERNEL);
		break;
	default:
		ret = mtree_store_range(&rs->mt, first, last, rec, GFP_KERNEL);
		break;
	}
	if (ret) {
		wr_fail(rs, "returned %d", ret);
		if (rec && !rec->nidx)
			kfree(rec);
		return false;
	}
	rs_shadow_store(rs, s0, s1, rec);
	return wr_check_ends(rs, first, last);
}

/* A new record over slots [s0, s1], stored with @op. */
static bool wr_store_new(struct rs_stress *rs, enum rs_wop op,
			 unsigned long s0, unsigned long s1)
{
	const struct rs_layout *lay = rs->lay;
	struct rs_rec *rec;

	rec = rs_rec_new(rs, rs_slot_first(lay, s0), rs_slot_last(lay, s1),
			 false);
	if (!rec) {
		wr_fail(rs, "out of memory");
		return false;
	}
	return wr_store(rs, op, s0, s1, rec);
}

static bool wr_insert(struct rs_stress *rs)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long s0, s1, s, first, last;
	struct rs_rec *rec;
	int want = 0, ret;

	wr_pick_any(rs, 16, &s0, &s1);
	first = rs_slot_first(lay, s0);
	last = rs_slot_last(lay, s1);
	WRITE_ONCE(rs->wr_first, first);
	WRITE_ONCE(rs->wr_last, last);
	for (s = s0; s <= s1; s++)
		if (rs->shadow[s])
			want = -EEXIST;
	rec = rs_rec_new(rs, first, last, false);
	if (!rec) {
		wr_fail(rs, "out of memory");
		return false;
	}
	ret = mtree_insert_range(&rs->mt, first, last, rec, GFP_KERNEL);
	if (ret != want) {
		wr_fail(rs, "returned %d, expected %d", ret, want);
		if (ret)
			kfree(rec);
		return false;
	}
	if (ret) {
		kfree(rec);
		return true;
	}
	rs_shadow_store(rs, s0, s1, rec);
	return wr_check_ends(rs, first, last);
}

static bool wr_erase(struct rs_stress *rs, bool advanced)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long s0, s1, s, i;
	struct rs_rec *want;
	char d1[96], d2[96];
	void *got;

	wr_pick_any(rs, 1, &s0, &s1);
	s = s0;
	i = rs_slot_first(lay, s);
	if (s == lay->low_end)		/* anywhere in the middle */
		i += wr_rand(rs, rs_slot_last(lay, s) - i + 1);
	want = rs->shadow[s];
	WRITE_ONCE(rs->wr_first, i);
	WRITE_ONCE(rs->wr_last, i);
	if (advanced) {
		MA_STATE(mas, &rs->mt, i, i);

		mtree_lock(&rs->mt);
		got = mas_erase(&mas);
		mtree_unlock(&rs->mt);
		mas_destroy(&mas);
	} else {
		got = mtree_erase(&rs->mt, i);
	}
	if (got != want) {
		wr_fail(rs, "erase at %lu returned %s, should be %s", i,
			rs_desc(got, d1, sizeof(d1)),
			rs_desc(want, d2, sizeof(d2)));
		return false;
	}
	if (!want)
		return true;
	rs_shadow_run(rs, s, &s0, &s1);
	rs_shadow_store(rs, s0, s1, NULL);
	return wr_check_ends(rs, rs_slot_first(lay, s0),
			     rs_slot_last(lay, s1));
}

/* The append cursor is a slot in the append zone (always a low index). */
static void wr_set_cursor(struct rs_stress *rs, unsigned long next)
{
	WRITE_ONCE(rs->append_next, next);
}

static bool wr_wipe(struct rs_stress *rs)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long base = lay->append_base, end = rs->nslots - 1;
	bool ok;

	switch (wr_rand(rs, 6)) {
	case 0:		/* one record over the whole append zone */
		ok = wr_store_new(rs, W_STORE, base, lay->low_end - 1);
		break;
	case 1:		/* one record from the append zone to ULONG_MAX */
		ok = wr_store_new(rs, W_STORE, base, end);
		break;
	case 2:		/* NULL from somewhere in the append zone up */
		ok = wr_store(rs, W_STORE,
			      base + wr_rand(rs, lay->low_end - base), end,
			      NULL);
		break;
	case 3:		/* keep only what is at the base: maybe a root entry */
		ok = wr_store(rs, W_STORE, base + 1, end, NULL);
		if (ok && !base && wr_rand(rs, 2))
			ok = wr_store_new(rs, W_STORE, 0, 0);
		break;
	default:	/* NULL over the append zone and above */
		ok = wr_store(rs, W_STORE, base, end, NULL);
		break;
	}
	wr_set_cursor(rs, base);
	return ok;
}

static bool wr_append_range(struct rs_stress *rs)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long a = rs->append_next + wr_rand(rs, 3);
	unsigned long len = 1 + wr_rand(rs, 8);
	enum rs_wop op = wr_rand(rs, 4) ? W_STORE : W_STORE_MAS;
	unsigned long sent;

	if (a + len > lay->low_end) {
		WRITE_ONCE(rs->wr_op, W_WIPE);
		return wr_wipe(rs);
	}
	wr_set_cursor(rs, a + len);
	if (rs_sent_in(lay, a, a + len - 1, &sent))
		return true;
	return wr_store_new(rs, op, a, a + len - 1);
}

static bool wr_top(struct rs_stress *rs)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long mid = lay->low_end, end = rs->nslots - 1;
	unsigned long a = mid + 1 + wr_rand(rs, lay->top);
	unsigned long b = a + wr_rand(rs, end - a + 1);

	switch (wr_rand(rs, 5)) {
	case 0:		/* the middle and some of the top */
		return wr_store_new(rs, W_STORE, mid, b);
	case 1:
		return wr_store(rs, W_STORE, a, b, NULL);
	case 2:		/* ULONG_MAX alone */
		return wr_store_new(rs, W_STORE_MAS, end, end);
	default:
		return wr_store_new(rs, W_STORE, a, b);
	}
}

/* The lowest (highest) free area of @size in shadow slots [lo, hi]. */
static bool wr_shadow_area(struct rs_stress *rs, unsigned long lo,
			   unsigned long hi, unsigned long size, bool rev,
			   unsigned long *start)
{
	unsigned long s, run = 0;

	if (!rev) {
		for (s = lo; s <= hi; s++) {
			run = rs->shadow[s] ? 0 : run + 1;
			if (run == size) {
				*start = s - size + 1;
				return true;
			}
		}
		return false;
	}
	for (s = hi + 1; s-- > lo;) {
		run = rs->shadow[s] ? 0 : run + 1;
		if (run == size) {
			*start = s;
			return true;
		}
	}
	return false;
}

/* mtree_alloc_{,r}range() must pick what the shadow says it will. */
static bool wr_alloc(struct rs_stress *rs, bool rev)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long lo, hi, size, want = 0, got = ULONG_MAX;
	struct rs_rec *rec;
	bool found;
	int ret;

	size = wr_len(rs, 64);
	lo = wr_rand(rs, lay->low_end - size + 1);
	hi = lo + size - 1 + wr_rand(rs, 4096);
	if (hi >= lay->low_end)
		hi = lay->low_end - 1;
	WRITE_ONCE(rs->wr_first, lo);
	WRITE_ONCE(rs->wr_last, hi);
	found = wr_shadow_area(rs, lo, hi, size, rev, &want);
	rec = rs_rec_new(rs, want, want + size - 1, false);
	if (!rec) {
		wr_fail(rs, "out of memory");
		return false;
	}
	ret = rev ? mtree_alloc_rrange(&rs->mt, &got, rec, size, lo, hi,
				       GFP_KERNEL) :
		    mtree_alloc_range(&rs->mt, &got, rec, size, lo, hi,
				      GFP_KERNEL);
	if (ret != (found ? 0 : -EBUSY) || (found && got != want)) {
		wr_fail(rs, "window [%lu, %lu] size %lu: returned %d at %lu, expected %d at %lu",
			lo, hi, size, ret, got, found ? 0 : -EBUSY, want);
		return false;	/* the record may be in the tree: leak it */
	}
	if (ret) {
		kfree(rec);
		return true;
	}
	rs_shadow_store(rs, want, want + size - 1, rec);
	return wr_check_ends(rs, want, want + size - 1);
}

static enum rs_wop wr_pick_op(struct rs_stress *rs)
{
	const unsigned char *w = rs_weight[rs->phase];
	bool alloc = rs->cfg->mt_flags & MT_FLAGS_ALLOC_RANGE;
	unsigned int total = 0, r, op;

	for (op = 0; op < W_NR; op++)
		if (alloc || (op != W_ALLOC && op != W_ALLOC_REV))
			total += w[op];
	r = wr_rand(rs, total);
	for (op = 0; op < W_NR; op++) {
		if (!alloc && (op == W_ALLOC || op == W_ALLOC_REV))
			continue;
		if (r < w[op])
			break;
		r -= w[op];
	}
	return op;
}

static bool wr_one(struct rs_stress *rs)
{
	enum rs_wop op = wr_pick_op(rs);
	unsigned long s0, s1;

	WRITE_ONCE(rs->wr_op, op);
	switch (op) {
	case W_STORE:
	case W_STORE_MAS:
	case W_PREALLOC:
		wr_pick_any(rs, 16, &s0, &s1);
		return wr_store_new(rs, op, s0, s1);
	case W_INSERT:
		return wr_insert(rs);
	case W_NULL:
		wr_pick_any(rs, 16, &s0, &s1);
		return wr_store(rs, W_STORE, s0, s1, NULL);
	case W_ERASE:
	case W_MAS_ERASE:
		return wr_erase(rs, op == W_MAS_ERASE);
	case W_SPAN:
		wr_pick_span(rs, &s0, &s1);
		return wr_store_new(rs, wr_rand(rs, 2) ? W_STORE : W_PREALLOC,
				    s0, s1);
	case W_SPAN_NULL:
		wr_pick_span(rs, &s0, &s1);
		return wr_store(rs, W_STORE, s0, s1, NULL);
	case W_APPEND:
		return wr_append_range(rs);
	case W_WIPE:
		return wr_wipe(rs);
	case W_TOP:
		return wr_top(rs);
	case W_ALLOC:
	case W_ALLOC_REV:
		return wr_alloc(rs, op == W_ALLOC_REV);
	default:
		return false;
	}
}

/* ---------------------------------------------------------------------- */
/* A stress run */

static double rs_seconds(void)
{
	const char *env = getenv("STRESS_SECONDS");
	double secs;

	if (!env || !*env)
		return RS_DEFAULT_SECONDS;
	secs = strtod(env, NULL);
	return secs > 0 ? secs : RS_DEFAULT_SECONDS;
}

static double rs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fill the tree before the readers start: sentinels and some ranges. */
static bool rs_setup(struct rs_stress *rs)
{
	const struct rs_layout *lay = rs->lay;
	unsigned long k, s0, s1;

	rs->nr_sentinels = lay->sent_step ? lay->sent_space / lay->sent_step
					  : 0;
	if (rs->nr_sentinels) {
		rs->sentinel = kcalloc(rs->nr_sentinels, sizeof(*rs->sentinel),
				       GFP_KERNEL);
		if (!rs->sentinel)
			return false;
	}
	WRITE_ONCE(rs->wr_op, W_STORE);
	for (k = 0; k < rs->nr_sentinels; k++) {
		unsigned long i = k * lay->sent_step + lay->sent_step / 2;
		struct rs_rec *rec = rs_rec_new(rs, i, i, true);

		if (!rec)
			return false;
		rs->sentinel[k] = rec;
		if (!wr_store(rs, W_STORE, i, i, rec))
			return false;
	}
	for (k = 0; k < lay->low_end / 8; k++) {
		wr_pick_range(rs, 0, lay->append_base ? lay->append_base - 1 :
				     lay->low_end - 1, 8, &s0, &s1);
		if (!wr_store_new(rs, W_STORE, s0, s1))
			return false;
	}
	wr_set_cursor(rs, lay->append_base);
	return wr_verify(rs);
}

static void rs_run(struct kunit *test, const struct rs_config *cfg)
{
	struct rs_stress *rs;
	unsigned long reads = 0, entries = 0, s;
	double secs = rs_seconds(), start = rs_now(), end;
	unsigned int n, h;

	rs = kzalloc(sizeof(*rs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rs);
	rs->test = test;
	rs->cfg = cfg;
	rs->lay = cfg->lay;
	rs->seed = ktest_seed();
	rs->nslots = rs_nslots(rs->lay);
	rs->phase = P_GROW;
	pthread_mutex_init(&rs->msg_lock, NULL);
	model_rng_seed(&rs->rng, rs->seed);
	mt_init_flags(&rs->mt, cfg->rcu_after_setup ?
			       cfg->mt_flags & ~MT_FLAGS_USE_RCU : cfg->mt_flags);
	rs->shadow = kvcalloc(rs->nslots, sizeof(*rs->shadow), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rs->shadow);

	if (!rs_setup(rs)) {
		rs_fail(rs, "setting up the tree failed");
		goto join;
	}
	if (cfg->rcu_after_setup)
		mt_set_in_rcu(&rs->mt);

	rs->nr_readers = cfg->mas_readers + cfg->mt_readers;
	for (n = 0; n < rs->nr_readers; n++) {
		struct rs_reader *rd = &rs->reader[n];

		rd->rs = rs;
		rd->id = n;
		rd->use_mt = n >= cfg->mas_readers;
		model_rng_seed(&rd->rng,
			       rs->seed ^ (0x9e3779b97f4a7c15UL * (n + 1)));
		rd->seen = kvcalloc(rs->nslots, sizeof(*rd->seen), GFP_KERNEL);
		if (!rd->seen ||
		    pthread_create(&rd->thread, NULL, rs_reader_thread, rd)) {
			rs_fail(rs, "cannot start reader %u", n);
			kvfree(rd->seen);
			rd->seen = NULL;
			rs->nr_readers = n;
			break;
		}
	}

	start = rs_now();
	end = start + secs;
	while (!rs_stopped(rs)) {
		if (!wr_one(rs))
			break;
		WRITE_ONCE(rs->wr_ops, rs->wr_ops + 1);
		h = mt_height(&rs->mt);
		if (h < 32)
			rs->height_seen |= 1U << h;
		if (!(rs->wr_ops % RS_PHASE_OPS))
			rs->phase = wr_rand(rs, P_NR);
		if (!(rs->wr_ops % RS_VERIFY_EVERY) && !wr_verify(rs))
			break;
		if (!(rs->wr_ops % 64) && rs_now() >= end)
			break;
	}
	if (!rs->failed)
		wr_verify(rs);

join:
	__atomic_store_n(&rs->stop, 1, __ATOMIC_RELEASE);
	for (n = 0; n < rs->nr_readers; n++) {
		pthread_join(rs->reader[n].thread, NULL);
		reads += rs->reader[n].ops;
		entries += rs->reader[n].entries;
		kvfree(rs->reader[n].seen);
	}

	if (rs->failed)
		KUNIT_FAIL(test, "%s; seed %lu (replay with SEED=%lu)", rs->msg,
			   rs->seed, rs->seed);
	else
		kunit_info(test, "%.1f s: %lu writes (%lu verified trees, %lu records retired), %lu reads by %u readers checking %lu entries, heights seen 0x%x, seed %lu\n",
			   rs_now() - start, rs->wr_ops, rs->verifies,
			   rs->retired, reads, rs->nr_readers, entries,
			   rs->height_seen, rs->seed);

	/* The workload must have done what it is for. */
	if (!rs->failed) {
		KUNIT_EXPECT_GT(test, rs->wr_ops, 0);
		KUNIT_EXPECT_GT(test, reads, 0);
		KUNIT_EXPECT_GE_MSG(test, fls(rs->height_seen) - 1,
				    (int)cfg->min_height,
				    "heights seen 0x%x", rs->height_seen);
		if (cfg->want_small_heights)
			KUNIT_EXPECT_EQ_MSG(test, rs->height_seen & 7, 7,
					    "heights seen 0x%x",
					    rs->height_seen);
	}

	/* Nobody reads any more: free what is left at once. */
	mtree_destroy(&rs->mt);
	for (s = 0; s < rs->nslots; s++) {
		struct rs_rec *rec = rs->shadow[s];

		if (rec && !--rec->nidx)
			kfree(rec);
	}
	kfree(rs->sentinel);
	kvfree(rs->shadow);
	pthread_mutex_destroy(&rs->msg_lock);
	kfree(rs);
}

/*
 * Three readers use every advanced-API read (mtree_load, mas_walk,
 * mas_find, mas_find_rev, mas_next, mas_prev, the range iterators) while
 * the writer changes a tree of thousands of ranges, height 3 and more.
 */
static void readers_see_whole_ranges_beside_writer(struct kunit *test)
{
	static const struct rs_config cfg = {
		.lay = &rs_layout_big,
		.mt_flags = MT_FLAGS_USE_RCU,
		.mas_readers = 3,
		.min_height = 3,
	};

	rs_run(test, &cfg);
}

/*
 * The same on an allocation tree, with mtree_alloc_{,r}range() among the
 * writes (they must pick the areas the shadow predicts) and
 * mas_empty_area{,_rev}() among the reads.
 */
static void alloc_tree_readers_see_whole_ranges_and_free_areas(struct kunit *test)
{
	static const struct rs_config cfg = {
		.lay = &rs_layout_big,
		.mt_flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU,
		.mas_readers = 2,
		.min_height = 3,
	};

	rs_run(test, &cfg);
}

/*
 * A small tree that keeps going from empty to a single root entry to
 * height 3 and back, under an advanced-API and a normal-API reader.
 */
static void readers_follow_root_and_height_changes(struct kunit *test)
{
	static const struct rs_config cfg = {
		.lay = &rs_layout_small,
		.mt_flags = MT_FLAGS_USE_RCU,
		.mas_readers = 1,
		.mt_readers = 1,
		.min_height = 2,
		.want_small_heights = true,
	};

	rs_run(test, &cfg);
}

/*
 * An allocation tree filled outside RCU mode, as mm fills a new process's
 * tree, and switched to it with mt_set_in_rcu() before the readers start:
 * the nodes built in place must serve RCU readers as well as new ones.
 */
static void readers_see_exact_ranges_after_mt_set_in_rcu(struct kunit *test)
{
	static const struct rs_config cfg = {
		.lay = &rs_layout_big,
		.mt_flags = MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU,
		.mas_readers = 2,
		.min_height = 3,
		.rcu_after_setup = true,
	};

	rs_run(test, &cfg);
}

/* Readers using mt_find(), mt_for_each(), mt_next() and mt_prev(). */
static void mt_find_readers_see_whole_ranges(struct kunit *test)
{
	static const struct rs_config cfg = {
		.lay = &rs_layout_big,
		.mt_flags = MT_FLAGS_USE_RCU,
		.mt_readers = 2,
		.min_height = 3,
	};

	rs_run(test, &cfg);
}

static struct kunit_case rcu_stress_cases[] = {
	KUNIT_CASE(readers_see_whole_ranges_beside_writer),
	KUNIT_CASE(alloc_tree_readers_see_whole_ranges_and_free_areas),
	KUNIT_CASE(readers_follow_root_and_height_changes),
	KUNIT_CASE(mt_find_readers_see_whole_ranges),
	KUNIT_CASE(readers_see_exact_ranges_after_mt_set_in_rcu),
	{}
};

static struct kunit_suite rcu_stress_suite = {
	.name = "maple_rcu_stress",
	.test_cases = rcu_stress_cases,
};

/* ---------------------------------------------------------------------- */
/* Grace periods */

/*
 * The tree of the grace-period cases: [10 k, 10 k + 5] -> value k for
 * k < RG_RANGES, NULL between: 400 ranges, about 30 leaves.
 */
#define RG_RANGES	200
#define RG_WRITES	400
#define RG_MAX_LEAVES	4096
/* call_rcu() may write its rcu_head over the start of a retired node. */
#define RG_KEEP_FROM	(offsetof(struct maple_node, rcu) + \
			 sizeof(struct rcu_head))

/* Where the reader thread of a grace-period case stands. */
enum rg_step {
	RG_START,
	RG_PARKED,		/* inside rcu_read_lock(), on a leaf */
	RG_REPLACED,		/* writer: the leaf was replaced */
	RG_CHECKED,		/* reader: looked again from its stale state */
	RG_WRITTEN,		/* writer: many more writes done */
	RG_RECHECKED,		/* reader: the leaf is still intact */
	RG_LEAVE,		/* writer: leave the read section */
};

struct rg_reader {
	struct maple_tree *mt;
	pthread_t thread;
	int step;
	unsigned long index;		/* where the reader parks */
	unsigned long leaf;		/* address of the leaf it parked on */
	unsigned char snap[sizeof(struct maple_node)];
	/* what the reader saw from its stale state after the write */
	void *next_entry;
	unsigned long next_index, next_last;
	void *load_entry;
	bool intact_after_replace;
	bool intact_after_writes;
};

static void rg_set(int *step, int val)
{
	__atomic_store_n(step, val, __ATOMIC_RELEASE);
}

static void rg_wait(int *step, int val)
{
	while (__atomic_load_n(step, __ATOMIC_ACQUIRE) < val)
		usleep(100);
}

static unsigned long rg_node(const struct ma_state *mas)
{
	return (unsigned long)mas->node & ~MAPLE_NODE_MASK;
}

/* Is the leaf the reader parked on still as it was (past the rcu_head)? */
static bool rg_intact(const struct rg_reader *rg)
{
	return !memcmp((const char *)rg->leaf + RG_KEEP_FROM,
		       rg->snap + RG_KEEP_FROM,
		       sizeof(struct maple_node) - RG_KEEP_FROM);
}

static void *rg_reader_thread(void *arg)
{
	struct rg_reader *rg = arg;
	MA_STATE(mas, rg->mt, rg->index, rg->index);

	rcu_read_lock();
	mas_walk(&mas);
	rg->leaf = rg_node(&mas);
	if (rg->leaf)
		memcpy(rg->snap, (void *)rg->leaf, sizeof(rg->snap));
	rg_set(&rg->step, RG_PARKED);

	rg_wait(&rg->step, RG_REPLACED);
	if (rg->leaf)
		rg->intact_after_replace = rg_intact(rg);
	rg->next_entry = mas_next(&mas, ULONG_MAX);
	rg->next_index = mas.index;
	rg->next_last = mas.last;
	rg->load_entry = mtree_load(rg->mt, rg->index);
	rg_set(&rg->step, RG_CHECKED);

	rg_wait(&rg->step, RG_WRITTEN);
	if (rg->leaf)
		rg->intact_after_writes = rg_intact(rg);
	rg_set(&rg->step, RG_RECHECKED);

	rg_wait(&rg->step, RG_LEAVE);
	rcu_read_unlock();
	return NULL;
}

static void rg_fill(struct kunit *test, struct maple_tree *mt)
{
	unsigned long k;

	mt_init_flags(mt, MT_FLAGS_USE_RCU);
	for (k = 0; k < RG_RANGES; k++)
		KUNIT_ASSERT_EQ(test, mtree_store_range(mt, 10 * k, 10 * k + 5,
							xa_mk_value(k),
							GFP_KERNEL), 0);
}

/* The leaf that holds @index, under the lock. */
static unsigned long rg_leaf_of(struct maple_tree *mt, unsigned long index)
{
	MA_STATE(mas, mt, index, index);
	unsigned long leaf;

	mtree_lock(mt);
	mas_walk(&mas);
	leaf = rg_node(&mas);
	mtree_unlock(mt);
	return leaf;
}

/* How many ranges (NULL ones too) the leaf at @leaf holds. */
static unsigned int rg_leaf_ranges(struct maple_tree *mt, unsigned long leaf)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned int n = 0;

	mtree_lock(mt);
	mas_find_range(&mas, ULONG_MAX);
	for (;;) {
		n += rg_node(&mas) == leaf;
		if (mas.last == ULONG_MAX)
			break;
		mas_next_range(&mas, ULONG_MAX);
	}
	mtree_unlock(mt);
	return n;
}

/* What the reader's leaf should look like. */
enum rg_fill_kind {
	RG_ANY,
	RG_FULL,		/* full: a store that adds a range splits it */
	RG_ROOM,		/* room for two more: one node replaces it */
};

/*
 * A range k, mid-tree, whose next range k + 1 is in the same leaf, in a
 * leaf of the kind asked for; 0 if there is none.
 */
static unsigned long rg_pick_range(struct maple_tree *mt,
				   enum rg_fill_kind kind)
{
	unsigned long k, leaf;
	unsigned int n;

	for (k = RG_RANGES / 4; k < RG_RANGES - 1; k++) {
		if (mtree_load(mt, 10 * k) != xa_mk_value(k) ||
		    mtree_load(mt, 10 * k + 10) != xa_mk_value(k + 1))
			continue;
		leaf = rg_leaf_of(mt, 10 * k);
		if (leaf != rg_leaf_of(mt, 10 * k + 10))
			continue;
		n = rg_leaf_ranges(mt, leaf);
		if (kind == RG_ANY ||
		    (kind == RG_FULL && n == MAPLE_RANGE64_SLOTS) ||
		    (kind == RG_ROOM && n <= MAPLE_RANGE64_SLOTS - 2))
			return k;
	}
	return 0;
}

struct rg_shape {
	const char *desc;
	enum rg_fill_kind kind;
};

static const struct rg_shape rg_shapes[] = {
	{ "leaf with room, replaced by one node", RG_ROOM },
	{ "full leaf, split by the store", RG_FULL },
};

KUNIT_ARRAY_PARAM_DESC(rg_shape, rg_shapes, desc);

/* Every leaf of the tree, in order, under the lock. */
static unsigned int rg_leaves(struct maple_tree *mt, unsigned long *leaf)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned int n = 0;

	mtree_lock(mt);
	mas_find_range(&mas, ULONG_MAX);
	for (;;) {
		unsigned long node = rg_node(&mas);

		if (node && (!n || leaf[n - 1] != node) && n < RG_MAX_LEAVES)
			leaf[n++] = node;
		if (mas.last == ULONG_MAX)
			break;
		mas_next_range(&mas, ULONG_MAX);
	}
	mtree_unlock(mt);
	return n;
}

static bool rg_has(const unsigned long *set, unsigned int n, unsigned long x)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (set[i] == x)
			return true;
	return false;
}

/*
 * A reader parks on a leaf inside rcu_read_lock().  The writer rewrites
 * that leaf (a full one is split, one with room is replaced by a single
 * node), then writes on: no leaf retired while the reader is inside may
 * show up in the tree again (the allocator must not have it back), and the
 * parked leaf's contents stay intact.  From its stale state the reader
 * walks again and sees the new range.  Once it leaves, rcu_barrier() frees
 * at least every retired leaf.
 */
static void replaced_leaf_is_not_freed_while_reader_holds_it(struct kunit *test)
{
	const struct rg_shape *shape = test->param_value;
	struct rg_reader *rg;
	struct maple_tree mt;
	struct model_rng rng;
	unsigned long *before, *after, *retired, seed, k, w;
	unsigned int nb, na, nr = 0, i;
	long freed_inside, freed_after;
	bool reused = false;

	seed = ktest_seed();
	model_rng_seed(&rng, seed);
	rg = kzalloc(sizeof(*rg), GFP_KERNEL);
	before = kcalloc(RG_MAX_LEAVES, sizeof(*before), GFP_KERNEL);
	after = kcalloc(RG_MAX_LEAVES, sizeof(*after), GFP_KERNEL);
	retired = kcalloc(RG_MAX_LEAVES, sizeof(*retired), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, rg && before && after && retired);

	rg_fill(test, &mt);
	KUNIT_ASSERT_GE(test, mt_height(&mt), 2);
	if (shape->kind == RG_ROOM) {
		/* Every other range of a stretch goes: leaves get room. */
		for (k = RG_RANGES / 2; k < RG_RANGES / 2 + 24; k += 2)
			mtree_erase(&mt, 10 * k);
	}
	k = rg_pick_range(&mt, shape->kind);
	if (!k) {
		mtree_destroy(&mt);
		kfree(retired);
		kfree(after);
		kfree(before);
		kfree(rg);
		kunit_skip(test, "no leaf of that shape in this tree layout");
	}
	rcu_barrier();

	rg->mt = &mt;
	rg->index = 10 * k;
	KUNIT_ASSERT_EQ(test, pthread_create(&rg->thread, NULL,
					     rg_reader_thread, rg), 0);
	rg_wait(&rg->step, RG_PARKED);
	KUNIT_EXPECT_EQ(test, rg->leaf, rg_leaf_of(&mt, 10 * k));

	/* Split range k + 1: its leaf must be rebuilt, not patched. */
	nb = rg_leaves(&mt, before);
	KUNIT_EXPECT_EQ(test, mtree_store_range(&mt, 10 * k + 10, 10 * k + 12,
						xa_mk_value(1000 + k),
						GFP_KERNEL), 0);
	na = rg_leaves(&mt, after);
	KUNIT_EXPECT_NE_MSG(test, rg_leaf_of(&mt, 10 * k), rg->leaf,
			    "the store did not replace the reader's leaf");
	for (i = 0; i < nb; i++)
		if (!rg_has(after, na, before[i]) && nr < RG_MAX_LEAVES)
			retired[nr++] = before[i];
	rg_set(&rg->step, RG_REPLACED);
	rg_wait(&rg->step, RG_CHECKED);

	KUNIT_EXPECT_TRUE_MSG(test, rg->intact_after_replace,
			      "the reader's leaf changed under it");
	KUNIT_EXPECT_PTR_EQ_MSG(test, rg->next_entry, xa_mk_value(1000 + k),
				"mas_next() from a replaced leaf returned the old tree");
	KUNIT_EXPECT_EQ(test, rg->next_index, 10 * k + 10);
	KUNIT_EXPECT_EQ(test, rg->next_last, 10 * k + 12);
	KUNIT_EXPECT_PTR_EQ(test, rg->load_entry, xa_mk_value(k));

	/* Many writes, every one allocating: none may reuse a retired leaf. */
	for (w = 0; w < RG_WRITES && !reused; w++) {
		unsigned long first = model_rng_below(&rng, 10 * RG_RANGES);
		unsigned long len = model_rng_below(&rng, 8) ?
				    1 + model_rng_below(&rng, 12) :
				    1 + model_rng_below(&rng, 300);
		void *entry = model_rng_below(&rng, 4) ?
			      xa_mk_value(2000 + w) : NULL;

		memcpy(before, after, na * sizeof(*after));
		nb = na;
		KUNIT_EXPECT_EQ(test, mtree_store_range(&mt, first,
							first + len - 1, entry,
							GFP_KERNEL), 0);
		na = rg_leaves(&mt, after);
		for (i = 0; i < na; i++) {
			if (rg_has(retired, nr, after[i])) {
				KUNIT_FAIL(test, "write %lu ([%lu, %lu]): leaf %#lx, retired inside the reader's section, is in the tree again; seed %lu",
					   w, first, first + len - 1, after[i],
					   seed);
				reused = true;
			}
		}
		for (i = 0; i < nb; i++)
			if (!rg_has(after, na, before[i]) &&
			    nr < RG_MAX_LEAVES)
				retired[nr++] = before[i];
	}
	KUNIT_EXPECT_TRUE(test, rg_has(retired, nr, rg->leaf));
	freed_inside = kmem_nr_freed();
	rg_set(&rg->step, RG_WRITTEN);
	rg_wait(&rg->step, RG_RECHECKED);
	KUNIT_EXPECT_TRUE_MSG(test, rg->intact_after_writes,
			      "the reader's leaf changed under it after %lu writes",
			      w);

	rg_set(&rg->step, RG_LEAVE);
	pthread_join(rg->thread, NULL);
	rcu_barrier();
	freed_after = kmem_nr_freed();
	KUNIT_EXPECT_GE_MSG(test, freed_after - freed_inside, (long)nr,
			    "%u leaves were retired inside the section", nr);
	kunit_info(test, "%u leaves retired while the reader was inside, %ld objects freed once it left\n",
		   nr, freed_after - freed_inside);

	mtree_destroy(&mt);
	kfree(retired);
	kfree(after);
	kfree(before);
	kfree(rg);
}

/*
 * mtree_destroy() in RCU mode while a reader is parked on a leaf: nothing
 * is freed until the reader leaves, the leaf stays intact, and the reader's
 * stale state walks again and finds the tree empty.
 */
static void destroyed_tree_is_not_freed_while_reader_holds_it(struct kunit *test)
{
	struct rg_reader *rg;
	struct maple_tree mt;
	long base, live;
	unsigned long k;

	rcu_barrier();
	base = kmem_nr_live();
	rg = kzalloc(sizeof(*rg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rg);
	rg_fill(test, &mt);
	k = rg_pick_range(&mt, RG_ANY);
	KUNIT_ASSERT_NE(test, k, 0);
	rcu_barrier();

	rg->mt = &mt;
	rg->index = 10 * k;
	KUNIT_ASSERT_EQ(test, pthread_create(&rg->thread, NULL,
					     rg_reader_thread, rg), 0);
	rg_wait(&rg->step, RG_PARKED);
	KUNIT_EXPECT_NE(test, rg->leaf, 0);

	live = kmem_nr_live();
	mtree_destroy(&mt);
	KUNIT_EXPECT_TRUE(test, mtree_empty(&mt));
	KUNIT_EXPECT_EQ_MSG(test, kmem_nr_live(), live,
			    "nodes were freed with a reader inside");
	rg_set(&rg->step, RG_REPLACED);
	rg_wait(&rg->step, RG_CHECKED);
	KUNIT_EXPECT_TRUE_MSG(test, rg->intact_after_replace,
			      "the reader's leaf changed under it");
	KUNIT_EXPECT_NULL_MSG(test, rg->next_entry,
			      "mas_next() from a destroyed tree's leaf found an entry");
	KUNIT_EXPECT_NULL(test, rg->load_entry);

	usleep(20000);		/* give a wrong grace period time to end */
	KUNIT_EXPECT_EQ_MSG(test, kmem_nr_live(), live,
			    "nodes were freed with a reader inside");
	rg_set(&rg->step, RG_WRITTEN);
	rg_wait(&rg->step, RG_RECHECKED);
	KUNIT_EXPECT_TRUE(test, rg->intact_after_writes);

	rg_set(&rg->step, RG_LEAVE);
	pthread_join(rg->thread, NULL);
	kfree(rg);
	rcu_barrier();
	KUNIT_EXPECT_EQ_MSG(test, kmem_nr_live(), base,
			    "the destroyed tree's nodes were not all freed after the grace period");
}

/*
 * A dead leaf's first pivots are call_rcu()'s list words.  Readers of the
 * free-area search come across leaves the writer has just retired; they
 * must notice and search again rather than believe those bounds.  The
 * tree: [10k, 10k + 8] -> k with one free index after each, then a free
 * tail from DL_END.  In the window [0, DL_END - 1] there is no room for
 * two, but the last leaf's gap (the tail) sends the search into it.  The
 * writer keeps replacing that leaf (a split range, then the range whole
 * again: both moves copy the leaf in RCU mode) while readers search.
 * A race, but a quick one: without the dead-node check in the search it
 * failed within the first 512 writes in each of three runs.
 */
#define DL_RANGES	40
#define DL_END		(10 * DL_RANGES)
#define DL_READERS	2

struct dl_run {
	struct maple_tree mt;
	int stop;
	unsigned long searches;
	unsigned long bad_index, bad_last;
	int bad_ret;
	bool bad, rev;
};

static void *dl_reader_thread(void *arg)
{
	struct dl_run *run = arg;
	unsigned long n = 0;
	bool rev = false;

	while (!__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE)) {
		MA_STATE(mas, &run->mt, 0, 0);
		int ret;

		rev = !rev;
		rcu_read_lock();
		ret = rev ? mas_empty_area_rev(&mas, 0, DL_END - 1, 2) :
			    mas_empty_area(&mas, 0, DL_END - 1, 2);
		rcu_read_unlock();
		n++;
		if (ret != -EBUSY) {
			run->bad_ret = ret;
			run->bad_index = mas.index;
			run->bad_last = mas.last;
			run->rev = rev;
			__atomic_store_n(&run->bad, true, __ATOMIC_RELEASE);
			break;
		}
	}
	__atomic_fetch_add(&run->searches, n, __ATOMIC_RELAXED);
	return NULL;
}

static void empty_area_search_restarts_on_a_dead_leaf(struct kunit *test)
{
	pthread_t thread[DL_READERS];
	struct dl_run *run;
	unsigned long k, writes = 0;
	double end;
	int i;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	mt_init_flags(&run->mt, MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU);
	for (k = 0; k < DL_RANGES; k++)
		KUNIT_ASSERT_EQ(test, mtree_store_range(&run->mt, 10 * k,
							10 * k + 8,
							xa_mk_value(k),
							GFP_KERNEL), 0);
	KUNIT_ASSERT_GE(test, mt_height(&run->mt), 2);

	for (i = 0; i < DL_READERS; i++)
		KUNIT_ASSERT_EQ(test, pthread_create(&thread[i], NULL,
						     dl_reader_thread, run), 0);
	end = rs_now() + 1.0;
	k = DL_RANGES - 1;
	while (!__atomic_load_n(&run->bad, __ATOMIC_ACQUIRE) &&
	       rs_now() < end) {
		int j;

		for (j = 0; j < 256; j++, writes += 2) {
			KUNIT_ASSERT_EQ(test, mtree_store_range(&run->mt,
					10 * k + 2, 10 * k + 4,
					xa_mk_value(1000), GFP_KERNEL), 0);
			KUNIT_ASSERT_EQ(test, mtree_store_range(&run->mt,
					10 * k, 10 * k + 8, xa_mk_value(k),
					GFP_KERNEL), 0);
		}
	}
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < DL_READERS; i++)
		pthread_join(thread[i], NULL);

	KUNIT_EXPECT_FALSE_MSG(test, run->bad,
			       "%s in [0, %u] for 2 returned %d, [%lu, %lu], after %lu writes; no two free indices there",
			       run->rev ? "mas_empty_area_rev" :
					  "mas_empty_area",
			       DL_END - 1, run->bad_ret, run->bad_index,
			       run->bad_last, writes);
	KUNIT_EXPECT_GT(test, run->searches, 0);
	kunit_info(test, "%lu writes, %lu searches\n", writes, run->searches);
	mt_validate(&run->mt);
	mtree_destroy(&run->mt);
	kfree(run);
}

static struct kunit_case rcu_grace_cases[] = {
	KUNIT_CASE_PARAM(replaced_leaf_is_not_freed_while_reader_holds_it,
			 rg_shape_gen_params),
	KUNIT_CASE(destroyed_tree_is_not_freed_while_reader_holds_it),
	KUNIT_CASE(empty_area_search_restarts_on_a_dead_leaf),
	{}
};

static struct kunit_suite rcu_grace_suite = {
	.name = "maple_rcu_grace",
	.test_cases = rcu_grace_cases,
};

kunit_test_suites(&rcu_stress_suite, &rcu_grace_suite);
