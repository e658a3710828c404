// SPDX-License-Identifier: GPL-2.0+
/*
 * bench_tree - micro-benchmarks of the maple tree on VMA-like layouts.
 *
 * The tree is filled with nr ranges that look like a process's VMAs: the
 * first starts at 16 pages, each is one page long (or 1..4 pages with
 * --pages 0) and is followed by a one-page gap.  Each range maps to a
 * distinct pointer, &lay->vma[i], whose bounds are stored beside it so a
 * lookup can be checked.
 *
 * Every measurement is a batch of operations timed as a whole with
 * CLOCK_MONOTONIC, repeated R times; the reported figure is the median of
 * the R per-operation times.  All random inputs come from a fixed-seed PRNG
 * and are generated before the clock starts.  Exact counts come with the
 * times: tree nodes per 1,000 ranges and node allocations per write, read
 * from the allocator stand-in's counters (kmem_nr_live() and
 * kmem_nr_allocated()).
 *
 * The gap search, mas_empty_area_rev(), is measured on a layout of its own
 * (gap_layout_init()): VMA-like ranges with one-page gaps and now and then
 * a bigger hole, searched top-down for sizes that only the rarer, bigger
 * holes can hold, at 100, 10,000 and 1,000,000 ranges (--gap-sizes).
 *
 * RCU mode is measured on a tree of its own (bench_rcu(), 100,000 ranges,
 * 10,000 with --quick): lookups per second by one and by two reader threads,
 * alone and beside a writer thread that erases and re-inserts ranges (so
 * every write replaces a leaf), and the writer's own throughput, alone in
 * RCU mode, alone outside RCU mode, and beside the readers.  Each
 * measurement runs the threads for a fixed time (--rcu-ms, default 200 ms,
 * 30 ms with --quick) and reports millions of operations per second.
 *
 * With --callgrind the program re-runs itself under valgrind's callgrind
 * tool in "--ops NAME --count N" mode, which sets up a tree and runs exactly
 * N operations inside bench_loop_NAME().  Collection is switched on only
 * inside that function, and the difference between a run with 2N and one
 * with N operations, divided by N, is the instruction count of one
 * operation with every fixed cost cancelled out.
 *
 * Results go to a human table (kernel test robot style) on stdout and to a
 * JSON file under bench-results/.  With --base FILE (or BASE=FILE) the table
 * compares against a previous run's JSON; with --baseline, against each
 * baseline's.  Every comparison ends in a verdict (verdict.c): the rows
 * ahead, level and behind, and the rows behind, on stdout or in the file
 * $BENCH_VERDICT names (make bench prints it at its end), and in the JSON.
 *
 * Built with -DBENCH_UPSTREAM=61 against Linux 6.1's own lib/maple_tree.c,
 * or with -DBENCH_UPSTREAM=612 against Linux 6.12's (make bench-upstream),
 * the same program measures the kernel's tree, but for what 6.1 lacks
 * (__mt_dup()); their JSON files are the baselines ours compares to
 * (--baseline NAME=FILE, one table each).
 *
 * Conventions in this file: mt is the tree, mas a maple state, lay the
 * layout of the ranges, nr the number of ranges, idx an array of indices
 * chosen before timing, pick an array of range numbers, r the repetition.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/maple_tree.h>
#include <linux/rwsem.h>
#include <linux/slab.h>

#include "bench_commit.h"
/* Shared with vma_bench.c; one source per program, so included. */
#include "verdict.c"

#define BENCH_SEED		0x6d61706c65ULL	/* "maple" */
#define BENCH_PAGE		4096UL
#define BENCH_FIRST		(16 * BENCH_PAGE)
#define BENCH_SPAN		4	/* ranges per spanning store */
#define BENCH_MAX_METRICS	256
#define BENCH_NAME_LEN		96
#define BENCH_MAX_SIZES		16
#define BENCH_MAX_BASELINES	4

/*
 * BENCH_UPSTREAM is the Linux version's digits (61, 612).  __mt_dup() came
 * with Linux 6.8: 6.1's tree has none (no fork_dup row there), 6.12's has
 * it, as ours does.
 */
#if defined(BENCH_UPSTREAM) && BENCH_UPSTREAM < 68
#define BENCH_NO_MT_DUP
#endif

/* mas_find_range() and mas_find_range_rev() came with Linux 6.6. */
#if defined(BENCH_UPSTREAM) && BENCH_UPSTREAM < 66
#define BENCH_NO_FIND_RANGE
#endif

/* Linux's default maple tree flags for an mm: allocation tree, RCU mode. */
#define BENCH_DEFAULT_FLAGS	(MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU)

/* Kept out of line and unspecialised so callgrind can find it by name. */
#if defined(__has_attribute) && __has_attribute(__noclone__)
#define BENCH_NOINLINE \
	static __attribute__((__noinline__, __noclone__, __used__))
#else
#define BENCH_NOINLINE \
	static __attribute__((__noinline__, __used__))
#endif

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

struct bench_opts {
	bool quick;
	bool callgrind;		/* add *.insn_per_op metrics */
	bool no_timing;		/* callgrind metrics only */
	bool no_json;
	bool reads_only;	/* lookups, iteration and the gap search */
	unsigned int reps;
	unsigned long batch;	/* read operations per measurement */
	unsigned long sizes[BENCH_MAX_SIZES];
	unsigned int nr_sizes;
	unsigned long gap_sizes[BENCH_MAX_SIZES];	/* gap search */
	unsigned int nr_gap_sizes;
	unsigned int pages;	/* range length in pages, 0 = vary 1..4 */
	unsigned int rcu_ms;	/* run time of one RCU measurement */
	unsigned int mt_flags;
	const char *base;
	/* --baseline NAME=FILE: labelled runs, one table each, kept in JSON */
	const char *baseline_name[BENCH_MAX_BASELINES];
	const char *baseline_file[BENCH_MAX_BASELINES];
	int nr_baselines;
	const char *out_dir;
	/* --merge: the JSON files of runs to take the median of */
	char **merge;
	int nr_merge;
	/* child mode for callgrind */
	const char *loop_op;
	unsigned long loop_count;
	unsigned long loop_size;
};

static struct bench_opts opts = {
	.reps = 7,
	.batch = 1000000,
	.sizes = { 100, 1000, 100000, 1000000 },
	.nr_sizes = 4,
	.gap_sizes = { 100, 10000, 1000000 },
	.nr_gap_sizes = 3,
	.pages = 1,
	.rcu_ms = 200,
	.mt_flags = BENCH_DEFAULT_FLAGS,
	.out_dir = "bench-results",
	.loop_size = 1000,
};

/* Anything the optimiser must not throw away ends up here. */
static volatile unsigned long bench_sink;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "bench_tree: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size);

	if (!p)
		die("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64, fixed seed                              */
/* ------------------------------------------------------------------ */

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long rng_below(uint64_t *state, unsigned long bound)
{
	return (unsigned long)(rng_next(state) % bound);
}

/* ------------------------------------------------------------------ */
/* Layout of the ranges and building the tree                          */
/* ------------------------------------------------------------------ */

struct bench_vma {
	unsigned long start;
	unsigned long last;
};

struct layout {
	unsigned long nr;
	struct bench_vma *vma;	/* entries of the tree as built */
	struct bench_vma *alt;	/* second entry per range (overwrites) */
};

static void layout_free(struct layout *lay)
{
	free(lay->vma);
	free(lay->alt);
}

/*
 * Whether @pages pages and a gap of @gap pages still fit above @addr: a
 * million VMA-like ranges do not fit a 32-bit index space.
 */
static bool layout_room(unsigned long addr, unsigned long pages,
			unsigned long gap)
{
	return addr <= ULONG_MAX - (pages + gap) * BENCH_PAGE;
}

/* False (nothing allocated) if the layout does not fit the index space. */
static bool layout_try(struct layout *lay, unsigned long nr)
{
	uint64_t rng = BENCH_SEED ^ nr;
	unsigned long addr = BENCH_FIRST;
	unsigned long i;

	lay->nr = nr;
	lay->vma = xcalloc(nr, sizeof(*lay->vma));
	lay->alt = xcalloc(nr, sizeof(*lay->alt));
	for (i = 0; i < nr; i++) {
		unsigned long pages = opts.pages;

		if (!pages)
			pages = 1 + rng_below(&rng, 4);
		if (!layout_room(addr, pages, 1)) {
			layout_free(lay);
			return false;
		}
		lay->vma[i].start = addr;
		lay->vma[i].last = addr + pages * BENCH_PAGE - 1;
		lay->alt[i] = lay->vma[i];
		addr = lay->vma[i].last + 1 + BENCH_PAGE;
	}
	return true;
}

static void layout_init(struct layout *lay, unsigned long nr)
{
	if (!layout_try(lay, nr))
		die("%lu ranges do not fit the index space", nr);
}

static void tree_build_flags(struct maple_tree *mt, const struct layout *lay,
			     unsigned int flags)
{
	unsigned long i;
	int ret;

	mt_init_flags(mt, flags);
	for (i = 0; i < lay->nr; i++) {
		ret = mtree_store_range(mt, lay->vma[i].start, lay->vma[i].last,
					&lay->vma[i], GFP_KERNEL);
		if (ret)
			die("building: mtree_store_range(%lu) returned %d",
			    i, ret);
	}
}

static void tree_build(struct maple_tree *mt, const struct layout *lay)
{
	tree_build_flags(mt, lay, opts.mt_flags);
}

/*
 * Check that the tree holds exactly the layout: every range with its own
 * bounds and either of its two entries, nothing in the gaps.
 */
static void tree_check(struct maple_tree *mt, const struct layout *lay,
		       const char *when)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long i = 0;
	void *entry;

	rcu_read_lock();
	mas_for_each(&mas, entry, ULONG_MAX) {
		if (i >= lay->nr)
			die("%s: more than %lu entries", when, lay->nr);
		if ((entry != &lay->vma[i] && entry != &lay->alt[i]) ||
		    mas.index != lay->vma[i].start ||
		    mas.last != lay->vma[i].last)
			die("%s: entry %lu wrong: [%#lx, %#lx] -> %p", when, i,
			    mas.index, mas.last, entry);
		i++;
	}
	rcu_read_unlock();
	if (i != lay->nr)
		die("%s: found %lu entries, expected %lu", when, i, lay->nr);
}

/* Random indices, each inside a random range. */
static unsigned long *make_indices(const struct layout *lay, unsigned long n,
				   uint64_t seed)
{
	unsigned long *idx = xcalloc(n, sizeof(*idx));
	uint64_t rng = seed;
	unsigned long k, i;

	for (k = 0; k < n; k++) {
		i = rng_below(&rng, lay->nr);
		idx[k] = lay->vma[i].start +
			 rng_below(&rng, lay->vma[i].last -
					 lay->vma[i].start + 1);
	}
	return idx;
}

/* Random range numbers in [0, limit). */
static unsigned long *make_picks(unsigned long limit, unsigned long n,
				 uint64_t seed)
{
	unsigned long *pick = xcalloc(n, sizeof(*pick));
	uint64_t rng = seed;
	unsigned long k;

	for (k = 0; k < n; k++)
		pick[k] = rng_below(&rng, limit);
	return pick;
}

/* ------------------------------------------------------------------ */
/* The operation loops                                                 */
/*                                                                     */
/* Each is noinline so callgrind can switch collection on around it;   */
/* the timed benchmarks call the very same functions.                  */
/* ------------------------------------------------------------------ */

BENCH_NOINLINE unsigned long
bench_loop_mtree_load(struct maple_tree *mt, const unsigned long *idx,
		      unsigned long n)
{
	unsigned long sum = 0, k;

	for (k = 0; k < n; k++)
		sum += (unsigned long)mtree_load(mt, idx[k]);
	return sum;
}

BENCH_NOINLINE unsigned long
bench_loop_mas_walk(struct maple_tree *mt, const unsigned long *idx,
		    unsigned long n)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long sum = 0, k;

	rcu_read_lock();
	for (k = 0; k < n; k++) {
		mas_set(&mas, idx[k]);
		sum += (unsigned long)mas_walk(&mas);
	}
	rcu_read_unlock();
	return sum;
}

/* Returns the number of entries visited. */
BENCH_NOINLINE unsigned long
bench_loop_iterate(struct maple_tree *mt, unsigned long loops)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long count = 0, k;
	void *entry;

	rcu_read_lock();
	for (k = 0; k < loops; k++) {
		mas_set(&mas, 0);
		mas_for_each(&mas, entry, ULONG_MAX)
			count++;
	}
	rcu_read_unlock();
	return count;
}

/*
 * The other iterators, whole passes as bench_loop_iterate(): @how 0 is
 * mas_find() then mas_next() forwards, 1 mas_find_rev() backwards, 2
 * mas_find_rev() then mas_prev() backwards.  Returns the entries visited.
 */
BENCH_NOINLINE unsigned long
bench_loop_iterate_how(struct maple_tree *mt, unsigned long loops, int how)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long count = 0, k;
	void *entry;

	rcu_read_lock();
	for (k = 0; k < loops; k++) {
		if (how == 0) {
			mas_set(&mas, 0);
			for (entry = mas_find(&mas, ULONG_MAX); entry;
			     entry = mas_next(&mas, ULONG_MAX))
				count++;
		} else if (how == 1) {
			mas_set(&mas, ULONG_MAX);
			while (mas_find_rev(&mas, 0))
				count++;
		} else {
			mas_set(&mas, ULONG_MAX);
			for (entry = mas_find_rev(&mas, 0); entry;
			     entry = mas_prev(&mas, 0))
				count++;
		}
	}
	rcu_read_unlock();
	return count;
}

#ifndef BENCH_NO_FIND_RANGE
/*
 * Every range from the first entry's to the tree's end, NULL ones too,
 * with mas_find_range() (@rev false), or from the last entry's down to 0
 * with mas_find_range_rev(): whole passes.  Returns the ranges visited.
 */
BENCH_NOINLINE unsigned long
bench_loop_iterate_range(struct maple_tree *mt, const struct layout *lay,
			 unsigned long loops, bool rev)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long count = 0, k;

	rcu_read_lock();
	for (k = 0; k < loops; k++) {
		if (!rev) {
			mas_set(&mas, lay->vma[0].start);
			do {
				mas_find_range(&mas, ULONG_MAX);
				count++;
			} while (mas.last != ULONG_MAX);
		} else {
			mas_set(&mas, lay->vma[lay->nr - 1].last);
			do {
				mas_find_range_rev(&mas, 0);
				count++;
			} while (mas.index != 0);
		}
	}
	rcu_read_unlock();
	return count;
}

/*
 * The ranges such a pass visits, from the layout alone: the entries, the
 * gaps between them, and the empty range past the last (@rev: before the
 * first) entry if there is one.
 */
static unsigned long layout_ranges(const struct layout *lay, bool rev)
{
	unsigned long n = lay->nr, i;

	for (i = 1; i < lay->nr; i++)
		n += lay->vma[i].start != lay->vma[i - 1].last + 1;
	if (rev)
		return n + (lay->vma[0].start != 0);
	return n + (lay->vma[lay->nr - 1].last != ULONG_MAX);
}
#endif

/* mt_find() from idx[k] on: the first entry at or after it. */
BENCH_NOINLINE unsigned long
bench_loop_mt_find(struct maple_tree *mt, const unsigned long *idx,
		   unsigned long n)
{
	unsigned long sum = 0, k, index;

	for (k = 0; k < n; k++) {
		index = idx[k];
		sum += (unsigned long)mt_find(mt, &index, ULONG_MAX);
	}
	return sum;
}

/*
 * Overwrite range pick[k] with the same bounds; @use_alt chooses which of
 * its two entries goes in.  Returns the OR of the return codes.
 */
BENCH_NOINLINE unsigned long
bench_loop_overwrite(struct maple_tree *mt, const struct layout *lay,
		     const unsigned long *pick, unsigned long n, bool use_alt)
{
	struct bench_vma *set = use_alt ? lay->alt : lay->vma;
	unsigned long err = 0, k, i;

	for (k = 0; k < n; k++) {
		i = pick[k];
		err |= (unsigned long)-mtree_store_range(mt, set[i].start,
				set[i].last, &set[i], GFP_KERNEL);
	}
	return err;
}

/* Erase range pick[k], then insert it again. */
BENCH_NOINLINE unsigned long
bench_loop_erase_insert(struct maple_tree *mt, const struct layout *lay,
			const unsigned long *pick, unsigned long n)
{
	unsigned long err = 0, k, i;

	for (k = 0; k < n; k++) {
		i = pick[k];
		if (!mtree_erase(mt, lay->vma[i].start))
			err |= 1;
		err |= (unsigned long)-mtree_insert_range(mt, lay->vma[i].start,
				lay->vma[i].last, &lay->vma[i], GFP_KERNEL);
	}
	return err;
}

/* Build a tree by storing every range in ascending order. */
BENCH_NOINLINE unsigned long
bench_loop_append(struct maple_tree *mt, const struct layout *lay)
{
	unsigned long err = 0, i;

	for (i = 0; i < lay->nr; i++)
		err |= (unsigned long)-mtree_store_range(mt, lay->vma[i].start,
				lay->vma[i].last, &lay->vma[i], GFP_KERNEL);
	return err;
}

/*
 * Top-down gap searches: the highest free area of size[k] below max[k],
 * each from a reset state, the whole batch under one rcu_read_lock().
 * Returns the sum of the areas' last indices.
 */
BENCH_NOINLINE unsigned long
bench_loop_empty_area_rev(struct maple_tree *mt, const unsigned long *max,
			  const unsigned long *size, unsigned long n)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long sum = 0, k;

	rcu_read_lock();
	for (k = 0; k < n; k++) {
		mas_reset(&mas);
		if (!mas_empty_area_rev(&mas, 0, max[k], size[k]))
			sum += mas.last;
	}
	rcu_read_unlock();
	return sum;
}

/*
 * The VMA tree as Linux 6.1 runs it: an allocation tree in RCU mode under
 * an external lock (the mm's mmap_lock, held for writing by the loops).
 */
#define BENCH_VMA_FLAGS		(MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU | \
				 MT_FLAGS_LOCK_EXTERN)
#define BENCH_MMAP_SIZE		(128UL << 20)	/* will-it-scale mmap1 */
/* An mmap_base: x86_64's, or i386's with a 3 GiB user space. */
#define BENCH_MMAP_HIGH		((BITS_PER_LONG == 64 ?			\
				  (unsigned long)0x7ffff7fff000ULL :	\
				  0xbffff000UL) - 1)

static DECLARE_RWSEM(bench_mmap_lock);
static struct bench_vma bench_mmap_vma;

/*
 * A VMA write as the cycles below make it: through mas_preallocate() +
 * mas_store_prealloc() (@prealloc, the VMA code's way) or mas_store_gfp()
 * from the state as it is.  Returns 1 if it failed.
 */
static __always_inline unsigned long bench_vma_store(struct ma_state *mas,
						     void *entry,
						     bool prealloc)
{
	if (!prealloc)
		return mas_store_gfp(mas, entry, GFP_KERNEL) != 0;
	if (mas_preallocate(mas, entry, GFP_KERNEL))
		return 1;
	mas_store_prealloc(mas, entry);
	return 0;
}

/*
 * One will-it-scale mmap1 iteration as the tree sees it: a top-down search
 * for a 128 MiB hole, a lookup there (the kernel's find_vma_prev()), the
 * insert, the lookup of munmap() and the erase.  Returns the number of
 * steps that did not give what they should.
 */
static __always_inline unsigned long
bench_mmap_cycles(struct maple_tree *mt, unsigned long n, bool prealloc)
{
	void *vma = &bench_mmap_vma;
	MA_STATE(mas, mt, 0, 0);
	unsigned long err = 0, k, start;

	for (k = 0; k < n; k++) {
		mas_reset(&mas);
		if (mas_empty_area_rev(&mas, 0, BENCH_MMAP_HIGH,
				       BENCH_MMAP_SIZE))
			return err + n - k;
		start = mas.index;
		mas_set(&mas, start);
		err += mas_walk(&mas) != NULL;
		mas_set_range(&mas, start, start + BENCH_MMAP_SIZE - 1);
		err += bench_vma_store(&mas, vma, prealloc);
		mas_set(&mas, start);
		err += mas_walk(&mas) != vma;
		mas_set_range(&mas, start, start + BENCH_MMAP_SIZE - 1);
		err += bench_vma_store(&mas, NULL, prealloc);
	}
	return err;
}

/*
 * One will-it-scale brk1 iteration: the last range grows by a page and
 * shrinks back.  Returns the number of failed steps.
 */
static __always_inline unsigned long
bench_brk_cycles(struct maple_tree *mt, struct bench_vma *heap,
		 unsigned long n, bool prealloc)
{
	unsigned long err = 0, k, end = heap->last;
	MA_STATE(mas, mt, 0, 0);

	for (k = 0; k < n; k++) {
		mas_set_range(&mas, heap->start, end + BENCH_PAGE);
		err += bench_vma_store(&mas, heap, prealloc);
		mas_set_range(&mas, end + 1, end + BENCH_PAGE);
		err += bench_vma_store(&mas, NULL, prealloc);
	}
	return err;
}

/* The cycles as the kernel's mmap() and brk() write: preallocated. */
BENCH_NOINLINE unsigned long
bench_loop_mmap_cycle(struct maple_tree *mt, unsigned long n)
{
	return bench_mmap_cycles(mt, n, true);
}

BENCH_NOINLINE unsigned long
bench_loop_brk_cycle(struct maple_tree *mt, struct bench_vma *heap,
		     unsigned long n)
{
	return bench_brk_cycles(mt, heap, n, true);
}

/*
 * The same two cycles through mas_store_gfp() from a reset state, as every
 * other caller than the VMA code's preallocation writes: each store walks
 * from the root and works out its own write.
 */
BENCH_NOINLINE unsigned long
bench_loop_mmap_cycle_gfp(struct maple_tree *mt, unsigned long n)
{
	return bench_mmap_cycles(mt, n, false);
}

BENCH_NOINLINE unsigned long
bench_loop_brk_cycle_gfp(struct maple_tree *mt, struct bench_vma *heap,
			 unsigned long n)
{
	return bench_brk_cycles(mt, heap, n, false);
}

/* Exact-range overwrites of the VMA tree through mas_store_gfp(). */
BENCH_NOINLINE unsigned long
bench_loop_overwrite_gfp(struct maple_tree *mt, const struct layout *lay,
			 const unsigned long *pick, unsigned long n)
{
	unsigned long err = 0, k, i;
	MA_STATE(mas, mt, 0, 0);

	for (k = 0; k < n; k++) {
		i = pick[k];
		mas_set_range(&mas, lay->alt[i].start, lay->alt[i].last);
		err += mas_store_gfp(&mas, &lay->alt[i], GFP_KERNEL) != 0;
	}
	return err;
}

static void vma_tree_build(struct maple_tree *mt, const struct layout *lay)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long i;

	mt_init_flags(mt, BENCH_VMA_FLAGS);
	mt_set_external_lock(mt, &bench_mmap_lock);
	down_write(&bench_mmap_lock);
	for (i = 0; i < lay->nr; i++) {
		mas_set_range(&mas, lay->vma[i].start, lay->vma[i].last);
		if (mas_store_gfp(&mas, &lay->vma[i], GFP_KERNEL))
			die("building the VMA tree: range %lu", i);
	}
	up_write(&bench_mmap_lock);
}

static void vma_tree_destroy(struct maple_tree *mt)
{
	down_write(&bench_mmap_lock);
	__mt_destroy(mt);
	up_write(&bench_mmap_lock);
	rcu_barrier();
}

/*
 * Run @n cycles of @op ("mmap_cycle" or "brk_cycle") in chunks, with
 * rcu_barrier() between them.  In a kernel the RCU callbacks that free
 * replaced nodes run every few milliseconds and the nodes come back to the
 * CPU's slab; here the stand-in's grace-period thread (tools/lib/rcu.c)
 * must end a grace period before the writer runs them, and callgrind runs
 * one thread at a time and would hardly ever schedule it, so that every
 * new node came from the slab's slow path.  The barrier is outside the
 * measured loop function.  Returns the number of failed steps.
 */
#define BENCH_VMA_CHUNK		64

static unsigned long run_vma_cycles(const char *op, struct maple_tree *mt,
				    struct layout *lay, unsigned long n,
				    bool barriers)
{
	unsigned long done, chunk, err = 0;

	for (done = 0; done < n; done += chunk) {
		chunk = n - done;
		if (barriers && chunk > BENCH_VMA_CHUNK)
			chunk = BENCH_VMA_CHUNK;
		down_write(&bench_mmap_lock);
		if (!strcmp(op, "mmap_cycle"))
			err += bench_loop_mmap_cycle(mt, chunk);
		else if (!strcmp(op, "mmap_cycle_gfp"))
			err += bench_loop_mmap_cycle_gfp(mt, chunk);
		else if (!strcmp(op, "brk_cycle_gfp"))
			err += bench_loop_brk_cycle_gfp(mt,
							&lay->vma[lay->nr - 1],
							chunk);
		else
			err += bench_loop_brk_cycle(mt, &lay->vma[lay->nr - 1],
						    chunk);
		up_write(&bench_mmap_lock);
		if (barriers)
			rcu_barrier();
	}
	return err;
}

static DECLARE_RWSEM(bench_fork_lock);

/*
 * fork(): duplicate the VMA tree node for node, then exit(): destroy it.
 * Linux 6.1's tree (BENCH_NO_MT_DUP) has no __mt_dup(): no such row there.
 */
#ifndef BENCH_NO_MT_DUP
BENCH_NOINLINE unsigned long
bench_loop_fork_dup(struct maple_tree *mt, unsigned long n)
{
	struct maple_tree child;
	unsigned long err = 0, k;

	for (k = 0; k < n; k++) {
		mt_init_flags(&child, BENCH_VMA_FLAGS);
		mt_set_external_lock(&child, &bench_fork_lock);
		down_write(&bench_mmap_lock);
		down_write(&bench_fork_lock);
		err += __mt_dup(mt, &child, GFP_KERNEL) != 0;
		up_write(&bench_mmap_lock);
		__mt_destroy(&child);
		up_write(&bench_fork_lock);
	}
	return err;
}
#endif

/*
 * The same copy made by storing every entry again, as before __mt_dup(),
 * into a tree that enters RCU mode once built (nobody sees it before).
 */
BENCH_NOINLINE unsigned long
bench_loop_fork_reinsert(struct maple_tree *mt, unsigned long n, bool bulk)
{
	struct maple_tree child;
	unsigned long err = 0, k;
	void *entry;

	for (k = 0; k < n; k++) {
		MA_STATE(old, mt, 0, 0);
		MA_STATE(mas, &child, 0, 0);

		mt_init_flags(&child, BENCH_VMA_FLAGS & ~MT_FLAGS_USE_RCU);
		mt_set_external_lock(&child, &bench_fork_lock);
		down_write(&bench_mmap_lock);
		down_write(&bench_fork_lock);
		if (bulk)
			err += mas_expected_entries(&mas, 1000) != 0;
		mas_for_each(&old, entry, ULONG_MAX) {
			mas_set_range(&mas, old.index, old.last);
			if (bulk)
				mas_store(&mas, entry);
			else
				err += mas_store_gfp(&mas, entry,
						     GFP_KERNEL) != 0;
		}
		if (bulk)
			mas_destroy(&mas);
		mt_set_in_rcu(&child);
		up_write(&bench_mmap_lock);
		__mt_destroy(&child);
		up_write(&bench_fork_lock);
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* Timing                                                              */
/* ------------------------------------------------------------------ */

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median and relative standard deviation (percent) of @n samples. */
static double summarise(double *v, unsigned int n, double *rsd)
{
	double mean = 0, var = 0, med;
	unsigned int i;

	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	*rsd = (n > 1 && mean > 0) ? 100.0 * sqrt(var / (n - 1)) / mean : 0;

	qsort(v, n, sizeof(*v), cmp_double);
	if (n & 1)
		med = v[n / 2];
	else
		med = (v[n / 2 - 1] + v[n / 2]) / 2;
	return med;
}

/* Cost of one clock_gettime() pair, for per-operation timing. */
static double clock_overhead_ns(void)
{
	double v[9], rsd;
	unsigned int r;
	unsigned long k;

	for (r = 0; r < 9; r++) {
		uint64_t sum = 0, t0, t1;

		for (k = 0; k < 1000; k++) {
			t0 = now_ns();
			t1 = now_ns();
			sum += t1 - t0;
		}
		v[r] = sum / 1000.0;
	}
	return summarise(v, 9, &rsd);
}

/* ------------------------------------------------------------------ */
/* Metrics                                                             */
/* ------------------------------------------------------------------ */

struct metric {
	char name[BENCH_NAME_LEN];
	double value;
	double rsd;		/* relative std deviation in %, <0: none */
};

struct metric_set {
	struct metric m[BENCH_MAX_METRICS];
	unsigned int nr;
	char commit[64];
	char date[64];
	bool quick;
};

static struct metric_set results;
/* --baseline: the runs loaded, opts.nr_baselines of them */
static struct metric_set *baselines;
/* Against each baseline, then against --base: nr_verdicts of them */
static struct verdict verdicts[BENCH_MAX_BASELINES + 1];
static int nr_verdicts;

static void __attribute__((format(printf, 4, 5)))
metric_add(struct metric_set *set, double value, double rsd,
	   const char *fmt, ...)
{
	struct metric *m;
	va_list ap;

	if (set->nr >= BENCH_MAX_METRICS)
		die("too many metrics");
	m = &set->m[set->nr++];
	va_start(ap, fmt);
	vsnprintf(m->name, sizeof(m->name), fmt, ap);
	va_end(ap);
	m->value = value;
	m->rsd = rsd;
}

static const struct metric *metric_find(const struct metric_set *set,
					const char *name)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		if (!strcmp(set->m[i].name, name))
			return &set->m[i];
	return NULL;
}

static struct metric *metric_find_mut(struct metric_set *set,
				      const char *name)
{
	return (struct metric *)metric_find(set, name);
}

/* ------------------------------------------------------------------ */
/* The benchmarks at one size                                          */
/* ------------------------------------------------------------------ */

struct size_ctx {
	struct layout lay;
	struct maple_tree mt;
	unsigned long nr_reads;		/* lookups per measurement */
	unsigned long nr_writes;	/* writes per measurement */
	unsigned long *idx;		/* nr_reads indices inside ranges */
	unsigned long *pick;		/* nr_writes range numbers */
	unsigned long *span_pick;	/* first range of each span */
	double clock_ns;
};

static void report(const char *bench, unsigned long nr, const char *unit,
		   double *v)
{
	double med, rsd;

	med = summarise(v, opts.reps, &rsd);
	metric_add(&results, med, rsd, "%s.%lu.%s", bench, nr, unit);
	fprintf(stderr, "  %-18s %9lu ranges  %10.1f %s (±%.1f%%)\n",
		bench, nr, med, unit, rsd);
}

static void bench_lookups(struct size_ctx *c)
{
	double v[opts.reps];
	unsigned long nr = c->lay.nr, loops, count;
	unsigned int r;
	uint64_t t0;

	/* Warm the caches and the CPU clock before the first measurement. */
	bench_sink += bench_loop_mtree_load(&c->mt, c->idx, c->nr_reads);
	for (r = 0; r < opts.reps; r++) {
		t0 = now_ns();
		bench_sink += bench_loop_mtree_load(&c->mt, c->idx,
						    c->nr_reads);
		v[r] = (double)(now_ns() - t0) / c->nr_reads;
	}
	report("mtree_load", nr, "ns_per_op", v);

	for (r = 0; r < opts.reps; r++) {
		t0 = now_ns();
		bench_sink += bench_loop_mas_walk(&c->mt, c->idx, c->nr_reads);
		v[r] = (double)(now_ns() - t0) / c->nr_reads;
	}
	report("mas_walk", nr, "ns_per_op", v);

	loops = c->nr_reads / nr;
	if (!loops)
		loops = 1;
	for (r = 0; r < opts.reps; r++) {
		t0 = now_ns();
		count = bench_loop_iterate(&c->mt, loops);
		v[r] = (double)(now_ns() - t0) / (loops * nr);
		if (count != loops * nr)
			die("mas_for_each visited %lu entries, expected %lu",
			    count, loops * nr);
	}
	report("mas_for_each", nr, "ns_per_entry", v);

	for (int how = 0; how < 3; how++) {
		static const char *const name[] = {
			"mas_next", "mas_find_rev", "mas_prev"
		};

		for (r = 0; r < opts.reps; r++) {
			t0 = now_ns();
			count = bench_loop_iterate_how(&c->mt, loops, how);
			v[r] = (double)(now_ns() - t0) / (loops * nr);
			if (count != loops * nr)
				die("%s visited %lu entries, expected %lu",
				    name[how], count, loops * nr);
		}
		report(name[how], nr, "ns_per_entry", v);
	}

#ifndef BENCH_NO_FIND_RANGE
	for (int rev = 0; rev < 2; rev++) {
		unsigned long ranges = layout_ranges(&c->lay, rev);

		for (r = 0; r < opts.reps; r++) {
			t0 = now_ns();
			count = bench_loop_iterate_range(&c->mt, &c->lay,
							 loops, rev);
			v[r] = (double)(now_ns() - t0) / (loops * ranges);
			if (count != loops * ranges)
				die("%s visited %lu ranges, expected %lu",
				    rev ? "mas_find_range_rev" :
				    "mas_find_range", count, loops * ranges);
		}
		report(rev ? "mas_find_range_rev" : "mas_find_range", nr,
		       "ns_per_range", v);
	}
#endif

	for (r = 0; r < opts.reps; r++) {
		t0 = now_ns();
		bench_sink += bench_loop_mt_find(&c->mt, c->idx, c->nr_reads);
		v[r] = (double)(now_ns() - t0) / c->nr_reads;
	}
	report("mt_find", nr, "ns_per_op", v);
}

/* Deterministic counts (allocations, nodes) have no spread. */
static void report_count(const char *bench, unsigned long nr,
			 const char *unit, double value)
{
	metric_add(&results, value, -1, "%s.%lu.%s", bench, nr, unit);
	fprintf(stderr, "  %-16s %9lu ranges  %10.2f %s\n", bench, nr, value,
		unit);
}

static void bench_append(struct size_ctx *c)
{
	double v[opts.reps];
	struct maple_tree mt;
	unsigned long loops, k, err = 0;
	unsigned int r;
	uint64_t t0, total;
	long allocs = 0;

	loops = c->nr_writes / c->lay.nr;
	if (!loops)
		loops = 1;
	for (r = 0; r < opts.reps; r++) {
		/* No RCU frees left over from the last repetition. */
		rcu_barrier();
		total = 0;
		for (k = 0; k < loops; k++) {
			long a0 = kmem_nr_allocated();

			mt_init_flags(&mt, opts.mt_flags);
			t0 = now_ns();
			err |= bench_loop_append(&mt, &c->lay);
			total += now_ns() - t0;
			if (r == 0 && k == 0) {
				allocs = kmem_nr_allocated() - a0;
				tree_check(&mt, &c->lay, "append");
			}
			mtree_destroy(&mt);
		}
		v[r] = (double)total / (loops * c->lay.nr);
	}
	if (err)
		die("append: a store failed");
	report("append", c->lay.nr, "ns_per_op", v);
	report_count("append", c->lay.nr, "allocs_per_op",
		     (double)allocs / c->lay.nr);
}

/*
 * One spanning-store cycle at range @i: a store of one entry over [start of
 * range i, last of range i + 3], covering four ranges and the three gaps
 * between them, then a NULL store over the same span and four inserts that
 * put the ranges back, so the tree keeps its size.  Only the spanning store
 * itself is timed (into *@span_ns), or, when @allocs is given, its
 * allocations are counted instead.  Returns the OR of the error codes.
 */
static unsigned long span_cycle(struct size_ctx *c, unsigned long i,
				uint64_t *span_ns, long *allocs)
{
	const struct layout *lay = &c->lay;
	unsigned long first = lay->vma[i].start;
	unsigned long last = lay->vma[i + BENCH_SPAN - 1].last;
	unsigned long err, j;
	uint64_t t0 = 0;
	long a0 = 0;

	if (allocs)
		a0 = kmem_nr_allocated();
	else
		t0 = now_ns();
	err = (unsigned long)-mtree_store_range(&c->mt, first, last,
						&lay->alt[i], GFP_KERNEL);
	if (allocs)
		*allocs += kmem_nr_allocated() - a0;
	else
		*span_ns += now_ns() - t0;

	err |= (unsigned long)-mtree_store_range(&c->mt, first, last, NULL,
						 GFP_KERNEL);
	for (j = i; j < i + BENCH_SPAN; j++)
		err |= (unsigned long)-mtree_insert_range(&c->mt,
				lay->vma[j].start, lay->vma[j].last,
				&lay->vma[j], GFP_KERNEL);
	return err;
}

static void bench_writes(struct size_ctx *c)
{
	double v[opts.reps], vs[opts.reps];
	const struct layout *lay = &c->lay;
	unsigned long nr = lay->nr, err = 0, k, n;
	unsigned int r;
	uint64_t t0, span;
	long a0, allocs = 0;

	for (r = 0; r < opts.reps; r++) {
		rcu_barrier();
		a0 = kmem_nr_allocated();
		t0 = now_ns();
		err |= bench_loop_overwrite(&c->mt, lay, c->pick, c->nr_writes,
					    !(r & 1));
		v[r] = (double)(now_ns() - t0) / c->nr_writes;
		if (r == 0)
			allocs = kmem_nr_allocated() - a0;
	}
	if (err)
		die("overwrite: a store failed");
	tree_check(&c->mt, lay, "overwrite");
	report("overwrite", nr, "ns_per_op", v);
	report_count("overwrite", nr, "allocs_per_op",
		     (double)allocs / c->nr_writes);

	for (r = 0; r < opts.reps; r++) {
		rcu_barrier();
		a0 = kmem_nr_allocated();
		t0 = now_ns();
		err |= bench_loop_erase_insert(&c->mt, lay, c->pick,
					       c->nr_writes);
		v[r] = (double)(now_ns() - t0) / c->nr_writes;
		if (r == 0)
			allocs = kmem_nr_allocated() - a0;
	}
	if (err)
		die("erase+insert: an erase or insert failed");
	tree_check(&c->mt, lay, "erase+insert");
	report("erase_insert", nr, "ns_per_op", v);
	report_count("erase_insert", nr, "allocs_per_op",
		     (double)allocs / c->nr_writes);

	if (nr < BENCH_SPAN)
		return;
	n = c->nr_writes / 8 ? c->nr_writes / 8 : 1;

	/* An untimed pass counts the allocations and warms up. */
	allocs = 0;
	for (k = 0; k < n; k++)
		err |= span_cycle(c, c->span_pick[k], NULL, &allocs);
	for (r = 0; r < opts.reps; r++) {
		rcu_barrier();
		span = 0;
		t0 = now_ns();
		for (k = 0; k < n; k++)
			err |= span_cycle(c, c->span_pick[k], &span, NULL);
		/* The cycle time excludes the inner clock pair. */
		vs[r] = ((double)(now_ns() - t0) - n * c->clock_ns) / n;
		v[r] = ((double)span - n * c->clock_ns) / n;
	}
	if (err)
		die("spanning store: a store or insert failed");
	tree_check(&c->mt, lay, "spanning store");
	report("span_store", nr, "ns_per_op", v);
	report_count("span_store", nr, "allocs_per_op", (double)allocs / n);
	report("span_cycle", nr, "ns_per_op", vs);
}

static void bench_size(unsigned long nr, double clock_ns)
{
	struct size_ctx c = { .clock_ns = clock_ns };
	unsigned long k;
	long live;
	void *entry;

	if (!layout_try(&c.lay, nr)) {
		fprintf(stderr, "  %lu ranges: skipped, they do not fit a "
			"%d-bit index space\n", nr, BITS_PER_LONG);
		return;
	}
	c.nr_reads = opts.batch;
	c.nr_writes = opts.batch / 4 ? opts.batch / 4 : 1;
	c.idx = make_indices(&c.lay, c.nr_reads, BENCH_SEED + nr);
	c.pick = make_picks(nr, c.nr_writes, BENCH_SEED * 3 + nr);
	c.span_pick = make_picks(nr > BENCH_SPAN ? nr - BENCH_SPAN + 1 : 1,
				 c.nr_writes, BENCH_SEED * 5 + nr);

	/* Let pending RCU frees finish so only the tree's nodes count. */
	rcu_barrier();
	live = kmem_nr_live();
	tree_build(&c.mt, &c.lay);
	rcu_barrier();
	live = kmem_nr_live() - live;
	tree_check(&c.mt, &c.lay, "build");
	report_count("memory", nr, "nodes_per_1000_ranges",
		     1000.0 * live / nr);
	/* Every lookup must land in its range; check before timing. */
	for (k = 0; k < c.nr_reads && k < 100000; k++) {
		struct bench_vma *vma;

		entry = mtree_load(&c.mt, c.idx[k]);
		vma = entry;
		if (!vma || c.idx[k] < vma->start || c.idx[k] > vma->last)
			die("mtree_load(%#lx) returned %p", c.idx[k], entry);
	}

	bench_lookups(&c);
	if (!opts.reads_only)
		bench_writes(&c);
	mtree_destroy(&c.mt);
	if (!opts.reads_only)
		bench_append(&c);

	free(c.idx);
	free(c.pick);
	free(c.span_pick);
	layout_free(&c.lay);
}

/* ------------------------------------------------------------------ */
/* Gap search: mas_empty_area_rev()                                    */
/* ------------------------------------------------------------------ */

/*
 * The layout: nr ranges of opts.pages pages (1..4 with --pages 0), the
 * first at BENCH_GAP_BASE, the space below it free.  After each range comes
 * a gap of one page, doubled again and again with probability 1/4 each
 * time, up to BENCH_GAP_MAX_HOLE pages: a gap of 2^k pages or more follows
 * one range in 4^k.  A search for 2^k pages therefore walks back past about
 * 4^k ranges before it finds room, from inside a leaf (2 pages) to across
 * several levels of the tree (32 pages), and the free space below the
 * first range makes every search succeed.
 */
#define BENCH_GAP_BASE		(1024 * BENCH_PAGE)
#define BENCH_GAP_MAX_HOLE	1024	/* pages */
#define BENCH_GAP_QUICK_MAX	100000	/* callgrind, --quick */

/* Sizes searched for, in pages; each query picks one at random. */
static const unsigned long gap_search_pages[] = { 2, 4, 8, 16, 32 };

static bool gap_layout_try(struct layout *lay, unsigned long nr)
{
	uint64_t rng = BENCH_SEED ^ (nr * 7 + 1);
	unsigned long addr = BENCH_GAP_BASE;
	unsigned long i, pages, hole;

	lay->nr = nr;
	lay->vma = xcalloc(nr, sizeof(*lay->vma));
	lay->alt = NULL;
	for (i = 0; i < nr; i++) {
		pages = opts.pages ? opts.pages : 1 + rng_below(&rng, 4);
		hole = 1;
		while (hole < BENCH_GAP_MAX_HOLE && !rng_below(&rng, 4))
			hole *= 2;
		if (!layout_room(addr, pages, hole)) {
			layout_free(lay);
			return false;
		}
		lay->vma[i].start = addr;
		lay->vma[i].last = addr + pages * BENCH_PAGE - 1;
		addr = lay->vma[i].last + 1 + hole * BENCH_PAGE;
	}
	return true;
}

static void gap_layout_init(struct layout *lay, unsigned long nr)
{
	if (!gap_layout_try(lay, nr))
		die("%lu ranges do not fit the index space", nr);
}

/*
 * @n queries: the window's top, a random index inside a random range, and
 * the size searched for.
 */
static void gap_queries(const struct layout *lay, unsigned long n,
			uint64_t seed, unsigned long **maxp,
			unsigned long **sizep)
{
	unsigned long *max = xcalloc(n, sizeof(*max));
	unsigned long *size = xcalloc(n, sizeof(*size));
	uint64_t rng = seed;
	unsigned long k, i;

	for (k = 0; k < n; k++) {
		i = rng_below(&rng, lay->nr);
		max[k] = lay->vma[i].start +
			 rng_below(&rng, lay->vma[i].last -
					 lay->vma[i].start + 1);
		size[k] = BENCH_PAGE * gap_search_pages[rng_below(&rng,
				sizeof(gap_search_pages) /
				sizeof(gap_search_pages[0]))];
	}
	*maxp = max;
	*sizep = size;
}

/*
 * The last index of the highest free area of @size below @max, by walking
 * the layout's gaps downwards from the range that holds @max.
 */
static unsigned long gap_expect(const struct layout *lay, unsigned long max,
				unsigned long size)
{
	unsigned long lo = 0, hi = lay->nr, mid, first;

	/* the range holding max: the last one starting at or below it */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (lay->vma[mid].start <= max)
			lo = mid;
		else
			hi = mid;
	}
	for (;; lo--) {
		first = lo ? lay->vma[lo - 1].last + 1 : 0;
		if (lay->vma[lo].start - first >= size)
			return lay->vma[lo].start - 1;
		if (!lo)
			die("gap search: no room for %lu below %#lx", size,
			    max);
	}
}

/* Check searches against gap_expect() before timing them. */
static void gap_check(struct maple_tree *mt, const struct layout *lay,
		      const unsigned long *max, const unsigned long *size,
		      unsigned long n)
{
	MA_STATE(mas, mt, 0, 0);
	unsigned long k, expect;
	int ret;

	rcu_read_lock();
	for (k = 0; k < n; k++) {
		mas_reset(&mas);
		ret = mas_empty_area_rev(&mas, 0, max[k], size[k]);
		expect = gap_expect(lay, max[k], size[k]);
		if (ret || mas.last != expect ||
		    mas.index != expect - size[k] + 1)
			die("mas_empty_area_rev(0, %#lx, %#lx) = %d [%#lx, %#lx], expected [%#lx, %#lx]",
			    max[k], size[k], ret, mas.index, mas.last,
			    expect - size[k] + 1, expect);
	}
	rcu_read_unlock();
}

static void bench_gap(unsigned long nr)
{
	unsigned long n = opts.batch / 4 ? opts.batch / 4 : 1;
	unsigned long *max, *size;
	double v[opts.reps];
	struct maple_tree mt;
	struct layout lay;
	unsigned int r;
	uint64_t t0;

	if (!gap_layout_try(&lay, nr)) {
		fprintf(stderr, "  empty_area_rev %lu ranges: skipped, they do "
			"not fit a %d-bit index space\n", nr, BITS_PER_LONG);
		return;
	}
	tree_build(&mt, &lay);
	gap_queries(&lay, n, BENCH_SEED * 7 + nr, &max, &size);
	gap_check(&mt, &lay, max, size, n < 100000 ? n : 100000);

	/* Warm the caches and the CPU clock before the first measurement. */
	bench_sink += bench_loop_empty_area_rev(&mt, max, size, n);
	for (r = 0; r < opts.reps; r++) {
		t0 = now_ns();
		bench_sink += bench_loop_empty_area_rev(&mt, max, size, n);
		v[r] = (double)(now_ns() - t0) / n;
	}
	report("empty_area_rev", nr, "ns_per_op", v);
	fprintf(stderr, "  %-16s %9lu ranges  height %u\n", "empty_area_rev",
		nr, mt_height(&mt));

	free(max);
	free(size);
	mtree_destroy(&mt);
	layout_free(&lay);
}

/* ------------------------------------------------------------------ */
/* RCU mode: readers beside a writer                                   */
/* ------------------------------------------------------------------ */

#define BENCH_RCU_RANGES	100000
#define BENCH_RCU_QUICK_RANGES	10000
#define BENCH_RCU_QUICK_MS	30
#define BENCH_RCU_MAX_READERS	2
#define BENCH_RCU_INDICES	65536	/* lookups cycle through these */
#define BENCH_RCU_BURST		256	/* lookups between stop checks */
#ifdef __TOOLS_TSAN
#define BENCH_TSAN		1
#else
#define BENCH_TSAN		0
#endif

/* One timed run: the threads, what they share and what they did. */
struct rcu_run {
	struct maple_tree *mt;
	const struct layout *lay;
	const unsigned long *idx;	/* indices the readers look up */
	const unsigned long *pick;	/* ranges the writer rewrites */
	pthread_barrier_t start;
	int stop;
	unsigned long read_ops;
	unsigned long write_ops;
	unsigned long err;
};

struct rcu_thread {
	struct rcu_run *run;
	pthread_t thread;
	unsigned long from;		/* first position in idx or pick */
	unsigned long ops;
	unsigned long sum;
	unsigned long err;
};

static bool rcu_stopped(struct rcu_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

/* mtree_load() (which takes rcu_read_lock() itself) until told to stop. */
static void *rcu_reader(void *arg)
{
	struct rcu_thread *t = arg;
	struct rcu_run *run = t->run;
	unsigned long k = t->from, n;

	pthread_barrier_wait(&run->start);
	while (!rcu_stopped(run)) {
		for (n = 0; n < BENCH_RCU_BURST; n++) {
			t->sum += (unsigned long)mtree_load(run->mt,
							    run->idx[k]);
			k = (k + 1) % BENCH_RCU_INDICES;
		}
		t->ops += BENCH_RCU_BURST;
	}
	return NULL;
}

/*
 * Erase a range and insert it again (two writes, each rebuilding a leaf),
 * until told to stop; the tree is whole again when it returns.
 */
static void *rcu_writer(void *arg)
{
	struct rcu_thread *t = arg;
	struct rcu_run *run = t->run;
	const struct layout *lay = run->lay;
	unsigned long k = t->from, i;

	pthread_barrier_wait(&run->start);
	while (!rcu_stopped(run)) {
		i = run->pick[k];
		k = (k + 1) % BENCH_RCU_INDICES;
		if (!mtree_erase(run->mt, lay->vma[i].start))
			t->err |= 1;
		t->err |= (unsigned long)-mtree_insert_range(run->mt,
				lay->vma[i].start, lay->vma[i].last,
				&lay->vma[i], GFP_KERNEL);
		t->ops += 2;
	}
	return NULL;
}

/*
 * Run @readers readers and, with @writer, the writer for opts.rcu_ms.
 * Sets *@read_mops and *@write_mops (millions of operations per second).
 */
static void rcu_measure(struct rcu_run *run, unsigned int readers,
			bool writer, double *read_mops, double *write_mops)
{
	struct rcu_thread t[BENCH_RCU_MAX_READERS + 1];
	unsigned int n = readers + writer, i;
	struct timespec ts = {
		.tv_sec = opts.rcu_ms / 1000,
		.tv_nsec = (opts.rcu_ms % 1000) * 1000000L,
	};
	unsigned long reads = 0, writes = 0;
	uint64_t t0, t1;

	/* No RCU frees left over from the last measurement. */
	rcu_barrier();
	memset(t, 0, sizeof(t));
	run->stop = 0;
	if (pthread_barrier_init(&run->start, NULL, n + 1))
		die("pthread_barrier_init failed");
	for (i = 0; i < n; i++) {
		t[i].run = run;
		t[i].from = i * (BENCH_RCU_INDICES / (n + 1));
		if (pthread_create(&t[i].thread, NULL,
				   i < readers ? rcu_reader : rcu_writer, &t[i]))
			die("pthread_create failed");
	}
	pthread_barrier_wait(&run->start);
	t0 = now_ns();
	nanosleep(&ts, NULL);
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		pthread_join(t[i].thread, NULL);
		if (i < readers)
			reads += t[i].ops;
		else
			writes += t[i].ops;
		bench_sink += t[i].sum;
		run->err |= t[i].err;
	}
	t1 = now_ns();
	pthread_barrier_destroy(&run->start);
	*read_mops = reads * 1e3 / (t1 - t0);
	*write_mops = writes * 1e3 / (t1 - t0);
}

static void rcu_report(const char *name, double *v)
{
	double med, rsd;

	med = summarise(v, opts.reps, &rsd);
	metric_add(&results, med, rsd, "%s", name);
	fprintf(stderr, "  %-32s %10.2f Mops/s (±%.1f%%)\n", name, med, rsd);
}

/*
 * The VMA tree's write workloads at 1,000 ranges: the mmap1 and brk1
 * cycles (see bench_loop_mmap_cycle()), and fork's copy of the tree by
 * __mt_dup() against storing every entry again, one by one or after
 * mas_expected_entries().  ns per operation and node allocations per
 * operation.
 */
#ifdef BENCH_NO_MT_DUP
#define BENCH_FIRST_FORK	1	/* no fork_dup row */
#else
#define BENCH_FIRST_FORK	0
#endif

static void bench_vma(void)
{
	static const char *const cycles[] = { "mmap_cycle", "brk_cycle" };
	unsigned long nr = 1000, n = opts.batch / 40 ? opts.batch / 40 : 1;
	unsigned long forks = n / 50 ? n / 50 : 1, err = 0;
	double v[opts.reps];
	struct maple_tree mt;
	struct layout lay;
	unsigned int r, i;
	long a0;
	uint64_t t0;

	layout_init(&lay, nr);
	vma_tree_build(&mt, &lay);
	for (i = 0; i < ARRAY_SIZE(cycles); i++) {
		err += run_vma_cycles(cycles[i], &mt, &lay, n, false);
		a0 = kmem_nr_allocated();
		for (r = 0; r < opts.reps; r++) {
			t0 = now_ns();
			err += run_vma_cycles(cycles[i], &mt, &lay, n, false);
			v[r] = (double)(now_ns() - t0) / n;
		}
		report(cycles[i], nr, "ns_per_op", v);
		report_count(cycles[i], nr, "allocs_per_op",
			     (double)(kmem_nr_allocated() - a0) /
			     (n * opts.reps));
	}
	if (err)
		die("vma cycles: %lu steps failed", err);
	tree_check(&mt, &lay, "vma cycles");

	for (i = BENCH_FIRST_FORK; i < 3; i++) {
		static const char *const name[] = {
			"fork_dup", "fork_reinsert", "fork_bulk"
		};

		a0 = kmem_nr_allocated();
		for (r = 0; r < opts.reps; r++) {
			t0 = now_ns();
#ifndef BENCH_NO_MT_DUP
			if (i == 0)
				err += bench_loop_fork_dup(&mt, forks);
			else
#endif
				err += bench_loop_fork_reinsert(&mt, forks,
								i == 2);
			v[r] = (double)(now_ns() - t0) / forks;
			rcu_barrier();
		}
		if (err)
			die("%s failed", name[i]);
		report(name[i], nr, "ns_per_op", v);
		report_count(name[i], nr, "allocs_per_op",
			     (double)(kmem_nr_allocated() - a0) /
			     (forks * opts.reps));
	}
	vma_tree_destroy(&mt);
	layout_free(&lay);
}

static void bench_rcu(void)
{
	unsigned long nr = opts.quick ? BENCH_RCU_QUICK_RANGES :
					BENCH_RCU_RANGES;
	unsigned int rcu_flags = opts.mt_flags | MT_FLAGS_USE_RCU;
	double rd[opts.reps], wr[opts.reps];
	struct rcu_run run = { 0 };
	char name[BENCH_NAME_LEN];
	struct maple_tree mt;
	struct layout lay;
	unsigned int readers, r;
	bool writer, rcu;

	layout_init(&lay, nr);
	run.mt = &mt;
	run.lay = &lay;
	run.idx = make_indices(&lay, BENCH_RCU_INDICES, BENCH_SEED * 11 + nr);
	run.pick = make_picks(nr, BENCH_RCU_INDICES, BENCH_SEED * 13 + nr);
	fprintf(stderr, "  rcu: %lu ranges, %u ms per measurement\n", nr,
		opts.rcu_ms);

	tree_build_flags(&mt, &lay, rcu_flags);
	/*
	 * Under ThreadSanitizer the readers would only repeat the race
	 * reports of the maple_rcu_stress suite and fail "make check-tsan"
	 * before any suite runs: there, only the writer is measured.
	 */
	for (readers = 1; readers <= BENCH_RCU_MAX_READERS && !BENCH_TSAN;
	     readers++) {
		for (writer = false; ; writer = true) {
			for (r = 0; r < opts.reps; r++)
				rcu_measure(&run, readers, writer, &rd[r],
					    &wr[r]);
			snprintf(name, sizeof(name),
				 "rcu_lookup.readers%u.%s.mops", readers,
				 writer ? "writer" : "nowriter");
			rcu_report(name, rd);
			if (writer) {
				snprintf(name, sizeof(name),
					 "rcu_write.rcu.readers%u.mops",
					 readers);
				rcu_report(name, wr);
				break;
			}
		}
	}
	if (run.err)
		die("rcu: an erase or insert failed");
	tree_check(&mt, &lay, "rcu readers");
	mtree_destroy(&mt);

	/* The writer alone: what RCU mode costs it. */
	for (rcu = true; ; rcu = false) {
		tree_build_flags(&mt, &lay, rcu ? rcu_flags :
				 rcu_flags & ~MT_FLAGS_USE_RCU);
		for (r = 0; r < opts.reps; r++)
			rcu_measure(&run, 0, true, &rd[r], &wr[r]);
		rcu_report(rcu ? "rcu_write.rcu.mops" : "rcu_write.nonrcu.mops",
			   wr);
		if (run.err)
			die("rcu: an erase or insert failed");
		tree_check(&mt, &lay, "rcu writer");
		mtree_destroy(&mt);
		if (!rcu)
			break;
	}

	free((void *)run.idx);
	free((void *)run.pick);
	layout_free(&lay);
}

/* ------------------------------------------------------------------ */
/* Callgrind: instructions per operation                               */
/* ------------------------------------------------------------------ */

/*
 * Child mode: build opts.loop_size ranges, then run exactly
 * opts.loop_count operations of one kind inside its bench_loop_*().
 */
static int run_loop(void)
{
	struct maple_tree mt;
	struct layout lay;
	unsigned long *arg, *size, n = opts.loop_count, res;
	const char *op = opts.loop_op;
	int ret = 0;

	if (!strcmp(op, "empty_area_rev")) {
		gap_layout_init(&lay, opts.loop_size);
		tree_build(&mt, &lay);
		gap_queries(&lay, n, BENCH_SEED + 17, &arg, &size);
		if (!bench_loop_empty_area_rev(&mt, arg, size, n))
			ret = 1;
		free(arg);
		free(size);
		mtree_destroy(&mt);
		layout_free(&lay);
		return ret;
	}

	if (strstr(op, "_cycle")) {
		layout_init(&lay, opts.loop_size);
		vma_tree_build(&mt, &lay);
		res = run_vma_cycles(op, &mt, &lay, n, true);
		if (res)
			ret = 1;
		else
			tree_check(&mt, &lay, op);
		vma_tree_destroy(&mt);
		layout_free(&lay);
		return ret;
	}

	if (!strcmp(op, "overwrite_gfp")) {
		layout_init(&lay, opts.loop_size);
		vma_tree_build(&mt, &lay);
		arg = make_picks(lay.nr, n, BENCH_SEED + 13);
		down_write(&bench_mmap_lock);
		if (bench_loop_overwrite_gfp(&mt, &lay, arg, n))
			ret = 1;
		up_write(&bench_mmap_lock);
		if (!ret)
			tree_check(&mt, &lay, op);
		free(arg);
		vma_tree_destroy(&mt);
		layout_free(&lay);
		return ret;
	}

	layout_init(&lay, opts.loop_size);
	tree_build(&mt, &lay);
	if (!strcmp(op, "mtree_load") || !strcmp(op, "mas_walk")) {
		arg = make_indices(&lay, n, BENCH_SEED + 11);
		if (!strcmp(op, "mtree_load"))
			res = bench_loop_mtree_load(&mt, arg, n);
		else
			res = bench_loop_mas_walk(&mt, arg, n);
		bench_sink += res;
		if (!res)
			ret = 1;
	} else if (!strcmp(op, "overwrite")) {
		arg = make_picks(lay.nr, n, BENCH_SEED + 13);
		if (bench_loop_overwrite(&mt, &lay, arg, n, true))
			ret = 1;
	} else if (!strcmp(op, "iterate")) {
		/* n entries: whole passes over the tree's ranges. */
		arg = NULL;
		if (bench_loop_iterate(&mt, n / lay.nr) != n / lay.nr * lay.nr)
			ret = 1;
	} else if (!strcmp(op, "iterate_next") || !strcmp(op, "iterate_rev") ||
		   !strcmp(op, "iterate_prev")) {
		/* As iterate, with mas_next(), mas_find_rev(), mas_prev(). */
		int how = op[8] == 'n' ? 0 : op[9] == 'e' ? 1 : 2;

		arg = NULL;
		if (bench_loop_iterate_how(&mt, n / lay.nr, how) !=
		    n / lay.nr * lay.nr)
			ret = 1;
#ifndef BENCH_NO_FIND_RANGE
	} else if (!strcmp(op, "iterate_range")) {
		/* At least n ranges: whole passes, NULL ranges too. */
		res = layout_ranges(&lay, false);
		res = (n + res - 1) / res;
		arg = NULL;
		if (bench_loop_iterate_range(&mt, &lay, res, false) !=
		    res * layout_ranges(&lay, false))
			ret = 1;
#endif
	} else {
		die("unknown --ops %s (mtree_load, mas_walk, overwrite, "
		    "iterate, iterate_next, iterate_rev, iterate_prev, "
		    "iterate_range, empty_area_rev, mmap_cycle, brk_cycle, "
		    "overwrite_gfp, mmap_cycle_gfp, brk_cycle_gfp)", op);
	}
	if (!ret)
		tree_check(&mt, &lay, op);
	free(arg);
	mtree_destroy(&mt);
	layout_free(&lay);
	return ret;
}

/*
 * @op runs as itself and, but for the VMA tree's own ops (mas_store_gfp()
 * and the cycles), again on the --flags tree as <op>_vma; a target of a
 * derived metric (@derived) only names it.
 */
struct insn_target {
	const char *op;
	double target;
	bool derived;
};

static const struct insn_target insn_targets[] = {
	{ "mtree_load", 150, false },
	{ "mas_walk", 150, false },
	{ "overwrite", 200, false },
	{ "mmap_cycle", 2500, false },
	{ "brk_cycle", 500, false },
	{ "mas_walk_vma", 150, true },
	{ "overwrite_gfp", 200, false },
	{ "mmap_cycle_gfp", 2500, false },
	{ "brk_cycle_gfp", 500, false },
};

static double insn_target_of(const char *metric)
{
	size_t i, len;

	for (i = 0; i < sizeof(insn_targets) / sizeof(insn_targets[0]); i++) {
		len = strlen(insn_targets[i].op);
		if (!strncmp(metric, insn_targets[i].op, len) &&
		    metric[len] == '.' && strstr(metric, ".insn_per_op"))
			return insn_targets[i].target;
	}
	return 0;
}

/* The "totals:" (or "summary:") line of a callgrind output file. */
static int callgrind_total(const char *path, double *ir)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "totals:", 7)) {
			*ir = strtod(line + 7, NULL);
			found = 0;
			break;
		}
		if (!strncmp(line, "summary:", 8)) {
			*ir = strtod(line + 8, NULL);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static int callgrind_run(const char *self, const char *dir, const char *op,
			 unsigned long size, unsigned long count,
			 unsigned int flags, double *ir)
{
	char toggle[128], outfile[512], logfile[512];
	char count_s[32], size_s[32], flags_s[32], pages_s[32];
	const char *argv[24];
	int status, argc = 0;
	pid_t pid;

	snprintf(toggle, sizeof(toggle), "--toggle-collect=bench_loop_%s", op);
	snprintf(outfile, sizeof(outfile), "--callgrind-out-file=%s/%s.%lu.%lu",
		 dir, op, size, count);
	snprintf(logfile, sizeof(logfile), "--log-file=%s/%s.%lu.%lu.log",
		 dir, op, size, count);
	snprintf(count_s, sizeof(count_s), "%lu", count);
	snprintf(size_s, sizeof(size_s), "%lu", size);
	snprintf(flags_s, sizeof(flags_s), "%u", flags);
	snprintf(pages_s, sizeof(pages_s), "%u", opts.pages);

	argv[argc++] = "valgrind";
	argv[argc++] = "--tool=callgrind";
	argv[argc++] = "--collect-atstart=no";
	argv[argc++] = toggle;
	argv[argc++] = outfile;
	argv[argc++] = logfile;
	argv[argc++] = self;
	argv[argc++] = "--ops";
	argv[argc++] = op;
	argv[argc++] = "--count";
	argv[argc++] = count_s;
	argv[argc++] = "--size";
	argv[argc++] = size_s;
	argv[argc++] = "--flags";
	argv[argc++] = flags_s;
	argv[argc++] = "--pages";
	argv[argc++] = pages_s;
	argv[argc] = NULL;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], (char **)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(stderr, "bench_tree: cannot run valgrind; install it "
			"(Debian package valgrind)\n");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_tree: valgrind %s --count %lu failed "
			"(status %d), see %s/%s.%lu.%lu.log\n", op, count,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			dir, op, size, count);
		return -1;
	}
	snprintf(outfile, sizeof(outfile), "%s/%s.%lu.%lu", dir, op, size,
		 count);
	if (callgrind_total(outfile, ir)) {
		fprintf(stderr, "bench_tree: no totals in %s\n", outfile);
		return -1;
	}
	return 0;
}

/*
 * Instructions of one @op at @size ranges: callgrind runs with @n and 2@n
 * operations, the difference divided by @n.  Adds the metric; false if a
 * run failed.
 */
static bool callgrind_count(const char *self, const char *dir,
			    const char *op, const char *name,
			    unsigned long size, unsigned long n,
			    unsigned int flags)
{
	double ir1, ir2;

	fprintf(stderr, "  callgrind %-14s %lu ranges, flags %#x, %lu and "
		"%lu ops\n", name, size, flags, n, 2 * n);
	if (callgrind_run(self, dir, op, size, n, flags, &ir1) ||
	    callgrind_run(self, dir, op, size, 2 * n, flags, &ir2))
		return false;
	if (ir2 <= ir1) {
		fprintf(stderr, "bench_tree: callgrind counted nothing "
			"in bench_loop_%s (%.0f, %.0f)\n", op, ir1, ir2);
		return false;
	}
	metric_add(&results, (ir2 - ir1) / n, -1, "%s.%lu.insn_per_op", name,
		   size);
	return true;
}

static void bench_callgrind(void)
{
	unsigned long n = opts.quick ? 5000 : 10000;
	char self[4096], dir[] = "/tmp/bench_tree.XXXXXX";
	ssize_t len;
	size_t i;
	bool ok = true;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		die("cannot find my own executable");
	self[len] = '\0';
	if (!mkdtemp(dir))
		die("mkdtemp: %s", strerror(errno));

	/*
	 * The lookup and overwrite targets are for a plain tree (flags 0);
	 * the same operations on a tree with --flags (by default an mm's:
	 * allocation tree in RCU mode) are reported as <op>_vma.  The VMA
	 * cycles always use the VMA tree (see bench_loop_mmap_cycle()).
	 */
	for (i = 0; i < sizeof(insn_targets) / sizeof(insn_targets[0]); i++) {
		const char *op = insn_targets[i].op;
		char name[BENCH_NAME_LEN];

		if (insn_targets[i].derived)
			continue;
		ok &= callgrind_count(self, dir, op, op, opts.loop_size, n,
				      0);
		if (strstr(op, "_cycle") || strstr(op, "_gfp"))
			continue;
		snprintf(name, sizeof(name), "%s_vma", op);
		ok &= callgrind_count(self, dir, op, name, opts.loop_size, n,
				      opts.mt_flags);
	}
	/* mas_for_each(), per entry: --size must divide the op counts. */
	ok &= callgrind_count(self, dir, "iterate", "iterate", opts.loop_size,
			      n, 0);
	ok &= callgrind_count(self, dir, "iterate", "iterate_vma",
			      opts.loop_size, n, opts.mt_flags);
	/*
	 * The gap search at every size, to show how it grows; building a
	 * tree of a million ranges under callgrind takes half a minute, so
	 * --quick stops at BENCH_GAP_QUICK_MAX.
	 */
	for (i = 0; i < opts.nr_gap_sizes; i++) {
		if (opts.quick && opts.gap_sizes[i] > BENCH_GAP_QUICK_MAX)
			continue;
		ok &= callgrind_count(self, dir, "empty_area_rev",
				      "empty_area_rev", opts.gap_sizes[i], n,
				      opts.mt_flags);
	}
	if (ok) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "bench_tree: could not remove %s\n",
				dir);
	} else {
		fprintf(stderr, "bench_tree: callgrind files kept in %s\n",
			dir);
	}
}

/* ------------------------------------------------------------------ */
/* JSON: writing our format and reading it back                        */
/* ------------------------------------------------------------------ */

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The members of one run, @ind the indentation of their keys. */
static void json_write_set(FILE *f, const struct metric_set *set,
			   const char *ind)
{
	unsigned int i;
	bool first = true;

	fprintf(f, "%s\"commit\": ", ind);
	json_string(f, set->commit);
	fprintf(f, ",\n%s\"date\": ", ind);
	json_string(f, set->date);
	fprintf(f, ",\n%s\"quick\": %s,\n%s\"metrics\": {", ind,
		set->quick ? "true" : "false", ind);
	for (i = 0; i < set->nr; i++) {
		fprintf(f, "%s\n%s  ", i ? "," : "", ind);
		json_string(f, set->m[i].name);
		fprintf(f, ": %.4f", set->m[i].value);
	}
	fprintf(f, "\n%s},\n%s\"rsd_pct\": {", ind, ind);
	for (i = 0; i < set->nr; i++) {
		if (set->m[i].rsd < 0)
			continue;
		fprintf(f, "%s\n%s  ", first ? "" : ",", ind);
		json_string(f, set->m[i].name);
		fprintf(f, ": %.2f", set->m[i].rsd);
		first = false;
	}
	fprintf(f, "\n%s}", ind);
}

/*
 * The run; with --baseline, each baseline whole under "baselines" and
 * this run's %change against each under "change_pct" (negative: ours
 * lower, which is better but for the RCU rows' .mops rates); the
 * verdicts (against each baseline and --base) under "verdict".  Readers
 * of the run itself (--base, --merge) skip them.
 */
static void json_write(FILE *f, const struct metric_set *set)
{
	const struct metric *m, *bm;
	unsigned int i;
	bool first;
	int k;

	fprintf(f, "{\n");
	json_write_set(f, set, "  ");
	if (set == &results && opts.nr_baselines) {
		fprintf(f, ",\n  \"baselines\": {");
		for (k = 0; k < opts.nr_baselines; k++) {
			fprintf(f, "%s\n    ", k ? "," : "");
			json_string(f, opts.baseline_name[k]);
			fprintf(f, ": {\n");
			json_write_set(f, &baselines[k], "      ");
			fprintf(f, "\n    }");
		}
		fprintf(f, "\n  },\n  \"change_pct\": {");
		for (k = 0; k < opts.nr_baselines; k++) {
			fprintf(f, "%s\n    ", k ? "," : "");
			json_string(f, opts.baseline_name[k]);
			fprintf(f, ": {");
			for (i = 0, first = true; i < set->nr; i++) {
				m = &set->m[i];
				bm = metric_find(&baselines[k], m->name);
				if (!bm || bm->value == 0)
					continue;
				fprintf(f, "%s\n      ", first ? "" : ",");
				json_string(f, m->name);
				fprintf(f, ": %.2f", 100.0 *
					(m->value - bm->value) / bm->value);
				first = false;
			}
			fprintf(f, "\n    }");
		}
		fprintf(f, "\n  }");
	}
	if (set == &results && nr_verdicts) {
		fprintf(f, ",\n  \"verdict\": {");
		for (k = 0; k < nr_verdicts; k++) {
			fprintf(f, "%s\n", k ? "," : "");
			verdict_json(f, &verdicts[k], "    ");
		}
		fprintf(f, "\n  }");
	}
	fprintf(f, "\n}\n");
}

struct json_in {
	const char *p;
	const char *file;
};

static void json_fail(struct json_in *in, const char *what)
{
	die("%s: bad JSON near offset: \"%.20s\" (%s)", in->file, in->p, what);
}

static void json_ws(struct json_in *in)
{
	while (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' ||
	       *in->p == '\r')
		in->p++;
}

static void json_expect(struct json_in *in, char c)
{
	json_ws(in);
	if (*in->p != c) {
		char what[32];

		snprintf(what, sizeof(what), "expected '%c'", c);
		json_fail(in, what);
	}
	in->p++;
}

/* A string into @buf (truncated to @size); escapes are kept simple. */
static void json_read_string(struct json_in *in, char *buf, size_t size)
{
	size_t len = 0;
	char c;

	json_expect(in, '"');
	while ((c = *in->p) != '"') {
		if (!c)
			json_fail(in, "unterminated string");
		if (c == '\\') {
			in->p++;
			c = *in->p;
			if (!c)
				json_fail(in, "unterminated string");
			if (c == 'u') {
				/* Not produced by us: keep a placeholder. */
				if (strlen(in->p) < 5)
					json_fail(in, "bad \\u escape");
				in->p += 4;
				c = '?';
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			}
		}
		if (len + 1 < size)
			buf[len++] = c;
		in->p++;
	}
	in->p++;
	if (size)
		buf[len] = '\0';
}

static double json_read_number(struct json_in *in)
{
	char *end;
	double v;

	json_ws(in);
	v = strtod(in->p, &end);
	if (end == in->p)
		json_fail(in, "expected a number");
	in->p = end;
	return v;
}

static void json_skip_value(struct json_in *in, int depth)
{
	char tmp[8];

	if (depth > 64)
		json_fail(in, "nested too deep");
	json_ws(in);
	switch (*in->p) {
	case '"':
		json_read_string(in, tmp, 0);
		return;
	case '{':
	case '[': {
		char close = *in->p == '{' ? '}' : ']';

		in->p++;
		json_ws(in);
		if (*in->p == close) {
			in->p++;
			return;
		}
		for (;;) {
			if (close == '}') {
				json_read_string(in, tmp, 0);
				json_expect(in, ':');
			}
			json_skip_value(in, depth + 1);
			json_ws(in);
			if (*in->p == ',') {
				in->p++;
				continue;
			}
			json_expect(in, close);
			return;
		}
	}
	case 't':
	case 'f':
	case 'n':
		while (*in->p >= 'a' && *in->p <= 'z')
			in->p++;
		return;
	default:
		json_read_number(in);
	}
}

/* An object of "name": number members; @rsd selects which field. */
static void json_read_metrics(struct json_in *in, struct metric_set *set,
			      bool rsd)
{
	char name[BENCH_NAME_LEN];
	struct metric *m;
	double v;

	json_expect(in, '{');
	json_ws(in);
	if (*in->p == '}') {
		in->p++;
		return;
	}
	for (;;) {
		json_read_string(in, name, sizeof(name));
		json_expect(in, ':');
		v = json_read_number(in);
		m = metric_find_mut(set, name);
		if (rsd) {
			if (m)
				m->rsd = v;
		} else if (!m) {
			metric_add(set, v, -1, "%s", name);
		} else {
			m->value = v;
		}
		json_ws(in);
		if (*in->p == ',') {
			in->p++;
			continue;
		}
		json_expect(in, '}');
		return;
	}
}

static void json_load(const char *file, struct metric_set *set)
{
	char key[64], *text;
	struct json_in in = { .file = file };
	long size;
	FILE *f;

	f = fopen(file, "r");
	if (!f)
		die("cannot open %s: %s", file, strerror(errno));
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = xcalloc(size + 1, 1);
	if (size < 0 || fread(text, 1, size, f) != (size_t)size)
		die("cannot read %s", file);
	fclose(f);
	in.p = text;

	memset(set, 0, sizeof(*set));
	json_expect(&in, '{');
	json_ws(&in);
	while (*in.p != '}') {
		json_read_string(&in, key, sizeof(key));
		json_expect(&in, ':');
		json_ws(&in);
		if (!strcmp(key, "metrics") && *in.p == '{') {
			json_read_metrics(&in, set, false);
		} else if (!strcmp(key, "rsd_pct") && *in.p == '{') {
			json_read_metrics(&in, set, true);
		} else if (!strcmp(key, "commit") && *in.p == '"') {
			json_read_string(&in, set->commit, sizeof(set->commit));
		} else if (!strcmp(key, "date") && *in.p == '"') {
			json_read_string(&in, set->date, sizeof(set->date));
		} else if (!strcmp(key, "quick")) {
			set->quick = !strncmp(in.p, "true", 4);
			json_skip_value(&in, 0);
		} else {
			json_skip_value(&in, 0);
		}
		json_ws(&in);
		if (*in.p == ',')
			in.p++;
		else if (*in.p != '}')
			json_fail(&in, "expected ',' or '}'");
		json_ws(&in);
	}
	free(text);
}

/* ------------------------------------------------------------------ */
/* Human output                                                        */
/* ------------------------------------------------------------------ */

/* "  12.3 ±  2%" in a fixed width, or blanks. */
static const char *fmt_value(char *buf, size_t size, const struct metric *m)
{
	char rsd[16] = "";

	if (!m) {
		snprintf(buf, size, "%16s", "");
		return buf;
	}
	if (m->rsd >= 0.5)
		snprintf(rsd, sizeof(rsd), " ±%3.0f%%", m->rsd);
	if (fabs(m->value) < 10)
		snprintf(buf, size, "%10.2f%6s", m->value, rsd);
	else
		snprintf(buf, size, "%10.1f%6s", m->value, rsd);
	return buf;
}

static const char *fmt_target(char *buf, size_t size, const struct metric *m)
{
	double target = m ? insn_target_of(m->name) : 0;

	buf[0] = '\0';
	if (target > 0)
		snprintf(buf, size, "  (target <= %.0f: %s)", target,
			 m->value <= target ? "met" : "MISSED");
	return buf;
}

/* %change of @m against @bm, "" when there is none. */
static const char *fmt_change(char *buf, size_t size, const struct metric *bm,
			      const struct metric *m)
{
	buf[0] = '\0';
	if (bm && m && bm->value == 0 && m->value == 0)
		snprintf(buf, size, "+0.0%%");
	else if (bm && m && bm->value != 0)
		snprintf(buf, size, "%+.1f%%",
			 100.0 * (m->value - bm->value) / bm->value);
	return buf;
}

/*
 * The robot's table of this run against @base, its columns headed
 * @bname and @nname ("base" and "new", or a baseline's name and "maple"),
 * each row weighed into a new verdict against @bname.
 */
static void print_compare(const struct metric_set *base, const char *bname,
			  const char *nname)
{
	char a[64], b[64], c[32], t[64], bl[64], nl[64];
	struct verdict *v = &verdicts[nr_verdicts++];
	const struct metric *m, *bm;
	unsigned int i;
	int w;

	verdict_init(v, bname);
	verdict_title(stdout, "tree", bname);
	/* "base: <commit> <date>" above "new:  <commit> <date>". */
	snprintf(bl, sizeof(bl), "%s:", bname);
	snprintf(nl, sizeof(nl), "%s:", nname);
	w = strlen(bl) > strlen(nl) ? strlen(bl) : strlen(nl);
	printf("%-*s %s %s%s\n%-*s %s %s%s\n\n", w, bl, base->commit,
	       base->date, base->quick ? " (quick)" : "", w, nl,
	       results.commit, results.date, results.quick ? " (quick)" : "");
	printf("%16s %10s %16s  %s\n", bname, "%change", nname, "metric");
	printf("---------------- ---------- ---------------- "
	       "------------------------------\n");
	for (i = 0; i < results.nr; i++) {
		m = &results.m[i];
		bm = metric_find(base, m->name);
		if (bm)
			verdict_add(v, m->name, bm->value, bm->rsd, m->value,
				    m->rsd);
		printf("%s %10s %s  %s%s\n", fmt_value(a, sizeof(a), bm),
		       fmt_change(c, sizeof(c), bm, m),
		       fmt_value(b, sizeof(b), m), m->name,
		       fmt_target(t, sizeof(t), m));
	}
	for (i = 0; i < base->nr; i++) {
		bm = &base->m[i];
		if (metric_find(&results, bm->name))
			continue;
		printf("%s %10s %s  %s\n", fmt_value(a, sizeof(a), bm), "",
		       fmt_value(b, sizeof(b), NULL), bm->name);
	}
}

static void print_table(const struct metric_set *base)
{
	char a[64], t[64];
	const struct metric *m;
	bool header;
	unsigned int i;
	int k;

	if (base || opts.nr_baselines) {
		if (base)
			print_compare(base, "base", "new");
		for (k = 0; k < opts.nr_baselines; k++)
			print_compare(&baselines[k], opts.baseline_name[k],
				      "maple");
		return;
	}
	printf("\ntree: maple; *.mops: higher is better, the rest lower\n");
	printf("%16s  %s\n", "value", "metric");
	printf("---------------- ------------------------------\n");
	for (i = 0; i < results.nr; i++) {
		m = &results.m[i];
		if (strstr(m->name, ".insn_per_op"))
			continue;
		printf("%s  %s\n", fmt_value(a, sizeof(a), m), m->name);
	}

	/* The callgrind section, with the targets beside the counts. */
	for (i = 0, header = false; i < results.nr; i++) {
		m = &results.m[i];
		if (!strstr(m->name, ".insn_per_op"))
			continue;
		if (!header)
			printf("\n%16s  %s\n", "instructions/op", "metric");
		header = true;
		printf("%16.1f  %s%s\n", m->value, m->name,
		       fmt_target(t, sizeof(t), m));
	}
}

/* The verdicts print_table() weighed, where verdict_open() says. */
static void print_verdicts(void)
{
	FILE *f;
	int k;

	if (!nr_verdicts)
		return;
	f = verdict_open();
	for (k = 0; k < nr_verdicts; k++)
		verdict_print(f, &verdicts[k], "tree");
	verdict_close(f);
}

/* ------------------------------------------------------------------ */
/* Run identity and the JSON file                                      */
/* ------------------------------------------------------------------ */

static void write_json(void)
{
	char path[1024], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	unsigned int n;
	FILE *f;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* make bench names both its files, the tree's and mm/'s, alike. */
	if (getenv("BENCH_STAMP") && *getenv("BENCH_STAMP"))
		snprintf(stamp, sizeof(stamp), "%s", getenv("BENCH_STAMP"));
	if (mkdir(opts.out_dir, 0777) && errno != EEXIST)
		die("mkdir %s: %s", opts.out_dir, strerror(errno));
	for (n = 0; ; n++) {
		snprintf(path, sizeof(path), "%s/%s-%s%s%s%.0u.json",
			 opts.out_dir, stamp, results.commit,
			 results.quick ? "-quick" : "", n ? "-" : "", n);
		if (access(path, F_OK))
			break;
	}
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	json_write(f, &results);
	if (fclose(f))
		die("cannot write %s", path);
	printf("\nresults: %s\n", path);
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr,
"usage: bench_tree [options]\n"
"  --quick            3 repetitions, smaller sizes and batches (QUICK=1)\n"
"  --reps R           repetitions per measurement (default 7)\n"
"  --sizes A,B,...    numbers of ranges (default 100,1000,100000,1000000)\n"
"  --gap-sizes A,...  numbers of ranges for the gap search (default\n"
"                     100,10000,1000000; the --sizes if only those given)\n"
"  --batch N          lookups per measurement; writes use N/4\n"
"  --pages P          pages per range, 0 = vary 1..4 (default 1)\n"
"  --rcu-ms MS        run time of each RCU readers/writer measurement\n"
"                     (default 200, 30 with --quick)\n"
"  --flags F          tree flags (default %u: ALLOC_RANGE|USE_RCU)\n"
"  --base FILE        compare with an earlier run's JSON (BASE=FILE)\n"
"  --baseline NAME=FILE\n"
"                     one more table, \"NAME %%change maple\", against that\n"
"                     run's JSON, which the JSON written keeps (up to %d)\n"
"  --callgrind        also count instructions/op under callgrind\n"
"                     (CALLGRIND=1)\n"
"  --callgrind-only   only the callgrind counts\n"
"  --out-dir DIR      where the JSON goes (default bench-results)\n"
"  --merge FILE...    no measurement: the median of these runs' JSON\n"
"                     files, shown (against --base) and written as the\n"
"                     JSON of one run\n"
"  --no-json          do not write a JSON file\n"
"  --reads-only       only the reads: lookups, iteration, mt_find and\n"
"                     the gap search (for work on the read side)\n"
"  --ops NAME --count N [--size S]\n"
"                     run N operations NAME (mtree_load, mas_walk,\n"
"                     overwrite, iterate, empty_area_rev, mmap_cycle,\n"
"                     brk_cycle, overwrite_gfp, mmap_cycle_gfp,\n"
"                     brk_cycle_gfp) on S ranges and exit;\n"
"                     used by --callgrind\n",
		BENCH_DEFAULT_FLAGS, BENCH_MAX_BASELINES);
	exit(2);
}

static unsigned long parse_ulong(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end)
		die("bad %s: %s", what, s);
	return v;
}

static void parse_sizes(const char *s, unsigned long *sizes,
			unsigned int *nr)
{
	char *copy = strdup(s), *tok, *save = NULL;

	if (!copy)
		die("out of memory");
	*nr = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*nr == BENCH_MAX_SIZES)
			die("too many sizes");
		sizes[*nr] = parse_ulong(tok, "size");
		if (!sizes[*nr])
			die("a size must be at least 1");
		(*nr)++;
	}
	free(copy);
}

static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") && strcmp(v, "no");
}

static void parse_args(int argc, char **argv)
{
	bool reps_set = false, sizes_set = false, batch_set = false;
	bool gap_sizes_set = false, rcu_ms_set = false;
	const char *env;
	int i;

	opts.quick = env_true("QUICK");
	opts.callgrind = env_true("CALLGRIND");
	env = getenv("BASE");
	if (env && *env)
		opts.base = env;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

#define NEED_VALUE() do { if (!v) usage(); i++; } while (0)
		if (!strcmp(a, "--quick")) {
			opts.quick = true;
		} else if (!strcmp(a, "--reps")) {
			NEED_VALUE();
			opts.reps = parse_ulong(v, "--reps");
			reps_set = true;
		} else if (!strcmp(a, "--sizes")) {
			NEED_VALUE();
			parse_sizes(v, opts.sizes, &opts.nr_sizes);
			sizes_set = true;
		} else if (!strcmp(a, "--gap-sizes")) {
			NEED_VALUE();
			parse_sizes(v, opts.gap_sizes, &opts.nr_gap_sizes);
			gap_sizes_set = true;
		} else if (!strcmp(a, "--batch")) {
			NEED_VALUE();
			opts.batch = parse_ulong(v, "--batch");
			batch_set = true;
		} else if (!strcmp(a, "--pages")) {
			NEED_VALUE();
			opts.pages = parse_ulong(v, "--pages");
		} else if (!strcmp(a, "--rcu-ms")) {
			NEED_VALUE();
			opts.rcu_ms = parse_ulong(v, "--rcu-ms");
			rcu_ms_set = true;
		} else if (!strcmp(a, "--flags")) {
			NEED_VALUE();
			opts.mt_flags = parse_ulong(v, "--flags");
		} else if (!strcmp(a, "--base")) {
			NEED_VALUE();
			opts.base = v;
		} else if (!strcmp(a, "--baseline")) {
			const char *eq;

			NEED_VALUE();
			eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1] ||
			    opts.nr_baselines == BENCH_MAX_BASELINES)
				usage();
			opts.baseline_name[opts.nr_baselines] =
				strndup(v, eq - v);
			opts.baseline_file[opts.nr_baselines++] = eq + 1;
		} else if (!strcmp(a, "--callgrind")) {
			opts.callgrind = true;
		} else if (!strcmp(a, "--callgrind-only")) {
			opts.callgrind = true;
			opts.no_timing = true;
		} else if (!strcmp(a, "--out-dir")) {
			NEED_VALUE();
			opts.out_dir = v;
		} else if (!strcmp(a, "--no-json")) {
			opts.no_json = true;
		} else if (!strcmp(a, "--reads-only")) {
			opts.reads_only = true;
		} else if (!strcmp(a, "--merge")) {
			opts.merge = argv + i + 1;
			opts.nr_merge = argc - i - 1;
			if (!opts.nr_merge)
				usage();
			break;
		} else if (!strcmp(a, "--ops")) {
			NEED_VALUE();
			opts.loop_op = v;
		} else if (!strcmp(a, "--count")) {
			NEED_VALUE();
			opts.loop_count = parse_ulong(v, "--count");
		} else if (!strcmp(a, "--size")) {
			NEED_VALUE();
			opts.loop_size = parse_ulong(v, "--size");
		} else {
			usage();
		}
#undef NEED_VALUE
	}

	/* --sizes alone sets the sizes of the gap search too. */
	if (sizes_set && !gap_sizes_set) {
		memcpy(opts.gap_sizes, opts.sizes, sizeof(opts.sizes));
		opts.nr_gap_sizes = opts.nr_sizes;
	}
	if (opts.quick) {
		if (!reps_set)
			opts.reps = 3;
		if (!sizes_set) {
			opts.sizes[0] = 100;
			opts.sizes[1] = 1000;
			opts.sizes[2] = 100000;
			opts.nr_sizes = 3;
		}
		if (!batch_set)
			opts.batch = 100000;
		if (!rcu_ms_set)
			opts.rcu_ms = BENCH_RCU_QUICK_MS;
	}
	if (!opts.rcu_ms || opts.rcu_ms > 60000)
		die("--rcu-ms must be 1..60000");
	if (!opts.reps || opts.reps > 1000)
		die("--reps must be 1..1000");
	if (!opts.batch)
		die("--batch must be at least 1");
	if (opts.loop_size < BENCH_SPAN)
		die("--size must be at least %d", BENCH_SPAN);
	if (opts.loop_op && !opts.loop_count)
		die("--ops needs --count N");
}

/*
 * --merge: the runs' JSON files as one run: each metric the median of the
 * runs that have it, its spread the relative standard deviation of those
 * values (across runs, not within one).  Alternating runs of two builds
 * (make bench-upstream) and merging each build's runs gives ratios that a
 * burst of noise during one run does not decide.
 */
static void merge_runs(void)
{
	struct metric_set *in = xcalloc(opts.nr_merge, sizeof(*in));
	double *v = xcalloc(opts.nr_merge, sizeof(*v));
	const struct metric *m;
	unsigned int i, n;
	double med, rsd;
	int k, j;

	for (k = 0; k < opts.nr_merge; k++)
		json_load(opts.merge[k], &in[k]);
	memcpy(results.commit, in[0].commit, sizeof(results.commit));
	memcpy(results.date, in[0].date, sizeof(results.date));
	results.quick = in[0].quick;
	for (k = 0; k < opts.nr_merge; k++) {
		for (i = 0; i < in[k].nr; i++) {
			if (metric_find(&results, in[k].m[i].name))
				continue;
			for (n = 0, j = k; j < opts.nr_merge; j++) {
				m = metric_find(&in[j], in[k].m[i].name);
				if (m)
					v[n++] = m->value;
			}
			med = summarise(v, n, &rsd);
			metric_add(&results, med, n > 1 ? rsd : -1, "%s",
				   in[k].m[i].name);
		}
	}
	printf("merged %d runs of %s\n", opts.nr_merge, results.commit);
	free(v);
	free(in);
}

int main(int argc, char **argv)
{
	struct metric_set *base = NULL;
	time_t now = time(NULL);
	uint64_t t0 = now_ns();
	struct tm tm;
	unsigned int s;
	double clock_ns;
	int ret = 0;

	parse_args(argc, argv);

	maple_tree_init();

	if (opts.loop_op) {
		ret = run_loop();
		goto out;
	}

	/* Read the base first: a bad file should not cost a whole run. */
	if (opts.base) {
		base = xcalloc(1, sizeof(*base));
		json_load(opts.base, base);
	}
	if (opts.nr_baselines)
		baselines = xcalloc(opts.nr_baselines, sizeof(*baselines));
	for (s = 0; s < (unsigned int)opts.nr_baselines; s++)
		json_load(opts.baseline_file[s], &baselines[s]);

	if (opts.nr_merge) {
		merge_runs();
		goto show;
	}

	results.quick = opts.quick;
	bench_read_commit(results.commit, sizeof(results.commit));
	gmtime_r(&now, &tm);
	strftime(results.date, sizeof(results.date), "%Y-%m-%dT%H:%M:%SZ",
		 &tm);

	if (!opts.no_timing) {
		clock_ns = clock_overhead_ns();
		fprintf(stderr, "bench_tree: %u repetitions, %lu lookups and "
			"%lu writes per measurement, clock pair %.1f ns\n",
			opts.reps, opts.batch,
			opts.batch / 4 ? opts.batch / 4 : 1, clock_ns);
		for (s = 0; s < opts.nr_sizes; s++)
			bench_size(opts.sizes[s], clock_ns);
		for (s = 0; s < opts.nr_gap_sizes; s++)
			bench_gap(opts.gap_sizes[s]);
		if (!opts.reads_only) {
			bench_vma();
			bench_rcu();
		}
	}
	if (opts.callgrind)
		bench_callgrind();

show:
	print_table(base);
	print_verdicts();
	if (!opts.no_json)
		write_json();
	printf("runtime: %.2f s\n", (now_ns() - t0) / 1e9);
	for (s = 0; s < (unsigned int)nr_verdicts; s++)
		verdict_free(&verdicts[s]);
	free(baselines);
	free(base);
out:
	rcu_barrier();
	return ret;
}
