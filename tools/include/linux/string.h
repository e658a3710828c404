/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/string.h>: the C library's string functions
 * (the uapi header of the same name includes <string.h>), plus a few kernel
 * additions.
 */
#ifndef _TOOLS_LINUX_STRING_H
#define _TOOLS_LINUX_STRING_H

#include_next <linux/string.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/types.h>

/**
 * strscpy() - Copy a string into a sized buffer, always terminating it.
 * @dest: Destination buffer.
 * @src: Source string.
 * @count: Size of @dest in bytes.
 *
 * Return: The length copied, or -E2BIG if @src was truncated.
 */
static inline long strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (count == 0)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}

/* Return a pointer to the first byte of @start not equal to @c, or NULL. */
static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const unsigned char *p = start;

	for (; bytes; bytes--, p++)
		if (*p != (unsigned char)c)
			return (void *)p;
	return NULL;
}

#endif /* _TOOLS_LINUX_STRING_H */
