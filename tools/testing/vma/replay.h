/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replaying a recorded program's address-space operations on mm/
 * (tools/testing/vma/record writes the traces; the format and the rules
 * are in Documentation/dev-tools/traces.rst).
 *
 * replay.c reads a trace and applies it through one backend's entry
 * points, struct vma_replay_ops, which replay_ops.c defines once per
 * backend (built like bench_ops.c: the symbol vma_replay_ops_<backend> is
 * the only one its object exports).  replay.c itself knows no backend,
 * so the mm is opaque here.
 *
 * Conventions: t a trace, op one of its operations, ops a backend, r the
 * outcome of one replay, mm an address space.
 */
#ifndef _VMA_REPLAY_H
#define _VMA_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Access of a mapping (the PROT_* values) and the kind, as replay.c asks. */
#define REPLAY_PROT_READ	0x1
#define REPLAY_PROT_WRITE	0x2
#define REPLAY_PROT_EXEC	0x4
#define REPLAY_MAP_SHARED	0x1	/* else private */
#define REPLAY_MAP_FIXED	0x2	/* replace what is there */
#define REPLAY_MAP_NOREPLACE	0x4	/* fixed, failing if anything is there */
#define REPLAY_MREMAP_MAYMOVE	0x1
#define REPLAY_MREMAP_FIXED	0x2
#define REPLAY_MREMAP_DONTUNMAP	0x4	/* in traces only: mm/ has none */

struct vma_replay_ops {
	const char *name;
	/* Set up the backend's own tree, once, first (or NULL). */
	void (*init)(void);
	void *(*mm_new)(void);
	void (*mm_put)(void *mm);
	/* dup_mmap(): the child's mm or NULL. */
	void *(*fork)(void *mm);
	/*
	 * vm_mmap(); @file is an identity (0: anonymous), @pgoff in pages.
	 * Return: the address or a negative errno.
	 */
	long (*mmap)(void *mm, unsigned long file, unsigned long addr,
		     unsigned long len, int prot, int flags,
		     unsigned long pgoff);
	long (*munmap)(void *mm, unsigned long addr, unsigned long len);
	long (*mprotect)(void *mm, unsigned long addr, unsigned long len,
			 int prot);
	long (*mremap)(void *mm, unsigned long addr, unsigned long old_len,
		       unsigned long new_len, int flags,
		       unsigned long new_addr);
	/* mm_brk(): the new end, or the old one. */
	unsigned long (*brk)(void *mm, unsigned long brk);
	/* The heap starts (and ends) at @start: what exec leaves. */
	void (*set_brk)(void *mm, unsigned long start);
	/*
	 * madvise(MADV_DONTNEED)'s walk over the VMAs of the range: 0, or
	 * -ENOMEM when part of it is unmapped, -EINVAL when unaligned.
	 */
	long (*madvise)(void *mm, unsigned long addr, unsigned long len);
	/* handle_fault_lockless(): 0 or a negative errno. */
	int (*fault)(void *mm, unsigned long addr, bool write);
	/*
	 * The first unmapped range within [@start, @end): true and it in
	 * *@hole_start, *@hole_end; false when all is mapped.
	 */
	bool (*first_hole)(void *mm, unsigned long start, unsigned long end,
			   unsigned long *hole_start, unsigned long *hole_end);
	/* A hash of every VMA (range, access, kind, file, offset). */
	uint64_t (*digest)(void *mm);
	int (*map_count)(void *mm);
	/* validate_mm(): the number of errors found. */
	int (*validate)(void *mm);
};

extern const struct vma_replay_ops vma_replay_ops_maple __attribute__((weak));
extern const struct vma_replay_ops vma_replay_ops_rbtree __attribute__((weak));
extern const struct vma_replay_ops vma_replay_ops_upstream __attribute__((weak));
extern const struct vma_replay_ops vma_replay_ops_upstream612 __attribute__((weak));

enum replay_kind {
	REPLAY_MMAP,
	REPLAY_MUNMAP,
	REPLAY_MPROTECT,
	REPLAY_MREMAP,
	REPLAY_BRK,
	REPLAY_MADVISE,
	REPLAY_FORK,		/* the child gets a copy of the mm */
	REPLAY_THREAD,		/* the child shares it */
	REPLAY_VFORK,		/* a new process sharing it until exec */
	REPLAY_EXEC,
	REPLAY_EXIT,
	REPLAY_NR_KINDS,
};

/*
 * One line of a trace.  @task and @child are dense task numbers (a pid
 * reused after its exit is a new task); @a..@d the arguments in the order
 * the format gives them; @ret the kernel's answer (an address, 0 or a
 * negative errno).
 */
struct replay_op {
	unsigned int line;
	int task;
	int child;
	unsigned char kind;
	unsigned char prot;
	unsigned char flags;
	unsigned int file;
	unsigned long a, b, c, d;
	long ret;
};

struct replay_trace {
	char name[128];
	char command[256];
	struct replay_op *ops;
	size_t nr_ops;
	int nr_tasks;
	/* Address spaces created: the first task's, forks and execs. */
	int nr_mms;
	int nr_processes;	/* tasks that were not threads */
	unsigned long nr_kind[REPLAY_NR_KINDS];
};

/* How to replay. */
struct replay_opts {
	/*
	 * Lookups added after each successful mapping: one per
	 * @touch_pages pages of the new range (at least 1, at most
	 * @touch_max), at random pages, from @seed; 0 pages: none.
	 */
	unsigned long touch_pages;
	unsigned int touch_max;
	uint64_t seed;
	/* Record a digest of the operation's mm after every operation. */
	bool digests;
	/* validate_mm() at every exec and exit and at the end. */
	bool validate;
};

#define REPLAY_TOUCH_PAGES	16
#define REPLAY_TOUCH_MAX	64
#define REPLAY_SEED		1

struct replay_result {
	unsigned long ops;		/* trace operations applied */
	unsigned long lookups;		/* page-fault lookups added */
	unsigned long implicit;		/* exec-time ranges mapped (see rules) */
	unsigned long failed;		/* failed calls replayed as failures */
	unsigned long skipped;		/* calls left out by the rules */
	unsigned long reordered;	/* unmaps applied early (rules) */
	int peak_vmas;
	uint64_t faults;		/* a hash of the lookups' answers */
	uint64_t *digests;		/* per operation, with opts->digests */
	/* The first mismatch: the line and what went wrong; 0 if none. */
	unsigned int bad_line;
	char error[320];
};

/**
 * replay_load() - Read a trace (gzip-compressed or plain text).
 * @path: Its file.
 * @t: Filled in.
 * @err: Where an error is described ("<file>:<line>: ...").
 * @size: Its size.
 *
 * Return: 0, or -1 with @err set and @t empty: unreadable, truncated or
 * corrupt data, an unknown operation, a missing argument, a task used
 * after its exit.
 */
int replay_load(const char *path, struct replay_trace *t, char *err,
		size_t size);

/* replay_parse() - The same from text in memory (@text ends in a NUL). */
int replay_parse(const char *name, const char *text, size_t len,
		 struct replay_trace *t, char *err, size_t size);

void replay_free(struct replay_trace *t);

/**
 * replay_run() - Apply a trace to one backend, checking every answer.
 * @t: The trace.
 * @ops: The backend.
 * @o: How.
 * @r: The outcome; with @o->digests, r->digests is allocated here (free
 *	it with replay_result_free()).
 *
 * Every address space it creates is gone when it returns.
 *
 * Return: 0, or -1 at the first operation whose answer differs from the
 * kernel's (r->bad_line, r->error), after which nothing more is applied.
 */
int replay_run(const struct replay_trace *t, const struct vma_replay_ops *ops,
	       const struct replay_opts *o, struct replay_result *r);

void replay_result_free(struct replay_result *r);

/**
 * replay_compare() - Did two backends end every operation alike?
 * @t: The trace both replayed with digests.
 * @a: One outcome.
 * @b: The other.
 * @an: @a's backend's name.
 * @bn: @b's.
 * @err: The first operation after which they differ, described.
 * @size: Its size.
 *
 * Return: 0 when every digest and the lookups' answers agree, else -1.
 */
int replay_compare(const struct replay_trace *t, const struct replay_result *a,
		   const struct replay_result *b, const char *an,
		   const char *bn, char *err, size_t size);

/* replay_describe() - One operation as its trace line says it. */
const char *replay_describe(const struct replay_op *op, char *buf,
			    size_t size);

#endif /* _VMA_REPLAY_H */
