/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/sprintf.h>: the C library's formatting
 * functions, plus scnprintf() and kasprintf().
 */
#ifndef _TOOLS_LINUX_SPRINTF_H
#define _TOOLS_LINUX_SPRINTF_H

#include <stdarg.h>
#include <stdio.h>
#include <linux/compiler.h>
#include <linux/types.h>

/**
 * vscnprintf() - vsnprintf() that returns what was actually written.
 * @buf: Buffer.
 * @size: Its size in bytes.
 * @fmt: Format.
 * @args: Arguments.
 *
 * Return: Characters written to @buf, not counting the NUL; 0 if @size is 0.
 */
static inline int vscnprintf(char *buf, size_t size, const char *fmt,
			     va_list args)
{
	int n;

	if (!size)
		return 0;
	n = vsnprintf(buf, size, fmt, args);
	if (n < 0)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

static inline __printf(3, 4) int scnprintf(char *buf, size_t size,
					   const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

/**
 * kasprintf() - Format into memory from kmalloc().
 * @gfp: Allocation flags.
 * @fmt: Format.
 *
 * Return: The string (free with kfree()), or NULL.
 */
char *kasprintf(gfp_t gfp, const char *fmt, ...) __printf(2, 3) __malloc;
char *kvasprintf(gfp_t gfp, const char *fmt, va_list args) __printf(2, 0);

#endif /* _TOOLS_LINUX_SPRINTF_H */
