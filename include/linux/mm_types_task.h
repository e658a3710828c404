/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task pieces of the memory-management types: the VMA lookup cache of
 * the pre-6.1 design (CONFIG_MM_VMA_RBTREE), kept in each task.
 */
#ifndef _LINUX_MM_TYPES_TASK_H
#define _LINUX_MM_TYPES_TASK_H

#include <linux/types.h>

#define VMACACHE_BITS	2
#define VMACACHE_SIZE	(1U << VMACACHE_BITS)
#define VMACACHE_MASK	(VMACACHE_SIZE - 1)

struct mm_struct;
struct vm_area_struct;

/*
 * struct vmacache - the last VMAs a task found, by page number hash.
 * @seqnum: the mm's vmacache_seqnum when the entries were filled; a
 *          different value means every entry is stale
 * @mm: the address space the entries belong to
 * @vmas: the cached VMAs
 */
struct vmacache {
	u64 seqnum;
	struct mm_struct *mm;
	struct vm_area_struct *vmas[VMACACHE_SIZE];
};

#endif /* _LINUX_MM_TYPES_TASK_H */
