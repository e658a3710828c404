/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/bug.h>.
 *
 * BUG() prints "kernel BUG at file:line" to stderr and aborts (the test
 * runner reports the case as crashed with signal 6).  WARN*() print
 * "WARNING: at file:line" to stderr, count the warning, and evaluate to the
 * condition like the kernel's; the runner fails a test case that triggered a
 * warning unless the test allowed it (see ktest_allow_warnings()).
 */
#ifndef _TOOLS_LINUX_BUG_H
#define _TOOLS_LINUX_BUG_H

#include <linux/compiler.h>
#include <linux/build_bug.h>
#include <linux/types.h>

void __noreturn __kernel_bug(const char *file, int line, const char *func,
			     const char *cond);
void __kernel_warn(const char *file, int line, const char *func,
		   const char *fmt, ...) __printf(4, 5) __cold;

#define BUG()	__kernel_bug(__FILE__, __LINE__, __func__, NULL)

#define BUG_ON(cond)							\
	do {								\
		if (unlikely(cond))					\
			__kernel_bug(__FILE__, __LINE__, __func__, #cond); \
	} while (0)

#define WARN_ON(cond) ({						\
	int __w_hit = !!(cond);						\
	if (unlikely(__w_hit))						\
		__kernel_warn(__FILE__, __LINE__, __func__, "%s", #cond); \
	unlikely(__w_hit);						\
})

#define WARN(cond, fmt, ...) ({						\
	int __w_hit = !!(cond);						\
	if (unlikely(__w_hit))						\
		__kernel_warn(__FILE__, __LINE__, __func__,		\
			      fmt, ##__VA_ARGS__);			\
	unlikely(__w_hit);						\
})

/* The _ONCE forms report the first hit per call site (per process). */
#define __WARN_FIRST_TIME() ({						\
	static bool __w_done;						\
	!__atomic_exchange_n(&__w_done, true, __ATOMIC_RELAXED);	\
})

#define WARN_ON_ONCE(cond) ({						\
	int __w_hit = !!(cond);						\
	if (unlikely(__w_hit) && __WARN_FIRST_TIME())			\
		__kernel_warn(__FILE__, __LINE__, __func__, "%s", #cond); \
	unlikely(__w_hit);						\
})

#define WARN_ONCE(cond, fmt, ...) ({					\
	int __w_hit = !!(cond);						\
	if (unlikely(__w_hit) && __WARN_FIRST_TIME())			\
		__kernel_warn(__FILE__, __LINE__, __func__,		\
			      fmt, ##__VA_ARGS__);			\
	unlikely(__w_hit);						\
})

#define WARN_ON_SMP(cond)	WARN_ON(cond)

/* ---- userspace harness only ---- */

/**
 * kernel_warn_count() - Number of WARN*() hits so far in this process.
 *
 * Return: The count; BUG() aborts and is not counted.
 */
long kernel_warn_count(void);

/**
 * kernel_warn_set_expected() - Are warnings expected from now on?
 * @expected: If true, WARN*() reports ("WARNING (expected): ...") and the
 *	stack traces printed meanwhile go to the log set with
 *	kernel_warn_set_log(), or, without one, the reports to stdout as
 *	ordinary kernel log lines, instead of stderr; they are still counted.
 */
void kernel_warn_set_expected(bool expected);

/**
 * kernel_warn_set_log() - Where expected warnings go.
 * @fd: A file descriptor open for writing, or -1 for none.  Each report is
 *	written whole with write(2), so nothing is lost if the process dies.
 */
void kernel_warn_set_log(int fd);

/**
 * kernel_report() - Print @text, whole lines, as a warning would be.
 * @text: To stderr, or to the log of expected warnings while warnings are
 *	expected and a log is set.  dump_stack() prints through this.
 */
void kernel_report(const char *text);

#endif /* _TOOLS_LINUX_BUG_H */
