/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/err.h>: errors encoded in pointers.
 *
 * The top MAX_ERRNO addresses are never valid pointers, so a negative errno
 * cast to a pointer lands there and can be told apart from a real object.
 */
#ifndef _TOOLS_LINUX_ERR_H
#define _TOOLS_LINUX_ERR_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/errno.h>

#define MAX_ERRNO	4095

#define IS_ERR_VALUE(x) \
	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

/**
 * ERR_PTR() - Encode a negative errno as a pointer.
 * @error: A value in -MAX_ERRNO..-1.
 *
 * Return: A pointer for which IS_ERR() is true.
 */
static inline void *__must_check ERR_PTR(long error)
{
	return (void *)error;
}

/**
 * PTR_ERR() - Decode the errno held in an error pointer.
 * @ptr: A pointer for which IS_ERR() is true.
 *
 * Return: The negative errno.
 */
static inline long __must_check PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

/**
 * IS_ERR() - Does a pointer hold an errno?
 * @ptr: Any pointer.
 *
 * Return: true if @ptr was made by ERR_PTR().
 */
static inline bool __must_check IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

/**
 * IS_ERR_OR_NULL() - Is a pointer NULL or an errno?
 * @ptr: Any pointer.
 *
 * Return: true if @ptr is NULL or was made by ERR_PTR().
 */
static inline bool __must_check IS_ERR_OR_NULL(const void *ptr)
{
	return unlikely(!ptr) || IS_ERR_VALUE((unsigned long)ptr);
}

/**
 * ERR_CAST() - Pass an error pointer on as another pointer type.
 * @ptr: An error pointer.
 *
 * Return: @ptr, with const dropped.
 */
static inline void *__must_check ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

/**
 * PTR_ERR_OR_ZERO() - The errno held in a pointer, or 0.
 * @ptr: Any pointer.
 *
 * Return: PTR_ERR(@ptr) if IS_ERR(@ptr), else 0.
 */
static inline int __must_check PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif /* _TOOLS_LINUX_ERR_H */
