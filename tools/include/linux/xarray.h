/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the entry-encoding part of <linux/xarray.h>; the
 * maple tree shares these encodings.  The XArray itself is not provided.
 *
 * An entry's two low bits say what it is:
 *   x0  - a pointer (4-byte aligned objects have 00)
 *   x1  - a value entry: an integer v stored as (v << 1) | 1
 *   10  - an internal entry: (v << 2) | 2; small ones are reserved markers
 *         (XA_RETRY_ENTRY = 256, XA_ZERO_ENTRY = 257) and the top MAX_ERRNO
 *         ones carry a negative errno.
 */
#ifndef _TOOLS_LINUX_XARRAY_H
#define _TOOLS_LINUX_XARRAY_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/types.h>

/**
 * xa_mk_value() - Make a value entry from an integer.
 * @v: Value to store; must fit in BITS_PER_LONG - 1 bits.
 *
 * Return: An entry for which xa_is_value() is true.
 */
static inline void *xa_mk_value(unsigned long v)
{
	WARN_ON((long)v < 0);
	return (void *)((v << 1) | 1);
}

/**
 * xa_to_value() - The integer stored in a value entry.
 * @entry: An entry made by xa_mk_value().
 *
 * Return: The integer.
 */
static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}

/**
 * xa_is_value() - Is the entry a value entry?
 * @entry: Any entry.
 *
 * Return: true if @entry was made by xa_mk_value().
 */
static inline bool xa_is_value(const void *entry)
{
	return (unsigned long)entry & 1;
}

/* Tagged pointers: the two low bits of an aligned pointer carry a tag. */
static inline void *xa_tag_pointer(void *p, unsigned long tag)
{
	return (void *)((unsigned long)p | tag);
}

static inline void *xa_untag_pointer(void *entry)
{
	return (void *)((unsigned long)entry & ~3UL);
}

static inline unsigned int xa_pointer_tag(void *entry)
{
	return (unsigned long)entry & 3UL;
}

/**
 * xa_mk_internal() - Make an internal entry.
 * @v: The value to encode.
 *
 * Return: (@v << 2) | 2 as a pointer.
 */
static inline void *xa_mk_internal(unsigned long v)
{
	return (void *)((v << 2) | 2);
}

/**
 * xa_to_internal() - The value encoded in an internal entry.
 * @entry: An entry made by xa_mk_internal().
 *
 * Return: The value.
 */
static inline unsigned long xa_to_internal(const void *entry)
{
	return (unsigned long)entry >> 2;
}

/**
 * xa_is_internal() - Is the entry an internal entry?
 * @entry: Any entry.
 *
 * Return: true if the two low bits of @entry are 10.
 */
static inline bool xa_is_internal(const void *entry)
{
	return ((unsigned long)entry & 3) == 2;
}

/*
 * xa_is_node() - Is the entry an internal pointer to a node?  Private to
 * the XArray in the kernel, where the maple tree uses it for its root.
 * @entry: Any entry.
 *
 * Return: true for internal entries above the reserved values.
 */
static inline bool xa_is_node(const void *entry)
{
	return xa_is_internal(entry) && (unsigned long)entry > 4096;
}

#define XA_RETRY_ENTRY	xa_mk_internal(256)
#define XA_ZERO_ENTRY	xa_mk_internal(257)

/**
 * xa_is_zero() - Is the entry the reserved zero entry?
 * @entry: Any entry.
 *
 * Return: true if @entry is XA_ZERO_ENTRY.
 */
static inline bool xa_is_zero(const void *entry)
{
	return unlikely(entry == XA_ZERO_ENTRY);
}

static inline bool xa_is_retry(const void *entry)
{
	return unlikely(entry == XA_RETRY_ENTRY);
}

/**
 * xa_is_advanced() - Is the entry one only the advanced API may store?
 * @entry: Any entry.
 *
 * Return: true for the reserved internal entries (0..XA_RETRY_ENTRY's
 * value, which includes node pointers and sibling entries in the XArray).
 */
static inline bool xa_is_advanced(const void *entry)
{
	return xa_is_internal(entry) && (entry <= XA_RETRY_ENTRY);
}

/**
 * xa_is_err() - Does the entry carry an errno?
 * @entry: Any entry.
 *
 * Return: true for internal entries at or above xa_mk_internal(-MAX_ERRNO).
 */
static inline bool xa_is_err(const void *entry)
{
	return unlikely(xa_is_internal(entry) &&
			entry >= xa_mk_internal(-MAX_ERRNO));
}

/**
 * xa_err() - The errno carried by an entry.
 * @entry: Any entry.
 *
 * Return: The negative errno if xa_is_err(@entry), else 0.
 */
static inline int xa_err(void *entry)
{
	if (xa_is_err(entry))
		return (long)entry >> 2;
	return 0;
}

#endif /* _TOOLS_LINUX_XARRAY_H */
