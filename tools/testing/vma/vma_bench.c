// SPDX-License-Identifier: GPL-2.0
/*
 * vma_bench - mm/ on the maple tree against the pre-6.1 rbtree (and, when
 * make bench found Debian's linux-source-6.1 or -6.12, against Linux
 * 6.1's or 6.12's own maple tree behind the same mm/), all in the same
 * run.
 *
 * The kernel test robot's workloads, as mm/ calls, timed for a fixed
 * time (--ms, default 100 ms; 20 with --quick) by 1 task and by nproc
 * tasks (the CPUs online, at least 2, at most 16), each a thread of this
 * program; the figure is operations per second per task, as will-it-scale
 * reports it:
 *   mmap1        mmap() of 128 MiB anonymous memory, munmap() of it
 *   mmap2        the same, MAP_SHARED of a file (mm/ models a file as an
 *                identity only: no page cache, no reverse map)
 *   brk1         the heap grows by a page from empty and shrinks back:
 *                a VMA added and removed (two brk() calls, two ops)
 *   brk2         the same above a heap of 33 pages: a VMA expanded and
 *                contracted (two ops)
 *   page_fault   a fault at random addresses of an mm of 60 or 2,000
 *                VMAs: the fault path's lookup
 *   page_test    aim9's: the heap grows by 64 pages, each page is
 *                write-faulted, the heap shrinks back (one op)
 *   Faults go as in Linux 6.4 and later (handle_fault_lockless()): the
 *   maple backends find and read-lock the VMA under RCU
 *   (lock_vma_under_rcu()) and take mmap_lock only if that fails; the
 *   rbtree, which came before per-VMA locks, takes mmap_lock for read.
 *   fork         dup_mmap() of an mm of 100 or 1,000 VMAs, mmput() of it
 *   execl        a new mm gets a process's 40 VMAs (an executable, six
 *                libraries mapped as ld.so maps them, heap, stack, vdso),
 *                then mmput()
 * The first five run on an mm that already holds the same process layout
 * (but page_fault, on its own VMAs); mmap1, brk1, brk2 and page_test
 * also run with 1,000 more VMAs below that layout (the ".1000vmas"
 * metrics: the same writes in a deeper tree).  Modes: "process", one mm per task,
 * and "thread", the tasks share one mm and its mmap_lock; with one task
 * both are the same, so thread mode is run with nproc tasks only, and
 * page_test, fork and execl (whose loops assume they own the mm) in
 * process mode only.  In thread mode the brk workloads do what
 * will-it-scale's threads do: every task sets the shared heap's break to
 * the same absolute addresses, so a task may find the break already where
 * it sets it (brk() then succeeds without a change).
 *
 * And the older micro-workloads, timed by operation count, in ns/op, on
 * an address space of 100 or 1,000 VMAs (4 pages each, 128 KiB apart):
 *   vma.mmap-munmap     mmap() of 32 anonymous pages without an address,
 *                       munmap() of it
 *   vma.mmap-munmap-hole  the same into a hole of exactly 32 pages between
 *                       two read-only VMAs at the top of the mmap area:
 *                       on the maple backends both tree writes are then
 *                       one slot's store, no leaf copied (the write path
 *                       without its leaf copies); on the rbtree, the same
 *                       link and erase
 *   vma.fault           handle_fault(): mmap_read_lock, find_vma, check
 *   vma.fault-lockless  handle_fault_lockless(): lock_vma_under_rcu() on
 *                       the maple backends, the same as fault on rbtree
 *   vma.iterate         every VMA in order under mmap_read_lock:
 *                       for_each_vma(), or the rbtree's vm_next list
 *
 * Every measurement is repeated --runs times (7; 3 with --quick), the
 * backends alternating (A B C, B C A, C A B, ...) so that a burst of noise
 * on this shared machine lands on each in turn.  A value is the median of
 * its rounds, ±N% their standard deviation relative to the mean, and
 * %change that of the two medians printed, maple against the baseline.
 *
 * Output: the kernel test robot's table, "rbtree %change maple metric",
 * then "upstream-6.1 %change maple metric" (the backend "upstream") and
 * "upstream-6.12 %change maple metric", each under a line naming the
 * baseline and which way is better, on stdout; then the verdict against
 * each (verdict.c: rows ahead, level and behind, and the rows behind), or
 * into the file $BENCH_VERDICT names, where make bench collects the tree's
 * and mm/'s to print them at its end; the same data as JSON
 * in bench-results/<stamp>-<commit>[-quick]-mm.json (BENCH_STAMP names
 * the stamp, so make bench gives the tree's file and this one the same).
 * With --base FILE, a third table compares this run's maple column with
 * that of an earlier run ("base %change new"); FILE may also be the
 * tree-level JSON of the same make bench run, whose "-mm" sibling is read.
 * Progress goes to stderr.
 *
 * With --callgrind, instructions per op of the micro-workloads: the
 * program runs itself under valgrind's callgrind with N and 2N operations
 * and divides the difference by N, so the setup cancels out.
 *
 * The critical section: what runs with mmap_lock held for write, per
 * operation, for every workload that takes it so (all but page_fault,
 * vma.fault* and vma.iterate, which take it for read), in rounds of
 * their own after all the others, with <linux/lock_stat.h> timing each
 * task's holds: ns per op in 1-task process mode and, where a workload
 * has it, thread mode; there, the Amdahl ceiling, 1 s over the ns per op
 * (no number of threads can do more operations a second between them),
 * and how close the threads came to it.  The hold time of an empty hold,
 * measured before each round, is subtracted once per hold.  With
 * --callgrind, the same section's instructions per op (1 task), counted
 * inside lock_stat's bracket under callgrind (--one-cs).  Printed as a
 * table after the robot's, in the JSON under "cs_metrics" and
 * "cs_rsd_pct"; in no verdict.  --no-cs leaves it out.
 *
 * Usage: vma_bench [--quick] [--runs N] [--ms N] [--filter STR]
 *                  [--base FILE] [--no-json] [--out-dir DIR] [--callgrind]
 *                  [--no-cs]
 *        vma_bench --one BACKEND WORKLOAD VMAS OPS   (what callgrind runs)
 *        vma_bench --one-cs BACKEND NAME ITERS       (the same, for the
 *                                                     critical section)
 *
 * Conventions: ops a backend's entry points, mm an address space (opaque),
 * t a task, wl a workload, b a backend's index, r a round.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/lock_stat.h>
#include <linux/maple_tree.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND_H	1
#endif

#include "bench_ops.h"
#include "../bench/bench_commit.h"
#include "../bench/critical.h"
/* One source per program (tools/testing/vma/rules.mk): included, not linked. */
#include "../bench/verdict.c"
#include "../bench/robot_table.c"

#define B_PAGE		4096UL
#define B_BASE		0x10000000UL
#define B_STEP		0x20000UL
#define B_VMA_LEN	(4 * B_PAGE)
#define B_MAP_LEN	(32 * B_PAGE)
#define B_ADDRS		4096
#define B_MMAP1_LEN	(128UL << 20)
#define B_HEAP_PAGES	33
#define B_PAGE_TEST	64
#define B_MAX_RUNS	99
#define B_MAX_TASKS	16
#define B_MAX_METRICS	192
#define B_NAME_LEN	80
#define B_BASE_LEN	(B_NAME_LEN - 32)	/* a name without its unit */

#define RW	(BENCH_PROT_READ | BENCH_PROT_WRITE)
#define RO	BENCH_PROT_READ
#define RX	(BENCH_PROT_READ | BENCH_PROT_EXEC)

static inline bool b_err(unsigned long a)
{
	return a >= (unsigned long)-4095;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "vma_bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- the backends of this run: maple first, the baselines after ---- */

#define B_MAX_BACKENDS	4

static const struct vma_bench_ops *backends[B_MAX_BACKENDS];
static int nr_backends;

static const struct vma_bench_ops *backend_by_name(const char *name)
{
	int b;

	for (b = 0; b < nr_backends; b++)
		if (!strcmp(backends[b]->name, name))
			return backends[b];
	return NULL;
}

/* ---- address-space layouts ---- */

/* A file's identity: mm/ only compares vm_file. */
static const void *file_id(int i)
{
	static char files[16];

	return &files[i];
}

/* @nr VMAs of 4 pages, 128 KiB apart from B_BASE, every other writable. */
static void populate(const struct vma_bench_ops *ops, void *mm,
		     unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		if (ops->mmap(mm, NULL, B_BASE + i * B_STEP, B_VMA_LEN,
			      i & 1 ? RW : RO, BENCH_MAP_FIXED, 0) !=
		    B_BASE + i * B_STEP)
			die("%s: setup mmap failed", ops->name);
	if ((unsigned long)ops->map_count(mm) != nr)
		die("%s: %d VMAs, wanted %lu", ops->name, ops->map_count(mm),
		    nr);
}

/*
 * An ELF object as ld.so maps it: the whole span read-only, the text made
 * executable, the data mapped over the end from further on in the file
 * (its page offset jumps, so it never merges with what is before it) and
 * its first page made read-only again (RELRO).  Five VMAs:
 * r--, r-x, r--, r-- (relro), rw-.  Return: the address of the object.
 */
static unsigned long map_object(const struct vma_bench_ops *ops, void *mm,
				const void *file, unsigned long addr,
				unsigned long text, unsigned long ro)
{
	unsigned long span = (1 + text + ro + 2) * B_PAGE;
	unsigned long data = (1 + text + ro) * B_PAGE;

	addr = ops->mmap(mm, file, addr, span, RO,
			 addr ? BENCH_MAP_FIXED : 0, 0);
	if (b_err(addr) ||
	    ops->mprotect(mm, addr + B_PAGE, text * B_PAGE, RX) ||
	    ops->mmap(mm, file, addr + data, 2 * B_PAGE, RW, BENCH_MAP_FIXED,
		      data / B_PAGE + 7) != addr + data ||
	    ops->mprotect(mm, addr + data, B_PAGE, RO))
		die("%s: cannot map an object", ops->name);
	return addr;
}

#define B_PROCESS_VMAS	40
#define B_PROCESS_NOHEAP (B_PROCESS_VMAS - 1)

/*
 * A small process, mapped in the order exec and ld.so map it: the
 * stack (highest), vvar and vdso, the executable at 4 MiB with its bss,
 * the heap (with @heap: B_HEAP_PAGES pages) and six libraries placed
 * top-down below the vdso.  Return: the number of VMAs (40, or 39
 * without the heap).
 */
static int build_process(const struct vma_bench_ops *ops, void *mm, bool heap)
{
	static const unsigned short lib_pages[6][2] = {
		{ 40, 8 }, { 400, 100 }, { 24, 6 }, { 16, 4 }, { 60, 20 },
		{ 8, 2 },
	};
	unsigned long exe, brk;
	int i;

	if (b_err(ops->mmap(mm, NULL, 0, 33 * B_PAGE, RW, 0, 0)) ||
	    b_err(ops->mmap(mm, NULL, 0, 4 * B_PAGE, RO, 0, 0)) ||
	    b_err(ops->mmap(mm, NULL, 0, 2 * B_PAGE, RX, 0, 0)))
		die("%s: cannot map the stack or vdso", ops->name);
	exe = map_object(ops, mm, file_id(0), 0x400000, 80, 20);
	if (ops->mmap(mm, NULL, exe + 103 * B_PAGE, 4 * B_PAGE, RW,
		      BENCH_MAP_FIXED, 0) != exe + 103 * B_PAGE)
		die("%s: cannot map the bss", ops->name);
	if (heap) {
		brk = ops->start_brk(mm) + B_HEAP_PAGES * B_PAGE;
		if (ops->brk(mm, brk) != brk)
			die("%s: cannot grow the heap", ops->name);
	}
	for (i = 0; i < 6; i++)
		map_object(ops, mm, file_id(1 + i), 0, lib_pages[i][0],
			   lib_pages[i][1]);
	return ops->map_count(mm);
}

/* ---- the robot's workloads: fixed time, ops/s per task ---- */

/*
 * A task's state is written on every iteration (rng, a), so each task has
 * cache lines of its own: two tasks in one line, or in the adjacent line
 * that the CPU fetches in pairs, would add a line transfer to every
 * operation of both, which will-it-scale's tasks do not pay.
 */
#define TASK_ALIGN	128

struct task {
	const struct vma_bench_ops *ops;
	const struct robot_wl *wl;
	void *mm;
	unsigned long a;	/* workload state: a brk, an address */
	unsigned long long rng;	/* 64-bit xorshift, on 32-bit builds too */
	unsigned long done;	/* operations in the timed part */
	double t_end;
	struct lock_stat_holds cs;	/* its write holds of mmap_lock then */
	int err;
	pthread_t thread;
} __attribute__((aligned(TASK_ALIGN)));

#define MODE_P1		0x1	/* process mode, 1 task */
#define MODE_PN		0x2	/* process mode, nr_tasks_n tasks */
#define MODE_TN		0x4	/* thread mode, nr_tasks_n tasks, one mm */

/* The "nproc" of the modes: the CPUs online, at least 2, at most 16. */
static int nr_tasks_n = 2;

struct robot_wl {
	const char *suite;	/* first part of the metric's name, or NULL */
	const char *name;
	unsigned long nr;	/* VMAs of its own layout (0: none) */
	unsigned int modes;
	unsigned int ops_per_iter;
	/* Fill a new mm (once per mm; NULL: the process layout). */
	void (*prepare_mm)(const struct vma_bench_ops *ops, void *mm,
			   unsigned long nr);
	/* Per task, after its mm is ready (may be NULL). */
	void (*prepare)(struct task *t, int idx);
	/* One iteration; 0, or -1 if something failed. */
	int (*iter)(struct task *t);
};

static void prep_process(const struct vma_bench_ops *ops, void *mm,
			 unsigned long nr)
{
	(void)nr;
	if (build_process(ops, mm, false) != B_PROCESS_NOHEAP)
		die("%s: the process layout has %d VMAs, not %d", ops->name,
		    ops->map_count(mm), B_PROCESS_NOHEAP);
}

/*
 * The process layout and @nr more VMAs below it (populate()'s: 4 pages,
 * 128 KiB apart), so that the loops run in a tree of 1,000 VMAs and more.
 */
static void prep_process_vmas(const struct vma_bench_ops *ops, void *mm,
			      unsigned long nr)
{
	unsigned long i;

	prep_process(ops, mm, 0);
	for (i = 0; i < nr; i++)
		if (ops->mmap(mm, NULL, B_BASE + i * B_STEP, B_VMA_LEN,
			      i & 1 ? RW : RO, BENCH_MAP_FIXED, 0) !=
		    B_BASE + i * B_STEP)
			die("%s: setup mmap failed", ops->name);
	if ((unsigned long)ops->map_count(mm) != B_PROCESS_NOHEAP + nr)
		die("%s: %d VMAs, wanted %lu", ops->name, ops->map_count(mm),
		    B_PROCESS_NOHEAP + nr);
}

static void prep_none(const struct vma_bench_ops *ops, void *mm,
		      unsigned long nr)
{
	(void)ops;
	(void)mm;
	(void)nr;
}

static int iter_mmap1(struct task *t)
{
	unsigned long a = t->ops->mmap(t->mm, NULL, 0, B_MMAP1_LEN, RW, 0, 0);

	if (b_err(a))
		return -1;
	return t->ops->munmap(t->mm, a, B_MMAP1_LEN) ? -1 : 0;
}

static int iter_mmap2(struct task *t)
{
	unsigned long a = t->ops->mmap(t->mm, file_id(8), 0, B_MMAP1_LEN, RW,
				       BENCH_MAP_SHARED, 0);

	if (b_err(a))
		return -1;
	return t->ops->munmap(t->mm, a, B_MMAP1_LEN) ? -1 : 0;
}

/*
 * brk1: the heap is empty, t->a its start.  In thread mode every task has
 * the same t->a, as will-it-scale's threads of one process do.
 */
static void prep_brk1(struct task *t, int idx)
{
	(void)idx;
	t->a = t->ops->start_brk(t->mm);
}

/* brk2: a heap of B_HEAP_PAGES pages; t->a its end. */
static void prep_brk2(struct task *t, int idx)
{
	(void)idx;
	t->a = t->ops->start_brk(t->mm) + B_HEAP_PAGES * B_PAGE;
	if (t->ops->brk(t->mm, t->a) != t->a)
		die("%s: cannot grow the heap", t->ops->name);
}

static int iter_brk(struct task *t)
{
	if (t->ops->brk(t->mm, t->a + B_PAGE) != t->a + B_PAGE ||
	    t->ops->brk(t->mm, t->a) != t->a)
		return -1;
	return 0;
}

static void prep_page_fault(struct task *t, int idx)
{
	t->rng = 0x9e3779b97f4a7c15ULL * (idx + 1);
}

static int iter_page_fault(struct task *t)
{
	unsigned long long x = t->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	t->rng = x;
	return t->ops->fault_lockless(t->mm, B_BASE +
				      ((x >> 20) % t->wl->nr) * B_STEP +
				      (x & (B_VMA_LEN - 1)), false) ? -1 : 0;
}

static void prep_page_test(struct task *t, int idx)
{
	prep_brk2(t, idx);
}

static int iter_page_test(struct task *t)
{
	unsigned long end = t->a + B_PAGE_TEST * B_PAGE, p;

	if (t->ops->brk(t->mm, end) != end)
		return -1;
	for (p = t->a; p < end; p += B_PAGE)
		if (t->ops->fault_lockless(t->mm, p, true))
			return -1;
	return t->ops->brk(t->mm, t->a) == t->a ? 0 : -1;
}

static int iter_fork(struct task *t)
{
	void *child = t->ops->fork(t->mm);

	if (!child)
		return -1;
	t->ops->mm_put(child);
	return 0;
}

static int iter_execl(struct task *t)
{
	void *mm = t->ops->mm_new();

	if (!mm)
		return -1;
	if (build_process(t->ops, mm, true) != B_PROCESS_VMAS)
		return -1;
	t->ops->mm_put(mm);
	return 0;
}

static const struct robot_wl robot_wls[] = {
	{ "will-it-scale", "mmap1", 0, MODE_P1 | MODE_PN | MODE_TN, 1,
	  prep_process, NULL, iter_mmap1 },
	{ "will-it-scale", "mmap2", 0, MODE_P1 | MODE_PN | MODE_TN, 1,
	  prep_process, NULL, iter_mmap2 },
	{ "will-it-scale", "brk1", 0, MODE_P1 | MODE_PN | MODE_TN, 2,
	  prep_process, prep_brk1, iter_brk },
	{ "will-it-scale", "brk2", 0, MODE_P1 | MODE_PN | MODE_TN, 2,
	  prep_process, prep_brk2, iter_brk },
	{ "will-it-scale", "mmap1", 1000, MODE_P1 | MODE_PN | MODE_TN, 1,
	  prep_process_vmas, NULL, iter_mmap1 },
	{ "will-it-scale", "brk1", 1000, MODE_P1 | MODE_PN, 2,
	  prep_process_vmas, prep_brk1, iter_brk },
	{ "will-it-scale", "brk2", 1000, MODE_P1 | MODE_PN, 2,
	  prep_process_vmas, prep_brk2, iter_brk },
	{ "will-it-scale", "page_fault", 60, MODE_P1 | MODE_PN | MODE_TN, 1,
	  populate, prep_page_fault, iter_page_fault },
	{ "will-it-scale", "page_fault", 2000, MODE_P1 | MODE_PN | MODE_TN, 1,
	  populate, prep_page_fault, iter_page_fault },
	{ "aim9", "page_test", 0, MODE_P1 | MODE_PN, 1,
	  prep_process, prep_page_test, iter_page_test },
	{ "aim9", "page_test", 1000, MODE_P1 | MODE_PN, 1,
	  prep_process_vmas, prep_page_test, iter_page_test },
	{ NULL, "fork", 100, MODE_P1 | MODE_PN, 1,
	  populate, NULL, iter_fork },
	{ NULL, "fork", 1000, MODE_P1 | MODE_PN, 1,
	  populate, NULL, iter_fork },
	{ "unixbench", "execl", 0, MODE_P1 | MODE_PN, 1,
	  prep_none, NULL, iter_execl },
};

#define NR_ROBOT_WLS	ARRAY_SIZE(robot_wls)
#define WARM_ITERS	4

static int bench_ready, bench_go, bench_stop;
static double bench_t0;
/* The rounds time mmap_lock's write holds (lock_stat is on). */
static bool bench_cs;

static void *task_main(void *arg)
{
	struct task *t = arg;
	unsigned long n = 0;
	int i, err = 0;

	for (i = 0; i < WARM_ITERS && !err; i++)
		err = t->wl->iter(t);
	if (bench_cs)
		lock_stat_reset();
	__atomic_add_fetch(&bench_ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&bench_go, __ATOMIC_ACQUIRE))
		sched_yield();
	while (!err && !__atomic_load_n(&bench_stop, __ATOMIC_RELAXED)) {
		err = t->wl->iter(t);
		n++;
	}
	t->err = err;
	t->t_end = now_ns();
	t->done = n * t->wl->ops_per_iter;
	if (bench_cs)
		lock_stat_read(&t->cs);
	return NULL;
}

/* ---- the critical section: mmap_lock held for write ---- */

/* The lock class of mm->mmap_lock, as its initializer names it. */
#define CS_CLASS	"&mm->mmap_lock"
#define CS_EMPTY_HOLDS	2000
#define CS_EMPTY_BATCHES 5
#define CS_MAX_EMPTY	4096

/* Every empty-hold measurement of the run, for the median printed. */
static double cs_empty[CS_MAX_EMPTY];
static int nr_cs_empty;

static struct rw_semaphore cs_empty_sem;

/*
 * ns of an empty timed hold on this thread: down_write() and up_write()
 * of a lock of mmap_lock's class with nothing between, the median of
 * CS_EMPTY_BATCHES batches.  What every timed hold has in it besides the
 * locked code.  lock_stat is on; the thread's totals are zeroed after.
 */
static double cs_empty_hold_ns(void)
{
	double v[CS_EMPTY_BATCHES], e;
	struct lock_stat_holds h;
	int i, k;

	for (k = 0; k < CS_EMPTY_BATCHES; k++) {
		lock_stat_reset();
		for (i = 0; i < CS_EMPTY_HOLDS; i++) {
			down_write(&cs_empty_sem);
			up_write(&cs_empty_sem);
		}
		lock_stat_read(&h);
		if (h.nr != CS_EMPTY_HOLDS)
			die("lock_stat timed %lu of %d empty holds", h.nr,
			    CS_EMPTY_HOLDS);
		v[k] = (double)h.holdtime_ns / h.nr;
	}
	lock_stat_reset();
	e = robot_median(v, CS_EMPTY_BATCHES);
	if (nr_cs_empty < CS_MAX_EMPTY)
		cs_empty[nr_cs_empty++] = e;
	return e;
}

static void cs_start(void)
{
	lock_stat_start(CS_CLASS);
	bench_cs = true;
}

static void cs_stop(void)
{
	bench_cs = false;
	lock_stat_stop();
}

/* @holds write holds in @ops operations of @what: none is a broken probe. */
static void cs_check(const struct vma_bench_ops *ops, const char *what,
		     unsigned long holds, double n)
{
	if (!holds && n > 0)
		die("%s: %s took no write hold of %s (has its initializer "
		    "changed?)", ops->name, what, CS_CLASS);
}

/*
 * One measurement: operations per second per task over @ms; with @cs_ns,
 * the rounds time mmap_lock's write holds instead and *@cs_ns is the
 * critical section per operation, in ns (all tasks' holds over all their
 * operations).
 */
static double robot_run(const struct vma_bench_ops *ops,
			const struct robot_wl *wl, int mode, unsigned int ms,
			double *cs_ns)
{
	int i, nr_tasks = mode == MODE_P1 ? 1 : nr_tasks_n;
	int nr_mm = mode == MODE_TN ? 1 : nr_tasks;
	struct task tasks[B_MAX_TASKS] = { };
	void *mms[B_MAX_TASKS];
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	double rate = 0, empty = 0, hold_ns = 0, done = 0;
	unsigned long holds = 0;

	bench_ready = bench_go = bench_stop = 0;
	for (i = 0; i < nr_mm; i++) {
		mms[i] = ops->mm_new();
		if (!mms[i])
			die("%s: mm_new failed", ops->name);
		wl->prepare_mm(ops, mms[i], wl->nr);
	}
	for (i = 0; i < nr_tasks; i++) {
		tasks[i].ops = ops;
		tasks[i].wl = wl;
		tasks[i].mm = mms[i % nr_mm];
		if (wl->prepare)
			wl->prepare(&tasks[i], i);
	}
	if (cs_ns) {
		cs_start();
		empty = cs_empty_hold_ns();
	}
	for (i = 0; i < nr_tasks; i++)
		if (pthread_create(&tasks[i].thread, NULL, task_main,
				   &tasks[i]))
			die("pthread_create failed");
	while (__atomic_load_n(&bench_ready, __ATOMIC_ACQUIRE) < nr_tasks)
		sched_yield();
	bench_t0 = now_ns();
	__atomic_store_n(&bench_go, 1, __ATOMIC_RELEASE);
	nanosleep(&ts, NULL);
	__atomic_store_n(&bench_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nr_tasks; i++) {
		pthread_join(tasks[i].thread, NULL);
		if (tasks[i].err)
			die("%s: %s failed", ops->name, wl->name);
		rate += tasks[i].done * 1e9 / (tasks[i].t_end - bench_t0);
		hold_ns += tasks[i].cs.holdtime_ns;
		holds += tasks[i].cs.nr;
		done += tasks[i].done;
	}
	if (cs_ns) {
		cs_stop();
		cs_check(ops, wl->name, holds, done);
		*cs_ns = cs_per_op(hold_ns, holds, empty, done);
	}
	for (i = 0; i < nr_mm; i++)
		ops->mm_put(mms[i]);
	return rate / nr_tasks;
}

static double robot_measure(const struct vma_bench_ops *ops,
			    const struct robot_wl *wl, int mode,
			    unsigned int ms)
{
	return robot_run(ops, wl, mode, ms, NULL);
}

/* Does @wl take mmap_lock for write?  page_fault takes it for read only. */
static bool robot_writes(const struct robot_wl *wl)
{
	return wl->iter != iter_page_fault;
}

/* ---- the micro-workloads: fixed count, ns/op ---- */

static const char * const micro_wls[] = {
	"mmap-munmap", "fault", "fault-lockless", "iterate",
	"mmap-munmap-hole",
};

#define NR_MICRO_WLS	ARRAY_SIZE(micro_wls)
#define MICRO_HOLE	4

/* The micro-workloads that mmap() and munmap(): fewer, costlier ops. */
static bool micro_maps(int w)
{
	return w == 0 || w == MICRO_HOLE;
}

static const unsigned long micro_sizes[] = { 100, 1000 };

static unsigned long addrs[B_ADDRS];

/*
 * vma.mmap-munmap-hole's hole: a VMA at the top of the mmap area, one 36
 * pages below it, both read-only (so the mapping does not merge with
 * them): the top-down search puts every mmap() of 32 pages between them.
 */
static void micro_hole(const struct vma_bench_ops *ops, void *mm)
{
	unsigned long top = ops->mmap(mm, NULL, 0, B_VMA_LEN, RO, 0, 0);
	unsigned long below = top - B_MAP_LEN - B_VMA_LEN;

	if (b_err(top) ||
	    ops->mmap(mm, NULL, below, B_VMA_LEN, RO, BENCH_MAP_FIXED, 0) !=
	    below ||
	    ops->mmap(mm, NULL, 0, B_MAP_LEN, RW, 0, 0) != below + B_VMA_LEN ||
	    ops->munmap(mm, below + B_VMA_LEN, B_MAP_LEN))
		die("%s: cannot make the hole for mmap-munmap-hole", ops->name);
}

static void *micro_setup(const struct vma_bench_ops *ops, int w,
			 unsigned long nr)
{
	void *mm = ops->mm_new();
	unsigned long long seed = 12345;
	unsigned long i;

	if (!mm)
		die("%s: mm_new failed", ops->name);
	populate(ops, mm, nr);
	if (w == MICRO_HOLE)
		micro_hole(ops, mm);
	for (i = 0; i < B_ADDRS; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		addrs[i] = B_BASE + ((seed >> 33) % nr) * B_STEP +
			   ((seed >> 13) % B_VMA_LEN);
	}
	return mm;
}

/* The measured loops; out of line so they show up as such in a profile. */
static noinline int loop_mmap(const struct vma_bench_ops *ops, void *mm,
			      unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		unsigned long a = ops->mmap(mm, NULL, 0, B_MAP_LEN, RW, 0, 0);

		if (b_err(a) || ops->munmap(mm, a, B_MAP_LEN))
			return -1;
	}
	return 0;
}

static noinline int loop_fault(const struct vma_bench_ops *ops, void *mm,
			       unsigned long n, bool lockless)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		unsigned long addr = addrs[i & (B_ADDRS - 1)];

		if (lockless ? ops->fault_lockless(mm, addr, false) :
			       ops->fault(mm, addr, false))
			return -1;
	}
	return 0;
}

/* @n VMAs visited, in whole passes (the last one may go past @n). */
static noinline int loop_iterate(const struct vma_bench_ops *ops, void *mm,
				 unsigned long n)
{
	unsigned long seen = 0, nr = ops->map_count(mm);

	while (seen < n) {
		if (ops->iterate(mm) != nr)
			return -1;
		seen += nr;
	}
	return 0;
}

static int micro_run(const struct vma_bench_ops *ops, int w, void *mm,
		     unsigned long n)
{
	if (micro_maps(w))
		return loop_mmap(ops, mm, n);
	if (w == 3)
		return loop_iterate(ops, mm, n);
	return loop_fault(ops, mm, n, w == 2);
}

static double micro_measure(const struct vma_bench_ops *ops, int w,
			    unsigned long nr, unsigned long n)
{
	void *mm = micro_setup(ops, w, nr);
	double t0, t1;

	micro_run(ops, w, mm, n / 10);	/* warm up */
	t0 = now_ns();
	if (micro_run(ops, w, mm, n))
		die("%s: %s failed", ops->name, micro_wls[w]);
	t1 = now_ns();
	ops->mm_put(mm);
	return (t1 - t0) / n;
}

/* The critical section of micro-workload @w (mmap-munmap), ns per op. */
static double micro_measure_cs(const struct vma_bench_ops *ops, int w,
			       unsigned long nr, unsigned long n)
{
	void *mm = micro_setup(ops, w, nr);
	struct lock_stat_holds h;
	double empty;

	micro_run(ops, w, mm, n / 10);	/* warm up */
	cs_start();
	empty = cs_empty_hold_ns();
	if (micro_run(ops, w, mm, n))
		die("%s: %s failed", ops->name, micro_wls[w]);
	lock_stat_read(&h);
	cs_stop();
	ops->mm_put(mm);
	cs_check(ops, micro_wls[w], h.nr, n);
	return cs_per_op(h.holdtime_ns, h.nr, empty, n);
}

/* ---- callgrind ---- */

/*
 * Wait for the callgrind child @pid and read the instructions it counted
 * from its output file @out (then removed) into *@ir.
 */
static int callgrind_total(pid_t pid, const char *out, double *ir)
{
	char line[512];
	int status;
	FILE *f;

	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	f = fopen(out, "r");
	if (!f)
		return -1;
	*ir = -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7))
			*ir = strtod(strchr(line, ':') + 1, NULL);
	fclose(f);
	unlink(out);
	return *ir < 0 ? -1 : 0;
}

static int callgrind_ir(const char *self, const char *backend, int w,
			unsigned long nr, unsigned long n, double *ir)
{
	char out[256], arg_n[32], arg_nr[32];
	pid_t pid;

	snprintf(out, sizeof(out), "/tmp/vma_bench.%d.%s.%d.%lu.%lu",
		 (int)getpid(), backend, w, nr, n);
	snprintf(arg_n, sizeof(arg_n), "%lu", n);
	snprintf(arg_nr, sizeof(arg_nr), "%lu", nr);
	pid = fork();
	if (pid == 0) {
		char file_arg[300];

		snprintf(file_arg, sizeof(file_arg), "--callgrind-out-file=%s",
			 out);
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("valgrind", "valgrind", "--tool=callgrind", file_arg,
		       self, "--one", backend, micro_wls[w], arg_nr, arg_n,
		       (char *)NULL);
		_exit(127);
	}
	return callgrind_total(pid, out, ir);
}

static double insn_per_op(const char *self, const char *backend, int w,
			  unsigned long nr)
{
	unsigned long n = micro_maps(w) ? 2000 : 20000;
	double ir1, ir2;

	if (callgrind_ir(self, backend, w, nr, n, &ir1) ||
	    callgrind_ir(self, backend, w, nr, 2 * n, &ir2))
		return -1;
	return (ir2 - ir1) / n;
}

static int one(char **argv)
{
	const struct vma_bench_ops *ops = backend_by_name(argv[0]);
	unsigned long nr = strtoul(argv[2], NULL, 0);
	unsigned long n = strtoul(argv[3], NULL, 0);
	unsigned int i;
	int w = -1;
	void *mm;

	for (i = 0; i < NR_MICRO_WLS; i++)
		if (!strcmp(argv[1], micro_wls[i]))
			w = i;
	if (!ops || w < 0)
		return 2;
	mm = micro_setup(ops, w, nr);
	if (micro_run(ops, w, mm, n))
		return 1;
	ops->mm_put(mm);
	return 0;
}

/* ---- callgrind: the critical section's instructions ---- */

/*
 * Started with --collect-atstart=no, callgrind counts between the two
 * calls of each timed hold: lock_stat's bracket around the locked code.
 */
#ifdef HAVE_CALLGRIND_H
static void cs_callgrind_bracket(bool begin)
{
	(void)begin;
	CALLGRIND_TOGGLE_COLLECT;
}
#endif

/* "<workload>[.<N>vmas].<mode>.<tasks>": a metric's name up to its unit. */
static void robot_name(char *buf, size_t size, const struct robot_wl *wl,
		       int mode);

static void cs_base(char *buf, size_t size, const struct robot_wl *wl,
		    int mode)
{
	char *p;

	robot_name(buf, size, wl, mode);
	p = strstr(buf, ".per_");
	if (p)
		*p = '\0';
}

/* The micro-workload of the critical section: mmap-munmap. */
#define CS_MICRO	0

/*
 * --one-cs BACKEND NAME ITERS: under callgrind, @ITERS iterations of
 * NAME with lock_stat's bracket on: "empty" (empty holds of mmap_lock's
 * class), a robot workload as cs_base() names it (1 task), or
 * "vma.mmap-munmap.<N>vmas".  Prints the holds timed, "holds N".  Each
 * iteration ends with rcu_barrier(), outside the section: every RCU
 * callback has run, so the next one finds the same slab caches whenever
 * valgrind lets the grace-period thread run, and the count repeats.
 */
static int one_cs(char **argv)
{
	const struct vma_bench_ops *ops = backend_by_name(argv[0]);
	unsigned long iters = strtoul(argv[2], NULL, 0), i;
	const struct robot_wl *wl = NULL;
	struct task t = { };
	struct lock_stat_holds h;
	char name[B_NAME_LEN];
	unsigned int k, s;
	int err = 0;

	if (!ops)
		return 2;
#ifdef HAVE_CALLGRIND_H
	lock_stat_hold_hook = cs_callgrind_bracket;
#endif
	if (!strcmp(argv[1], "empty")) {
		lock_stat_start(CS_CLASS);
		for (i = 0; i < iters; i++) {
			down_write(&cs_empty_sem);
			up_write(&cs_empty_sem);
		}
		goto out;
	}
	for (s = 0; s < ARRAY_SIZE(micro_sizes); s++) {
		snprintf(name, sizeof(name), "vma.%s.%luvmas",
			 micro_wls[CS_MICRO], micro_sizes[s]);
		if (!strcmp(argv[1], name)) {
			void *mm = micro_setup(ops, CS_MICRO,
					       micro_sizes[s]);

			lock_stat_start(CS_CLASS);
			for (i = 0; i < iters && !err; i++) {
				err = micro_run(ops, CS_MICRO, mm, 1);
				rcu_barrier();
			}
			lock_stat_stop();
			ops->mm_put(mm);
			goto out;
		}
	}
	for (k = 0; k < NR_ROBOT_WLS; k++) {
		cs_base(name, sizeof(name), &robot_wls[k], MODE_P1);
		if (!strcmp(argv[1], name))
			wl = &robot_wls[k];
	}
	if (!wl)
		return 2;
	t.ops = ops;
	t.wl = wl;
	t.mm = ops->mm_new();
	if (!t.mm)
		return 1;
	wl->prepare_mm(ops, t.mm, wl->nr);
	if (wl->prepare)
		wl->prepare(&t, 0);
	for (i = 0; i < WARM_ITERS && !err; i++)
		err = wl->iter(&t);
	lock_stat_start(CS_CLASS);
	for (i = 0; i < iters && !err; i++) {
		err = wl->iter(&t);
		rcu_barrier();
	}
	lock_stat_stop();
	ops->mm_put(t.mm);
out:
	lock_stat_stop();
	lock_stat_read(&h);
	printf("holds %lu\n", h.nr);
	return err ? 1 : 0;
}

/*
 * Instructions callgrind counted in lock_stat's bracket while --one-cs
 * ran @name @iters times on @backend, and the holds it timed.
 */
static int cs_callgrind_ir(const char *self, const char *backend,
			   const char *name, unsigned long iters, double *ir,
			   double *holds)
{
	char out[256], arg_n[32], line[512], file_arg[300];
	unsigned long nr = 0;
	int fd[2];
	FILE *f;
	pid_t pid;

	snprintf(out, sizeof(out), "/tmp/vma_bench.%d.cs.%s.%lu",
		 (int)getpid(), backend, iters);
	snprintf(file_arg, sizeof(file_arg), "--callgrind-out-file=%s", out);
	snprintf(arg_n, sizeof(arg_n), "%lu", iters);
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		if (dup2(fd[1], 1) < 0 || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("valgrind", "valgrind", "--tool=callgrind",
		       "--collect-atstart=no", file_arg, self, "--one-cs",
		       backend, name, arg_n, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	f = pid < 0 ? NULL : fdopen(fd[0], "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "holds %lu", &nr);
	if (f)
		fclose(f);
	else
		close(fd[0]);
	*holds = nr;
	return callgrind_total(pid, out, ir);
}

/*
 * Instructions of the critical section per operation: --one-cs with
 * @iters and 2 @iters iterations of @ops_per_iter operations, the
 * difference (setup cancels), less @empty (an empty hold's) per hold.
 * Return: the count, or -1 if callgrind failed.
 */
static double cs_insn_per_op(const char *self, const char *backend,
			     const char *name, unsigned long iters,
			     unsigned int ops_per_iter, double empty)
{
	double ir1, ir2, h1, h2;

	if (cs_callgrind_ir(self, backend, name, iters, &ir1, &h1) ||
	    cs_callgrind_ir(self, backend, name, 2 * iters, &ir2, &h2))
		return -1;
	return cs_per_op(ir2 - ir1, h2 - h1, empty,
			 (double)iters * ops_per_iter);
}

/* The instructions of an empty hold, or -1. */
static double cs_empty_insn;

static double cs_callgrind_empty(const char *self)
{
	double ir1, ir2, h1, h2;

	if (cs_callgrind_ir(self, backends[0]->name, "empty", 1000, &ir1,
			    &h1) ||
	    cs_callgrind_ir(self, backends[0]->name, "empty", 2000, &ir2,
			    &h2) || h2 <= h1)
		return -1;
	return (ir2 - ir1) / (h2 - h1);
}

/* ---- metrics ---- */

struct metric {
	char name[B_NAME_LEN];
	int nr;				/* rounds */
	double v[B_MAX_BACKENDS][B_MAX_RUNS];
	double med[B_MAX_BACKENDS];
	double rsd[B_MAX_BACKENDS];	/* %, of the mean */
	double change[B_MAX_BACKENDS];	/* maple against backend b, % */
	bool cs;			/* the critical section's: own table */
};

static struct metric metrics[B_MAX_METRICS];
static int nr_metrics;

static struct metric *metric_new(const char *name)
{
	struct metric *m;

	if (nr_metrics == B_MAX_METRICS)
		die("too many metrics");
	m = &metrics[nr_metrics++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	return m;
}

static struct metric *metric_find(const char *name)
{
	int i;

	for (i = 0; i < nr_metrics; i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	return NULL;
}

static void metric_finish(struct metric *m)
{
	int b;

	for (b = 0; b < nr_backends; b++) {
		m->med[b] = robot_median(m->v[b], m->nr);
		m->rsd[b] = robot_rsd(m->v[b], m->nr);
		m->change[b] = verdict_change(m->med[b], m->med[0]);
	}
}

/* ---- the run ---- */

struct run_opts {
	bool quick, callgrind, no_json, no_cs;
	int runs;
	unsigned int ms;
	const char *filter, *base, *out_dir;
};

static bool wanted(const struct run_opts *o, const char *name)
{
	return !o->filter || strstr(name, o->filter);
}

static void progress(int n, int of, const char *name, int r, int runs)
{
	bool tty = isatty(2);

	fprintf(stderr, "%svma_bench: [%d/%d] %s: round %d of %d%s",
		tty ? "\r\033[K" : "", n, of, name, r + 1, runs,
		tty ? "" : "\n");
}

/*
 * The backend measured @k-th in round @r: each round starts one later
 * (A B C, B C A, C A B, ...).
 */
static int round_backend(int r, int k)
{
	return (r + k) % nr_backends;
}

static void robot_name(char *buf, size_t size, const struct robot_wl *wl,
		       int mode)
{
	char vmas[32] = "";

	if (wl->nr)
		snprintf(vmas, sizeof(vmas), ".%luvmas", wl->nr);
	snprintf(buf, size, "%s%s%s%s.%s.%d.per_%s_ops",
		 wl->suite ? wl->suite : "", wl->suite ? "." : "", wl->name,
		 vmas, mode == MODE_TN ? "thread" : "process",
		 mode == MODE_P1 ? 1 : nr_tasks_n,
		 mode == MODE_TN ? "thread" : "process");
}

/*
 * Is the critical section of @wl in @mode measured (1-task process mode
 * and thread mode of the workloads that take mmap_lock for write, when
 * the filter lets either that metric or the throughput one through)?
 * @name gets its base name.
 */
static bool cs_wanted(const struct run_opts *o, const struct robot_wl *wl,
		      int mode, char *name, size_t size)
{
	char full[B_NAME_LEN + 16];

	if (!(wl->modes & mode) || mode == MODE_PN || !robot_writes(wl))
		return false;
	robot_name(full, sizeof(full), wl, mode);
	cs_base(name, size, wl, mode);
	if (wanted(o, full))
		return true;
	snprintf(full, sizeof(full), "%s.cs_ns_per_op", name);
	return wanted(o, full);
}

static int count_all(const struct run_opts *o)
{
	char name[B_NAME_LEN];
	unsigned int i, s;
	int mode, n = 0;

	for (i = 0; i < NR_ROBOT_WLS; i++)
		for (mode = MODE_P1; mode <= MODE_TN; mode <<= 1) {
			robot_name(name, sizeof(name), &robot_wls[i], mode);
			n += (robot_wls[i].modes & mode) && wanted(o, name);
		}
	for (i = 0; i < NR_MICRO_WLS; i++)
		for (s = 0; s < 2; s++) {
			snprintf(name, sizeof(name), "vma.%s.%luvmas.ns_per_op",
				 micro_wls[i], micro_sizes[s]);
			n += wanted(o, name);
		}
	for (i = 0; i < NR_ROBOT_WLS && !o->no_cs; i++)
		for (mode = MODE_P1; mode <= MODE_TN; mode <<= 1)
			n += cs_wanted(o, &robot_wls[i], mode, name,
				       sizeof(name));
	for (s = 0; s < 2 && !o->no_cs; s++) {
		snprintf(name, sizeof(name), "vma.%s.%luvmas.ns_per_op",
			 micro_wls[CS_MICRO], micro_sizes[s]);
		n += wanted(o, name);
	}
	return n;
}

/* One metric's measurement on one backend: a robot or a micro-workload. */
struct bench_job {
	const struct robot_wl *wl;	/* robot: workload and mode */
	int mode;
	int w;				/* micro: workload, VMAs, operations */
	unsigned long vmas, ops;
};

static double robot_job(const struct vma_bench_ops *ops,
			const struct bench_job *job, const struct run_opts *o)
{
	return robot_measure(ops, job->wl, job->mode, o->ms);
}

static double micro_job(const struct vma_bench_ops *ops,
			const struct bench_job *job, const struct run_opts *o)
{
	(void)o;
	return micro_measure(ops, job->w, job->vmas, job->ops);
}

static double robot_cs_job(const struct vma_bench_ops *ops,
			   const struct bench_job *job,
			   const struct run_opts *o)
{
	double cs_ns;

	robot_run(ops, job->wl, job->mode, o->ms, &cs_ns);
	return cs_ns;
}

static double micro_cs_job(const struct vma_bench_ops *ops,
			   const struct bench_job *job,
			   const struct run_opts *o)
{
	(void)o;
	return micro_measure_cs(ops, job->w, job->vmas, job->ops);
}

/*
 * The rounds of metric @name (the @n-th of @of), backends in turn.
 * Return: the metric, finished.
 */
static struct metric *run_metric(const struct run_opts *o, const char *name,
				 int n, int of,
				 double (*measure)(const struct vma_bench_ops *,
						   const struct bench_job *,
						   const struct run_opts *),
				 const struct bench_job *job)
{
	struct metric *m = metric_new(name);
	int r, k, b;

	m->nr = o->runs;
	for (r = 0; r < o->runs; r++) {
		progress(n, of, name, r, o->runs);
		for (k = 0; k < nr_backends; k++) {
			b = round_backend(r, k);
			m->v[b][r] = measure(backends[b], job, o);
		}
	}
	metric_finish(m);
	return m;
}

/* callgrind's iterations for the critical section of @wl. */
static unsigned long cs_callgrind_iters(const struct robot_wl *wl)
{
	if (wl->iter == iter_fork || wl->iter == iter_execl)
		return 50;
	return wl->iter == iter_page_test ? 200 : 1000;
}

static void cs_callgrind_metric(const char *self, const char *base,
				unsigned long iters, unsigned int ops_per_iter)
{
	char name[B_NAME_LEN];
	struct metric *m;
	int b;

	snprintf(name, sizeof(name), "%s.cs_insn_per_op", base);
	m = metric_new(name);
	m->cs = true;
	m->nr = 1;
	for (b = 0; b < nr_backends; b++) {
		fprintf(stderr, "%svma_bench: callgrind %s %s%s",
			isatty(2) ? "\r\033[K" : "", backends[b]->name, name,
			isatty(2) ? "" : "\n");
		m->v[b][0] = cs_insn_per_op(self, backends[b]->name, base,
					    iters, ops_per_iter,
					    cs_empty_insn);
	}
	metric_finish(m);
}

/*
 * The Amdahl ceiling of thread-mode metric @cs (ns per op, round by
 * round), and what share of it the threads reached in the throughput
 * rounds (@base's per-thread rate times the threads), if those ran.
 */
static void cs_amdahl(const struct metric *cs, const struct robot_wl *wl,
		      const char *base)
{
	char name[B_NAME_LEN];
	const struct metric *rate;
	struct metric *m, *pct;
	int b, r;

	snprintf(name, sizeof(name), "%s.cs_amdahl_ops", base);
	m = metric_new(name);
	m->cs = true;
	m->nr = cs->nr;
	for (b = 0; b < nr_backends; b++)
		for (r = 0; r < cs->nr; r++)
			m->v[b][r] = cs_amdahl_ops(cs->v[b][r]);
	metric_finish(m);
	robot_name(name, sizeof(name), wl, MODE_TN);
	rate = metric_find(name);
	if (!rate)
		return;
	snprintf(name, sizeof(name), "%s.cs_ceiling_reached_pct", base);
	pct = metric_new(name);
	pct->cs = true;
	pct->nr = 1;
	for (b = 0; b < nr_backends; b++)
		pct->v[b][0] = cs_ceiling_reached_pct(rate->med[b] * nr_tasks_n,
						      m->med[b]);
	metric_finish(pct);
}

/*
 * The critical section's rounds, after every other: the robot's
 * workloads that take mmap_lock for write, 1 task and thread mode, then
 * vma.mmap-munmap; with --callgrind, their instructions (1 task).
 */
static void run_cs(const struct run_opts *o, const char *self, int *n,
		   int of)
{
	char base[B_BASE_LEN], name[B_NAME_LEN];
	unsigned int i, s;
	struct metric *m;
	int mode;

	if (o->callgrind) {
#ifdef HAVE_CALLGRIND_H
		cs_empty_insn = cs_callgrind_empty(self);
#else
		printf("vma_bench: built without <valgrind/callgrind.h>, so "
		       "no instruction counts of the critical section\n");
#endif
	}
	for (i = 0; i < NR_ROBOT_WLS; i++) {
		const struct robot_wl *wl = &robot_wls[i];

		for (mode = MODE_P1; mode <= MODE_TN; mode <<= 1) {
			struct bench_job job = { .wl = wl, .mode = mode };

			if (!cs_wanted(o, wl, mode, base, sizeof(base)))
				continue;
			snprintf(name, sizeof(name), "%s.cs_ns_per_op", base);
			m = run_metric(o, name, ++*n, of, robot_cs_job, &job);
			m->cs = true;
			if (mode == MODE_TN)
				cs_amdahl(m, wl, base);
#ifdef HAVE_CALLGRIND_H
			if (o->callgrind && mode == MODE_P1)
				cs_callgrind_metric(self, base,
						    cs_callgrind_iters(wl),
						    wl->ops_per_iter);
#endif
		}
	}
	for (s = 0; s < 2; s++) {
		unsigned long ops = 100000 / (o->quick ? 20 : 1);
		struct bench_job job = {
			.w = CS_MICRO, .vmas = micro_sizes[s], .ops = ops,
		};

		snprintf(base, sizeof(base), "vma.%s.%luvmas",
			 micro_wls[CS_MICRO], micro_sizes[s]);
		snprintf(name, sizeof(name), "%s.ns_per_op", base);
		if (!wanted(o, name))
			continue;
		snprintf(name, sizeof(name), "%s.cs_ns_per_op", base);
		m = run_metric(o, name, ++*n, of, micro_cs_job, &job);
		m->cs = true;
#ifdef HAVE_CALLGRIND_H
		if (o->callgrind)
			cs_callgrind_metric(self, base, 2000, 1);
#endif
	}
}

static void run_all(const struct run_opts *o, const char *self)
{
	char name[B_NAME_LEN];
	int mode, b, n = 0, of = count_all(o);
	unsigned int i, s;
	struct metric *m;

	for (i = 0; i < NR_ROBOT_WLS; i++) {
		const struct robot_wl *wl = &robot_wls[i];

		for (mode = MODE_P1; mode <= MODE_TN; mode <<= 1) {
			struct bench_job job = { .wl = wl, .mode = mode };

			if (!(wl->modes & mode))
				continue;
			robot_name(name, sizeof(name), wl, mode);
			if (!wanted(o, name))
				continue;
			run_metric(o, name, ++n, of, robot_job, &job);
		}
	}
	for (i = 0; i < NR_MICRO_WLS; i++) {
		for (s = 0; s < 2; s++) {
			unsigned long ops = (micro_maps(i) ? 100000 : 1000000) /
					    (o->quick ? 20 : 1);
			struct bench_job job = {
				.w = i, .vmas = micro_sizes[s], .ops = ops,
			};

			snprintf(name, sizeof(name), "vma.%s.%luvmas.ns_per_op",
				 micro_wls[i], micro_sizes[s]);
			if (!wanted(o, name))
				continue;
			run_metric(o, name, ++n, of, micro_job, &job);
			if (!o->callgrind)
				continue;
			snprintf(name, sizeof(name),
				 "vma.%s.%luvmas.insn_per_op", micro_wls[i],
				 micro_sizes[s]);
			m = metric_new(name);
			m->nr = 1;
			for (b = 0; b < nr_backends; b++) {
				fprintf(stderr, "%svma_bench: callgrind %s %s%s",
					isatty(2) ? "\r\033[K" : "",
					backends[b]->name, name,
					isatty(2) ? "" : "\n");
				m->v[b][0] = insn_per_op(self,
							 backends[b]->name, i,
							 micro_sizes[s]);
			}
			metric_finish(m);
		}
	}
	if (!o->no_cs)
		run_cs(o, self, &n, of);
	if (isatty(2))
		fprintf(stderr, "\r\033[K");
}

/* ---- the robot's table ---- */

static void print_tables(void)
{
	char change[32];
	int b, i;

	for (b = 1; b < nr_backends; b++) {
		verdict_title(stdout, "mm/", backends[b]->name);
		robot_table_header(robot_column_name(backends[b]->name),
			     backends[0]->name);
		for (i = 0; i < nr_metrics; i++) {
			struct metric *m = &metrics[i];

			if (m->cs)
				continue;
			snprintf(change, sizeof(change), "%+.1f%%",
				 m->change[b]);
			robot_table_row(m->med[b], m->rsd[b], true, change,
				  m->med[0], m->rsd[0], true, m->name);
		}
	}
}

/* ---- the critical section's table ---- */

/* The median of every empty hold's ns of the run, or 0. */
static double cs_empty_median(void)
{
	return nr_cs_empty ? robot_median(cs_empty, nr_cs_empty) : 0;
}

static void print_cs_table(void)
{
	char v[32];
	int b, i, n = 0;

	for (i = 0; i < nr_metrics; i++)
		n += metrics[i].cs;
	if (!n)
		return;
	printf("\nmm/: the critical section, with mmap_lock held for write, per operation\n"
	       "(cs_ns_per_op: timed in rounds of their own, an empty hold's %.1f ns\n"
	       "subtracted per hold; cs_insn_per_op: callgrind, 1 task; thread mode: all\n"
	       "threads' holds over all their operations, cs_amdahl_ops = 1 s / that, the\n"
	       "most ops/s of all threads together, cs_ceiling_reached_pct = their ops/s in\n"
	       "the throughput rounds over it; page_fault takes mmap_lock for read, so it\n"
	       "is not here)\n\n",
	       cs_empty_median());
	for (b = 0; b < nr_backends; b++)
		printf("%16s", robot_column_name(backends[b]->name));
	printf("\n");
	for (b = 0; b < nr_backends; b++)
		printf("%16s", "%stddev");
	printf("\n");
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (!m->cs)
			continue;
		for (b = 0; b < nr_backends; b++)
			printf("%s", m->v[b][0] < 0 && m->nr == 1 ?
			       "               ?" :
			       robot_fmt_value(v, sizeof(v), m->med[b],
					       m->rsd[b], true));
		printf("  %s\n", m->name);
	}
}

/* ---- the verdict ---- */

/* Against each baseline backend, then (with --base) the base run's. */
static struct verdict verdicts[B_MAX_BACKENDS + 1];
static int nr_verdicts;

static void verdicts_backends(void)
{
	int b, i;

	for (b = 1; b < nr_backends; b++) {
		struct verdict *v = &verdicts[nr_verdicts++];

		verdict_init(v, backends[b]->name);
		for (i = 0; i < nr_metrics; i++)
			if (!metrics[i].cs)
				verdict_add(v, metrics[i].name, metrics[i].med[b],
				    metrics[i].rsd[b], metrics[i].med[0],
				    metrics[i].rsd[0]);
	}
}

static void print_verdicts(void)
{
	FILE *f = verdict_open();
	int k;

	for (k = 0; k < nr_verdicts; k++)
		verdict_print(f, &verdicts[k], "mm/");
	verdict_close(f);
}

/* ---- JSON ---- */

static char run_commit[64], run_date[32];

/* "verdict": one member per baseline, as verdict_json() writes it. */
static void json_verdicts(FILE *f)
{
	int k;

	fprintf(f, ",\n  \"verdict\": {");
	for (k = 0; k < nr_verdicts; k++) {
		fprintf(f, "%s\n", k ? "," : "");
		verdict_json(f, &verdicts[k], "    ");
	}
	fprintf(f, "\n  }");
}

/*
 * One object per backend under "metrics" (medians), "rsd_pct" and, for
 * the baselines, "change_pct" (maple against it); one value a line, which
 * is what json_read_maple() relies on.
 */
static void json_section(FILE *f, const char *key, int what, bool cs)
{
	int b, i, k;

	fprintf(f, ",\n  \"%s\": {", key);
	for (b = what == 2 ? 1 : 0; b < nr_backends; b++) {
		fprintf(f, "%s\n    \"%s\": {", b > (what == 2) ? "," : "",
			backends[b]->name);
		for (i = 0, k = 0; i < nr_metrics; i++) {
			const struct metric *m = &metrics[i];
			double v = what == 0 ? m->med[b] :
				   what == 1 ? m->rsd[b] : m->change[b];

			if (m->cs != cs)
				continue;
			fprintf(f, "%s\n      \"%s\": %.4f", k++ ? "," : "",
				m->name, v);
		}
		fprintf(f, "\n    }");
	}
	fprintf(f, "\n  }");
}

static void write_json(const struct run_opts *o)
{
	char path[1024], stamp[32];
	const char *env = getenv("BENCH_STAMP");
	time_t now = time(NULL);
	struct tm tm;
	int b;
	FILE *f;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (env && *env)
		snprintf(stamp, sizeof(stamp), "%s", env);
	if (mkdir(o->out_dir, 0777) && errno != EEXIST)
		die("mkdir %s: %s", o->out_dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s-%s%s-mm.json", o->out_dir, stamp,
		 run_commit, o->quick ? "-quick" : "");
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "{\n  \"commit\": \"%s\",\n  \"date\": \"%s\",\n"
		"  \"quick\": %s,\n  \"rounds\": %d,\n  \"ms\": %u,\n"
		"  \"backends\": [", run_commit, run_date,
		o->quick ? "true" : "false", o->runs, o->ms);
	for (b = 0; b < nr_backends; b++)
		fprintf(f, "%s\"%s\"", b ? ", " : "", backends[b]->name);
	fprintf(f, "]");
	json_section(f, "metrics", 0, false);
	json_section(f, "rsd_pct", 1, false);
	json_section(f, "change_pct", 2, false);
	json_verdicts(f);
	fprintf(f, ",\n  \"critical_section\": { \"lock\": \"%s\", "
		"\"mode\": \"write\", \"empty_hold_ns\": %.2f, "
		"\"empty_hold_insn\": %.1f }", CS_CLASS, cs_empty_median(),
		o->callgrind ? cs_empty_insn : 0);
	json_section(f, "cs_metrics", 0, true);
	json_section(f, "cs_rsd_pct", 1, true);
	fprintf(f, "\n}\n");
	if (fclose(f))
		die("cannot write %s", path);
	fprintf(stderr, "vma_bench: wrote %s\n", path);
}

struct base_metric {
	char name[B_NAME_LEN];
	double value, rsd;
	bool have_rsd;
};

static struct base_metric base_m[B_MAX_METRICS];
static int nr_base;
static char base_commit[64], base_date[32];
static bool base_quick;

static struct base_metric *base_find(const char *name)
{
	int i;

	for (i = 0; i < nr_base; i++)
		if (!strcmp(base_m[i].name, name))
			return &base_m[i];
	return NULL;
}

static void json_field(const char *line, const char *key, char *buf,
		       size_t size)
{
	const char *p = strstr(line, key);

	if (p)
		p = strchr(p + strlen(key), '"');
	if (!p)
		return;
	snprintf(buf, size, "%.*s", (int)strcspn(p + 1, "\""), p + 1);
}

/*
 * The maple medians and spreads of a file write_json() wrote.  Return:
 * the number of metrics read (0 if the file has none, or is not there).
 */
static int json_read_maple(const char *path)
{
	char line[512], name[B_NAME_LEN];
	int section = -1, in_maple = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	nr_base = 0;
	while (fgets(line, sizeof(line), f)) {
		struct base_metric *bm;
		double v;

		json_field(line, "\"commit\":", base_commit,
			   sizeof(base_commit));
		json_field(line, "\"date\":", base_date, sizeof(base_date));
		if (strstr(line, "\"quick\": true"))
			base_quick = true;
		if (strstr(line, "\"metrics\": {"))
			section = 0;
		else if (strstr(line, "\"rsd_pct\": {"))
			section = 1;
		else if (strstr(line, "\"change_pct\": {"))
			section = 2;
		else if (strstr(line, "\"verdict\": {"))
			section = 3;
		else if (strstr(line, "\"cs_metrics\": {"))
			section = 4;
		if (strstr(line, "\"maple\": {")) {
			in_maple = 1;
			continue;
		}
		if (strchr(line, '}'))
			in_maple = 0;
		if (!in_maple || section > 1 ||
		    sscanf(line, " \"%79[^\"]\": %lf", name, &v) != 2)
			continue;
		bm = base_find(name);
		if (!bm && section == 0 && nr_base < B_MAX_METRICS) {
			bm = &base_m[nr_base++];
			snprintf(bm->name, sizeof(bm->name), "%s", name);
		}
		if (!bm)
			continue;
		if (section == 0) {
			bm->value = v;
		} else {
			bm->rsd = v;
			bm->have_rsd = true;
		}
	}
	fclose(f);
	return nr_base;
}

/* @path, or its "-mm" sibling (the tree's JSON of the same make bench). */
static bool load_base(const char *path)
{
	char sib[1024];
	size_t len = strlen(path);

	if (json_read_maple(path))
		return true;
	if (len > 5 && !strcmp(path + len - 5, ".json")) {
		snprintf(sib, sizeof(sib), "%.*s-mm.json", (int)(len - 5), path);
		if (json_read_maple(sib))
			return true;
	}
	return false;
}

/* Rows of @path's run that this one lacks follow, unless it was filtered. */
static void print_base_table(const char *path, bool filtered, bool quick)
{
	struct verdict *v;
	char change[32];
	int i;

	if (!load_base(path)) {
		printf("\nvma_bench: no mm/ results in %s (nor in its -mm.json sibling)\n",
		       path);
		return;
	}
	verdict_title(stdout, "mm/", "base");
	printf("base: %s %s%s\nnew:  %s %s%s\n", base_commit, base_date,
	       base_quick ? " (quick)" : "", run_commit, run_date,
	       quick ? " (quick)" : "");
	robot_table_header("base", "new");
	v = &verdicts[nr_verdicts++];
	verdict_init(v, "base");
	for (i = 0; i < nr_metrics; i++) {
		struct metric *m = &metrics[i];
		struct base_metric *bm = base_find(m->name);

		if (m->cs)
			continue;
		change[0] = '\0';
		if (bm && bm->value)
			snprintf(change, sizeof(change), "%+.1f%%",
				 verdict_change(bm->value, m->med[0]));
		if (bm)
			verdict_add(v, m->name, bm->value,
				    bm->have_rsd ? bm->rsd : -1, m->med[0],
				    m->rsd[0]);
		robot_table_row(bm ? bm->value : 0, bm ? bm->rsd : 0, bm, change,
			  m->med[0], m->rsd[0], true, m->name);
	}
	for (i = 0; i < nr_base && !filtered; i++) {
		int j;

		for (j = 0; j < nr_metrics; j++)
			if (!strcmp(metrics[j].name, base_m[i].name))
				break;
		if (j == nr_metrics)
			robot_table_row(base_m[i].value, base_m[i].rsd, true, "",
				  0, 0, false, base_m[i].name);
	}
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr, "usage: vma_bench [--quick] [--runs N] [--ms N] [--filter STR]\n"
		"                 [--base FILE] [--no-json] [--no-upstream]\n"
		"                 [--out-dir DIR] [--callgrind] [--no-cs]\n"
		"       vma_bench --one BACKEND WORKLOAD VMAS OPS\n"
		"       vma_bench --one-cs BACKEND NAME ITERS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct run_opts o = { .runs = 7, .ms = 100, .out_dir = "bench-results" };
	bool upstream = true;
	time_t now = time(NULL);
	struct tm tm;
	int i, b;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-upstream"))
			upstream = false;
		else if (!strcmp(argv[i], "--one") ||
			 !strcmp(argv[i], "--one-cs"))
			break;
	}
	backends[nr_backends++] = &vma_bench_ops_maple;
	backends[nr_backends++] = &vma_bench_ops_rbtree;
	if (&vma_bench_ops_upstream && upstream)
		backends[nr_backends++] = &vma_bench_ops_upstream;
	if (&vma_bench_ops_upstream612 && upstream)
		backends[nr_backends++] = &vma_bench_ops_upstream612;
	maple_tree_init();
	__init_rwsem(&cs_empty_sem, CS_CLASS);
	for (b = 0; b < nr_backends; b++)
		if (backends[b]->init)
			backends[b]->init();

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			o.quick = true;
			o.runs = 3;
			o.ms = 20;
		} else if (!strcmp(argv[i], "--callgrind")) {
			o.callgrind = true;
		} else if (!strcmp(argv[i], "--no-json")) {
			o.no_json = true;
		} else if (!strcmp(argv[i], "--no-cs")) {
			o.no_cs = true;
		} else if (!strcmp(argv[i], "--no-upstream")) {
			continue;
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			o.runs = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--ms") && i + 1 < argc) {
			o.ms = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
			o.filter = argv[++i];
		} else if (!strcmp(argv[i], "--base") && i + 1 < argc) {
			o.base = argv[++i];
		} else if (!strcmp(argv[i], "--out-dir") && i + 1 < argc) {
			o.out_dir = argv[++i];
		} else if (!strcmp(argv[i], "--one") && i + 4 < argc) {
			return one(&argv[i + 1]);
		} else if (!strcmp(argv[i], "--one-cs") && i + 3 < argc) {
			return one_cs(&argv[i + 1]);
		} else {
			usage();
		}
	}
	if (o.runs < 1 || o.runs > B_MAX_RUNS)
		o.runs = 7;
	nr_tasks_n = clamp((int)sysconf(_SC_NPROCESSORS_ONLN), 2, B_MAX_TASKS);
	if (!o.ms)
		o.ms = 1;

	bench_read_commit(run_commit, sizeof(run_commit));
	gmtime_r(&now, &tm);
	strftime(run_date, sizeof(run_date), "%Y-%m-%dT%H:%M:%SZ", &tm);

	fprintf(stderr, "vma_bench: mm/ on");
	for (b = 0; b < nr_backends; b++)
		fprintf(stderr, " %s", backends[b]->name);
	fprintf(stderr, ", %d rounds alternating, %u ms per timed workload\n",
		o.runs, o.ms);
	run_all(&o, argv[0]);

	printf("\nmm/ (vma_bench): %d rounds, backends alternating; values are medians,\n"
	       "%%stddev the spread of the rounds, %%change that of the two medians\n"
	       "printed, maple against the baseline.  *_ops: operations per second\n"
	       "per task (higher is better); *ns_per_op, *insn_per_op: lower is better.\n",
	       o.runs);
	if (!backend_by_name("upstream"))
		printf("upstream (Linux 6.1's lib/maple_tree.c): not in this run\n");
	if (!backend_by_name("upstream-6.12"))
		printf("upstream-6.12 (Linux 6.12's lib/maple_tree.c): not in this run\n");
	print_tables();
	print_cs_table();
	verdicts_backends();
	if (o.base)
		print_base_table(o.base, o.filter, o.quick);
	print_verdicts();
	fflush(stdout);
	if (!o.no_json)
		write_json(&o);
	for (i = 0; i < nr_verdicts; i++)
		verdict_free(&verdicts[i]);
	return 0;
}
