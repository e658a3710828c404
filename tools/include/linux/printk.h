/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/printk.h>.
 *
 * printk() writes to stdout.  The KERN_<level> prefix is understood and
 * stripped; KERN_CONT continues the previous line.  Kernel %p extensions
 * that glibc does not know (%px, %pK, %pS, %ps, %pB, %pF, %pf) are printed as
 * a plain %p.  pr_debug() compiles its arguments but prints nothing.
 */
#ifndef _TOOLS_LINUX_PRINTK_H
#define _TOOLS_LINUX_PRINTK_H

#include <stdarg.h>
#include <linux/compiler.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_DEFAULT	""
#define KERN_CONT	KERN_SOH "c"

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args) __printf(1, 0);

/* Type-check the arguments, print nothing. */
#define no_printk(fmt, ...) ({						\
	if (0)								\
		printk(fmt, ##__VA_ARGS__);				\
	0;								\
})

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

#define printk_once(fmt, ...) ({					\
	static bool __p_done;						\
	if (!__atomic_exchange_n(&__p_done, true, __ATOMIC_RELAXED))	\
		printk(fmt, ##__VA_ARGS__);				\
})
#define pr_err_once(fmt, ...)	printk_once(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)	printk_once(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...)	printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)

#define pr_err_ratelimited(fmt, ...)	pr_err(fmt, ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define pr_info_ratelimited(fmt, ...)	pr_info(fmt, ##__VA_ARGS__)

/**
 * dump_stack() - Print a backtrace of the calling thread to stderr.
 *
 * One frame a line, " function (file:line)", named by addr2line where it
 * is installed (binutils), else as backtrace_symbols() can.  While warnings
 * are expected, to their log instead (kernel_report() in <linux/bug.h>).
 */
void dump_stack(void);

/* ---- userspace harness only ---- */

/**
 * printk_set_prefix() - Start every printk() output line with @prefix.
 * @prefix: A string that must stay valid, or NULL for none.
 *
 * The test runner uses this to turn kernel messages into KTAP comments.
 */
void printk_set_prefix(const char *prefix);

#endif /* _TOOLS_LINUX_PRINTK_H */
