// SPDX-License-Identifier: GPL-2.0
/*
 * The trace replayer's engine (replay.h): read a trace, apply it to one
 * backend with every answer checked, compare two backends' outcomes.
 * Userspace C with no tie to any backend; the rules it follows for what
 * mm/ does not model are in Documentation/dev-tools/traces.rst.
 *
 * Conventions: t a trace, op an operation, ops a backend, r the outcome
 * of a replay, st the replay's state, mm an address space, task a traced
 * task's dense number.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replay.h"

#define REPLAY_FORMAT		"# maple-vma-trace 1"
#define REPLAY_PAGE_SIZE	4096UL
#define REPLAY_MAX_TOKENS	12

static const char *const kind_names[REPLAY_NR_KINDS] = {
	[REPLAY_MMAP] = "mmap",		[REPLAY_MUNMAP] = "munmap",
	[REPLAY_MPROTECT] = "mprotect",	[REPLAY_MREMAP] = "mremap",
	[REPLAY_BRK] = "brk",		[REPLAY_MADVISE] = "madvise",
	[REPLAY_FORK] = "fork",		[REPLAY_THREAD] = "thread",
	[REPLAY_VFORK] = "vfork",
	[REPLAY_EXEC] = "exec",		[REPLAY_EXIT] = "exit",
};

/* Arguments before "=", and whether a return value follows. */
static const struct {
	int args;
	bool ret;
} kind_shape[REPLAY_NR_KINDS] = {
	[REPLAY_MMAP] = { 6, true },	[REPLAY_MUNMAP] = { 2, true },
	[REPLAY_MPROTECT] = { 3, true },	[REPLAY_MREMAP] = { 5, true },
	[REPLAY_BRK] = { 1, true },	[REPLAY_MADVISE] = { 2, true },
	[REPLAY_FORK] = { 1, false },	[REPLAY_THREAD] = { 1, false },
	[REPLAY_VFORK] = { 1, false },
	[REPLAY_EXEC] = { 1, false },	[REPLAY_EXIT] = { 0, false },
};

static int fail(char *err, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- reading ---- */

static bool parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	unsigned long long x;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	*v = x;
	return !errno && !*end && *v == x;
}

static bool parse_long(const char *s, long *v)
{
	unsigned long u;

	if (*s == '-') {
		if (!parse_ulong(s + 1, &u) || u > 4095 || !u)
			return false;
		*v = -(long)u;
		return true;
	}
	if (!parse_ulong(s, &u))
		return false;
	*v = (long)u;
	return true;
}

static bool parse_prot(const char *s, unsigned char *prot)
{
	if (strlen(s) != 3 || (s[0] != 'r' && s[0] != '-') ||
	    (s[1] != 'w' && s[1] != '-') || (s[2] != 'x' && s[2] != '-'))
		return false;
	*prot = (s[0] == 'r' ? REPLAY_PROT_READ : 0) |
		(s[1] == 'w' ? REPLAY_PROT_WRITE : 0) |
		(s[2] == 'x' ? REPLAY_PROT_EXEC : 0);
	return true;
}

static bool parse_map_flags(const char *s, unsigned char *flags)
{
	if (*s != 'p' && *s != 's')
		return false;
	*flags = *s == 's' ? REPLAY_MAP_SHARED : 0;
	for (s++; *s; s++) {
		if (*s == 'f')
			*flags |= REPLAY_MAP_FIXED;
		else if (*s == 'n')
			*flags |= REPLAY_MAP_NOREPLACE;
		else
			return false;
	}
	return true;
}

static bool parse_mremap_flags(const char *s, unsigned char *flags)
{
	*flags = 0;
	if (!strcmp(s, "-"))
		return true;
	for (; *s; s++) {
		if (*s == 'm')
			*flags |= REPLAY_MREMAP_MAYMOVE;
		else if (*s == 'f')
			*flags |= REPLAY_MREMAP_FIXED;
		else if (*s == 'd')
			*flags |= REPLAY_MREMAP_DONTUNMAP;
		else
			return false;
	}
	return true;
}

/* pid -> task, a pid's current task; open addressing, grown by doubling. */
struct pid_map {
	long *pid;
	int *task;
	size_t size, used;
};

static int *pid_slot(struct pid_map *pm, long pid)
{
	size_t i = ((unsigned long)pid * 2654435761UL) & (pm->size - 1);

	while (pm->pid[i] && pm->pid[i] != pid)
		i = (i + 1) & (pm->size - 1);
	if (!pm->pid[i]) {
		if ((pm->used + 1) * 2 > pm->size) {
			struct pid_map big = { .size = pm->size * 2 };
			size_t j;

			big.pid = calloc(big.size, sizeof(*big.pid));
			big.task = calloc(big.size, sizeof(*big.task));
			if (!big.pid || !big.task) {
				free(big.pid);
				free(big.task);
				return NULL;
			}
			for (j = 0; j < pm->size; j++)
				if (pm->pid[j])
					*pid_slot(&big, pm->pid[j]) = pm->task[j];
			free(pm->pid);
			free(pm->task);
			*pm = big;
			return pid_slot(pm, pid);
		}
		pm->pid[i] = pid;
		pm->task[i] = -1;
		pm->used++;
	}
	return &pm->task[i];
}

/*
 * Task states while reading: a task number is made when a pid first
 * appears (the traced program's first task) or is cloned; exit ends it,
 * and a later use of that pid without a clone is an error.
 */
#define TASK_GONE	(-2)

static int parse_line(struct replay_trace *t, char *line, unsigned int nr,
		      struct pid_map *pm, char *err, size_t size)
{
	char *tok[REPLAY_MAX_TOKENS + 1], *save = NULL, *p;
	struct replay_op op = { .line = nr };
	int n = 0, k, args, *slot;
	long pid;

	for (p = strtok_r(line, " \t", &save); p && n <= REPLAY_MAX_TOKENS;
	     p = strtok_r(NULL, " \t", &save))
		tok[n++] = p;
	if (n < 2)
		return fail(err, size, "%s:%u: expected \"<pid> <operation> ...\"",
			    t->name, nr);
	if (!parse_long(tok[0], &pid) || pid <= 0)
		return fail(err, size, "%s:%u: bad pid \"%s\"", t->name, nr,
			    tok[0]);
	for (k = 0; k < REPLAY_NR_KINDS; k++)
		if (!strcmp(tok[1], kind_names[k]))
			break;
	if (k == REPLAY_NR_KINDS)
		return fail(err, size, "%s:%u: unknown operation \"%s\"",
			    t->name, nr, tok[1]);
	op.kind = k;
	args = kind_shape[k].args;
	if (n != 2 + args + (kind_shape[k].ret ? 2 : 0) ||
	    (kind_shape[k].ret && strcmp(tok[2 + args], "=")))
		return fail(err, size, "%s:%u: %s takes %d argument%s%s",
			    t->name, nr, tok[1], args, args == 1 ? "" : "s",
			    kind_shape[k].ret ? " and \"= <return value>\"" : "");
	if (kind_shape[k].ret && !parse_long(tok[3 + args], &op.ret))
		return fail(err, size, "%s:%u: bad return value \"%s\"",
			    t->name, nr, tok[3 + args]);

	switch (k) {
	case REPLAY_MMAP: {
		unsigned long file = 0;

		if (!parse_ulong(tok[2], &op.a) || !parse_ulong(tok[3], &op.b) ||
		    !parse_prot(tok[4], &op.prot) ||
		    !parse_map_flags(tok[5], &op.flags) ||
		    (strcmp(tok[6], "-") && (!parse_ulong(tok[6], &file) ||
					     !file || file > 1UL << 24)) ||
		    !parse_ulong(tok[7], &op.c))
			goto bad_args;
		op.file = file;
		break;
	}
	case REPLAY_MUNMAP:
	case REPLAY_MADVISE:
		if (!parse_ulong(tok[2], &op.a) || !parse_ulong(tok[3], &op.b))
			goto bad_args;
		break;
	case REPLAY_MPROTECT:
		if (!parse_ulong(tok[2], &op.a) || !parse_ulong(tok[3], &op.b) ||
		    !parse_prot(tok[4], &op.prot))
			goto bad_args;
		break;
	case REPLAY_MREMAP:
		if (!parse_ulong(tok[2], &op.a) || !parse_ulong(tok[3], &op.b) ||
		    !parse_ulong(tok[4], &op.c) ||
		    !parse_mremap_flags(tok[5], &op.flags) ||
		    !parse_ulong(tok[6], &op.d))
			goto bad_args;
		break;
	case REPLAY_BRK:
		if (!parse_ulong(tok[2], &op.a))
			goto bad_args;
		break;
	case REPLAY_FORK:
	case REPLAY_THREAD:
	case REPLAY_VFORK:
		if (!parse_ulong(tok[2], &op.a) || !op.a || op.a > 1UL << 30)
			goto bad_args;
		break;
	default:
		break;
	}

	/* The task doing it. */
	slot = pid_slot(pm, pid);
	if (!slot)
		return fail(err, size, "out of memory");
	if (*slot == TASK_GONE)
		return fail(err, size, "%s:%u: pid %ld is used after its exit",
			    t->name, nr, pid);
	if (*slot < 0) {
		if (t->nr_tasks)
			return fail(err, size,
				    "%s:%u: pid %ld appears without a fork or thread creating it",
				    t->name, nr, pid);
		*slot = t->nr_tasks++;
		t->nr_mms++;
		t->nr_processes++;
	}
	op.task = *slot;
	op.child = -1;
	if (k == REPLAY_FORK || k == REPLAY_THREAD || k == REPLAY_VFORK) {
		slot = pid_slot(pm, (long)op.a);
		if (!slot)
			return fail(err, size, "out of memory");
		if (*slot >= 0)
			return fail(err, size,
				    "%s:%u: new task %lu is already alive",
				    t->name, nr, op.a);
		*slot = op.child = t->nr_tasks++;
		if (k == REPLAY_FORK)
			t->nr_mms++;
		if (k != REPLAY_THREAD)
			t->nr_processes++;
	} else if (k == REPLAY_EXIT) {
		*pid_slot(pm, pid) = TASK_GONE;
	} else if (k == REPLAY_EXEC) {
		t->nr_mms++;
	}
	t->nr_kind[k]++;
	t->ops[t->nr_ops++] = op;
	return 0;

bad_args:
	return fail(err, size, "%s:%u: bad arguments to %s", t->name, nr,
		    kind_names[k]);
}

int replay_parse(const char *name, const char *text, size_t len,
		 struct replay_trace *t, char *err, size_t size)
{
	struct pid_map pm = { .size = 64 };
	size_t lines = 0, i, start;
	unsigned int nr = 0;
	char *buf = NULL, *line;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		return fail(err, size, "%s:%zu: truncated: the last line has no end",
			    name, lines + 1);
	if (len < strlen(REPLAY_FORMAT) ||
	    strncmp(text, REPLAY_FORMAT, strlen(REPLAY_FORMAT)) ||
	    (text[strlen(REPLAY_FORMAT)] != '\n'))
		return fail(err, size, "%s:1: not a trace: the first line is not \"%s\"",
			    name, REPLAY_FORMAT);
	t->ops = calloc(lines ? lines : 1, sizeof(*t->ops));
	buf = malloc(len + 1);
	pm.pid = calloc(pm.size, sizeof(*pm.pid));
	pm.task = calloc(pm.size, sizeof(*pm.task));
	if (!t->ops || !buf || !pm.pid || !pm.task) {
		fail(err, size, "out of memory");
		goto out;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (start = 0; start < len; start = i + 1) {
		for (i = start; buf[i] != '\n'; i++)
			;
		buf[i] = '\0';
		line = buf + start;
		nr++;
		if (*line == '#') {
			if (!strncmp(line, "# command: ", 11))
				snprintf(t->command, sizeof(t->command), "%s",
					 line + 11);
			continue;
		}
		if (!*line)
			continue;
		if (strchr(line, '\0') != buf + i)
			goto nul;
		if (parse_line(t, line, nr, &pm, err, size))
			goto out;
	}
	if (!t->nr_ops) {
		fail(err, size, "%s: no operations", name);
		goto out;
	}
	ret = 0;
	goto out;
nul:
	fail(err, size, "%s:%u: a NUL byte in the text", name, nr);
out:
	free(buf);
	free(pm.pid);
	free(pm.task);
	if (ret)
		replay_free(t);
	return ret;
}

int replay_load(const char *path, struct replay_trace *t, char *err,
		size_t size)
{
	unsigned char magic[2] = { 0, 0 };
	char *text = NULL, *name;
	size_t len = 0, cap = 0, got;
	bool gz;
	FILE *f;
	int st, ret;

	memset(t, 0, sizeof(*t));
	name = strrchr(path, '/');
	name = name ? name + 1 : (char *)path;
	f = fopen(path, "rb");
	if (!f)
		return fail(err, size, "%s: %s", path, strerror(errno));
	gz = fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	fclose(f);
	if (gz) {
		char cmd[4200];

		if (strchr(path, '\'') || strlen(path) > 4000)
			return fail(err, size, "%s: unusable file name", path);
		snprintf(cmd, sizeof(cmd), "gzip -dc '%s' 2>/dev/null", path);
		f = popen(cmd, "r");
	} else {
		f = fopen(path, "rb");
	}
	if (!f)
		return fail(err, size, "%s: %s", path, strerror(errno));
	for (;;) {
		if (len + 65536 > cap) {
			char *more = realloc(text, cap = cap * 2 + 65536);

			if (!more) {
				free(text);
				gz ? pclose(f) : fclose(f);
				return fail(err, size, "%s: out of memory", path);
			}
			text = more;
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	if (gz) {
		st = pclose(f);
		if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			size_t lines = 0, i;

			for (i = 0; i < len; i++)
				lines += text[i] == '\n';
			free(text);
			return fail(err, size,
				    "%s:%zu: truncated or corrupt gzip data after this line",
				    name, lines);
		}
	} else {
		fclose(f);
	}
	text[len] = '\0';
	ret = replay_parse(name, text, len, t, err, size);
	free(text);
	return ret;
}

void replay_free(struct replay_trace *t)
{
	free(t->ops);
	t->ops = NULL;
	t->nr_ops = 0;
}

const char *replay_describe(const struct replay_op *op, char *buf,
			    size_t size)
{
	switch (op->kind) {
	case REPLAY_MMAP:
		snprintf(buf, size, "mmap(%#lx, %#lx, prot %d, flags %d, file %u, %#lx) = %#lx",
			 op->a, op->b, op->prot, op->flags, op->file, op->c,
			 op->ret);
		break;
	case REPLAY_MUNMAP:
	case REPLAY_MADVISE:
		snprintf(buf, size, "%s(%#lx, %#lx) = %ld", kind_names[op->kind],
			 op->a, op->b, op->ret);
		break;
	case REPLAY_MPROTECT:
		snprintf(buf, size, "mprotect(%#lx, %#lx, prot %d) = %ld",
			 op->a, op->b, op->prot, op->ret);
		break;
	case REPLAY_MREMAP:
		snprintf(buf, size, "mremap(%#lx, %#lx, %#lx, flags %d, %#lx) = %#lx",
			 op->a, op->b, op->c, op->flags, op->d, op->ret);
		break;
	case REPLAY_BRK:
		snprintf(buf, size, "brk(%#lx) = %#lx", op->a, op->ret);
		break;
	default:
		snprintf(buf, size, "%s", kind_names[op->kind]);
		break;
	}
	return buf;
}

/* ---- replaying ---- */

/* An address space and the tasks using it. */
struct replay_mm {
	void *mm;
	int users;
	bool brk_known;		/* the heap's start was learnt (rules) */
};

struct replay_state {
	const struct replay_trace *t;
	const struct vma_replay_ops *ops;
	const struct replay_opts *o;
	struct replay_result *r;
	struct replay_mm *mms;
	int nr_mms;
	int *task_mm;		/* task -> mms index, -1 before or after */
	bool *done;		/* operations applied ahead of their place */
	uint64_t rnd;
};

static int apply(struct replay_state *st, size_t k);

static uint64_t next_rnd(struct replay_state *st)
{
	st->rnd ^= st->rnd << 13;
	st->rnd ^= st->rnd >> 7;
	st->rnd ^= st->rnd << 17;
	return st->rnd;
}

static int new_mm(struct replay_state *st, void *mm)
{
	struct replay_mm *m = &st->mms[st->nr_mms];

	m->mm = mm;
	m->users = 1;
	m->brk_known = false;
	return st->nr_mms++;
}

static int put_mm(struct replay_state *st, int i)
{
	struct replay_mm *m = &st->mms[i];
	int errors = 0;

	if (--m->users)
		return 0;
	if (st->o->validate)
		errors = st->ops->validate(m->mm);
	st->ops->mm_put(m->mm);
	m->mm = NULL;
	return errors;
}

/* The lookups a new range gets (the rule: replay.h, replay_opts). */
static void touch(struct replay_state *st, void *mm, unsigned long start,
		  unsigned long end, bool write)
{
	unsigned long pages = (end - start) / REPLAY_PAGE_SIZE, n, i;
	struct replay_result *r = st->r;

	if (!st->o->touch_pages || !pages)
		return;
	n = pages / st->o->touch_pages;
	n = n < 1 ? 1 : n > st->o->touch_max ? st->o->touch_max : n;
	for (i = 0; i < n; i++) {
		unsigned long addr = start + next_rnd(st) % pages * REPLAY_PAGE_SIZE;
		int ret = st->ops->fault(mm, addr, write);

		r->faults = (r->faults ^ (uint64_t)(ret + 64)) * 0x100000001b3ULL;
	}
	r->lookups += n;
}

/*
 * The rule for ranges exec mapped (the program, ld.so, the stack, the
 * vdso), which strace never shows: where a call that succeeded in the
 * kernel needs [start, end) mapped and part of it is not, that part is
 * mapped first, anonymous, private, with @prot.
 */
static int map_implicit(struct replay_state *st, void *mm,
			unsigned long start, unsigned long end, int prot)
{
	unsigned long hs, he;
	long ret;

	while (st->ops->first_hole(mm, start, end, &hs, &he)) {
		ret = st->ops->mmap(mm, 0, hs, he - hs, prot, REPLAY_MAP_FIXED, 0);
		if (ret != (long)hs)
			return -1;
		st->r->implicit++;
		start = he;
	}
	return 0;
}

static bool errno_replayed(long ret)
{
	return ret == -ENOMEM || ret == -EINVAL || ret == -EEXIST ||
	       ret == -EFAULT;
}

static int mismatch(struct replay_state *st, const struct replay_op *op,
		    const char *what, long got)
{
	char d[160];

	st->r->bad_line = op->line;
	snprintf(st->r->error, sizeof(st->r->error),
		 "%s:%u: %s: the kernel returned %ld (%#lx), mm/ on %s %s %ld (%#lx)",
		 st->t->name, op->line, replay_describe(op, d, sizeof(d)),
		 op->ret, (unsigned long)op->ret, st->ops->name, what, got,
		 (unsigned long)got);
	return -1;
}

static unsigned long align_len(unsigned long len)
{
	return (len + REPLAY_PAGE_SIZE - 1) & ~(REPLAY_PAGE_SIZE - 1);
}

/*
 * The rule for threads: strace prints a call when it sees it return, and
 * between threads of one process that can be later than the kernel ran
 * it.  A mapping the kernel placed without MAP_FIXED over a range that is
 * still mapped here proves that an unmap of that range ran first: the
 * next munmap of it by another task of the same mm, within
 * REPLAY_REORDER_WINDOW operations, is applied now (and counted).
 *
 * Return: 1 if one was, 0 if none is there, -1 on its mismatch.
 */
#define REPLAY_REORDER_WINDOW	512

static int unmap_ahead(struct replay_state *st, size_t k, unsigned long start,
		       unsigned long end)
{
	const struct replay_op *op = &st->t->ops[k];
	int mi = st->task_mm[op->task];
	size_t j, last = k + REPLAY_REORDER_WINDOW;

	for (j = k + 1; j < st->t->nr_ops && j <= last; j++) {
		const struct replay_op *u = &st->t->ops[j];

		if (st->done[j] || u->kind != REPLAY_MUNMAP || u->ret ||
		    u->task == op->task || u->task < 0 ||
		    st->task_mm[u->task] != mi ||
		    u->a >= end || u->a + u->b <= start)
			continue;
		if (apply(st, j) < 0)
			return -1;
		st->done[j] = true;
		st->r->reordered++;
		st->r->ops++;
		return 1;
	}
	return 0;
}

/*
 * One operation.  Return: 1 applied, 0 left out by the rules, -1 on a
 * mismatch (st->r says which).
 */
static int apply(struct replay_state *st, size_t k)
{
	const struct replay_op *op = &st->t->ops[k];
	const struct vma_replay_ops *ops = st->ops;
	int mi = st->task_mm[op->task];
	struct replay_mm *m;
	void *mm;
	long ret;

	if ((op->kind == REPLAY_FORK || op->kind == REPLAY_EXEC || mi < 0) &&
	    st->nr_mms >= st->t->nr_mms + 1)
		return mismatch(st, op, "ran out of address spaces:", 0);
	if (mi < 0) {
		/* The traced program's first task: a fresh address space. */
		void *fresh = ops->mm_new();

		if (!fresh)
			return mismatch(st, op, "could not create an mm:", 0);
		mi = st->task_mm[op->task] = new_mm(st, fresh);
	}
	m = &st->mms[mi];
	mm = m->mm;

	/* Failed calls: replayed when the reason is the address space. */
	if (op->ret < 0 && op->kind <= REPLAY_MADVISE && op->kind != REPLAY_BRK) {
		if (!errno_replayed(op->ret) ||
		    (op->kind == REPLAY_MMAP &&
		     !(op->flags & (REPLAY_MAP_FIXED | REPLAY_MAP_NOREPLACE))) ||
		    (op->kind == REPLAY_MREMAP &&
		     (op->flags & REPLAY_MREMAP_MAYMOVE)))
			return 0;
		st->r->failed++;
	}

	switch (op->kind) {
	case REPLAY_MMAP: {
		int flags = op->flags & REPLAY_MAP_SHARED;
		unsigned long addr = op->ret >= 0 ? (unsigned long)op->ret : op->a;

		if (op->ret < 0)
			flags |= op->flags;
		else if (op->flags & REPLAY_MAP_FIXED)
			flags |= REPLAY_MAP_FIXED;
		else
			flags |= REPLAY_MAP_NOREPLACE;
		ret = ops->mmap(mm, op->file, addr, op->b, op->prot, flags,
				op->c / REPLAY_PAGE_SIZE);
		while (ret == -EEXIST && op->ret >= 0 &&
		       (flags & REPLAY_MAP_NOREPLACE)) {
			int moved = unmap_ahead(st, k, addr, addr + align_len(op->b));

			if (moved <= 0)
				break;
			ret = ops->mmap(mm, op->file, addr, op->b, op->prot,
					flags, op->c / REPLAY_PAGE_SIZE);
		}
		if (ret != op->ret)
			return mismatch(st, op, "returned", ret);
		if (ret >= 0)
			touch(st, mm, ret, ret + align_len(op->b),
			      op->prot & REPLAY_PROT_WRITE);
		break;
	}
	case REPLAY_MUNMAP:
		ret = ops->munmap(mm, op->a, op->b);
		if (ret != op->ret)
			return mismatch(st, op, "returned", ret);
		break;
	case REPLAY_MPROTECT:
		if (!op->ret && !(op->a & (REPLAY_PAGE_SIZE - 1)) &&
		    map_implicit(st, mm, op->a, op->a + align_len(op->b),
				 op->prot))
			return mismatch(st, op, "could not map exec's range:", 0);
		ret = ops->mprotect(mm, op->a, op->b, op->prot);
		if (ret != op->ret)
			return mismatch(st, op, "returned", ret);
		break;
	case REPLAY_MADVISE:
		if (!op->ret && !(op->a & (REPLAY_PAGE_SIZE - 1)) &&
		    map_implicit(st, mm, op->a, op->a + align_len(op->b),
				 REPLAY_PROT_READ | REPLAY_PROT_WRITE))
			return mismatch(st, op, "could not map exec's range:", 0);
		ret = ops->madvise(mm, op->a, op->b);
		if (ret != op->ret)
			return mismatch(st, op, "returned", ret);
		break;
	case REPLAY_MREMAP: {
		int flags = 0;
		unsigned long to = 0;

		if (op->flags & REPLAY_MREMAP_DONTUNMAP)
			return 0;
		if (op->ret < 0) {
			flags = op->flags;
			to = op->d;
		} else if ((unsigned long)op->ret != op->a ||
			   (op->flags & REPLAY_MREMAP_FIXED)) {
			flags = REPLAY_MREMAP_MAYMOVE | REPLAY_MREMAP_FIXED;
			to = op->ret;
		}
		if (op->ret >= 0 && !(op->a & (REPLAY_PAGE_SIZE - 1)) &&
		    map_implicit(st, mm, op->a, op->a + align_len(op->b),
				 REPLAY_PROT_READ | REPLAY_PROT_WRITE))
			return mismatch(st, op, "could not map exec's range:", 0);
		ret = ops->mremap(mm, op->a, op->b, op->c, flags, to);
		if (ret != op->ret)
			return mismatch(st, op, "returned", ret);
		if (ret >= 0 && align_len(op->c) > align_len(op->b))
			touch(st, mm, ret + align_len(op->b), ret + align_len(op->c),
			      true);
		break;
	}
	case REPLAY_BRK: {
		unsigned long old;

		if (!m->brk_known) {
			/* exec's heap start, which the first brk() tells. */
			ops->set_brk(mm, op->ret);
			m->brk_known = true;
			break;
		}
		old = ops->brk(mm, 0);
		ret = ops->brk(mm, op->a);
		if (ret != op->ret)
			return mismatch(st, op, "returned", ret);
		if (align_len(ret) > align_len(old))
			touch(st, mm, align_len(old), align_len(ret), true);
		break;
	}
	case REPLAY_FORK: {
		void *child = ops->fork(mm);
		int ci;

		if (!child)
			return mismatch(st, op, "could not fork:", 0);
		ci = new_mm(st, child);
		st->mms[ci].brk_known = m->brk_known;
		st->task_mm[op->child] = ci;
		break;
	}
	case REPLAY_THREAD:
	case REPLAY_VFORK:
		m->users++;
		st->task_mm[op->child] = mi;
		break;
	case REPLAY_EXEC: {
		void *fresh = ops->mm_new();

		if (!fresh)
			return mismatch(st, op, "could not create an mm:", 0);
		if (put_mm(st, mi))
			return mismatch(st, op, "failed validate_mm() before exec:", 0);
		st->task_mm[op->task] = new_mm(st, fresh);
		break;
	}
	case REPLAY_EXIT:
		st->task_mm[op->task] = -1;
		if (put_mm(st, mi))
			return mismatch(st, op, "failed validate_mm() at exit:", 0);
		return 1;
	}
	mi = st->task_mm[op->child >= 0 ? op->child : op->task];
	if (st->mms[mi].mm) {
		int n = ops->map_count(st->mms[mi].mm);

		if (n > st->r->peak_vmas)
			st->r->peak_vmas = n;
	}
	return 1;
}

int replay_run(const struct replay_trace *t, const struct vma_replay_ops *ops,
	       const struct replay_opts *o, struct replay_result *r)
{
	struct replay_state st = {
		.t = t, .ops = ops, .o = o, .r = r,
		.rnd = o->seed ? o->seed : REPLAY_SEED,
	};
	int ret = 0, i;
	size_t k;

	memset(r, 0, sizeof(*r));
	st.mms = calloc(t->nr_mms + 1, sizeof(*st.mms));
	st.task_mm = malloc((t->nr_tasks + 1) * sizeof(*st.task_mm));
	st.done = calloc(t->nr_ops, sizeof(*st.done));
	if (o->digests)
		r->digests = calloc(t->nr_ops, sizeof(*r->digests));
	if (!st.mms || !st.task_mm || !st.done || (o->digests && !r->digests)) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		ret = -1;
		goto out;
	}
	for (i = 0; i <= t->nr_tasks; i++)
		st.task_mm[i] = -1;
	for (k = 0; k < t->nr_ops; k++) {
		const struct replay_op *op = &t->ops[k];
		int done;

		if (st.done[k])
			continue;
		done = apply(&st, k);

		if (done < 0) {
			ret = -1;
			break;
		}
		if (!done) {
			r->skipped++;
			continue;
		}
		r->ops++;
		if (o->digests) {
			int mi = st.task_mm[op->child >= 0 ? op->child : op->task];

			r->digests[k] = mi >= 0 && st.mms[mi].mm ?
					ops->digest(st.mms[mi].mm) : 0;
		}
	}
out:
	/* Tasks the trace left running: their address spaces go too. */
	for (i = 0; st.mms && i < st.nr_mms; i++) {
		if (!st.mms[i].mm)
			continue;
		if (o->validate && ops->validate(st.mms[i].mm) && !ret) {
			snprintf(r->error, sizeof(r->error),
				 "%s: validate_mm() failed at the end on %s",
				 t->name, ops->name);
			ret = -1;
		}
		ops->mm_put(st.mms[i].mm);
	}
	free(st.mms);
	free(st.task_mm);
	free(st.done);
	return ret;
}

void replay_result_free(struct replay_result *r)
{
	free(r->digests);
	r->digests = NULL;
}

int replay_compare(const struct replay_trace *t, const struct replay_result *a,
		   const struct replay_result *b, const char *an,
		   const char *bn, char *err, size_t size)
{
	char d[160];
	size_t k;

	if (!a->digests || !b->digests)
		return fail(err, size, "%s: no digests to compare", t->name);
	for (k = 0; k < t->nr_ops; k++) {
		if (a->digests[k] == b->digests[k])
			continue;
		return fail(err, size,
			    "%s:%u: %s and %s hold different address spaces after %s",
			    t->name, t->ops[k].line, an, bn,
			    replay_describe(&t->ops[k], d, sizeof(d)));
	}
	if (a->faults != b->faults || a->lookups != b->lookups)
		return fail(err, size,
			    "%s: %s and %s answered the added lookups differently",
			    t->name, an, bn);
	if (a->ops != b->ops || a->implicit != b->implicit ||
	    a->peak_vmas != b->peak_vmas)
		return fail(err, size,
			    "%s: %s and %s applied different operations (%lu, %lu)",
			    t->name, an, bn, a->ops, b->ops);
	return 0;
}
