// SPDX-License-Identifier: GPL-2.0
/*
 * BUG() and WARN() for userspace: report to stderr with the source location.
 *
 * While warnings are expected (kernel_warn_set_expected()), their reports
 * and the stack traces printed meanwhile go to the log the test runner set
 * with kernel_warn_set_log(), if any; it shows them only when the case
 * fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bug.h>
#include <linux/printk.h>

static long warn_count;
static bool warn_expected;
static int warn_log_fd = -1;

void kernel_warn_set_expected(bool expected)
{
	__atomic_store_n(&warn_expected, expected, __ATOMIC_RELAXED);
}

void kernel_warn_set_log(int fd)
{
	__atomic_store_n(&warn_log_fd, fd, __ATOMIC_RELAXED);
}

/* The log of expected warnings, if they are expected now and one is set. */
static int expected_log_fd(void)
{
	if (!__atomic_load_n(&warn_expected, __ATOMIC_RELAXED))
		return -1;
	return __atomic_load_n(&warn_log_fd, __ATOMIC_RELAXED);
}

/* Write all of @text to @fd, in as few writes as the kernel allows. */
static void write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		text += n;
		len -= n;
	}
}

void kernel_report(const char *text)
{
	int fd = expected_log_fd();

	if (fd >= 0) {
		write_all(fd, text, strlen(text));
		return;
	}
	fflush(stdout);
	fputs(text, stderr);
}

void __kernel_bug(const char *file, int line, const char *func,
		  const char *cond)
{
	/* Never expected: the message and its trace go to stderr. */
	kernel_warn_set_expected(false);
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
	int fd = expected_log_fd();
	char *msg, *text;
	va_list ap;

	__atomic_add_fetch(&warn_count, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);

	if (!__atomic_load_n(&warn_expected, __ATOMIC_RELAXED)) {
		fflush(stdout);
		fprintf(stderr, "WARNING: at %s:%d %s(): %s\n", file, line,
			func, msg ? msg : fmt);
	} else if (fd >= 0) {
		if (asprintf(&text, "WARNING (expected): at %s:%d %s(): %s\n",
			     file, line, func, msg ? msg : fmt) >= 0) {
			write_all(fd, text, strlen(text));
			free(text);
		}
	} else {
		printk(KERN_WARNING "WARNING (expected): at %s:%d %s(): %s\n",
		       file, line, func, msg ? msg : fmt);
	}
	free(msg);
}

long kernel_warn_count(void)
{
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}
