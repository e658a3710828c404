/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by mm/'s suites: they are built once per backend (see rules.mk),
 * and VMA_SUITE("name") gives each build's suite its own name,
 * "name_maple" or "name_rbtree".
 */
#ifndef _VMA_TEST_H
#define _VMA_TEST_H

#include <kunit/test.h>
#include <linux/mm.h>

#define __VMA_STR(x)	#x
#define VMA_STR(x)	__VMA_STR(x)
#define VMA_SUITE(name)	name "_" VMA_STR(VMA_BACKEND)

#ifdef CONFIG_MM_VMA_RBTREE
#define VMA_IS_MAPLE	0
#else
#define VMA_IS_MAPLE	1
#endif

#define PG		4096UL
/* The small layout most cases use (addresses are easy to read). */
#define T_TASK_SIZE	0x10000000UL
#define T_MMAP_BASE	0x0f000000UL
#define T_START_BRK	0x01000000UL

/* Backing objects: only their identity matters. */
#define FILE_A		((struct file *)0x1000)
#define FILE_B		((struct file *)0x2000)

static inline struct mm_struct *vma_test_mm(struct kunit *test)
{
	struct mm_struct *mm = mm_alloc();

	KUNIT_ASSERT_NOT_NULL(test, mm);
	mm->task_size = T_TASK_SIZE;
	mm->mmap_base = T_MMAP_BASE;
	mm->start_brk = mm->brk = T_START_BRK;
	return mm;
}

#define RW	(PROT_READ | PROT_WRITE)
#define VM_RW_FLAGS	(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | \
			 VM_MAYEXEC)
#define VM_R_FLAGS	(VM_READ | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)

#endif /* _VMA_TEST_H */
