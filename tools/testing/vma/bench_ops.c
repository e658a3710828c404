// SPDX-License-Identifier: GPL-2.0
/*
 * One backend's entry points for vma_bench.c (see bench_ops.h); built
 * with -DVMA_BACKEND=maple or rbtree.
 */
#include <linux/mm.h>

#include "bench_ops.h"

#define __BENCH_CAT(a, b)	a##b
#define BENCH_CAT(a, b)		__BENCH_CAT(a, b)
#define __BENCH_STR(x)		#x
#define BENCH_STR(x)		__BENCH_STR(x)

static void *b_mm_new(void)
{
	return mm_alloc();
}

static void b_mm_put(void *mm)
{
	mmput(mm);
}

static unsigned long b_mmap_anon(void *mm, unsigned long addr,
				 unsigned long len, int writable)
{
	return vm_mmap(mm, NULL, addr, len,
		       PROT_READ | (writable ? PROT_WRITE : 0),
		       MAP_PRIVATE | MAP_ANONYMOUS | (addr ? MAP_FIXED : 0), 0);
}

static int b_munmap(void *mm, unsigned long addr, unsigned long len)
{
	return vm_munmap(mm, addr, len);
}

static int b_fault(void *mm, unsigned long addr)
{
	return handle_fault(mm, addr, FAULT_READ);
}

static int b_fault_lockless(void *mm, unsigned long addr)
{
	return handle_fault_lockless(mm, addr, FAULT_READ);
}

/*
 * The walk every VMA user does (exit, fork's copy, /proc/pid/maps): the
 * maple backend's for_each_vma(), the rbtree backend's vm_next list, as
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
	.name = BENCH_STR(VMA_BACKEND),
	.mm_new = b_mm_new,
	.mm_put = b_mm_put,
	.mmap_anon = b_mmap_anon,
	.munmap = b_munmap,
	.fault = b_fault,
	.fault_lockless = b_fault_lockless,
	.iterate = b_iterate,
	.map_count = b_map_count,
};
