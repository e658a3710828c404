// SPDX-License-Identifier: GPL-2.0+
/*
 * Maple tree: an RCU-safe B-tree of non-overlapping ranges.
 *
 * Written from scratch for the maple project against the documented
 * behaviour of the Linux 6.1 maple tree.
 *
 * Coding conventions in this file
 * -------------------------------
 * mt       the tree (struct maple_tree)
 * mas      the caller's operation state (struct ma_state)
 * node     a node's address (struct maple_node *)
 * enode    an encoded node: address plus node type (struct maple_enode *)
 * offset   a slot number inside a node
 * pivot    the last index covered by a slot; the last used slot of a node
 *          ends at the node's maximum, and every pivot from that slot on
 *          holds the maximum, so pivots never decrease and a walk can
 *          binary-search them without knowing where the data ends
 * slot     an entry (leaf) or an encoded child (internal node)
 * gap      in allocation trees, the size of the largest NULL range below
 *          a child
 * end      the offset of the last used slot in a node
 * empty    a leaf slot before the end whose pivot equals the one before
 *          it: it covers no index and holds NULL.  An entry removed in
 *          place in RCU mode leaves one (slots never move in a live
 *          leaf); a later entry may fill it, and a rebuild drops it.
 * depth    0 at the root node, height - 1 at the leaves
 *
 * Readers take no lock: they hold rcu_read_lock() (or the tree lock) and a
 * node they read is never changed except by single aligned word stores (a
 * slot, a gap hint, the parent word, a leaf's pivot when one boundary
 * moves, a slot and a pivot when an entry leaves or fills an empty slot
 * beside a NULL), which they load with READ_ONCE().  Writers that need
 * more than that build new nodes beside the old ones, publish them with
 * one rcu_assign_pointer(), mark the old nodes dead and free them after a
 * grace period.  A reader that finds the node it stands on dead walks
 * again from the root.  Outside RCU mode a writer may also rewrite a node
 * in place and free replaced nodes at once.
 *
 * A write that stays in one leaf is done there: a single store (one slot,
 * one pivot), or the leaf rewritten (in place outside RCU mode, as a copy
 * in it).  Any other write rebuilds the levels it changes from the leaves
 * up (struct mt_wr), in two passes over the same code: one that counts
 * the nodes it will need and one that draws exactly those nodes from the
 * ma_state's pool.  The second pass cannot fail, which is what
 * mas_preallocate() + mas_store_prealloc() promise.
 *
 * The sections, in order: node encoding; state flags; node allocation;
 * walking; iteration; reading API; gap search; gap maintenance;
 * rebuilding writes; writes inside one leaf, write classification, store
 * kinds carried out, write API; preallocation; allocation-tree API;
 * destruction; duplication; validation and dump.
 */

/*
 * Only the headers Linux's own tree includes: Linux's userspace
 * harness (tools/testing/shared) builds this file on its stand-ins for
 * exactly these, and in a kernel they bring in the rest.
 */
#include <linux/maple_tree.h>
#include <linux/xarray.h>
#include <linux/types.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/limits.h>
#include <asm/barrier.h>

/* ------------------------------------------------------------------------
 * Node encoding
 */

#define MAPLE_ROOT_NODE		0x02UL	/* ma_root holds a node */
#define MAPLE_PARENT_ROOT	0x01UL	/* ->parent points at the tree */
#define MAPLE_PARENT_SLOT_SHIFT	3
#define MAPLE_PARENT_SLOT_MASK	0x1fUL
#define MAPLE_RESERVED_RANGE	4096

/* Slots and pivots per node type. */
static const unsigned char mt_slots[] = {
	[maple_dense]		= MAPLE_NODE_SLOTS,
	[maple_leaf_64]		= MAPLE_RANGE64_SLOTS,
	[maple_range_64]	= MAPLE_RANGE64_SLOTS,
	[maple_arange_64]	= MAPLE_ARANGE64_SLOTS,
};

static const unsigned char mt_pivots[] = {
	[maple_dense]		= 0,
	[maple_leaf_64]		= MAPLE_RANGE64_SLOTS - 1,
	[maple_range_64]	= MAPLE_RANGE64_SLOTS - 1,
	[maple_arange_64]	= MAPLE_ARANGE64_SLOTS - 1,
};

static struct kmem_cache *maple_node_cache;

#ifdef CONFIG_DEBUG_MAPLE_TREE
atomic_t maple_tree_tests_run;
atomic_t maple_tree_tests_passed;
EXPORT_SYMBOL_GPL(maple_tree_tests_run);
EXPORT_SYMBOL_GPL(maple_tree_tests_passed);
#endif

static inline struct maple_node *mte_to_node(const struct maple_enode *enode)
{
	return (struct maple_node *)((unsigned long)enode & ~MAPLE_NODE_MASK);
}

static inline enum maple_type mte_node_type(const struct maple_enode *enode)
{
	return ((unsigned long)enode >> MAPLE_ENODE_TYPE_SHIFT) &
		MAPLE_ENODE_TYPE_MASK;
}

static inline struct maple_enode *mt_mk_node(const struct maple_node *node,
					     enum maple_type type)
{
	return (struct maple_enode *)((unsigned long)node |
				      ((unsigned long)type << MAPLE_ENODE_TYPE_SHIFT));
}

static inline void *mte_mk_root(const struct maple_enode *enode)
{
	return (void *)((unsigned long)enode | MAPLE_ROOT_NODE);
}

static inline struct maple_enode *mte_safe_root(const void *entry)
{
	return (struct maple_enode *)((unsigned long)entry & ~MAPLE_ROOT_NODE);
}

static inline bool ma_is_leaf(enum maple_type type)
{
	return type < maple_range_64;
}

/* Readers look at the flags while a writer may change the height bits. */
static inline bool mt_is_alloc(const struct maple_tree *mt)
{
	return READ_ONCE(mt->ma_flags) & MT_FLAGS_ALLOC_RANGE;
}

/* Writers hold the tree lock, under which the flags do not change. */
static inline bool mt_wr_is_alloc(const struct maple_tree *mt)
{
	return mt->ma_flags & MT_FLAGS_ALLOC_RANGE;
}

static inline bool mt_wr_in_rcu(const struct maple_tree *mt)
{
	return !IS_ENABLED(CONFIG_MAPLE_RCU_DISABLED) &&
	       (mt->ma_flags & MT_FLAGS_USE_RCU);
}

/*
 * What a reader's walk must know of the tree: the internal node layout
 * (MT_FLAGS_ALLOC_RANGE) and whether it can meet dead nodes
 * (MT_FLAGS_USE_RCU).  Outside RCU mode readers hold the tree lock, or run
 * where no writer can: replaced nodes are freed at once and never seen
 * dead, so the walk leaves out the check.
 */
static inline unsigned int mt_reader_kind(const struct maple_tree *mt)
{
	return READ_ONCE(mt->ma_flags) &
		(MT_FLAGS_ALLOC_RANGE | MT_FLAGS_USE_RCU);
}

static inline bool mt_is_reserved(const void *entry)
{
	return (unsigned long)entry < MAPLE_RESERVED_RANGE &&
		xa_is_internal(entry);
}

static inline enum maple_type mt_internal_type(const struct maple_tree *mt)
{
	return mt_is_alloc(mt) ? maple_arange_64 : maple_range_64;
}

/* Every node type keeps its pivots right after the parent word. */
static inline unsigned long *ma_pivots(struct maple_node *node,
				       enum maple_type type __maybe_unused)
{
	BUILD_BUG_ON(offsetof(struct maple_range_64, pivot) !=
		     offsetof(struct maple_arange_64, pivot));
	return node->mr64.pivot;
}

/* Where the slots start, by node type: a table keeps the walk branch-free. */
static const unsigned char mt_slot_base[] = {
	[maple_dense]		= offsetof(struct maple_node, slot),
	[maple_leaf_64]		= offsetof(struct maple_range_64, slot),
	[maple_range_64]	= offsetof(struct maple_range_64, slot),
	[maple_arange_64]	= offsetof(struct maple_arange_64, slot),
};

static inline void __rcu **ma_slots(struct maple_node *node,
				    enum maple_type type)
{
	return (void __rcu **)((char *)node + mt_slot_base[type]);
}

static inline unsigned long *ma_gaps(struct maple_node *node,
				     enum maple_type type)
{
	if (type == maple_arange_64)
		return node->ma64.gap;
	return NULL;
}

static inline void mt_set_height(struct maple_tree *mt, unsigned int height)
{
	unsigned int flags = mt->ma_flags & ~MT_FLAGS_HEIGHT_MASK;

	flags |= height << MT_FLAGS_HEIGHT_OFFSET;
	WRITE_ONCE(mt->ma_flags, flags);
}

/* The root pointer, for a reader (RCU or lock) and for a writer. */
static inline void *mt_root_check(const struct maple_tree *mt)
{
	return rcu_dereference_check(mt->ma_root, mt_locked(mt));
}

static inline void *mt_root_locked(struct maple_tree *mt)
{
	return rcu_dereference_protected(mt->ma_root, mt_locked(mt));
}

static inline void *mt_slot(const struct maple_tree *mt, void __rcu **slots,
			    unsigned char offset)
{
	return rcu_dereference_check(slots[offset], mt_locked(mt));
}

static inline void *mt_slot_locked(struct maple_tree *mt, void __rcu **slots,
				   unsigned char offset)
{
	return rcu_dereference_protected(slots[offset], mt_locked(mt));
}

/*
 * Whether a slot holds anything, for a caller that does not follow the
 * pointer (what rcu_access_pointer() is for, which Linux's userspace
 * harness lacks): no lock or read-side section is needed for that.
 */
static inline bool mt_slot_used(void __rcu **slots, unsigned char offset)
{
	return rcu_dereference_raw(slots[offset]) != NULL;
}

/* Parent words: the parent's address, the slot we hang from, or the tree. */
static inline void mt_set_parent(struct maple_node *node,
				 const struct maple_node *parent,
				 unsigned char offset)
{
	unsigned long val = (unsigned long)parent |
		((unsigned long)offset << MAPLE_PARENT_SLOT_SHIFT);

	WRITE_ONCE(node->parent, (struct maple_pnode *)val);
}

static inline void mt_set_parent_root(struct maple_node *node,
				      const struct maple_tree *mt)
{
	WRITE_ONCE(node->parent, (struct maple_pnode *)
		   ((unsigned long)mt | MAPLE_PARENT_ROOT));
}

static inline bool ma_is_root(const struct maple_node *node)
{
	return (unsigned long)READ_ONCE(node->parent) & MAPLE_PARENT_ROOT;
}

static inline struct maple_node *ma_parent(const struct maple_node *node)
{
	return (struct maple_node *)((unsigned long)node->parent &
				     ~MAPLE_NODE_MASK);
}

static inline unsigned char ma_parent_slot(const struct maple_node *node)
{
	return ((unsigned long)node->parent >> MAPLE_PARENT_SLOT_SHIFT) &
		MAPLE_PARENT_SLOT_MASK;
}

/*
 * The gap an allocation tree's node keeps for a child, from the child's
 * parent word (writers read it plainly: only they change it).
 */
static inline unsigned long mt_parent_gap(unsigned long pword)
{
	struct maple_node *parent = (struct maple_node *)(pword &
							  ~MAPLE_NODE_MASK);

	return parent->ma64.gap[(pword >> MAPLE_PARENT_SLOT_SHIFT) &
				MAPLE_PARENT_SLOT_MASK];
}

/*
 * A dead node's parent word points at the node itself.  Readers check it
 * after reading a slot: the mark is written before the node is handed to
 * call_rcu(), which may reuse the first words of the node for its list.
 */
static inline void ma_mark_dead(struct maple_node *node)
{
	/*
	 * The replacement's publication before the mark: a reader that sees
	 * the mark and walks again from the root finds the replacement.
	 */
	smp_wmb();
	WRITE_ONCE(node->parent, (struct maple_pnode *)node);
	/*
	 * The mark before call_rcu() reuses the node's first words: pairs
	 * with the smp_rmb() of ma_dead_node().
	 */
	smp_wmb();
}

static inline bool ma_dead_node(const struct maple_node *node)
{
	/*
	 * The node's words before its parent word: if that is no mark, they
	 * were read before the node was reused.  Pairs with the second
	 * smp_wmb() of ma_mark_dead().
	 */
	smp_rmb();
	return (struct maple_node *)READ_ONCE(node->parent) == node;
}

/*
 * Pivot loads.  A leaf's pivot may move under an RCU reader (one boundary
 * moved in place), so readers load leaf pivots with READ_ONCE(): @once.
 * Internal nodes are never changed in place, and writers hold the lock.
 */
#define MA_PIVOT(pivots, i, once)	\
	((once) ? READ_ONCE((pivots)[i]) : (pivots)[i])

/* The last index covered by @offset of a node ending at @max. */
static inline unsigned long
__ma_pivot_max(const unsigned long *pivots, enum maple_type type,
	       unsigned char offset, unsigned long max, bool once)
{
	if (offset < mt_pivots[type])
		return MA_PIVOT(pivots, offset, once);
	return max;
}

/*
 * The first index covered by @offset of a node starting at @min.
 *
 * Always inlined: without, brk_cycle 3.5%, empty_area_rev 2.9% more
 * instructions (callgrind).
 */
static __always_inline unsigned long
__ma_pivot_min(const unsigned long *pivots, unsigned char offset,
	       unsigned long min, bool once)
{
	return offset ? MA_PIVOT(pivots, offset - 1, once) + 1 : min;
}

#define ma_pivot_max(pivots, type, offset, max)	\
	__ma_pivot_max(pivots, type, offset, max, false)
#define ma_pivot_min(pivots, offset, min)	\
	__ma_pivot_min(pivots, offset, min, false)

/*
 * The slot of a node that holds @index: the number of pivots below it.
 * Unused pivots hold the node's maximum, so the pivots never decrease and
 * a branch-free binary search over all of them works.
 *
 * Always inlined: without, empty_area_rev 6.6%, brk_cycle 5.0%, mmap_cycle
 * 4.2%, overwrite 3.3% more instructions (callgrind).
 */
static __always_inline unsigned char __ma_offset(const unsigned long *pivots,
						 enum maple_type type,
						 unsigned long index, bool once)
{
	unsigned long offset;

#if MAPLE_RANGE64_SLOTS == 16 && MAPLE_ARANGE64_SLOTS == 10
	if (likely(type != maple_arange_64)) {
		offset = (MA_PIVOT(pivots, 7, once) < index) << 3;
		offset += (MA_PIVOT(pivots, offset + 3, once) < index) << 2;
		offset += (MA_PIVOT(pivots, offset + 1, once) < index) << 1;
		offset += MA_PIVOT(pivots, offset, once) < index;
		return offset;
	}
	if (MA_PIVOT(pivots, 7, once) < index)
		return 8 + (MA_PIVOT(pivots, 8, once) < index);
	offset = (MA_PIVOT(pivots, 3, once) < index) << 2;
	offset += (MA_PIVOT(pivots, offset + 1, once) < index) << 1;
	offset += MA_PIVOT(pivots, offset, once) < index;
	return offset;
#else
	for (offset = 0; offset < mt_pivots[type]; offset++)
		if (index <= MA_PIVOT(pivots, offset, once))
			break;
	return offset;
#endif
}

#define ma_offset(pivots, type, index)	__ma_offset(pivots, type, index, false)

/*
 * The offset of the last used slot.  The last used slot ends at @max and,
 * unless the node is full, so do all pivots from it on: the first pivot
 * that reaches @max marks the end.
 */
static inline unsigned char ma_data_end(struct maple_node *node,
					enum maple_type type, unsigned long max)
{
	return ma_offset(ma_pivots(node, type), type, max);
}

/*
 * Whether slot @offset of a leaf ending at @max covers no index: an empty
 * slot, or one past the end (whose pivot, like the end's, is @max).  Slot
 * 0 always covers an index.  For writers, who hold the lock.
 */
static inline bool ma_leaf_slot_empty(const unsigned long *pivots,
				      unsigned char offset, unsigned long max)
{
	if (!offset)
		return false;
	return ma_pivot_max(pivots, maple_leaf_64, offset, max) ==
	       pivots[offset - 1];
}

/*
 * The readers' search: a pointer to pivot[offset] of the slot that holds
 * @index, in a node with @npiv pivots.  The pointer serves a walk better
 * than the offset: the slot's entry is @npiv words further on (the slots
 * follow the pivots), the slot's last index is the pivot itself and its
 * first index the word before it plus one.  At the node's edges those
 * words are the parent word (before pivot[0]) and slot[0] (after the last
 * pivot), still inside the node, so a walk loads all three without a
 * branch and picks the node's own bounds instead where the offset says.
 * @once: the node is a leaf read under RCU (see MA_PIVOT()).
 *
 * Always inlined: without, mas_walk 26% more instructions (callgrind).
 */
static __always_inline unsigned long *ma_find_pivot(struct maple_node *node,
						    unsigned char npiv,
						    unsigned long index,
						    bool once)
{
	unsigned long *p = (unsigned long *)node + 1;

	BUILD_BUG_ON(offsetof(struct maple_range_64, pivot) != sizeof(void *));
	BUILD_BUG_ON(offsetof(struct maple_range_64, slot) !=
		     sizeof(void *) * MAPLE_RANGE64_SLOTS);
	BUILD_BUG_ON(offsetof(struct maple_arange_64, slot) !=
		     sizeof(void *) * MAPLE_ARANGE64_SLOTS);
#if MAPLE_RANGE64_SLOTS == 16 && MAPLE_ARANGE64_SLOTS == 10
	if (npiv == MAPLE_ARANGE64_SLOTS - 1 && MA_PIVOT(p, 7, once) < index)
		return p + 8 + (MA_PIVOT(p, 8, once) < index);
	if (npiv == MAPLE_RANGE64_SLOTS - 1 && MA_PIVOT(p, 7, once) < index)
		p += 8;
	if (MA_PIVOT(p, 3, once) < index)
		p += 4;
	if (MA_PIVOT(p, 1, once) < index)
		p += 2;
	if (MA_PIVOT(p, 0, once) < index)
		p += 1;
	return p;
#else
	unsigned char offset;

	for (offset = 0; offset < npiv; offset++)
		if (index <= MA_PIVOT(p, offset, once))
			break;
	return p + offset;
#endif
}

/* Leaves are the types below maple_range_64: bit 1 of the type is clear. */
static inline bool mte_is_leaf(const struct maple_enode *enode)
{
	BUILD_BUG_ON(!(maple_range_64 & maple_arange_64 & 2) ||
		     ((maple_dense | maple_leaf_64) & 2));
	return !((unsigned long)enode & (2UL << MAPLE_ENODE_TYPE_SHIFT));
}

/* ------------------------------------------------------------------------
 * State flags (ma_state.mas_flags), all of them
 *
 * What an operation leaves for the next one on the same state: a bulk
 * load, or what mas_preallocate() found for the store that follows.
 */

/*
 * mas_expected_entries() was called: the ascending stores that follow
 * build full nodes (Linux 6.1 calls this bulk mode).
 */
#define MA_STATE_BULK		0x04

/*
 * The kinds of write, from the cheapest; "Writing" in
 * Documentation/core-api/maple_tree.rst has the table.  mas_wr_kind()
 * works a write's kind out, mas_wr_store() carries it out, and
 * mas_preallocate() records it for the store that follows in mas_flags
 * (MA_STATE_KIND), with its slot in mas->offset.
 */
enum mt_store_kind {
	MT_STORE_NONE,		/* not worked out (nothing recorded) */
	/* The single stores: one word changes in the leaf, no node. */
	MT_STORE_SLOT,		/* slot offset gets the entry: its exact range */
	MT_STORE_MOVE_UP,	/* pivot offset moves up to mas->last */
	MT_STORE_MOVE_DOWN,	/* pivot offset moves down below mas->index */
	/* In RCU mode: one slot and one pivot, see mt_leaf_single_kind(). */
	MT_STORE_VACATE,	/* the NULL beside a slot takes its range */
	MT_STORE_FILL,		/* an empty slot takes a NULL range's head or tail */
	/* One leaf: no node outside RCU mode, one in it. */
	MT_STORE_REWRITE,	/* in place, or a copy of the leaf published */
	/* One node: the tree's last leaf overflows (outside RCU mode). */
	MT_STORE_SPLIT_LAST,
	/* What the planning pass counts: splits, merges, spanning stores. */
	MT_STORE_REBUILD,
};

#define MA_STATE_KIND_SHIFT	3
#define MA_STATE_KIND		(15 << MA_STATE_KIND_SHIFT)

/* What mas_preallocate() leaves for the next store (and it ends). */
#define MA_STATE_PREPARED	MA_STATE_KIND

static inline enum mt_store_kind mas_kind(const struct ma_state *mas)
{
	return (mas->mas_flags & MA_STATE_KIND) >> MA_STATE_KIND_SHIFT;
}

static inline bool mt_kind_is_single(enum mt_store_kind kind)
{
	return kind >= MT_STORE_SLOT && kind <= MT_STORE_FILL;
}

/*
 * mas_preallocate() was called on this state: debug builds warn when
 * mas_store_prealloc() comes on a state that never had one (its store may
 * need nodes it was not given, which mas_store_prealloc() cannot report).
 * The mark stays through the stores and mas_destroy(): Linux 6.1's
 * __vma_adjust() prepares once and stores up to three times.
 */
#define MA_STATE_PREALLOC	0x80

/* ------------------------------------------------------------------------
 * Node allocation
 *
 * A ma_state keeps the nodes allocated for its next write in ->alloc: a
 * chain of free nodes linked through maple_alloc.slot[0], the head holding
 * the total.  With no node allocated, ->alloc may instead hold a request
 * count as ((count << 1) | 1), so that mas_nomem() knows what to get.
 */

/*
 * Not zeroed: every write fills all of a new node's pivots, slots, gaps
 * and metadata (mt_wr_fill(), mt_leaf_fill()) and sets its parent, and a
 * dup copies whole nodes.
 */
static inline struct maple_node *mt_alloc_one(gfp_t gfp)
{
	return kmem_cache_alloc(maple_node_cache, gfp);
}

static inline void mt_free_one(struct maple_node *node)
{
	kmem_cache_free(maple_node_cache, node);
}

static void mt_free_rcu(struct rcu_head *head)
{
	struct maple_node *node = container_of(head, struct maple_node, rcu);

	kmem_cache_free(maple_node_cache, node);
}

/*
 * Whether a reader that starts now can reach @node: every link from the
 * root down to it still in place.  A node leaves the tree when the slot
 * (or the root) that held it, or one that held an ancestor, is
 * overwritten, or an ancestor is marked dead.  The caller holds the lock.
 */
static bool mt_node_reachable(struct maple_tree *mt, struct maple_node *node)
{
	enum maple_type ptype = mt_internal_type(mt);

	for (;;) {
		struct maple_node *parent;
		void *root;

		if (ma_dead_node(node))
			return false;
		if (ma_is_root(node)) {
			root = mt_root_locked(mt);
			return xa_is_node(root) &&
			       mte_to_node(mte_safe_root(root)) == node;
		}
		parent = ma_parent(node);
		if (mte_to_node(mt_slot_locked(mt, ma_slots(parent, ptype),
					       ma_parent_slot(node))) != node)
			return false;
		node = parent;
	}
}

/*
 * Retire a node that was part of the tree.  In RCU mode it must be out of
 * the tree first (its replacement published): a reader that got to it
 * after call_rcu() would not hold up the grace period that frees it.
 * Debug builds check that, since a stress test only rarely lands a reader
 * in that window.
 */
static void mt_retire_node(struct maple_tree *mt, struct maple_node *node)
{
	if (mt_wr_in_rcu(mt)) {
		if (IS_ENABLED(CONFIG_DEBUG_MAPLE_TREE))
			WARN_ON_ONCE(mt_node_reachable(mt, node));
		ma_mark_dead(node);
		call_rcu(&node->rcu, mt_free_rcu);
	} else {
		mt_free_one(node);
	}
}

static inline bool mas_has_request(const struct ma_state *mas)
{
	return (unsigned long)mas->alloc & 1UL;
}

static inline unsigned long mas_allocated(const struct ma_state *mas)
{
	if (!mas->alloc || mas_has_request(mas))
		return 0;
	return mas->alloc->total;
}

static inline void mas_set_request(struct ma_state *mas, unsigned long count)
{
	if (mas_allocated(mas))
		return;
	mas->alloc = (struct maple_alloc *)((count << 1) | 1UL);
}

static inline unsigned long mas_request(const struct ma_state *mas)
{
	if (mas_has_request(mas))
		return (unsigned long)mas->alloc >> 1;
	return 0;
}

/*
 * Add a free node to the pool: its first words (struct maple_alloc) link
 * the pool, the rest is not used while it waits there.  Nodes are not
 * zeroed: a write fills all of a new node (see mt_alloc_one()).
 */
static void mas_push_node(struct ma_state *mas, struct maple_node *node)
{
	struct maple_alloc *head = (struct maple_alloc *)node;
	unsigned long total = mas_allocated(mas);

	head->slot[0] = total ? mas->alloc : NULL;
	head->total = total + 1;
	head->request_count = total ? mas->alloc->request_count : 0;
	mas->alloc = head;
}

static struct maple_node *mas_pop_node(struct ma_state *mas)
{
	struct maple_alloc *head = mas->alloc;
	struct maple_alloc *next;
	unsigned long total = mas_allocated(mas);

	if (WARN_ON(!total))
		return NULL;
	next = head->slot[0];
	if (next) {
		next->total = total - 1;
		next->request_count = head->request_count;
	}
	mas->alloc = next;
	head->total = 0;
	head->node_count = 0;
	head->request_count = 0;
	head->slot[0] = NULL;
	return (struct maple_node *)head;
}

/* Make sure @mas holds at least @count nodes; -ENOMEM if it cannot. */
static int mas_alloc_nodes(struct ma_state *mas, unsigned long count,
			   gfp_t gfp)
{
	if (mas_has_request(mas))
		mas->alloc = NULL;
	while (mas_allocated(mas) < count) {
		struct maple_node *node = mt_alloc_one(gfp);

		if (!node) {
			if (mas_allocated(mas))
				mas->alloc->request_count = count;
			else
				mas_set_request(mas, count);
			return -ENOMEM;
		}
		mas_push_node(mas, node);
	}
	return 0;
}

/**
 * mas_destroy() - Free the nodes a maple state holds for a write.
 * @mas: Maple Tree operation state.
 *
 * Call after mas_preallocate() or mas_expected_entries() once the writes
 * are done; nodes the writes did not use are freed.
 */
void mas_destroy(struct ma_state *mas)
{
	mas->mas_flags &= MA_STATE_PREALLOC;
	if (mas_has_request(mas)) {
		mas->alloc = NULL;
		return;
	}
	while (mas_allocated(mas))
		mt_free_one(mas_pop_node(mas));
	mas->alloc = NULL;
}
EXPORT_SYMBOL_GPL(mas_destroy);

/*
 * Where a walk stands, in either kernel's interface (see MT_API_612 in
 * <linux/maple_tree.h>): 6.1 keeps it in mas->node, a node or a MAS_*
 * sentinel; 6.12 in mas->status, with mas->node meaningful only while the
 * status is ma_active (callers set the status alone).  Everything below
 * asks and sets it through these helpers.
 */
#if MT_API_612
static inline void mas_set_status(struct ma_state *mas,
				  enum maple_status status)
{
	mas->status = status;
	mas->node = NULL;
}

#define mas_set_start(mas)	mas_set_status(mas, ma_start)
#define mas_set_none(mas)	mas_set_status(mas, ma_none)
#define mas_set_ptr(mas)	mas_set_status(mas, ma_root)
#define mas_set_paused(mas)	mas_set_status(mas, ma_pause)

static inline void mas_set_node(struct ma_state *mas, struct maple_enode *enode)
{
	mas->status = ma_active;
	mas->node = enode;
}

static inline void mas_set_err(struct ma_state *mas, long err)
{
	mas->status = ma_error;
	mas->node = MA_ERROR(err);
}

static inline bool mas_is_start(const struct ma_state *mas)
{
	return mas->status == ma_start;
}

static inline bool mas_is_ptr(const struct ma_state *mas)
{
	return mas->status == ma_root;
}

static inline bool mas_is_overflow(const struct ma_state *mas)
{
	return mas->status == ma_overflow;
}

static inline bool mas_is_underflow(const struct ma_state *mas)
{
	return mas->status == ma_underflow;
}

/*
 * A search that starts on a range at (or past) its limit, @at_limit: in
 * 6.12 it ends there in @status, ma_overflow or ma_underflow.
 */
static inline bool mas_find_at_limit(struct ma_state *mas, bool at_limit,
				     enum maple_status status)
{
	if (!at_limit)
		return false;
	mas_set_status(mas, status);
	return true;
}
#else
static inline void mas_set_node(struct ma_state *mas, struct maple_enode *enode)
{
	mas->node = enode;
}

#define mas_set_start(mas)	mas_set_node(mas, MAS_START)
#define mas_set_none(mas)	mas_set_node(mas, MAS_NONE)
#define mas_set_ptr(mas)	mas_set_node(mas, MAS_ROOT)
#define mas_set_paused(mas)	mas_set_node(mas, MAS_PAUSE)

static inline void mas_set_err(struct ma_state *mas, long err)
{
	mas->node = MA_ERROR(err);
}

/**
 * mas_is_err() - Did the last operation on @mas fail?
 * @mas: Maple Tree operation state.
 *
 * Return: true if @mas holds an error (read it with xa_err(mas->node)).
 */
bool mas_is_err(struct ma_state *mas)
{
	return xa_is_err(mas->node);
}
EXPORT_SYMBOL_GPL(mas_is_err);

static inline bool mas_is_start(const struct ma_state *mas)
{
	return mas->node == MAS_START;
}

static inline bool mas_is_ptr(const struct ma_state *mas)
{
	return mas->node == MAS_ROOT;
}

/* 6.1's iterations end in MAS_NONE or on the last range instead. */
#define mas_is_overflow(mas)	false
#define mas_is_underflow(mas)	false
#define mas_find_at_limit(mas, at_limit, status)	false

/* Is mas->node a real node (as opposed to a MAS_* state or an error)? */
static inline bool mas_is_active(const struct ma_state *mas)
{
	return (unsigned long)mas->node > MAPLE_RESERVED_RANGE &&
		!xa_is_internal(mas->node);
}
#endif

/* Did the last write fail for lack of memory? */
static inline bool mas_is_nomem(struct ma_state *mas)
{
	return mas_is_err(mas) && mas->node == MA_ERROR(-ENOMEM);
}

/**
 * mas_nomem() - Allocate the nodes a failed write asked for.
 * @mas: Maple Tree operation state.
 * @gfp: Allocation flags.
 *
 * Call after a write that may have failed with -ENOMEM while holding the
 * tree lock.  If @gfp allows blocking, the tree's own lock is dropped
 * around the allocation.
 *
 * Return: true if the write failed for lack of memory and the nodes it
 * needs are now allocated, so the caller should retry; false otherwise
 * (the error, if any, stays in @mas).
 */
bool mas_nomem(struct ma_state *mas, gfp_t gfp)
{
	unsigned long count;
	int ret;

	if (likely(!mas_is_nomem(mas))) {
		mas_destroy(mas);
		return false;
	}

	if (mas_has_request(mas))
		count = mas_request(mas);
	else if (mas_allocated(mas))
		count = max_t(unsigned long, mas->alloc->request_count,
			      mas_allocated(mas) + 1);
	else
		count = 1;
	if (gfpflags_allow_blocking(gfp) && !mt_external_lock(mas->tree)) {
		mtree_unlock(mas->tree);
		ret = mas_alloc_nodes(mas, count, gfp);
		mtree_lock(mas->tree);
	} else {
		ret = mas_alloc_nodes(mas, count, gfp);
	}
	if (ret)
		return false;
	mas_set_start(mas);
	return true;
}
EXPORT_SYMBOL_GPL(mas_nomem);

/**
 * maple_tree_init() - Set up the node cache.  Called once at boot.
 */
void __init maple_tree_init(void)
{
	/*
	 * Every mm_struct and every other tree pays for struct maple_tree,
	 * every walker for struct ma_state: Linux's sizes (the lock as the
	 * build makes it; a state of eight words, as in Linux 6.1).
	 */
	BUILD_BUG_ON(sizeof(struct maple_tree) >
		     ALIGN(sizeof(spinlock_t), sizeof(void *)) +
		     2 * sizeof(void *));
	BUILD_BUG_ON(sizeof(struct ma_state) >
		     (MT_API_612 ? 9 : 8) * sizeof(unsigned long));
	/*
	 * mas_on_leaf() tells a leaf by its low byte alone: the MAS_* states
	 * set bit 0 there and MA_ERROR() bit 1, a leaf neither.
	 */
	BUILD_BUG_ON(((unsigned long)maple_leaf_64 << MAPLE_ENODE_TYPE_SHIFT) &
		     3UL);

	if (maple_node_cache)
		return;
	maple_node_cache = kmem_cache_create("maple_node",
					     sizeof(struct maple_node),
					     sizeof(struct maple_node),
					     SLAB_PANIC, NULL);
}

/* ------------------------------------------------------------------------
 * Walking
 */

/*
 * A leaf's entry, read by an RCU reader after the pivots that gave its
 * slot and bounds: the smp_rmb() pairs with the smp_wmb() of a vacate
 * between two NULLs (mas_wr_empty_store()), which stores the NULL before
 * it moves the slot's pivot over indices the entry never held.
 */
static __always_inline void *ma_leaf_read_entry(struct maple_tree *mt,
						void __rcu **slot)
{
	/* Pairs with the smp_wmb() in mas_wr_empty_store(). */
	smp_rmb();
	return mt_slot(mt, slot, 0);
}

/* What one level of a reader's walk read: see ma_read_slot(). */
struct ma_slot_read {
	unsigned long lo;		/* the pivot before the slot */
	unsigned long hi;		/* the slot's pivot */
	void *next;			/* the slot: a child or the entry */
};

/*
 * One level of a reader's walk: the pivot of @node's slot holding @index,
 * and the words around it, all read before the node is checked to be
 * live.  At the node's edges these words are the parent word and slot[0],
 * which writers change: READ_ONCE().  @once: see ma_find_pivot(); a leaf
 * under RCU also has its entry read after its bounds (ma_leaf_read_entry()).
 */
static inline unsigned long *
ma_read_slot(struct maple_tree *mt, struct maple_node *node,
	     unsigned char npiv, unsigned long index, bool once,
	     struct ma_slot_read *r)
{
	unsigned long *p = ma_find_pivot(node, npiv, index, once);

	r->lo = READ_ONCE(p[-1]);
	r->hi = READ_ONCE(p[0]);
	if (once)
		r->next = ma_leaf_read_entry(mt, (void __rcu **)(p + npiv));
	else
		r->next = mt_slot(mt, (void __rcu **)(p + npiv), 0);
	return p;
}

/*
 * After the entry of a leaf's slot and the dead-node check (whose smp_rmb()
 * orders the entry before these loads): whether the slot's bounds, the
 * words @p[-1] and @p[0], still hold @lo and @hi, read before the entry.
 * A fill inside a NULL moves two pivots, then stores the entry
 * (mas_wr_empty_store()): a reader that saw the entry sees the moves here
 * and walks again.  At the node's edges the words are the parent word and
 * slot[0]; a change there only costs a walk.
 */
static __always_inline bool ma_leaf_bounds_still(const unsigned long *p,
						 unsigned long lo,
						 unsigned long hi)
{
	return READ_ONCE(p[-1]) == lo && READ_ONCE(p[0]) == hi;
}

/*
 * Descend from @root to the leaf holding mas->index, keeping the bounds of
 * each slot taken (read before the node is checked to be live).  @alloc
 * selects the internal node layout, as for mt_lookup().  Returns false if
 * the walk met a dead node.
 *
 * Always inlined: without, mas_walk 27%, mmap_cycle 3.6% more instructions
 * (callgrind).
 */
static __always_inline bool mas_walk_bounds(struct ma_state *mas, void *root,
					    bool alloc, bool rcu, void **found)
{
	struct maple_tree *mt = mas->tree;
	struct maple_enode *enode = mte_safe_root(root);
	unsigned long index = mas->index;
	/* One below the minimum, so that a level needs no addition. */
	unsigned long below = ULONG_MAX, max = ULONG_MAX, lo, hi;
	struct ma_slot_read r;
	const unsigned char npiv = alloc ? MAPLE_ARANGE64_SLOTS - 1 :
					   MAPLE_RANGE64_SLOTS - 1;
	const unsigned char leaf_npiv = MAPLE_RANGE64_SLOTS - 1;
	unsigned long *pivots, *p;
	struct maple_node *node;

	/* The type is in the pointer: internal levels, then the leaf. */
	while (!mte_is_leaf(enode)) {
		node = mte_to_node(enode);
		pivots = (unsigned long *)node + 1;
		p = ma_read_slot(mt, node, npiv, index, false, &r);
		if (rcu && unlikely(ma_dead_node(node)))
			return false;
		below = p != pivots ? r.lo : below;
		max = p != pivots + npiv ? r.hi : max;
		enode = r.next;
	}
	node = mte_to_node(enode);
	pivots = (unsigned long *)node + 1;
	p = ma_read_slot(mt, node, leaf_npiv, index, rcu, &r);
	if (rcu && unlikely(ma_dead_node(node) ||
			    !ma_leaf_bounds_still(p, r.lo, r.hi)))
		return false;
	lo = p != pivots ? r.lo : below;
	hi = p != pivots + leaf_npiv ? r.hi : max;
	/*
	 * A boundary moved in place since the search.  A pivot before the
	 * slot of ULONG_MAX is the end of a rightmost leaf that shrank under
	 * the search (the slot is past it), not the index before 0.
	 */
	if (rcu && unlikely(index > hi || lo + 1 > index ||
			    (p != pivots && lo == ULONG_MAX)))
		return false;
	mas_set_node(mas, enode);
	mas->offset = p - pivots;
	mas->min = below + 1;
	mas->max = max;
	mas->index = lo + 1;
	mas->last = hi;
	*found = r.next;
	return true;
}

/*
 * Descend from the root to the leaf that holds mas->index.  On return
 * mas->node is the leaf (or MAS_ROOT / MAS_NONE for trees without nodes),
 * mas->min/max its bounds, mas->offset the slot, mas->index/last the bounds
 * of the range found.  Restarts if it lands on a dead node.
 */
static void *mas_leaf_walk(struct ma_state *mas)
{
	struct maple_tree *mt = mas->tree;
	void *root, *entry;
	unsigned int kind;
	bool walked;

retry:
	root = mt_root_check(mt);
	if (unlikely(!xa_is_node(root))) {
		if (!root) {
			mas_set_none(mas);
			mas->index = 0;
			mas->last = ULONG_MAX;
			mas->offset = 0;
			return NULL;
		}
		mas_set_ptr(mas);
		mas->min = 0;
		mas->max = ULONG_MAX;
		if (mas->index == 0) {
			mas->last = 0;
			mas->offset = 0;
			return root;
		}
		/* 6.12 tells a miss beside the root entry by ma_none. */
		if (MT_API_612)
			mas_set_none(mas);
		mas->index = 1;
		mas->last = ULONG_MAX;
		mas->offset = 1;
		return NULL;
	}

	kind = mt_reader_kind(mt);
	if (likely(!kind))
		walked = mas_walk_bounds(mas, root, false, false, &entry);
	else if (kind == MT_FLAGS_ALLOC_RANGE)
		walked = mas_walk_bounds(mas, root, true, false, &entry);
	else if (kind == MT_FLAGS_USE_RCU)
		walked = mas_walk_bounds(mas, root, false, true, &entry);
	else
		walked = mas_walk_bounds(mas, root, true, true, &entry);
	if (unlikely(!walked))
		goto retry;
	return entry;
}

/*
 * The steps of an iteration: to the range after the one the state is on,
 * or the one before it, with the bounds they have when the step reads
 * them (see "RCU readers" in Documentation/core-api/maple_tree.rst).
 *
 * In a leaf that is still live that is the next (previous) slot
 * (mas_leaf_forward(), mas_leaf_backward()): slots never move in a live
 * leaf, only a boundary between two of them may (one pivot store, see
 * mt_seam_move()), so both bounds are read afresh rather than taken from
 * the state.  At a leaf's edge, or once the leaf is dead, the step walks
 * from the root to the range that holds mas->last + 1 (mas->index - 1)
 * now (mas_step_next(), mas_step_prev()), reported with its real bounds:
 * never clipped to start after the state's range, which would make up a
 * range that was never stored.  If that range still holds the entry the
 * state was on (the entry grew), a search for entries goes past it: the
 * caller has it already.  A replaced leaf stays intact until a grace
 * period has passed, so its slot can be read to know that entry.  The
 * range iterators take the range as it is, so that every call moves on.
 */

/* The entry the state was on, if its leaf is dead; else NULL. */
static inline void *mas_dead_entry(struct ma_state *mas)
{
	struct maple_node *node;
	void *entry;

	if (!mas_is_active(mas))
		return NULL;
	node = mte_to_node(mas->node);
	entry = mt_slot(mas->tree, ma_slots(node, mte_node_type(mas->node)),
			mas->offset);
	return ma_dead_node(node) ? entry : NULL;
}

/*
 * Walk to the range after mas->last (< ULONG_MAX).  Only searches for
 * entries (not @any) go past the entry the state was on: the range
 * iterators take the range that holds mas->last + 1 whatever it holds.
 */
static void *mas_step_next(struct ma_state *mas, bool any)
{
	unsigned long prev = mas->last;
	void *entry, *was = any ? NULL : mas_dead_entry(mas);

	mas->index = prev + 1;
	entry = mas_leaf_walk(mas);
	if (unlikely(mas->index <= prev) && entry && entry == was &&
	    mas->last != ULONG_MAX) {
		mas->index = mas->last + 1;
		entry = mas_leaf_walk(mas);
	}
	return entry;
}

/* Walk to the range before mas->index (> 0); @any as for mas_step_next(). */
static void *mas_step_prev(struct ma_state *mas, bool any)
{
	unsigned long prev = mas->index;
	void *entry, *was = any ? NULL : mas_dead_entry(mas);

	mas->index = prev - 1;
	entry = mas_leaf_walk(mas);
	if (unlikely(mas->last >= prev) && entry && entry == was &&
	    mas->index) {
		mas->index--;
		entry = mas_leaf_walk(mas);
	}
	return entry;
}

/*
 * Out of a leaf at its edge through the parents, to the neighbour leaf,
 * rather than by a walk from the root: the parent is in the cache and the
 * step reads one slot of it, no search.  A parent's words count if,
 * after they were read, the parent is live and still the child's parent
 * (see mt_wr_kept_children() for why that is enough); every other node
 * is checked to be live after the words taken from it were read, and each
 * bound must continue the one before it, so a step that meets a change
 * gives up, and the caller walks from the root.  A bound that is a node's
 * own limit (the neighbour is the last child of a full node going forward,
 * or the first child of a node going back) is read from the first node
 * above that keeps it.
 */

/*
 * The parent word of @node, read after what was read of @node; 0 for the
 * root, a dead node, or a kept child whose new parent is being published.
 */
static inline unsigned long
ma_parent_word(const struct maple_node *node)
{
	unsigned long pword;

	/* After the node's words, as in ma_dead_node(). */
	smp_rmb();
	/* Before the parent's words: see mt_wr_kept_children(). */
	pword = (unsigned long)smp_load_acquire(&node->parent);

	if ((pword & MAPLE_PARENT_ROOT) ||
	    (pword & ~MAPLE_NODE_MASK) == (unsigned long)node)
		return 0;
	return pword & ~MAPLE_NODE_MASK ? pword : 0;
}

static inline struct maple_node *ma_pword_node(unsigned long pword)
{
	return (struct maple_node *)(pword & ~MAPLE_NODE_MASK);
}

static inline unsigned char ma_pword_slot(unsigned long pword)
{
	return (pword >> MAPLE_PARENT_SLOT_SHIFT) & MAPLE_PARENT_SLOT_MASK;
}

/*
 * After the words of @parent, reached by @node's parent word @pword, were
 * read: @parent is live and still @node's parent, so they were read
 * before any publication that replaced it (see mt_wr_kept_children()).
 */
static inline bool ma_parent_still(const struct maple_node *node,
				   const struct maple_node *parent,
				   unsigned long pword)
{
	return !ma_dead_node(parent) &&
	       (unsigned long)READ_ONCE(node->parent) == pword;
}

/*
 * The lowest (@max: highest) index under the live node @node, from the
 * first node above it that keeps it as a pivot: false if a change got in
 * the way.
 */
static bool ma_node_bound(const struct maple_node *node,
			  enum maple_type ptype, bool max, unsigned long *bound)
{
	const struct maple_node *parent;
	unsigned long pword;
	unsigned char off;

	for (;;) {
		/* After the node's words, as in ma_dead_node(). */
		smp_rmb();
		/* Before the parent's words: see mt_wr_kept_children(). */
		pword = (unsigned long)smp_load_acquire(&node->parent);
		if (pword & MAPLE_PARENT_ROOT) {
			*bound = max ? ULONG_MAX : 0;
			return true;
		}
		parent = ma_pword_node(pword);
		if (!parent || parent == node)
			return false;
		off = ma_pword_slot(pword);
		if (max ? off < mt_pivots[ptype] : off) {
			*bound = ma_pivots((struct maple_node *)parent,
					   ptype)[max ? off : off - 1] + !max;
			return ma_parent_still(node, parent, pword);
		}
		if (!ma_parent_still(node, parent, pword))
			return false;
		node = parent;
	}
}

/*
 * From the last range of the live leaf mas->node to the first range of
 * the next leaf: the state is put on it and its entry left in *@found.
 */
static inline bool mas_next_leaf(struct ma_state *mas, void **found)
{
	struct maple_tree *mt = mas->tree;
	enum maple_type ptype = mt_internal_type(mt);
	unsigned char npiv = mt_pivots[ptype], off;
	struct maple_node *node = mte_to_node(mas->node), *parent;
	unsigned long max = mas->max, hi = 0, last, pword, *pivots;
	struct maple_enode *next;
	void __rcu **slots;
	void *entry;

	/* Up to the first node that has a child after ours. */
	for (;;) {
		pword = ma_parent_word(node);
		if (!pword)
			return false;
		parent = ma_pword_node(pword);
		off = ma_pword_slot(pword);
		pivots = ma_pivots(parent, ptype);
		slots = ma_slots(parent, ptype);
		if (off < npiv && pivots[off] != max)
			return false;
		if (off + 1 < npiv) {
			hi = pivots[off + 1];
			if (hi > max)
				break;
			if (hi < max)
				return false;
		} else if (off + 1 == npiv && mt_slot_used(slots, npiv)) {
			/* The last child of a full node ends where it does. */
			if (!ma_node_bound(parent, ptype, true, &hi) ||
			    hi <= max)
				return false;
			break;
		}
		if (!ma_parent_still(node, parent, pword))
			return false;
		node = parent;
	}
	next = mt_slot(mt, slots, off + 1);
	if (unlikely(!next) || !ma_parent_still(node, parent, pword))
		return false;

	/* Down the first children to the leaf. */
	while (!mte_is_leaf(next)) {
		node = mte_to_node(next);
		last = ma_pivots(node, ptype)[0];
		next = mt_slot(mt, ma_slots(node, ptype), 0);
		if (unlikely(last <= max || last > hi || !next) ||
		    ma_dead_node(node))
			return false;
		hi = last;
	}
	node = mte_to_node(next);
	pivots = ma_pivots(node, maple_leaf_64);
	last = __ma_pivot_max(pivots, maple_leaf_64, 0, hi, true);
	entry = ma_leaf_read_entry(mt, ma_slots(node, maple_leaf_64));
	if (unlikely(last <= max || last > hi) || ma_dead_node(node) ||
	    __ma_pivot_max(pivots, maple_leaf_64, 0, hi, true) != last)
		return false;
	mas_set_node(mas, next);
	mas->min = max + 1;
	mas->max = hi;
	mas->offset = 0;
	mas->index = max + 1;
	mas->last = last;
	*found = entry;
	return true;
}

/* The mirror of mas_next_leaf(): to the last range of the previous leaf. */
static inline bool mas_prev_leaf(struct ma_state *mas,
				 void **found)
{
	struct maple_tree *mt = mas->tree;
	enum maple_type ptype = mt_internal_type(mt);
	struct maple_node *node = mte_to_node(mas->node), *parent;
	unsigned long min = mas->min, lo, first, pword, *pivots;
	struct maple_enode *next;
	void __rcu **slots;
	unsigned char off;
	void *entry;

	/* Up to the first node that has a child before ours. */
	for (;;) {
		pword = ma_parent_word(node);
		if (!pword)
			return false;
		parent = ma_pword_node(pword);
		off = ma_pword_slot(pword);
		if (off)
			break;
		if (!ma_parent_still(node, parent, pword))
			return false;
		node = parent;
	}
	pivots = ma_pivots(parent, ptype);
	slots = ma_slots(parent, ptype);
	if (pivots[off - 1] != min - 1)
		return false;
	/* The first child of a node starts where it does. */
	if (off > 1)
		lo = pivots[off - 2] + 1;
	else if (!ma_node_bound(parent, ptype, false, &lo))
		return false;
	next = mt_slot(mt, slots, off - 1);
	if (unlikely(!next || lo >= min) ||
	    !ma_parent_still(node, parent, pword))
		return false;

	/* Down the last children to the leaf. */
	while (!mte_is_leaf(next)) {
		node = mte_to_node(next);
		pivots = ma_pivots(node, ptype);
		off = __ma_offset(pivots, ptype, min - 1, false);
		first = off ? pivots[off - 1] + 1 : lo;
		next = mt_slot(mt, ma_slots(node, ptype), off);
		if (unlikely(first < lo || first >= min || !next) ||
		    ma_dead_node(node))
			return false;
		lo = first;
	}
	node = mte_to_node(next);
	pivots = ma_pivots(node, maple_leaf_64);
	off = __ma_offset(pivots, maple_leaf_64, min - 1, true);
	first = off ? READ_ONCE(pivots[off - 1]) + 1 : lo;
	entry = ma_leaf_read_entry(mt, ma_slots(node, maple_leaf_64) + off);
	if (unlikely(first < lo || first >= min) || ma_dead_node(node) ||
	    __ma_pivot_min(pivots, off, lo, true) != first ||
	    __ma_pivot_max(pivots, maple_leaf_64, off, min - 1, true) <
	    min - 1)
		return false;
	mas_set_node(mas, next);
	mas->min = lo;
	mas->max = min - 1;
	mas->offset = off;
	mas->index = first;
	mas->last = min - 1;
	*found = entry;
	return true;
}

/*
 * Every state but a node or the root entry (MAS_NONE, MAS_PAUSE, an error)
 * resumes as a walk from the root at mas->index.
 */
static inline void mas_resume(struct ma_state *mas)
{
	if (!mas_is_active(mas) && !mas_is_ptr(mas))
		mas_set_start(mas);
}

/* ------------------------------------------------------------------------
 * Iteration
 *
 * The steps of mas_find(), mas_next(), mas_prev() and their kin: inside a
 * live leaf without leaving it, out of it through the parents.
 */

/* What an iteration's run through one leaf ended with. */
enum mas_leaf_run {
	MAS_RUN_FOUND,		/* a range to return: the state is on it */
	MAS_RUN_LIMIT,		/* the next range is past the limit */
	MAS_RUN_EDGE,		/* the state is on the leaf's last range */
	MAS_RUN_DEAD,		/* the leaf died or changed: walk from the root */
};

/*
 * The forward steps inside the live leaf mas->node, whose range at
 * mas->offset is not its last: node, offset and arrays stay in registers,
 * and the state is written only for a range taken.  A range is returned
 * (in *@found) if it ends after @done and is non-NULL or @any.
 *
 * If the range the state is on grew (its end moved up in place since it
 * was read), the range that holds mas->last + 1 is that range itself: the
 * range iterators (@any) take it again, as it is now, so that each call
 * moves on; the others go past it, its entry is the caller's already.
 */
static inline enum mas_leaf_run
mas_leaf_forward(struct ma_state *mas, unsigned long max, bool any,
		 unsigned long done, void **found)
{
	struct maple_node *node = mte_to_node(mas->node);
	/* Every leaf is one: the layout is constant, not read from a table. */
	const enum maple_type type = maple_leaf_64;
	unsigned long *pivots = ma_pivots(node, type);
	void __rcu **slots = ma_slots(node, type);
	unsigned long first, hi, nmax = mas->max, seen = mas->last;
	unsigned char offset = mas->offset;
	bool grown;
	void *entry;

	for (;;) {
		/* Slot offset ends below nmax, so it has a pivot. */
		hi = READ_ONCE(pivots[offset]);
		/*
		 * The slot reaches past what was seen: it grew, or it was
		 * emptied and filled again higher up.  Then the ranges
		 * between what was seen and the slot are in slots before it:
		 * walk.
		 */
		if (unlikely(hi > seen) &&
		    __ma_pivot_min(pivots, offset, mas->min, true) > seen + 1)
			return MAS_RUN_DEAD;
		grown = any && unlikely(hi > seen);
		if (grown) {
			first = __ma_pivot_min(pivots, offset, mas->min, true);
		} else {
			first = hi + 1;
			offset++;
			hi = __ma_pivot_max(pivots, type, offset, nmax, true);
		}
		entry = ma_leaf_read_entry(mas->tree, slots + offset);
		if (unlikely(ma_dead_node(node) ||
			     __ma_pivot_min(pivots, offset, mas->min, true) !=
			     first ||
			     __ma_pivot_max(pivots, type, offset, nmax, true) !=
			     hi))
			return MAS_RUN_DEAD;
		/*
		 * An empty slot: nothing to take, on to the next, unless it is
		 * the state's own, vacated since it was read (the range that
		 * holds mas->last + 1 is then behind it: walk).  Its pivot is
		 * the end seen so far, so that a fill of it since reads as a
		 * range that grew.  A first index that wrapped to 0 follows a
		 * pivot of ULONG_MAX: the slot is past the end of a rightmost
		 * leaf that shrank since the state's range was read: walk.
		 */
		if (unlikely(first > hi || (!first && offset))) {
			if (grown || !first ||
			    offset == MAPLE_RANGE64_SLOTS - 1)
				return MAS_RUN_DEAD;
			seen = hi;
			continue;
		}
		if (first > max)
			return MAS_RUN_LIMIT;
		seen = hi;
		mas->offset = offset;
		mas->index = first;
		mas->last = hi;
		if (likely(hi > done) && (entry || any)) {
			*found = entry;
			return MAS_RUN_FOUND;
		}
		if (hi == nmax)
			return MAS_RUN_EDGE;
		if (hi >= max)
			return MAS_RUN_LIMIT;
	}
}

/* The mirror of mas_leaf_forward(): ranges that start before @done. */
static inline enum mas_leaf_run
mas_leaf_backward(struct ma_state *mas, unsigned long min, bool any,
		  unsigned long done, void **found)
{
	struct maple_node *node = mte_to_node(mas->node);
	const enum maple_type type = maple_leaf_64;
	unsigned long *pivots = ma_pivots(node, type);
	void __rcu **slots = ma_slots(node, type);
	unsigned long lo, hi, nmin = mas->min, seen = mas->index;
	unsigned char offset = mas->offset;
	bool grown;
	void *entry;

	for (;;) {
		/* Slot offset starts above nmin, so slot offset - 1 has a pivot. */
		hi = READ_ONCE(pivots[offset - 1]);
		/* The mirror of mas_leaf_forward()'s: filled again lower down. */
		if (unlikely(hi + 1 < seen) &&
		    __ma_pivot_max(pivots, type, offset, mas->max, true) <
		    seen - 1)
			return MAS_RUN_DEAD;
		grown = any && unlikely(hi + 1 < seen);
		if (grown) {
			lo = hi + 1;
			hi = __ma_pivot_max(pivots, type, offset, mas->max,
					    true);
		} else {
			offset--;
			lo = __ma_pivot_min(pivots, offset, nmin, true);
		}
		entry = ma_leaf_read_entry(mas->tree, slots + offset);
		if (unlikely(ma_dead_node(node) ||
			     __ma_pivot_min(pivots, offset, nmin, true) != lo ||
			     __ma_pivot_max(pivots, type, offset, mas->max,
					    true) != hi))
			return MAS_RUN_DEAD;
		/* Empty, or past a shrunk end: see mas_leaf_forward(). */
		if (unlikely(lo > hi || (!lo && offset))) {
			if (grown || !offset || !lo)
				return MAS_RUN_DEAD;
			seen = lo;
			continue;
		}
		if (hi < min)
			return MAS_RUN_LIMIT;
		seen = lo;
		mas->offset = offset;
		mas->index = lo;
		mas->last = hi;
		if (likely(lo < done) && (entry || any)) {
			*found = entry;
			return MAS_RUN_FOUND;
		}
		if (lo == nmin)
			return MAS_RUN_EDGE;
		if (lo <= min)
			return MAS_RUN_LIMIT;
	}
}

/*
 * The step of mas_forward() that walks from the root (mas_step_next()):
 * false, with the state as it was, if the range it finds starts past
 * @max.
 */
static bool mas_forward_walk(struct ma_state *mas, unsigned long max,
			     bool any, void **found)
{
	struct ma_state save = *mas;

	*found = mas_step_next(mas, any);
	if (mas->index > max) {
		*mas = save;
		return false;
	}
	return true;
}

/* The mirror of mas_forward_walk(): false if the range ends below @min. */
static bool mas_backward_walk(struct ma_state *mas, unsigned long min,
			      bool any, void **found)
{
	struct ma_state save = *mas;

	*found = mas_step_prev(mas, any);
	if (mas->last < min) {
		*mas = save;
		return false;
	}
	return true;
}

/*
 * How a forward iteration that found nothing up to @max ends; the state is
 * on the last range it looked at, which started at or before @max.
 *
 * 6.1: at the end of the index space the state is MAS_NONE.  A search
 * (@pause) stopped by @max on a range that reaches past it is paused at
 * @max, so that a later search with a higher limit returns the rest of
 * that range.
 *
 * 6.12: mas_next() and mas_next_range() end in ma_overflow, from which a
 * call with a higher limit goes on (a tree without nodes: ma_none); the
 * searches stay where they are, active.
 */
static void mas_forward_none(struct ma_state *mas,
			     unsigned long __maybe_unused max, bool pause,
			     unsigned long __maybe_unused from)
{
#if MT_API_612
	if (pause)
		return;
	if (mas_is_active(mas))
		mas_set_status(mas, ma_overflow);
	else
		mas_set_none(mas);
#else
	if (mas->last == ULONG_MAX) {
		mas_set_none(mas);
	} else if (pause && mas->index == from && mas->last > max &&
		   (mas_is_active(mas) || mas_is_ptr(mas))) {
		mas->last = max;
		mas_set_paused(mas);
	}
#endif
}

/*
 * How a backward iteration that found nothing down to @min ends; the
 * state is on the last range it looked at.
 *
 * 6.1: at index 0 the state is MAS_NONE, and mas_prev() and
 * mas_find_rev() (not @any) leave [0, 0].
 *
 * 6.12: ma_underflow, from which a call with a lower limit goes on; but a
 * search (@search: mas_find_rev() and mas_find_range_rev()) that began on
 * the root entry ends in ma_none, as does anything on a tree that has no
 * entry.
 */
static void mas_backward_none(struct ma_state *mas, bool __maybe_unused any,
			      bool __maybe_unused search)
{
#if MT_API_612
	if (mas_is_active(mas) || (mas_is_ptr(mas) && !search))
		mas_set_status(mas, ma_underflow);
	else
		mas_set_none(mas);
#else
	if (mas->index == 0) {
		mas_set_none(mas);
		if (!any)
			mas->last = 0;
	}
#endif
}

/*
 * Move forward from the current range to the next one that starts at or
 * before @max; with @any, a NULL range counts too.  Leaves the state on the
 * current range and returns NULL when there is none.  Ranges that end at
 * or before the state's (a change moved them behind it) are passed over.
 *
 * @pause marks the searches (mas_find() and mas_find_range()); see
 * mas_forward_none() for how each interface ends one.
 */
static void *mas_forward(struct ma_state *mas, unsigned long max,
			 bool any, bool pause)
{
	unsigned long done = mas->last, from = mas->index;
	void *entry;

	for (;;) {
		/* ULONG_MAX is at or past any @max. */
		if (mas->last >= max)
			goto none;
		if (unlikely(!mas_is_active(mas)))
			goto walk;
		if (mas->last < mas->max) {
			switch (mas_leaf_forward(mas, max, any, done, &entry)) {
			case MAS_RUN_FOUND:
				return entry;
			case MAS_RUN_LIMIT:
				goto none;
			case MAS_RUN_EDGE:
				continue;
			case MAS_RUN_DEAD:
				goto walk;
			}
		}
		if (mas_next_leaf(mas, &entry)) {
			if (mas->last > done && (entry || any))
				return entry;
			continue;
		}
walk:
		if (!mas_forward_walk(mas, max, any, &entry))
			goto none;
		if (unlikely(mas->last <= done))
			continue;
		if (entry || any)
			return entry;
	}
none:
	mas_forward_none(mas, max, pause, from);
	return NULL;
}

/* The mirror of mas_forward(): ranges that end at or after @min. */
static void *mas_backward(struct ma_state *mas, unsigned long min,
			  bool any, bool search)
{
	unsigned long done = mas->index;
	void *entry;

	for (;;) {
		/* 0 is at or below any @min. */
		if (mas->index <= min)
			goto none;
		if (unlikely(!mas_is_active(mas)))
			goto walk;
		if (mas->index > mas->min) {
			switch (mas_leaf_backward(mas, min, any, done, &entry)) {
			case MAS_RUN_FOUND:
				return entry;
			case MAS_RUN_LIMIT:
				goto none;
			case MAS_RUN_EDGE:
				continue;
			case MAS_RUN_DEAD:
				goto walk;
			}
		}
		if (mas_prev_leaf(mas, &entry)) {
			if (mas->index < done && (entry || any))
				return entry;
			continue;
		}
walk:
		if (!mas_backward_walk(mas, min, any, &entry))
			goto none;
		if (unlikely(mas->index >= done))
			continue;
		if (entry || any)
			return entry;
	}
none:
	mas_backward_none(mas, any, search);
	return NULL;
}

static inline void *mas_find_common(struct ma_state *mas,
				    unsigned long max, bool any)
{
	void *entry;

	if (unlikely(!mas_is_active(mas))) {
		/* 6.12: past the limit already, or on from where it stopped. */
		if (mas_is_overflow(mas) && mas->last >= max)
			return NULL;
		if (mas_is_paused(mas) || mas_is_overflow(mas)) {
			if (mas->last == ULONG_MAX) {
				mas_set_none(mas);
				return NULL;
			}
			mas->index = mas->last + 1;
			mas_set_start(mas);
		}
		mas_resume(mas);
		if (mas_is_start(mas)) {
			if (mas->index > max)
				return NULL;
			entry = mas_leaf_walk(mas);
			if (entry || any)
				return entry;
		}
	} else if (mas_find_at_limit(mas, mas->last >= max, ma_overflow)) {
		return NULL;
	}
	return mas_forward(mas, max, any, true);
}

/* ------------------------------------------------------------------------
 * Reading API
 *
 * Under rcu_read_lock() or the tree lock; see "RCU readers" in
 * Documentation/core-api/maple_tree.rst for what a reader may see.
 */

/**
 * mas_walk() - Look up the range that holds mas->index.
 * @mas: Maple Tree operation state.
 *
 * Sets mas->index and mas->last to the bounds of the range found, which
 * for a NULL entry is the whole empty range around the index.  The caller
 * holds rcu_read_lock() or the tree lock.
 *
 * Return: the entry at mas->index, or NULL.
 */
void *mas_walk(struct ma_state *mas)
{
	return mas_leaf_walk(mas);
}
EXPORT_SYMBOL_GPL(mas_walk);

/* mas_find(), out of line: see <linux/maple_tree.h>. */
void *__mas_find(struct ma_state *mas, unsigned long max)
{
	return mas_find_common(mas, max, false);
}
EXPORT_SYMBOL_GPL(__mas_find);

/* mas_find_range(), out of line: see <linux/maple_tree.h>. */
void *__mas_find_range(struct ma_state *mas, unsigned long max)
{
	return mas_find_common(mas, max, true);
}
EXPORT_SYMBOL_GPL(__mas_find_range);

static void *mas_find_rev_common(struct ma_state *mas,
				 unsigned long min, bool any)
{
	void *entry;

	if (unlikely(!mas_is_active(mas))) {
		/* 6.12: below the limit already, or on from where it stopped. */
		if ((mas_is_underflow(mas) || (MT_API_612 && mas_is_none(mas))) &&
		    mas->index <= min) {
			mas_set_none(mas);
			return NULL;
		}
		/* 6.12: a walk beside the root entry left ma_none. */
		if (mas_is_paused(mas) || mas_is_underflow(mas) ||
		    (MT_API_612 && mas_is_none(mas))) {
			if (mas->index == 0) {
				mas_set_none(mas);
				return NULL;
			}
			mas->index--;
			mas_set_start(mas);
		}
		mas_resume(mas);
		if (mas_is_start(mas)) {
			if (mas->index < min)
				return NULL;
			entry = mas_leaf_walk(mas);
			if (entry || any)
				return entry;
		}
	} else if (mas_find_at_limit(mas, mas->index <= min, ma_underflow)) {
		return NULL;
	}
	return mas_backward(mas, min, any, true);
}

/* mas_find_rev(), out of line: see <linux/maple_tree.h>. */
void *__mas_find_rev(struct ma_state *mas, unsigned long min)
{
	return mas_find_rev_common(mas, min, false);
}
EXPORT_SYMBOL_GPL(__mas_find_rev);

/* mas_find_range_rev(), out of line: see <linux/maple_tree.h>. */
void *__mas_find_range_rev(struct ma_state *mas, unsigned long min)
{
	return mas_find_rev_common(mas, min, true);
}
EXPORT_SYMBOL_GPL(__mas_find_range_rev);

static void *mas_next_common(struct ma_state *mas, unsigned long max, bool any)
{
	mas_resume(mas);
	if (mas_is_start(mas))
		mas_leaf_walk(mas);
	return mas_forward(mas, max, any, false);
}

/* mas_next(), out of line: see <linux/maple_tree.h>. */
void *__mas_next(struct ma_state *mas, unsigned long max)
{
	return mas_next_common(mas, max, false);
}
EXPORT_SYMBOL_GPL(__mas_next);

/* mas_next_range(), out of line: see <linux/maple_tree.h>. */
void *__mas_next_range(struct ma_state *mas, unsigned long max)
{
	return mas_next_common(mas, max, true);
}
EXPORT_SYMBOL_GPL(__mas_next_range);

static void *mas_prev_common(struct ma_state *mas, unsigned long min, bool any)
{
	mas_resume(mas);
	if (mas_is_start(mas))
		mas_leaf_walk(mas);
	return mas_backward(mas, min, any, false);
}

/* mas_prev(), out of line: see <linux/maple_tree.h>. */
void *__mas_prev(struct ma_state *mas, unsigned long min)
{
	return mas_prev_common(mas, min, false);
}
EXPORT_SYMBOL_GPL(__mas_prev);

/* mas_prev_range(), out of line: see <linux/maple_tree.h>. */
void *__mas_prev_range(struct ma_state *mas, unsigned long min)
{
	return mas_prev_common(mas, min, true);
}
EXPORT_SYMBOL_GPL(__mas_prev_range);

/**
 * mas_pause() - Let the caller drop the lock in the middle of an iteration.
 * @mas: Maple Tree operation state.
 *
 * The next mas_find() continues after the range last returned, and the
 * next mas_find_rev() before it, walking from the root.
 */
void mas_pause(struct ma_state *mas)
{
	mas_set_paused(mas);
}
EXPORT_SYMBOL_GPL(mas_pause);

/*
 * Descend from @root to the entry at @index, for readers that want no
 * bounds.  @alloc says which internal node type the tree uses, so that each
 * copy of this loop knows its node layout.  Returns false if the walk met a
 * dead node and must start again.
 *
 * Always inlined: without, mtree_load 29% more instructions (callgrind).
 */
static __always_inline bool mt_lookup(struct maple_tree *mt, void *root,
				      unsigned long index, bool alloc, bool rcu,
				      void **found)
{
	struct maple_enode *enode = mte_safe_root(root);
	const unsigned char npiv = alloc ? MAPLE_ARANGE64_SLOTS - 1 :
					   MAPLE_RANGE64_SLOTS - 1;
	struct maple_node *node;
	unsigned long *p, *pivots;
	void *entry;

	/* The type is in the pointer: internal levels, then the leaf. */
	while (!mte_is_leaf(enode)) {
		node = mte_to_node(enode);
		p = ma_find_pivot(node, npiv, index, false);
		entry = mt_slot(mt, (void __rcu **)(p + npiv), 0);
		if (rcu && unlikely(ma_dead_node(node)))
			return false;
		enode = entry;
	}
	node = mte_to_node(enode);
	pivots = (unsigned long *)node + 1;
	p = ma_find_pivot(node, MAPLE_RANGE64_SLOTS - 1, index, rcu);
	if (!rcu) {
		*found = mt_slot(mt, (void __rcu **)(p + MAPLE_RANGE64_SLOTS - 1),
				 0);
		return true;
	}
	entry = ma_leaf_read_entry(mt, (void __rcu **)(p +
						     MAPLE_RANGE64_SLOTS - 1));
	if (unlikely(ma_dead_node(node)))
		return false;
	/* The slot still holds @index: see ma_leaf_bounds_still(). */
	if (unlikely((p != pivots && READ_ONCE(p[-1]) >= index) ||
		     (p != pivots + MAPLE_RANGE64_SLOTS - 1 &&
		      READ_ONCE(p[0]) < index)))
		return false;
	*found = entry;
	return true;
}

/**
 * mtree_load() - Load the entry at @index.
 * @mt: Maple tree.
 * @index: The index.
 *
 * Takes rcu_read_lock() itself.
 *
 * Return: the entry, or NULL (also for an XA_ZERO_ENTRY).
 */
void *mtree_load(struct maple_tree *mt, unsigned long index)
{
	void *entry;
	unsigned int kind;
	bool walked;

	rcu_read_lock();
retry:
	entry = mt_root_check(mt);
	if (unlikely(!xa_is_node(entry))) {
		if (index)
			entry = NULL;
		goto done;
	}
	kind = mt_reader_kind(mt);
	if (likely(!kind))
		walked = mt_lookup(mt, entry, index, false, false, &entry);
	else if (kind == MT_FLAGS_ALLOC_RANGE)
		walked = mt_lookup(mt, entry, index, true, false, &entry);
	else if (kind == MT_FLAGS_USE_RCU)
		walked = mt_lookup(mt, entry, index, false, true, &entry);
	else
		walked = mt_lookup(mt, entry, index, true, true, &entry);
	if (unlikely(!walked))
		goto retry;
done:
	rcu_read_unlock();
	if (xa_is_zero(entry))
		return NULL;
	return entry;
}
EXPORT_SYMBOL(mtree_load);

/**
 * mt_find() - Find the first entry in [*@index, @max].
 * @mt: Maple tree.
 * @index: In: where to start.  Out: one past the last index of the entry
 *         found (0 if it ends at ULONG_MAX); unchanged if none was found.
 * @max: The last index to look at.
 *
 * Takes rcu_read_lock() itself.  XA_ZERO_ENTRY entries are skipped.
 *
 * Return: the entry, or NULL.
 */
void *mt_find(struct maple_tree *mt, unsigned long *index, unsigned long max)
{
	MA_STATE(mas, mt, *index, *index);
	void *entry;

	if (*index > max)
		return NULL;

	rcu_read_lock();
	entry = mas_leaf_walk(&mas);
	while (!entry || xa_is_zero(entry)) {
		entry = mas_forward(&mas, max, false, false);
		if (!entry)
			break;
	}
	rcu_read_unlock();

	if (entry)
		*index = mas.last + 1;
	return entry;
}
EXPORT_SYMBOL(mt_find);

/**
 * mt_find_after() - Like mt_find(), for the step after an entry was found.
 * @mt: Maple tree.
 * @index: As for mt_find(); 0 means the last entry ended at ULONG_MAX.
 * @max: The last index to look at.
 *
 * Return: the entry, or NULL.
 */
void *mt_find_after(struct maple_tree *mt, unsigned long *index,
		    unsigned long max)
{
	if (!(*index))
		return NULL;
	return mt_find(mt, index, max);
}
EXPORT_SYMBOL(mt_find_after);

/**
 * mt_next() - The next entry after the range that holds @index.
 * @mt: Maple tree.
 * @index: The index.
 * @max: The last index an entry may start at.
 *
 * Takes rcu_read_lock() itself.
 *
 * Return: the entry, or NULL.
 */
void *mt_next(struct maple_tree *mt, unsigned long index, unsigned long max)
{
	MA_STATE(mas, mt, index, index);
	void *entry;

	rcu_read_lock();
	entry = mas_next(&mas, max);
	rcu_read_unlock();
	return entry;
}
EXPORT_SYMBOL_GPL(mt_next);

/**
 * mt_prev() - The previous entry before the range that holds @index.
 * @mt: Maple tree.
 * @index: The index.
 * @min: The lowest index an entry may end at.
 *
 * Takes rcu_read_lock() itself.
 *
 * Return: the entry, or NULL.
 */
void *mt_prev(struct maple_tree *mt, unsigned long index, unsigned long min)
{
	MA_STATE(mas, mt, index, index);
	void *entry;

	rcu_read_lock();
	entry = mas_prev(&mas, min);
	rcu_read_unlock();
	return entry;
}
EXPORT_SYMBOL_GPL(mt_prev);

/* ------------------------------------------------------------------------
 * Gap search
 *
 * In allocation trees every internal slot carries the size of the largest
 * NULL range below it, so the search skips subtrees that cannot fit.  Other
 * trees are searched without that help.
 */

struct mt_gap_search {
	struct maple_tree *mt;
	unsigned long min;
	unsigned long max;
	unsigned long size;
	bool rcu;			/* nodes may die while we read them */
	unsigned long found;		/* first index of the area */
};

/* Does the NULL range [first, last] hold the area inside [min, max]? */
static inline bool mt_gap_fits(struct mt_gap_search *gs,
			       unsigned long first,
			       unsigned long last, bool rev)
{
	unsigned long lo = max(first, gs->min);
	unsigned long hi = min(last, gs->max);

	if (lo > hi || hi - lo < gs->size - 1)
		return false;
	gs->found = rev ? hi - (gs->size - 1) : lo;
	return true;
}

/*
 * What we read of @node may be trusted only if the node was still live
 * after we read it: call_rcu() reuses the words after a dead node's parent
 * word (its first pivots) for the callback list, so bounds read from a
 * dead node can be anything.
 */
static inline bool mt_gap_node_died(const struct mt_gap_search *gs,
				    const struct maple_node *node)
{
	return gs->rcu && unlikely(ma_dead_node(node));
}

/*
 * The last used slot of @node, which ends at @max: an allocation tree's
 * internal nodes keep it in their metadata (which RCU mode does not
 * change in place), the others are searched for the first pivot at @max.
 *
 * Always inlined: without, empty_area_rev 2.9% more instructions (callgrind).
 */
static __always_inline int mt_gap_node_end(const struct maple_node *node,
					   const unsigned long *pivots,
					   enum maple_type type,
					   unsigned long max, bool once)
{
	if (type == maple_arange_64)
		return node->ma64.meta.end;
	return __ma_offset(pivots, type, max, once);
}

/* The slots of a node a gap search looks at, from @i to @end. */
struct mt_gap_span {
	int i;
	int end;
};

/*
 * The slots of @node, of @type over [@min, @max], to look at: from the
 * one holding the window's edge the search starts from (its top for a
 * top-down search) or the node's own first or last used slot if the
 * window reaches past it.  A top-down search that starts inside the node
 * needs no end: the slot holding the window's top is at most the last used
 * one, whose pivot is the node's maximum.  A leaf is read under RCU (see
 * MA_PIVOT()), an internal node's pivots do not change in place.
 *
 * Always inlined: without, empty_area_rev 29%, mmap_cycle 5.4% more
 * instructions (callgrind).
 */
static __always_inline struct mt_gap_span
mt_gap_slots(const struct mt_gap_search *gs, struct maple_node *node,
	     enum maple_type type, unsigned long min, unsigned long max,
	     bool rev)
{
	const unsigned long *pivots = ma_pivots(node, type);
	bool once = ma_is_leaf(type);
	struct mt_gap_span sp;

	if (rev && gs->max < max) {
		sp.i = __ma_offset(pivots, type, gs->max, once);
		sp.end = sp.i;
		return sp;
	}
	sp.end = mt_gap_node_end(node, pivots, type, max, once);
	if (rev)
		sp.i = sp.end;
	else
		sp.i = gs->min > min ? __ma_offset(pivots, type, gs->min, once) : 0;
	return sp;
}

/*
 * The internal nodes the search went down through, to come back to (the
 * slots taken are kept apart, so that the stack stays under 1 KB).
 */
struct mt_gap_level {
	struct maple_enode *enode;
	unsigned long min;
	unsigned long max;
};

/*
 * The search from @enode, the root node, in the direction @rev says: down
 * the first child (in that direction) whose largest gap could hold the
 * area, back up when a leaf at the window's edge had none inside the
 * window.  Internal nodes are of type @itype (a constant in each copy).
 * 1: found; 0: no room; -EAGAIN: a node died, start again.
 *
 * Always inlined: without, empty_area_rev 35%, mmap_cycle 4.5% more
 * instructions (callgrind).
 */
static __always_inline int mt_gap_walk(struct mt_gap_search *gs,
				       struct maple_enode *enode,
				       enum maple_type itype, bool rev)
{
	struct mt_gap_level up[MAPLE_HEIGHT_MAX];
	unsigned char up_offset[MAPLE_HEIGHT_MAX];
	unsigned long min = 0, max = ULONG_MAX, first, last;
	int depth = 0, end, i, step = rev ? -1 : 1;
	enum maple_type type;
	struct maple_node *node;
	unsigned long *pivots, *gaps;
	struct mt_gap_span sp;
	void __rcu **slots;
	void *slot;

descend:
	node = mte_to_node(enode);
	type = mte_is_leaf(enode) ? maple_leaf_64 : itype;
	pivots = ma_pivots(node, type);
	slots = ma_slots(node, type);
	if (ma_is_leaf(type)) {
		sp = mt_gap_slots(gs, node, type, min, max, rev);
		end = sp.end;
		/*
		 * Only a NULL can hold the area: the bounds are read for
		 * NULLs alone, about every other slot (entries and NULLs
		 * alternate, but for empty slots).  Entries are passed
		 * without a look at their bounds, past the window's edge
		 * too: the next NULL's check ends the scan.
		 */
		for (i = sp.i; i >= 0 && i <= end; i += step) {
			if (mt_slot(gs->mt, slots, i))
				continue;
			first = __ma_pivot_min(pivots, i, min, true);
			last = __ma_pivot_max(pivots, type, i, max, true);
			if (rev ? last < gs->min : first > gs->max)
				break;
			/*
			 * A first index of 0 after slot 0 wrapped: the pivot
			 * before is ULONG_MAX, the end of a rightmost leaf that
			 * shrank during the scan, and the slot is past it.
			 */
			if ((first || !i) && mt_gap_fits(gs, first, last, rev))
				return mt_gap_node_died(gs, node) ? -EAGAIN : 1;
		}
		if (mt_gap_node_died(gs, node))
			return -EAGAIN;
		goto ascend;
	}
	sp = mt_gap_slots(gs, node, type, min, max, rev);
	i = sp.i;
	end = sp.end;
scan:
	gaps = ma_gaps(node, type);
	for (; i >= 0 && i <= end; i += step) {
		/* Too small a gap: its bounds do not matter either. */
		if (gaps && READ_ONCE(gaps[i]) < gs->size)
			continue;
		first = ma_pivot_min(pivots, i, min);
		last = ma_pivot_max(pivots, type, i, max);
		if (rev ? last < gs->min : first > gs->max)
			break;
		slot = mt_slot(gs->mt, slots, i);
		if (mt_gap_node_died(gs, node))
			return -EAGAIN;
		if (WARN_ON_ONCE(depth == MAPLE_HEIGHT_MAX))
			return 0;
		up[depth].enode = enode;
		up[depth].min = min;
		up[depth].max = max;
		up_offset[depth++] = i;
		enode = slot;
		min = first;
		max = last;
		goto descend;
	}
	if (mt_gap_node_died(gs, node))
		return -EAGAIN;
ascend:
	if (!depth)
		return 0;
	depth--;
	enode = up[depth].enode;
	min = up[depth].min;
	max = up[depth].max;
	i = up_offset[depth] + step;
	node = mte_to_node(enode);
	type = itype;
	pivots = ma_pivots(node, type);
	slots = ma_slots(node, type);
	end = mt_gap_node_end(node, pivots, type, max, false);
	goto scan;
}

/*
 * Always inlined: without, empty_area_rev 22%, mmap_cycle 2.4% more
 * instructions (callgrind).
 */
static __always_inline int mas_empty_area_common(struct ma_state *mas,
						 unsigned long min,
						 unsigned long max,
						 unsigned long size, bool rev)
{
	struct mt_gap_search gs = {
		.mt = mas->tree, .min = min, .max = max, .size = size,
		.rcu = mt_in_rcu(mas->tree),
	};
	void *root;
	int found;

	if (!size || min > max)
		return -EINVAL;
	/* A window smaller than @size: no room in 6.1, bad input in 6.12. */
	if (max - min < size - 1) {
		mas_set_err(mas, MT_API_612 ? -EINVAL : -EBUSY);
		return MT_API_612 ? -EINVAL : -EBUSY;
	}

	do {
		root = mt_root_check(mas->tree);
		if (xa_is_node(root) && mt_is_alloc(mas->tree))
			found = mt_gap_walk(&gs, mte_safe_root(root),
					    maple_arange_64, rev);
		else if (xa_is_node(root))
			found = mt_gap_walk(&gs, mte_safe_root(root),
					    maple_range_64, rev);
		else if (root)
			found = mt_gap_fits(&gs, 1, ULONG_MAX, rev);
		else
			found = mt_gap_fits(&gs, 0, ULONG_MAX, rev);
	} while (found == -EAGAIN);

	if (!found) {
		mas_set_err(mas, -EBUSY);
		return -EBUSY;
	}
	mas->index = gs.found;
	mas->last = gs.found + size - 1;
	mas_set_start(mas);
	return 0;
}

/**
 * mas_empty_area() - Find the lowest empty area of @size in [@min, @max].
 * @mas: Maple Tree operation state.
 * @min: Lowest index the area may start at.
 * @max: Highest index the area may end at.
 * @size: Size of the area.
 *
 * The caller holds the tree lock or rcu_read_lock().  On success
 * mas->index/last bound the area.
 *
 * Return: 0; -EBUSY if no area fits (also when the window is smaller than
 * @size); -EINVAL if @size is 0 or @min > @max.
 */
int mas_empty_area(struct ma_state *mas, unsigned long min,
		   unsigned long max, unsigned long size)
{
	return mas_empty_area_common(mas, min, max, size, false);
}
EXPORT_SYMBOL_GPL(mas_empty_area);

/**
 * mas_empty_area_rev() - Find the highest empty area of @size in the window.
 * @mas: Maple Tree operation state.
 * @min: Lowest index the area may start at.
 * @max: Highest index the area may end at.
 * @size: Size of the area.
 *
 * Return: as mas_empty_area().
 */
int mas_empty_area_rev(struct ma_state *mas, unsigned long min,
		       unsigned long max, unsigned long size)
{
	return mas_empty_area_common(mas, min, max, size, true);
}
EXPORT_SYMBOL_GPL(mas_empty_area_rev);

/* ------------------------------------------------------------------------
 * Gap maintenance
 */

/* The largest of gaps[0..@end]; its first offset goes to *@off. */
static unsigned long ma_max_gap(const unsigned long *gaps, unsigned char end,
				unsigned char *off)
{
	unsigned long max = 0;
	unsigned char i;

	*off = 0;
	for (i = 0; i <= end; i++) {
		if (gaps[i] > max) {
			max = gaps[i];
			*off = i;
		}
	}
	return max;
}

/*
 * A child's largest gap became @gap: record it in the parent and, while
 * that changes the parent's own largest gap, further up.  Only a largest
 * gap that shrinks makes a node look at its other gaps.  Every write that
 * changes a gap goes through here.
 */
static void mt_gap_push_from(unsigned long pword, unsigned long gap)
{
	/* The parent word says all: root or not, the parent, the slot. */
	while (!(pword & MAPLE_PARENT_ROOT)) {
		struct maple_node *node = (struct maple_node *)(pword &
							~MAPLE_NODE_MASK);
		unsigned char offset = (pword >> MAPLE_PARENT_SLOT_SHIFT) &
				       MAPLE_PARENT_SLOT_MASK;
		unsigned long *gaps = node->ma64.gap;
		unsigned char max_off = node->ma64.meta.gap;
		unsigned long old_max = gaps[max_off], new_max;

		if (gaps[offset] == gap)
			return;
		WRITE_ONCE(gaps[offset], gap);
		/*
		 * Two NULL ranges of one node are disjoint, so one larger
		 * than half the index space is the largest without a look.
		 */
		if (gap >= old_max || gap > ULONG_MAX / 2) {
			node->ma64.meta.gap = offset;
			new_max = gap;
		} else {
			/* Only a shrunk largest gap changes the node's. */
			if (offset != max_off)
				return;
			new_max = ma_max_gap(gaps, node->ma64.meta.end,
					     &max_off);
			node->ma64.meta.gap = max_off;
		}
		if (new_max == old_max)
			return;
		gap = new_max;
		pword = (unsigned long)node->parent;
	}
}

static inline void mt_gap_push_up(struct maple_node *child, unsigned long gap)
{
	mt_gap_push_from((unsigned long)child->parent, gap);
}

/* ------------------------------------------------------------------------
 * Rebuilding writes
 *
 * A write of [index, last] -> entry that no one-leaf write can do starts
 * at the two leaves that hold index and last (struct mt_wr's l and r).
 * Bottom-up, each level's new contents are gathered in one list (struct
 * mt_big): at the leaves, the entries left of index, the new entry and the
 * entries right of last; above, the untouched children left of l, the
 * nodes just built and the untouched children right of r.  A level whose
 * list is too short takes in its right neighbour, so every node but the
 * root and the rightmost node of a level stays at least half full.  The
 * climb stops at the first level whose list fits one node that replaces
 * exactly one old node (its parent's pivots do not change), or at the root.
 *
 * Only the current level is kept: the level above is found by a walk from
 * the root (the old tree does not change before the new nodes are
 * published), so the write needs a few hundred bytes of stack whatever
 * the height.  An old node whose contents went into a list is replaced;
 * its children that went in whole are given the new node as parent once
 * that is published (in RCU mode; at once otherwise: mt_wr_kept_children()), so
 * after that the old nodes to retire are the replaced one and, below it,
 * every child whose parent is still a retired node.
 */

/* The fill below which a node that is not the rightmost is merged. */
static const unsigned char mt_min_slots[] = {
	[maple_dense]		= MAPLE_NODE_SLOTS / 2,
	[maple_leaf_64]		= (MAPLE_RANGE64_SLOTS / 2) - 2,
	[maple_range_64]	= (MAPLE_RANGE64_SLOTS / 2) - 2,
	[maple_arange_64]	= (MAPLE_ARANGE64_SLOTS / 2) - 1,
};

struct mt_level {
	struct maple_node *node;
	unsigned long min;
	unsigned long max;
	enum maple_type type;
	unsigned char offset;
	unsigned char end;
};

/*
 * One level's entries (or children) being rebuilt.  At most the slots of
 * two nodes and one more: the slots left of l (fewer than a node's), at
 * most three new ones, the slots right of r (fewer than a node's); a level
 * that takes in a neighbour or sibling does so only while the sum stays
 * below that.  Allocation-tree internal levels also keep a gap per slot:
 * their nodes are smaller, so three arrays of theirs fit in the same words
 * (mt_big_reset()).
 */
#define MT_BIG_SLOTS	(2 * MAPLE_RANGE64_SLOTS + 1)
#define MT_BIG_ASLOTS	(2 * MAPLE_ARANGE64_SLOTS + 1)

struct mt_big {
	unsigned long word[2 * MT_BIG_SLOTS];
	unsigned long *pivot;
	void **slot;
	unsigned long *gap;		/* allocation-tree internal levels */
	unsigned char n;
	unsigned char cap;
};

/* A level is cut into at most this many nodes. */
#define MT_WR_MAX_OUT	DIV_ROUND_UP(MT_BIG_SLOTS, MAPLE_RANGE64_SLOTS)

/* The nodes a level's list was cut into: the next level's children. */
struct mt_wr_out {
	unsigned long pivot[MT_WR_MAX_OUT];
	void *slot[MT_WR_MAX_OUT];
	unsigned long gap[MT_WR_MAX_OUT];
};

struct mt_wr {
	struct ma_state *mas;
	struct maple_tree *mt;
	void *entry;
	void *content;			/* entry at index before the write */
	unsigned long index;		/* the range, NULLs merged */
	unsigned long last;
	unsigned long nodes;		/* nodes needed or used */
	unsigned char height;		/* 0: the tree has no node */
	unsigned char split_first;	/* a two-way split: the left count */
	bool commit;			/* false: only count the nodes */
	bool in_rcu;
	bool alloc;
	enum maple_type itype;		/* type of internal nodes */
	struct mt_level l;		/* the level's leftmost node rebuilt */
	struct mt_level r;		/* and its rightmost */
	struct mt_big big;
};

/* Start an empty list for nodes of @type. */
static void mt_big_reset(struct mt_big *big, enum maple_type type)
{
	BUILD_BUG_ON(3 * MT_BIG_ASLOTS > 2 * MT_BIG_SLOTS);
	big->n = 0;
	big->pivot = big->word;
	if (type == maple_arange_64) {
		big->cap = MT_BIG_ASLOTS;
		big->slot = (void **)(big->word + MT_BIG_ASLOTS);
		big->gap = big->word + 2 * MT_BIG_ASLOTS;
	} else {
		big->cap = MT_BIG_SLOTS;
		big->slot = (void **)(big->word + MT_BIG_SLOTS);
		big->gap = NULL;
	}
}

static inline void mt_big_push(struct mt_big *big, unsigned long pivot,
			       void *slot, unsigned long gap)
{
	/* The bound above holds: a write past it would be a bug here. */
	if (WARN_ON_ONCE(big->n >= big->cap))
		return;
	big->pivot[big->n] = pivot;
	big->slot[big->n] = slot;
	if (big->gap)
		big->gap[big->n] = gap;
	big->n++;
}

/*
 * Fill @lv with the node at @depth (or the leaf, if it is nearer) on the
 * path to @index.  The caller holds the tree lock; the tree has a node.
 */
static void mt_wr_level(struct mt_wr *wr, struct mt_level *lv,
			unsigned long index, unsigned char depth)
{
	struct maple_enode *enode = mte_safe_root(mt_root_locked(wr->mt));
	unsigned long min = 0, max = ULONG_MAX;

	for (;;) {
		struct maple_node *node = mte_to_node(enode);
		enum maple_type type = mte_node_type(enode);
		unsigned long *pivots = ma_pivots(node, type);
		unsigned char offset = ma_offset(pivots, type, index);

		if (!depth-- || ma_is_leaf(type)) {
			lv->node = node;
			lv->type = type;
			lv->min = min;
			lv->max = max;
			lv->end = ma_data_end(node, type, max);
			lv->offset = offset;
			return;
		}
		min = ma_pivot_min(pivots, offset, min);
		max = ma_pivot_max(pivots, type, offset, max);
		enode = mt_slot_locked(wr->mt, ma_slots(node, type), offset);
	}
}

/* The level above @lv, which is at @depth, with @lv's slot as offset. */
static inline void mt_wr_parent(struct mt_wr *wr, const struct mt_level *lv,
				unsigned char depth, struct mt_level *parent)
{
	mt_wr_level(wr, parent, lv->min, depth - 1);
}

/* Append slots @from..@to of the node at @lv to the list. */
static void mt_big_copy(struct mt_wr *wr, const struct mt_level *lv,
			int from, int to)
{
	struct maple_node *node = lv->node;
	unsigned long *pivots = ma_pivots(node, lv->type);
	unsigned long *gaps = ma_gaps(node, lv->type);
	void __rcu **slots = ma_slots(node, lv->type);
	struct mt_big *big = &wr->big;
	int i, count = to - from + 1, npiv = mt_pivots[lv->type];

	if (count <= 0)
		return;
	/* A leaf's empty slots stay behind: slot by slot then. */
	for (i = max(from, 1); ma_is_leaf(lv->type) && i <= to; i++) {
		if (ma_leaf_slot_empty(pivots, i, lv->max))
			goto one_by_one;
	}
	/* The bound above holds: a write past it would be a bug here. */
	if (WARN_ON_ONCE(big->n + count > big->cap))
		return;
	/*
	 * One run, copied whole: the writer's plain reads, as
	 * mt_slot_locked() makes them (a rebuild copies about seven runs of
	 * up to sixteen slots, and slot by slot each cost about 290
	 * instructions).  A full node's last slot ends at the node's
	 * maximum, which no pivot holds.
	 */
	memcpy(big->slot + big->n, (void __force *)(slots + from),
	       count * sizeof(*slots));
	if (big->gap && gaps)
		memcpy(big->gap + big->n, gaps + from, count * sizeof(*gaps));
	else if (big->gap)
		memset(big->gap + big->n, 0, count * sizeof(*big->gap));
	if (to >= npiv) {
		count--;
		big->pivot[big->n + count] = lv->max;
	}
	memcpy(big->pivot + big->n, pivots + from, count * sizeof(*pivots));
	big->n += to - from + 1;
	return;

one_by_one:
	for (i = from; i <= to; i++) {
		if (ma_is_leaf(lv->type) &&
		    ma_leaf_slot_empty(pivots, i, lv->max))
			continue;
		mt_big_push(big, ma_pivot_max(pivots, lv->type, i, lv->max),
			    mt_slot_locked(wr->mt, slots, i),
			    gaps ? gaps[i] : 0);
	}
}

/* How many slots of the node at @lv mt_big_copy() takes. */
static unsigned char mt_level_count(const struct mt_level *lv)
{
	unsigned char count = lv->end + 1, i;

	if (ma_is_leaf(lv->type))
		for (i = 1; i < lv->end; i++)
			count -= lv->node->mr64.pivot[i] ==
				 lv->node->mr64.pivot[i - 1];
	return count;
}

/* The largest NULL range among slots 0..@end of a leaf over [@min, @max]. */
static unsigned long mt_leaf_gap(void __rcu **slots, const unsigned long *pivots,
				 enum maple_type type, unsigned char end,
				 unsigned long min, unsigned long max)
{
	unsigned long gap = 0, first = min;
	unsigned char i;

	for (i = 0; i <= end; i++) {
		unsigned long last = ma_pivot_max(pivots, type, i, max);

		if (!mt_slot_used(slots, i) && last - first + 1 > gap)
			gap = last - first + 1;
		first = last + 1;
	}
	return gap;
}

/* Gather the leaf level: left of index, the new entry, right of last. */
static void mt_wr_gather_leaf(struct mt_wr *wr)
{
	struct mt_level *l = &wr->l;
	struct mt_level *r = &wr->r;
	unsigned long *pivots;
	unsigned long first, end;

	mt_big_reset(&wr->big, maple_leaf_64);
	if (l->offset)
		mt_big_copy(wr, l, 0, l->offset - 1);
	pivots = ma_pivots(l->node, l->type);
	first = ma_pivot_min(pivots, l->offset, l->min);
	if (first < wr->index)
		mt_big_push(&wr->big, wr->index - 1,
			    mt_slot_locked(wr->mt, ma_slots(l->node, l->type),
					   l->offset), 0);
	mt_big_push(&wr->big, wr->last, wr->entry, 0);
	pivots = ma_pivots(r->node, r->type);
	end = ma_pivot_max(pivots, r->type, r->offset, r->max);
	if (end > wr->last)
		mt_big_push(&wr->big, end,
			    mt_slot_locked(wr->mt, ma_slots(r->node, r->type),
					   r->offset), 0);
	if (r->offset < r->end)
		mt_big_copy(wr, r, r->offset + 1, r->end);
}

/* A node for the rebuild, its parent word cleared: see mt_wr_fill(). */
static struct maple_node *mt_wr_new_node(struct mt_wr *wr)
{
	struct maple_node *node = mas_pop_node(wr->mas);

	node->parent = NULL;
	return node;
}

/*
 * The old children a rebuild keeps change parent around the publication
 * of the new nodes, in RCU mode: a reader leaves a leaf through its parent
 * word (mas_next_leaf()), and must not reach an old parent, intact but
 * out of the tree, after the publication.  So before it the kept
 * children's parent words are cleared (a reader then walks from the root,
 * and one that read the word before reads it again after the parent's
 * words, to know it read them before the publication); after it they are
 * set to the new parent; the old nodes are retired last.  New children
 * carry their parent from mt_wr_fill() and are only gone through.
 */
static void mt_wr_kept_children(struct mt_wr *wr, struct maple_node *node,
				enum maple_type type, bool adopt)
{
	void __rcu **slots = ma_slots(node, type);
	unsigned char i;

	for (i = 0; i < mt_slots[type]; i++) {
		struct maple_enode *child = mt_slot_locked(wr->mt, slots, i);
		struct maple_node *cnode;

		if (!child)
			break;
		cnode = mte_to_node(child);
		if (ma_parent(cnode) == node && ma_parent_slot(cnode) == i) {
			if (!mte_is_leaf(child))
				mt_wr_kept_children(wr, cnode,
						    mte_node_type(child), adopt);
		} else if (adopt) {
			/*
			 * The new parent's words before the word that leads
			 * to them: pairs with the smp_load_acquire() of
			 * ma_parent_word() and ma_node_bound().
			 */
			smp_store_release(&cnode->parent, (struct maple_pnode *)
					  ((unsigned long)node |
					   ((unsigned long)i <<
					    MAPLE_PARENT_SLOT_SHIFT)));
		} else {
			WRITE_ONCE(cnode->parent, NULL);
		}
	}
}

/* Before @node, the top node of a rebuild, is published. */
static void mt_wr_unhook(struct mt_wr *wr, struct maple_node *node,
			 enum maple_type type)
{
	/* The stores are ordered before the publication by its release. */
	if (wr->in_rcu && !ma_is_leaf(type))
		mt_wr_kept_children(wr, node, type, false);
}

/* After @node is published, before the old nodes are retired. */
static void mt_wr_adopt(struct mt_wr *wr, struct maple_node *node,
			enum maple_type type)
{
	if (!wr->in_rcu || ma_is_leaf(type))
		return;
	mt_wr_kept_children(wr, node, type, true);
}

/*
 * Write @count list entries from @from into @node (a new node, or an old
 * one rewritten in place), which covers [@min, list pivot of the last one].
 * Children take @node as their parent, except, in RCU mode, the old ones
 * that stay in the tree: they change parent around the publication
 * (mt_wr_kept_children()).  New children are told apart by the parent
 * word their caller cleared (mt_wr_new_node()).
 *
 * Return: the largest gap in the node (allocation trees only).
 */
static unsigned long mt_wr_fill(struct mt_wr *wr, struct maple_node *node,
				enum maple_type type, int from, int count,
				unsigned long min)
{
	struct mt_big *big = &wr->big;
	unsigned long *pivots = ma_pivots(node, type);
	void __rcu **slots = ma_slots(node, type);
	unsigned long *gaps = ma_gaps(node, type);
	unsigned char npiv = mt_pivots[type];
	unsigned long max = big->pivot[from + count - 1];
	unsigned long gap = 0;
	unsigned char gap_off = 0;
	int i;

	if (ma_is_leaf(type)) {
		/*
		 * A leaf's entries are only copied: whole, with no reader
		 * of @node beside us (a new node, or outside RCU mode).
		 */
		memcpy((void __force *)slots, big->slot + from,
		       count * sizeof(*slots));
		memcpy(pivots, big->pivot + from,
		       min_t(int, count, npiv) * sizeof(*pivots));
		i = count;
	} else {
		for (i = 0; i < count; i++) {
			void *slot = big->slot[from + i];
			struct maple_node *child = mte_to_node(slot);

			if (i < npiv)
				pivots[i] = big->pivot[from + i];
			RCU_INIT_POINTER(slots[i], slot);
			if (!wr->in_rcu || !child->parent)
				mt_set_parent(child, node, i);
			if (gaps) {
				gaps[i] = big->gap[from + i];
				if (gaps[i] > gap) {
					gap = gaps[i];
					gap_off = i;
				}
			}
		}
	}
	for (; i < mt_slots[type]; i++) {
		if (i < npiv)
			pivots[i] = max;
		RCU_INIT_POINTER(slots[i], NULL);
		if (gaps)
			gaps[i] = 0;
	}
	if (type == maple_arange_64) {
		node->ma64.meta.end = count - 1;
		node->ma64.meta.gap = gap_off;
	}
	if (wr->alloc && ma_is_leaf(type))
		gap = mt_leaf_gap(slots, pivots, type, count - 1, min, max);
	return gap;
}

/*
 * Cut the list into nodes of @type: evenly, or for the rightmost nodes of
 * a level (where appends land) as full nodes with the remainder last (at
 * least two slots of it in a leaf of an allocation tree).
 * Returns the number of nodes; with wr->commit they are built and put in
 * @out as the next level's children.
 */
static int mt_wr_split(struct mt_wr *wr, enum maple_type type,
		       unsigned long min, bool rightmost,
		       struct mt_wr_out *out)
{
	unsigned char cap = mt_slots[type];
	int n = wr->big.n;
	int k = wr->split_first ? 2 : DIV_ROUND_UP(n, cap);
	int i, from = 0;

	if (WARN_ON_ONCE(k > MT_WR_MAX_OUT))
		k = MT_WR_MAX_OUT;
	for (i = 0; i < k; i++) {
		int count;

		if (wr->split_first) {
			count = i ? n - from : wr->split_first;
		} else if (rightmost) {
			count = min_t(int, cap, n - from);
			/*
			 * In an allocation tree, not a last leaf of only the
			 * trailing NULL: growing or shrinking the last range
			 * (brk() on a VMA tree) would then move a boundary
			 * between two leaves.  Other trees keep their leaves
			 * full (a million ascending ranges: height 5, not 6).
			 */
			if (wr->alloc && ma_is_leaf(type) &&
			    n - from - count == 1)
				count--;
		} else {
			count = n / k + (i < n % k);
		}
		out->pivot[i] = wr->big.pivot[from + count - 1];
		out->slot[i] = NULL;
		out->gap[i] = 0;
		wr->nodes++;
		if (wr->commit) {
			struct maple_node *node = mt_wr_new_node(wr);

			out->gap[i] = mt_wr_fill(wr, node, type, from, count,
						 min);
			out->slot[i] = mt_mk_node(node, type);
		}
		min = out->pivot[i] + 1;
		from += count;
	}
	return k;
}

/*
 * Retire @node, an old node over [.., @max] whose contents went into a
 * list, and below it every child still under it: the children that went
 * into a list whole have a new parent by now.
 */
static void mt_wr_retire(struct mt_wr *wr, struct maple_node *node,
			 enum maple_type type, unsigned long max)
{
	if (!ma_is_leaf(type)) {
		unsigned long *pivots = ma_pivots(node, type);
		void __rcu **slots = ma_slots(node, type);
		unsigned char end = ma_data_end(node, type, max);
		unsigned char i;

		for (i = 0; i <= end; i++) {
			struct maple_enode *child;

			child = mt_slot_locked(wr->mt, slots, i);
			if (ma_parent(mte_to_node(child)) != node)
				continue;
			mt_wr_retire(wr, mte_to_node(child),
				     mte_node_type(child),
				     ma_pivot_max(pivots, type, i, max));
		}
	}
	mt_retire_node(wr->mt, node);
}

/* Retire the old root node, if there was one, and what went with it. */
static void mt_wr_retire_root(struct mt_wr *wr, void *old_root)
{
	struct maple_enode *enode;

	if (!xa_is_node(old_root))
		return;
	enode = mte_safe_root(old_root);
	mt_wr_retire(wr, mte_to_node(enode), mte_node_type(enode), ULONG_MAX);
}

/* Publish @enode (or a plain entry, or NULL) as the tree's root. */
static void mt_wr_set_root(struct mt_wr *wr, void *root, unsigned char height)
{
	if (xa_is_node(root))
		mt_set_parent_root(mte_to_node(mte_safe_root(root)), wr->mt);
	mt_set_height(wr->mt, height);
	rcu_assign_pointer(wr->mt->ma_root, root);
}

/*
 * The level at @depth spans the whole tree and fits one node: that node is
 * the new root (the levels above, if any, go away).  A leaf of no range
 * but one NULL, or of one entry at index 0 and NULL after it, is no node
 * at all: the root holds the entry.
 */
static void mt_wr_finish_root(struct mt_wr *wr, unsigned char depth,
			      enum maple_type type)
{
	void *old_root = mt_root_locked(wr->mt);
	struct mt_big *big = &wr->big;
	struct maple_node *node;

	if (ma_is_leaf(type) &&
	    ((big->n == 1 && !big->slot[0]) ||
	     (big->n == 2 && big->pivot[0] == 0 && !big->slot[1] &&
	      big->slot[0] && !xa_is_internal(big->slot[0])))) {
		if (!wr->commit)
			return;
		mt_wr_set_root(wr, big->slot[0], 0);
	} else {
		wr->nodes++;
		if (!wr->commit)
			return;
		node = mt_wr_new_node(wr);
		mt_wr_fill(wr, node, type, 0, big->n, 0);
		mt_wr_unhook(wr, node, type);
		mt_wr_set_root(wr, mte_mk_root(mt_mk_node(node, type)),
			       wr->height ? wr->height - depth : 1);
		mt_wr_adopt(wr, node, type);
	}
	mt_wr_retire_root(wr, old_root);
}

/* The root level overflows: split it and add a level on top. */
static void mt_wr_grow_root(struct mt_wr *wr, enum maple_type type)
{
	void *old_root = mt_root_locked(wr->mt);
	struct mt_wr_out out;
	struct maple_node *node;
	int k, i;

	k = mt_wr_split(wr, type, 0, true, &out);
	wr->nodes++;
	if (!wr->commit)
		return;
	mt_big_reset(&wr->big, wr->itype);
	for (i = 0; i < k; i++)
		mt_big_push(&wr->big, out.pivot[i], out.slot[i], out.gap[i]);
	node = mt_wr_new_node(wr);
	mt_wr_fill(wr, node, wr->itype, 0, k, 0);
	mt_wr_unhook(wr, node, wr->itype);
	mt_wr_set_root(wr, mte_mk_root(mt_mk_node(node, wr->itype)),
		       wr->height + 1);
	mt_wr_adopt(wr, node, wr->itype);
	mt_wr_retire_root(wr, old_root);
}

/* One node replaces wr->l.node; the parent's pivots stay as they are. */
static void mt_wr_replace(struct mt_wr *wr, enum maple_type type)
{
	struct mt_level *lv = &wr->l;
	struct maple_node *old = lv->node, *node;
	unsigned long gap;

	if (!wr->in_rcu) {
		/* Nobody reads beside us: rewrite the old node in place. */
		if (!wr->commit)
			return;
		if (!ma_is_leaf(type)) {
			unsigned long *pivots = ma_pivots(old, type);
			void __rcu **slots = ma_slots(old, type);
			unsigned char i;

			/* The children the list has new nodes for. */
			for (i = lv->offset; i <= wr->r.offset; i++) {
				struct maple_enode *child;

				child = mt_slot_locked(wr->mt, slots, i);
				mt_wr_retire(wr, mte_to_node(child),
					     mte_node_type(child),
					     ma_pivot_max(pivots, type, i,
							  lv->max));
			}
		}
		node = old;
		gap = mt_wr_fill(wr, node, type, 0, wr->big.n, lv->min);
	} else {
		wr->nodes++;
		if (!wr->commit)
			return;
		node = mt_wr_new_node(wr);
		gap = mt_wr_fill(wr, node, type, 0, wr->big.n, lv->min);
		node->parent = old->parent;
		mt_wr_unhook(wr, node, type);
		rcu_assign_pointer(ma_slots(ma_parent(old),
					    wr->itype)[ma_parent_slot(old)],
				   mt_mk_node(node, type));
		mt_wr_adopt(wr, node, type);
		mt_wr_retire(wr, old, type, lv->max);
	}
	if (wr->alloc)
		mt_gap_push_up(node, gap);
}

/* The child of @parent at @offset as a level of its own. */
static void mt_wr_child(struct mt_wr *wr, const struct mt_level *parent,
			unsigned char offset, struct mt_level *child)
{
	unsigned long *pivots = ma_pivots(parent->node, parent->type);
	struct maple_enode *enode;

	enode = mt_slot_locked(wr->mt, ma_slots(parent->node, parent->type),
			       offset);
	child->node = mte_to_node(enode);
	child->type = mte_node_type(enode);
	child->min = ma_pivot_min(pivots, offset, parent->min);
	child->max = ma_pivot_max(pivots, parent->type, offset, parent->max);
	child->end = ma_data_end(child->node, child->type, child->max);
	child->offset = 0;
}

/* Put all of @sib's entries in front of the list. */
static void mt_big_prepend(struct mt_wr *wr, const struct mt_level *sib)
{
	struct mt_big *big = &wr->big;
	unsigned char count = mt_level_count(sib), n = big->n;

	if (WARN_ON_ONCE(n + count > big->cap))
		return;
	memmove(big->pivot + count, big->pivot, n * sizeof(big->pivot[0]));
	memmove(big->slot + count, big->slot, n * sizeof(big->slot[0]));
	if (big->gap)
		memmove(big->gap + count, big->gap, n * sizeof(big->gap[0]));
	big->n = 0;
	mt_big_copy(wr, sib, 0, sib->end);
	big->n = n + count;
}

/* Prepend the left sibling of wr->l (at @depth) if all fits a node. */
static void mt_wr_absorb_left(struct mt_wr *wr, unsigned char depth,
			      enum maple_type type)
{
	struct mt_level parent, sib;

	mt_wr_parent(wr, &wr->l, depth, &parent);
	if (!parent.offset)
		return;
	mt_wr_child(wr, &parent, parent.offset - 1, &sib);
	if (mt_level_count(&sib) + wr->big.n > mt_slots[type])
		return;
	mt_big_prepend(wr, &sib);
	wr->l = sib;
}

/* Split the list in two, @first to the left; a leaf not ending on NULL. */
static void mt_wr_set_split(struct mt_wr *wr, enum maple_type type, int first)
{
	struct mt_big *big = &wr->big;
	int min = mt_min_slots[type];

	if (ma_is_leaf(type) && !big->slot[first - 1]) {
		if (big->n - first - 1 >= min && first < mt_slots[type])
			first++;
		else
			first--;
	}
	/* Neither half under the minimum (a small last sibling taken in). */
	first = clamp(first, min, big->n - min);
	wr->split_first = first;
}

/*
 * The node at wr->l (== wr->r, at @depth) overflows into at most two
 * nodes' worth.  As Linux 6.1 does, move entries into a sibling under the
 * same parent (the left one first) when both then fit with a slot to
 * spare, leaving the sibling one short of full; otherwise split in half.
 * The parent then keeps its number of children after a move.  A leaf does
 * not end on a NULL range where the split point allows it.
 */
static void mt_wr_push_or_halve(struct mt_wr *wr, unsigned char depth,
				enum maple_type type, bool rightmost)
{
	struct mt_big *big = &wr->big;
	unsigned char cap = mt_slots[type];
	int n = big->n, limit, count, first;
	struct mt_level parent, sib;

	mt_wr_parent(wr, &wr->l, depth, &parent);
	limit = 2 * cap - (ma_is_leaf(type) ? 2 : 1) - rightmost;
	if (parent.offset) {
		mt_wr_child(wr, &parent, parent.offset - 1, &sib);
		count = mt_level_count(&sib);
		if (n + count <= limit) {
			mt_big_prepend(wr, &sib);
			wr->l = sib;
			first = cap - 1;
			goto no_null_end;
		}
	}
	if (parent.offset < parent.end) {
		mt_wr_child(wr, &parent, parent.offset + 1, &sib);
		count = mt_level_count(&sib);
		if (n + count <= limit) {
			mt_big_copy(wr, &sib, 0, sib.end);
			wr->r = sib;
			first = big->n - (cap - 1);
			goto no_null_end;
		}
	}
	first = (n + 1) / 2;
no_null_end:
	mt_wr_set_split(wr, type, first);
}

/*
 * Rebuild from the leaves up.  Used twice with identical decisions: to
 * count the nodes (!wr->commit) and to build and publish them.
 */
static void mt_wr_rebuild(struct mt_wr *wr)
{
	struct mt_wr_out out;
	unsigned char depth = wr->height - 1;
	enum maple_type type = maple_leaf_64;
	struct mt_level *l = &wr->l, *r = &wr->r;

	wr->nodes = 0;
	mt_wr_gather_leaf(wr);
	for (;;) {
		unsigned char cap = mt_slots[type];
		unsigned long lkey, rkey;
		bool rightmost;
		int k, i;

		/* Too few for a node of their own: take in the neighbour. */
		while (depth && wr->big.n < mt_min_slots[type] &&
		       r->max != ULONG_MAX) {
			mt_wr_level(wr, r, r->max + 1, depth);
			mt_big_copy(wr, r, 0, r->end);
		}
		/*
		 * The rightmost node may stay small, so appends leave full
		 * nodes behind; but fold it into its left sibling when both
		 * fit in one node, so a shrinking tree loses height.
		 */
		if (depth && wr->big.n < mt_min_slots[type] &&
		    r->max == ULONG_MAX)
			mt_wr_absorb_left(wr, depth, type);
		/*
		 * One node overflows: into a sibling, or split in half.  Only
		 * plain trees and bulk loads fill their last nodes instead.
		 */
		wr->split_first = 0;
		if (l->node == r->node && wr->big.n > cap &&
		    wr->big.n <= 2 * cap &&
		    (r->max != ULONG_MAX ||
		     (wr->alloc && !(wr->mas->mas_flags & MA_STATE_BULK)))) {
			if (depth)
				mt_wr_push_or_halve(wr, depth, type,
						    r->max == ULONG_MAX);
			else	/* the root splits in half */
				mt_wr_set_split(wr, type, (wr->big.n + 1) / 2);
		}
		rightmost = r->max == ULONG_MAX;

		if (l->min == 0 && rightmost && wr->big.n <= cap) {
			mt_wr_finish_root(wr, depth, type);
			return;
		}
		if (!depth) {
			mt_wr_grow_root(wr, type);
			return;
		}
		if (l->node == r->node && wr->big.n <= cap &&
		    (wr->big.n >= mt_min_slots[type] || rightmost)) {
			mt_wr_replace(wr, type);
			return;
		}

		k = mt_wr_split(wr, type, l->min, rightmost, &out);
		depth--;
		type = wr->itype;
		lkey = l->min;
		rkey = r->max;
		mt_wr_level(wr, l, lkey, depth);
		mt_wr_level(wr, r, rkey, depth);
		mt_big_reset(&wr->big, type);
		if (l->offset)
			mt_big_copy(wr, l, 0, l->offset - 1);
		for (i = 0; i < k; i++)
			mt_big_push(&wr->big, out.pivot[i], out.slot[i],
				    out.gap[i]);
		if (r->offset < r->end)
			mt_big_copy(wr, r, r->offset + 1, r->end);
	}
}

/*
 * A tree without a node holds NULL, or one entry at index 0 in its root.
 * The write is the list of the one leaf it would be (at most four ranges),
 * which mt_wr_finish_root() makes a root of.
 */
static void mt_wr_rootless(struct mt_wr *wr)
{
	void *root = mt_root_locked(wr->mt);
	struct mt_big *big = &wr->big;

	wr->nodes = 0;
	wr->content = wr->index ? NULL : root;
	mt_big_reset(big, maple_leaf_64);
	if (!wr->entry) {
		/* The NULL joins the NULL of [1, ULONG_MAX] or of all. */
		if (root && wr->index) {
			wr->index = 1;
			mt_big_push(big, 0, root, 0);
		} else {
			wr->index = 0;
		}
		wr->last = ULONG_MAX;
		mt_big_push(big, ULONG_MAX, NULL, 0);
	} else {
		if (root && wr->index)
			mt_big_push(big, 0, root, 0);
		if (wr->index > (root ? 1 : 0))
			mt_big_push(big, wr->index - 1, NULL, 0);
		mt_big_push(big, wr->last, wr->entry, 0);
		if (wr->last != ULONG_MAX)
			mt_big_push(big, ULONG_MAX, NULL, 0);
	}
	mt_wr_finish_root(wr, 0, maple_leaf_64);
}

/*
 * Storing NULL merges with the NULL ranges on either side, so the tree
 * never holds two NULL ranges in a row (also across leaves).
 */
static void mt_wr_extend_null(struct mt_wr *wr)
{
	unsigned char leaf = wr->height - 1;
	struct mt_level *lv = &wr->l;
	struct mt_level *rv = &wr->r;
	void __rcu **slots = ma_slots(lv->node, lv->type);
	unsigned long *pivots = ma_pivots(lv->node, lv->type);
	unsigned long first, end, index = wr->index, last = wr->last;
	void *content;

	first = ma_pivot_min(pivots, lv->offset, lv->min);
	if (!mt_slot_locked(wr->mt, slots, lv->offset)) {
		index = first;
	} else if (first == index && index) {
		if (lv->offset) {
			/* The slot before, past any empty ones. */
			unsigned char prev = ma_offset(pivots, lv->type,
						       first - 1);

			if (!mt_slot_locked(wr->mt, slots, prev))
				index = ma_pivot_min(pivots, prev, lv->min);
		} else {
			MA_STATE(prev, wr->mt, index - 1, index - 1);

			if (!mas_leaf_walk(&prev))
				index = prev.index;
		}
	}

	slots = ma_slots(rv->node, rv->type);
	pivots = ma_pivots(rv->node, rv->type);
	end = ma_pivot_max(pivots, rv->type, rv->offset, rv->max);
	content = mt_slot_locked(wr->mt, slots, rv->offset);
	if (!content) {
		last = end;
	} else if (end == last && last != ULONG_MAX) {
		if (rv->offset < rv->end) {
			/* The slot after, past any empty ones. */
			unsigned char next = ma_offset(pivots, rv->type,
						       end + 1);

			if (!mt_slot_locked(wr->mt, slots, next))
				last = ma_pivot_max(pivots, rv->type, next,
						    rv->max);
		} else {
			MA_STATE(next, wr->mt, last + 1, last + 1);

			if (!mas_leaf_walk(&next))
				last = next.last;
		}
	}

	if (index != wr->index) {
		wr->index = index;
		mt_wr_level(wr, &wr->l, index, leaf);
	}
	if (last != wr->last) {
		wr->last = last;
		mt_wr_level(wr, &wr->r, last, leaf);
	}
}

/* The leaves that hold wr->index and wr->last (the tree has a node). */
static void mt_wr_find_ends(struct mt_wr *wr)
{
	mt_wr_level(wr, &wr->l, wr->index, wr->height - 1);
	mt_wr_level(wr, &wr->r, wr->last, wr->height - 1);
}

/* Set up a write of @entry over [mas->index, mas->last]. */
static void mt_wr_prepare(struct mt_wr *wr, struct ma_state *mas, void *entry)
{
	struct maple_tree *mt = mas->tree;
	struct mt_level *lv = &wr->l;

	wr->mas = mas;
	wr->mt = mt;
	wr->entry = entry;
	wr->in_rcu = mt_in_rcu(mt);
	wr->alloc = mt_is_alloc(mt);
	wr->itype = mt_internal_type(mt);
	wr->index = mas->index;
	wr->last = mas->last;
	wr->commit = false;
	wr->nodes = 0;
	wr->height = 0;
	if (!xa_is_node(mt_root_locked(mt)))
		return;
	wr->height = mt_height(mt);
	mt_wr_find_ends(wr);
	wr->content = mt_slot_locked(mt, ma_slots(lv->node, lv->type),
				     lv->offset);
	if (!entry)
		mt_wr_extend_null(wr);
}

/* Count (!wr->commit) or build and publish the nodes of the write. */
static void mt_wr_run(struct mt_wr *wr)
{
	if (!wr->height)
		mt_wr_rootless(wr);
	else
		mt_wr_rebuild(wr);
}

/*
 * The writers' descent, under the tree lock: the leaf holding @index and
 * its bounds; NULL if the tree has no node.
 */
static inline struct maple_node *
mt_descend_locked(struct maple_tree *mt, unsigned long index,
		  unsigned long *minp, unsigned long *maxp, bool alloc)
{
	void *root = mt_root_locked(mt);
	unsigned long below = ULONG_MAX, max = ULONG_MAX;
	const unsigned char npiv = alloc ? MAPLE_ARANGE64_SLOTS - 1 :
					   MAPLE_RANGE64_SLOTS - 1;
	struct maple_enode *enode;
	unsigned long *pivots, *p;
	struct maple_node *node;

	if (unlikely(!xa_is_node(root)))
		return NULL;
	enode = mte_safe_root(root);
	/* The type is in the pointer: internal levels, then the leaf. */
	while (!mte_is_leaf(enode)) {
		node = mte_to_node(enode);
		pivots = (unsigned long *)node + 1;
		p = ma_find_pivot(node, npiv, index, false);
		below = p != pivots ? p[-1] : below;
		max = p != pivots + npiv ? p[0] : max;
		enode = mt_slot_locked(mt, (void __rcu **)(p + npiv), 0);
	}
	*minp = below + 1;
	*maxp = max;
	return mte_to_node(enode);
}

/* ------------------------------------------------------------------------
 * Writes inside one leaf
 *
 * Most writes to a VMA tree change one leaf and leave it neither over full
 * nor under half full: mmap() splits a NULL range, munmap() merges one back,
 * brk() moves one boundary.  They are done without the planning machinery
 * above, as one of
 *  - a single store (see mt_leaf_single_kind()): one slot changes, a
 *    single pointer store, or one boundary moves and no entry changes, a
 *    single pivot store (in RCU mode too: see mt_seam_move());
 *  - MT_STORE_REWRITE: anything else, the leaf's new contents gathered in
 *    a struct mt_leaf_wr and written in place outside RCU mode, or a new
 *    leaf published with one rcu_assign_pointer();
 *  - MT_STORE_SPLIT_LAST: outside RCU mode, in a plain tree or a bulk load,
 *    an append that overflows the last leaf: the leaf keeps the first
 *    sixteen slots in place and one new leaf takes the rest, added at the
 *    end of the parent (ascending stores after mas_expected_entries() so
 *    take one node per leaf).
 * A write that leaves the leaf, overflows it (but for the last leaf, as
 * above), takes it under half full or puts a new NULL at its edge next to
 * a NULL in the neighbour leaf is left to the full write path.  Here: the
 * leaf a write starts from; then the classification, then the stores.
 */

/*
 * The boundary between slots @at and @at + 1 of a leaf: all that a moved
 * boundary looks at.  Slot @at is [@lo, @hi] and holds @cur, slot @at + 1
 * is [@hi + 1, @next_hi] and holds @next.
 */
struct mt_seam {
	unsigned long lo, hi, next_hi;
	void *cur, *next;
};

/*
 * What mas_wr_kind() finds for carrying a write out, besides its kind:
 *  - a single store: its slot, @at (for a move, the slot before the
 *    boundary), and for a move the boundary as it is (@seam);
 *  - MT_STORE_REWRITE and MT_STORE_SPLIT_LAST: the old slots @at (k)
 *    to @m the range replaces, slot k's first and slot m's last index,
 *    the entry at the range's first index, the leaf's last used slot
 *    and the slots of its new contents.
 */
struct mt_wr_plan {
	unsigned char at, m, end, count;
	union {
		struct mt_seam seam;
		struct {
			unsigned long first_k, last_m;
			void *content;
		};
	};
};

struct mt_leaf_wr {
	/*
	 * What mt_leaf_plan() found: the old slots p.at (k) to p.m replaced,
	 * slot k's first index and slot m's last, what was at the first
	 * index, the leaf's last used slot now and the slots of the new
	 * contents (a split sets p.count for each half).
	 */
	struct mt_wr_plan p;
	struct maple_node *node;	/* the leaf */
	unsigned long min, max;		/* its bounds */
	unsigned char at;		/* the slot of the entry, once gathered */
	enum mt_store_kind kind;	/* REWRITE or SPLIT_LAST */
	/* The stored range; once gathered, with the NULLs it merged. */
	unsigned long first, last;
	unsigned long gap;		/* largest NULL range of the new leaf */
	void *entry;			/* the entry stored */
	unsigned long pivot[MAPLE_RANGE64_SLOTS + 2];
	void *slot[MAPLE_RANGE64_SLOTS + 2];
};

/* Walk from the root to the leaf holding mas->index; NULL if none. */
static struct maple_node *mas_wr_descend(struct ma_state *mas)
{
	struct maple_tree *mt = mas->tree;

	if (mt_is_alloc(mt))
		return mt_descend_locked(mt, mas->index, &mas->min, &mas->max,
				       true);
	return mt_descend_locked(mt, mas->index, &mas->min, &mas->max, false);
}

/*
 * Whether @mas stands on a leaf that holds mas->index, where a walk, an
 * iteration, mas_preallocate() or a single store left it.  Walked under
 * the tree lock, with no write since but single stores into that leaf
 * (see "Maple states across writes" in
 * Documentation/core-api/maple_tree.rst), the leaf is live and its bounds
 * are mas->min and mas->max: a write starts there, as Linux's writes
 * start from an active state.
 *
 * Always inlined: without, brk_cycle 1.0% more instructions (callgrind).
 */
static __always_inline bool mas_wr_at_leaf(struct ma_state *mas)
{
	return mas_is_active(mas) && mte_is_leaf(mas->node) &&
	       mas->min <= mas->index && mas->index <= mas->max;
}

/*
 * Point @mas at the leaf holding mas->index, and mas->offset at its slot;
 * false if there is none.
 */
static inline bool mas_wr_to_leaf(struct ma_state *mas)
{
	struct maple_node *node;

	if (mas_wr_at_leaf(mas)) {
		node = mte_to_node(mas->node);
	} else {
		node = mas_wr_descend(mas);
		if (!node)
			return false;
		mas_set_node(mas, mt_mk_node(node, maple_leaf_64));
	}
	/*
	 * Found again even in the leaf the state stands on: the caller may
	 * have moved the range within it since (__mas_set_range() after
	 * mas_preallocate()), and the single-store classification takes the
	 * slot as the one holding mas->index.
	 */
	mas->offset = ma_offset(node->mr64.pivot, maple_leaf_64, mas->index);
	return true;
}

/* ------------------------------------------------------------------------
 * Write classification
 *
 * Every write's kind (enum mt_store_kind) is worked out here, by
 * mas_wr_kind() alone: a single store, a one-leaf write, or a rebuild.
 */

/*
 * Read the seam after slot @at of @node, a leaf over [@min, @max]; false
 * if slot @at is the last used one (it ends at @max: unused pivots hold
 * @max too).
 */
static inline bool mt_seam_read(struct maple_tree *mt,
				struct maple_node *node,
				unsigned long min, unsigned long max,
				unsigned char at, struct mt_seam *s)
{
	unsigned long *pivots = node->mr64.pivot;
	void __rcu **slots = node->mr64.slot;

	if (at >= MAPLE_RANGE64_SLOTS - 1)
		return false;
	s->hi = pivots[at];
	if (s->hi == max)
		return false;
	s->lo = at ? pivots[at - 1] + 1 : min;
	s->next_hi = at < MAPLE_RANGE64_SLOTS - 2 ? pivots[at + 1] : max;
	s->cur = mt_slot_locked(mt, slots, at);
	s->next = mt_slot_locked(mt, slots, at + 1);
	return true;
}

/*
 * Whether the range next to the leaf over [@min, @max], before it or
 * (@after) after it, holds an entry: a NULL put at the leaf's edge then
 * stays a range of its own, where a NULL there would have to merge with
 * it across the leaves.  Nothing lies beyond the tree's first and last
 * index.  Rare (a NULL at a leaf's edge), so a walk from the root.
 *
 * Never inlined: inlined, it adds 48 to 64 bytes to the frame of every store
 * API and 1 KB of text.
 */
static noinline bool mt_leaf_beside_used(struct maple_tree *mt,
					 unsigned long min, unsigned long max,
					 bool after)
{
	MA_STATE(mas, mt, 0, 0);

	if (after ? max == ULONG_MAX : !min)
		return true;
	mas.index = after ? max + 1 : min - 1;
	mas.last = mas.index;
	return mas_leaf_walk(&mas);
}

/*
 * Whether a NULL stored over exactly slot @at, [@lo, @hi], of a leaf over
 * [@min, @max] stands alone: entries on both sides, in the leaf or beside
 * it.
 */
static inline bool mt_leaf_null_alone(struct maple_tree *mt,
				      struct maple_node *node,
				      unsigned long min,
				      unsigned long max,
				      unsigned char at,
				      unsigned long hi)
{
	void __rcu **slots = node->mr64.slot;

	if (at ? !mt_slot_locked(mt, slots, at - 1) :
		 !mt_leaf_beside_used(mt, min, max, false))
		return false;
	/* Slot @at ends at @max only if it is the last used one. */
	if (hi != max)
		return mt_slot_locked(mt, slots, at + 1);
	return mt_leaf_beside_used(mt, min, max, true);
}

/*
 * The single stores that leave a slot empty or fill an empty one, in RCU
 * mode (outside it a rewrite in place keeps leaves free of empty slots),
 * in a leaf that is not the root; slot k [@lo, @hi] holds mas->index:
 *  - MT_STORE_VACATE: a NULL over exactly slot k's entry, slots k - 1 and
 *    k + 1 in the leaf and not empty, at least one of them NULL: slot k
 *    gets NULL, then the boundary between it and the NULL beside it moves
 *    over it, which leaves it empty (munmap() of a VMA beside a gap); with
 *    NULLs on both sides, slot k's pivot moves up to slot k + 1's, then
 *    slot k - 1's to the same, which leaves both empty (an isolated VMA);
 *  - MT_STORE_FILL: an entry over the tail of slot k's NULL with slot
 *    k + 1 empty or past the end, or over its head with slot k - 1 empty:
 *    the boundary between them moves to the entry's edge, then the empty
 *    slot gets the entry (mmap() beside a VMA, an append); an entry inside
 *    the NULL takes the two empty slots after it: slot k's pivot moves
 *    down to the entry's start, slot k + 1's to its end, then slot k + 1
 *    gets the entry (mmap() into a gap, brk() of an isolated heap).
 * With one pivot, every index the two stores change is in one slot's
 * range before and the seam's afterwards, and each of the four
 * combinations of old and new values a reader can load is a state the
 * tree had.  With two pivots a reader could pair an entry with bounds of
 * another moment: the stores are ordered for the readers' checks (see
 * mas_wr_empty_store()).  Sets @p->at to the slot before the seam, @p->seam
 * to the seam's NULL range split at pivot @p->at (for a vacate, with the
 * entry), @p->m to the slot whose entry changes and @p->count to the
 * pivots that move.
 *
 * Always inlined: without, mmap1 runs 3.0% more instructions (callgrind).
 */
static __always_inline enum mt_store_kind
mt_leaf_empty_kind(const struct ma_state *mas, void *entry, unsigned long lo,
		   unsigned long hi, struct mt_wr_plan *p)
{
	struct maple_tree *mt = mas->tree;
	struct maple_node *node = mte_to_node(mas->node);
	unsigned long *pivots = node->mr64.pivot;
	void __rcu **slots = node->mr64.slot;
	unsigned long max = mas->max;
	unsigned char k = mas->offset;
	struct mt_seam *s = &p->seam;
	void *content = mt_slot_locked(mt, slots, k);
	bool at_head, at_tail;

	if (ma_is_root(node))
		return MT_STORE_NONE;
	if (!entry) {
		if (!content || mas->index != lo || mas->last != hi ||
		    lo == mas->min || hi == max ||
		    ma_leaf_slot_empty(pivots, k - 1, max) ||
		    ma_leaf_slot_empty(pivots, k + 1, max))
			return MT_STORE_NONE;
		s->cur = mt_slot_locked(mt, slots, k - 1);
		s->next = mt_slot_locked(mt, slots, k + 1);
		if (s->cur && s->next)
			return MT_STORE_NONE;
		p->m = k;
		p->count = 1;
		if (!s->cur && !s->next) {
			/*
			 * NULLs on both sides: slot k - 1 takes all three.  If
			 * the NULL after reaches the leaf's end, the leaf's
			 * used slots shrink to k: not under the fill below
			 * which a leaf is merged.
			 */
			p->at = k - 1;
			p->count = 2;
			s->lo = ma_pivot_min(pivots, k - 1, mas->min);
			s->hi = lo - 1;
			s->next_hi = ma_pivot_max(pivots, maple_leaf_64, k + 1,
						  max);
			s->next = content;
			if (s->next_hi == max && max != ULONG_MAX &&
			    k < mt_min_slots[maple_leaf_64])
				return MT_STORE_NONE;
		} else if (!s->cur) {
			p->at = k - 1;
			s->lo = ma_pivot_min(pivots, k - 1, mas->min);
			s->hi = lo - 1;
			s->next_hi = hi;
			s->next = content;
		} else {
			p->at = k;
			s->lo = lo;
			s->hi = hi;
			s->next_hi = ma_pivot_max(pivots, maple_leaf_64, k + 1,
						  max);
			s->cur = content;
		}
		return MT_STORE_VACATE;
	}
	/* A fill takes the NULL's head, its tail or its inside, not all of it. */
	at_head = mas->index == lo;
	at_tail = mas->last == hi;
	if (content || mas->last > hi || (at_head && at_tail))
		return MT_STORE_NONE;
	s->cur = NULL;
	s->next = NULL;
	p->count = 1;
	if (!at_head && !at_tail) {
		/* Inside the NULL: the two slots after it take entry, tail. */
		if (k + 2 >= MAPLE_RANGE64_SLOTS ||
		    !ma_leaf_slot_empty(pivots, k + 1, max) ||
		    !ma_leaf_slot_empty(pivots, k + 2, max))
			return MT_STORE_NONE;
		p->at = k;
		p->m = k + 1;
		p->count = 2;
		s->lo = lo;
		s->hi = hi;
		s->next_hi = hi;
	} else if (at_tail) {
		if (k + 1 >= MAPLE_RANGE64_SLOTS ||
		    !ma_leaf_slot_empty(pivots, k + 1, max))
			return MT_STORE_NONE;
		p->at = k;
		p->m = k + 1;
		s->lo = lo;
		s->hi = hi;
		s->next_hi = hi;
	} else {
		if (!k || !ma_leaf_slot_empty(pivots, k - 1, max))
			return MT_STORE_NONE;
		p->at = k - 1;
		p->m = k - 1;
		s->lo = lo;
		s->hi = lo - 1;
		s->next_hi = hi;
	}
	return MT_STORE_FILL;
}

/* A root leaf of one or two ranges may have to give way to no node. */
static inline bool mt_leaf_root_few(struct maple_node *node,
				    unsigned long max)
{
	return unlikely(ma_is_root(node)) &&
	       ma_data_end(node, maple_leaf_64, max) < 2;
}

/*
 * The writes that are one store into the leaf as it is, the single
 * stores, at slot @at:
 *  - MT_STORE_SLOT: the exact range of slot @at gets a new entry;
 *  - MT_STORE_MOVE_UP: pivot @at moves up to mas->last, slot @at's entry
 *    taking the head of slot @at + 1 (brk() growing; or a NULL over the
 *    head of a slot after a NULL);
 *  - MT_STORE_MOVE_DOWN: pivot @at moves down to mas->index - 1, slot
 *    @at + 1's entry taking the tail of slot @at (a stack growing down; or
 *    a NULL over the tail of a slot before a NULL, brk() shrinking).
 * Adjacent non-NULL ranges never merge, so only a NULL may join a
 * neighbour it does not cover.
 *
 * This is the one place that decides whether the store of @entry over
 * [mas->index, mas->last] into the leaf @mas stands on (mas->offset its
 * slot k holding mas->index) is a single store and which: its kind
 * (MT_STORE_NONE if none), its slot in @p->at and, for a boundary move, the
 * seam in @p->seam (as mt_seam_read() would read it).  Where the range
 * starts and ends against slot k [lo, hi] leaves one kind to check: from
 * lo, the exact slot (SLOT), the slot and the head of the next (MOVE_UP at
 * k) or, for a NULL after a NULL, the head of the slot (MOVE_UP at k - 1);
 * from inside the slot, its tail, with the next slot for the next slot's
 * entry (MOVE_DOWN).
 *
 * Always inlined: without, brk_cycle 21%, overwrite_gfp 14%, overwrite 10%,
 * mmap_cycle 5.8% more instructions (callgrind).
 */
static __always_inline enum mt_store_kind
mt_leaf_single_kind(const struct ma_state *mas, void *entry,
		    struct mt_wr_plan *p)
{
	struct maple_tree *mt = mas->tree;
	struct maple_node *node = mte_to_node(mas->node);
	unsigned long index = mas->index, last = mas->last;
	unsigned long min = mas->min, max = mas->max;
	unsigned long *pivots = node->mr64.pivot;
	void __rcu **slots = node->mr64.slot;
	unsigned char k = mas->offset;
	struct mt_seam *s = &p->seam;
	unsigned long lo, hi, next_hi;
	enum mt_store_kind kind = MT_STORE_NONE;

	p->at = k;
	lo = ma_pivot_min(pivots, k, min);
	hi = ma_pivot_max(pivots, maple_leaf_64, k, max);
	if (index == lo) {
		if (last == hi) {
			if (entry ||
			    mt_leaf_null_alone(mt, node, min, max, k, hi))
				kind = MT_STORE_SLOT;
		} else if (last < hi) {
			if (k && !entry && !mt_slot_locked(mt, slots, k - 1) &&
			    !ma_leaf_slot_empty(pivots, k - 1, max)) {
				kind = MT_STORE_MOVE_UP;
				p->at = k - 1;
				/* The seam after slot k - 1: slot k is next. */
				s->lo = ma_pivot_min(pivots, k - 1, min);
				s->hi = lo - 1;
				s->next_hi = hi;
				s->cur = NULL;
				s->next = mt_slot_locked(mt, slots, k);
			}
		} else if (hi != max && entry == mt_slot_locked(mt, slots, k)) {
			/* hi < max: slot k is not the last, k < 15. */
			next_hi = k < MAPLE_RANGE64_SLOTS - 2 ? pivots[k + 1] :
								max;
			if (last < next_hi) {
				kind = MT_STORE_MOVE_UP;
				s->lo = lo;
				s->hi = hi;
				s->next_hi = next_hi;
				s->cur = entry;
				s->next = mt_slot_locked(mt, slots, k + 1);
			}
		}
	} else if (hi != max && entry == mt_slot_locked(mt, slots, k + 1) &&
		   !ma_leaf_slot_empty(pivots, k + 1, max)) {
		next_hi = k < MAPLE_RANGE64_SLOTS - 2 ? pivots[k + 1] : max;
		if (last == next_hi || (!entry && last == hi)) {
			kind = MT_STORE_MOVE_DOWN;
			s->lo = lo;
			s->hi = hi;
			s->next_hi = next_hi;
			s->cur = mt_slot_locked(mt, slots, k);
			s->next = entry;
		}
	}
	if (IS_ENABLED(CONFIG_DEBUG_MAPLE_TREE) &&
	    (kind == MT_STORE_MOVE_UP || kind == MT_STORE_MOVE_DOWN)) {
		struct mt_seam read;

		/* The seam handed over is the one the move will change. */
		WARN_ON(!mt_seam_read(mt, node, min, max, p->at, &read) ||
			read.lo != s->lo || read.hi != s->hi ||
			read.next_hi != s->next_hi || read.cur != s->cur ||
			read.next != s->next);
	}
	if (kind == MT_STORE_NONE && mt_wr_in_rcu(mt))
		kind = mt_leaf_empty_kind(mas, entry, lo, hi, p);
	return kind;
}

/*
 * Whether slots 1..@end - 1 of a leaf include an empty one (left from RCU
 * mode): a split would have to keep it off either half's edge.
 */
static bool mt_leaf_has_empty(const unsigned long *pivots, unsigned char end)
{
	unsigned char i;

	for (i = 1; i < end; i++)
		if (pivots[i] == pivots[i - 1])
			return true;
	return false;
}

/*
 * The last leaf of the tree, @node, may hold fewer than half its slots
 * (@count), as long as it and its left sibling would not fit one node (the
 * full write path folds them together then).
 */
static bool mt_leaf_may_shrink(struct maple_tree *mt, struct maple_node *node,
			       unsigned long max, unsigned char count)
{
	struct maple_node *parent, *sibling;
	unsigned char offset;
	unsigned long *pivots;
	void *enode;

	if (max != ULONG_MAX)
		return false;
	parent = ma_parent(node);
	offset = ma_parent_slot(node);
	if (!offset)
		return false;
	pivots = ma_pivots(parent, mt_internal_type(mt));
	enode = mt_slot_locked(mt, ma_slots(parent, mt_internal_type(mt)),
			       offset - 1);
	sibling = mte_to_node(enode);
	return ma_data_end(sibling, maple_leaf_64, pivots[offset - 1]) + 1 +
		count > MAPLE_RANGE64_SLOTS;
}

/*
 * Outside RCU mode the last leaf of the tree, @node, may overflow into a
 * new leaf of its own when the parent has a free slot after it: the common
 * case of ascending stores.  Anything else that overflows goes the full
 * way.
 */
static bool mt_leaf_may_split_last(struct ma_state *mas,
				   struct maple_node *node, unsigned long max)
{
	struct maple_tree *mt = mas->tree;
	enum maple_type ptype = mt_internal_type(mt);
	struct maple_node *parent;
	unsigned char end;

	if (mt_in_rcu(mt) || max != ULONG_MAX || ma_is_root(node))
		return false;
	/* Allocation trees fill their last leaves as 6.1 does, but in bulk. */
	if (mt_is_alloc(mt) && !(mas->mas_flags & MA_STATE_BULK))
		return false;
	parent = ma_parent(node);
	if (ptype == maple_arange_64)
		end = parent->ma64.meta.end;
	else
		end = ma_data_end(parent, ptype, ULONG_MAX);
	return end + 1 < mt_slots[ptype];
}

/*
 * The kind of the store of @entry over [mas->index, mas->last], which is
 * no single store, in the leaf mas stands on: MT_STORE_REWRITE or
 * MT_STORE_SPLIT_LAST with what mt_leaf_gather() needs to build the new
 * contents in @p, or MT_STORE_REBUILD if the leaf cannot take it alone.
 * Inlined in the two out-of-line places that need it, mas_preallocate()
 * and mas_wr_leaf(): the single stores, far more common, do not carry it.
 *
 * Always inlined: without, mmap_cycle 6.1% more instructions (callgrind).
 */
static __always_inline enum mt_store_kind
mt_leaf_plan(struct ma_state *mas, void *entry, struct mt_wr_plan *p)
{
	struct maple_tree *mt = mas->tree;
	unsigned long index = mas->index, last = mas->last;
	unsigned long min = mas->min, max = mas->max;
	struct maple_node *node;
	unsigned long *pivots, first_k, last_m;
	void __rcu **slots;
	unsigned char k, m, end, n;

	if (last > max)
		return MT_STORE_REBUILD;
	k = mas->offset;
	node = mte_to_node(mas->node);
	pivots = node->mr64.pivot;
	slots = node->mr64.slot;
	end = ma_data_end(node, maple_leaf_64, max);

	/*
	 * The new contents: slots 0..k-1, the head of slot k, the entry, the
	 * tail of slot m, slots m+1..end; a NULL entry absorbs NULLs beside
	 * it (old NULLs are never adjacent).
	 */
	first_k = ma_pivot_min(pivots, k, min);
	last_m = ma_pivot_max(pivots, maple_leaf_64, k, max);
	p->content = mt_slot_locked(mt, slots, k);
	/* Mostly the range ends in the slot it starts in: no search then. */
	m = k;
	if (last > last_m) {
		m = ma_offset(pivots, maple_leaf_64, last);
		last_m = ma_pivot_max(pivots, maple_leaf_64, m, max);
	}
	/*
	 * Empty slots are copied as they are, but one beside the write
	 * would take part in its NULL merges: the rebuild drops them.
	 */
	if ((k && ma_leaf_slot_empty(pivots, k - 1, max)) ||
	    (m < end && ma_leaf_slot_empty(pivots, m + 1, max)))
		return MT_STORE_REBUILD;
	n = k + (index > first_k) + 1 + (last < last_m) + (end - m);
	if (!entry) {
		if (index > first_k ? !p->content :
		    k && !mt_slot_locked(mt, slots, k - 1))
			n--;
		if (last < last_m ? !mt_slot_locked(mt, slots, m) :
		    m < end && !mt_slot_locked(mt, slots, m + 1))
			n--;
		/*
		 * A new NULL at an edge would have to merge with a NULL
		 * beside the leaf.
		 */
		if (!k && index == first_k && mt_slot_locked(mt, slots, 0) &&
		    !mt_leaf_beside_used(mt, min, max, false))
			return MT_STORE_REBUILD;
		if (m == end && last == last_m &&
		    mt_slot_locked(mt, slots, end) &&
		    !mt_leaf_beside_used(mt, min, max, true))
			return MT_STORE_REBUILD;
	}
	if (n > MAPLE_RANGE64_SLOTS &&
	    (!mt_leaf_may_split_last(mas, node, max) ||
	     mt_leaf_has_empty(pivots, end)))
		return MT_STORE_REBUILD;
	/*
	 * A root leaf of one or two ranges may have to give way to no node;
	 * a leaf that falls under half full may have to merge.
	 */
	if (ma_is_root(node) ? n < 3 :
	    n <= end && n < mt_min_slots[maple_leaf_64] &&
	    !mt_leaf_may_shrink(mt, node, max, n))
		return MT_STORE_REBUILD;
	p->at = k;
	p->m = m;
	p->end = end;
	p->count = n;
	p->first_k = first_k;
	p->last_m = last_m;
	return n > MAPLE_RANGE64_SLOTS ? MT_STORE_SPLIT_LAST : MT_STORE_REWRITE;
}

/*
 * The first half of the classification: the walk to the leaf that holds
 * mas->index, which the state is left on, and the single stores.
 * MT_STORE_NONE if the write is none (mt_leaf_plan() goes on from there);
 * MT_STORE_REBUILD if the tree has no node.
 *
 * A rewrite mas_preallocate() recorded outside RCU mode goes straight to
 * the leaf's plan: a rewrite in place does any write inside the leaf, so
 * the record cannot mislead even if the range is not the one prepared.
 * In RCU mode a rewrite replaces the leaf where a single store keeps it,
 * and a state parked on the leaf may rely on that (see "Maple states
 * across writes" in Documentation/core-api/maple_tree.rst): the store
 * classifies its own range there.
 *
 * Always inlined: without, overwrite_gfp 16%, brk_cycle 14%, overwrite 12%,
 * mmap_cycle 8.1% more instructions (callgrind).
 */
static __always_inline enum mt_store_kind
mas_wr_single_kind(struct ma_state *mas, void *entry, struct mt_wr_plan *p)
{
	enum mt_store_kind recorded = mas_kind(mas);

	mas->mas_flags &= ~MA_STATE_KIND;
	if (!mas_wr_to_leaf(mas))
		return MT_STORE_REBUILD;
	if ((recorded == MT_STORE_REWRITE || recorded == MT_STORE_SPLIT_LAST) &&
	    !mt_wr_in_rcu(mas->tree))
		return MT_STORE_NONE;
	/* A root leaf of few ranges has no single store: see below. */
	if (mt_leaf_root_few(mte_to_node(mas->node), mas->max))
		return MT_STORE_NONE;
	return mt_leaf_single_kind(mas, entry, p);
}

/*
 * The one classification of a write: the kind of the store of @entry over
 * [mas->index, mas->last] (see enum mt_store_kind), worked out from the
 * leaf that holds mas->index; what carrying it out needs goes to @p.
 * mas_wr_store() takes the same two steps, the second inside the
 * out-of-line mas_wr_leaf().
 */
static inline enum mt_store_kind
mas_wr_kind(struct ma_state *mas, void *entry, struct mt_wr_plan *p)
{
	enum mt_store_kind kind = mas_wr_single_kind(mas, entry, p);

	if (kind != MT_STORE_NONE)
		return kind;
	return mt_leaf_plan(mas, entry, p);
}

/* ------------------------------------------------------------------------
 * Store kinds carried out
 *
 * The single stores, the one-leaf writes (in place, a copy under RCU,
 * a split of the last leaf), and the rebuild's entry (mas_wr_store_slow(),
 * see "Rebuilding writes" above).
 */

/*
 * Where a one-leaf write gathers the new contents: the arrays of struct
 * mt_leaf_wr (an in-place rewrite, a split: up to MAPLE_RANGE64_SLOTS + 2
 * ranges) or straight into the arrays of a new leaf (a copy under RCU).
 * A @full leaf does not store its last slot's pivot (the leaf's maximum):
 * pivot[MAPLE_RANGE64_SLOTS - 1] would be slot[0].
 */
static inline void mt_out_set_pivot(unsigned long *pv,
				    unsigned char i,
				    unsigned long pivot, bool full)
{
	if (!full || i < MAPLE_RANGE64_SLOTS - 1)
		pv[i] = pivot;
}

static inline unsigned long mt_out_pivot(const unsigned long *pv,
					 unsigned char i,
					 unsigned long max, bool full)
{
	return full && i >= MAPLE_RANGE64_SLOTS - 1 ? max : pv[i];
}

/* Append a range ending at @pivot; a NULL after a NULL widens that one. */
static inline void mt_out_push(unsigned long *pv, void **sl,
			       unsigned char *np, unsigned long pivot,
			       void *entry, bool full)
{
	unsigned char n = *np;

	if (!entry && n && !sl[n - 1]) {
		mt_out_set_pivot(pv, n - 1, pivot, full);
		return;
	}
	mt_out_set_pivot(pv, n, pivot, full);
	sl[n] = entry;
	*np = n + 1;
}

/* The largest NULL range of gathered slots [0, @to), the first at @start. */
static inline unsigned long
mt_out_gap_of(const unsigned long *pv, void *const *sl, unsigned char to,
	      unsigned long start, unsigned long max, bool full)
{
	unsigned long gap = 0, piv;
	unsigned char i;

	for (i = 0; i < to; i++) {
		piv = mt_out_pivot(pv, i, max, full);
		if (!sl[i] && piv - start + 1 > gap)
			gap = piv - start + 1;
		start = piv + 1;
	}
	return gap;
}

/* The same over the arrays of @lw. */
static unsigned long mt_leaf_wr_gap_of(const struct mt_leaf_wr *lw,
				       unsigned char to, unsigned long start)
{
	return mt_out_gap_of(lw->pivot, lw->slot, to, start, lw->max, false);
}

/*
 * The largest gap of a rewritten leaf (gathered in @lw, and into @pv and
 * @sl), from the gap its parent records: old slots k..m went, the ranges
 * around the entry are new (a NULL may have merged with slot k - 1 or
 * m + 1).  The rest of the leaf is looked at only when a range that went
 * held the largest gap and no new range is as large, unless the new one
 * dominates the leaf.
 *
 * Always inlined: without, mmap_cycle 1.7% more instructions (callgrind).
 */
static __always_inline unsigned long
mt_leaf_rewrite_gap(struct maple_tree *mt, struct mt_leaf_wr *lw,
		    const unsigned long *pv, void *const *sl, bool full)
{
	struct maple_node *node = lw->node;
	unsigned long *pivots = node->mr64.pivot;
	void __rcu **slots = node->mr64.slot;
	unsigned long pword = (unsigned long)node->parent;
	unsigned long old_gap, first, grown = 0;
	unsigned char i;
	bool shrunk = false;

	if (pword & MAPLE_PARENT_ROOT)
		return 0;	/* nobody records it */
	old_gap = mt_parent_gap(pword);
	first = lw->p.first_k;
	for (i = lw->p.at; i <= lw->p.m; i++) {
		unsigned long piv = ma_pivot_max(pivots, maple_leaf_64, i,
						 lw->max);

		if (!mt_slot_locked(mt, slots, i) && piv - first + 1 == old_gap)
			shrunk = true;
		first = piv + 1;
	}
	/*
	 * The new NULLs: a NULL entry with what it merged (the stored range
	 * as gathered), or the head of slot k and the tail of slot m left
	 * around an entry.
	 */
	if (!lw->entry) {
		grown = lw->last - lw->first + 1;
	} else {
		if (lw->first > lw->p.first_k && !lw->p.content)
			grown = lw->first - lw->p.first_k;
		if (lw->last < lw->p.last_m &&
		    !mt_slot_locked(mt, slots, lw->p.m))
			grown = max(grown, lw->p.last_m - lw->last);
	}
	if (grown >= old_gap || !shrunk)
		return max(grown, old_gap);
	if (grown >= (lw->max - lw->min + 1) - grown)
		return grown;
	return mt_out_gap_of(pv, sl, lw->p.count, lw->min, lw->max, full);
}

/* The rest of the one-leaf write of @kind that mt_leaf_plan() put in @lw. */
static inline void mt_leaf_wr_init(struct mt_leaf_wr *lw,
				   const struct ma_state *mas,
				   void *entry,
				   enum mt_store_kind kind)
{
	lw->node = mte_to_node(mas->node);
	lw->min = mas->min;
	lw->max = mas->max;
	lw->kind = kind;
	lw->first = mas->index;
	lw->last = mas->last;
	lw->entry = entry;
}

/*
 * Gather the new contents of a MT_STORE_REWRITE or _SPLIT_LAST into
 * @pv and @sl (see mt_out_set_pivot()), which already hold the leaf's
 * slots 0..k-1 and, @to_node, all its old slots: those that are no longer
 * used are cleared.  Sets the slot of the entry and the stored range.
 *
 * Always inlined: without, mmap_cycle 2.5% more instructions (callgrind).
 */
static __always_inline void mt_leaf_gather(struct maple_tree *mt,
					   struct mt_leaf_wr *lw,
					   unsigned long *pv, void **sl,
					   bool to_node, bool full)
{
	unsigned long *pivots = lw->node->mr64.pivot;
	void __rcu **slots = lw->node->mr64.slot;
	unsigned long index = lw->first, last = lw->last, max = lw->max;
	unsigned char i, n = lw->p.at, m = lw->p.m, end = lw->p.end, at;

	/* Old NULLs are never adjacent: only the seams can merge. */
	if (index > lw->p.first_k)
		mt_out_push(pv, sl, &n, index - 1, lw->p.content, full);
	mt_out_push(pv, sl, &n, last, lw->entry, full);
	at = n - 1;
	if (last < lw->p.last_m)
		mt_out_push(pv, sl, &n, lw->p.last_m,
			    mt_slot_locked(mt, slots, m), full);
	if (m < end) {
		i = m + 1;
		mt_out_push(pv, sl, &n, ma_pivot_max(pivots, maple_leaf_64, i,
						     max),
			    mt_slot_locked(mt, slots, i), full);
		for (i++; i <= end; i++, n++) {
			mt_out_set_pivot(pv, n,
					 ma_pivot_max(pivots, maple_leaf_64, i,
						      max), full);
			sl[n] = mt_slot_locked(mt, slots, i);
		}
	}
	WARN_ON_ONCE(IS_ENABLED(CONFIG_DEBUG_MAPLE_TREE) && n != lw->p.count);

	lw->at = at;
	lw->first = at ? mt_out_pivot(pv, at - 1, max, full) + 1 : lw->min;
	lw->last = mt_out_pivot(pv, at, max, full);
	mt_out_set_pivot(pv, n - 1, max, full);
	if (to_node) {
		for (i = n; i <= end; i++) {
			sl[i] = NULL;
			mt_out_set_pivot(pv, i, max, true);
		}
	}
}

/* Slots 0..MAPLE_RANGE64_SLOTS - 1 of the leaf @src, with their pivots. */
static inline void mt_leaf_copy_all(unsigned long *pv, void **sl,
				    struct maple_node *src)
{
	memcpy(pv, src->mr64.pivot, (MAPLE_RANGE64_SLOTS - 1) * sizeof(*pv));
	memcpy(sl, (void __force *)src->mr64.slot,
	       MAPLE_RANGE64_SLOTS * sizeof(*sl));
}

/*
 * The new contents of a MT_STORE_REWRITE, built in @new (a copy of the leaf
 * under RCU, nobody reads it yet) from the old leaf as it is; in an
 * allocation tree, with the gap.
 */
static void mt_leaf_build(struct maple_tree *mt, struct mt_leaf_wr *lw,
			  struct maple_node *new)
{
	unsigned long *pv = new->mr64.pivot;
	void **sl = (void __force **)new->mr64.slot;
	bool alloc = mt_wr_is_alloc(mt);

	mt_leaf_copy_all(pv, sl, lw->node);
	/* Mostly the new leaf is not full: no pivot needs a check then. */
	if (likely(lw->p.count < MAPLE_RANGE64_SLOTS)) {
		mt_leaf_gather(mt, lw, pv, sl, true, false);
		if (alloc)
			lw->gap = mt_leaf_rewrite_gap(mt, lw, pv, sl, false);
	} else {
		mt_leaf_gather(mt, lw, pv, sl, true, true);
		if (alloc)
			lw->gap = mt_leaf_rewrite_gap(mt, lw, pv, sl, true);
	}
}

/*
 * The node a write of @kind inside one leaf takes: one for the new leaf of
 * a split, and one to replace the leaf of a rewrite under RCU.  A single
 * store takes none.  A moved boundary is one pivot store, in RCU mode
 * too: no entry changes, the pivots keep their order, and a reader reads
 * each pivot once, so it sees a slot's range with either value of the
 * moved boundary.  A reader
 * that searched the pivots before the move and reads the slot's bounds
 * after it may find its index outside them; mas_walk_bounds() searches
 * again then.
 */
static inline bool mt_leaf_needs_node(struct maple_tree *mt,
				      enum mt_store_kind kind)
{
	return kind == MT_STORE_SPLIT_LAST ||
	       (kind == MT_STORE_REWRITE && mt_wr_in_rcu(mt));
}

/* Write the new contents into @node, a new node or the leaf itself. */
static void mt_leaf_fill(struct maple_node *node, const struct mt_leaf_wr *lw)
{
	unsigned long *pivots = node->mr64.pivot;
	void __rcu **slots = node->mr64.slot;
	unsigned char i, n = lw->p.count;

	/*
	 * Plain copies: nobody reads @node yet (a new node) or beside us
	 * (outside RCU mode).  Whole arrays, a size the compiler copies
	 * with a few vector moves, then the unused tail set right.
	 */
	memcpy((void __force *)slots, lw->slot,
	       MAPLE_RANGE64_SLOTS * sizeof(*slots));
	memcpy(pivots, lw->pivot, (MAPLE_RANGE64_SLOTS - 1) * sizeof(*pivots));
	for (i = n; i < MAPLE_RANGE64_SLOTS; i++)
		RCU_INIT_POINTER(slots[i], NULL);
	for (i = n; i < MAPLE_RANGE64_SLOTS - 1; i++)
		pivots[i] = lw->max;
}

/*
 * MT_STORE_SPLIT_LAST: the leaf keeps the first slots in place, @new takes
 * the rest and goes into the parent's next slot; no reader runs beside us.
 */
static void mt_leaf_split_last(struct maple_tree *mt, struct mt_leaf_wr *lw,
			       struct maple_node *new)
{
	struct maple_node *node = lw->node, *parent = ma_parent(node);
	enum maple_type ptype = mt_internal_type(mt);
	unsigned char offset = ma_parent_slot(node), n = lw->p.count, left, i;
	unsigned long *ppivots = ma_pivots(parent, ptype), split;
	struct mt_leaf_wr part = { .max = ULONG_MAX };

	left = MAPLE_RANGE64_SLOTS;
	/* See mt_wr_split(): not a last leaf of only the trailing NULL. */
	if (ptype == maple_arange_64 && n - left == 1)
		left--;
	split = lw->pivot[left - 1];

	part.p.count = n - left;
	for (i = 0; i < part.p.count; i++) {
		part.pivot[i] = lw->pivot[left + i];
		part.slot[i] = lw->slot[left + i];
	}
	mt_leaf_fill(new, &part);
	mt_set_parent(new, parent, offset + 1);

	lw->p.count = left;
	lw->max = split;
	mt_leaf_fill(node, lw);

	if (offset < mt_pivots[ptype])
		ppivots[offset] = split;
	RCU_INIT_POINTER(ma_slots(parent, ptype)[offset + 1],
			 mt_mk_node(new, maple_leaf_64));
	if (ptype == maple_arange_64) {
		unsigned long *gaps = parent->ma64.gap;
		unsigned char max_off;

		gaps[offset] = mt_leaf_wr_gap_of(lw, left, lw->min);
		gaps[offset + 1] = mt_leaf_wr_gap_of(&part, part.p.count,
						     split + 1);
		parent->ma64.meta.end = offset + 1;
		ma_max_gap(gaps, offset + 1, &max_off);
		parent->ma64.meta.gap = max_off;
		mt_gap_push_up(parent, gaps[max_off]);
	}
}

/*
 * The largest gap of a leaf over [@min, @max] after a single store changed
 * one NULL range from @was to @now indices (0: not NULL), given its largest
 * gap before, @old_gap, where that needs no look at the leaf: false if only
 * the leaf's other NULL ranges can tell (its largest NULL range shrank or
 * went and the new one does not dominate the leaf).
 */
static inline bool mt_leaf_gap_after_known(unsigned long min,
					   unsigned long max,
					   unsigned long old_gap,
					   unsigned long was,
					   unsigned long now,
					   unsigned long *gap)
{
	/*
	 * A NULL range larger than half the leaf (brk() beside the top of
	 * the address space) is the largest: two NULL ranges are disjoint.
	 */
	if (now >= old_gap || now >= (max - min + 1) - now)
		*gap = now;
	else if (was < old_gap)
		*gap = old_gap;
	else
		return false;
	return true;
}

/*
 * The same, looking at the leaf @node where it must.
 *
 * Always inlined: without, brk_cycle 2.4% more instructions (callgrind).
 */
static __always_inline unsigned long
mt_leaf_gap_after(struct maple_node *node, unsigned long min,
		  unsigned long max, unsigned long old_gap, unsigned long was,
		  unsigned long now)
{
	unsigned long gap;

	if (mt_leaf_gap_after_known(min, max, old_gap, was, now, &gap))
		return gap;
	return mt_leaf_gap(node->mr64.slot, node->mr64.pivot, maple_leaf_64,
			   ma_data_end(node, maple_leaf_64, max), min, max);
}

/*
 * One NULL range of the leaf @node over [@min, @max] changed from @was to
 * @now indices (0: not NULL): in an allocation tree, the leaf's gap and
 * its ancestors' follow.
 *
 * Always inlined: without, brk_cycle 1.7% more instructions (callgrind).
 */
static __always_inline void mt_leaf_gap_changed(struct maple_tree *mt,
						struct maple_node *node,
						unsigned long min,
						unsigned long max,
						unsigned long was,
						unsigned long now)
{
	unsigned long pword;

	if (was == now || !mt_wr_is_alloc(mt))
		return;
	/* One plain read of the parent word: only writers change it. */
	pword = (unsigned long)node->parent;
	if (pword & MAPLE_PARENT_ROOT)
		return;
	mt_gap_push_from(pword, mt_leaf_gap_after(node, min, max,
						  mt_parent_gap(pword), was,
						  now));
}

/*
 * Move the boundary of seam @s, after slot @at of the leaf @mas stands on,
 * to @piv: one pivot store (see mt_leaf_needs_node()).
 *
 * Always inlined: without, brk_cycle 8.3%, overwrite_gfp 2.9%, overwrite 2.2%
 * more instructions (callgrind).
 */
static __always_inline void mt_seam_move(const struct ma_state *mas,
					 unsigned char at,
					 const struct mt_seam *s,
					 unsigned long piv)
{
	struct maple_tree *mt = mas->tree;
	struct maple_node *node = mte_to_node(mas->node);
	unsigned long min = mas->min, max = mas->max;

	WRITE_ONCE(node->mr64.pivot[at], piv);
	/* Two NULLs are never neighbours: at most one side is NULL. */
	if (!s->cur)
		mt_leaf_gap_changed(mt, node, min, max, s->hi - s->lo + 1,
				    piv - s->lo + 1);
	else if (!s->next)
		mt_leaf_gap_changed(mt, node, min, max, s->next_hi - s->hi,
				    s->next_hi - piv);
}

/*
 * Carry out the single stores (see mt_leaf_single_kind()) on the leaf mas
 * stands on, the kind known to fit its range and entry.  Each leaves
 * mas->index and mas->last at the range stored (a NULL's, with the NULL it
 * joined), pauses the state and returns what was at mas->index.
 */

/*
 * MT_STORE_SLOT: @entry into slot @at, a single pointer store.
 *
 * Always inlined: without, overwrite_gfp 11%, overwrite 8.0% more instructions
 * (callgrind).
 */
static __always_inline void *mas_wr_slot_store(struct ma_state *mas,
					       unsigned char at, void *entry)
{
	struct maple_node *node = mte_to_node(mas->node);
	unsigned long min = mas->min, max = mas->max;
	void __rcu **slots = node->mr64.slot;
	unsigned long size;
	void *content;

	content = mt_slot_locked(mas->tree, slots, at);
	rcu_assign_pointer(slots[at], entry);
	mas_set_paused(mas);
	if (!content != !entry) {
		size = mas->last - mas->index + 1;
		mt_leaf_gap_changed(mas->tree, node, min, max,
				    content ? 0 : size, entry ? 0 : size);
	}
	return content;
}

/*
 * MT_STORE_MOVE_UP or _DOWN at seam @s (after slot @at): one pivot store.
 *
 * Always inlined: without, brk_cycle 9.3%, overwrite_gfp 2.4% more instructions
 * (callgrind).
 */
static __always_inline void *mas_wr_move_store(struct ma_state *mas,
					       enum mt_store_kind kind,
					       unsigned char at,
					       const struct mt_seam *s)
{
	unsigned long index = mas->index, piv;
	void *content;

	if (kind == MT_STORE_MOVE_UP) {
		/* A NULL over the head of slot @at + 1 joins slot @at. */
		content = index == s->lo ? s->cur : s->next;
		piv = mas->last;
		mas->index = s->lo;
	} else {
		content = s->cur;
		piv = index - 1;
		mas->last = s->next_hi;
	}
	mt_seam_move(mas, at, s, piv);
	mas_set_paused(mas);
	return content;
}

/*
 * MT_STORE_VACATE or _FILL (see mt_leaf_empty_kind()): the slot @p->m
 * takes @entry (a NULL for a vacate) and @p->count pivots from @p->at
 * move.  A vacate stores the NULL first, a fill the entry last, so that an
 * empty slot never holds an entry.  When two pivots move, a reader could
 * otherwise pair old and new words wrongly:
 *  - a vacate between two NULLs moves slot k's pivot up over the NULL
 *    after it, so slot k then holds indices that were never the entry's:
 *    the smp_wmb() orders the NULL before that move, and readers load a
 *    slot's entry after its bounds, with an smp_rmb() between (see
 *    ma_read_slot()), so a reader whose bounds have the move sees the NULL;
 *  - a fill inside a NULL shrinks slot k + 1's range to the entry's
 *    before the entry is stored: rcu_assign_pointer() orders both pivots
 *    before the entry, and readers load the bounds again after the entry
 *    (after the smp_rmb() of their dead-node check) and walk again if they
 *    moved, so a reader that sees the entry reports it with its own
 *    bounds.
 */
static __always_inline void *mas_wr_empty_store(struct ma_state *mas,
						enum mt_store_kind kind,
						const struct mt_wr_plan *p,
						void *entry)
{
	struct maple_node *node = mte_to_node(mas->node);
	const struct mt_seam *s = &p->seam;
	unsigned long *pivots = node->mr64.pivot;
	void __rcu **slots = node->mr64.slot;
	unsigned long piv, was, now;
	void *content = NULL;

	if (kind == MT_STORE_VACATE) {
		content = mt_slot_locked(mas->tree, slots, p->m);
		/* The NULL beside the entry takes the whole seam. */
		was = s->cur ? s->next_hi - s->hi : s->hi - s->lo + 1;
		piv = s->cur ? s->lo - 1 : s->next_hi;
		now = s->next_hi - s->lo + 1;
		RCU_INIT_POINTER(slots[p->m], NULL);
		if (p->count == 2) {
			/* Pairs with the smp_rmb() in ma_leaf_read_entry(). */
			smp_wmb();
			WRITE_ONCE(pivots[p->at + 1], piv);
		}
		WRITE_ONCE(pivots[p->at], piv);
		mas->index = s->lo;
		mas->last = s->next_hi;
	} else {
		/* The seam is the NULL range, the empty slots beside it. */
		was = s->next_hi - s->lo + 1;
		if (p->count == 2) {
			WRITE_ONCE(pivots[p->at], mas->index - 1);
			piv = mas->last;
			now = max(mas->index - s->lo, s->next_hi - piv);
			WRITE_ONCE(pivots[p->at + 1], piv);
		} else if (p->m == p->at) {
			piv = mas->last;
			now = s->next_hi - piv;
			WRITE_ONCE(pivots[p->at], piv);
		} else {
			piv = mas->index - 1;
			now = piv - s->lo + 1;
			WRITE_ONCE(pivots[p->at], piv);
		}
		/*
		 * Orders the pivots before the entry: pairs with the smp_rmb()
		 * of the readers' dead-node check, after which they load the
		 * bounds again.
		 */
		rcu_assign_pointer(slots[p->m], entry);
	}
	mt_leaf_gap_changed(mas->tree, node, mas->min, mas->max, was, now);
	mas_set_paused(mas);
	return content;
}

/* Carry out a prepared one-leaf write; @new is a node if one is needed. */
static void mt_leaf_commit(struct maple_tree *mt, struct mt_leaf_wr *lw,
			   struct maple_node *new)
{
	struct maple_node *node = lw->node;
	bool alloc = mt_wr_is_alloc(mt);
	struct maple_enode *enode;

	if (lw->kind == MT_STORE_SPLIT_LAST) {
		mt_leaf_copy_all(lw->pivot, lw->slot, node);
		mt_leaf_gather(mt, lw, lw->pivot, lw->slot, false, false);
		mt_leaf_split_last(mt, lw, new);
		return;
	}
	/* A rewrite: the gap is worked out from the leaf before the store. */
	if (!new) {
		/* Nobody reads beside us: rewrite the leaf in place. */
		mt_leaf_copy_all(lw->pivot, lw->slot, node);
		mt_leaf_gather(mt, lw, lw->pivot, lw->slot, false, false);
		if (alloc)
			lw->gap = mt_leaf_rewrite_gap(mt, lw, lw->pivot,
						      lw->slot, false);
		mt_leaf_fill(node, lw);
	} else {
		mt_leaf_build(mt, lw, new);
		new->parent = node->parent;
		enode = mt_mk_node(new, maple_leaf_64);
		if (ma_is_root(node)) {
			rcu_assign_pointer(mt->ma_root, mte_mk_root(enode));
		} else {
			void __rcu **pslots = ma_slots(ma_parent(node),
						       mt_internal_type(mt));

			rcu_assign_pointer(pslots[ma_parent_slot(node)], enode);
		}
		mt_retire_node(mt, node);
		node = new;
	}
	if (alloc)
		mt_gap_push_up(node, lw->gap);
}

/*
 * The single store mas_preallocate() recorded, on the leaf it walked to:
 * the decider, mt_leaf_single_kind(), looks again at the range and the
 * entry as they are now (the caller may have moved the range with
 * __mas_set_range() since), without the walk.  False if the state left
 * that leaf or the write is no single store now: it goes the usual way,
 * from a new walk.
 *
 * Always inlined: without, brk_cycle 8.1% more instructions (callgrind).
 */
static __always_inline bool mas_wr_single_prepared(struct ma_state *mas,
						   void *entry,
						   void **content)
{
	struct mt_wr_plan plan;
	enum mt_store_kind kind;
	unsigned long *pivots;

	if (!mas_wr_at_leaf(mas)) {
		mas->mas_flags &= ~MA_STATE_PREPARED;
		return false;
	}
	/*
	 * A record serves the next store only, whichever way it goes.  The
	 * leaf is as it was, so it is still no root leaf of few ranges.
	 */
	mas->mas_flags &= ~MA_STATE_PREPARED;
	pivots = mte_to_node(mas->node)->mr64.pivot;
	/* Still the slot holding mas->index, unless the range moved. */
	if (mas->index < ma_pivot_min(pivots, mas->offset, mas->min) ||
	    mas->index > ma_pivot_max(pivots, maple_leaf_64, mas->offset,
				      mas->max))
		mas->offset = ma_offset(pivots, maple_leaf_64, mas->index);
	kind = mt_leaf_single_kind(mas, entry, &plan);
	if (kind == MT_STORE_SLOT)
		*content = mas_wr_slot_store(mas, plan.at, entry);
	else if (kind == MT_STORE_MOVE_UP || kind == MT_STORE_MOVE_DOWN)
		*content = mas_wr_move_store(mas, kind, plan.at, &plan.seam);
	else if (kind == MT_STORE_VACATE || kind == MT_STORE_FILL)
		*content = mas_wr_empty_store(mas, kind, &plan, entry);
	else
		return false;
	return true;
}

/*
 * The same, out of line, for mas_store() and the other store paths;
 * mas_store_prealloc() has it inline.
 *
 * Never inlined: inline in every write API it adds 5 KB of text and 2%
 * to brk_cycle's instructions (callgrind).
 */
static noinline bool mas_wr_prepared(struct ma_state *mas, void *entry,
				     void **content)
{
	return mas_wr_single_prepared(mas, entry, content);
}

/*
 * The writes no leaf can take alone: plan, allocate, rebuild.
 *
 * Never inlined: its 752-byte frame must not add to its callers'.
 */
static noinline void *mas_wr_store_slow(struct ma_state *mas, void *entry)
{
	struct mt_wr wr;

	mt_wr_prepare(&wr, mas, entry);
	mt_wr_run(&wr);
	if (mas_allocated(mas) < wr.nodes &&
	    mas_alloc_nodes(mas, wr.nodes, GFP_NOWAIT | __GFP_NOWARN)) {
		mas_set_err(mas, -ENOMEM);
		return wr.content;
	}
	/* The planning pass may have moved l and r to neighbours. */
	if (wr.height)
		mt_wr_find_ends(&wr);
	wr.commit = true;
	mt_wr_run(&wr);
	mas->index = wr.index;
	mas->last = wr.last;
	mas_set_paused(mas);
	return wr.content;
}

/*
 * The write of @entry over [mas->index, mas->last], which is no single
 * store, in the leaf the state stands on: planned (mt_leaf_plan()) and, if
 * it is MT_STORE_REWRITE or _SPLIT_LAST, carried out with a node from the
 * state's pool or allocated without sleeping if it takes one.  Else, or
 * if no node could be had, the rebuild takes over (and reports that).
 * Out of line: a single store, far more common, does not pay for struct
 * mt_leaf_wr's frame.
 *
 * Never inlined: its 960-byte frame must not add to its callers'.
 */
static noinline void *mas_wr_leaf(struct ma_state *mas, void *entry)
{
	struct maple_tree *mt = mas->tree;
	struct maple_node *new = NULL;
	enum mt_store_kind kind;
	struct mt_leaf_wr lw;

	kind = mt_leaf_plan(mas, entry, &lw.p);
	if (kind == MT_STORE_REBUILD)
		return mas_wr_store_slow(mas, entry);
	if (mt_leaf_needs_node(mt, kind)) {
		if (mas_allocated(mas))
			new = mas_pop_node(mas);
		else
			new = mt_alloc_one(GFP_NOWAIT | __GFP_NOWARN);
		if (!new)
			return mas_wr_store_slow(mas, entry);
	}
	mt_leaf_wr_init(&lw, mas, entry, kind);
	mt_leaf_commit(mt, &lw, new);
	mas->index = lw.first;
	mas->last = lw.last;
	mas_set_paused(mas);
	return lw.p.content;
}

/* ------------------------------------------------------------------------
 * Write API
 *
 * Every write API goes through mas_wr_store(): the kind, then that kind
 * carried out.
 */

/*
 * Store @entry over [mas->index, mas->last] with the nodes in the state's
 * pool, allocating what is missing without sleeping: the write's kind
 * (as mas_wr_kind() works it out, or the single store mas_preallocate()
 * recorded), then that kind carried out.  On failure mas->node holds the
 * error and the tree is unchanged.
 *
 * Return: the entry that was at mas->index.
 *
 * Always inlined: without, overwrite_gfp 8.7%, overwrite 6.6%, mmap_cycle 1.6%
 * more instructions (callgrind).
 */
static __always_inline void *mas_wr_store(struct ma_state *mas, void *entry)
{
	struct mt_wr_plan plan = { };	/* a move's seam is set with its kind */
	enum mt_store_kind kind;
	void *content;

	if (unlikely(mas->index > mas->last)) {
		mas_set_err(mas, -EINVAL);
		return NULL;
	}
	if (mt_kind_is_single(mas_kind(mas)) &&
	    mas_wr_prepared(mas, entry, &content))
		return content;
	kind = mas_wr_single_kind(mas, entry, &plan);
	switch (kind) {
	case MT_STORE_SLOT:
		return mas_wr_slot_store(mas, plan.at, entry);
	case MT_STORE_MOVE_UP:
	case MT_STORE_MOVE_DOWN:
		return mas_wr_move_store(mas, kind, plan.at, &plan.seam);
	case MT_STORE_VACATE:
	case MT_STORE_FILL:
		return mas_wr_empty_store(mas, kind, &plan, entry);
	case MT_STORE_NONE:
		/* The rest of the classification, and its kind carried out. */
		return mas_wr_leaf(mas, entry);
	default:
		return mas_wr_store_slow(mas, entry);
	}
}

/**
 * mas_store() - Store @entry over [mas->index, mas->last].
 * @mas: Maple Tree operation state.
 * @entry: The entry (may be NULL, which erases the range).
 *
 * The caller holds the tree lock.  Nodes come from the state's pool (see
 * mas_preallocate()) or are allocated without sleeping; on failure the
 * state holds -ENOMEM, the tree is unchanged, and mas_nomem() can allocate
 * for a retry.  Afterwards mas->index/last bound the stored range (widened
 * to merge with NULL neighbours when @entry is NULL) and the next
 * mas_find()/mas_next() continues after it.
 *
 * Return: the entry that was at mas->index before the store.
 */
void *mas_store(struct ma_state *mas, void *entry)
{
	return mas_wr_store(mas, entry);
}
EXPORT_SYMBOL_GPL(mas_store);

/**
 * mas_store_gfp() - Store @entry over [mas->index, mas->last], allocating.
 * @mas: Maple Tree operation state.
 * @entry: The entry.
 * @gfp: Allocation flags; if they allow blocking, the tree's own lock is
 *       dropped while allocating.
 *
 * Return: 0, -EINVAL if mas->index > mas->last, or -ENOMEM (tree
 * unchanged).
 */
int mas_store_gfp(struct ma_state *mas, void *entry, gfp_t gfp)
{
retry:
	mas_wr_store(mas, entry);
	if (unlikely(mas_is_err(mas))) {
		if (mas_nomem(mas, gfp))
			goto retry;
		return xa_err(mas->node);
	}
	if (unlikely(mas->alloc))
		mas_destroy(mas);
	return 0;
}
EXPORT_SYMBOL_GPL(mas_store_gfp);

/**
 * mas_erase() - Erase the range that holds mas->index.
 * @mas: Maple Tree operation state.
 *
 * The caller holds the tree lock; allocation may drop it (GFP_KERNEL).
 * Afterwards mas->index/last bound the erased range.
 *
 * Return: the entry that was erased, or NULL.
 */
void *mas_erase(struct ma_state *mas)
{
	void *entry;

	mas_set_start(mas);
	entry = mas_leaf_walk(mas);
	if (!entry)
		return NULL;
retry:
	mas_wr_store(mas, NULL);
	if (mas_nomem(mas, GFP_KERNEL))
		goto retry;
	return entry;
}
EXPORT_SYMBOL_GPL(mas_erase);

/**
 * mtree_store_range() - Store @entry over [@index, @last].
 * @mt: Maple tree.
 * @index: First index.
 * @last: Last index.
 * @entry: The entry; NULL erases.
 * @gfp: Allocation flags.
 *
 * Takes the tree lock.
 *
 * Return: 0; -EINVAL for @index > @last or an internal entry up to
 * XA_RETRY_ENTRY (XA_ZERO_ENTRY may be stored, as in 6.1); -ENOMEM with
 * the tree unchanged.
 */
int mtree_store_range(struct maple_tree *mt, unsigned long index,
		      unsigned long last, void *entry, gfp_t gfp)
{
	MA_STATE(mas, mt, index, last);
	int ret;

	/* As in 6.1, XA_ZERO_ENTRY and the values above it may be stored. */
	if (WARN_ON_ONCE(xa_is_advanced(entry)) || index > last)
		return -EINVAL;

	mtree_lock(mt);
	ret = mas_store_gfp(&mas, entry, gfp);
	/* What a failed store allocated. */
	if (unlikely(mas.alloc))
		mas_destroy(&mas);
	mtree_unlock(mt);
	return ret;
}
EXPORT_SYMBOL(mtree_store_range);

/**
 * mtree_store() - Store @entry at @index.
 * @mt: Maple tree.
 * @index: The index.
 * @entry: The entry; NULL erases.
 * @gfp: Allocation flags.
 *
 * Return: as mtree_store_range().
 */
int mtree_store(struct maple_tree *mt, unsigned long index, void *entry,
		gfp_t gfp)
{
	return mtree_store_range(mt, index, index, entry, gfp);
}
EXPORT_SYMBOL(mtree_store);

/**
 * mtree_insert_range() - Store @entry over [@first, @last] if it is empty.
 * @mt: Maple tree.
 * @first: First index.
 * @last: Last index.
 * @entry: The entry.
 * @gfp: Allocation flags.
 *
 * Takes the tree lock.
 *
 * Return: 0; -EEXIST if any index in the range holds an entry; -EINVAL for
 * @first > @last or an internal entry up to XA_RETRY_ENTRY; -ENOMEM with
 * the tree unchanged.
 */
int mtree_insert_range(struct maple_tree *mt, unsigned long first,
		       unsigned long last, void *entry, gfp_t gfp)
{
	MA_STATE(mas, mt, first, last);
	int ret = 0;

	/* As in 6.1, XA_ZERO_ENTRY and the values above it may be stored. */
	if (WARN_ON_ONCE(xa_is_advanced(entry)) || first > last)
		return -EINVAL;

	mtree_lock(mt);
retry:
	{
		MA_STATE(probe, mt, first, first);

		if (mas_leaf_walk(&probe) || probe.last < last) {
			ret = -EEXIST;
			goto unlock;
		}
	}
	mas_set_range(&mas, first, last);
	mas_wr_store(&mas, entry);
	if (mas_nomem(&mas, gfp))
		goto retry;
	if (mas_is_err(&mas))
		ret = xa_err(mas.node);
unlock:
	mtree_unlock(mt);
	mas_destroy(&mas);
	return ret;
}
EXPORT_SYMBOL(mtree_insert_range);

/**
 * mtree_insert() - Store @entry at @index if it is empty.
 * @mt: Maple tree.
 * @index: The index.
 * @entry: The entry.
 * @gfp: Allocation flags.
 *
 * Return: as mtree_insert_range().
 */
int mtree_insert(struct maple_tree *mt, unsigned long index, void *entry,
		 gfp_t gfp)
{
	return mtree_insert_range(mt, index, index, entry, gfp);
}
EXPORT_SYMBOL(mtree_insert);

/**
 * mtree_erase() - Erase the range that holds @index.
 * @mt: Maple tree.
 * @index: The index.
 *
 * Takes the tree lock.
 *
 * Return: the entry erased, or NULL.
 */
void *mtree_erase(struct maple_tree *mt, unsigned long index)
{
	MA_STATE(mas, mt, index, index);
	void *entry;

	mtree_lock(mt);
	entry = mas_erase(&mas);
	mtree_unlock(mt);
	mas_destroy(&mas);
	return entry;
}
EXPORT_SYMBOL(mtree_erase);

/* ------------------------------------------------------------------------
 * Preallocation
 *
 * mas_preallocate() works out the kind of the store to come and takes
 * exactly the nodes it needs; mas_expected_entries() fills the pool for a
 * bulk load.
 */

/*
 * The nodes a store that is not a one-leaf write will take.
 *
 * Never inlined: its 720-byte frame must not add to mas_preallocate()'s.
 */
static noinline unsigned long mas_plan_nodes(struct ma_state *mas, void *entry)
{
	struct mt_wr wr;

	mt_wr_prepare(&wr, mas, entry);
	mt_wr_run(&wr);
	return wr.nodes;
}

/**
 * mas_preallocate() - Allocate the nodes the store of @entry will need.
 * @mas: Maple Tree operation state, set to the range to store.
 * @entry: The entry that will be stored.
 * @gfp: Allocation flags.
 *
 * Works out what the store of @entry over [mas->index, mas->last] will do
 * on the tree as it is now and allocates exactly the nodes it needs, not a
 * worst case:
 *  - none for a store of one range's exact bounds (a slot store) or one
 *    that moves one boundary between a range and the NULL beside it
 *    without changing an entry (brk() growing or shrinking), in RCU mode
 *    too;
 *  - outside RCU mode, none for a store that stays inside its leaf and
 *    leaves it at least half full and not over full (an append, a range
 *    split in three, an erase that merges NULLs): the leaf is rewritten
 *    in place;
 *  - in RCU mode, one for such a store (the leaf is copied);
 *  - otherwise what the store's planning pass counts (splits, spanning
 *    stores, rebalancing, a new root).
 * It works from the leaf @mas stands on if that holds mas->index (a walk
 * or an iteration under the tree lock left it there), else from a walk
 * from the root.  The walk is left in @mas for the store, and so is the
 * kind of a single store (one slot, one boundary) and its slot:
 * mas_store_prealloc() checks that the range and entry still make it one
 * and carries it out without working it out again; any other write is
 * worked out again from the leaf @mas stands on.  The caller holds the
 * tree lock, and writes nothing else to the tree, until the matching
 * mas_store_prealloc() with the same range and entry, which then cannot
 * fail and allocates nothing; a store of another range (the state moved
 * with __mas_set_range()) is done right but may have to allocate.
 * mas_destroy() frees what a store did not use.
 *
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int mas_preallocate(struct ma_state *mas, void *entry, gfp_t gfp)
{
	struct mt_wr_plan plan;
	enum mt_store_kind kind;
	unsigned long nodes;

	if (unlikely(mas->index > mas->last))
		return -EINVAL;
	/* Nothing recorded by an earlier call applies (but the leaf). */
	mas->mas_flags = (mas->mas_flags & ~MA_STATE_KIND) | MA_STATE_PREALLOC;
	kind = mas_wr_kind(mas, entry, &plan);
	if (kind == MT_STORE_REBUILD) {
		mas_set_start(mas);
		nodes = mas_plan_nodes(mas, entry);
	} else {
		/*
		 * The leaf and the kind, for the store; mas->offset stays
		 * the slot holding mas->index.
		 */
		mas->mas_flags |= kind << MA_STATE_KIND_SHIFT;
		nodes = mt_leaf_needs_node(mas->tree, kind);
	}
	if (mt_kind_is_single(kind)) {
		/* Nodes left from before stay; a failed request is forgotten. */
		if (unlikely(mas->alloc))
			mas_alloc_nodes(mas, 0, gfp);
		return 0;
	}
	if ((nodes || mas->alloc) && mas_alloc_nodes(mas, nodes, gfp)) {
		mas_destroy(mas);
		return -ENOMEM;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(mas_preallocate);

/**
 * mas_store_prealloc() - Store @entry with nodes from mas_preallocate().
 * @mas: Maple Tree operation state.
 * @entry: The entry, as given to mas_preallocate().
 *
 * Frees the nodes the store did not use.  The caller holds the tree lock.
 */
void mas_store_prealloc(struct ma_state *mas, void *entry)
{
	void *content;

	if (IS_ENABLED(CONFIG_DEBUG_MAPLE_TREE))
		WARN_ON_ONCE(!(mas->mas_flags & MA_STATE_PREALLOC));

	/* A single store takes no node: nothing to free after. */
	if (mt_kind_is_single(mas_kind(mas)) && !mas->alloc &&
	    mas_wr_single_prepared(mas, entry, &content)) {
		mas->mas_flags &= MA_STATE_PREALLOC;
		return;
	}
	mas_wr_store(mas, entry);
	WARN_ON(mas_is_err(mas));
	if (mas->alloc)
		mas_destroy(mas);
	else
		mas->mas_flags &= MA_STATE_PREALLOC;
}
EXPORT_SYMBOL_GPL(mas_store_prealloc);

/**
 * mas_expected_entries() - Allocate for a run of ascending stores.
 * @mas: Maple Tree operation state.
 * @nr_entries: How many entries will be stored.
 *
 * Allocates enough nodes for @nr_entries ranges (and the gaps between
 * them) appended in ascending order to a tree outside RCU mode; the stores
 * take nodes from this pool and the tree they build has full nodes.  A last
 * leaf that overflows splits in place into one new leaf, but a full parent
 * is rebuilt, so the stores take up to about 1.25 times the nodes of the
 * finished tree (measured from 10 to 100,000 ranges); the pool holds one
 * and a half times, plus a node per level.  Call mas_destroy() when done
 * to free what was not used.
 *
 * The allocation is GFP_KERNEL and may sleep: call it where that is
 * allowed, under a sleeping lock (the mmap lock of fork()) or before
 * taking the tree's spinlock; it does not look at the tree's contents.
 *
 * Return: 0 or -ENOMEM.
 */
int mas_expected_entries(struct ma_state *mas, unsigned long nr_entries)
{
	unsigned long fanout = mt_is_alloc(mas->tree) ?
			       MAPLE_ARANGE64_SLOTS - 1 : MAPLE_RANGE64_SLOTS - 1;
	unsigned long slots = nr_entries * 2 + 1;
	unsigned long nodes = 0, level;

	level = DIV_ROUND_UP(slots, MAPLE_RANGE64_SLOTS - 1);
	for (;;) {
		nodes += level;
		if (level == 1)
			break;
		level = DIV_ROUND_UP(level, fanout);
	}
	if (mas_alloc_nodes(mas, nodes + nodes / 2 + MAPLE_HEIGHT_MAX,
			    GFP_KERNEL)) {
		mas_set_err(mas, -ENOMEM);
		return -ENOMEM;
	}
	mas->mas_flags |= MA_STATE_BULK;
	return 0;
}
EXPORT_SYMBOL_GPL(mas_expected_entries);

/**
 * mas_reserve_stores() - Allocate for stores that must all succeed.
 * @mas: Maple Tree operation state, set to the range of the first store.
 * @entry: The entry the first store will store.
 * @nr_more: How many stores will follow the first.
 * @gfp: Allocation flags.
 *
 * Allocates what the store of @entry over [mas->index, mas->last] needs,
 * exactly, as mas_preallocate() does, and the most that @nr_more stores
 * after it, of any ranges and entries, can take: a store cuts each level
 * it rebuilds into at most three nodes and may put a new root above them,
 * so it takes at most three nodes per level and one, and the tree can be
 * a level taller after each store.  The stores, the first one included,
 * are then made with mas_store(): they take their nodes from @mas and
 * cannot fail.  mas_destroy() frees what they leave.  For a caller that
 * must make several stores or none: undoing a store in RCU mode would
 * need nodes of its own, so all of them are allocated before the first.
 * The caller holds the tree lock from this call to the last store.
 *
 * Return: 0, -EINVAL if mas->index > mas->last, or -ENOMEM with nothing
 * allocated.
 */
int mas_reserve_stores(struct ma_state *mas, void *entry,
		       unsigned int nr_more, gfp_t gfp)
{
	unsigned int height = mt_height(mas->tree);
	unsigned long nodes;
	unsigned int i;
	int ret;

	ret = mas_preallocate(mas, entry, gfp);
	if (ret || !nr_more)
		return ret;
	nodes = mas_allocated(mas);
	for (i = 1; i <= nr_more; i++)
		nodes += MT_WR_MAX_OUT *
			 min_t(unsigned int, height + i, MAPLE_HEIGHT_MAX) + 1;
	if (mas_alloc_nodes(mas, nodes, gfp)) {
		mas_destroy(mas);
		return -ENOMEM;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(mas_reserve_stores);

/* ------------------------------------------------------------------------
 * Allocation-tree API
 *
 * Store an entry into the first (last) free range that fits, found by the
 * gap search.
 */

/*
 * Store @entry into the lowest (@rev: highest) free area of @size inside
 * the window a fresh state @mas was set to, [mas->index, mas->last]; on
 * success mas->index is the first index of the area used.
 */
static int mtree_alloc_common(struct ma_state *mas, void *entry,
			      unsigned long size, gfp_t gfp, bool rev)
{
	struct maple_tree *mt = mas->tree;
	unsigned long min = mas->index, max = mas->last;
	int ret;

	if (!mt_is_alloc(mt) || mt_is_reserved(entry))
		return -EINVAL;
	if (!size || min > max || max - min < size - 1)
		return -EINVAL;

	mtree_lock(mt);
retry:
	ret = rev ? mas_empty_area_rev(mas, min, max, size) :
		    mas_empty_area(mas, min, max, size);
	if (ret)
		goto unlock;
	mas_wr_store(mas, entry);
	if (mas_nomem(mas, gfp))
		goto retry;
	if (mas_is_err(mas))
		ret = xa_err(mas->node);
unlock:
	mtree_unlock(mt);
	mas_destroy(mas);
	return ret;
}

/**
 * mtree_alloc_range() - Store @entry in the lowest empty area that fits.
 * @mt: Maple tree with MT_FLAGS_ALLOC_RANGE.
 * @startp: Out: the first index of the area used.
 * @entry: The entry.
 * @size: Size of the area.
 * @min: Lowest index the area may start at.
 * @max: Highest index the area may end at.
 * @gfp: Allocation flags.
 *
 * Takes the tree lock.
 *
 * Return: 0; -EBUSY if nothing fits; -EINVAL for a tree without
 * MT_FLAGS_ALLOC_RANGE, a reserved entry or a bad window; -ENOMEM.
 *
 * Seven parameters: Linux's signature, which callers are written to.
 */
int mtree_alloc_range(struct maple_tree *mt, unsigned long *startp,
		      void *entry, unsigned long size, unsigned long min,
		      unsigned long max, gfp_t gfp)
{
	MA_STATE(mas, mt, min, max);
	int ret;

	ret = mtree_alloc_common(&mas, entry, size, gfp, false);
	if (!ret)
		*startp = mas.index;
	return ret;
}
EXPORT_SYMBOL(mtree_alloc_range);

/**
 * mtree_alloc_rrange() - Store @entry in the highest empty area that fits.
 * @mt: Maple tree with MT_FLAGS_ALLOC_RANGE.
 * @startp: Out: the first index of the area used.
 * @entry: The entry.
 * @size: Size of the area.
 * @min: Lowest index the area may start at.
 * @max: Highest index the area may end at.
 * @gfp: Allocation flags.
 *
 * Return: as mtree_alloc_range().
 *
 * Seven parameters: Linux's signature, which callers are written to.
 */
int mtree_alloc_rrange(struct maple_tree *mt, unsigned long *startp,
		       void *entry, unsigned long size, unsigned long min,
		       unsigned long max, gfp_t gfp)
{
	MA_STATE(mas, mt, min, max);
	int ret;

	ret = mtree_alloc_common(&mas, entry, size, gfp, true);
	if (!ret)
		*startp = mas.index;
	return ret;
}
EXPORT_SYMBOL(mtree_alloc_rrange);

#if MT_API_612
/**
 * mas_alloc_cyclic() - Store @entry at the first free index from *@next.
 * @mas: Maple Tree operation state, on a tree with MT_FLAGS_ALLOC_RANGE.
 * @startp: Out: the index used.
 * @entry: The entry.
 * @range_lo: Lowest index that may be used.
 * @range_hi: Highest index that may be used.
 * @next: In: where the search starts; out: one past the index used.
 * @gfp: Allocation flags.
 *
 * The search runs from *@next (or @range_lo, if higher) to @range_hi, then
 * from @range_lo: a cyclic ID allocator.  When *@next wraps past ULONG_MAX,
 * the tree remembers it (MT_FLAGS_ALLOC_WRAPPED) and the next allocation
 * reports the wrap.  The caller holds the tree lock; with a blocking @gfp
 * it may be dropped for an allocation.  On success mas->index and
 * mas->last are the index used.
 *
 * Return: 0, or 1 if the search wrapped to @range_lo; -EBUSY if no index
 * is free, -EINVAL for a tree without MT_FLAGS_ALLOC_RANGE, a reserved
 * entry or @range_lo > @range_hi, -ENOMEM.
 *
 * Seven parameters: Linux's signature, which callers are written to.
 */
int mas_alloc_cyclic(struct ma_state *mas, unsigned long *startp,
		     void *entry, unsigned long range_lo, unsigned long range_hi,
		     unsigned long *next, gfp_t gfp)
{
	struct maple_tree *mt = mas->tree;
	unsigned long from = max(*next, range_lo);
	bool wrapped = false;
	int ret;

	if (!mt_is_alloc(mt) || mt_is_reserved(entry) || range_lo > range_hi)
		return -EINVAL;
	ret = from > range_hi ? -EBUSY :
	      mas_empty_area(mas, from, range_hi, 1);
	if (ret && from > range_lo) {
		mas_reset(mas);
		ret = mas_empty_area(mas, range_lo, min(from - 1, range_hi), 1);
		wrapped = true;
	}
	if (ret)
		return -EBUSY;
	ret = mas_store_gfp(mas, entry, gfp);
	if (ret)
		return ret;
	*startp = mas->index;
	if (mt->ma_flags & MT_FLAGS_ALLOC_WRAPPED) {
		WRITE_ONCE(mt->ma_flags, mt->ma_flags & ~MT_FLAGS_ALLOC_WRAPPED);
		wrapped = true;
	}
	*next = mas->index + 1;
	if (!*next)
		WRITE_ONCE(mt->ma_flags, mt->ma_flags | MT_FLAGS_ALLOC_WRAPPED);
	return wrapped;
}
EXPORT_SYMBOL(mas_alloc_cyclic);

/**
 * mtree_alloc_cyclic() - Store @entry at the first free index from *@next.
 * @mt: Maple tree with MT_FLAGS_ALLOC_RANGE.
 * @startp: Out: the index used.
 * @entry: The entry.
 * @range_lo: Lowest index that may be used.
 * @range_hi: Highest index that may be used.
 * @next: In: where the search starts; out: one past the index used.
 * @gfp: Allocation flags.
 *
 * Takes the tree lock; see mas_alloc_cyclic().
 *
 * Return: as mas_alloc_cyclic().
 *
 * Seven parameters: Linux's signature, which callers are written to.
 */
int mtree_alloc_cyclic(struct maple_tree *mt, unsigned long *startp,
		       void *entry, unsigned long range_lo,
		       unsigned long range_hi, unsigned long *next, gfp_t gfp)
{
	MA_STATE(mas, mt, 0, 0);
	int ret;

	mtree_lock(mt);
	ret = mas_alloc_cyclic(&mas, startp, entry, range_lo, range_hi, next,
			       gfp);
	mtree_unlock(mt);
	mas_destroy(&mas);
	return ret;
}
EXPORT_SYMBOL(mtree_alloc_cyclic);
#endif

/* ------------------------------------------------------------------------
 * Destruction
 */

static void mt_destroy_walk(struct maple_tree *mt, struct maple_enode *enode)
{
	struct maple_node *node = mte_to_node(enode);
	enum maple_type type = mte_node_type(enode);

	if (!ma_is_leaf(type)) {
		void __rcu **slots = ma_slots(node, type);
		unsigned char i;

		for (i = 0; i < mt_slots[type]; i++) {
			struct maple_enode *child = mt_slot_locked(mt, slots, i);

			if (!child)
				break;
			mt_destroy_walk(mt, child);
		}
	}
	mt_retire_node(mt, node);
}

/**
 * __mt_destroy() - Free every node of the tree; the caller holds the lock.
 * @mt: Maple tree.
 *
 * The tree is empty afterwards and keeps its flags (but not its height).
 * In RCU mode the nodes are freed after a grace period.
 */
void __mt_destroy(struct maple_tree *mt)
{
	void *root = mt_root_locked(mt);

	rcu_assign_pointer(mt->ma_root, NULL);
	mt_set_height(mt, 0);
	if (xa_is_node(root))
		mt_destroy_walk(mt, mte_safe_root(root));
}
EXPORT_SYMBOL_GPL(__mt_destroy);

/**
 * mtree_destroy() - Free every node of the tree.
 * @mt: Maple tree.
 *
 * Takes the tree lock.  The entries themselves are the caller's.
 */
void mtree_destroy(struct maple_tree *mt)
{
	mtree_lock(mt);
	__mt_destroy(mt);
	mtree_unlock(mt);
}
EXPORT_SYMBOL(mtree_destroy);

/* ------------------------------------------------------------------------
 * Duplication
 */

static unsigned long mt_count_nodes(struct maple_tree *mt,
				    struct maple_enode *enode,
				    unsigned long max)
{
	struct maple_node *node = mte_to_node(enode);
	enum maple_type type = mte_node_type(enode);
	unsigned long *pivots = ma_pivots(node, type);
	void __rcu **slots = ma_slots(node, type);
	unsigned long count = 1;
	unsigned char end, i;

	if (ma_is_leaf(type))
		return 1;
	end = ma_data_end(node, type, max);
	for (i = 0; i <= end; i++)
		count += mt_count_nodes(mt, mt_slot_locked(mt, slots, i),
					ma_pivot_max(pivots, type, i, max));
	return count;
}

/* Copy the subtree at @enode node for node with nodes from @mas's pool. */
static struct maple_enode *mt_dup_node(struct ma_state *mas,
				       struct maple_tree *src,
				       struct maple_enode *enode,
				       unsigned long max)
{
	struct maple_node *node = mte_to_node(enode);
	enum maple_type type = mte_node_type(enode);
	struct maple_node *copy = mas_pop_node(mas);

	memcpy(copy, node, sizeof(*copy));
	if (!ma_is_leaf(type)) {
		unsigned long *pivots = ma_pivots(copy, type);
		void __rcu **slots = ma_slots(copy, type);
		unsigned char end = ma_data_end(copy, type, max);
		unsigned char i;

		for (i = 0; i <= end; i++) {
			struct maple_enode *child;

			child = mt_dup_node(mas, src,
					    mt_slot_locked(src, slots, i),
					    ma_pivot_max(pivots, type, i, max));
			mt_set_parent(mte_to_node(child), copy, i);
			RCU_INIT_POINTER(slots[i], child);
		}
	}
	return mt_mk_node(copy, type);
}

/*
 * Copy @mt into the empty @new with nodes from @mas's pool, allocating
 * what it lacks with @gfp.  Both trees' locks are held.
 */
static int mt_dup_from_pool(struct maple_tree *mt, struct maple_tree *new,
			    struct ma_state *mas, gfp_t gfp)
{
	void *root = mt_root_locked(mt);
	struct maple_enode *copy;
	unsigned int flags;

	if (!mtree_empty(new))
		return -EINVAL;
	flags = (mt->ma_flags & ~MT_FLAGS_LOCK_MASK) |
		(new->ma_flags & MT_FLAGS_LOCK_MASK);
	if (!xa_is_node(root)) {
		new->ma_flags = flags;
		rcu_assign_pointer(new->ma_root, root);
		return 0;
	}

	if (mas_alloc_nodes(mas, mt_count_nodes(mt, mte_safe_root(root),
						ULONG_MAX), gfp))
		return -ENOMEM;
	copy = mt_dup_node(mas, mt, mte_safe_root(root), ULONG_MAX);
	mt_set_parent_root(mte_to_node(copy), new);
	new->ma_flags = flags;
	rcu_assign_pointer(new->ma_root, mte_mk_root(copy));
	return 0;
}

/**
 * __mt_dup() - Duplicate a tree node for node.
 * @mt: The source tree.
 * @new: An empty, initialised destination tree.
 * @gfp: Allocation flags (the caller's locks stay held).
 *
 * Copies the structure as it is, without re-inserting entries: the
 * destination gets the same nodes' contents, height and flags (keeping its
 * own lock type), and the same entry pointers.  The caller holds both trees'
 * locks.
 *
 * Return: 0; -EINVAL if @new is not empty; -ENOMEM with @new left empty.
 */
int __mt_dup(struct maple_tree *mt, struct maple_tree *new, gfp_t gfp)
{
	MA_STATE(mas, new, 0, 0);
	int ret;

	ret = mt_dup_from_pool(mt, new, &mas, gfp);
	mas_destroy(&mas);
	return ret;
}
EXPORT_SYMBOL(__mt_dup);

/* The nodes a copy of @mt takes; the caller holds @mt's lock. */
static unsigned long mt_dup_nodes(struct maple_tree *mt)
{
	void *root = mt_root_locked(mt);

	if (!xa_is_node(root))
		return 0;
	return mt_count_nodes(mt, mte_safe_root(root), ULONG_MAX);
}

/**
 * mtree_dup() - Duplicate a tree node for node, taking both locks.
 * @mt: The source tree.
 * @new: An empty, initialised destination tree.
 * @gfp: Allocation flags.
 *
 * The nodes are allocated before the spinlocks are taken, so @gfp may
 * sleep: the source is counted under its lock, the nodes allocated, and
 * the count checked again under both locks (and the whole redone if the
 * source grew meanwhile).
 *
 * Return: as __mt_dup().
 */
int mtree_dup(struct maple_tree *mt, struct maple_tree *new, gfp_t gfp)
{
	MA_STATE(mas, new, 0, 0);
	unsigned long nodes;
	int ret;

	mtree_lock(mt);
	nodes = mt_dup_nodes(mt);
	mtree_unlock(mt);
	for (;;) {
		if (mas_alloc_nodes(&mas, nodes, gfp)) {
			mas_destroy(&mas);
			return -ENOMEM;
		}
		mtree_lock(new);
		/* Both locks are of one lockdep class. */
		spin_lock_nested(&mt->ma_lock, SINGLE_DEPTH_NESTING);
		nodes = mt_dup_nodes(mt);
		if (nodes <= mas_allocated(&mas))
			break;
		mtree_unlock(mt);
		mtree_unlock(new);
	}
	ret = mt_dup_from_pool(mt, new, &mas, GFP_NOWAIT | __GFP_NOWARN);
	mtree_unlock(mt);
	mtree_unlock(new);
	mas_destroy(&mas);
	return ret;
}
EXPORT_SYMBOL(mtree_dup);

/* ------------------------------------------------------------------------
 * Validation and dump (debug builds)
 */
#ifdef CONFIG_DEBUG_MAPLE_TREE

struct mt_check {
	struct maple_tree *mt;
	unsigned int height;
	int errors;
	bool prev_null;			/* the range before was NULL */
	bool have_prev;
};

#define mt_check_fail(chk, node, fmt, ...) do {				\
	pr_err("maple_tree %p: node %p: " fmt "\n", (chk)->mt, (node),	\
	       ##__VA_ARGS__);						\
	(chk)->errors++;						\
} while (0)

/*
 * Check the subtree of @enode, at @depth over [@min, @max], whose parent
 * word its parent checked; returns its largest gap.
 */
static unsigned long mt_check_node(struct mt_check *chk,
				   struct maple_enode *enode,
				   unsigned int depth, unsigned long min,
				   unsigned long max)
{
	struct maple_node *node = mte_to_node(enode);
	enum maple_type type = mte_node_type(enode);
	unsigned long *pivots = ma_pivots(node, type);
	unsigned long *gaps = ma_gaps(node, type);
	void __rcu **slots = ma_slots(node, type);
	unsigned char npiv = mt_pivots[type];
	unsigned char end, i;
	unsigned long gap = 0, first = min;
	bool leaf = depth + 1 == chk->height;

	if (ma_dead_node(node)) {
		mt_check_fail(chk, node, "dead node in the tree");
		return 0;
	}
	/* Readers take every leaf's layout as maple_leaf_64's. */
	if (type != (leaf ? maple_leaf_64 : mt_internal_type(chk->mt)))
		mt_check_fail(chk, node, "type %u at depth %u of %u",
			      type, depth, chk->height);
	if (depth == 0 && (unsigned long)node->parent !=
	    ((unsigned long)chk->mt | MAPLE_PARENT_ROOT))
		mt_check_fail(chk, node, "root's parent is %p", node->parent);

	end = ma_data_end(node, type, max);
	for (i = 0; i < npiv; i++) {
		/* A leaf's empty slot repeats the pivot before it. */
		bool empty = leaf && i && i < end && pivots[i] == first - 1;

		if (i < end && !empty && (pivots[i] < first || pivots[i] >= max))
			mt_check_fail(chk, node, "pivot %u = %lu outside [%lu, %lu)",
				      i, pivots[i], first, max);
		if (i == end && pivots[i] != max)
			mt_check_fail(chk, node, "end pivot %u = %lu, max %lu",
				      i, pivots[i], max);
		if (i > end && pivots[i] != max)
			mt_check_fail(chk, node, "pivot %u = %lu past end %u",
				      i, pivots[i], end);
		if (i < end)
			first = pivots[i] + 1;
	}
	for (i = end + 1; i < mt_slots[type]; i++)
		if (mt_slot_used(slots, i))
			mt_check_fail(chk, node, "slot %u set past end %u",
				      i, end);

	if (depth && max != ULONG_MAX && end + 1 < mt_min_slots[type])
		mt_check_fail(chk, node, "only %u slots, min %u",
			      end + 1, mt_min_slots[type]);
	if (!depth && !leaf && end < 1)
		mt_check_fail(chk, node, "root with a single child");

	first = min;
	for (i = 0; i <= end; i++) {
		unsigned long last = ma_pivot_max(pivots, type, i, max);
		void *slot = rcu_dereference_check(slots[i], true);

		if (leaf && last < first) {
			/* Empty: covers nothing, holds nothing. */
			if (slot)
				mt_check_fail(chk, node,
					      "empty slot %u holds %p", i, slot);
		} else if (leaf) {
			if (!slot) {
				if (chk->have_prev && chk->prev_null)
					mt_check_fail(chk, node,
						      "NULL at [%lu, %lu] follows a NULL",
						      first, last);
				if (last - first + 1 > gap)
					gap = last - first + 1;
			}
			chk->prev_null = !slot;
			chk->have_prev = true;
		} else if (!slot) {
			mt_check_fail(chk, node, "missing child %u", i);
		} else {
			struct maple_node *child = mte_to_node(slot);
			unsigned long cgap;

			/* A dead child is reported below. */
			if (!ma_dead_node(child) &&
			    (ma_is_root(child) || ma_parent(child) != node ||
			     ma_parent_slot(child) != i))
				mt_check_fail(chk, child,
					      "parent %p, expected %p slot %u",
					      child->parent, node, i);
			cgap = mt_check_node(chk, slot, depth + 1, first, last);
			if (gaps && gaps[i] != cgap)
				mt_check_fail(chk, node,
					      "gap %u is %lu, child has %lu",
					      i, gaps[i], cgap);
			if (cgap > gap)
				gap = cgap;
		}
		first = last + 1;
	}
	if (type == maple_arange_64) {
		if (node->ma64.meta.end != end)
			mt_check_fail(chk, node, "meta end %u, end %u",
				      node->ma64.meta.end, end);
		if (gaps[node->ma64.meta.gap] != gap)
			mt_check_fail(chk, node, "meta gap %u is not the largest",
				      node->ma64.meta.gap);
	}
	if (!depth && leaf) {
		void *s0 = rcu_dereference_check(slots[0], true);

		if (end == 0 && !s0)
			mt_check_fail(chk, node, "root leaf holds nothing");
		if (end == 1 && pivots[0] == 0 && s0 && !xa_is_internal(s0) &&
		    !rcu_dereference_check(slots[1], true))
			mt_check_fail(chk, node,
				      "root leaf holds only index 0");
	}
	return gap;
}

/**
 * mt_validate_errors() - Check every structural invariant of the tree.
 * @mt: Maple tree.
 *
 * Checks node types and heights, pivots (ordered, inside the parent's
 * bounds, ending at the node's maximum), parent pointers, minimum fill,
 * that no two NULL ranges are adjacent, and in allocation trees every gap
 * and the metadata.  The caller holds the tree lock or keeps writers away.
 *
 * Return: the number of violations found (each is printed).
 */
int mt_validate_errors(struct maple_tree *mt)
{
	struct mt_check chk = { .mt = mt, .height = mt_height(mt) };
	void *root;

	rcu_read_lock();
	root = rcu_dereference_check(mt->ma_root, true);
	if (!xa_is_node(root)) {
		if (chk.height)
			mt_check_fail(&chk, NULL, "height %u without a node",
				      chk.height);
		if (root && xa_is_internal(root))
			mt_check_fail(&chk, NULL, "internal entry %p in root",
				      root);
	} else if (!chk.height) {
		mt_check_fail(&chk, NULL, "node root with height 0");
	} else {
		mt_check_node(&chk, mte_safe_root(root), 0, 0, ULONG_MAX);
	}
	rcu_read_unlock();
	return chk.errors;
}
EXPORT_SYMBOL_GPL(mt_validate_errors);

/**
 * mt_validate() - Check the tree; dump it and warn if anything is wrong.
 * @mt: Maple tree.
 */
void mt_validate(struct maple_tree *mt)
{
	if (mt_validate_errors(mt)) {
		mt_dump_default(mt);
		WARN_ON(1);
	}
}
EXPORT_SYMBOL_GPL(mt_validate);

/* Linux 6.12 prints either way; 6.1 printed indices in decimal. */
#if MT_API_612
#define MT_DUMP_HEX(format)	((format) == mt_dump_hex)
#else
#define MT_DUMP_HEX(format)	false
#endif

static void mt_dump_node(const struct maple_tree *mt,
			 struct maple_enode *enode, unsigned int depth,
			 unsigned long min, unsigned long max, bool hex)
{
	struct maple_node *node = mte_to_node(enode);
	enum maple_type type = mte_node_type(enode);
	unsigned long *pivots = ma_pivots(node, type);
	unsigned long *gaps = ma_gaps(node, type);
	void __rcu **slots = ma_slots(node, type);
	unsigned char end = ma_data_end(node, type, max);
	unsigned long first = min;
	const char *kind = ma_is_leaf(type) ? "leaf" :
			   type == maple_arange_64 ? "arange" : "range";
	unsigned char i;

	if (hex)
		pr_info("%*s%s %p [%lx, %lx] end %u\n", depth * 2, "", kind,
			node, min, max, end);
	else
		pr_info("%*s%s %p [%lu, %lu] end %u\n", depth * 2, "", kind,
			node, min, max, end);
	for (i = 0; i <= end; i++) {
		unsigned long last = ma_pivot_max(pivots, type, i, max);
		void *slot = rcu_dereference_check(slots[i], true);

		if (ma_is_leaf(type) && hex)
			pr_info("%*s[%lx, %lx] %p\n", depth * 2 + 2, "",
				first, last, slot);
		else if (ma_is_leaf(type))
			pr_info("%*s[%lu, %lu] %p\n", depth * 2 + 2, "",
				first, last, slot);
		else if (gaps && hex)
			pr_info("%*s[%lx, %lx] gap %lx\n", depth * 2 + 2, "",
				first, last, gaps[i]);
		else if (gaps)
			pr_info("%*s[%lu, %lu] gap %lu\n", depth * 2 + 2, "",
				first, last, gaps[i]);
		if (!ma_is_leaf(type) && slot)
			mt_dump_node(mt, slot, depth + 1, first, last, hex);
		first = last + 1;
	}
}

/**
 * mt_dump() - Print the tree, one line per node and per range.
 * @mt: Maple tree.
 * @format: (6.12) mt_dump_hex or mt_dump_dec for the indices.
 */
#if MT_API_612
void mt_dump(const struct maple_tree *mt, enum mt_dump_format format)
#else
void mt_dump(const struct maple_tree *mt)
#endif
{
	void *root = rcu_dereference_check(mt->ma_root, true);

	pr_info("maple_tree(%p) flags %X, height %u root %p\n", mt,
		mt->ma_flags, mt_height(mt), root);
	if (xa_is_node(root))
		mt_dump_node(mt, mte_safe_root(root), 0, 0, ULONG_MAX,
			     MT_DUMP_HEX(format));
	else if (root)
		pr_info("  [0, 0] %p\n", root);
}
EXPORT_SYMBOL_GPL(mt_dump);

#if MT_API_612
/**
 * mas_dump() - Print a maple state.
 * @mas: Maple Tree operation state.
 */
void mas_dump(const struct ma_state *mas)
{
	static const char * const names[] = {
		[ma_active] = "active", [ma_start] = "start",
		[ma_root] = "root", [ma_none] = "none", [ma_pause] = "pause",
		[ma_overflow] = "overflow", [ma_underflow] = "underflow",
		[ma_error] = "error",
	};
	unsigned int status = mas->status;

	pr_info("maple_state(%p) tree %p status %s node %p\n", mas, mas->tree,
		status < ARRAY_SIZE(names) ? names[status] : "?", mas->node);
	pr_info("  index %lx last %lx min %lx max %lx offset %u alloc %p\n",
		mas->index, mas->last, mas->min, mas->max, mas->offset,
		mas->alloc);
}
EXPORT_SYMBOL_GPL(mas_dump);

/**
 * mas_wr_dump() - Print a write state.
 * @wr_mas: The write state.
 *
 * This tree plans writes in a state of its own (struct mt_wr) and never
 * hands out a struct ma_wr_state, so there is nothing but its address.
 */
void mas_wr_dump(const struct ma_wr_state *wr_mas)
{
	pr_info("ma_wr_state(%p): not used by this tree\n", wr_mas);
}
EXPORT_SYMBOL_GPL(mas_wr_dump);
#endif

/**
 * mt_cache_shrink() - Give cached free nodes back (nothing to do here).
 */
void mt_cache_shrink(void)
{
}
EXPORT_SYMBOL_GPL(mt_cache_shrink);

#endif /* CONFIG_DEBUG_MAPLE_TREE */
