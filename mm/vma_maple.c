// SPDX-License-Identifier: GPL-2.0
/*
 * The maple tree backend (the default; Linux 6.1 and
 * later): mm->mm_mt maps [vm_start, vm_end - 1] to each VMA.  The tree is
 * an allocation tree (free gaps tracked, so free space is found in
 * O(log n)), in RCU mode, with mmap_lock as its external lock: writers
 * hold mmap_lock for write, lock-free readers hold rcu_read_lock() and a
 * per-VMA read lock (lock_vma_under_rcu()).
 *
 * Conventions: @mm the address space, @mas a maple state on mm->mm_mt,
 * @vma a VMA, @rw the rewrite being committed.
 */
#ifndef CONFIG_MM_VMA_RBTREE

#include <linux/mm.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "internal.h"

#define MM_MT_FLAGS	(MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN | \
			 MT_FLAGS_USE_RCU)

void vma_tree_init(struct mm_struct *mm)
{
	mt_init_flags(&mm->mm_mt, MM_MT_FLAGS);
	mt_set_external_lock(&mm->mm_mt, &mm->mmap_lock);
}

/*
 * The address space is being torn down (exit_mmap()): no task uses it, so
 * no lock-free reader can be walking its tree (a page fault runs in a task
 * of the mm it faults in).  Nothing then needs a grace period: leave RCU
 * mode, so that __mt_destroy() frees the nodes at once.
 */
void vma_tree_destroy(struct mm_struct *mm)
{
	mt_clear_in_rcu(&mm->mm_mt);
	__mt_destroy(&mm->mm_mt);
	/* An empty tree again, ready for reuse (exit_mmap() then mmput()). */
	vma_tree_init(mm);
}

struct vm_area_struct *vma_tree_find(struct mm_struct *mm, unsigned long addr)
{
	unsigned long index = addr;

	return mt_find(&mm->mm_mt, &index, ULONG_MAX);
}

struct vm_area_struct *vma_tree_find_before(struct mm_struct *mm,
					    unsigned long addr)
{
	MA_STATE(mas, &mm->mm_mt, addr - 1, addr - 1);

	if (!addr)
		return NULL;
	return mas_find_rev(&mas, 0);
}

struct vm_area_struct *vma_tree_next(struct mm_struct *mm,
				     struct vm_area_struct *vma)
{
	return vma_tree_find(mm, vma->vm_end);
}

/*
 * One descent to the range that holds @addr (a VMA or a gap); a copy of
 * the state steps back from there one range, which is the only one that
 * can end where that range starts, while the walk itself stays put (on
 * the VMA) or steps forward to the first VMA above the gap.  Both steps
 * mostly stay inside the leaf.
 */
struct vm_area_struct *vma_walk_start(struct vma_walk *w, struct mm_struct *mm,
				      unsigned long addr,
				      struct vm_area_struct **prev)
{
	struct ma_state *mas = &w->mas, back;
	struct vm_area_struct *vma;

	*mas = (struct ma_state){
		.tree = &mm->mm_mt, .index = addr, .last = addr,
		.node = MAS_START, .max = ULONG_MAX,
	};
	vma = mas_walk(mas);
	if (prev) {
		back = *mas;
		*prev = mas_prev_range(&back, 0);
	}
	if (vma || mas->last == ULONG_MAX)
		return vma;
	return mas_next(mas, ULONG_MAX);
}

struct vm_area_struct *vma_walk_next(struct vma_walk *w)
{
	return mas_next(&w->mas, ULONG_MAX);
}

/*
 * Range by range: the walk stops on the gap after the window's last VMA,
 * or on that VMA, in the leaf a commit of the window mostly writes.
 * mas_next() would go on to the VMA above the gap, often in the next
 * leaf, and past the last VMA leave the state MAS_NONE.  Gaps never
 * follow each other: the range after a gap is a VMA.
 */
struct vm_area_struct *vma_walk_next_upto(struct vma_walk *w,
					  unsigned long max)
{
	struct vm_area_struct *vma = mas_next_range(&w->mas, max);

	if (!vma && w->mas.last < max)
		vma = mas_next_range(&w->mas, max);
	return vma;
}

/* ---- per-VMA locks ---- */

/*
 * Write-lock @vma until mmap_write_unlock(): readers that try it from now
 * on fail.  Waits for readers that hold it.
 */
static void vma_start_write(struct vm_area_struct *vma)
{
	int seq = vma->vm_mm->mm_lock_seq;

	if (vma->vm_lock_seq == seq)
		return;
	down_write(&vma->vm_lock);
	WRITE_ONCE(vma->vm_lock_seq, seq);
	up_write(&vma->vm_lock);
}

/* Read-lock @vma unless a writer has it (or had it, under this mmap_lock). */
static bool vma_start_read(struct vm_area_struct *vma)
{
	struct mm_struct *mm = vma->vm_mm;

	/*
	 * Acquire pairs with the release in mmap_write_unlock(): a sequence
	 * that moved on means the writer is done, and so are its changes.
	 */
	if (READ_ONCE(vma->vm_lock_seq) == smp_load_acquire(&mm->mm_lock_seq))
		return false;
	if (!down_read_trylock(&vma->vm_lock))
		return false;
	/* Again under the lock: a writer may have got in before it. */
	if (READ_ONCE(vma->vm_lock_seq) == smp_load_acquire(&mm->mm_lock_seq)) {
		up_read(&vma->vm_lock);
		return false;
	}
	return true;
}

/**
 * vma_end_read() - Drop the read lock lock_vma_under_rcu() took.
 * @vma: The VMA.
 */
void vma_end_read(struct vm_area_struct *vma)
{
	up_read(&vma->vm_lock);
}
EXPORT_SYMBOL(vma_end_read);

void vma_tree_detach(struct vm_area_struct *vma)
{
	vma_start_write(vma);
	WRITE_ONCE(vma->detached, true);
}

/**
 * lock_vma_under_rcu() - Find and read-lock the VMA at @addr without
 * mmap_lock.
 * @mm: The address space.
 * @addr: The address.
 *
 * Walks the tree under rcu_read_lock(), read-locks the VMA found and then
 * checks it is still attached and still holds @addr (a writer may have
 * changed it between the walk and the lock).
 *
 * Return: the VMA, read-locked (release with vma_end_read()); NULL if
 * nothing is mapped at @addr or the VMA is being changed -- the caller
 * then takes mmap_lock.
 */
struct vm_area_struct *lock_vma_under_rcu(struct mm_struct *mm,
					  unsigned long addr)
{
	MA_STATE(mas, &mm->mm_mt, addr, addr);
	struct vm_area_struct *vma;

	rcu_read_lock();
	vma = mas_walk(&mas);
	if (!vma)
		goto fail;
	if (!vma_start_read(vma))
		goto fail;
	if (READ_ONCE(vma->detached) || addr < vma->vm_start ||
	    addr >= vma->vm_end) {
		vma_end_read(vma);
		goto fail;
	}
	rcu_read_unlock();
	return vma;
fail:
	rcu_read_unlock();
	return NULL;
}
EXPORT_SYMBOL(lock_vma_under_rcu);

/* ---- commit ---- */

/*
 * Will the store of @p, after the stores before it, replace one range of
 * the tree exactly (a slot store, which takes no node)?  So it is when the
 * piece lies inside the VMA it was cut from and both its ends are cut by
 * then: each end is an end of that VMA or borders a hole (stored first)
 * or, on the left, the piece before if that one is stored (pieces are
 * stored in order).  The middle piece of an mprotect() or the tail of a
 * munmap() that splits a VMA: the store before made its range.
 */
static bool vma_store_is_slot(const struct vma_rewrite *rw,
			      const struct vma_piece *p)
{
	const struct vm_area_struct *o = p ? p->origin : NULL;
	unsigned long before, after;
	int k;

	if (!o || p->start < o->vm_start || p->end > o->vm_end)
		return false;
	k = p - rw->piece;
	before = k ? rw->piece[k - 1].end : rw->ws;
	after = k + 1 < rw->nr_piece ? rw->piece[k + 1].start : rw->we;
	if (p->start != o->vm_start && before == p->start &&
	    (!k || !vma_piece_needs_store(&rw->piece[k - 1])))
		return false;
	return p->end == o->vm_end || after > p->end;
}

/* What a commit will store: its first store, and what the others take. */
struct vma_commit_plan {
	unsigned long start, end;	/* the first store */
	void *entry;
	int nr_stores;
	unsigned int more;		/* later stores that are no slot store */
};

/* One store of @p's VMA (NULL: of a hole) over [@start, @end). */
static __always_inline void vma_commit_one(struct vma_rewrite *rw,
					   struct ma_state *mas,
					   struct vma_commit_plan *plan,
					   unsigned long start,
					   unsigned long end,
					   struct vma_piece *p)
{
	void *entry = p ? p->vma : NULL;

	if (mas) {
		__mas_set_range(mas, start, end - 1);
		mas_store(mas, entry);
		WARN_ON(mas_is_err(mas));
	} else if (!plan->nr_stores++) {
		plan->start = start;
		plan->end = end;
		plan->entry = entry;
	} else if (!vma_store_is_slot(rw, p)) {
		plan->more++;
	}
}

/*
 * The stores of a commit, in order, counted into @plan or (given @mas)
 * made: NULL over every hole where something was mapped, first (so a
 * piece left in its old range by the cut needs no store), then each piece
 * that is new or grew.
 *
 * Always inlined, and vma_commit_one() with it: each call then keeps only
 * its half of the loop body; out of line they cost mmap1's critical
 * section 31 instructions a mmap+munmap pair, brk1's 28 a brk() and
 * execl's 1,061 (callgrind).
 */
static __always_inline void vma_commit_stores(struct vma_rewrite *rw,
					      struct ma_state *mas,
					      struct vma_commit_plan *plan)
{
	unsigned long pos = rw->ws;
	int i, o = 0;

	for (i = 0; i <= rw->nr_piece; i++) {
		unsigned long to = i < rw->nr_piece ? rw->piece[i].start : rw->we;

		while (o < rw->nr_old && rw->old[o]->vm_end <= pos)
			o++;
		if (pos < to && o < rw->nr_old && rw->old[o]->vm_start < to)
			vma_commit_one(rw, mas, plan, pos, to, NULL);
		if (i < rw->nr_piece)
			pos = rw->piece[i].end;
	}
	for (i = 0; i < rw->nr_piece; i++) {
		struct vma_piece *p = &rw->piece[i];

		if (vma_piece_needs_store(p))
			vma_commit_one(rw, mas, plan, p->start, p->end, p);
	}
}

/*
 * Write the window's new contents; reused VMAs get their new fields once
 * every store is done.  A failure is -ENOMEM with the tree untouched:
 *  - one store (most changes) is mas_store_gfp(), which allocates what
 *    the store needs before it changes anything.  The VMAs it changes are
 *    write-locked first; after a failure they stay locked until
 *    mmap_write_unlock(), unchanged, and lock-free readers fall back to
 *    mmap_lock meanwhile.  mas_preallocate() + mas_store_prealloc() would
 *    work out the store's kind twice, for nothing to undo either way;
 *  - several stores take every node they need before the first: the
 *    first store's exactly, and the most that each later one can take
 *    unless it is a slot store (mas_reserve_stores()).  No store fails
 *    once one is made: undoing one would itself need nodes.
 *
 * The stores start from the state that collected the window, which
 * stands on the leaf of the window's end: moved to a store's range with
 * __mas_set_range() (any range: see its comment), a store whose range
 * begins in that leaf (most do: a window mostly lies in one leaf) needs
 * no descent from the root.  Nothing wrote to the tree since that walk
 * (mmap_lock is held for write throughout), and each store leaves the
 * state where the next one may start (see "Maple states across writes"
 * in Documentation/core-api/maple_tree.rst).
 */
int vma_tree_commit(struct vma_rewrite *rw)
{
	struct ma_state *mas = &rw->walk.mas;
	struct vma_commit_plan plan = { };
	int i;

	vma_commit_stores(rw, NULL, &plan);
	if (plan.nr_stores > 1) {
		__mas_set_range(mas, plan.start, plan.end - 1);
		if (mas_reserve_stores(mas, plan.entry, plan.more, GFP_KERNEL))
			return -ENOMEM;
	}

	for (i = 0; i < rw->nr_piece; i++) {
		struct vma_piece *p = &rw->piece[i];

		if (p->vma == p->origin && vma_piece_changed(p))
			vma_start_write(p->vma);
	}
	for (i = 0; i < rw->nr_old; i++)
		if (!rw->old[i]->vm_mark)
			vma_start_write(rw->old[i]);

	if (plan.nr_stores == 1) {
		__mas_set_range(mas, plan.start, plan.end - 1);
		if (mas_store_gfp(mas, plan.entry, GFP_KERNEL))
			return -ENOMEM;
	} else if (plan.nr_stores) {
		vma_commit_stores(rw, mas, NULL);
		mas_destroy(mas);
	}

	/* Only the changed ones: readers may be reading the others. */
	for (i = 0; i < rw->nr_piece; i++) {
		struct vma_piece *p = &rw->piece[i];

		if (p->vma == p->origin && vma_piece_changed(p))
			vma_piece_apply(p);
	}
	return 0;
}

/* ---- free space ---- */

int vma_tree_gap(struct mm_struct *mm, unsigned long len, unsigned long low,
		 unsigned long high, bool topdown, unsigned long *addr)
{
	MA_STATE(mas, &mm->mm_mt, 0, 0);

	if (high <= low || high - low < len)
		return -ENOMEM;
	if (topdown) {
		if (mas_empty_area_rev(&mas, low, high - 1, len))
			return -ENOMEM;
		*addr = mas.last + 1 - len;
	} else {
		if (mas_empty_area(&mas, low, high - 1, len))
			return -ENOMEM;
		*addr = mas.index;
	}
	return 0;
}

/* ---- fork ---- */

/*
 * Copy @old's tree node for node with __mt_dup(), then swap each entry for
 * its copy: slot stores of exact ranges, which allocate nothing.
 */
int vma_tree_dup(struct mm_struct *old, struct mm_struct *new,
		 struct vm_area_struct **copies)
{
	MA_STATE(mas, &new->mm_mt, 0, 0);
	struct vm_area_struct *vma;
	int i = 0;

	if (!old->map_count)
		return 0;
	if (__mt_dup(&old->mm_mt, &new->mm_mt, GFP_KERNEL))
		return -ENOMEM;
	mas_for_each(&mas, vma, ULONG_MAX) {
		struct vm_area_struct *copy = copies[i++];

		vm_area_copy(copy, vma);
		mas_store(&mas, copy);
		WARN_ON(mas_is_err(&mas));
	}
	WARN_ON(i != old->map_count);
	return 0;
}

/* ---- validation ---- */

int vma_tree_validate(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->mm_mt, 0, 0);
	struct vm_area_struct *vma;
	int errors = 0;

	mas_for_each(&mas, vma, ULONG_MAX) {
		if (mas.index != vma->vm_start || mas.last != vma->vm_end - 1) {
			pr_err("validate_mm: tree range [%lx, %lx] holds VMA [%lx, %lx)\n",
			       mas.index, mas.last, vma->vm_start,
			       vma->vm_end);
			errors++;
		}
		if (vma->detached) {
			pr_err("validate_mm: detached VMA [%lx, %lx) in the tree\n",
			       vma->vm_start, vma->vm_end);
			errors++;
		}
	}
#ifdef CONFIG_DEBUG_MAPLE_TREE
	if (mt_validate_errors(&mm->mm_mt)) {
		pr_err("validate_mm: mt_validate() found errors\n");
		errors++;
	}
#endif
	return errors;
}

#endif /* !CONFIG_MM_VMA_RBTREE */
