/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmap_lock: the rw_semaphore that serialises changes to an address
 * space's VMAs.  On the maple backend the end of a write hold also ends
 * every per-VMA write lock taken under it (mm_lock_seq, see
 * vma_start_write() in mm/).
 */
#ifndef _LINUX_MMAP_LOCK_H
#define _LINUX_MMAP_LOCK_H

#include <linux/compiler.h>
#include <linux/mm_types.h>
#include <linux/rwsem.h>

static inline void mmap_init_lock(struct mm_struct *mm)
{
	init_rwsem(&mm->mmap_lock);
}

static inline void mmap_write_lock(struct mm_struct *mm)
{
	down_write(&mm->mmap_lock);
}

static inline void mmap_write_unlock(struct mm_struct *mm)
{
#ifndef CONFIG_MM_VMA_RBTREE
	/* Readers compare with acquire: what we wrote is theirs to see. */
	smp_store_release(&mm->mm_lock_seq, mm->mm_lock_seq + 1);
#endif
	up_write(&mm->mmap_lock);
}

static inline void mmap_read_lock(struct mm_struct *mm)
{
	down_read(&mm->mmap_lock);
}

static inline void mmap_read_unlock(struct mm_struct *mm)
{
	up_read(&mm->mmap_lock);
}

static inline void mmap_assert_locked(struct mm_struct *mm)
{
	lockdep_assert_held(&mm->mmap_lock);
}

static inline void mmap_assert_write_locked(struct mm_struct *mm)
{
	lockdep_assert_held_write(&mm->mmap_lock);
}

#endif /* _LINUX_MMAP_LOCK_H */
