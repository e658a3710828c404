// SPDX-License-Identifier: GPL-2.0
/*
 * The calls that change an address space's VMAs, written once
 * for both backends (see include/linux/mm_types.h).
 *
 * Every change is made the same way: the call checks its arguments and
 * writes down what it wants as a short sorted list of edits (unmap this,
 * map that, change the access flags of this), then vma_rewrite() works out
 * what the window around the edits must hold afterwards -- the VMAs cut at
 * the edits' ends, the new mapping, every pair of neighbours that have
 * become mergeable merged -- allocates what that needs, and lets the
 * backend commit it all at once.  So a call either does all it should or,
 * on any failure (an allocation, the map_count limit), returns the error
 * with the address space exactly as it was.
 *
 * Conventions: @mm the address space, @vma a VMA, [@start, @end) an
 * address range with @end exclusive, @rw the rewrite in progress, @p a
 * piece (a VMA of the window after the rewrite).
 */
#include <linux/mm.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "internal.h"

int sysctl_max_map_count = DEFAULT_MAX_MAP_COUNT;
unsigned long mmap_min_addr = 0x10000;

static struct kmem_cache *vm_area_cachep;

/* Create the VMA cache; idempotent (mm_alloc() calls it). */
void vm_area_init_caches(void)
{
	if (!READ_ONCE(vm_area_cachep))
		WRITE_ONCE(vm_area_cachep,
			   KMEM_CACHE(vm_area_struct, SLAB_PANIC));
}

/*
 * A new VMA of @mm, zeroed.  On the maple backend it is born write-locked
 * (vm_lock_seq is the mm's current sequence), so lock-free readers that
 * find it before the writer is done leave it alone.
 */
struct vm_area_struct *vm_area_alloc(struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	vma = kmem_cache_zalloc(vm_area_cachep, GFP_KERNEL);
	if (!vma)
		return NULL;
	vma->vm_mm = mm;
#ifndef CONFIG_MM_VMA_RBTREE
	init_rwsem(&vma->vm_lock);
	vma->vm_lock_seq = mm->mm_lock_seq;
#endif
	return vma;
}

/**
 * vm_area_alloc_bulk() - @nr new VMAs of @mm at once, for fork.
 * @mm: The address space they will belong to.
 * @nr: How many.
 * @vmas: Where to put them.
 *
 * Each is zeroed and write-locked, as vm_area_alloc() makes one.
 *
 * Return: true, or false with none allocated.
 */
bool vm_area_alloc_bulk(struct mm_struct *mm, int nr,
			struct vm_area_struct **vmas)
{
	int i;

	if (!kmem_cache_alloc_bulk(vm_area_cachep, GFP_KERNEL | __GFP_ZERO,
				   nr, (void **)vmas))
		return false;
	for (i = 0; i < nr; i++) {
		vmas[i]->vm_mm = mm;
#ifndef CONFIG_MM_VMA_RBTREE
		init_rwsem(&vmas[i]->vm_lock);
		vmas[i]->vm_lock_seq = mm->mm_lock_seq;
#endif
	}
	return true;
}

/* Free @nr VMAs from vm_area_alloc_bulk() that no reader can have seen. */
void vm_area_free_bulk(int nr, struct vm_area_struct **vmas)
{
	kmem_cache_free_bulk(vm_area_cachep, nr, (void **)vmas);
}

/* Free a VMA no reader can have seen. */
void vm_area_free_now(struct vm_area_struct *vma)
{
	kmem_cache_free(vm_area_cachep, vma);
}

#ifndef CONFIG_MM_VMA_RBTREE
static void vm_area_free_rcu(struct rcu_head *head)
{
	vm_area_free_now(container_of(head, struct vm_area_struct, vm_rcu));
}
#endif

/*
 * Free a VMA taken out of its address space.  On the maple backend a
 * lock-free reader may still hold a pointer to it: wait a grace period.
 */
void vm_area_free(struct vm_area_struct *vma)
{
#ifdef CONFIG_MM_VMA_RBTREE
	vm_area_free_now(vma);
#else
	call_rcu(&vma->vm_rcu, vm_area_free_rcu);
#endif
}

/* ---- the rewrite of a window ---- */

/* Can @b follow @a as one VMA? */
static bool vma_pieces_mergeable(const struct vma_piece *a,
				 const struct vma_piece *b)
{
	return a->end == b->start && a->flags == b->flags &&
	       a->file == b->file &&
	       b->pgoff == a->pgoff + ((a->end - a->start) >> PAGE_SHIFT);
}

/* A new piece [@start, @end) with @flags: anonymous, from no VMA yet. */
static struct vma_piece *vma_rw_add(struct vma_rewrite *rw,
				    unsigned long start, unsigned long end,
				    unsigned long flags)
{
	struct vma_piece *p = &rw->piece[rw->nr_piece++];

	*p = (struct vma_piece){
		.start = start, .end = end, .flags = flags,
	};
	return p;
}

/* The part [start, end) of @vma, with its attributes and @flags. */
static void vma_rw_add_part(struct vma_rewrite *rw, struct vm_area_struct *vma,
			    unsigned long start, unsigned long end,
			    unsigned long flags)
{
	struct vma_piece *p = vma_rw_add(rw, start, end, flags);

	p->pgoff = vma->vm_pgoff + ((start - vma->vm_start) >> PAGE_SHIFT);
	p->file = vma->vm_file;
	p->origin = vma;
}

/* Cut @vma by the edits: keep, re-flag or drop each part. */
static void vma_rw_cut(struct vma_rewrite *rw, struct vm_area_struct *vma,
		       const struct vma_edit *edits, int nr_edits)
{
	unsigned long pos = vma->vm_start;
	int i;

	for (i = 0; i < nr_edits && pos < vma->vm_end; i++) {
		const struct vma_edit *e = &edits[i];
		unsigned long to;

		if (e->end <= pos || e->start >= vma->vm_end)
			continue;
		if (e->start > pos)
			vma_rw_add_part(rw, vma, pos, e->start, vma->vm_flags);
		pos = max(pos, e->start);
		to = min(vma->vm_end, e->end);
		if (e->kind == VMA_EDIT_PROTECT)
			vma_rw_add_part(rw, vma, pos, to,
					(vma->vm_flags & ~VM_ACCESS_FLAGS) |
					e->flags);
		pos = to;
	}
	if (pos < vma->vm_end)
		vma_rw_add_part(rw, vma, pos, vma->vm_end, vma->vm_flags);
}

/* Sort the pieces by address (few, and nearly sorted: insertion sort). */
static void vma_rw_sort(struct vma_rewrite *rw)
{
	int i, j;

	for (i = 1; i < rw->nr_piece; i++) {
		struct vma_piece tmp = rw->piece[i];

		for (j = i; j > 0 && rw->piece[j - 1].start > tmp.start; j--)
			rw->piece[j] = rw->piece[j - 1];
		rw->piece[j] = tmp;
	}
}

/* Merge every mergeable pair of neighbours. */
static void vma_rw_merge(struct vma_rewrite *rw)
{
	int i, n = 0;

	for (i = 0; i < rw->nr_piece; i++) {
		struct vma_piece *p = &rw->piece[i];

		if (n && vma_pieces_mergeable(&rw->piece[n - 1], p)) {
			struct vma_piece *q = &rw->piece[n - 1];

			q->end = p->end;
			if (!q->origin)
				q->origin = p->origin;
			continue;
		}
		rw->piece[n++] = *p;
	}
	rw->nr_piece = n;
}

static void vma_rw_free_arrays(struct vma_rewrite *rw)
{
	if (rw->old != rw->old_inline)
		kfree(rw->old);
	if (rw->piece != rw->piece_inline)
		kfree(rw->piece);
}

/*
 * One walk over the window around [@lo, @hi): the edits' span widened to
 * whole VMAs and, unless the edits only @unmap, to the VMAs that touch it
 * on either side (they may merge).  Edits that only unmap leave no new
 * neighbours to merge: what they leave of a VMA keeps the side it shared
 * with its neighbour, and no two neighbours are mergeable before.  Sets
 * @rw->ws and @rw->we, stores the first @cap VMAs in @out and returns
 * how many the window holds; *@meets tells whether any of them overlaps
 * the span itself.
 */
static int vma_rw_walk(struct vma_rewrite *rw, unsigned long lo,
		       unsigned long hi, bool unmap,
		       struct vm_area_struct **out, int cap, bool *meets)
{
	struct vm_area_struct *first, *prev = NULL, *vma;
	int nr = 0;

	first = vma_walk_start(&rw->walk, rw->mm, lo, unmap ? NULL : &prev);
	rw->ws = first && first->vm_start < lo ? first->vm_start : lo;
	if (prev && prev->vm_end == rw->ws) {
		rw->ws = prev->vm_start;
		if (nr < cap)
			out[nr] = prev;
		nr++;
	}
	*meets = false;
	rw->we = hi;
	/*
	 * Those that start below @hi, then the one that touches the end
	 * (not for @unmap: it must start below the end).
	 */
	for (vma = first; vma && vma->vm_start <= rw->we - unmap;
	     vma = vma_walk_next_upto(&rw->walk, rw->we)) {
		if (nr < cap)
			out[nr] = vma;
		nr++;
		rw->we = max(rw->we, vma->vm_end);
		if (vma->vm_start >= hi)
			break;
		*meets = true;
	}
	return nr;
}

/*
 * The window of @edits (see vma_rw_walk()) and its VMAs in @rw->old: in
 * one walk while they fit the inline array, else counted and collected
 * again into an allocated one.
 *
 * Return: 1 if no edit maps and nothing is mapped in the edits' span (the
 * rewrite would change nothing), 0 if @rw is ready, -ENOMEM.
 */
static int vma_rw_collect(struct vma_rewrite *rw, const struct vma_edit *edits,
			  int nr_edits)
{
	unsigned long lo = edits[0].start, hi = edits[nr_edits - 1].end;
	/* munmap() and a heap that shrinks: no neighbour can merge. */
	bool unmap = nr_edits == 1 && edits[0].kind == VMA_EDIT_UNMAP;
	bool meets, maps = false;
	int i, nr, cap;

	rw->old = rw->old_inline;
	rw->piece = rw->piece_inline;
	nr = vma_rw_walk(rw, lo, hi, unmap, rw->old_inline, VMA_RW_INLINE,
			 &meets);
	for (i = 0; i < nr_edits; i++)
		maps |= edits[i].kind == VMA_EDIT_MAP;
	if (!meets && !maps)
		return 1;
	if (nr > VMA_RW_INLINE) {
		rw->old = kmalloc_array(nr, sizeof(*rw->old), GFP_KERNEL);
		if (!rw->old)
			return -ENOMEM;
		vma_rw_walk(rw, lo, hi, unmap, rw->old, nr, &meets);
	}
	rw->nr_old = nr;
	/* Each edit end may cut one VMA in two; each map adds one. */
	cap = nr + 3 * nr_edits;
	if (cap > VMA_RW_INLINE) {
		rw->piece = kmalloc_array(cap, sizeof(*rw->piece), GFP_KERNEL);
		if (!rw->piece) {
			rw->piece = rw->piece_inline;
			vma_rw_free_arrays(rw);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * vma_rewrite() - Apply @edits to @mm, all or nothing.
 * @mm: The address space, mmap_lock held for write.
 * @edits: Sorted, disjoint edits; a PROTECT edit must cover mapped memory
 *         only (the caller checked).
 * @nr_edits: How many.
 *
 * Edits that map nothing over a span where nothing is mapped change
 * nothing, and cost one lookup.
 *
 * Return: 0; -ENOMEM (allocation failure, or the map_count limit) with
 * @mm unchanged.
 */
int vma_rewrite(struct mm_struct *mm, struct vma_edit *edits, int nr_edits)
{
	struct vma_rewrite rw;
	long pages = 0;
	int i, err;

	mmap_assert_write_locked(mm);
	rw.mm = mm;
	err = vma_rw_collect(&rw, edits, nr_edits);
	if (err)
		return err < 0 ? err : 0;

	/* The window afterwards, cut, mapped, sorted and merged. */
	rw.nr_piece = 0;
	for (i = 0; i < rw.nr_old; i++)
		vma_rw_cut(&rw, rw.old[i], edits, nr_edits);
	for (i = 0; i < nr_edits; i++) {
		struct vma_piece *p;

		if (edits[i].kind != VMA_EDIT_MAP)
			continue;
		p = vma_rw_add(&rw, edits[i].start, edits[i].end,
			       edits[i].flags);
		p->pgoff = edits[i].pgoff;
		p->file = edits[i].file;
	}
	vma_rw_sort(&rw);
	vma_rw_merge(&rw);

	err = -ENOMEM;
	if (mm->map_count - rw.nr_old + rw.nr_piece > sysctl_max_map_count)
		goto out;

	/* Each old VMA holds at most one piece; the others get new ones. */
	for (i = 0; i < rw.nr_piece; i++) {
		struct vma_piece *p = &rw.piece[i];

		if (p->origin && !p->origin->vm_mark) {
			p->origin->vm_mark = true;
			p->vma = p->origin;
		}
	}
	for (i = 0; i < rw.nr_piece; i++) {
		struct vma_piece *p = &rw.piece[i];

		if (p->vma)
			continue;
		p->vma = vm_area_alloc(mm);
		if (!p->vma)
			goto undo_alloc;
		vma_piece_apply(p);
	}

	for (i = 0; i < rw.nr_old; i++)
		pages -= vma_pages(rw.old[i]);
	err = vma_tree_commit(&rw);
	if (err)
		goto undo_alloc;

	/* Committed: old VMAs no piece kept are gone. */
	for (i = 0; i < rw.nr_old; i++) {
		struct vm_area_struct *vma = rw.old[i];

		if (vma->vm_mark) {
			vma->vm_mark = false;
			continue;
		}
		vma_tree_detach(vma);
		vm_area_free(vma);
	}
	for (i = 0; i < rw.nr_piece; i++)
		pages += (rw.piece[i].end - rw.piece[i].start) >> PAGE_SHIFT;
	mm->map_count += rw.nr_piece - rw.nr_old;
	mm->total_vm += pages;
	err = 0;
	goto out;

undo_alloc:
	for (i = 0; i < rw.nr_piece; i++) {
		struct vma_piece *p = &rw.piece[i];

		if (p->vma && p->vma != p->origin)
			vm_area_free_now(p->vma);
	}
	for (i = 0; i < rw.nr_old; i++)
		rw.old[i]->vm_mark = false;
out:
	vma_rw_free_arrays(&rw);
	return err;
}

/* ---- lookups ---- */

/**
 * find_vma() - The first VMA that ends above @addr.
 * @mm: The address space; mmap_lock held (read or write).
 * @addr: The address.
 *
 * Return: the VMA holding @addr, else the first one above it, else NULL.
 */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	mmap_assert_locked(mm);
	return vma_tree_find(mm, addr);
}
EXPORT_SYMBOL(find_vma);

/**
 * find_vma_prev() - find_vma() and the VMA before the one it returns.
 * @mm: The address space; mmap_lock held.
 * @addr: The address.
 * @pprev: Set to the VMA before the result (the last VMA if the result is
 *         NULL), or NULL if there is none.
 *
 * Return: as find_vma().
 */
struct vm_area_struct *find_vma_prev(struct mm_struct *mm, unsigned long addr,
				     struct vm_area_struct **pprev)
{
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	vma = vma_tree_find(mm, addr);
	*pprev = vma_tree_find_before(mm, vma ? vma->vm_start : ULONG_MAX);
	return vma;
}
EXPORT_SYMBOL(find_vma_prev);

/**
 * find_vma_intersection() - The first VMA that overlaps [@start_addr,
 * @end_addr).
 * @mm: The address space; mmap_lock held.
 * @start_addr: First address.
 * @end_addr: First address after the range.
 *
 * Return: the VMA, or NULL if nothing is mapped in the range.
 */
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm,
					     unsigned long start_addr,
					     unsigned long end_addr)
{
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	vma = vma_tree_find(mm, start_addr);
	if (vma && end_addr <= vma->vm_start)
		vma = NULL;
	return vma;
}
EXPORT_SYMBOL(find_vma_intersection);

/* ---- free space ---- */

/**
 * get_unmapped_area() - Choose where a mapping of @len bytes goes.
 * @mm: The address space; mmap_lock held.
 * @addr: With MAP_FIXED, the address itself; otherwise a hint, used if
 *        the range there is free (0: no hint).
 * @len: Length in bytes, page aligned.
 * @pgoff: Page offset of the mapping (unused: no colouring).
 * @flags: MAP_* flags.
 *
 * Without a usable hint the search is top-down, the highest free range
 * below mm->mmap_base (at or above mmap_min_addr), falling back to the
 * lowest one from TASK_UNMAPPED_BASE up; or bottom-up from mm->mmap_base
 * when mm->mmap_legacy is set.
 *
 * Return: the address; -ENOMEM if @len does not fit (or a fixed range
 * passes task_size); -EINVAL for an unaligned fixed address.
 */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				unsigned long len, unsigned long pgoff,
				unsigned long flags)
{
	unsigned long low = max(PAGE_SIZE, mmap_min_addr);
	unsigned long found;

	(void)pgoff;
	mmap_assert_locked(mm);
	if (len > mm->task_size)
		return -ENOMEM;
	if (flags & MAP_FIXED) {
		if (addr > mm->task_size - len)
			return -ENOMEM;
		if (offset_in_page(addr))
			return -EINVAL;
		return addr;
	}
	if (addr) {
		addr = PAGE_ALIGN(addr);
		if (addr && mm->task_size - len >= addr &&
		    addr >= mmap_min_addr &&
		    !find_vma_intersection(mm, addr, addr + len))
			return addr;
	}
	if (mm->mmap_legacy) {
		if (!vma_tree_gap(mm, len, max(mm->mmap_base, low),
				  mm->task_size, false, &found))
			return found;
		return -ENOMEM;
	}
	if (!vma_tree_gap(mm, len, low, mm->mmap_base, true, &found))
		return found;
	if (!vma_tree_gap(mm, len, TASK_UNMAPPED_BASE(mm), mm->task_size,
			  false, &found))
		return found;
	return -ENOMEM;
}
EXPORT_SYMBOL(get_unmapped_area);

/* ---- mmap, munmap ---- */

static unsigned long calc_vm_prot_bits(unsigned long prot)
{
	return (prot & PROT_READ ? VM_READ : 0) |
	       (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0);
}

/*
 * Map [addr, addr + len) with @vm_flags, replacing what was there and
 * merging with compatible neighbours.
 */
static unsigned long mmap_region(struct mm_struct *mm, struct file *file,
				 unsigned long addr, unsigned long len,
				 unsigned long vm_flags, unsigned long pgoff)
{
	struct vma_edit edit = {
		.start = addr, .end = addr + len, .kind = VMA_EDIT_MAP,
		.flags = vm_flags, .pgoff = pgoff, .file = file,
	};
	int err = vma_rewrite(mm, &edit, 1);

	return err ? (unsigned long)err : addr;
}

/**
 * do_mmap() - Create a mapping.
 * @mm: The address space; mmap_lock held for write.
 * @file: The backing object, or NULL for anonymous memory.
 * @addr: Address (MAP_FIXED, MAP_FIXED_NOREPLACE) or hint.
 * @len: Length in bytes (rounded up to pages).
 * @prot: PROT_* access.
 * @flags: MAP_SHARED or MAP_PRIVATE, optionally MAP_FIXED,
 *         MAP_FIXED_NOREPLACE, MAP_ANONYMOUS.
 * @pgoff: Offset in @file, in pages (anonymous memory: ignored).
 *
 * A MAP_FIXED mapping replaces what was mapped in its range.  The new VMA
 * merges with neighbours of the same flags and object whose page offsets
 * run on.
 *
 * Return: the address; -EINVAL (@len 0, bad @prot or @flags, unaligned
 * fixed address), -ENOMEM (no room, past task_size, map_count limit,
 * allocation failure), -EOVERFLOW (@pgoff wraps), -EEXIST
 * (MAP_FIXED_NOREPLACE over a mapping).  On error nothing changed.
 *
 * Seven parameters: Linux 6.12's nine less vm_flags and the populate and
 * userfaultfd outputs, plus the mm that Linux takes from current.
 */
unsigned long do_mmap(struct mm_struct *mm, struct file *file,
		      unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags,
		      unsigned long pgoff)
{
	unsigned long vm_flags;

	mmap_assert_write_locked(mm);
	if (!len)
		return -EINVAL;
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	switch (flags & (MAP_SHARED | MAP_PRIVATE)) {
	case MAP_SHARED:
	case MAP_PRIVATE:
		break;
	default:
		return -EINVAL;
	}
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (!(flags & MAP_FIXED) && addr && addr < mmap_min_addr)
		addr = PAGE_ALIGN(mmap_min_addr);
	len = PAGE_ALIGN(len);
	if (!len)
		return -ENOMEM;
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	if (mm->map_count > sysctl_max_map_count)
		return -ENOMEM;

	addr = get_unmapped_area(mm, addr, len, pgoff, flags);
	if (IS_ERR_VALUE(addr))
		return addr;
	if ((flags & MAP_FIXED_NOREPLACE) &&
	    find_vma_intersection(mm, addr, addr + len))
		return -EEXIST;

	vm_flags = calc_vm_prot_bits(prot) | VM_MAYREAD | VM_MAYWRITE |
		   VM_MAYEXEC;
	if (flags & MAP_SHARED)
		vm_flags |= VM_SHARED | VM_MAYSHARE;
	if (!file)
		pgoff = addr >> PAGE_SHIFT;
	return mmap_region(mm, file, addr, len, vm_flags, pgoff);
}
EXPORT_SYMBOL(do_mmap);

/**
 * vm_mmap() - do_mmap() under mmap_lock, as the mmap() system call.
 * @mm: The address space.
 * @file: As do_mmap().
 * @addr: As do_mmap().
 * @len: As do_mmap().
 * @prot: As do_mmap().
 * @flags: As do_mmap().
 * @pgoff: As do_mmap().
 *
 * Return: as do_mmap().
 *
 * Seven parameters: Linux's six and the mm that Linux takes from current.
 */
unsigned long vm_mmap(struct mm_struct *mm, struct file *file,
		      unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags,
		      unsigned long pgoff)
{
	unsigned long ret;

	mmap_write_lock(mm);
	ret = do_mmap(mm, file, addr, len, prot, flags, pgoff);
	mmap_write_unlock(mm);
	return ret;
}
EXPORT_SYMBOL(vm_mmap);

/**
 * do_munmap() - Remove the mappings in [@start, @start + @len).
 * @mm: The address space; mmap_lock held for write.
 * @start: First address, page aligned.
 * @len: Length (rounded up to pages).
 *
 * VMAs partly in the range are cut, one across the whole range split in
 * two; holes in the range are fine.
 *
 * Return: 0; -EINVAL (unaligned @start, @len 0, the range passes
 * task_size); -ENOMEM (the split would pass the map_count limit, or an
 * allocation failed), with nothing changed.
 */
int do_munmap(struct mm_struct *mm, unsigned long start, size_t len)
{
	struct vma_edit edit = { .kind = VMA_EDIT_UNMAP };

	mmap_assert_write_locked(mm);
	if (offset_in_page(start) || start > mm->task_size ||
	    len > mm->task_size - start)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len)
		return -EINVAL;
	edit.start = start;
	edit.end = start + len;
	return vma_rewrite(mm, &edit, 1);
}
EXPORT_SYMBOL(do_munmap);

/**
 * vm_munmap() - do_munmap() under mmap_lock, as the munmap() system call.
 * @mm: The address space.
 * @start: As do_munmap().
 * @len: As do_munmap().
 *
 * Return: as do_munmap().
 */
int vm_munmap(struct mm_struct *mm, unsigned long start, size_t len)
{
	int ret;

	mmap_write_lock(mm);
	ret = do_munmap(mm, start, len);
	mmap_write_unlock(mm);
	return ret;
}
EXPORT_SYMBOL(vm_munmap);

/* ---- brk ---- */

#define VM_BRK_FLAGS	(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | \
			 VM_MAYEXEC)

/**
 * mm_brk() - Move the end of the heap, as the brk() system call.
 * @mm: The address space (mmap_lock is taken here).
 * @brk: The new end; below mm->start_brk it is only a query.
 *
 * Growing maps anonymous read-write memory from the old end (page
 * aligned) to the new one, merged with the heap's VMA; it is refused if
 * the heap would come within a page of the next mapping or pass
 * task_size.  Shrinking unmaps the pages above the new end.
 *
 * Return: the new end, or the old one if the heap could not move.
 */
unsigned long mm_brk(struct mm_struct *mm, unsigned long brk)
{
	struct vma_edit edit = { .kind = VMA_EDIT_UNMAP };
	unsigned long newbrk, oldbrk, origbrk;
	struct vm_area_struct *next;

	mmap_write_lock(mm);
	origbrk = mm->brk;
	if (brk < mm->start_brk)
		goto out;
	newbrk = PAGE_ALIGN(brk);
	oldbrk = PAGE_ALIGN(mm->brk);
	if (oldbrk == newbrk)
		goto set;
	if (brk <= mm->brk) {
		edit.start = newbrk;
		edit.end = oldbrk;
		if (vma_rewrite(mm, &edit, 1))
			goto out;
		goto set;
	}
	if (!newbrk || newbrk > mm->task_size)
		goto out;
	next = vma_tree_find(mm, oldbrk);
	if (next && newbrk + PAGE_SIZE > next->vm_start)
		goto out;
	edit.start = oldbrk;
	edit.end = newbrk;
	edit.kind = VMA_EDIT_MAP;
	edit.flags = VM_BRK_FLAGS;
	edit.pgoff = oldbrk >> PAGE_SHIFT;
	if (vma_rewrite(mm, &edit, 1))
		goto out;
set:
	mm->brk = brk;
	origbrk = brk;
out:
	mmap_write_unlock(mm);
	return origbrk;
}
EXPORT_SYMBOL(mm_brk);

/* ---- mprotect ---- */

/**
 * do_mprotect() - Change the access of [@start, @start + @len).
 * @mm: The address space (mmap_lock is taken here).
 * @start: First address, page aligned.
 * @len: Length (rounded up to pages); 0 does nothing.
 * @prot: PROT_* access.
 *
 * VMAs partly in the range are split; afterwards neighbours that became
 * alike are merged.  Unlike Linux, which changes the VMAs up to a hole
 * before it fails, a range with a hole changes nothing.
 *
 * Return: 0; -EINVAL (unaligned @start, bad @prot); -ENOMEM (the range
 * wraps or is not all mapped, the map_count limit, allocation failure).
 */
int do_mprotect(struct mm_struct *mm, unsigned long start, size_t len,
		unsigned long prot)
{
	struct vma_edit edit = { .kind = VMA_EDIT_PROTECT };
	struct vm_area_struct *vma;
	unsigned long end, pos;
	int err = -ENOMEM;

	if (offset_in_page(start))
		return -EINVAL;
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end <= start)
		return -ENOMEM;

	mmap_write_lock(mm);
	pos = start;
	for (vma = vma_tree_find(mm, start); vma && vma->vm_start < end;
	     vma = vma_tree_next(mm, vma)) {
		if (vma->vm_start > pos)
			goto out;
		pos = vma->vm_end;
	}
	if (pos < end)
		goto out;
	edit.start = start;
	edit.end = end;
	edit.flags = calc_vm_prot_bits(prot);
	err = vma_rewrite(mm, &edit, 1);
out:
	mmap_write_unlock(mm);
	return err;
}
EXPORT_SYMBOL(do_mprotect);

/* ---- mremap ---- */

/* Unmap [@from, ...) and map @vma's part at @addr at @to, in one rewrite. */
static unsigned long mremap_move(struct mm_struct *mm,
				 struct vm_area_struct *vma,
				 unsigned long addr, unsigned long old_len,
				 unsigned long to, unsigned long new_len)
{
	struct vma_edit edits[2];
	struct vma_edit *u, *m;
	int err;

	u = to < addr ? &edits[1] : &edits[0];
	m = to < addr ? &edits[0] : &edits[1];
	*u = (struct vma_edit){ .start = addr, .end = addr + old_len,
				.kind = VMA_EDIT_UNMAP };
	*m = (struct vma_edit){
		.start = to, .end = to + new_len, .kind = VMA_EDIT_MAP,
		.flags = vma->vm_flags, .file = vma->vm_file,
		.pgoff = vma->vm_pgoff +
			 ((addr - vma->vm_start) >> PAGE_SHIFT),
	};
	err = vma_rewrite(mm, edits, 2);
	return err ? (unsigned long)err : to;
}

/**
 * do_mremap() - Resize and maybe move a mapping, as the mremap() system
 * call.
 * @mm: The address space (mmap_lock is taken here).
 * @addr: Start of the part to remap, page aligned.
 * @old_len: Its length (rounded up to pages).
 * @new_len: The new length (rounded up to pages).
 * @flags: MREMAP_MAYMOVE, MREMAP_FIXED (with MREMAP_MAYMOVE).
 * @new_addr: The destination with MREMAP_FIXED.
 *
 * Shrinking unmaps the tail (wherever @addr is); growing extends the VMA
 * in place when [@addr, @addr + @old_len) ends its VMA and the room after
 * it is free, else moves it (MREMAP_MAYMOVE) to a free range; MREMAP_FIXED
 * moves it to @new_addr, replacing what was mapped there.  A moved range
 * keeps its flags, object and page offset.  @old_len 0 (Linux: duplicate
 * a shared mapping) is not supported.
 *
 * Return: the mapping's address; -EINVAL (bad flags, unaligned address,
 * @new_len or @old_len 0, overlapping fixed ranges, past task_size);
 * -EFAULT (@addr not mapped, or the range passes its VMA); -ENOMEM (no
 * room to grow without MREMAP_MAYMOVE, map_count limit, allocation
 * failure).  On error nothing changed.
 */
unsigned long do_mremap(struct mm_struct *mm, unsigned long addr,
			unsigned long old_len, unsigned long new_len,
			unsigned long flags, unsigned long new_addr)
{
	struct vm_area_struct *vma;
	unsigned long ret = -EINVAL;

	if (flags & ~(unsigned long)(MREMAP_FIXED | MREMAP_MAYMOVE))
		return ret;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return ret;
	if (offset_in_page(addr))
		return ret;
	old_len = PAGE_ALIGN(old_len);
	new_len = PAGE_ALIGN(new_len);
	if (!new_len || !old_len)
		return ret;

	mmap_write_lock(mm);
	if (flags & MREMAP_FIXED) {
		if (offset_in_page(new_addr) || new_len > mm->task_size ||
		    new_addr > mm->task_size - new_len)
			goto out;
		if (addr < new_addr + new_len && new_addr < addr + old_len)
			goto out;
		ret = -EFAULT;
		vma = vma_lookup(mm, addr);
		if (!vma || old_len > vma->vm_end - addr)
			goto out;
		ret = mremap_move(mm, vma, addr, old_len, new_addr, new_len);
		goto out;
	}
	if (old_len >= new_len) {
		ret = addr;
		if (old_len > new_len) {
			int err = do_munmap(mm, addr + new_len,
					    old_len - new_len);

			if (err)
				ret = err;
		}
		goto out;
	}
	ret = -EFAULT;
	vma = vma_lookup(mm, addr);
	if (!vma || old_len > vma->vm_end - addr)
		goto out;
	if (addr + old_len == vma->vm_end && addr + new_len > addr &&
	    addr + new_len <= mm->task_size &&
	    !find_vma_intersection(mm, vma->vm_end, addr + new_len)) {
		struct vma_edit edit = {
			.start = vma->vm_end, .end = addr + new_len,
			.kind = VMA_EDIT_MAP, .flags = vma->vm_flags,
			.file = vma->vm_file,
			.pgoff = vma->vm_pgoff + vma_pages(vma),
		};
		int err = vma_rewrite(mm, &edit, 1);

		ret = err ? (unsigned long)err : addr;
		goto out;
	}
	ret = -ENOMEM;
	if (!(flags & MREMAP_MAYMOVE))
		goto out;
	new_addr = get_unmapped_area(mm, 0, new_len, 0,
				     vma->vm_flags & VM_SHARED ?
				     MAP_SHARED : MAP_PRIVATE);
	if (IS_ERR_VALUE(new_addr)) {
		ret = new_addr;
		goto out;
	}
	ret = mremap_move(mm, vma, addr, old_len, new_addr, new_len);
out:
	mmap_write_unlock(mm);
	return ret;
}
EXPORT_SYMBOL(do_mremap);

/* ---- page faults ---- */

static int fault_check_access(struct vm_area_struct *vma, unsigned int access)
{
	unsigned long need = (access & FAULT_READ ? VM_READ : 0) |
			     (access & FAULT_WRITE ? VM_WRITE : 0) |
			     (access & FAULT_EXEC ? VM_EXEC : 0);

	return (vma->vm_flags & need) == need ? 0 : -EACCES;
}

/**
 * handle_fault() - Resolve a page fault at @addr the classic way.
 * @mm: The address space (mmap_lock is taken for read here).
 * @addr: The faulting address.
 * @access: FAULT_READ, FAULT_WRITE and/or FAULT_EXEC.
 *
 * Looks the VMA up under mmap_read_lock() and checks the access; no page
 * is actually mapped.
 *
 * Return: 0; -EFAULT if nothing is mapped at @addr; -EACCES if the VMA
 * does not allow @access.
 */
int handle_fault(struct mm_struct *mm, unsigned long addr, unsigned int access)
{
	struct vm_area_struct *vma;
	int ret = -EFAULT;

	mmap_read_lock(mm);
	vma = vma_tree_lookup(mm, addr);
	if (vma)
		ret = fault_check_access(vma, access);
	mmap_read_unlock(mm);
	return ret;
}
EXPORT_SYMBOL(handle_fault);

/**
 * handle_fault_lockless() - Resolve a page fault as Linux 6.4+ does.
 * @mm: The address space.
 * @addr: The faulting address.
 * @access: As handle_fault().
 *
 * On the maple backend, tries lock_vma_under_rcu() first and falls back
 * to handle_fault() if the VMA could not be read-locked; on the rbtree
 * backend it is handle_fault().
 *
 * Return: as handle_fault().
 */
int handle_fault_lockless(struct mm_struct *mm, unsigned long addr,
			  unsigned int access)
{
#ifndef CONFIG_MM_VMA_RBTREE
	struct vm_area_struct *vma = lock_vma_under_rcu(mm, addr);

	if (vma) {
		int ret = fault_check_access(vma, access);

		vma_end_read(vma);
		return ret;
	}
#endif
	return handle_fault(mm, addr, access);
}
EXPORT_SYMBOL(handle_fault_lockless);

/* ---- validation ---- */

/**
 * validate_mm() - Check an address space's invariants.
 * @mm: The address space; mmap_lock held.
 *
 * VMAs sorted, non-empty, page aligned, inside task_size, not overlapping,
 * no two neighbours left mergeable, vm_mm right, map_count and total_vm
 * right, and the backend's own structure (the maple tree's ranges are the
 * VMAs' exactly; the rbtree's order, colours, rb_subtree_gap and list).
 * Each error is printed.
 *
 * Return: the number of errors found.
 */
int validate_mm(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *prev = NULL;
	unsigned long pages = 0;
	int errors = 0, count = 0;

	mmap_assert_locked(mm);
	for (vma = vma_tree_find(mm, 0); vma; vma = vma_tree_next(mm, vma)) {
		count++;
		pages += vma_pages(vma);
		if (vma->vm_start >= vma->vm_end ||
		    offset_in_page(vma->vm_start) ||
		    offset_in_page(vma->vm_end) ||
		    vma->vm_end > mm->task_size) {
			pr_err("%s: bad VMA [%lx, %lx)\n", __func__,
			       vma->vm_start, vma->vm_end);
			errors++;
		}
		if (vma->vm_mm != mm) {
			pr_err("%s: VMA [%lx, %lx) of another mm\n", __func__,
			       vma->vm_start, vma->vm_end);
			errors++;
		}
		if (prev && prev->vm_end > vma->vm_start) {
			pr_err("%s: [%lx, %lx) overlaps [%lx, %lx)\n", __func__,
			       prev->vm_start, prev->vm_end, vma->vm_start,
			       vma->vm_end);
			errors++;
		}
		if (prev && prev->vm_end == vma->vm_start &&
		    prev->vm_flags == vma->vm_flags &&
		    prev->vm_file == vma->vm_file &&
		    prev->vm_pgoff + vma_pages(prev) == vma->vm_pgoff) {
			pr_err("%s: [%lx, %lx) and [%lx, %lx) left unmerged\n",
			       __func__, prev->vm_start, prev->vm_end,
			       vma->vm_start, vma->vm_end);
			errors++;
		}
		prev = vma;
	}
	if (count != mm->map_count) {
		pr_err("%s: %d VMAs, map_count %d\n", __func__, count,
		       mm->map_count);
		errors++;
	}
	if (pages != mm->total_vm) {
		pr_err("%s: %lu pages mapped, total_vm %lu\n", __func__,
		       pages, mm->total_vm);
		errors++;
	}
	return errors + vma_tree_validate(mm);
}
EXPORT_SYMBOL(validate_mm);
