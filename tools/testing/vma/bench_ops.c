// SPDX-License-Identifier: GPL-2.0
/*
 * One backend's entry points for vma_bench.c (see bench_ops.h); built
 * with -DVMA_BACKEND=maple, rbtree, upstream or upstream612 (and then
 * -DVMA_BACKEND_NAME="upstream-6.12", the name shown).
 */
#include <linux/mm.h>

#include "bench_ops.h"

#define __BENCH_CAT(a, b)	a##b
#define BENCH_CAT(a, b)		__BENCH_CAT(a, b)
#define __BENCH_STR(x)		#x
#define BENCH_STR(x)		__BENCH_STR(x)
#ifndef VMA_BACKEND_NAME
#define VMA_BACKEND_NAME	BENCH_STR(VMA_BACKEND)
#endif

/*
 * An upstream blob holds Linux's lib/maple_tree.c itself, with its own
 * node cache to create; the other two share libmaple.a's, which
 * vma_bench.c sets up.
 */
#ifdef VMA_BENCH_UPSTREAM
static void b_init(void)
{
	maple_tree_init();
}
#else
#define b_init	NULL
#endif

static void *b_mm_new(void)
{
	return mm_alloc();
}

static void b_mm_put(void *mm)
{
	mmput(mm);
}

static unsigned long b_prot(int prot)
{
	return (prot & BENCH_PROT_READ ? PROT_READ : 0) |
	       (prot & BENCH_PROT_WRITE ? PROT_WRITE : 0) |
	       (prot & BENCH_PROT_EXEC ? PROT_EXEC : 0);
}

static unsigned long b_mmap(void *mm, const void *file, unsigned long addr,
			    unsigned long len, int prot, int flags,
			    unsigned long pgoff)
{
	unsigned long f = flags & BENCH_MAP_SHARED ? MAP_SHARED : MAP_PRIVATE;

	if (flags & BENCH_MAP_FIXED)
		f |= MAP_FIXED;
	if (!file)
		f |= MAP_ANONYMOUS;
	return vm_mmap(mm, (struct file *)file, addr, len, b_prot(prot), f,
		       pgoff);
}

static int b_munmap(void *mm, unsigned long addr, unsigned long len)
{
	return vm_munmap(mm, addr, len);
}

static int b_mprotect(void *mm, unsigned long addr, unsigned long len,
		      int prot)
{
	return do_mprotect(mm, addr, len, b_prot(prot));
}

static unsigned long b_brk(void *mm, unsigned long brk)
{
	return mm_brk(mm, brk);
}

static unsigned long b_start_brk(void *mm)
{
	return ((struct mm_struct *)mm)->start_brk;
}

static int b_fault(void *mm, unsigned long addr, bool write)
{
	return handle_fault(mm, addr, write ? FAULT_WRITE : FAULT_READ);
}

static int b_fault_lockless(void *mm, unsigned long addr, bool write)
{
	return handle_fault_lockless(mm, addr, write ? FAULT_WRITE : FAULT_READ);
}

static void *b_fork(void *mm)
{
	return dup_mmap(mm);
}

/*
 * The walk every VMA user does (exit, fork's copy, /proc/pid/maps): the
 * maple backends' for_each_vma(), the rbtree backend's vm_next list, as
 * Linux before 6.1 walked it.
 */
static unsigned long b_iterate(void *mm)
{
	struct mm_struct *m = mm;
	struct vm_area_struct *vma;
	unsigned long count = 0;

	mmap_read_lock(m);
#ifdef CONFIG_MM_VMA_RBTREE
	for (vma = m->mmap; vma; vma = vma->vm_next)
		count++;
#else
	{
		VMA_ITERATOR(vmi, m, 0);

		for_each_vma(vmi, vma)
			count++;
	}
#endif
	mmap_read_unlock(m);
	return count;
}

static int b_map_count(void *mm)
{
	return ((struct mm_struct *)mm)->map_count;
}

const struct vma_bench_ops BENCH_CAT(vma_bench_ops_, VMA_BACKEND) = {
	.name = VMA_BACKEND_NAME,
	.init = b_init,
	.mm_new = b_mm_new,
	.mm_put = b_mm_put,
	.mmap = b_mmap,
	.munmap = b_munmap,
	.mprotect = b_mprotect,
	.brk = b_brk,
	.start_brk = b_start_brk,
	.fault = b_fault,
	.fault_lockless = b_fault_lockless,
	.fork = b_fork,
	.iterate = b_iterate,
	.map_count = b_map_count,
};
