/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/slab.h>: kmem caches and kmalloc on top of
 * the C library allocator, with the extras a test harness needs.
 *
 * - Objects are aligned as asked (kmem_cache_create()'s @align, 64 bytes
 *   with SLAB_HWCACHE_ALIGN, at least sizeof(void *)); the constructor runs
 *   when an object is first created, and freed objects keep their
 *   constructed state, as in the kernel.
 * - Each thread keeps a small bounded free list per cache (like SLUB's
 *   per-cpu fast path), so an alloc/free pair takes no lock.  Sanitizer
 *   builds disable it: every free really frees, so use-after-free is caught.
 * - Every allocation can be made to fail on demand (kmem_fault_*()), and
 *   objects are counted so leaks are found (kmem_leak_check()).  Fault
 *   injection and counting cover kmem_cache_alloc*() (each object of a bulk
 *   allocation counts), and the kmalloc family.  __GFP_NOFAIL allocations
 *   are never failed on purpose.
 */
#ifndef _TOOLS_LINUX_SLAB_H
#define _TOOLS_LINUX_SLAB_H

#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/types.h>
/* In a kernel these come with the slab's own headers. */
#include <linux/string.h>
#include <linux/init.h>

#define SLAB_HWCACHE_ALIGN	((slab_flags_t)0x00002000u)
#define SLAB_CACHE_DMA		((slab_flags_t)0x00004000u)
#define SLAB_PANIC		((slab_flags_t)0x00040000u)
#define SLAB_TYPESAFE_BY_RCU	((slab_flags_t)0x00080000u)
#define SLAB_MEM_SPREAD		((slab_flags_t)0x00100000u)
#define SLAB_NOLEAKTRACE	((slab_flags_t)0x00800000u)
#define SLAB_ACCOUNT		((slab_flags_t)0x04000000u)
#define SLAB_RECLAIM_ACCOUNT	((slab_flags_t)0x00020000u)
#define SLAB_POISON		((slab_flags_t)0x00000800u)
#define SLAB_RED_ZONE		((slab_flags_t)0x00000400u)

#define ARCH_KMALLOC_MINALIGN	__alignof__(unsigned long long)
#define ARCH_SLAB_MINALIGN	__alignof__(unsigned long long)

struct kmem_cache;

/**
 * kmem_cache_create() - Create a cache of same-sized objects.
 * @name: Name shown by kmem_leak_check(); must stay valid.
 * @size: Object size in bytes.
 * @align: Required alignment (0 for the default), a power of two.
 * @flags: SLAB_* flags; SLAB_HWCACHE_ALIGN and SLAB_PANIC are honoured.
 * @ctor: Constructor run once when an object is first created, or NULL.
 *
 * Return: The cache, or NULL on failure (a BUG() with SLAB_PANIC).
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));

/**
 * kmem_cache_destroy() - Destroy a cache.
 * @s: The cache, or NULL.  Objects still allocated from it are reported.
 */
void kmem_cache_destroy(struct kmem_cache *s);

/**
 * kmem_cache_alloc() - Allocate an object.
 * @s: The cache.
 * @gfp: Allocation flags; __GFP_ZERO zeroes the object.
 *
 * Return: The object, or NULL on failure (real or injected).
 */
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp) __malloc;

/**
 * kmem_cache_free() - Return an object to its cache.
 * @s: The cache the object came from.
 * @objp: The object, or NULL.
 */
void kmem_cache_free(struct kmem_cache *s, void *objp);

/**
 * kmem_cache_alloc_bulk() - Allocate several objects at once.
 * @s: The cache.
 * @gfp: Allocation flags.
 * @size: Number of objects wanted.
 * @p: Array receiving @size object pointers.
 *
 * Return: @size on success; 0 on failure, with any objects already
 * allocated freed again.
 */
int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t gfp, size_t size,
			  void **p);

/**
 * kmem_cache_free_bulk() - Free several objects at once.
 * @s: The cache, or NULL for objects from kmalloc().
 * @size: Number of objects.
 * @p: The objects.
 */
void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p);

static inline void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t gfp)
{
	return kmem_cache_alloc(s, gfp | __GFP_ZERO);
}

#define kmem_cache_alloc_node(s, gfp, node)	kmem_cache_alloc(s, gfp)
#define kmem_cache_shrink(s)			((void)(s), 0)
#define kmem_cache_size(s)			__kmem_cache_size(s)
unsigned int __kmem_cache_size(struct kmem_cache *s);

#define KMEM_CACHE(__struct, __flags)					\
	kmem_cache_create(#__struct, sizeof(struct __struct),		\
			  __alignof__(struct __struct), (__flags), NULL)

/**
 * kmalloc() - Allocate memory.
 * @size: Bytes wanted.
 * @gfp: Allocation flags; __GFP_ZERO zeroes the memory.
 *
 * Return: Memory aligned to at least ARCH_KMALLOC_MINALIGN, or NULL.
 */
void *kmalloc(size_t size, gfp_t gfp) __malloc;

/**
 * kfree() - Free memory from kmalloc() and friends.
 * @objp: The memory, or NULL.
 */
void kfree(const void *objp);

/**
 * krealloc() - Resize memory from kmalloc().
 * @p: The memory, or NULL.
 * @new_size: New size in bytes; 0 frees @p.
 * @gfp: Allocation flags.
 *
 * Return: The resized memory, or NULL with @p untouched on failure.
 */
void *krealloc(const void *p, size_t new_size, gfp_t gfp);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, gfp);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kmalloc_array(n, size, gfp | __GFP_ZERO);
}

#define kmalloc_node(size, gfp, node)	kmalloc(size, gfp)
#define kzalloc_node(size, gfp, node)	kzalloc(size, gfp)
#define kvmalloc(size, gfp)		kmalloc(size, gfp)
#define kvzalloc(size, gfp)		kzalloc(size, gfp)
#define kvcalloc(n, size, gfp)		kcalloc(n, size, gfp)
#define kvfree(p)			kfree(p)
#define kfree_sensitive(p)		kfree(p)

/* ---- userspace harness only ---- */

/**
 * kmem_fault_nth() - Fail exactly one future allocation.
 * @n: Fail the @n-th allocation from now on (1 = the next one); 0 disables.
 */
void kmem_fault_nth(long n);

/**
 * kmem_fault_after() - Fail every allocation after the next @n.
 * @n: Allocations still allowed to succeed; negative disables.
 */
void kmem_fault_after(long n);

/**
 * kmem_fault_reset() - Disable fault injection and zero kmem_fault_count().
 */
void kmem_fault_reset(void);

/**
 * kmem_fault_count() - Number of allocations failed on purpose.
 *
 * Return: The count since the last kmem_fault_reset().
 */
long kmem_fault_count(void);

/**
 * kmem_nr_allocated() - Objects handed out so far, all caches and kmalloc.
 *
 * Return: The count since the process started; failed allocations excluded.
 */
long kmem_nr_allocated(void);

/**
 * kmem_nr_freed() - Objects returned so far, all caches and kmalloc.
 *
 * Return: The count since the process started.
 */
long kmem_nr_freed(void);

/**
 * kmem_nr_live() - Objects allocated and not yet freed.
 *
 * Return: kmem_nr_allocated() - kmem_nr_freed(), read consistently.
 */
long kmem_nr_live(void);

/**
 * kmem_nr_live_settled() - Objects that stay allocated once every callback
 * queued with call_rcu() has run.
 *
 * kmem_nr_live() less the callbacks still waiting for a grace period, read
 * at one moment, without waiting: each callback the tree queues frees one
 * object.  Only in builds with TOOLS_RCU_PENDING (the fuzzer's), where
 * call_rcu() counts its callbacks.
 */
long kmem_nr_live_settled(void);

/**
 * kmem_cache_nr_live() - Objects of one cache allocated and not yet freed.
 * @s: The cache, or NULL for the kmalloc family.
 *
 * Return: The count.
 */
long kmem_cache_nr_live(struct kmem_cache *s);

/**
 * kmem_leak_check() - Wait for RCU callbacks, then count live objects.
 *
 * Calls rcu_barrier() so objects freed with call_rcu()/kfree_rcu() are
 * counted as freed, then prints (through printk) every cache that still has
 * live objects.
 *
 * Return: kmem_nr_live() after the barrier.
 */
long kmem_leak_check(void);

#endif /* _TOOLS_LINUX_SLAB_H */
