/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm/: an address space's VMAs and the calls that change them.
 *
 * Locking, as in the kernel: every call named vm_*(), do_mprotect(),
 * do_mremap(), mm_brk(), dup_mmap(), exit_mmap() and handle_fault() takes
 * mm->mmap_lock itself; the do_*() calls below them (do_mmap(),
 * do_munmap()) and the lookups (find_vma() and friends, the VMA iterator)
 * expect the caller to hold it, for write to change VMAs, for read (or
 * write) to look them up.  lock_vma_under_rcu() needs no mmap_lock.
 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/bits.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/mmap_lock.h>

#ifndef PAGE_SHIFT
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#endif
#ifndef PAGE_ALIGN
#define PAGE_ALIGN(addr)	(((addr) + PAGE_SIZE - 1) & PAGE_MASK)
#endif
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)

/* The default user address space of a new mm (see mm_alloc()). */
#if BITS_PER_LONG == 64
#define TASK_SIZE_DEFAULT	(1UL << 47)
#else
#define TASK_SIZE_DEFAULT	0xc0000000UL
#endif
#define TASK_UNMAPPED_BASE(mm)	PAGE_ALIGN((mm)->task_size / 3)
/* Room left for the stack between mmap_base and task_size. */
#define MMAP_STACK_GAP		(128UL << 20)

/* vm_flags */
#define VM_NONE		0x00000000UL
#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_MAYREAD	0x00000010UL
#define VM_MAYWRITE	0x00000020UL
#define VM_MAYEXEC	0x00000040UL
#define VM_MAYSHARE	0x00000080UL
#define VM_GROWSDOWN	0x00000100UL
#define VM_ACCESS_FLAGS	(VM_READ | VM_WRITE | VM_EXEC)

/* mmap()/mprotect()/mremap() arguments, with the Linux UAPI values. */
#ifndef PROT_READ
#define PROT_NONE		0x0
#define PROT_READ		0x1
#define PROT_WRITE		0x2
#define PROT_EXEC		0x4
#endif
#ifndef MAP_SHARED
#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif
#ifndef MREMAP_MAYMOVE
#define MREMAP_MAYMOVE		1
#define MREMAP_FIXED		2
#endif

/* handle_fault() access kinds (the FAULT_FLAG_* the kernel derives). */
#define FAULT_READ		0x1
#define FAULT_WRITE		0x2
#define FAULT_EXEC		0x4

#define DEFAULT_MAX_MAP_COUNT	65530
extern int sysctl_max_map_count;
extern unsigned long mmap_min_addr;

/* ---- address spaces ---- */

struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm);
struct mm_struct *dup_mmap(struct mm_struct *oldmm);
void exit_mmap(struct mm_struct *mm);

/* ---- lookups: mmap_lock held ---- */

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *find_vma_prev(struct mm_struct *mm, unsigned long addr,
				     struct vm_area_struct **pprev);
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm,
					     unsigned long start_addr,
					     unsigned long end_addr);

/**
 * vma_lookup() - The VMA that holds @addr.
 * @mm: The address space; mmap_lock held.
 * @addr: The address.
 *
 * Return: the VMA with vm_start <= @addr < vm_end, or NULL.
 */
static inline struct vm_area_struct *vma_lookup(struct mm_struct *mm,
						unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	if (vma && addr < vma->vm_start)
		vma = NULL;
	return vma;
}

static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}

/* ---- the VMA iterator: mmap_lock held ---- */

/**
 * vma_iter_init() - Set an iterator to @addr of @mm.
 * @vmi: The iterator.
 * @mm: The address space.
 * @addr: Where vma_next() and vma_find() start; vma_prev() returns the
 *        last VMA below it.
 */
#ifdef CONFIG_MM_VMA_RBTREE
static inline void vma_iter_init(struct vma_iterator *vmi,
				 struct mm_struct *mm, unsigned long addr)
{
	vmi->mm = mm;
	vmi->index = addr;
	vmi->prev_end = addr;
}
struct vm_area_struct *vma_find(struct vma_iterator *vmi, unsigned long max);
struct vm_area_struct *vma_prev(struct vma_iterator *vmi);
#else
static inline void vma_iter_init(struct vma_iterator *vmi,
				 struct mm_struct *mm, unsigned long addr)
{
	vmi->mas = (struct ma_state) {
		.tree = &mm->mm_mt,
		.index = addr,
		.last = addr,
		.node = MAS_START,
		.max = ULONG_MAX,
	};
}

/**
 * vma_find() - The next VMA that starts below @max.
 * @vmi: The iterator.
 * @max: The end of the search (exclusive).
 *
 * Return: the VMA at or after the iterator's position, or NULL.
 */
static inline struct vm_area_struct *vma_find(struct vma_iterator *vmi,
					      unsigned long max)
{
	return mas_find(&vmi->mas, max - 1);
}

/**
 * vma_prev() - The VMA before the iterator's position.
 * @vmi: The iterator.
 *
 * Return: the previous VMA, or NULL if there is none.
 */
static inline struct vm_area_struct *vma_prev(struct vma_iterator *vmi)
{
	return mas_prev(&vmi->mas, 0);
}
#endif

/**
 * vma_next() - The next VMA.
 * @vmi: The iterator.
 *
 * Return: the VMA at or after the iterator's position, or NULL.
 */
static inline struct vm_area_struct *vma_next(struct vma_iterator *vmi)
{
	return vma_find(vmi, ULONG_MAX);
}

#define for_each_vma(__vmi, __vma)					\
	while (((__vma) = vma_next(&(__vmi))) != NULL)

#define for_each_vma_range(__vmi, __vma, __end)				\
	while (((__vma) = vma_find(&(__vmi), (__end))) != NULL)

/*
 * Tree writes through an iterator (maple backend only: the rbtree backend
 * links VMAs instead).  The caller holds mmap_lock for write.
 */
#ifndef CONFIG_MM_VMA_RBTREE
/**
 * vma_iter_prealloc() - Allocate for storing @vma over its range.
 * @vmi: The iterator.
 * @vma: The VMA that vma_iter_store() will store.
 *
 * Return: 0, or -ENOMEM with nothing allocated.
 */
static inline int vma_iter_prealloc(struct vma_iterator *vmi,
				    struct vm_area_struct *vma)
{
	__mas_set_range(&vmi->mas, vma->vm_start, vma->vm_end - 1);
	return mas_preallocate(&vmi->mas, vma, GFP_KERNEL);
}

/**
 * vma_iter_store() - Store @vma over [vm_start, vm_end) after
 * vma_iter_prealloc(); cannot fail.
 * @vmi: The iterator.
 * @vma: The VMA given to vma_iter_prealloc().
 */
static inline void vma_iter_store(struct vma_iterator *vmi,
				  struct vm_area_struct *vma)
{
	__mas_set_range(&vmi->mas, vma->vm_start, vma->vm_end - 1);
	mas_store_prealloc(&vmi->mas, vma);
}

/**
 * vma_iter_store_gfp() - Store @vma over [vm_start, vm_end), allocating.
 * @vmi: The iterator.
 * @vma: The VMA.
 * @gfp: Allocation flags.
 *
 * Return: 0, or -ENOMEM with the tree unchanged.
 */
static inline int vma_iter_store_gfp(struct vma_iterator *vmi,
				     struct vm_area_struct *vma, gfp_t gfp)
{
	__mas_set_range(&vmi->mas, vma->vm_start, vma->vm_end - 1);
	return mas_store_gfp(&vmi->mas, vma, gfp);
}

/**
 * vma_iter_clear_gfp() - Remove whatever is mapped in [@start, @end).
 * @vmi: The iterator.
 * @start: First address.
 * @end: First address after the range.
 * @gfp: Allocation flags.
 *
 * Return: 0, or -ENOMEM with the tree unchanged.
 */
static inline int vma_iter_clear_gfp(struct vma_iterator *vmi,
				     unsigned long start, unsigned long end,
				     gfp_t gfp)
{
	__mas_set_range(&vmi->mas, start, end - 1);
	return mas_store_gfp(&vmi->mas, NULL, gfp);
}
#endif

/* ---- operations ---- */

unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				unsigned long len, unsigned long pgoff,
				unsigned long flags);
unsigned long do_mmap(struct mm_struct *mm, struct file *file,
		      unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags,
		      unsigned long pgoff);
unsigned long vm_mmap(struct mm_struct *mm, struct file *file,
		      unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags,
		      unsigned long pgoff);
int do_munmap(struct mm_struct *mm, unsigned long start, size_t len);
int vm_munmap(struct mm_struct *mm, unsigned long start, size_t len);
unsigned long mm_brk(struct mm_struct *mm, unsigned long brk);
int do_mprotect(struct mm_struct *mm, unsigned long start, size_t len,
		unsigned long prot);
unsigned long do_mremap(struct mm_struct *mm, unsigned long addr,
			unsigned long old_len, unsigned long new_len,
			unsigned long flags, unsigned long new_addr);

int handle_fault(struct mm_struct *mm, unsigned long addr,
		 unsigned int access);
#ifndef CONFIG_MM_VMA_RBTREE
struct vm_area_struct *lock_vma_under_rcu(struct mm_struct *mm,
					  unsigned long addr);
void vma_end_read(struct vm_area_struct *vma);
#endif
int handle_fault_lockless(struct mm_struct *mm, unsigned long addr,
			  unsigned int access);

int validate_mm(struct mm_struct *mm);

#endif /* _LINUX_MM_H */
