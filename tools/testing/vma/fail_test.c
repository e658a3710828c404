// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failure in mm/: for each operation shape, fail the n-th
 * allocation for n = 1, 2, ... until the operation makes no more.  Every
 * failed call must return its error and leave the address space exactly
 * as it was (the model of the state before, validate_mm()) with no slab
 * object more than before (after a grace period); a call that succeeded
 * anyway must have done its whole job (the model of the state after).
 * Shapes are run on a small address space and on one of 300 VMAs (a
 * deeper tree, and rewrites whose arrays outgrow the stack).  Built for
 * each backend.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ktest.h"
#include "vma_model.h"
#include "vma_test.h"

enum fkind { F_MMAP, F_MUNMAP, F_MPROTECT, F_MREMAP, F_BRK, F_FORK };

struct fcall {
	enum fkind kind;
	unsigned long a, b, c, d, e;
	struct file *file;
};

#define MMAP(file_, addr, len, prot, flags, pgoff)			\
	{ .kind = F_MMAP, .a = addr, .b = len, .c = prot, .d = flags,	\
	  .e = pgoff, .file = file_ }
#define MUNMAP(addr, len)	{ .kind = F_MUNMAP, .a = addr, .b = len }
#define MPROTECT(addr, len, prot)					\
	{ .kind = F_MPROTECT, .a = addr, .b = len, .c = prot }
#define MREMAP(addr, old, new, flags, to)				\
	{ .kind = F_MREMAP, .a = addr, .b = old, .c = new, .d = flags,	\
	  .e = to }
#define BRK(addr)		{ .kind = F_BRK, .a = addr }
#define FORK()			{ .kind = F_FORK }

#define FIXED	(MAP_PRIVATE | MAP_FIXED)

static unsigned long f_do(const struct fcall *c, struct mm_struct *mm,
			  struct mm_struct **child)
{
	switch (c->kind) {
	case F_MMAP:
		return vm_mmap(mm, c->file, c->a, c->b, c->c, c->d, c->e);
	case F_MUNMAP:
		return vm_munmap(mm, c->a, c->b);
	case F_MPROTECT:
		return do_mprotect(mm, c->a, c->b, c->c);
	case F_MREMAP:
		return do_mremap(mm, c->a, c->b, c->c, c->d, c->e);
	case F_BRK:
		return mm_brk(mm, c->a);
	case F_FORK:
		*child = dup_mmap(mm);
		return *child ? 0 : (unsigned long)-ENOMEM;
	}
	return 0;
}

static unsigned long f_model(const struct fcall *c, struct vmm *m)
{
	switch (c->kind) {
	case F_MMAP:
		return vmm_mmap(m, c->file, c->a, c->b, c->c, c->d, c->e);
	case F_MUNMAP:
		return vmm_munmap(m, c->a, c->b);
	case F_MPROTECT:
		return vmm_mprotect(m, c->a, c->b, c->c);
	case F_MREMAP:
		return vmm_mremap(m, c->a, c->b, c->c, c->d, c->e);
	case F_BRK:
		return vmm_brk(m, c->a);
	case F_FORK:
		return 0;
	}
	return 0;
}

/* The 300-VMA space: 300 pages from 0x100000, flags alternating. */
static void f_big(struct mm_struct *mm, struct vmm *m)
{
	unsigned long i;

	for (i = 0; i < 300; i++) {
		unsigned long addr = 0x100000 + i * PG;
		unsigned long prot = i & 1 ? PROT_READ : RW;

		vm_mmap(mm, NULL, addr, PG, prot, FIXED, 0);
		vmm_mmap(m, NULL, addr, PG, prot, FIXED, 0);
	}
}

static int f_failed_calls;

static long live_objects(void)
{
	rcu_barrier();
	return kmem_nr_live();
}

/*
 * Build the state (@setup, then @big if set), then sweep the failure of
 * each allocation @op makes.
 */
static void f_sweep(struct kunit *test, const struct fcall *setup, int nr_setup,
		    bool big, const struct fcall *op)
{
	unsigned long n, ret, want;
	int failed_calls = 0;

	/* Past the first 32, every 13th: fork's bulk of 300 VMA copies is
	 * one allocation site failed 300 ways. */
	for (n = 1; ; n += n < 32 ? 1 : 13) {
		struct mm_struct *mm = vma_test_mm(test), *child = NULL;
		struct vmm before, after = { 0 };
		long live, fails;
		int i;

		vmm_init(&before, mm);
		if (big)
			f_big(mm, &before);
		for (i = 0; i < nr_setup; i++) {
			f_do(&setup[i], mm, &child);
			f_model(&setup[i], &before);
		}
		vmm_copy(&after, &before);
		want = f_model(op, &after);

		live = live_objects();
		kmem_fault_nth(n);
		ret = f_do(op, mm, &child);
		fails = kmem_fault_count();
		kmem_fault_reset();

		if (fails && ret != want) {
			/* brk() answers a failure with the old break. */
			unsigned long err = op->kind == F_BRK ? before.brk :
					    (unsigned long)-ENOMEM;

			failed_calls++;
			KUNIT_EXPECT_EQ_MSG(test, ret, err,
					    "allocation %lu failed", n);
			vmm_check(test, &before, mm, "after a failed call");
			KUNIT_EXPECT_EQ_MSG(test, live_objects(), live,
					    "allocation %lu failed: objects leaked",
					    n);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, want,
					    "allocation %lu failed: %ld failures",
					    n, fails);
			vmm_check(test, &after, mm, "after the call");
			if (child)
				vmm_check(test, &after, child, "the child");
		}
		if (child)
			mmput(child);
		mmput(mm);
		vmm_destroy(&before);
		vmm_destroy(&after);
		if (!fails || n > 2000)
			break;
	}
	kunit_info(test, "up to %lu allocations, %d failed calls\n", n - 1,
		   failed_calls);
	f_failed_calls += failed_calls;
}

/* Some sweep of the case must have failed a call (it reached an allocation). */
static void f_expect_failures(struct kunit *test)
{
	KUNIT_EXPECT_GT(test, f_failed_calls, 0);
	f_failed_calls = 0;
}

#define SWEEP(test, big, op, ...) do {					\
	const struct fcall __setup[] = { __VA_ARGS__ };			\
	const struct fcall __op = op;					\
									\
	f_sweep((test), __setup, ARRAY_SIZE(__setup), (big), &__op);	\
} while (0)

#define SWEEP0(test, big, op) do {					\
	const struct fcall __op = op;					\
									\
	f_sweep((test), NULL, 0, (big), &__op);				\
} while (0)

static void enomem_mmap_into_empty_space(struct kunit *test)
{
	SWEEP0(test, false, MMAP(NULL, 0x200000, 4 * PG, RW, FIXED, 0));
	SWEEP0(test, true, MMAP(NULL, 0, 4 * PG, RW, MAP_PRIVATE, 0));
	f_expect_failures(test);
}

static void enomem_mmap_fixed_splitting_a_vma(struct kunit *test)
{
	SWEEP(test, false, MMAP(NULL, 0x202000, PG, PROT_READ, FIXED, 0),
	      MMAP(FILE_A, 0x200000, 8 * PG, RW, FIXED, 0));
	SWEEP0(test, true, MMAP(NULL, 0x100000 + 40 * PG, 100 * PG, PROT_EXEC,
				FIXED, 0));
	f_expect_failures(test);
}

static void enomem_mmap_merging_with_neighbours(struct kunit *test)
{
	SWEEP(test, false, MMAP(NULL, 0x202000, 2 * PG, RW, FIXED, 0),
	      MMAP(NULL, 0x200000, 2 * PG, RW, FIXED, 0),
	      MMAP(NULL, 0x204000, 2 * PG, RW, FIXED, 0));
	/* Over ten VMAs, merged with the two around them. */
	SWEEP0(test, true, MMAP(NULL, 0x100000 + 101 * PG, 10 * PG,
				PROT_READ, FIXED, 0));
	f_expect_failures(test);
}

static void enomem_munmap_splitting_and_spanning(struct kunit *test)
{
	SWEEP(test, false, MUNMAP(0x202000, 2 * PG),
	      MMAP(FILE_A, 0x200000, 8 * PG, RW, FIXED, 0));
	SWEEP0(test, true, MUNMAP(0x100000 + 11 * PG, 200 * PG));
	SWEEP0(test, true, MUNMAP(0x100000 + 100 * PG, PG));
	SWEEP(test, true, MUNMAP(0x100000 + 1000 * PG, 4 * PG),
	      MMAP(NULL, 0x100000 + 998 * PG, 8 * PG, RW, FIXED, 0));
	f_expect_failures(test);
}

static void enomem_mprotect_splitting_and_merging(struct kunit *test)
{
	SWEEP(test, false, MPROTECT(0x202000, 2 * PG, PROT_READ),
	      MMAP(NULL, 0x200000, 8 * PG, RW, FIXED, 0));
	/* Every other VMA read-only: making all writable merges 300 into 1. */
	SWEEP0(test, true, MPROTECT(0x100000, 300 * PG, RW));
	SWEEP0(test, true, MPROTECT(0x100000 + 201 * PG, 4 * PG, RW));
	f_expect_failures(test);
}

static void enomem_mremap_grow_and_move(struct kunit *test)
{
	SWEEP(test, false, MREMAP(0x200000, 2 * PG, 4 * PG, 0, 0),
	      MMAP(FILE_A, 0x200000, 2 * PG, RW, FIXED, 0));
	SWEEP(test, false, MREMAP(0x201000, 2 * PG, 3 * PG, MREMAP_MAYMOVE, 0),
	      MMAP(FILE_A, 0x200000, 3 * PG, RW, FIXED, 0),
	      MMAP(NULL, 0x203000, PG, RW, FIXED, 0));
	SWEEP0(test, true, MREMAP(0x100000 + 50 * PG, PG, PG,
				  MREMAP_MAYMOVE | MREMAP_FIXED,
				  0x100000 + 401 * PG));
	f_expect_failures(test);
}

static void enomem_brk_grow_and_shrink(struct kunit *test)
{
	SWEEP(test, false, BRK(T_START_BRK + 8 * PG), BRK(T_START_BRK + PG));
	SWEEP(test, false, BRK(T_START_BRK + 3 * PG), BRK(T_START_BRK + 8 * PG),
	      MPROTECT(T_START_BRK + 4 * PG, PG, PROT_READ));
	SWEEP(test, false, BRK(T_START_BRK + 10 * PG), BRK(T_START_BRK + 8 * PG),
	      MPROTECT(T_START_BRK + 7 * PG, PG, PROT_READ));
	f_expect_failures(test);
}

static void enomem_fork(struct kunit *test)
{
	SWEEP(test, false, FORK(), MMAP(NULL, 0x200000, 2 * PG, RW, FIXED, 0),
	      MMAP(FILE_A, 0x300000, 2 * PG, RW, FIXED, 0));
	SWEEP0(test, true, FORK());
	f_expect_failures(test);
}

static struct kunit_case vma_fail_cases[] = {
	KUNIT_CASE(enomem_mmap_into_empty_space),
	KUNIT_CASE(enomem_mmap_fixed_splitting_a_vma),
	KUNIT_CASE(enomem_mmap_merging_with_neighbours),
	KUNIT_CASE(enomem_munmap_splitting_and_spanning),
	KUNIT_CASE(enomem_mprotect_splitting_and_merging),
	KUNIT_CASE(enomem_mremap_grow_and_move),
	KUNIT_CASE(enomem_brk_grow_and_shrink),
	KUNIT_CASE(enomem_fork),
	{}
};

static struct kunit_suite vma_fail_suite = {
	.name = VMA_SUITE("vma_enomem"),
	.test_cases = vma_fail_cases,
};
kunit_test_suite(vma_fail_suite);
