/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/types.h>.
 *
 * The name collides with the uapi header in /usr/include/linux, which glibc
 * and other system headers include; so the system header is pulled in first
 * with #include_next (giving __u8, __le32, ...) and only the kernel-internal
 * types are added on top.  Everything here must stay safe to include from
 * system headers: plain typedefs, no functions, no macros with common names.
 */
#ifndef _TOOLS_LINUX_TYPES_H
#define _TOOLS_LINUX_TYPES_H

#include_next <linux/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/kconfig.h>

typedef __u8  u8;
typedef __s8  s8;
typedef __u16 u16;
typedef __s16 s16;
typedef __u32 u32;
typedef __s32 s32;
typedef __u64 u64;
typedef __s64 s64;

typedef unsigned int gfp_t;
typedef unsigned int slab_flags_t;
typedef unsigned long pgoff_t;
typedef unsigned long irq_hw_number_t;

/*
 * Atomic counters are structs so that plain arithmetic on them does not
 * compile; the operations are in <linux/atomic.h>.
 */
typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

typedef struct {
	s64 counter;
} atomic64_t;

/* Doubly linked list heads; the list operations are not provided yet. */
struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#endif /* _TOOLS_LINUX_TYPES_H */
