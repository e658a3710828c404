/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/mm_types_task.h>, the memory-management
 * types that live in struct task_struct: here only the per-task VMA
 * lookup cache of the pre-6.1 design (mm/ built with
 * CONFIG_MM_VMA_RBTREE), a member of the stand-in task_struct
 * (<linux/sched.h>).  Kept with the stand-ins so every userspace build
 * of tools/lib/ finds it, with or without the top-level include/.
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
