/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The address-space types of mm/: struct vm_area_struct (one mapping),
 * struct mm_struct (one address space) and struct vma_iterator.
 *
 * Two backends keep an address space's VMAs, chosen when mm/ is built:
 *  - the maple tree (default): mm->mm_mt maps [vm_start, vm_end - 1] to
 *    the VMA, in RCU mode with mmap_lock as its external lock, so page
 *    faults may look VMAs up without mmap_lock (lock_vma_under_rcu());
 *  - CONFIG_MM_VMA_RBTREE: the design Linux used before 6.1, a red-black
 *    tree of VMAs keyed by vm_start and augmented with the largest gap
 *    below each subtree (rb_subtree_gap), the sorted vm_next/vm_prev list
 *    and a per-task cache of recent lookups (struct vmacache).
 */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H

#include <linux/atomic.h>
#include <linux/maple_tree.h>
#include <linux/mm_types_task.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/types.h>

struct file;
struct mm_struct;

#ifdef CONFIG_MM_VMA_RBTREE
/*
 * struct vma_rb_node - a node of mm/'s own red-black tree of VMAs.
 * @parent: the parent node, NULL at the root
 * @left, @right: the children
 * @red: true for a red node
 */
struct vma_rb_node {
	struct vma_rb_node *parent;
	struct vma_rb_node *left;
	struct vma_rb_node *right;
	bool red;
};
#endif

/**
 * struct vm_area_struct - one mapping of an address space.
 * @vm_start: first address of the mapping
 * @vm_end: first address after it (exclusive)
 * @vm_mm: the address space it belongs to
 * @vm_flags: VM_* flags (access rights and kind)
 * @vm_pgoff: offset in @vm_file, in pages; for anonymous memory the page
 *            number of the address the mapping was first made at
 * @vm_file: identity of the backing object (a file, or NULL for anonymous
 *           memory); only compared, never dereferenced
 * @vm_lock: the per-VMA lock (maple backend): page faults hold it for read
 * @vm_lock_seq: mm->mm_lock_seq when a writer last locked the VMA; equal
 *               to the current value while the VMA is being changed
 * @detached: set once the VMA is out of the tree (maple backend)
 * @vm_rcu: defers the free until RCU readers are done (maple backend)
 * @vm_rb: node in mm->mm_rb (rbtree backend)
 * @rb_subtree_gap: largest free gap before any VMA of this subtree
 *                  (rbtree backend)
 * @vm_next, @vm_prev: the sorted list of VMAs (rbtree backend)
 * @vm_mark: scratch mark of an mm/ operation in progress (mmap_lock held)
 */
struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_flags;
	unsigned long vm_pgoff;
	struct file *vm_file;
#ifdef CONFIG_MM_VMA_RBTREE
	struct vma_rb_node vm_rb;
	unsigned long rb_subtree_gap;
	struct vm_area_struct *vm_next, *vm_prev;
#else
	struct rw_semaphore vm_lock;
	int vm_lock_seq;
	bool detached;
	struct rcu_head vm_rcu;
#endif
	bool vm_mark;
};

/**
 * struct mm_struct - an address space.
 * @mm_mt: the VMAs (maple backend): [vm_start, vm_end - 1] -> VMA
 * @mm_rb: root of the VMA red-black tree (rbtree backend)
 * @mmap: the first VMA of the sorted list (rbtree backend)
 * @vmacache_seqnum: bumped whenever a cached VMA may have gone stale
 *                   (rbtree backend)
 * @mmap_lock: held for write to change VMAs, for read to look them up
 * @mm_lock_seq: bumped when the write hold on @mmap_lock ends; VMAs
 *               write-locked under the old value become unlocked
 * @mm_users: references; mmput() of the last one tears the mm down
 * @map_count: number of VMAs
 * @mmap_base: where top-down searches for free space start
 * @mmap_legacy: search bottom-up from TASK_UNMAPPED_BASE instead
 * @task_size: end of the user address space
 * @start_brk, @brk: the heap's start and current end
 * @total_vm: pages mapped
 */
struct mm_struct {
#ifdef CONFIG_MM_VMA_RBTREE
	struct vma_rb_node *mm_rb;
	struct vm_area_struct *mmap;
	u64 vmacache_seqnum;
#else
	struct maple_tree mm_mt;
	int mm_lock_seq;
#endif
	struct rw_semaphore mmap_lock;
	atomic_t mm_users;
	int map_count;
	bool mmap_legacy;
	unsigned long mmap_base;
	unsigned long task_size;
	unsigned long start_brk, brk;
	unsigned long total_vm;
};

/**
 * struct vma_iterator - a position in an address space's VMAs.
 * @mas: the maple state (maple backend)
 * @mm: the address space (rbtree backend)
 * @index: where the next forward step starts (rbtree backend)
 * @prev_end: vma_prev() returns the last VMA starting below this
 *            (rbtree backend)
 */
struct vma_iterator {
#ifdef CONFIG_MM_VMA_RBTREE
	struct mm_struct *mm;
	unsigned long index;
	unsigned long prev_end;
#else
	struct ma_state mas;
#endif
};

#ifdef CONFIG_MM_VMA_RBTREE
#define VMA_ITERATOR(name, __mm, __addr)				\
	struct vma_iterator name = {					\
		.mm = (__mm),						\
		.index = (__addr),					\
		.prev_end = (__addr),					\
	}
#else
#define VMA_ITERATOR(name, __mm, __addr)				\
	struct vma_iterator name = {					\
		.mas = {						\
			.tree = &(__mm)->mm_mt,				\
			.index = (__addr),				\
			.last = (__addr),				\
			.node = MAS_START,				\
			.min = 0,					\
			.max = ULONG_MAX,				\
		},							\
	}
#endif

#endif /* _LINUX_MM_TYPES_H */
