// SPDX-License-Identifier: GPL-2.0
/*
 * BUG() and WARN() for userspace: report to stderr with the source location.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/bug.h>
#include <linux/printk.h>

static long warn_count;
static bool warn_expected;

void kernel_warn_set_expected(bool expected)
{
	warn_expected = expected;
}

void __kernel_bug(const char *file, int line, const char *func,
		  const char *cond)
{
	fflush(stdout);
	if (cond)
		fprintf(stderr, "kernel BUG at %s:%d %s(): %s\n",
			file, line, func, cond);
	else
		fprintf(stderr, "kernel BUG at %s:%d %s()\n", file, line, func);
	dump_stack();
	abort();
}

void __kernel_warn(const char *file, int line, const char *func,
		   const char *fmt, ...)
{
	va_list ap;

	__atomic_add_fetch(&warn_count, 1, __ATOMIC_RELAXED);
	if (warn_expected) {
		char *msg;

		va_start(ap, fmt);
		if (vasprintf(&msg, fmt, ap) < 0)
			msg = NULL;
		va_end(ap);
		printk(KERN_WARNING "WARNING (expected): at %s:%d %s(): %s\n",
		       file, line, func, msg ? msg : fmt);
		free(msg);
		return;
	}
	fflush(stdout);
	flockfile(stderr);
	fprintf(stderr, "WARNING: at %s:%d %s(): ", file, line, func);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

long kernel_warn_count(void)
{
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}
