// SPDX-License-Identifier: GPL-2.0
/*
 * The pre-6.1 backend (CONFIG_MM_VMA_RBTREE), kept as
 * the baseline the maple tree is measured against: VMAs in a red-black
 * tree keyed by vm_start, each node augmented with rb_subtree_gap (the
 * largest free gap just below any VMA of its subtree), the sorted
 * vm_next/vm_prev list, and a per-task cache of the last VMAs found
 * (current->vmacache), invalidated by bumping mm->vmacache_seqnum.
 *
 * The red-black tree is our own, written for this file (the textbook
 * algorithm with parent pointers and a colour flag; no code from Linux's
 * lib/rbtree.c).  Gaps are kept right by recomputing a node from its
 * children whenever they change: both nodes of every rotation, and every
 * node from a changed one up to the root.  No locking of its own:
 * everything runs under mmap_lock; there are no lock-free readers.
 *
 * Conventions: @mm the address space, @vma a VMA, @node a tree node
 * (&vma->vm_rb), @gap a free range's length.
 */
#ifdef CONFIG_MM_VMA_RBTREE

#include <linux/mm.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "internal.h"

/* Every value ever given to a vmacache_seqnum: (mm, seqnum) is unique. */
static atomic64_t vmacache_seq_source;

static inline struct vm_area_struct *rb_vma(struct vma_rb_node *node)
{
	return node ? container_of(node, struct vm_area_struct, vm_rb) : NULL;
}

/* The free gap just below @vma. */
static inline unsigned long vma_gap(const struct vm_area_struct *vma)
{
	return vma->vm_start - (vma->vm_prev ? vma->vm_prev->vm_end : 0);
}

static unsigned long vma_subtree_gap(struct vm_area_struct *vma)
{
	unsigned long gap = vma_gap(vma);
	struct vma_rb_node *node = &vma->vm_rb;

	if (node->left)
		gap = max(gap, rb_vma(node->left)->rb_subtree_gap);
	if (node->right)
		gap = max(gap, rb_vma(node->right)->rb_subtree_gap);
	return gap;
}

static inline void rb_recompute(struct vma_rb_node *node)
{
	struct vm_area_struct *vma = rb_vma(node);

	vma->rb_subtree_gap = vma_subtree_gap(vma);
}

/* Recompute @node and every ancestor. */
static void rb_propagate(struct vma_rb_node *node)
{
	for (; node; node = node->parent)
		rb_recompute(node);
}

static void vmacache_invalidate(struct mm_struct *mm)
{
	mm->vmacache_seqnum = atomic64_inc_return(&vmacache_seq_source);
}

/* ---- the red-black tree ---- */

/* Put @new where @old hangs from @parent (or the root). */
static void rb_replace_child(struct mm_struct *mm, struct vma_rb_node *parent,
			     struct vma_rb_node *old, struct vma_rb_node *new)
{
	if (!parent)
		mm->mm_rb = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		new->parent = parent;
}

/* @x's right child takes its place; @x becomes its left child. */
static void rb_rotate_left(struct mm_struct *mm, struct vma_rb_node *x)
{
	struct vma_rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	rb_replace_child(mm, x->parent, x, y);
	y->left = x;
	x->parent = y;
	rb_recompute(x);
	rb_recompute(y);
}

/* @x's left child takes its place; @x becomes its right child. */
static void rb_rotate_right(struct mm_struct *mm, struct vma_rb_node *x)
{
	struct vma_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	rb_replace_child(mm, x->parent, x, y);
	y->right = x;
	x->parent = y;
	rb_recompute(x);
	rb_recompute(y);
}

static inline bool rb_is_red(const struct vma_rb_node *node)
{
	return node && node->red;
}

/* Restore the colour rules after @node, red, was linked as a leaf. */
static void rb_insert_fixup(struct mm_struct *mm, struct vma_rb_node *node)
{
	struct vma_rb_node *parent, *gparent, *uncle;

	while ((parent = node->parent) && parent->red) {
		gparent = parent->parent;
		if (parent == gparent->left) {
			uncle = gparent->right;
			if (rb_is_red(uncle)) {
				parent->red = false;
				uncle->red = false;
				gparent->red = true;
				node = gparent;
				continue;
			}
			if (node == parent->right) {
				rb_rotate_left(mm, parent);
				node = parent;
				parent = node->parent;
			}
			parent->red = false;
			gparent->red = true;
			rb_rotate_right(mm, gparent);
		} else {
			uncle = gparent->left;
			if (rb_is_red(uncle)) {
				parent->red = false;
				uncle->red = false;
				gparent->red = true;
				node = gparent;
				continue;
			}
			if (node == parent->left) {
				rb_rotate_right(mm, parent);
				node = parent;
				parent = node->parent;
			}
			parent->red = false;
			gparent->red = true;
			rb_rotate_left(mm, gparent);
		}
	}
	mm->mm_rb->red = false;
}

/*
 * Restore the colour rules after a black node was taken out above @node
 * (which may be NULL), a child of @parent.
 */
static void rb_erase_fixup(struct mm_struct *mm, struct vma_rb_node *node,
			   struct vma_rb_node *parent)
{
	struct vma_rb_node *sib;

	while (node != mm->mm_rb && !rb_is_red(node)) {
		if (node == parent->left) {
			sib = parent->right;
			if (rb_is_red(sib)) {
				sib->red = false;
				parent->red = true;
				rb_rotate_left(mm, parent);
				sib = parent->right;
			}
			if (!rb_is_red(sib->left) && !rb_is_red(sib->right)) {
				sib->red = true;
				node = parent;
				parent = node->parent;
				continue;
			}
			if (!rb_is_red(sib->right)) {
				sib->left->red = false;
				sib->red = true;
				rb_rotate_right(mm, sib);
				sib = parent->right;
			}
			sib->red = parent->red;
			parent->red = false;
			sib->right->red = false;
			rb_rotate_left(mm, parent);
			node = mm->mm_rb;
			break;
		}
		sib = parent->left;
		if (rb_is_red(sib)) {
			sib->red = false;
			parent->red = true;
			rb_rotate_right(mm, parent);
			sib = parent->left;
		}
		if (!rb_is_red(sib->left) && !rb_is_red(sib->right)) {
			sib->red = true;
			node = parent;
			parent = node->parent;
			continue;
		}
		if (!rb_is_red(sib->left)) {
			sib->right->red = false;
			sib->red = true;
			rb_rotate_left(mm, sib);
			sib = parent->left;
		}
		sib->red = parent->red;
		parent->red = false;
		sib->left->red = false;
		rb_rotate_right(mm, parent);
		node = mm->mm_rb;
		break;
	}
	if (node)
		node->red = false;
}

/* Take @node out of the tree, gaps and colours kept right. */
static void rb_erase(struct mm_struct *mm, struct vma_rb_node *node)
{
	struct vma_rb_node *child, *parent, *lowest;
	bool removed_red;

	if (!node->left || !node->right) {
		child = node->left ? node->left : node->right;
		parent = node->parent;
		removed_red = node->red;
		rb_replace_child(mm, parent, node, child);
		lowest = parent;
	} else {
		/* The successor, leftmost of the right subtree, moves up. */
		struct vma_rb_node *succ = node->right;

		while (succ->left)
			succ = succ->left;
		removed_red = succ->red;
		child = succ->right;
		if (succ->parent == node) {
			parent = succ;
		} else {
			parent = succ->parent;
			parent->left = child;
			if (child)
				child->parent = parent;
			succ->right = node->right;
			node->right->parent = succ;
		}
		succ->left = node->left;
		node->left->parent = succ;
		succ->red = node->red;
		rb_replace_child(mm, node->parent, node, succ);
		lowest = parent;
	}
	/* Gaps first: the fixup's rotations read the children's values. */
	rb_propagate(lowest);
	if (!removed_red)
		rb_erase_fixup(mm, child, parent);
	node->parent = node->left = node->right = NULL;
}

/* Link @vma into the tree and the list (its range must be free). */
static void vma_link(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vma_rb_node **link = &mm->mm_rb, *parent = NULL;
	struct vm_area_struct *prev = NULL, *next;

	while (*link) {
		struct vm_area_struct *at = rb_vma(*link);

		parent = *link;
		if (vma->vm_start < at->vm_start) {
			link = &parent->left;
		} else {
			prev = at;
			link = &parent->right;
		}
	}
	vma->vm_rb.parent = parent;
	vma->vm_rb.left = vma->vm_rb.right = NULL;
	vma->vm_rb.red = true;
	*link = &vma->vm_rb;

	next = prev ? prev->vm_next : mm->mmap;
	vma->vm_prev = prev;
	vma->vm_next = next;
	if (prev)
		prev->vm_next = vma;
	else
		mm->mmap = vma;
	if (next)
		next->vm_prev = vma;

	rb_propagate(&vma->vm_rb);
	rb_insert_fixup(mm, &vma->vm_rb);
	if (next)
		rb_propagate(&next->vm_rb);
}

static void vma_unlink(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *next = vma->vm_next;

	if (vma->vm_prev)
		vma->vm_prev->vm_next = next;
	else
		mm->mmap = next;
	if (next)
		next->vm_prev = vma->vm_prev;
	rb_erase(mm, &vma->vm_rb);
	if (next)
		rb_propagate(&next->vm_rb);
	vma->vm_next = vma->vm_prev = NULL;
}

/* ---- the backend interface ---- */

void vma_tree_init(struct mm_struct *mm)
{
	mm->mm_rb = NULL;
	mm->mmap = NULL;
	vmacache_invalidate(mm);
}

/* The VMAs are the tree's nodes: with them gone, nothing is left. */
void vma_tree_destroy(struct mm_struct *mm)
{
	vma_tree_init(mm);
}

void vma_tree_detach(struct vm_area_struct *vma)
{
	(void)vma;	/* unlinked by the commit, and no lock-free readers */
}

static struct vm_area_struct *vmacache_find(struct mm_struct *mm,
					    unsigned long addr)
{
	struct vmacache *vc = &current->vmacache;
	unsigned int i;

	if (vc->mm != mm || vc->seqnum != mm->vmacache_seqnum)
		return NULL;
	for (i = 0; i < VMACACHE_SIZE; i++) {
		struct vm_area_struct *vma = vc->vmas[i];

		if (vma && vma->vm_start <= addr && addr < vma->vm_end)
			return vma;
	}
	return NULL;
}

static void vmacache_update(struct mm_struct *mm, unsigned long addr,
			    struct vm_area_struct *vma)
{
	struct vmacache *vc = &current->vmacache;

	if (vc->mm != mm || vc->seqnum != mm->vmacache_seqnum) {
		memset(vc->vmas, 0, sizeof(vc->vmas));
		vc->mm = mm;
		vc->seqnum = mm->vmacache_seqnum;
	}
	vc->vmas[(addr >> PAGE_SHIFT) & VMACACHE_MASK] = vma;
}

struct vm_area_struct *vma_tree_find(struct mm_struct *mm, unsigned long addr)
{
	struct vma_rb_node *node = mm->mm_rb;
	struct vm_area_struct *vma = vmacache_find(mm, addr), *found = NULL;

	if (vma)
		return vma;
	while (node) {
		vma = rb_vma(node);
		if (vma->vm_end > addr) {
			found = vma;
			if (vma->vm_start <= addr)
				break;
			node = node->left;
		} else {
			node = node->right;
		}
	}
	if (found)
		vmacache_update(mm, addr, found);
	return found;
}

struct vm_area_struct *vma_tree_find_before(struct mm_struct *mm,
					    unsigned long addr)
{
	struct vma_rb_node *node = mm->mm_rb;
	struct vm_area_struct *found = NULL;

	while (node) {
		struct vm_area_struct *vma = rb_vma(node);

		if (vma->vm_start < addr) {
			found = vma;
			node = node->right;
		} else {
			node = node->left;
		}
	}
	return found;
}

struct vm_area_struct *vma_tree_next(struct mm_struct *mm,
				     struct vm_area_struct *vma)
{
	(void)mm;
	return vma->vm_next;
}

struct vm_area_struct *vma_walk_start(struct vma_walk *w, struct mm_struct *mm,
				      unsigned long addr,
				      struct vm_area_struct **prev)
{
	struct vm_area_struct *vma = vma_tree_find(mm, addr);

	if (prev)
		*prev = vma ? vma->vm_prev :
			      vma_tree_find_before(mm, ULONG_MAX);
	w->vma = vma;
	return vma;
}

struct vm_area_struct *vma_walk_next(struct vma_walk *w)
{
	if (w->vma)
		w->vma = w->vma->vm_next;
	return w->vma;
}

struct vm_area_struct *vma_walk_next_upto(struct vma_walk *w,
					  unsigned long max)
{
	struct vm_area_struct *next = w->vma ? w->vma->vm_next : NULL;

	if (!next || next->vm_start > max)
		return NULL;
	w->vma = next;
	return next;
}

/*
 * Old VMAs no piece kept leave first; reused ones change in place (their
 * order cannot change: the window's pieces and their origins are in the
 * same order); new ones are linked last, so the keys they descend by are
 * the final ones.  Nothing here can fail.
 */
int vma_tree_commit(struct vma_rewrite *rw)
{
	struct mm_struct *mm = rw->mm;
	bool removed = false;
	int i;

	for (i = 0; i < rw->nr_old; i++) {
		if (rw->old[i]->vm_mark)
			continue;
		vma_unlink(mm, rw->old[i]);
		removed = true;
	}
	/* Keys change in place before any link descends by them. */
	for (i = 0; i < rw->nr_piece; i++) {
		struct vma_piece *p = &rw->piece[i];
		struct vm_area_struct *vma = p->vma;

		if (vma == p->origin && vma_piece_changed(p)) {
			vma_piece_apply(p);
			rb_propagate(&vma->vm_rb);
			if (vma->vm_next)
				rb_propagate(&vma->vm_next->vm_rb);
		}
	}
	for (i = 0; i < rw->nr_piece; i++)
		if (rw->piece[i].vma != rw->piece[i].origin)
			vma_link(mm, rw->piece[i].vma);
	if (removed)
		vmacache_invalidate(mm);
	return 0;
}

/*
 * Lowest (or highest) a in [low, high - len] with [a, a + len) free,
 * among the gaps below the VMAs of @node's subtree.  Subtrees whose
 * largest gap is too small, or whose gaps all end at or below @low (or
 * start at or above @high), are skipped.
 */
static bool gap_search(struct vma_rb_node *node, unsigned long len,
		       unsigned long low, unsigned long high, bool topdown,
		       unsigned long *addr)
{
	struct vm_area_struct *vma;
	unsigned long gs, ge;

	if (!node || rb_vma(node)->rb_subtree_gap < len)
		return false;
	vma = rb_vma(node);
	/*
	 * Gaps on the left end at or below vm_start; on the right they
	 * start at or above vm_end.
	 */
	if (!topdown && vma->vm_start > low &&
	    gap_search(node->left, len, low, high, topdown, addr))
		return true;
	if (topdown && vma->vm_end < high &&
	    gap_search(node->right, len, low, high, topdown, addr))
		return true;

	gs = max(vma->vm_prev ? vma->vm_prev->vm_end : 0, low);
	ge = min(vma->vm_start, high);
	if (gs < ge && ge - gs >= len) {
		*addr = topdown ? ge - len : gs;
		return true;
	}

	if (!topdown && vma->vm_end < high)
		return gap_search(node->right, len, low, high, topdown, addr);
	if (topdown && vma->vm_start > low)
		return gap_search(node->left, len, low, high, topdown, addr);
	return false;
}

int vma_tree_gap(struct mm_struct *mm, unsigned long len, unsigned long low,
		 unsigned long high, bool topdown, unsigned long *addr)
{
	struct vm_area_struct *last = vma_tree_find_before(mm, ULONG_MAX);
	unsigned long top = max(last ? last->vm_end : 0, low);

	if (high <= low || high - low < len)
		return -ENOMEM;
	/* The gap above the last VMA is in no node: first or last. */
	if (topdown && top < high && high - top >= len) {
		*addr = high - len;
		return 0;
	}
	if (gap_search(mm->mm_rb, len, low, high, topdown, addr))
		return 0;
	if (!topdown && top < high && high - top >= len) {
		*addr = top;
		return 0;
	}
	return -ENOMEM;
}

int vma_tree_dup(struct mm_struct *old, struct mm_struct *new,
		 struct vm_area_struct **copies)
{
	struct vm_area_struct *vma;
	int i = 0;

	for (vma = old->mmap; vma; vma = vma->vm_next) {
		vm_area_copy(copies[i], vma);
		vma_link(new, copies[i++]);
	}
	return 0;
}

/* ---- validation ---- */

/* Black height of @node's subtree, or -1 after printing an error. */
static int rb_check(struct vma_rb_node *node, struct vma_rb_node *parent,
		    int *errors)
{
	struct vm_area_struct *vma;
	int lh, rh;

	if (!node)
		return 1;
	vma = rb_vma(node);
	if (node->parent != parent) {
		pr_err("validate_mm: rb parent wrong at %lx\n", vma->vm_start);
		(*errors)++;
	}
	if (node->red && rb_is_red(parent)) {
		pr_err("validate_mm: red under red at %lx\n", vma->vm_start);
		(*errors)++;
	}
	if (vma->rb_subtree_gap != vma_subtree_gap(vma)) {
		pr_err("validate_mm: rb_subtree_gap %lx at %lx, should be %lx\n",
		       vma->rb_subtree_gap, vma->vm_start,
		       vma_subtree_gap(vma));
		(*errors)++;
	}
	lh = rb_check(node->left, node, errors);
	rh = rb_check(node->right, node, errors);
	if (lh != rh) {
		pr_err("validate_mm: black heights %d and %d under %lx\n",
		       lh, rh, vma->vm_start);
		(*errors)++;
	}
	return lh + !node->red;
}

/* In-order walk: the tree's order is the list's. */
static void rb_check_order(struct vma_rb_node *node,
			   struct vm_area_struct **expect, int *errors)
{
	if (!node)
		return;
	rb_check_order(node->left, expect, errors);
	if (rb_vma(node) != *expect) {
		pr_err("validate_mm: tree order and list differ at %lx\n",
		       rb_vma(node)->vm_start);
		(*errors)++;
	}
	if (*expect)
		*expect = (*expect)->vm_next;
	rb_check_order(node->right, expect, errors);
}

int vma_tree_validate(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *prev = NULL, *expect = mm->mmap;
	int errors = 0;

	if (rb_is_red(mm->mm_rb)) {
		pr_err("validate_mm: red root\n");
		errors++;
	}
	rb_check(mm->mm_rb, NULL, &errors);
	rb_check_order(mm->mm_rb, &expect, &errors);
	if (expect) {
		pr_err("validate_mm: list longer than the tree\n");
		errors++;
	}
	for (vma = mm->mmap; vma; prev = vma, vma = vma->vm_next) {
		if (vma->vm_prev != prev) {
			pr_err("validate_mm: vm_prev wrong at %lx\n",
			       vma->vm_start);
			errors++;
		}
	}
	return errors;
}

/* ---- the iterator ---- */

/**
 * vma_find() - The next VMA that starts below @max.
 * @vmi: The iterator.
 * @max: The end of the search (exclusive).
 *
 * Return: the VMA at or after the iterator's position, or NULL.
 */
struct vm_area_struct *vma_find(struct vma_iterator *vmi, unsigned long max)
{
	struct vm_area_struct *vma = vma_tree_find(vmi->mm, vmi->index);

	if (!vma || vma->vm_start >= max || vmi->index == ULONG_MAX) {
		/* Used up: vma_prev() comes back to the last one below max. */
		vmi->prev_end = max;
		return NULL;
	}
	vmi->prev_end = vma->vm_start;
	vmi->index = vma->vm_end;
	return vma;
}
EXPORT_SYMBOL(vma_find);

/**
 * vma_prev() - The VMA before the iterator's position.
 * @vmi: The iterator.
 *
 * Return: the previous VMA, or NULL if there is none.
 */
struct vm_area_struct *vma_prev(struct vma_iterator *vmi)
{
	struct vm_area_struct *vma;

	vma = vma_tree_find_before(vmi->mm, vmi->prev_end);
	if (!vma)
		return NULL;
	vmi->prev_end = vma->vm_start;
	vmi->index = vma->vm_end;
	return vma;
}
EXPORT_SYMBOL(vma_prev);

#endif /* CONFIG_MM_VMA_RBTREE */
