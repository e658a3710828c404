// SPDX-License-Identifier: GPL-2.0
/*
 * mm/ unit cases: one behaviour each, the resulting address space written
 * down in the case (EXPECT_VMAS) and checked with validate_mm().  Built
 * for each backend (suite vma_unit_maple / vma_unit_rbtree).
 *
 * Layout (vma_test.h): task_size 0x10000000, mmap_base 0x0f000000, heap
 * at 0x01000000, mmap_min_addr 0x10000.
 */
#include <linux/slab.h>

#include "ktest.h"
#include "vma_test.h"

struct exp_vma {
	unsigned long start, end, flags;
	struct file *file;
	unsigned long pgoff;
};

static void expect_vmas(struct kunit *test, struct mm_struct *mm,
			const struct exp_vma *exp, int nr)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;
	int i = 0;
	VMA_ITERATOR(vmi, mm, 0);

	mmap_read_lock(mm);
	for_each_vma(vmi, vma) {
		if (i < nr) {
			KUNIT_EXPECT_EQ_MSG(test, vma->vm_start, exp[i].start,
					    "VMA %d start", i);
			KUNIT_EXPECT_EQ_MSG(test, vma->vm_end, exp[i].end,
					    "VMA %d end", i);
			KUNIT_EXPECT_EQ_MSG(test, vma->vm_flags, exp[i].flags,
					    "VMA %d flags", i);
			KUNIT_EXPECT_PTR_EQ_MSG(test, vma->vm_file,
						exp[i].file, "VMA %d file", i);
			KUNIT_EXPECT_EQ_MSG(test, vma->vm_pgoff, exp[i].pgoff,
					    "VMA %d pgoff", i);
		}
		i++;
	}
	for (i = 0; i < nr; i++)
		pages += (exp[i].end - exp[i].start) / PG;
	KUNIT_EXPECT_EQ(test, mm->map_count, nr);
	KUNIT_EXPECT_EQ(test, mm->total_vm, pages);
	KUNIT_EXPECT_EQ(test, validate_mm(mm), 0);
	mmap_read_unlock(mm);
}

#define EXPECT_VMAS(test, mm, ...) do {					\
	const struct exp_vma __e[] = { __VA_ARGS__ };			\
									\
	expect_vmas((test), (mm), __e, ARRAY_SIZE(__e));		\
} while (0)

#define EXPECT_NO_VMAS(test, mm)	expect_vmas((test), (mm), NULL, 0)

#define FIXED	(MAP_PRIVATE | MAP_FIXED)

/* Anonymous read-write at @a: pgoff is the page number of @a. */
#define ANON(a, b)	{ a, b, VM_RW_FLAGS, NULL, (a) / PG }

static unsigned long map_anon(struct mm_struct *mm, unsigned long addr,
			      unsigned long len)
{
	return vm_mmap(mm, NULL, addr, len, RW, FIXED, 0);
}

/* ---- mmap ---- */

static void mmap_fixed_into_empty_space_creates_one_vma(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x100000, 4 * PG), 0x100000UL);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x104000));
	mmput(mm);
}

static void mmap_next_to_compatible_vma_merges(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 4 * PG);
	map_anon(mm, 0x104000, 2 * PG);		/* after it */
	map_anon(mm, 0x0fe000, 2 * PG);		/* before it */
	EXPECT_VMAS(test, mm, ANON(0x0fe000, 0x106000));
	mmput(mm);
}

static void mmap_into_hole_between_compatible_vmas_merges_all_three(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 4 * PG);
	map_anon(mm, 0x108000, 4 * PG);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x104000),
		    ANON(0x108000, 0x10c000));
	map_anon(mm, 0x104000, 4 * PG);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x10c000));
	mmput(mm);
}

static void mmap_with_other_flags_or_object_does_not_merge(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, PG);
	vm_mmap(mm, NULL, 0x101000, PG, PROT_READ, FIXED, 0);
	vm_mmap(mm, FILE_A, 0x102000, PG, RW, FIXED, 0x102);
	/* FILE_A again, but its offset does not run on from 0x102 */
	vm_mmap(mm, FILE_A, 0x103000, PG, RW, FIXED, 0x200);
	/* FILE_A with the offset that runs on: merges */
	vm_mmap(mm, FILE_A, 0x104000, PG, RW, FIXED, 0x201);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x101000),
		    { 0x101000, 0x102000, VM_R_FLAGS, NULL, 0x101 },
		    { 0x102000, 0x103000, VM_RW_FLAGS, FILE_A, 0x102 },
		    { 0x103000, 0x105000, VM_RW_FLAGS, FILE_A, 0x200 });
	mmput(mm);
}

static void mmap_fixed_over_middle_splits_vma_in_three(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 8 * PG, RW, FIXED, 0);
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x103000, 2 * PG), 0x103000UL);
	EXPECT_VMAS(test, mm,
		    { 0x100000, 0x103000, VM_RW_FLAGS, FILE_A, 0 },
		    ANON(0x103000, 0x105000),
		    { 0x105000, 0x108000, VM_RW_FLAGS, FILE_A, 5 });
	mmput(mm);
}

static void mmap_fixed_over_several_vmas_replaces_them(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 4 * PG, RW, FIXED, 0);
	vm_mmap(mm, FILE_B, 0x106000, 4 * PG, RW, FIXED, 0);
	vm_mmap(mm, NULL, 0x10c000, 4 * PG, PROT_READ, FIXED, 0);
	map_anon(mm, 0x102000, 0xc000);		/* to 0x10e000 */
	EXPECT_VMAS(test, mm,
		    { 0x100000, 0x102000, VM_RW_FLAGS, FILE_A, 0 },
		    ANON(0x102000, 0x10e000),
		    { 0x10e000, 0x110000, VM_R_FLAGS, NULL, 0x10e });
	mmput(mm);
}

static void mmap_fixed_noreplace_over_mapping_is_eexist(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 4 * PG);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x0ff000, 2 * PG, RW,
				      MAP_PRIVATE | MAP_FIXED_NOREPLACE, 0),
			(unsigned long)-EEXIST);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x104000));
	/* Next to it is free: mapped, and merged. */
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x0fe000, 2 * PG, RW,
				      MAP_PRIVATE | MAP_FIXED_NOREPLACE, 0),
			0x0fe000UL);
	EXPECT_VMAS(test, mm, ANON(0x0fe000, 0x104000));
	mmput(mm);
}

static void mmap_bad_arguments_change_nothing(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, PG);
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x200000, 0), (unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x200800, PG), (unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, map_anon(mm, T_TASK_SIZE - PG, 2 * PG),
			(unsigned long)-ENOMEM);
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x200000, ULONG_MAX - 10),
			(unsigned long)-ENOMEM);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x200000, PG, 0x80, FIXED, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x200000, PG, RW, MAP_FIXED, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, FILE_A, 0x200000, 2 * PG, RW, FIXED,
				      ULONG_MAX),
			(unsigned long)-EOVERFLOW);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x101000));
	mmput(mm);
}

static void mmap_without_address_takes_highest_gap_below_mmap_base(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0, 4 * PG, RW, MAP_PRIVATE, 0),
			T_MMAP_BASE - 4 * PG);
	/* A hole of 2 pages below the first: too small for 4 pages. */
	map_anon(mm, T_MMAP_BASE - 10 * PG, 4 * PG);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0, 4 * PG, RW, MAP_PRIVATE, 0),
			T_MMAP_BASE - 14 * PG);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0, 2 * PG, RW, MAP_PRIVATE, 0),
			T_MMAP_BASE - 6 * PG);
	/* Anonymous, offsets running on with the addresses: all merged. */
	EXPECT_VMAS(test, mm, ANON(T_MMAP_BASE - 14 * PG, T_MMAP_BASE));
	mmput(mm);
}

static void mmap_topdown_falls_back_to_bottom_up_when_full(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	unsigned long below = T_MMAP_BASE - 0x10000;

	/* Everything from mmap_min_addr to mmap_base taken. */
	map_anon(mm, 0x10000, below);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0, 4 * PG, RW, MAP_PRIVATE, 0),
			T_MMAP_BASE);
	mmput(mm);
}

static void mmap_legacy_layout_takes_lowest_gap_from_mmap_base(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	mm->mmap_legacy = true;
	mm->mmap_base = 0x04000000;
	map_anon(mm, 0x04002000, PG);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0, 2 * PG, RW, MAP_PRIVATE, 0),
			0x04000000UL);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0, 2 * PG, RW, MAP_PRIVATE, 0),
			0x04003000UL);
	mmput(mm);
}

static void mmap_hint_is_used_if_free_else_ignored(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x300000, PG, RW, MAP_PRIVATE, 0),
			0x300000UL);
	/* Unaligned hint: rounded up. */
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x400001, PG, RW, MAP_PRIVATE, 0),
			0x401000UL);
	/* Taken: placed top-down instead. */
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x300000, PG, RW, MAP_PRIVATE, 0),
			T_MMAP_BASE - PG);
	/* Below mmap_min_addr: raised to it. */
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, NULL, 0x1000, PG, RW, MAP_PRIVATE, 0),
			0x10000UL);
	mmput(mm);
}

static void mmap_over_map_count_limit_is_enomem(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	int saved = sysctl_max_map_count;

	sysctl_max_map_count = 2;
	map_anon(mm, 0x100000, PG);
	map_anon(mm, 0x200000, PG);
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x300000, PG), (unsigned long)-ENOMEM);
	/* Merging adds no VMA: allowed. */
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x101000, PG), 0x101000UL);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x102000), ANON(0x200000, 0x201000));
	sysctl_max_map_count = saved;
	mmput(mm);
}

/* ---- munmap ---- */

static void munmap_middle_splits_vma_in_two(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 8 * PG, RW, FIXED, 0x10);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x102000, 3 * PG), 0);
	EXPECT_VMAS(test, mm,
		    { 0x100000, 0x102000, VM_RW_FLAGS, FILE_A, 0x10 },
		    { 0x105000, 0x108000, VM_RW_FLAGS, FILE_A, 0x15 });
	mmput(mm);
}

static void munmap_spanning_removes_covered_and_trims_ends(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 4 * PG, RW, FIXED, 0);
	vm_mmap(mm, FILE_B, 0x105000, 2 * PG, RW, FIXED, 0);
	vm_mmap(mm, NULL, 0x108000, 4 * PG, PROT_READ, FIXED, 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x102000, 0x8000), 0);
	EXPECT_VMAS(test, mm,
		    { 0x100000, 0x102000, VM_RW_FLAGS, FILE_A, 0 },
		    { 0x10a000, 0x10c000, VM_R_FLAGS, NULL, 0x10a });
	mmput(mm);
}

static void munmap_whole_vma_and_holes_is_fine(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 4 * PG);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x200000, PG), 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x0f0000, 0x20000), 0);
	EXPECT_NO_VMAS(test, mm);
	mmput(mm);
}

static void munmap_bad_arguments_are_einval(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 4 * PG);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x100800, PG), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x100000, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, T_TASK_SIZE - PG, 2 * PG), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x100000, ULONG_MAX), -EINVAL);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x104000));
	mmput(mm);
}

static void munmap_split_over_map_count_limit_is_enomem(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	int saved = sysctl_max_map_count;

	sysctl_max_map_count = 1;
	map_anon(mm, 0x100000, 4 * PG);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x101000, PG), -ENOMEM);
	/* Trimming an end adds no VMA. */
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x103000, PG), 0);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x103000));
	sysctl_max_map_count = saved;
	mmput(mm);
}

/* ---- brk ---- */

static void brk_grows_shrinks_and_merges_the_heap(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	KUNIT_EXPECT_EQ(test, mm_brk(mm, T_START_BRK + 0x1800),
			T_START_BRK + 0x1800);
	KUNIT_EXPECT_EQ(test, mm_brk(mm, T_START_BRK + 0x4000),
			T_START_BRK + 0x4000);
	EXPECT_VMAS(test, mm, ANON(T_START_BRK, T_START_BRK + 0x4000));
	KUNIT_EXPECT_EQ(test, mm_brk(mm, T_START_BRK + 0x1000),
			T_START_BRK + 0x1000);
	EXPECT_VMAS(test, mm, ANON(T_START_BRK, T_START_BRK + 0x1000));
	/* Below start_brk: a query, nothing changes. */
	KUNIT_EXPECT_EQ(test, mm_brk(mm, 0), T_START_BRK + 0x1000);
	KUNIT_EXPECT_EQ(test, mm_brk(mm, T_START_BRK), T_START_BRK);
	EXPECT_NO_VMAS(test, mm);
	mmput(mm);
}

static void brk_refuses_to_come_within_a_page_of_next_mapping(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, NULL, T_START_BRK + 0x5000, PG, PROT_READ, FIXED, 0);
	KUNIT_EXPECT_EQ(test, mm_brk(mm, T_START_BRK + 0x4001), T_START_BRK);
	KUNIT_EXPECT_EQ(test, mm_brk(mm, T_START_BRK + 0x4000),
			T_START_BRK + 0x4000);
	EXPECT_VMAS(test, mm, ANON(T_START_BRK, T_START_BRK + 0x4000),
		    { T_START_BRK + 0x5000, T_START_BRK + 0x6000, VM_R_FLAGS,
		      NULL, (T_START_BRK + 0x5000) / PG });
	mmput(mm);
}

/* ---- mprotect ---- */

static void mprotect_middle_splits_in_three_and_back_merges(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 8 * PG);
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x102000, 2 * PG, PROT_READ), 0);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x102000),
		    { 0x102000, 0x104000, VM_R_FLAGS, NULL, 0x102 },
		    ANON(0x104000, 0x108000));
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x102000, 2 * PG, RW), 0);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x108000));
	mmput(mm);
}

static void mprotect_across_vmas_changes_each_and_merges(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 2 * PG);
	vm_mmap(mm, NULL, 0x102000, 2 * PG, PROT_READ, FIXED, 0);
	map_anon(mm, 0x104000, 2 * PG);
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x101000, 4 * PG, RW), 0);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x106000));
	mmput(mm);
}

static void mprotect_over_a_hole_is_enomem_and_changes_nothing(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 2 * PG);
	map_anon(mm, 0x103000, 2 * PG);
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x100000, 5 * PG, PROT_READ),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x100800, PG, PROT_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x100000, PG, 0x100), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_mprotect(mm, 0x100000, 0, PROT_READ), 0);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x102000), ANON(0x103000, 0x105000));
	mmput(mm);
}

/* ---- mremap ---- */

static void mremap_shrink_unmaps_the_tail(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 8 * PG);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, 8 * PG, 3 * PG, 0, 0),
			0x100000UL);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x103000));
	mmput(mm);
}

static void mremap_grows_in_place_when_room_follows(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 2 * PG, RW, FIXED, 7);
	map_anon(mm, 0x106000, PG);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, 2 * PG, 6 * PG, 0, 0),
			0x100000UL);
	EXPECT_VMAS(test, mm, { 0x100000, 0x106000, VM_RW_FLAGS, FILE_A, 7 },
		    ANON(0x106000, 0x107000));
	/* No more room, may not move. */
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, 6 * PG, 7 * PG, 0, 0),
			(unsigned long)-ENOMEM);
	mmput(mm);
}

static void mremap_moves_when_blocked_and_keeps_the_offset(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 4 * PG, RW, FIXED, 0x40);
	map_anon(mm, 0x104000, PG);
	/* The last two pages of the file mapping, grown to 3: moved to the
	 * top of the free space below mmap_base. */
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x102000, 2 * PG, 3 * PG,
					MREMAP_MAYMOVE, 0),
			T_MMAP_BASE - 3 * PG);
	EXPECT_VMAS(test, mm, { 0x100000, 0x102000, VM_RW_FLAGS, FILE_A, 0x40 },
		    ANON(0x104000, 0x105000),
		    { T_MMAP_BASE - 3 * PG, T_MMAP_BASE, VM_RW_FLAGS, FILE_A,
		      0x42 });
	mmput(mm);
}

static void mremap_fixed_replaces_the_target(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, FILE_A, 0x100000, 2 * PG, RW, FIXED, 0);
	map_anon(mm, 0x200000, 4 * PG);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, 2 * PG, 2 * PG,
					MREMAP_MAYMOVE | MREMAP_FIXED,
					0x201000),
			0x201000UL);
	EXPECT_VMAS(test, mm, ANON(0x200000, 0x201000),
		    { 0x201000, 0x203000, VM_RW_FLAGS, FILE_A, 0 },
		    ANON(0x203000, 0x204000));
	mmput(mm);
}

static void mremap_bad_arguments_change_nothing(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 2 * PG);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x300000, PG, 2 * PG,
					MREMAP_MAYMOVE, 0),
			(unsigned long)-EFAULT);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, 3 * PG, 4 * PG,
					MREMAP_MAYMOVE, 0),
			(unsigned long)-EFAULT);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, PG, 2 * PG,
					MREMAP_FIXED, 0x300000),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, 2 * PG, 2 * PG,
					MREMAP_MAYMOVE | MREMAP_FIXED,
					0x101000),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, do_mremap(mm, 0x100000, PG, 0, 0, 0),
			(unsigned long)-EINVAL);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x102000));
	mmput(mm);
}

/* ---- fork, exit ---- */

static void fork_copies_every_vma_and_the_copies_are_independent(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test), *child;
	struct vm_area_struct *pv, *cv;

	map_anon(mm, 0x100000, 2 * PG);
	vm_mmap(mm, FILE_A, 0x200000, 3 * PG, PROT_READ, FIXED, 9);
	mm_brk(mm, T_START_BRK + PG);
	child = dup_mmap(mm);
	KUNIT_ASSERT_NOT_NULL(test, child);
	EXPECT_VMAS(test, child, ANON(0x100000, 0x102000),
		    { 0x200000, 0x203000, VM_R_FLAGS, FILE_A, 9 },
		    ANON(T_START_BRK, T_START_BRK + PG));
	KUNIT_EXPECT_EQ(test, child->brk, T_START_BRK + PG);
	mmap_read_lock(mm);
	mmap_read_lock(child);
	pv = find_vma(mm, 0x100000);
	cv = find_vma(child, 0x100000);
	KUNIT_EXPECT_PTR_NE(test, pv, cv);
	KUNIT_EXPECT_PTR_EQ(test, cv->vm_mm, child);
	mmap_read_unlock(child);
	mmap_read_unlock(mm);
	vm_munmap(child, 0x100000, 2 * PG);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x102000),
		    { 0x200000, 0x203000, VM_R_FLAGS, FILE_A, 9 },
		    ANON(T_START_BRK, T_START_BRK + PG));
	mmput(child);
	mmput(mm);
}

static void exit_mmap_removes_everything(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	map_anon(mm, 0x100000, 2 * PG);
	map_anon(mm, 0x200000, 2 * PG);
	exit_mmap(mm);
	EXPECT_NO_VMAS(test, mm);
	/* Still usable afterwards. */
	KUNIT_EXPECT_EQ(test, map_anon(mm, 0x300000, PG), 0x300000UL);
	mmput(mm);
}

/* ---- lookups and the iterator ---- */

static void lookups_find_the_right_vma(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	struct vm_area_struct *a, *b, *prev;

	map_anon(mm, 0x100000, 2 * PG);
	vm_mmap(mm, NULL, 0x200000, 2 * PG, PROT_READ, FIXED, 0);
	mmap_read_lock(mm);
	a = find_vma(mm, 0);
	b = find_vma(mm, 0x102000);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, a->vm_start, 0x100000UL);
	KUNIT_EXPECT_EQ(test, b->vm_start, 0x200000UL);
	KUNIT_EXPECT_PTR_EQ(test, find_vma(mm, 0x101fff), a);
	KUNIT_EXPECT_NULL(test, find_vma(mm, 0x202000));
	KUNIT_EXPECT_NULL(test, vma_lookup(mm, 0x102000));
	KUNIT_EXPECT_PTR_EQ(test, vma_lookup(mm, 0x201000), b);
	KUNIT_EXPECT_NULL(test, find_vma_intersection(mm, 0x102000, 0x200000));
	KUNIT_EXPECT_PTR_EQ(test, find_vma_intersection(mm, 0x102000, 0x200001), b);
	KUNIT_EXPECT_PTR_EQ(test, find_vma_prev(mm, 0x150000, &prev), b);
	KUNIT_EXPECT_PTR_EQ(test, prev, a);
	KUNIT_EXPECT_NULL(test, find_vma_prev(mm, 0x300000, &prev));
	KUNIT_EXPECT_PTR_EQ(test, prev, b);
	KUNIT_EXPECT_PTR_EQ(test, find_vma_prev(mm, 0x100000, &prev), a);
	KUNIT_EXPECT_NULL(test, prev);
	mmap_read_unlock(mm);
	mmput(mm);
}

static void iterator_walks_forwards_ranges_and_backwards(struct kunit *test)
{
	static const unsigned long starts[] = { 0x100000, 0x200000, 0x300000,
						0x400000 };
	struct mm_struct *mm = vma_test_mm(test);
	struct vm_area_struct *vma;
	int i;

	for (i = 0; i < 4; i++)
		vm_mmap(mm, NULL, starts[i], PG, i & 1 ? PROT_READ : RW, FIXED, 0);
	mmap_read_lock(mm);
	{
		VMA_ITERATOR(vmi, mm, 0);

		i = 0;
		for_each_vma(vmi, vma)
			KUNIT_EXPECT_EQ(test, vma->vm_start, starts[i++]);
		KUNIT_EXPECT_EQ(test, i, 4);
	}
	{
		VMA_ITERATOR(vmi, mm, 0x200800);

		i = 1;
		for_each_vma_range(vmi, vma, 0x400000)
			KUNIT_EXPECT_EQ(test, vma->vm_start, starts[i++]);
		KUNIT_EXPECT_EQ(test, i, 3);
		/* The range is used up: back to the last VMA in it... */
		vma = vma_prev(&vmi);
		KUNIT_ASSERT_NOT_NULL(test, vma);
		KUNIT_EXPECT_EQ(test, vma->vm_start, 0x300000UL);
		/* ...and the one before. */
		vma = vma_prev(&vmi);
		KUNIT_ASSERT_NOT_NULL(test, vma);
		KUNIT_EXPECT_EQ(test, vma->vm_start, 0x200000UL);
		/* Forwards again: the one after. */
		vma = vma_next(&vmi);
		KUNIT_ASSERT_NOT_NULL(test, vma);
		KUNIT_EXPECT_EQ(test, vma->vm_start, 0x300000UL);
	}
	{
		struct vma_iterator vmi;

		vma_iter_init(&vmi, mm, ULONG_MAX);
		for (i = 3; i >= 0; i--) {
			vma = vma_prev(&vmi);
			KUNIT_ASSERT_NOT_NULL(test, vma);
			KUNIT_EXPECT_EQ(test, vma->vm_start, starts[i]);
		}
		KUNIT_EXPECT_NULL(test, vma_prev(&vmi));
	}
	mmap_read_unlock(mm);
	mmput(mm);
}

#ifndef CONFIG_MM_VMA_RBTREE
/* The iterator's tree writes, as Linux 6.12's callers use them. */
static void iterator_stores_and_clears_tree_ranges(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	struct vm_area_struct *vma;
	VMA_ITERATOR(vmi, mm, 0);

	map_anon(mm, 0x100000, 4 * PG);
	mmap_write_lock(mm);
	vma = find_vma(mm, 0x100000);
	/* Shrink the VMA and its range in the tree, by hand. */
	KUNIT_EXPECT_EQ(test, vma_iter_clear_gfp(&vmi, 0x102000, 0x104000,
						 GFP_KERNEL), 0);
	vma->vm_end = 0x102000;
	KUNIT_EXPECT_EQ(test, vma_iter_prealloc(&vmi, vma), 0);
	vma_iter_store(&vmi, vma);
	KUNIT_EXPECT_EQ(test, vma_iter_store_gfp(&vmi, vma, GFP_KERNEL), 0);
	mm->total_vm -= 2;
	KUNIT_EXPECT_PTR_EQ(test, mtree_load(&mm->mm_mt, 0x101fff), vma);
	KUNIT_EXPECT_NULL(test, mtree_load(&mm->mm_mt, 0x102000));
	mmap_write_unlock(mm);
	EXPECT_VMAS(test, mm, ANON(0x100000, 0x102000));
	mmput(mm);
}

static void lock_vma_under_rcu_returns_the_vma_read_locked(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	struct vm_area_struct *vma;

	map_anon(mm, 0x100000, 2 * PG);
	vma = lock_vma_under_rcu(mm, 0x101000);
	KUNIT_ASSERT_NOT_NULL(test, vma);
	KUNIT_EXPECT_EQ(test, vma->vm_start, 0x100000UL);
	/* A writer now would wait: its mmap_lock is free, the VMA is not. */
	KUNIT_EXPECT_FALSE(test, down_write_trylock(&vma->vm_lock));
	vma_end_read(vma);
	KUNIT_EXPECT_NULL(test, lock_vma_under_rcu(mm, 0x102000));
	/* While a writer holds mmap_lock and changed the VMA: refused. */
	mmap_write_lock(mm);
	KUNIT_EXPECT_EQ(test, do_munmap(mm, 0x101000, PG), 0);
	KUNIT_EXPECT_NULL(test, lock_vma_under_rcu(mm, 0x100000));
	mmap_write_unlock(mm);
	vma = lock_vma_under_rcu(mm, 0x100000);
	KUNIT_ASSERT_NOT_NULL(test, vma);
	vma_end_read(vma);
	mmput(mm);
}
#endif

static void faults_check_the_access_rights(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);

	vm_mmap(mm, NULL, 0x100000, PG, PROT_READ, FIXED, 0);
	map_anon(mm, 0x101000, PG);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x100010, FAULT_READ), 0);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x100010, FAULT_WRITE), -EACCES);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x101fff, FAULT_WRITE), 0);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x101fff, FAULT_EXEC), -EACCES);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x102000, FAULT_READ), -EFAULT);
	KUNIT_EXPECT_EQ(test, handle_fault_lockless(mm, 0x100010, FAULT_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, handle_fault_lockless(mm, 0x101000, FAULT_WRITE), 0);
	KUNIT_EXPECT_EQ(test, handle_fault_lockless(mm, 0xff000, FAULT_READ),
			-EFAULT);
	mmput(mm);
}

/*
 * A lookup remembered (the rbtree backend's vmacache) must not outlive the
 * VMA: after munmap, and after a new mapping that may reuse the freed
 * object, the old address faults (ASan would also catch a stale pointer).
 */
static void lookups_forget_unmapped_vmas(struct kunit *test)
{
	struct mm_struct *mm = vma_test_mm(test);
	struct vm_area_struct *vma;

	map_anon(mm, 0x100000, 2 * PG);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x100000, FAULT_WRITE), 0);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x101000, FAULT_READ), 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, 0x100000, 2 * PG), 0);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x100000, FAULT_READ), -EFAULT);
	KUNIT_EXPECT_EQ(test, handle_fault_lockless(mm, 0x101000, FAULT_READ),
			-EFAULT);
	vm_mmap(mm, NULL, 0x300000, 2 * PG, PROT_READ, FIXED, 0);
	KUNIT_EXPECT_EQ(test, handle_fault(mm, 0x100000, FAULT_READ), -EFAULT);
	mmap_read_lock(mm);
	vma = find_vma(mm, 0x100000);
	KUNIT_ASSERT_NOT_NULL(test, vma);
	KUNIT_EXPECT_EQ(test, vma->vm_start, 0x300000UL);
	mmap_read_unlock(mm);
	mmput(mm);
}

static struct kunit_case vma_unit_cases[] = {
	KUNIT_CASE(mmap_fixed_into_empty_space_creates_one_vma),
	KUNIT_CASE(mmap_next_to_compatible_vma_merges),
	KUNIT_CASE(mmap_into_hole_between_compatible_vmas_merges_all_three),
	KUNIT_CASE(mmap_with_other_flags_or_object_does_not_merge),
	KUNIT_CASE(mmap_fixed_over_middle_splits_vma_in_three),
	KUNIT_CASE(mmap_fixed_over_several_vmas_replaces_them),
	KUNIT_CASE(mmap_fixed_noreplace_over_mapping_is_eexist),
	KUNIT_CASE(mmap_bad_arguments_change_nothing),
	KUNIT_CASE(mmap_without_address_takes_highest_gap_below_mmap_base),
	KUNIT_CASE(mmap_topdown_falls_back_to_bottom_up_when_full),
	KUNIT_CASE(mmap_legacy_layout_takes_lowest_gap_from_mmap_base),
	KUNIT_CASE(mmap_hint_is_used_if_free_else_ignored),
	KUNIT_CASE(mmap_over_map_count_limit_is_enomem),
	KUNIT_CASE(munmap_middle_splits_vma_in_two),
	KUNIT_CASE(munmap_spanning_removes_covered_and_trims_ends),
	KUNIT_CASE(munmap_whole_vma_and_holes_is_fine),
	KUNIT_CASE(munmap_bad_arguments_are_einval),
	KUNIT_CASE(munmap_split_over_map_count_limit_is_enomem),
	KUNIT_CASE(brk_grows_shrinks_and_merges_the_heap),
	KUNIT_CASE(brk_refuses_to_come_within_a_page_of_next_mapping),
	KUNIT_CASE(mprotect_middle_splits_in_three_and_back_merges),
	KUNIT_CASE(mprotect_across_vmas_changes_each_and_merges),
	KUNIT_CASE(mprotect_over_a_hole_is_enomem_and_changes_nothing),
	KUNIT_CASE(mremap_shrink_unmaps_the_tail),
	KUNIT_CASE(mremap_grows_in_place_when_room_follows),
	KUNIT_CASE(mremap_moves_when_blocked_and_keeps_the_offset),
	KUNIT_CASE(mremap_fixed_replaces_the_target),
	KUNIT_CASE(mremap_bad_arguments_change_nothing),
	KUNIT_CASE(fork_copies_every_vma_and_the_copies_are_independent),
	KUNIT_CASE(exit_mmap_removes_everything),
	KUNIT_CASE(lookups_find_the_right_vma),
	KUNIT_CASE(lookups_forget_unmapped_vmas),
	KUNIT_CASE(iterator_walks_forwards_ranges_and_backwards),
#ifndef CONFIG_MM_VMA_RBTREE
	KUNIT_CASE(iterator_stores_and_clears_tree_ranges),
	KUNIT_CASE(lock_vma_under_rcu_returns_the_vma_read_locked),
#endif
	KUNIT_CASE(faults_check_the_access_rights),
	{}
};

static struct kunit_suite vma_unit_suite = {
	.name = VMA_SUITE("vma_unit"),
	.test_cases = vma_unit_cases,
};
kunit_test_suite(vma_unit_suite);
