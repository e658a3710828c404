/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vma_bench.c calls of one mm/ backend.  bench_ops.c is built once
 * per backend and exports only vma_bench_ops_<backend> (see rules.mk), so
 * the mm is opaque here: the backends' struct mm_struct differ.
 *
 * The upstream backends (mm/ on Linux 6.1's own lib/maple_tree.c,
 * "upstream", and on 6.12's, "upstream-6.12") are linked only when make
 * bench finds Debian's linux-source-6.1 or -6.12; their ops are weak
 * references, NULL when absent.
 */
#ifndef _VMA_BENCH_OPS_H
#define _VMA_BENCH_OPS_H

#include <stdbool.h>

/* Access and kind of a mapping, translated to mm/'s PROT_* and MAP_*. */
#define BENCH_PROT_READ		0x1
#define BENCH_PROT_WRITE	0x2
#define BENCH_PROT_EXEC		0x4
#define BENCH_MAP_SHARED	0x1	/* else private */
#define BENCH_MAP_FIXED		0x2

struct vma_bench_ops {
	const char *name;
	/* Set up the backend's tree, once, before anything else (or NULL). */
	void (*init)(void);
	/* A new, empty mm (mm_alloc()). */
	void *(*mm_new)(void);
	void (*mm_put)(void *mm);
	/*
	 * vm_mmap(): @file is an identity only (mm/ compares it, never
	 * reads it), NULL for anonymous memory.  Returns the address or a
	 * negative errno.
	 */
	unsigned long (*mmap)(void *mm, const void *file, unsigned long addr,
			      unsigned long len, int prot, int flags,
			      unsigned long pgoff);
	int (*munmap)(void *mm, unsigned long addr, unsigned long len);
	int (*mprotect)(void *mm, unsigned long addr, unsigned long len,
			int prot);
	/* mm_brk(): the new end of the heap, or the old one on failure. */
	unsigned long (*brk)(void *mm, unsigned long brk);
	unsigned long (*start_brk)(void *mm);
	/* handle_fault(), a read or a write access. */
	int (*fault)(void *mm, unsigned long addr, bool write);
	/* handle_fault_lockless(): Linux 6.4+'s fault, the same on rbtree. */
	int (*fault_lockless)(void *mm, unsigned long addr, bool write);
	/* dup_mmap(): the child's mm, or NULL. */
	void *(*fork)(void *mm);
	/* One pass over every VMA, in order: the number visited. */
	unsigned long (*iterate)(void *mm);
	int (*map_count)(void *mm);
};

extern const struct vma_bench_ops vma_bench_ops_maple;
extern const struct vma_bench_ops vma_bench_ops_rbtree;
extern const struct vma_bench_ops vma_bench_ops_upstream __attribute__((weak));
extern const struct vma_bench_ops vma_bench_ops_upstream612 __attribute__((weak));

#endif /* _VMA_BENCH_OPS_H */
