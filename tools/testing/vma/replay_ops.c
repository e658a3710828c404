// SPDX-License-Identifier: GPL-2.0
/*
 * One backend's entry points for the trace replayer (replay.h); built
 * like bench_ops.c with -DVMA_BACKEND=maple, rbtree, upstream or
 * upstream612, exporting only vma_replay_ops_<backend>.
 *
 * A file is an identity to mm/ (it compares vm_file, never reads it), so
 * a trace's file number becomes a pointer value no object lives at.
 */
#include <linux/mm.h>

#include "replay.h"

#define __REPLAY_CAT(a, b)	a##b
#define REPLAY_CAT(a, b)	__REPLAY_CAT(a, b)
#define __REPLAY_STR(x)		#x
#define REPLAY_STR(x)		__REPLAY_STR(x)
#ifndef VMA_BACKEND_NAME
#define VMA_BACKEND_NAME	REPLAY_STR(VMA_BACKEND)
#endif

#ifdef VMA_BENCH_UPSTREAM
static void r_init(void)
{
	maple_tree_init();
}
#else
#define r_init	NULL
#endif

static struct file *r_file(unsigned long file)
{
	return file ? (struct file *)(file << 4) : NULL;
}

static unsigned long r_prot(int prot)
{
	return (prot & REPLAY_PROT_READ ? PROT_READ : 0) |
	       (prot & REPLAY_PROT_WRITE ? PROT_WRITE : 0) |
	       (prot & REPLAY_PROT_EXEC ? PROT_EXEC : 0);
}

static void *r_mm_new(void)
{
	return mm_alloc();
}

static void r_mm_put(void *mm)
{
	mmput(mm);
}

static void *r_fork(void *mm)
{
	return dup_mmap(mm);
}

static long r_mmap(void *mm, unsigned long file, unsigned long addr,
		   unsigned long len, int prot, int flags, unsigned long pgoff)
{
	unsigned long f = flags & REPLAY_MAP_SHARED ? MAP_SHARED : MAP_PRIVATE;

	if (flags & REPLAY_MAP_FIXED)
		f |= MAP_FIXED;
	if (flags & REPLAY_MAP_NOREPLACE)
		f |= MAP_FIXED_NOREPLACE;
	if (!file)
		f |= MAP_ANONYMOUS;
	return (long)vm_mmap(mm, r_file(file), addr, len, r_prot(prot), f,
			     pgoff);
}

static long r_munmap(void *mm, unsigned long addr, unsigned long len)
{
	return vm_munmap(mm, addr, len);
}

static long r_mprotect(void *mm, unsigned long addr, unsigned long len,
		       int prot)
{
	return do_mprotect(mm, addr, len, r_prot(prot));
}

static long r_mremap(void *mm, unsigned long addr, unsigned long old_len,
		     unsigned long new_len, int flags, unsigned long new_addr)
{
	unsigned long f = (flags & REPLAY_MREMAP_MAYMOVE ? MREMAP_MAYMOVE : 0) |
			  (flags & REPLAY_MREMAP_FIXED ? MREMAP_FIXED : 0);

	return (long)do_mremap(mm, addr, old_len, new_len, f, new_addr);
}

static unsigned long r_brk(void *mm, unsigned long brk)
{
	return mm_brk(mm, brk);
}

static void r_set_brk(void *mm, unsigned long start)
{
	struct mm_struct *m = mm;

	mmap_write_lock(m);
	m->start_brk = start;
	m->brk = start;
	mmap_write_unlock(m);
}

/*
 * The VMA walk of MADV_DONTNEED (which then zaps pages mm/ does not
 * have): every VMA of the range, the holes counted against it.
 */
static long r_madvise(void *mm, unsigned long addr, unsigned long len)
{
	struct mm_struct *m = mm;
	struct vm_area_struct *vma;
	unsigned long end;
	long ret = 0;

	if (offset_in_page(addr))
		return -EINVAL;
	len = PAGE_ALIGN(len);
	end = addr + len;
	if (end < addr)
		return -EINVAL;
	mmap_read_lock(m);
	while (addr < end) {
		vma = find_vma(m, addr);
		if (!vma || vma->vm_start >= end) {
			ret = -ENOMEM;
			break;
		}
		if (vma->vm_start > addr)
			ret = -ENOMEM;
		addr = vma->vm_end;
	}
	mmap_read_unlock(m);
	return ret;
}

static int r_fault(void *mm, unsigned long addr, bool write)
{
	return handle_fault_lockless(mm, addr, write ? FAULT_WRITE : FAULT_READ);
}

static bool r_first_hole(void *mm, unsigned long start, unsigned long end,
			 unsigned long *hole_start, unsigned long *hole_end)
{
	struct mm_struct *m = mm;
	struct vm_area_struct *vma;
	bool found = false;

	mmap_read_lock(m);
	while (start < end) {
		vma = find_vma(m, start);
		if (!vma || vma->vm_start > start) {
			*hole_start = start;
			*hole_end = vma && vma->vm_start < end ? vma->vm_start : end;
			found = true;
			break;
		}
		start = vma->vm_end;
	}
	mmap_read_unlock(m);
	return found;
}

static uint64_t r_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static uint64_t r_digest(void *mm)
{
	struct mm_struct *m = mm;
	struct vm_area_struct *vma;
	unsigned long addr = 0;
	uint64_t h = 1;

	mmap_read_lock(m);
	while ((vma = find_vma(m, addr))) {
		h = r_mix(h, vma->vm_start);
		h = r_mix(h, vma->vm_end);
		h = r_mix(h, vma->vm_flags & (VM_ACCESS_FLAGS | VM_SHARED));
		h = r_mix(h, (unsigned long)vma->vm_file);
		h = r_mix(h, vma->vm_file ? vma->vm_pgoff : 0);
		addr = vma->vm_end;
	}
	h = r_mix(h, m->brk);
	mmap_read_unlock(m);
	return h;
}

static int r_map_count(void *mm)
{
	return ((struct mm_struct *)mm)->map_count;
}

static int r_validate(void *mm)
{
	struct mm_struct *m = mm;
	int errors;

	mmap_read_lock(m);
	errors = validate_mm(m);
	mmap_read_unlock(m);
	return errors;
}

const struct vma_replay_ops REPLAY_CAT(vma_replay_ops_, VMA_BACKEND) = {
	.name = VMA_BACKEND_NAME,
	.init = r_init,
	.mm_new = r_mm_new,
	.mm_put = r_mm_put,
	.fork = r_fork,
	.mmap = r_mmap,
	.munmap = r_munmap,
	.mprotect = r_mprotect,
	.mremap = r_mremap,
	.brk = r_brk,
	.set_brk = r_set_brk,
	.madvise = r_madvise,
	.fault = r_fault,
	.first_hole = r_first_hole,
	.digest = r_digest,
	.map_count = r_map_count,
	.validate = r_validate,
};
