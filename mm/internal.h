/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mm/'s files share: the rewrite of a window of an
 * address space (struct vma_rewrite, mm/mmap.c) and the backend interface
 * that keeps the VMAs (mm/vma_maple.c, or mm/vma_rbtree.c when built with
 * CONFIG_MM_VMA_RBTREE).
 *
 * Conventions: @mm the address space, @vma a VMA, [@start, @end) an
 * address range with @end exclusive (the maple tree's ranges are
 * inclusive: [vm_start, vm_end - 1]), @rw the rewrite in progress.
 */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H

#include <linux/mm.h>

/*
 * A change to an address space is a list of edits (struct vma_edit), sorted
 * and disjoint.  mm/mmap.c turns them into the VMAs the window around them
 * must hold afterwards (pieces) and hands them to the backend, which
 * commits all of them or none.
 */
enum vma_edit_kind {
	VMA_EDIT_UNMAP,		/* nothing mapped in the range afterwards */
	VMA_EDIT_MAP,		/* one new mapping over the range */
	VMA_EDIT_PROTECT,	/* access flags of what is there replaced */
};

struct vma_edit {
	unsigned long start, end;
	enum vma_edit_kind kind;
	unsigned long flags;	/* MAP: vm_flags; PROTECT: VM_ACCESS_FLAGS */
	unsigned long pgoff;	/* MAP */
	struct file *file;	/* MAP */
};

/*
 * struct vma_piece - one VMA of the window after the rewrite.
 * @origin: the VMA this piece was cut from (or merged with), NULL if new
 * @vma: the object that will hold the piece: @origin reused, or new
 */
struct vma_piece {
	unsigned long start, end;
	unsigned long flags, pgoff;
	struct file *file;
	struct vm_area_struct *origin;
	struct vm_area_struct *vma;
};

#define VMA_RW_INLINE	6

/*
 * A walk among an address space's VMAs: one lookup, then steps to the
 * neighbours, so collecting a window costs one tree descent rather than
 * one per VMA it holds.  The VMAs must not change during the walk.
 */
#ifdef CONFIG_MM_VMA_RBTREE
struct vma_walk {
	struct vm_area_struct *vma;	/* the VMA last returned */
};
#else
struct vma_walk {
	struct ma_state mas;	/* on the VMA last returned, or a gap after */
};
#endif

/*
 * struct vma_rewrite - the window [ws, we) before and after.
 * @walk: where collecting the window left off, which the commit starts
 *        from (on the maple tree, the leaf of the window's end)
 * @old: the VMAs in the window now, in order (@nr_old of them)
 * @piece: the VMAs in the window afterwards, in order (@nr_piece)
 */
struct vma_rewrite {
	struct mm_struct *mm;
	struct vma_walk walk;
	unsigned long ws, we;
	struct vm_area_struct **old;
	struct vma_piece *piece;
	int nr_old, nr_piece;
	struct vm_area_struct *old_inline[VMA_RW_INLINE];
	struct vma_piece piece_inline[VMA_RW_INLINE];
};

/* Is @p a changed VMA (new object, or other bounds/flags than before)? */
static inline bool vma_piece_changed(const struct vma_piece *p)
{
	const struct vm_area_struct *v = p->vma;

	return v != p->origin || v->vm_start != p->start ||
	       v->vm_end != p->end || v->vm_flags != p->flags ||
	       v->vm_pgoff != p->pgoff;
}

/* Does @p need a tree store of its own (its range is not inside the old)? */
static inline bool vma_piece_needs_store(const struct vma_piece *p)
{
	const struct vm_area_struct *v = p->vma;

	return v != p->origin || p->start < v->vm_start || p->end > v->vm_end;
}

/* mm/mmap.c */
int vma_rewrite(struct mm_struct *mm, struct vma_edit *edits, int nr_edits);
struct vm_area_struct *vm_area_alloc(struct mm_struct *mm);
bool vm_area_alloc_bulk(struct mm_struct *mm, int nr,
			struct vm_area_struct **vmas);
void vm_area_free_bulk(int nr, struct vm_area_struct **vmas);
void vm_area_free(struct vm_area_struct *vma);
void vm_area_free_now(struct vm_area_struct *vma);
void vm_area_init_caches(void);

/* Fork's copy: @copy takes @orig's range, flags, object and offset. */
static inline void vm_area_copy(struct vm_area_struct *copy,
				const struct vm_area_struct *orig)
{
	copy->vm_start = orig->vm_start;
	copy->vm_end = orig->vm_end;
	copy->vm_flags = orig->vm_flags;
	copy->vm_pgoff = orig->vm_pgoff;
	copy->vm_file = orig->vm_file;
}

static inline void vma_piece_apply(const struct vma_piece *p)
{
	struct vm_area_struct *v = p->vma;

	v->vm_start = p->start;
	v->vm_end = p->end;
	v->vm_flags = p->flags;
	v->vm_pgoff = p->pgoff;
	v->vm_file = p->file;
}

/* ---- the backend: mm/vma_maple.c or mm/vma_rbtree.c ---- */

void vma_tree_init(struct mm_struct *mm);
/*
 * Free the tree, at once, and leave it empty (mmap_lock held for write; no
 * lock-free reader may be in @mm: see exit_mmap()).  Its VMAs are the
 * caller's, freed before.
 */
void vma_tree_destroy(struct mm_struct *mm);
/* The first VMA with vm_end > @addr. */
struct vm_area_struct *vma_tree_find(struct mm_struct *mm, unsigned long addr);
/*
 * The VMA that holds @addr, or NULL (vma_lookup()).  On the maple tree one
 * descent, as Linux 6.1's vma_lookup(): mt_find() would go on to the next
 * VMA when @addr is in a gap.  Inline, so neither backend pays a call more
 * than it did for find_vma().
 */
static inline struct vm_area_struct *vma_tree_lookup(struct mm_struct *mm,
						     unsigned long addr)
{
#ifdef CONFIG_MM_VMA_RBTREE
	struct vm_area_struct *vma = vma_tree_find(mm, addr);

	return vma && vma->vm_start <= addr ? vma : NULL;
#else
	return mtree_load(&mm->mm_mt, addr);
#endif
}
/* The last VMA with vm_start < @addr. */
struct vm_area_struct *vma_tree_find_before(struct mm_struct *mm,
					    unsigned long addr);
/* The VMA after @vma. */
struct vm_area_struct *vma_tree_next(struct mm_struct *mm,
				     struct vm_area_struct *vma);
/*
 * The first VMA with vm_end > @addr (NULL if none), where the walk now
 * is.  Unless @prev is NULL, *@prev is set to the VMA that may end where
 * the range holding @addr (a VMA or a gap) starts: the range just before
 * it, if that is a VMA; else NULL, or a VMA further down (the rbtree sets
 * the VMA before the one returned, or the last VMA).
 */
struct vm_area_struct *vma_walk_start(struct vma_walk *w, struct mm_struct *mm,
				      unsigned long addr,
				      struct vm_area_struct **prev);
/* The VMA after the one the walk is on (NULL if none), now its place. */
struct vm_area_struct *vma_walk_next(struct vma_walk *w);
/*
 * The VMA after the one the walk is on if it starts at or below @max, now
 * its place; else NULL, and the walk stays near (see vma_tree_commit()).
 */
struct vm_area_struct *vma_walk_next_upto(struct vma_walk *w,
					  unsigned long max);
/*
 * Make the window hold @rw->piece instead of @rw->old.  New objects are
 * allocated and marked; on failure (-ENOMEM) nothing changed.  Fields of
 * reused VMAs are set here, old VMAs not reused are left to the caller.
 */
int vma_tree_commit(struct vma_rewrite *rw);
/*
 * The lowest (or with @topdown the highest) address a with [a, a + @len)
 * free and inside [@low, @high); -ENOMEM if there is none.
 */
int vma_tree_gap(struct mm_struct *mm, unsigned long len, unsigned long low,
		 unsigned long high, bool topdown, unsigned long *addr);
/*
 * Fill the empty @new with copies of @old's VMAs (both locked): @copies
 * holds @old->map_count new VMAs of @new, which take the fields of @old's
 * in address order (vm_area_copy()).  On failure (-ENOMEM) @new is empty
 * and @copies are still the caller's.
 */
int vma_tree_dup(struct mm_struct *old, struct mm_struct *new,
		 struct vm_area_struct **copies);
/* Backend invariants; the number of errors found (printed). */
int vma_tree_validate(struct mm_struct *mm);
/* Cut @vma off the tree's readers before it is freed. */
void vma_tree_detach(struct vm_area_struct *vma);

#endif /* _MM_INTERNAL_H */
