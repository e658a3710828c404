// SPDX-License-Identifier: GPL-2.0
/*
 * The life of an address space: mm_alloc(), dup_mmap() (the
 * copy fork() makes), exit_mmap() and mmput().
 */
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "internal.h"

static struct kmem_cache *mm_cachep;

/**
 * mm_alloc() - A new, empty address space.
 *
 * task_size is TASK_SIZE_DEFAULT, mmap_base leaves MMAP_STACK_GAP below
 * it for a stack, the search for free space is top-down, the heap starts
 * (empty) at TASK_UNMAPPED_BASE / 2.  Callers may change these before the
 * first mapping.  One reference (mm_users).
 *
 * Return: the mm, or NULL if out of memory.
 */
struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm;

	vm_area_init_caches();
	if (!READ_ONCE(mm_cachep))
		WRITE_ONCE(mm_cachep, KMEM_CACHE(mm_struct, SLAB_PANIC));
	mm = kmem_cache_zalloc(mm_cachep, GFP_KERNEL);
	if (!mm)
		return NULL;
	mmap_init_lock(mm);
	atomic_set(&mm->mm_users, 1);
	mm->task_size = TASK_SIZE_DEFAULT;
	mm->mmap_base = mm->task_size - MMAP_STACK_GAP;
	mm->start_brk = PAGE_ALIGN(TASK_UNMAPPED_BASE(mm) / 2);
	mm->brk = mm->start_brk;
	vma_tree_init(mm);
	return mm;
}
EXPORT_SYMBOL(mm_alloc);

/**
 * dup_mmap() - Copy an address space, as fork() does.
 * @oldmm: The parent (mmap_lock is taken for write here).
 *
 * The child gets a copy of every VMA (same ranges, flags, objects, page
 * offsets) and of the layout fields.  On the maple backend the tree is
 * copied node for node with __mt_dup() and its entries then replaced by
 * the copies; on the rbtree backend the copies are linked one by one.
 *
 * Return: the child, or NULL if out of memory (nothing leaked, the parent
 * unchanged).
 */
struct mm_struct *dup_mmap(struct mm_struct *oldmm)
{
	struct vm_area_struct **copies = NULL;
	struct mm_struct *mm = mm_alloc();
	int nr;

	if (!mm)
		return NULL;
	mmap_write_lock(oldmm);
	mmap_write_lock(mm);
	mm->task_size = oldmm->task_size;
	mm->mmap_base = oldmm->mmap_base;
	mm->mmap_legacy = oldmm->mmap_legacy;
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	/* Every copy first, so that the backend's copy cannot fail half way. */
	nr = oldmm->map_count;
	if (nr) {
		copies = kmalloc_array(nr, sizeof(*copies), GFP_KERNEL);
		if (!copies)
			goto fail;
		if (!vm_area_alloc_bulk(mm, nr, copies))
			goto fail;
	}
	if (vma_tree_dup(oldmm, mm, copies)) {
		vm_area_free_bulk(nr, copies);
		goto fail;
	}
	kfree(copies);
	mm->map_count = oldmm->map_count;
	mm->total_vm = oldmm->total_vm;
	mmap_write_unlock(mm);
	mmap_write_unlock(oldmm);
	return mm;

fail:
	kfree(copies);
	mmap_write_unlock(mm);
	mmap_write_unlock(oldmm);
	mmput(mm);
	return NULL;
}
EXPORT_SYMBOL(dup_mmap);

/**
 * exit_mmap() - Remove every mapping of @mm.
 * @mm: The address space (mmap_lock is taken for write here).
 *
 * As when a kernel's mmput() drops the last user: no lock-free reader
 * (lock_vma_under_rcu(), handle_fault_lockless()) may be running on @mm
 * or start on it before this returns, so the VMAs and the tree's nodes
 * are freed at once, without waiting for a grace period.  @mm may be
 * used again afterwards.
 */
void exit_mmap(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *prev;
	struct vma_walk w;

	mmap_write_lock(mm);
	vma = vma_walk_start(&w, mm, 0, &prev);
	while (vma) {
		struct vm_area_struct *next = vma_walk_next(&w);

		vm_area_free_now(vma);
		vma = next;
	}
	vma_tree_destroy(mm);
	mm->map_count = 0;
	mm->total_vm = 0;
	mmap_write_unlock(mm);
}
EXPORT_SYMBOL(exit_mmap);

/**
 * mmput() - Drop a reference to @mm; the last one tears it down.
 * @mm: The address space.
 */
void mmput(struct mm_struct *mm)
{
	if (!atomic_dec_and_test(&mm->mm_users))
		return;
	exit_mmap(mm);
	kmem_cache_free(mm_cachep, mm);
}
EXPORT_SYMBOL(mmput);
