/* SPDX-License-Identifier: GPL-2.0+ */
#ifndef _LINUX_MAPLE_TREE_H
#define _LINUX_MAPLE_TREE_H
/*
 * Maple tree: an RCU-safe B-tree of non-overlapping inclusive ranges
 * [first, last] -> entry.  Interface compatible with Linux 6.1 or with
 * Linux 6.12 (see MT_API_612), plus the later range iterators and
 * whole-tree duplication.
 *
 * Written for the maple project; see Documentation/core-api/maple_tree.rst.
 */

#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/lockdep.h>
#include <asm/barrier.h>

/*
 * MT_API_612: which kernel's interface this header declares.  0 is Linux
 * 6.1's: the state of a walk is told by sentinel values of ma_state.node
 * (MAS_START, MAS_NONE, ...).  1 is Linux 6.12's: ma_state.status holds an
 * enum maple_status, the tree root is ordered lock, flags, root, and
 * mas_next()/mas_prev() stop at a limit in ma_overflow/ma_underflow.
 *
 * A kernel build takes it from LINUX_VERSION_CODE, the one symbol every
 * kernel (and every out-of-tree module build) has, so that the same two
 * files drop into either tree unchanged.  Outside a kernel there is no
 * trustworthy version (<linux/version.h> would be the C library's), so a
 * userspace build says which it wants with -DMT_API_612=0 or 1; without
 * it, the newest, which is what Linux 6.12's own userspace harness
 * (tools/testing/shared) expects.
 */
#ifdef __KERNEL__
#include <linux/version.h>
#define MT_API_612	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#elif !defined(MT_API_612)
#define MT_API_612	1
#endif

/*
 * Nodes are 256 bytes and 256-byte aligned, so an encoded node pointer
 * (struct maple_enode *) keeps its node type in the low byte.
 *
 * maple_range_64 (internal) and maple_leaf_64 nodes hold 16 slots and 15
 * pivots.  Allocation-tree internal nodes (maple_arange_64) hold 10 slots,
 * 9 pivots and the largest gap below each slot.
 */
#if defined(CONFIG_64BIT) || defined(BUILD_VDSO32_64) || \
	(defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ == 8)
#define MAPLE_NODE_SLOTS	31	/* 256 bytes including ->parent */
#define MAPLE_RANGE64_SLOTS	16	/* 256 bytes */
#define MAPLE_ARANGE64_SLOTS	10	/* 240 bytes */
#define MAPLE_ARANGE64_META_MAX	15	/* Out of range for metadata */
#define MAPLE_ALLOC_SLOTS	(MAPLE_NODE_SLOTS - 1)
#else
#define MAPLE_NODE_SLOTS	63	/* 256 bytes including ->parent */
#define MAPLE_RANGE64_SLOTS	32	/* 256 bytes */
#define MAPLE_ARANGE64_SLOTS	21	/* 240 bytes */
#define MAPLE_ARANGE64_META_MAX	31	/* Out of range for metadata */
#define MAPLE_ALLOC_SLOTS	(MAPLE_NODE_SLOTS - 2)
#endif

#define MAPLE_NODE_MASK		255UL
/* An encoded node keeps its enum maple_type in these bits. */
#define MAPLE_ENODE_TYPE_SHIFT	3
#define MAPLE_ENODE_TYPE_MASK	0x03UL

/*
 * Opaque handles: a parent pointer (node address, offset in the parent and
 * the parent's type) and an encoded node (node address and its own type).
 */
typedef struct maple_enode *maple_enode;	/* encoded node */
typedef struct maple_pnode *maple_pnode;	/* parent node */

/* Node metadata: index of the last used slot and of the largest gap. */
struct maple_metadata {
	unsigned char end;
	unsigned char gap;
};

struct maple_range_64 {
	struct maple_pnode *parent;
	unsigned long pivot[MAPLE_RANGE64_SLOTS - 1];
	union {
		void __rcu *slot[MAPLE_RANGE64_SLOTS];
		struct {
			void __rcu *pad[MAPLE_RANGE64_SLOTS - 1];
			struct maple_metadata meta;
		};
	};
};

struct maple_arange_64 {
	struct maple_pnode *parent;
	unsigned long pivot[MAPLE_ARANGE64_SLOTS - 1];
	void __rcu *slot[MAPLE_ARANGE64_SLOTS];
	unsigned long gap[MAPLE_ARANGE64_SLOTS];
	struct maple_metadata meta;
};

/* A node waiting in a ma_state's allocation pool. */
struct maple_alloc {
	unsigned long total;
	unsigned char node_count;
	unsigned int request_count;
	struct maple_alloc *slot[MAPLE_ALLOC_SLOTS];
};

enum maple_type {
	maple_dense,
	maple_leaf_64,
	maple_range_64,
	maple_arange_64,
};

/*
 * Tree flags (struct maple_tree.ma_flags).  The tree height lives in bits
 * 2..6; the lock type in bits 8..9.
 */
#define MT_FLAGS_ALLOC_RANGE	0x01
#define MT_FLAGS_USE_RCU	0x02
#define MT_FLAGS_HEIGHT_OFFSET	0x02
#define MT_FLAGS_HEIGHT_MASK	0x7C
#define MT_FLAGS_LOCK_MASK	0x300
#define MT_FLAGS_LOCK_IRQ	0x100
#define MT_FLAGS_LOCK_BH	0x200
#define MT_FLAGS_LOCK_EXTERN	0x300
/* A cyclic allocation wrapped past its range's end (6.12). */
#define MT_FLAGS_ALLOC_WRAPPED	0x0800

#define MAPLE_HEIGHT_MAX	31

struct maple_node {
	union {
		struct {
			struct maple_pnode *parent;
			void __rcu *slot[MAPLE_NODE_SLOTS];
		};
		struct {
			void *pad;
			struct rcu_head rcu;
			struct maple_enode *piv_parent;
			unsigned char parent_slot;
			enum maple_type type;
			unsigned char slot_len;
			unsigned int ma_flags;
		};
		struct maple_range_64 mr64;
		struct maple_arange_64 ma64;
		struct maple_alloc alloc;
	};
};

/*
 * mt_on_stack() marks a tree with an external lock that only its builder
 * sees (Linux 6.12's munmap gathers the removed VMAs in one): no lock is
 * then asked for.
 */
#ifdef CONFIG_LOCKDEP
typedef struct lockdep_map *lockdep_map_p;
#define mt_lock_is_held(mt)						\
	(!(mt)->ma_external_lock || lock_is_held((mt)->ma_external_lock))
#define mt_write_lock_is_held(mt)					\
	(!(mt)->ma_external_lock ||					\
	 lock_is_held_type((mt)->ma_external_lock, 0))
#define mt_set_external_lock(mt, lock)					\
	((mt)->ma_external_lock = &(lock)->dep_map)
#define mt_on_stack(mt)		((mt).ma_external_lock = NULL)
#else
typedef struct { /* nothing */ } lockdep_map_p;
#define mt_lock_is_held(mt)	1
#define mt_write_lock_is_held(mt)	1
#define mt_set_external_lock(mt, lock)	do { } while (0)
#define mt_on_stack(mt)		do { } while (0)
#endif

/*
 * struct maple_tree - the tree root.
 * @ma_lock: the writers' lock, unless MT_FLAGS_LOCK_EXTERN is set
 * @ma_external_lock: lockdep handle of the caller's lock otherwise
 * @ma_root: NULL (empty), a single entry for index 0, or the root node
 * @ma_flags: MT_FLAGS_*, including the height
 */
struct maple_tree {
	union {
		spinlock_t	ma_lock;	/* serialises the writers */
		lockdep_map_p	ma_external_lock;
	};
#if MT_API_612
	/* 6.12's order: the flags fill the hole after a 4-byte lock. */
	unsigned int	ma_flags;
	void __rcu	*ma_root;
#else
	void __rcu	*ma_root;
	unsigned int	ma_flags;
#endif
};

/**
 * MTREE_INIT() - Initialise an empty maple tree in a declaration.
 * @name: The tree's variable name.
 * @__flags: MT_FLAGS_* for the tree.
 */
#define MTREE_INIT(name, __flags) {					\
	.ma_lock = __SPIN_LOCK_UNLOCKED((name).ma_lock),		\
	.ma_root = NULL,						\
	.ma_flags = (__flags),						\
}

/**
 * MTREE_INIT_EXT() - Initialise an empty maple tree with an external lock.
 * @name: The tree's variable name.
 * @__flags: MT_FLAGS_* for the tree; MT_FLAGS_LOCK_EXTERN is implied.
 * @__lock: The caller's lock that writers will hold.
 */
#ifdef CONFIG_LOCKDEP
#define MTREE_INIT_EXT(name, __flags, __lock) {				\
	.ma_external_lock = &(__lock).dep_map,				\
	.ma_root = NULL,						\
	.ma_flags = (__flags) | MT_FLAGS_LOCK_EXTERN,			\
}
#else
#define MTREE_INIT_EXT(name, __flags, __lock)	MTREE_INIT(name, __flags)
#endif

#define DEFINE_MTREE(name)						\
	struct maple_tree name = MTREE_INIT(name, 0)

#define mtree_lock(mt)		spin_lock((&(mt)->ma_lock))
#define mtree_unlock(mt)	spin_unlock((&(mt)->ma_lock))

/*
 * The maple state: where an advanced-API operation stands.
 *
 * @tree: the tree
 * @index, @last: the range being operated on; after a read, the bounds of
 *                the range that holds the returned entry
 * @node: the encoded node of @index (6.1: or one of the MAS_* states below)
 * @min, @max: the range that @node covers
 * @alloc: nodes allocated for a pending write (or a request count)
 * @status: (6.12) ma_active while @node is valid, else what the state is
 * @depth: unused, kept for the kernels' layout (readers do not count levels)
 * @offset: slot of @index in @node
 * @mas_flags: internal state (bulk store, what mas_preallocate() found)
 * @end, @store_type: (6.12) unused, kept for 6.12's layout
 */
#if MT_API_612
enum maple_status {
	ma_active,	/* @node is the node of @index */
	ma_start,	/* nothing walked yet: start at the root */
	ma_root,	/* the tree's only entry is in its root pointer */
	ma_none,	/* the search found nothing */
	ma_pause,	/* the caller dropped the lock mid-iteration */
	ma_overflow,	/* an iteration reached its upper limit */
	ma_underflow,	/* an iteration reached its lower limit */
	ma_error,	/* the last operation failed: xa_err(@node) */
};

/* Linux 6.12's names of the kinds of write, for the state's layout. */
enum store_type {
	wr_invalid,
	wr_new_root,
	wr_store_root,
	wr_exact_fit,
	wr_spanning_store,
	wr_split_store,
	wr_rebalance,
	wr_append,
	wr_node_store,
	wr_slot_store,
};
#endif

struct ma_state {
	struct maple_tree *tree;
	unsigned long index;
	unsigned long last;
	struct maple_enode *node;
	unsigned long min;
	unsigned long max;
	struct maple_alloc *alloc;
#if MT_API_612
	enum maple_status status;
#endif
	unsigned char depth;
	unsigned char offset;
	unsigned char mas_flags;
#if MT_API_612
	unsigned char end;
	enum store_type store_type;
#endif
};

/* A write's view of the state (6.12's mas_wr_dump() prints one). */
struct ma_wr_state;

/* An error is kept in the node word, in both interfaces. */
#define MA_ERROR(err)							\
	((struct maple_enode *)(((unsigned long)(err) << 2) | 2UL))

#if MT_API_612
#define MA_STATE(name, mt, first, end)					\
	struct ma_state name = {					\
		.tree = mt,						\
		.index = first,						\
		.last = end,						\
		.node = NULL,						\
		.status = ma_start,					\
		.min = 0,						\
		.max = ULONG_MAX,					\
		.alloc = NULL,						\
		.mas_flags = 0,						\
		.store_type = wr_invalid,				\
	}
#else
/*
 * Special values of ma_state.node in the 6.1 interface.  None of them can
 * be a node address; their low bits also keep them apart from encoded
 * nodes.
 *
 * MAS_START: nothing walked yet; the next operation starts at the root.
 * MAS_ROOT: the tree holds a single entry in its root pointer.
 * MAS_NONE: the search found nothing; the next operation restarts.
 * MAS_PAUSE: the caller dropped the lock; the next iteration restarts
 *            after (or before) the last range returned.
 * MA_ERROR(err): the last operation failed with @err.
 */
#define MAS_START	((struct maple_enode *)1UL)
#define MAS_ROOT	((struct maple_enode *)5UL)
#define MAS_NONE	((struct maple_enode *)9UL)
#define MAS_PAUSE	((struct maple_enode *)17UL)

#define MA_STATE(name, mt, first, end)					\
	struct ma_state name = {					\
		.tree = mt,						\
		.index = first,						\
		.last = end,						\
		.node = MAS_START,					\
		.min = 0,						\
		.max = ULONG_MAX,					\
		.alloc = NULL,						\
		.mas_flags = 0,						\
	}
#endif

#define mas_lock(mas)		spin_lock(&((mas)->tree->ma_lock))
#define mas_unlock(mas)		spin_unlock(&((mas)->tree->ma_lock))
#define mas_lock_nested(mas, subclass)					\
	spin_lock_nested(&((mas)->tree->ma_lock), subclass)
#define mtree_lock_nested(mt, subclass)					\
	spin_lock_nested(&((mt)->ma_lock), subclass)

/* Normal API */
void *mtree_load(struct maple_tree *mt, unsigned long index);
int mtree_insert(struct maple_tree *mt, unsigned long index,
		 void *entry, gfp_t gfp);
int mtree_insert_range(struct maple_tree *mt, unsigned long first,
		       unsigned long last, void *entry, gfp_t gfp);
int mtree_alloc_range(struct maple_tree *mt, unsigned long *startp,
		      void *entry, unsigned long size, unsigned long min,
		      unsigned long max, gfp_t gfp);
int mtree_alloc_rrange(struct maple_tree *mt, unsigned long *startp,
		       void *entry, unsigned long size, unsigned long min,
		       unsigned long max, gfp_t gfp);
#if MT_API_612
int mtree_alloc_cyclic(struct maple_tree *mt, unsigned long *startp,
		       void *entry, unsigned long range_lo,
		       unsigned long range_hi, unsigned long *next, gfp_t gfp);
#endif
int mtree_store_range(struct maple_tree *mt, unsigned long first,
		      unsigned long last, void *entry, gfp_t gfp);
int mtree_store(struct maple_tree *mt, unsigned long index,
		void *entry, gfp_t gfp);
void *mtree_erase(struct maple_tree *mt, unsigned long index);
int mtree_dup(struct maple_tree *mt, struct maple_tree *new, gfp_t gfp);
int __mt_dup(struct maple_tree *mt, struct maple_tree *new, gfp_t gfp);

void mtree_destroy(struct maple_tree *mt);
void __mt_destroy(struct maple_tree *mt);

/**
 * mtree_empty() - Is the tree empty?
 * @mt: Maple tree.
 *
 * Return: true if no index holds an entry.
 */
static inline bool mtree_empty(const struct maple_tree *mt)
{
	return !mt->ma_root;
}

/* Advanced API */
void *mas_store(struct ma_state *mas, void *entry);
void *mas_erase(struct ma_state *mas);
int mas_store_gfp(struct ma_state *mas, void *entry, gfp_t gfp);
void mas_store_prealloc(struct ma_state *mas, void *entry);
/* The iterators' out-of-line halves: see mas_find() and its kin below. */
void *__mas_find(struct ma_state *mas, unsigned long max);
void *__mas_find_range(struct ma_state *mas, unsigned long max);
void *__mas_find_rev(struct ma_state *mas, unsigned long min);
void *__mas_find_range_rev(struct ma_state *mas, unsigned long min);
void *__mas_next(struct ma_state *mas, unsigned long max);
void *__mas_next_range(struct ma_state *mas, unsigned long max);
void *__mas_prev(struct ma_state *mas, unsigned long min);
void *__mas_prev_range(struct ma_state *mas, unsigned long min);
/*
 * mas_preallocate() allocates exactly what the next store needs: nothing
 * for a slot store or a moved boundary (in RCU mode too), nothing outside
 * RCU mode for another store that stays in its leaf, one node for that in
 * RCU mode, else what the planned rebuild takes.  mas_store_prealloc() of
 * the same range and entry then neither fails nor allocates.
 */
int mas_preallocate(struct ma_state *mas, void *entry, gfp_t gfp);
#if !MT_API_612
bool mas_is_err(struct ma_state *mas);
#endif
bool mas_nomem(struct ma_state *mas, gfp_t gfp);
void mas_pause(struct ma_state *mas);
void maple_tree_init(void);
void mas_destroy(struct ma_state *mas);
int mas_expected_entries(struct ma_state *mas, unsigned long nr_entries);
int mas_reserve_stores(struct ma_state *mas, void *entry,
		       unsigned int nr_more, gfp_t gfp);

#if MT_API_612
int mas_alloc_cyclic(struct ma_state *mas, unsigned long *startp,
		     void *entry, unsigned long range_lo, unsigned long range_hi,
		     unsigned long *next, gfp_t gfp);
#endif
int mas_empty_area(struct ma_state *mas, unsigned long min,
		   unsigned long max, unsigned long size);
int mas_empty_area_rev(struct ma_state *mas, unsigned long min,
		       unsigned long max, unsigned long size);

void *mas_walk(struct ma_state *mas);

/* Checks and dumps, for debug builds and the test suites. */
#ifdef CONFIG_DEBUG_MAPLE_TREE
#if MT_API_612
enum mt_dump_format {
	mt_dump_dec,
	mt_dump_hex,
};

void mt_dump(const struct maple_tree *mt, enum mt_dump_format format);
void mas_dump(const struct ma_state *mas);
void mas_wr_dump(const struct ma_wr_state *wr_mas);
#define mt_dump_default(mt)	mt_dump(mt, mt_dump_hex)
#else
void mt_dump(const struct maple_tree *mt);
#define mt_dump_default(mt)	mt_dump(mt)
#endif
void mt_validate(struct maple_tree *mt);
void mt_cache_shrink(void);
int mt_validate_errors(struct maple_tree *mt);

extern atomic_t maple_tree_tests_run;
extern atomic_t maple_tree_tests_passed;

/*
 * The test assertions count instead of crashing: each checks @__x, counts
 * the check and its pass, and on a failure prints where and carries on,
 * so that a test module can report "N of M tests passed".  __mt_check()
 * is that common part; @__what ("BUG" or "WARN") and @__report, what to
 * print after the failure line, tell them apart.  Its value is whether
 * @__x held.
 */
#define __mt_check(__what, __x, __report) ({				\
	__auto_type __val = (__x);					\
	atomic_inc(&maple_tree_tests_run);				\
	if (__val) {							\
		pr_info(__what " at %s:%d (%u)\n", __func__, __LINE__,	\
			(unsigned int)(unsigned long)__val);		\
		__report;						\
	} else {							\
		atomic_inc(&maple_tree_tests_passed);			\
	}								\
	unlikely(!!__val);						\
})

/* MT_BUG_ON(): dumps @__tree and the counts so far. */
#define MT_BUG_ON(__tree, __x) do {					\
	__mt_check("BUG", __x, ({					\
		mt_dump_default(__tree);				\
		pr_info("Pass: %u Run:%u\n",				\
			atomic_read(&maple_tree_tests_passed),		\
			atomic_read(&maple_tree_tests_run));		\
	}));								\
} while (0)

#define MT_WARN_ON(__tree, __x)						\
	__mt_check("WARN", !!(__x), mt_dump_default(__tree))

#if MT_API_612
/* The same for a state (@__mas) or a write state (@__wrmas): dumps it. */
#define MAS_BUG_ON(__mas, __x) do {					\
	__mt_check("BUG", __x, ({					\
		mas_dump(__mas);					\
		mt_dump((__mas)->tree, mt_dump_hex);			\
		dump_stack();						\
	}));								\
} while (0)

#define MAS_WARN_ON(__mas, __x)						\
	__mt_check("WARN", !!(__x), ({					\
		mas_dump(__mas);					\
		mt_dump((__mas)->tree, mt_dump_hex);			\
		dump_stack();						\
	}))

#define MAS_WR_BUG_ON(__wrmas, __x) do {				\
	__mt_check("BUG", __x, ({					\
		mas_wr_dump(__wrmas);					\
		dump_stack();						\
	}));								\
} while (0)

#define MAS_WR_WARN_ON(__wrmas, __x)					\
	__mt_check("WARN", !!(__x), ({					\
		mas_wr_dump(__wrmas);					\
		dump_stack();						\
	}))
#endif /* MT_API_612 */
#else
#define MT_BUG_ON(__tree, __x)		BUG_ON(__x)
#define MT_WARN_ON(__tree, __x)		WARN_ON(__x)
#if MT_API_612
#define MAS_BUG_ON(__mas, __x)		BUG_ON(__x)
#define MAS_WARN_ON(__mas, __x)		WARN_ON(__x)
#define MAS_WR_BUG_ON(__wrmas, __x)	BUG_ON(__x)
#define MAS_WR_WARN_ON(__wrmas, __x)	WARN_ON(__x)
#endif
#endif

/**
 * mas_reset() - Make the next operation walk from the root again.
 * @mas: Maple Tree operation state.
 *
 * Keeps @mas->index and @mas->last.
 */
static __always_inline void mas_reset(struct ma_state *mas)
{
#if MT_API_612
	mas->status = ma_start;
	mas->node = NULL;
#else
	mas->node = MAS_START;
#endif
}

/**
 * __mas_set_range() - Point the state at a new range without resetting it.
 * @mas: Maple Tree operation state.
 * @start: First index of the range.
 * @last: Last index of the range.
 *
 * The next write starts from the leaf the state stands on if that holds
 * @start, else from the root, so any range will do.  Linux 6.12 allows
 * only a range that starts inside the one the state is on (its writes
 * trust the state's node): code meant for Linux should keep to that.
 */
static inline void __mas_set_range(struct ma_state *mas, unsigned long start,
				   unsigned long last)
{
	mas->index = start;
	mas->last = last;
}

/**
 * mas_set_range() - Set up the state for an operation on [@start, @last].
 * @mas: Maple Tree operation state.
 * @start: First index of the range.
 * @last: Last index of the range.
 *
 * The next operation walks from the root.
 */
static inline void mas_set_range(struct ma_state *mas, unsigned long start,
				 unsigned long last)
{
	__mas_set_range(mas, start, last);
	mas_reset(mas);
}

/**
 * mas_set() - Set up the state for an operation on @index.
 * @mas: Maple Tree operation state.
 * @index: The index.
 */
static inline void mas_set(struct ma_state *mas, unsigned long index)
{
	mas_set_range(mas, index, index);
}

/**
 * mas_is_none() - Did the last operation find nothing?
 * @mas: Maple Tree operation state.
 *
 * Return: true if @mas is in the MAS_NONE state.
 */
static inline bool mas_is_none(const struct ma_state *mas)
{
#if MT_API_612
	return mas->status == ma_none;
#else
	return mas->node == MAS_NONE;
#endif
}

/**
 * mas_is_paused() - Has the iteration been paused?
 * @mas: Maple Tree operation state.
 *
 * Return: true if @mas is in the MAS_PAUSE state.
 */
static inline bool mas_is_paused(const struct ma_state *mas)
{
#if MT_API_612
	return mas->status == ma_pause;
#else
	return mas->node == MAS_PAUSE;
#endif
}

#if MT_API_612
/**
 * mas_init() - Set up a state for an operation on @addr.
 * @mas: Maple Tree operation state.
 * @tree: Maple tree.
 * @addr: The index.
 */
static inline void mas_init(struct ma_state *mas, struct maple_tree *tree,
			    unsigned long addr)
{
	*mas = (struct ma_state) {
		.tree = tree,
		.index = addr,
		.last = addr,
		.max = ULONG_MAX,
		.status = ma_start,
	};
}

/**
 * mas_is_active() - Does the state stand on a node?
 * @mas: Maple Tree operation state.
 *
 * Return: true if @mas is ma_active.
 */
static inline bool mas_is_active(struct ma_state *mas)
{
	return mas->status == ma_active;
}

/**
 * mas_is_err() - Did the last operation on @mas fail?
 * @mas: Maple Tree operation state.
 *
 * Return: true if @mas is ma_error (the error is xa_err(mas->node)).
 */
static inline bool mas_is_err(struct ma_state *mas)
{
	return mas->status == ma_error;
}
#endif

/**
 * mas_for_each() - Iterate over the non-NULL entries from @__mas->index.
 * @__mas: Maple Tree operation state.
 * @__entry: Entry retrieved from the tree.
 * @__max: Last index to look at.
 *
 * The caller holds the tree lock or rcu_read_lock().
 */
#define mas_for_each(__mas, __entry, __max)				\
	for (; ((__entry) = mas_find((__mas), (__max))) != NULL;)

/**
 * mt_external_lock() - Does the tree use a lock of the caller's?
 * @mt: Maple tree.
 *
 * Return: true if MT_FLAGS_LOCK_EXTERN is set.
 */
static inline bool mt_external_lock(const struct maple_tree *mt)
{
	return (READ_ONCE(mt->ma_flags) & MT_FLAGS_LOCK_MASK) ==
		MT_FLAGS_LOCK_EXTERN;
}

/*
 * The iterators' common step, done inline: from the range the state is on
 * to the next (previous) one in the leaf it stands on, the way the XArray
 * steps inside a node without a call.  It reads the leaf as the iterators
 * out of line do (see "RCU readers" in Documentation/core-api/maple_tree.rst)
 * and writes the state only for a range it returns; anything else -- a
 * state on no leaf, the leaf's edge, the limit, a dead leaf, a range whose
 * end moved -- it leaves to the out-of-line half, which then starts from
 * the state as it was.
 */

/* Is the tree lock (or the caller's, with MT_FLAGS_LOCK_EXTERN) held? */
static inline bool mt_locked(const struct maple_tree *mt)
{
	return mt_external_lock(mt) ? mt_lock_is_held(mt) :
		lockdep_is_held(&mt->ma_lock);
}

/*
 * Whether the state stands on a leaf.  One test of the low byte does: a
 * leaf's encoded address has its type there and no other bit, which no
 * MAS_* state and no MA_ERROR() has (they set bit 0 or bit 1;
 * maple_tree_init() checks it).
 */
static __always_inline bool mas_on_leaf(const struct ma_state *mas)
{
#if MT_API_612
	/* Callers set the status alone: the node word may be stale. */
	if (mas->status != ma_active)
		return false;
#endif
	return ((unsigned long)mas->node & MAPLE_NODE_MASK) ==
		(unsigned long)maple_leaf_64 << MAPLE_ENODE_TYPE_SHIFT;
}

/* The leaf the state stands on, once mas_on_leaf() said it does. */
static __always_inline struct maple_range_64 *
mas_leaf_now(const struct ma_state *mas)
{
	return (struct maple_range_64 *)((unsigned long)mas->node &
					 ~MAPLE_NODE_MASK);
}

/* Whether @leaf was replaced: its parent word points at itself. */
static __always_inline bool mas_leaf_dead(const struct maple_range_64 *leaf)
{
	/*
	 * The words taken from the leaf before its parent word: pairs with
	 * the smp_wmb() after the mark in ma_mark_dead() (lib/maple_tree.c).
	 */
	smp_rmb();
	return (const void *)READ_ONCE(leaf->parent) == (const void *)leaf;
}

/*
 * Moves the state to the range [@first, @hi] at slot @off of its leaf.
 */
static __always_inline void mas_leaf_set(struct ma_state *mas,
					 unsigned char off, unsigned long first,
					 unsigned long hi)
{
	mas->offset = off;
	mas->index = first;
	mas->last = hi;
}

/*
 * The range after the state's in its leaf, if it starts at or before @max
 * and is non-NULL or @any: the state is moved to it and true returned.
 *
 * Otherwise false, and the state is left where it was, except that a
 * search that ran into the leaf's last range without finding one leaves
 * the state on that range (as the out-of-line step would), so that the
 * out-of-line half goes on from the next leaf instead of reading this one
 * again.  The leaf is checked to be live once, after every word taken
 * from it was read: a leaf that died at any point fails that check.
 *
 * The loop tests only what ends it in a leaf no writer is changing: a
 * range to take, or the end of the search (@max or the leaf's end,
 * whichever is lower).  A range that a change moved behind the state's
 * (it ends at or before mas->last) is left to the out-of-line half.
 */
static __always_inline bool mas_next_in_leaf(struct ma_state *mas,
					     unsigned long max, bool any,
					     void **entry)
{
	struct maple_range_64 *leaf = mas_leaf_now(mas);
	unsigned long done = mas->last, nmax = mas->max, first, hi;
	unsigned long end = max < nmax ? max : nmax;
	unsigned long off = mas->offset;
	void *next;

	if (!mas_on_leaf(mas) || done >= end)
		return false;
	/* The state's range is not the leaf's last: it has a pivot. */
	hi = READ_ONCE(leaf->pivot[off]);
	/*
	 * Out of line for a range that reaches past what was seen (it grew,
	 * or its slot was filled again elsewhere) and for one that reaches
	 * past @max (done < @max here, so that is one of them).
	 */
	if (hi > done)
		return false;
	for (;;) {
		first = hi + 1;
		if (unlikely(++off == MAPLE_RANGE64_SLOTS - 1))
			break;
		hi = READ_ONCE(leaf->pivot[off]);
		/* After its bounds: ma_leaf_read_entry() in lib/maple_tree.c. */
		smp_rmb();
		next = rcu_dereference_check(leaf->slot[off],
					     mt_locked(mas->tree));
		if (next || any)
			goto found;
		if (hi >= end)
			goto edge;
	}
	/* The leaf's last slot has no pivot: it ends where the leaf does. */
	hi = nmax;
	/* After the bounds, as above. */
	smp_rmb();
	next = rcu_dereference_check(leaf->slot[off], mt_locked(mas->tree));
	if (!next && !any)
		goto edge;
found:
	/*
	 * Bounds again after it: ma_leaf_bounds_still() (lib/maple_tree.c).
	 * A first index of 0 wrapped: the pivot before is ULONG_MAX, the
	 * end of a rightmost leaf that shrank, so the slot is past it.
	 */
	if (unlikely(hi <= done || !first) || mas_leaf_dead(leaf) ||
	    READ_ONCE(leaf->pivot[off - 1]) + 1 != first ||
	    (off < MAPLE_RANGE64_SLOTS - 1 &&
	     READ_ONCE(leaf->pivot[off]) != hi))
		return false;
	mas_leaf_set(mas, off, first, hi);
	*entry = next;
	return true;

edge:
	if (hi < max && hi == nmax && !mas_leaf_dead(leaf))
		mas_leaf_set(mas, off, first, hi);
	return false;
}

/*
 * The range before the state's in its leaf, if it ends at or after @min
 * and is non-NULL or @any: the mirror of mas_next_in_leaf().
 */
static __always_inline bool mas_prev_in_leaf(struct ma_state *mas,
					     unsigned long min, bool any,
					     void **entry)
{
	struct maple_range_64 *leaf = mas_leaf_now(mas);
	unsigned long done = mas->index, nmin = mas->min, lo, hi;
	unsigned long end = min > nmin ? min : nmin;
	unsigned long off = mas->offset;
	void *prev;

	if (!mas_on_leaf(mas) || done <= end)
		return false;
	/* The state's range is not the leaf's first: off > 0. */
	lo = READ_ONCE(leaf->pivot[off - 1]) + 1;
	/* The mirror of mas_next_in_leaf()'s: a range that reaches down. */
	if (lo < done)
		return false;
	for (;;) {
		hi = lo - 1;
		if (unlikely(--off == 0))
			break;
		lo = READ_ONCE(leaf->pivot[off - 1]) + 1;
		/* After its bounds: ma_leaf_read_entry() in lib/maple_tree.c. */
		smp_rmb();
		prev = rcu_dereference_check(leaf->slot[off],
					     mt_locked(mas->tree));
		if (prev || any)
			goto found;
		if (lo <= end)
			goto edge;
	}
	/* The leaf's first slot starts where the leaf does. */
	lo = nmin;
	/* After the bounds, as above. */
	smp_rmb();
	prev = rcu_dereference_check(leaf->slot[0], mt_locked(mas->tree));
	if (!prev && !any)
		goto edge;
found:
	/* A wrapped first index: see mas_next_in_leaf(). */
	if (unlikely(lo >= done || (off && !lo)) || mas_leaf_dead(leaf) ||
	    (off && READ_ONCE(leaf->pivot[off - 1]) + 1 != lo) ||
	    READ_ONCE(leaf->pivot[off]) != hi)
		return false;
	mas_leaf_set(mas, off, lo, hi);
	*entry = prev;
	return true;

edge:
	if (lo > min && lo == nmin && !mas_leaf_dead(leaf))
		mas_leaf_set(mas, off, lo, hi);
	return false;
}

/**
 * mas_find() - Find the next non-NULL entry at or before @max.
 * @mas: Maple Tree operation state.
 * @max: The last index to look at.
 *
 * The first call (state MAS_START) returns the entry at mas->index if there
 * is one; later calls return the entry after the one last returned.  Sets
 * mas->index/last to the bounds of the returned entry.  The caller holds
 * rcu_read_lock() or the tree lock.
 *
 * Return: the entry, or NULL if none starts at or before @max.
 */
static inline void *mas_find(struct ma_state *mas, unsigned long max)
{
	void *entry;

	if (mas_next_in_leaf(mas, max, false, &entry))
		return entry;
	return __mas_find(mas, max);
}

/**
 * mas_find_range() - Find the next range, NULL or not, at or before @max.
 * @mas: Maple Tree operation state.
 * @max: The last index to look at.
 *
 * Like mas_find(), but every range counts, including empty ones; check
 * mas->index/last to see which range the (possibly NULL) entry covers.
 *
 * Return: the entry of the range found, or NULL.
 */
static inline void *mas_find_range(struct ma_state *mas, unsigned long max)
{
	void *entry;

	if (mas_next_in_leaf(mas, max, true, &entry))
		return entry;
	return __mas_find_range(mas, max);
}

/**
 * mas_find_rev() - Find the previous non-NULL entry ending at or after @min.
 * @mas: Maple Tree operation state.
 * @min: The lowest index to look at.
 *
 * The first call returns the entry at mas->index if there is one; later
 * calls return the entry before the one last returned.  The caller holds
 * rcu_read_lock() or the tree lock.
 *
 * Return: the entry, or NULL.
 */
static inline void *mas_find_rev(struct ma_state *mas, unsigned long min)
{
	void *entry;

	if (mas_prev_in_leaf(mas, min, false, &entry))
		return entry;
	return __mas_find_rev(mas, min);
}

/**
 * mas_find_range_rev() - Find the previous range, NULL or not.
 * @mas: Maple Tree operation state.
 * @min: The lowest index to look at.
 *
 * Return: the entry of the range found (possibly NULL).
 */
static inline void *mas_find_range_rev(struct ma_state *mas,
				       unsigned long min)
{
	void *entry;

	if (mas_prev_in_leaf(mas, min, true, &entry))
		return entry;
	return __mas_find_range_rev(mas, min);
}

/**
 * mas_next() - The next non-NULL entry after the current range.
 * @mas: Maple Tree operation state.
 * @max: The last index an entry may start at.
 *
 * From MAS_START, first walks to mas->index.  The caller holds
 * rcu_read_lock() or the tree lock.
 *
 * Return: the entry (mas->index/last set to its range) or NULL.
 */
static inline void *mas_next(struct ma_state *mas, unsigned long max)
{
	void *entry;

	if (mas_next_in_leaf(mas, max, false, &entry))
		return entry;
	return __mas_next(mas, max);
}

/**
 * mas_next_range() - The range after the current one, NULL or not.
 * @mas: Maple Tree operation state.
 * @max: The last index the range may start at.
 *
 * Return: the entry of the next range (possibly NULL).
 */
static inline void *mas_next_range(struct ma_state *mas, unsigned long max)
{
	void *entry;

	if (mas_next_in_leaf(mas, max, true, &entry))
		return entry;
	return __mas_next_range(mas, max);
}

/**
 * mas_prev() - The previous non-NULL entry before the current range.
 * @mas: Maple Tree operation state.
 * @min: The lowest index an entry may end at.
 *
 * From MAS_START, first walks to mas->index.  The caller holds
 * rcu_read_lock() or the tree lock.
 *
 * Return: the entry (mas->index/last set to its range) or NULL.
 */
static inline void *mas_prev(struct ma_state *mas, unsigned long min)
{
	void *entry;

	if (mas_prev_in_leaf(mas, min, false, &entry))
		return entry;
	return __mas_prev(mas, min);
}

/**
 * mas_prev_range() - The range before the current one, NULL or not.
 * @mas: Maple Tree operation state.
 * @min: The lowest index the range may end at.
 *
 * Return: the entry of the previous range (possibly NULL).
 */
static inline void *mas_prev_range(struct ma_state *mas, unsigned long min)
{
	void *entry;

	if (mas_prev_in_leaf(mas, min, true, &entry))
		return entry;
	return __mas_prev_range(mas, min);
}

/**
 * mt_init_flags() - Initialise an empty tree with flags.
 * @mt: Maple tree.
 * @flags: MT_FLAGS_* for the tree.
 *
 * A tree set up with MT_FLAGS_USE_RCU starts in RCU mode.
 */
static inline void mt_init_flags(struct maple_tree *mt, unsigned int flags)
{
	mt->ma_flags = flags;
	if (!mt_external_lock(mt))
		spin_lock_init(&mt->ma_lock);
	rcu_assign_pointer(mt->ma_root, NULL);
}

/**
 * mt_init() - Initialise an empty tree with no flags.
 * @mt: Maple tree.
 */
static inline void mt_init(struct maple_tree *mt)
{
	mt_init_flags(mt, 0);
}

/**
 * mt_in_rcu() - Is the tree in RCU mode?
 * @mt: Maple tree.
 *
 * Return: true if readers may run under rcu_read_lock() beside a writer.
 */
static inline bool mt_in_rcu(struct maple_tree *mt)
{
#ifdef CONFIG_MAPLE_RCU_DISABLED
	return false;
#endif
	return READ_ONCE(mt->ma_flags) & MT_FLAGS_USE_RCU;
}

/**
 * mt_clear_in_rcu() - Leave RCU mode.
 * @mt: Maple tree.
 *
 * Takes the tree lock unless the tree uses an external lock, which the
 * caller must then hold.
 */
static inline void mt_clear_in_rcu(struct maple_tree *mt)
{
	if ((mt->ma_flags & MT_FLAGS_USE_RCU) == 0)
		return;

	if (mt_external_lock(mt)) {
		WARN_ON(!mt_lock_is_held(mt));
		mt->ma_flags &= ~MT_FLAGS_USE_RCU;
	} else {
		mtree_lock(mt);
		mt->ma_flags &= ~MT_FLAGS_USE_RCU;
		mtree_unlock(mt);
	}
}

/**
 * mt_set_in_rcu() - Enter RCU mode.
 * @mt: Maple tree.
 *
 * Takes the tree lock unless the tree uses an external lock, which the
 * caller must then hold.
 */
static inline void mt_set_in_rcu(struct maple_tree *mt)
{
	if (mt->ma_flags & MT_FLAGS_USE_RCU)
		return;

	if (mt_external_lock(mt)) {
		WARN_ON(!mt_lock_is_held(mt));
		mt->ma_flags |= MT_FLAGS_USE_RCU;
	} else {
		mtree_lock(mt);
		mt->ma_flags |= MT_FLAGS_USE_RCU;
		mtree_unlock(mt);
	}
}

/**
 * mt_height() - The number of node levels in the tree.
 * @mt: Maple tree.
 *
 * Return: 0 for an empty tree or one whose only entry is in the root
 * pointer, otherwise the number of levels from the root node to a leaf.
 */
static inline unsigned int mt_height(const struct maple_tree *mt)
{
	return (READ_ONCE(mt->ma_flags) & MT_FLAGS_HEIGHT_MASK) >>
		MT_FLAGS_HEIGHT_OFFSET;
}

void *mt_find(struct maple_tree *mt, unsigned long *index, unsigned long max);
void *mt_find_after(struct maple_tree *mt, unsigned long *index,
		    unsigned long max);
void *mt_prev(struct maple_tree *mt, unsigned long index, unsigned long min);
void *mt_next(struct maple_tree *mt, unsigned long index, unsigned long max);

/**
 * mt_for_each() - Iterate over the non-NULL entries of a tree.
 * @__tree: Maple tree.
 * @__entry: Entry retrieved from the tree.
 * @__index: Index to start from; after each step, one past the last index
 *           of the entry just returned.
 * @__max: Last index to look at.
 *
 * Takes rcu_read_lock() for each step, so the body may sleep.
 */
#define mt_for_each(__tree, __entry, __index, __max)			\
	for (__entry = mt_find(__tree, &(__index), __max);		\
	     __entry; __entry = mt_find_after(__tree, &(__index), __max))

#endif /* _LINUX_MAPLE_TREE_H */
