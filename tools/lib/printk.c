// SPDX-License-Identifier: GPL-2.0
/*
 * printk() for userspace: kernel log lines to stdout.
 *
 * The KERN_<level> marker is dropped; KERN_CONT continues the current line.
 * An optional prefix (the test runner sets one) starts every output line.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sprintf.h>

static const char *printk_prefix;
static bool printk_mid_line;	/* the last output did not end a line */

void printk_set_prefix(const char *prefix)
{
	printk_prefix = prefix;
}

/*
 * Copy @fmt to @out, turning the kernel's %p extensions that glibc does not
 * know into a plain %p.  @out holds @size bytes.
 */
static const char *printk_fixup_format(const char *fmt, char *out, size_t size)
{
	size_t o = 0;
	const char *f;

	if (!strstr(fmt, "%p"))
		return fmt;
	for (f = fmt; *f && o + 1 < size; f++) {
		out[o++] = *f;
		if (f[0] == '%' && f[1] == '%') {
			if (o + 1 < size)
				out[o++] = *++f;
		} else if (f[0] == '%' && f[1] == 'p' && o + 1 < size) {
			out[o++] = *++f;
			if (f[1] && strchr("xKSsBFf", f[1]))
				f++;
		}
	}
	if (*f)
		return fmt;	/* too long to rewrite: print as is */
	out[o] = '\0';
	return out;
}

int vprintk(const char *fmt, va_list args)
{
	char fixed[1024];
	char *text = NULL;
	const char *line;
	bool cont = false;
	int len;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		cont = fmt[1] == 'c';
		fmt += 2;
	}
	fmt = printk_fixup_format(fmt, fixed, sizeof(fixed));
	len = vasprintf(&text, fmt, args);
	if (len < 0)
		return len;

	flockfile(stdout);
	if (printk_mid_line && !cont)
		putc_unlocked('\n', stdout);
	for (line = text; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);

		if (!printk_mid_line && printk_prefix)
			fputs_unlocked(printk_prefix, stdout);
		fwrite_unlocked(line, 1, n, stdout);
		printk_mid_line = !nl;
		line += n;
	}
	funlockfile(stdout);
	free(text);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vprintk(fmt, ap);
	va_end(ap);
	return ret;
}

void dump_stack(void)
{
	void *frames[64];
	int n = backtrace(frames, 64);

	fflush(stdout);
	fputs("Call trace:\n", stderr);
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
}

char *kvasprintf(gfp_t gfp, const char *fmt, va_list args)
{
	va_list again;
	char *buf;
	int len;

	va_copy(again, args);
	len = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (len < 0)
		return NULL;
	buf = kmalloc(len + 1, gfp);
	if (buf)
		vsnprintf(buf, len + 1, fmt, args);
	return buf;
}

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list args;
	char *buf;

	va_start(args, fmt);
	buf = kvasprintf(gfp, fmt, args);
	va_end(args);
	return buf;
}
