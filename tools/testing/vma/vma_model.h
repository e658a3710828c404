/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference model of an address space for mm/'s tests: a plain sorted
 * array of mappings (start, end, flags, object, page offset), changed by
 * the simplest code that can be right (cut, insert, merge the whole array
 * again) and written from the system calls' documented behaviour, never
 * from mm/'s code.  Its answers are the expected values of the
 * differential test.  It uses libc memory, so it never disturbs the slab
 * counters or fault injection.
 */
#ifndef _VMA_MODEL_H
#define _VMA_MODEL_H

#include <kunit/test.h>
#include <linux/mm.h>

struct vmm_vma {
	unsigned long start, end, flags, pgoff;
	struct file *file;
};

struct vmm {
	struct vmm_vma *v;
	int nr, cap;
	/* The layout, as in the mm_struct it mirrors. */
	unsigned long task_size, mmap_base, start_brk, brk;
	bool legacy;
	int max_count;		/* sysctl_max_map_count */
	unsigned long min_addr;	/* mmap_min_addr */
};

void vmm_init(struct vmm *m, const struct mm_struct *mm);
void vmm_destroy(struct vmm *m);
void vmm_copy(struct vmm *dst, const struct vmm *src);

unsigned long vmm_mmap(struct vmm *m, struct file *file, unsigned long addr,
		       unsigned long len, unsigned long prot,
		       unsigned long flags, unsigned long pgoff);
int vmm_munmap(struct vmm *m, unsigned long start, unsigned long len);
unsigned long vmm_brk(struct vmm *m, unsigned long brk);
int vmm_mprotect(struct vmm *m, unsigned long start, unsigned long len,
		 unsigned long prot);
unsigned long vmm_mremap(struct vmm *m, unsigned long addr,
			 unsigned long old_len, unsigned long new_len,
			 unsigned long flags, unsigned long new_addr);
int vmm_fault(const struct vmm *m, unsigned long addr, unsigned int access);
void vmm_clear(struct vmm *m);
unsigned long vmm_pages(const struct vmm *m);

/*
 * Does @mm hold exactly what @m holds (VMAs through find_vma(), the
 * iterator forwards and vma_prev() backwards, map_count, total_vm, brk)?
 * On a difference, reports it as a test failure naming @what and returns
 * false.  Takes mmap_lock for read.
 */
bool vmm_check(struct kunit *test, const struct vmm *m, struct mm_struct *mm,
	       const char *what);

#endif /* _VMA_MODEL_H */
