// SPDX-License-Identifier: GPL-2.0
/*
 * printk() for userspace: kernel log lines to stdout.
 *
 * The KERN_<level> marker is dropped; KERN_CONT continues the current line.
 * An optional prefix (the test runner sets one) starts every output line.
 *
 * dump_stack() names the frames of the program with addr2line (binutils),
 * static and inlined functions too, and those of shared libraries as
 * backtrace_symbols() does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/bug.h>
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

/* ---- dump_stack() ---- */

#define STACK_MAX	64

/* Where the program itself (not a shared library) is loaded. */
struct exe_text {
	uintptr_t bias;		/* what addr2line's addresses are relative to */
	uintptr_t lo, hi;	/* its executable segments */
	bool found;
};

static int find_exe_text(struct dl_phdr_info *info, size_t size, void *data)
{
	struct exe_text *t = data;
	int i;

	(void)size;
	t->bias = info->dlpi_addr;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (!t->found || start < t->lo)
			t->lo = start;
		if (!t->found || start + ph->p_memsz > t->hi)
			t->hi = start + ph->p_memsz;
		t->found = true;
	}
	return 1;	/* the first object is the program */
}

/*
 * One line of "addr2line -p" output, "func at file:line", as the frame
 * " func (file:line)", without the newline: the working directory is cut
 * from the file name and a "(discriminator N)" dropped.
 * Return: false if the function is unknown.
 */
static bool format_frame(FILE *out, const char *text, const char *cwd)
{
	const char *at = strstr(text, " at ");
	const char *file, *end;
	size_t cwd_len = strlen(cwd);

	if (!at || !strncmp(text, "??", 2))
		return false;
	file = at + 4;
	end = strstr(file, " (discriminator");
	if (!end)
		end = file + strcspn(file, "\n");
	if (cwd_len && !strncmp(file, cwd, cwd_len) && file[cwd_len] == '/')
		file += cwd_len + 1;
	fprintf(out, " %.*s", (int)(at - text), text);
	/* Without debug information: "??:0", or "file.c:?" from the symbols. */
	if (strncmp(file, "??", 2) && end[-1] != '?')
		fprintf(out, " (%.*s)", (int)(end - file), file);
	return true;
}

/*
 * Name the frames of @frames that lie in the program with addr2line (it
 * knows static functions and inlining, which backtrace_symbols() does not):
 * @names[i] becomes the text of frame i, one line per inlining level
 * (addr2line gives the innermost first: all but the last are inlined into
 * the next), or stays NULL.  Without addr2line nothing is named.
 */
static void name_frames(void *const *frames, int n, char **names)
{
	char exe[PATH_MAX], cwd[PATH_MAX];
	char addrs[STACK_MAX][2 + 2 * sizeof(long) + 1];
	char *argv[8 + STACK_MAX];
	int index[STACK_MAX];
	struct exe_text text = { 0 };
	posix_spawn_file_actions_t fa;
	char *line = NULL, *buf = NULL;
	size_t cap = 0, len = 0;
	int fds[2], status, argc = 0, nr = 0, i, cur = -1;
	FILE *out = NULL, *in;
	ssize_t got;
	pid_t pid;

	got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (got <= 0)
		return;
	exe[got] = '\0';
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	dl_iterate_phdr(find_exe_text, &text);
	if (!text.found)
		return;

	argv[argc++] = "addr2line";
	argv[argc++] = "-e";
	argv[argc++] = exe;
	argv[argc++] = "-f";	/* function names */
	argv[argc++] = "-i";	/* and the functions inlined there */
	argv[argc++] = "-p";
	argv[argc++] = "-a";	/* each frame starts with its address */
	for (i = 0; i < n && i < STACK_MAX; i++) {
		uintptr_t pc = (uintptr_t)frames[i];

		if (pc <= text.lo || pc > text.hi)
			continue;
		/* A return address: the call is the byte before. */
		snprintf(addrs[nr], sizeof(addrs[nr]), "%#lx",
			 (unsigned long)(pc - 1 - text.bias));
		argv[argc++] = addrs[nr];
		index[nr++] = i;
	}
	argv[argc] = NULL;
	if (!nr || pipe2(fds, O_CLOEXEC))
		return;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	if (posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	in = fdopen(fds[0], "r");
	if (!in) {
		close(fds[0]);
		goto reap;
	}
	while (pid > 0 && getline(&line, &cap, in) > 0) {
		bool inlined = !strncmp(line, " (inlined by) ", 14);

		if (!inlined) {
			char *colon = strstr(line, ": ");

			if (strncmp(line, "0x", 2) || !colon)
				continue;
			if (out) {
				fputc('\n', out);
				fclose(out);
				names[index[cur]] = buf;
				buf = NULL;
			}
			out = NULL;
			if (++cur >= nr)
				break;
			out = open_memstream(&buf, &len);
			if (out && !format_frame(out, colon + 2, cwd)) {
				fclose(out);
				free(buf);
				buf = NULL;
				out = NULL;
			}
		} else if (out) {
			fputs(" [inlined]\n", out);
			if (!format_frame(out, line + 14, cwd))
				fputs(" ??", out);
		}
	}
	if (out) {
		fputc('\n', out);
		fclose(out);
		names[index[cur]] = buf;
	}
	free(line);
	fclose(in);
reap:
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
}

/*
 * The frame as backtrace_symbols() has it, "path(sym+off) [addr]", as
 * " sym+off (file)", or " file+off" when it names no symbol.
 */
static void format_raw_frame(FILE *out, const char *raw)
{
	const char *lpar = strchr(raw, '('), *rpar, *base;

	rpar = lpar ? strchr(lpar, ')') : NULL;
	if (!rpar) {
		fprintf(out, " %s\n", raw);
		return;
	}
	base = memrchr(raw, '/', lpar - raw);
	base = base ? base + 1 : raw;
	if (lpar[1] == '+' || lpar[1] == ')')
		fprintf(out, " %.*s%.*s\n", (int)(lpar - base), base,
			(int)(rpar - lpar - 1), lpar + 1);
	else
		fprintf(out, " %.*s (%.*s)\n", (int)(rpar - lpar - 1),
			lpar + 1, (int)(lpar - base), base);
}

void dump_stack(void)
{
	void *frames[STACK_MAX];
	char *names[STACK_MAX] = { NULL };
	char **raw;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int n, i;

	n = backtrace(frames, STACK_MAX);
	raw = backtrace_symbols(frames, n);
	name_frames(frames, n, names);
	out = open_memstream(&text, &len);
	if (!out) {
		fflush(stdout);
		fputs("Call trace:\n", stderr);
		backtrace_symbols_fd(frames, n, STDERR_FILENO);
		goto out;
	}
	fputs("Call trace:\n", out);
	for (i = 0; i < n; i++) {
		if (names[i])
			fputs(names[i], out);
		else if (raw)
			format_raw_frame(out, raw[i]);
		else
			fprintf(out, " %p\n", frames[i]);
	}
	fclose(out);
	kernel_report(text);
out:
	free(text);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(raw);
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
