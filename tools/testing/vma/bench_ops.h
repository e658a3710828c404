/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vma_bench.c calls of one mm/ backend.  bench_ops.c is built once
 * per backend and exports only vma_bench_ops_maple / vma_bench_ops_rbtree
 * (see rules.mk), so the mm is opaque here: the two backends' struct
 * mm_struct differ.
 */
#ifndef _VMA_BENCH_OPS_H
#define _VMA_BENCH_OPS_H

struct vma_bench_ops {
	const char *name;
	/* A new mm with the benchmark's layout. */
	void *(*mm_new)(void);
	void (*mm_put)(void *mm);
	unsigned long (*mmap_anon)(void *mm, unsigned long addr,
				   unsigned long len, int writable);
	int (*munmap)(void *mm, unsigned long addr, unsigned long len);
	int (*fault)(void *mm, unsigned long addr);
	int (*fault_lockless)(void *mm, unsigned long addr);
	/* One pass over every VMA, in order: the number visited. */
	unsigned long (*iterate)(void *mm);
	int (*map_count)(void *mm);
};

extern const struct vma_bench_ops vma_bench_ops_maple;
extern const struct vma_bench_ops vma_bench_ops_rbtree;

#endif /* _VMA_BENCH_OPS_H */
