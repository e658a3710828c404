// SPDX-License-Identifier: GPL-2.0
/*
 * vma_workload - exercise a kernel's VMA tree from userspace.
 *
 * Runs as a static program in the /init of a booted test kernel (see
 * scripts/uml-boot-test.sh) and drives the kernel's mm/ through the calls
 * that change or search a process's VMA tree, in the patterns of
 * will-it-scale's mmap1, brk1, brk2 and page_fault1, plus splits and merges
 * by munmap and mprotect, mremap moves, MAP_FIXED replacement,
 * /proc/self/maps reads, fork (which copies the tree; also of 1000 VMAs
 * with MADV_DONTFORK and MADV_WIPEONFORK ones), threads changing
 * one address space at once, and exec after exec.  Every pattern checks what it reads back:
 * data written to mapped pages is there, mremap'd contents moved, pages
 * that were unmapped or made read-only fault (SIGSEGV is caught), the
 * kernel's /proc/self/maps shows the expected mappings.
 *
 * Output: one line per pattern,
 *	vma-workload: <pattern>: ok (<count> <what>, <ms> ms)
 * or "vma-workload: <pattern>: FAILED: <why>", then a final
 *	vma-workload: ok (<n> patterns, <ms> ms)
 * or "vma-workload: FAILED (...)".  The exit status is 0 only when every
 * pattern passed.
 *
 * Usage: vma_workload [scale]   (scale multiplies the loop counts, default 1)
 *        vma_workload exec-child (what the exec pattern runs: exits at once)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long page;
static int scale = 1;

/* ---- reporting ---------------------------------------------------------- */

static __thread char fail_msg[256];
static __thread int failed;

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (failed++)
		return;
	va_start(ap, fmt);
	vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
	va_end(ap);
}

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fail(__VA_ARGS__);					\
		return -1;						\
	}								\
} while (0)

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* ---- fault probing ------------------------------------------------------ */

static __thread sigjmp_buf probe_env;
static __thread volatile int probing;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (probing)
		siglongjmp(probe_env, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Does reading (or writing) the byte at @p fault? */
static int faults(volatile char *p, int write)
{
	int hit = 0;

	if (sigsetjmp(probe_env, 1) == 0) {
		probing = 1;
		if (write)
			*p = *p;
		else
			(void)*p;
	} else {
		hit = 1;
	}
	probing = 0;
	return hit;
}

static char *map_anon(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void fill(char *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i += page)
		memset(p + i, (int)((seed + i / page) & 0xff), 64);
}

static int verify(const char *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i += page) {
		unsigned char want = (seed + i / page) & 0xff;

		for (int j = 0; j < 64; j++)
			if ((unsigned char)p[i + j] != want)
				return -1;
	}
	return 0;
}

/* Count /proc/self/maps lines; with @addr, find the line starting there. */
static int maps_lines(unsigned long addr, char *perms)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char pr[8];

		n++;
		if (addr && sscanf(line, "%lx-%lx %4s", &start, &end, pr) == 3 &&
		    start == addr && perms)
			strcpy(perms, pr);
	}
	fclose(f);
	return n;
}

/* ---- patterns ------------------------------------------------------------ */

/* will-it-scale mmap1: map and unmap 128 MB, touching both ends. */
static int pat_mmap1(long *count)
{
	const size_t len = 128UL << 20;
	long i, n = 2000L * scale;

	for (i = 0; i < n; i++) {
		char *p = map_anon(len, PROT_READ | PROT_WRITE);

		CHECK(p, "mmap 128M: %s", strerror(errno));
		if (i % 64 == 0) {
			p[0] = 1;
			p[len - 1] = 2;
			CHECK(p[0] == 1 && p[len - 1] == 2, "data lost at %p", p);
		}
		CHECK(munmap(p, len) == 0, "munmap: %s", strerror(errno));
		if (i % 256 == 0)
			CHECK(faults(p, 0), "unmapped %p did not fault", p);
	}
	*count = n;
	return 0;
}

/* will-it-scale brk1: grow the heap by a page and shrink it again. */
static int pat_brk1(long *count)
{
	long i, n = 20000L * scale;
	char *base = sbrk(0);

	for (i = 0; i < n; i++) {
		char *p = sbrk(page);

		CHECK(p != (void *)-1, "sbrk(+page): %s", strerror(errno));
		if (i % 100 == 0) {
			p[0] = (char)i;
			CHECK(p[0] == (char)i, "brk page lost data");
		}
		CHECK(sbrk(-page) != (void *)-1, "sbrk(-page): %s", strerror(errno));
		if (i % 1000 == 0)
			CHECK(faults(p, 0), "brk page %p still mapped", p);
	}
	CHECK(sbrk(0) == base, "break moved: %p -> %p", base, sbrk(0));
	*count = n;
	return 0;
}

/*
 * will-it-scale brk2: the same with many other mappings in the tree and a
 * heap that keeps a growing part (a VMA that is extended, not recreated).
 */
static int pat_brk2(long *count)
{
	enum { NMAPS = 200 };
	char *maps[NMAPS];
	long i, n = 20000L * scale;
	char *base = sbrk(0);

	for (i = 0; i < NMAPS; i++) {
		/* alternate protections so neighbours cannot merge */
		maps[i] = map_anon(page, i & 1 ? PROT_READ : PROT_READ | PROT_WRITE);
		CHECK(maps[i], "mmap: %s", strerror(errno));
	}
	CHECK(sbrk(16 * page) != (void *)-1, "sbrk: %s", strerror(errno));
	memset(base, 0x5a, 16 * page);
	for (i = 0; i < n; i++) {
		char *p = sbrk(2 * page);

		CHECK(p != (void *)-1, "sbrk(+2 pages): %s", strerror(errno));
		p[page] = 7;
		CHECK(sbrk(-2 * page) != (void *)-1, "sbrk(-2 pages)");
	}
	for (i = 0; i < 16 * page; i += page)
		CHECK(base[i] == 0x5a, "kept heap lost data at +%ld", i);
	CHECK(sbrk(-16 * page) != (void *)-1, "sbrk back");
	for (i = 0; i < NMAPS; i++) {
		CHECK(faults(maps[i], 1) == (i & 1),
		      "page %ld: write fault %d, prot %s", i,
		      faults(maps[i], 1), i & 1 ? "r" : "rw");
		CHECK(munmap(maps[i], page) == 0, "munmap");
	}
	*count = n;
	return 0;
}

/* will-it-scale page_fault1: fault in every page of a mapping, unmap. */
static int pat_page_fault(long *count)
{
	const size_t len = 8UL << 20;
	long r, n = 8L * scale, faults_done = 0;

	for (r = 0; r < n; r++) {
		char *p = map_anon(len, PROT_READ | PROT_WRITE);

		CHECK(p, "mmap: %s", strerror(errno));
		fill(p, len, (unsigned int)r);
		faults_done += len / page;
		CHECK(verify(p, len, (unsigned int)r) == 0, "readback failed");
		CHECK(munmap(p, len) == 0, "munmap");
	}
	*count = faults_done;
	return 0;
}

/*
 * Split one mapping into many VMAs with mprotect and munmap, check every
 * page's access and /proc/self/maps, then merge it back.
 */
static int pat_split_merge(long *count)
{
	const long npages = 512;
	const size_t len = npages * page;
	long r, i, n = 20L * scale, ops = 0;

	for (r = 0; r < n; r++) {
		char *p = map_anon(len, PROT_READ | PROT_WRITE);
		int before, during, after;
		char perms[8] = "";

		CHECK(p, "mmap: %s", strerror(errno));
		fill(p, len, (unsigned int)r);
		before = maps_lines(0, NULL);
		for (i = 0; i < npages; i += 4) {
			CHECK(mprotect(p + i * page, page, PROT_READ) == 0,
			      "mprotect: %s", strerror(errno));
			CHECK(munmap(p + (i + 2) * page, page) == 0, "munmap hole");
			ops += 2;
		}
		during = maps_lines((unsigned long)p, perms);
		CHECK(during >= before + npages / 2,
		      "maps: %d lines before, %d with %ld holes", before,
		      during, npages / 4);
		CHECK(strcmp(perms, "r--p") == 0, "first page perms '%s'", perms);
		for (i = 0; i < npages; i++) {
			char *q = p + i * page;

			switch (i % 4) {
			case 0:
				CHECK(faults(q, 1) && !faults(q, 0),
				      "read-only page %ld", i);
				break;
			case 2:
				CHECK(faults(q, 0), "hole %ld did not fault", i);
				break;
			default:
				CHECK(!faults(q, 1), "rw page %ld faulted", i);
			}
		}
		/* fill the holes again at their addresses, merge back */
		for (i = 2; i < npages; i += 4) {
			char *q = mmap(p + i * page, page, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				       -1, 0);

			CHECK(q == p + i * page, "refill hole %ld: %s", i,
			      q == MAP_FAILED ? strerror(errno) : "moved");
			CHECK(q[0] == 0, "refilled hole not zero");
			ops++;
		}
		CHECK(mprotect(p, len, PROT_READ | PROT_WRITE) == 0, "mprotect all");
		after = maps_lines((unsigned long)p, perms);
		CHECK(after <= before, "maps: %d lines before, %d after merging",
		      before, after);
		CHECK(strcmp(perms, "rw-p") == 0, "merged perms '%s'", perms);
		for (i = 0; i < npages; i++)
			if (i % 4 != 2)
				CHECK(p[i * page] == (char)((r + i) & 0xff),
				      "page %ld lost data", i);
		/* MAP_FIXED over the middle replaces it with zero pages */
		CHECK(mmap(p + 101 * page, 48 * page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		      p + 101 * page, "MAP_FIXED: %s", strerror(errno));
		CHECK(p[101 * page] == 0 && p[148 * page] == 0 &&
		      p[100 * page] == (char)((r + 100) & 0xff) &&
		      p[149 * page] == (char)((r + 149) & 0xff),
		      "MAP_FIXED replaced the wrong pages");
		CHECK(munmap(p, len) == 0, "munmap all");
		CHECK(faults(p + len / 2, 0), "unmapped range did not fault");
	}
	*count = ops;
	return 0;
}

/* mremap: grow in place, shrink, move; contents travel, old range faults. */
static int pat_mremap(long *count)
{
	long r, n = 200L * scale;

	for (r = 0; r < n; r++) {
		size_t len = (size_t)(16 + r % 48) * page;
		size_t half = len / page / 2 * page;
		char *p = map_anon(len, PROT_READ | PROT_WRITE);
		char *guard, *q, *dst;

		CHECK(p, "mmap: %s", strerror(errno));
		fill(p, len, (unsigned int)r);
		/* shrink: the tail goes */
		q = mremap(p, len, half, 0);
		CHECK(q == p, "shrink moved: %s", strerror(errno));
		CHECK(faults(p + half, 0), "shrunk tail still mapped");
		/* grow with a blocked neighbour: must move */
		guard = mmap(p + half, page, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		CHECK(guard == p + half, "guard: %s", strerror(errno));
		q = mremap(p, half, 2 * len, MREMAP_MAYMOVE);
		CHECK(q != MAP_FAILED, "grow: %s", strerror(errno));
		CHECK(q != p, "grew over a mapped guard page");
		CHECK(verify(q, half, (unsigned int)r) == 0, "grown copy lost data");
		CHECK(faults(p, 0), "old range still mapped after move");
		q[2 * len - 1] = 1;
		/* move to a fixed place */
		dst = map_anon(2 * len, PROT_NONE);
		CHECK(dst, "reserve: %s", strerror(errno));
		p = mremap(q, 2 * len, 2 * len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
		CHECK(p == dst, "fixed move: %s", strerror(errno));
		CHECK(verify(p, half, (unsigned int)r) == 0 &&
		      p[2 * len - 1] == 1, "fixed move lost data");
		CHECK(faults(q, 0), "source of fixed move still mapped");
		CHECK(munmap(p, 2 * len) == 0 && munmap(guard, page) == 0, "munmap");
	}
	*count = n;
	return 0;
}

/* fork copies the VMA tree: the child sees the data, writes stay private. */
static int pat_fork(long *count)
{
	const long npages = 64;
	const size_t len = npages * page;
	long r, n = 100L * scale;
	char *p = map_anon(len, PROT_READ | PROT_WRITE);
	char *ro = map_anon(page, PROT_READ | PROT_WRITE);
	char *holes = map_anon(len, PROT_READ | PROT_WRITE);

	CHECK(p && ro && holes, "mmap: %s", strerror(errno));
	fill(p, len, 3);
	ro[0] = 9;
	CHECK(mprotect(ro, page, PROT_READ) == 0, "mprotect");
	for (long i = 1; i < npages; i += 2)
		CHECK(munmap(holes + i * page, page) == 0, "munmap");
	for (r = 0; r < n; r++) {
		pid_t pid = fork();
		int st;

		CHECK(pid >= 0, "fork: %s", strerror(errno));
		if (pid == 0) {
			int bad = verify(p, len, 3) != 0 || ro[0] != 9 ||
				  !faults(ro, 1) || !faults(holes + page, 0) ||
				  faults(holes, 1);

			memset(p, 0, len);	/* copy-on-write: private */
			_exit(bad ? 1 : 0);
		}
		CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child %ld saw a different address space (status %#x)", r, st);
		CHECK(verify(p, len, 3) == 0, "child's write reached the parent");
	}
	CHECK(munmap(p, len) == 0 && munmap(ro, page) == 0 &&
	      munmap(holes, len) == 0, "munmap");
	*count = n;
	return 0;
}

/*
 * fork of an address space with many VMAs, some of them VM_DONTCOPY
 * (MADV_DONTFORK) and one VM_WIPEONFORK: the child has every other VMA
 * with its data and protection, none of the VM_DONTCOPY ones (a lone one
 * every ten pages and a run of twenty) in /proc/self/maps, and zeroes in
 * the wiped one.
 */
#define FORK_MANY_PAGES 1000

static int fork_many_dontfork(long i)
{
	return i % 10 == 0 || (i >= 500 && i < 520);
}

/*
 * Is any MADV_DONTFORK page of @p mapped in /proc/self/maps?  The kernel's
 * view is read rather than faults probed: UML builds a child's host
 * address space from the parent's and drops only what the child's VMAs
 * cover, so there a read of an area that was not copied does not fault.
 */
static int fork_many_dontfork_mapped(char *p)
{
	unsigned long lo = (unsigned long)p;
	unsigned long hi = lo + FORK_MANY_PAGES * page;
	char line[512];
	int bad = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, a;

		if (sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		for (a = start < lo ? lo : start; a < end && a < hi; a += page)
			bad |= fork_many_dontfork((a - lo) / page);
	}
	fclose(f);
	return bad;
}

static int fork_many_child(char *p, char *wipe, int want_lines, long pages)
{
	if (fork_many_dontfork_mapped(p))
		return 2;
	for (long i = 0; i < pages; i++) {
		char *pg = p + i * page;

		if (fork_many_dontfork(i))
			continue;
		if (faults(pg, 0) || pg[0] != (char)(i & 0x7f) ||
		    faults(pg, 1) != (i & 1))
			return 3;
	}
	if (wipe[0] != 0)
		return 4;
	if (maps_lines(0, NULL) != want_lines)
		return 5;
	return 0;
}

static int pat_fork_many(long *count)
{
	const size_t len = FORK_MANY_PAGES * page;
	long i, r, n = 20L * scale, skipped = 0;
	char *p = map_anon(len, PROT_READ | PROT_WRITE);
	char *wipe = map_anon(page, PROT_READ | PROT_WRITE);
	int lines;

	CHECK(p && wipe, "mmap: %s", strerror(errno));
	for (i = 0; i < FORK_MANY_PAGES; i++)
		p[i * page] = (char)(i & 0x7f);
	wipe[0] = 1;
	/* Every page its own VMA: odd pages read-only. */
	for (i = 1; i < FORK_MANY_PAGES; i += 2)
		CHECK(mprotect(p + i * page, page, PROT_READ) == 0,
		      "mprotect: %s", strerror(errno));
	for (i = 0; i < FORK_MANY_PAGES; i++) {
		if (!fork_many_dontfork(i))
			continue;
		CHECK(madvise(p + i * page, page, MADV_DONTFORK) == 0,
		      "madvise(MADV_DONTFORK): %s", strerror(errno));
		skipped++;
	}
	CHECK(madvise(wipe, page, MADV_WIPEONFORK) == 0,
	      "madvise(MADV_WIPEONFORK): %s", strerror(errno));
	lines = maps_lines(0, NULL);
	CHECK(lines > FORK_MANY_PAGES, "only %d mappings", lines);
	for (r = 0; r < n; r++) {
		pid_t pid = fork();
		int st;

		CHECK(pid >= 0, "fork: %s", strerror(errno));
		if (pid == 0)
			_exit(fork_many_child(p, wipe, lines - (int)skipped,
					      FORK_MANY_PAGES));
		CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child %ld saw a different address space (status %#x)", r, st);
	}
	/* The parent keeps everything. */
	for (i = 0; i < FORK_MANY_PAGES; i++)
		CHECK(p[i * page] == (char)(i & 0x7f), "parent lost page %ld", i);
	CHECK(wipe[0] == 1, "parent's wipe-on-fork page changed");
	CHECK(maps_lines(0, NULL) == lines, "parent's mappings changed");
	CHECK(munmap(p, len) == 0 && munmap(wipe, page) == 0, "munmap");
	*count = n;
	return 0;
}

/*
 * fork failing at every allocation in turn: /proc/thread-self/fail-nth
 * (CONFIG_FAULT_INJECTION with FAILSLAB; /init turns off failslab's
 * ignore-gfp-wait and verbose) fails the Nth slab allocation of this
 * thread, for N = 1, 2, ... until a fork makes fewer than N.  The process
 * has the layout of fork_many at a tenth of its size.  A fork that fails
 * must say ENOMEM (EAGAIN and EINTR are allowed too) and leave the parent
 * as it was; the kernel tears the half-made child down on its own, which
 * a KASAN or lockdep report, a BUG on map_count or a leak would show.  A
 * fork that succeeds gives a child that checks its view as fork_many's
 * do.  Without fault injection the pattern does nothing and says so.
 */
static int fail_nth_fd = -1;

static int set_fail_nth(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fail_nth_fd, buf, len, 0) == len ? 0 : -1;
}

static int get_fail_nth(void)
{
	char buf[16] = "";

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	return atoi(buf);
}

/* What a pattern returns when the kernel lacks what it needs. */
#define PAT_SKIP	2

static int pat_fork_fail(long *count)
{
	const long pages = FORK_MANY_PAGES / 10;
	long i, n, failures = 0, skipped = 0;
	char *p, *wipe;
	int lines;

	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0 || access("/sys/kernel/debug/failslab", F_OK)) {
		if (fail_nth_fd >= 0)
			close(fail_nth_fd);
		return PAT_SKIP;	/* no fault injection in this kernel */
	}
	p = map_anon(FORK_MANY_PAGES * page, PROT_READ | PROT_WRITE);
	wipe = map_anon(page, PROT_READ | PROT_WRITE);
	CHECK(p && wipe, "mmap: %s", strerror(errno));
	/* Only the first tenth is used; the rest is one more VMA. */
	for (i = 0; i < pages; i++)
		p[i * page] = (char)(i & 0x7f);
	wipe[0] = 1;
	for (i = 1; i < pages; i += 2)
		CHECK(mprotect(p + i * page, page, PROT_READ) == 0, "mprotect");
	for (i = 0; i < FORK_MANY_PAGES; i++) {
		if (!fork_many_dontfork(i))
			continue;
		if (i >= pages) {
			/* Past the tenth: a single DONTFORK area. */
			CHECK(madvise(p + i * page,
				      (FORK_MANY_PAGES - i) * page,
				      MADV_DONTFORK) == 0, "madvise");
			skipped++;
			break;
		}
		CHECK(madvise(p + i * page, page, MADV_DONTFORK) == 0, "madvise");
		skipped++;
	}
	CHECK(madvise(wipe, page, MADV_WIPEONFORK) == 0, "madvise");
	lines = maps_lines(0, NULL);
	for (n = 1; n < 100000; n++) {
		pid_t pid;
		int st, err, left;

		CHECK(set_fail_nth(n) == 0, "fail-nth: %s", strerror(errno));
		pid = fork();
		err = errno;
		if (pid == 0)
			_exit(fork_many_child(p, wipe, lines - (int)skipped,
					      pages));
		left = get_fail_nth();
		CHECK(set_fail_nth(0) == 0, "fail-nth: %s", strerror(errno));
		if (pid < 0) {
			CHECK(err == ENOMEM || err == EAGAIN || err == EINTR,
			      "fork failing at allocation %ld: %s", n,
			      strerror(err));
			failures++;
			continue;
		}
		CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child of fork with allocation %ld failed saw a different address space (status %#x)",
		      n, st);
		if (left > 0)
			break;	/* the fork made fewer than n allocations */
	}
	for (i = 0; i < pages; i++)
		CHECK(p[i * page] == (char)(i & 0x7f), "parent lost page %ld", i);
	CHECK(wipe[0] == 1, "parent's wipe-on-fork page changed");
	CHECK(maps_lines(0, NULL) == lines, "parent's mappings changed");
	CHECK(failures > 0, "no fork failed in %ld allocations", n);
	CHECK(munmap(p, FORK_MANY_PAGES * page) == 0 && munmap(wipe, page) == 0,
	      "munmap");
	close(fail_nth_fd);
	*count = n;
	return 0;
}

/* Threads changing one address space at once, one of them reading maps. */
struct thread_arg {
	int id;
	long ops;
	int failed;
	char msg[256];
};

static volatile int threads_stop;

static void *thread_work(void *v)
{
	struct thread_arg *a = v;
	long r, n = 300L * scale;

	if (a->id == 0) {
		/* reader: walk /proc/self/maps while the others write */
		while (!threads_stop) {
			if (maps_lines(0, NULL) <= 0) {
				fail("reading /proc/self/maps failed");
				break;
			}
			a->ops++;
		}
		goto out;
	}
	for (r = 0; r < n; r++) {
		const long npages = 32;
		size_t len = npages * page;
		char *p = map_anon(len, PROT_READ | PROT_WRITE), *q;
		unsigned int seed = (unsigned int)(a->id * 1000 + r);

		if (!p) {
			fail("mmap: %s", strerror(errno));
			break;
		}
		fill(p, len, seed);
		if (mprotect(p + 8 * page, 8 * page, PROT_READ) ||
		    munmap(p + 20 * page, 4 * page)) {
			fail("mprotect/munmap: %s", strerror(errno));
			break;
		}
		if (!faults(p + 8 * page, 1) || !faults(p + 21 * page, 0) ||
		    faults(p + 4 * page, 1)) {
			fail("thread %d: wrong access after split", a->id);
			break;
		}
		q = mremap(p, 8 * page, 64 * page, MREMAP_MAYMOVE);
		if (q == MAP_FAILED || verify(q, 8 * page, seed)) {
			fail("thread %d: mremap lost data", a->id);
			break;
		}
		q[63 * page] = 1;
		if (munmap(q, 64 * page) || munmap(p + 8 * page, 24 * page)) {
			fail("munmap: %s", strerror(errno));
			break;
		}
		a->ops += 6;
	}
out:
	a->failed = failed;
	if (failed)
		snprintf(a->msg, sizeof(a->msg), "%s", fail_msg);
	return NULL;
}

static int pat_threads(long *count)
{
	enum { NTHREADS = 4 };
	pthread_t t[NTHREADS];
	struct thread_arg args[NTHREADS];
	int i, err;

	threads_stop = 0;
	memset(args, 0, sizeof(args));
	/* writers first, then the reader until they finish */
	for (i = NTHREADS - 1; i >= 0; i--) {
		args[i].id = i;
		err = pthread_create(&t[i], NULL, thread_work, &args[i]);
		CHECK(err == 0, "pthread_create: %s", strerror(err));
	}
	for (i = 1; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	threads_stop = 1;
	pthread_join(t[0], NULL);
	*count = 0;
	for (i = 0; i < NTHREADS; i++) {
		CHECK(!args[i].failed, "thread %d: %s", i, args[i].msg);
		*count += args[i].ops;
	}
	CHECK(args[0].ops > 0, "the maps reader never ran");
	return 0;
}

/* Several processes, each running the single-threaded patterns at once. */
static int pat_processes(long *count);

/*
 * exec: fork + execve() in a row, each exec building a new address space
 * whose stack VMA shift_arg_pages() moves down while an iterator is parked
 * on it, while a sibling process maps and unmaps small areas to keep
 * nodes being freed and reused.  The child re-executes this program with
 * "exec-child", which exits at once.
 */
#define EXEC_ROUNDS	1000

static int pat_exec(long *count)
{
	char *const argv[] = { "vma_workload", "exec-child", NULL };
	char *const envp[] = { NULL };
	pid_t churn, pid;
	int st, bad = 0;
	long i, n = EXEC_ROUNDS * scale;

	churn = fork();
	CHECK(churn >= 0, "fork: %s", strerror(errno));
	if (churn == 0) {
		for (;;) {
			char *p = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			p[0] = 1;
			munmap(p, 4 * page);
		}
	}
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			execve("/proc/self/exe", argv, envp);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	}
	kill(churn, SIGKILL);
	waitpid(churn, &st, 0);
	CHECK(i == n, "fork %ld: %s", i, strerror(errno));
	CHECK(!bad, "%d of %ld execs failed", bad, n);
	*count = n;
	return 0;
}

struct pattern {
	const char *name;
	int (*fn)(long *count);
	const char *unit;
};

static const struct pattern patterns[] = {
	{ "mmap1", pat_mmap1, "map/unmap cycles" },
	{ "brk1", pat_brk1, "brk cycles" },
	{ "brk2", pat_brk2, "brk cycles" },
	{ "page_fault", pat_page_fault, "page faults" },
	{ "split_merge", pat_split_merge, "splits and merges" },
	{ "mremap", pat_mremap, "rounds" },
	{ "fork", pat_fork, "forks" },
	{ "fork_many", pat_fork_many, "forks of 1000+ VMAs" },
	{ "fork_fail", pat_fork_fail, "forks with one allocation failed" },
	{ "threads", pat_threads, "operations" },
	{ "processes", pat_processes, "processes" },
	{ "exec", pat_exec, "execs" },
};

static int pat_processes(long *count)
{
	enum { NPROC = 4 };
	pid_t pids[NPROC];
	int i, st, bad = 0;

	for (i = 0; i < NPROC; i++) {
		pids[i] = fork();
		CHECK(pids[i] >= 0, "fork: %s", strerror(errno));
		if (pids[i] == 0) {
			long c;

			/* mmap1, brk1, brk2, page_fault, split_merge, mremap */
			for (int k = 0; k < 6; k++)
				if (patterns[k].fn(&c)) {
					fprintf(stderr, "vma-workload: process %d: %s: %s\n",
						i, patterns[k].name, fail_msg);
					_exit(1);
				}
			_exit(0);
		}
	}
	for (i = 0; i < NPROC; i++) {
		CHECK(waitpid(pids[i], &st, 0) == pids[i], "waitpid");
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	CHECK(!bad, "%d of %d processes failed", bad, NPROC);
	*count = NPROC;
	return 0;
}

/*
 * Whether the environment's VMA_WORKLOAD_SKIP, a comma-separated list of
 * pattern names, names @name: a pattern a kernel cannot take (see
 * scripts/boot-test.sh for which and why).
 */
static bool pattern_skipped(const char *name)
{
	const char *p = getenv("VMA_WORKLOAD_SKIP");
	size_t len = strlen(name);

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	unsigned int i, nfail = 0, nskip = 0;
	double t0 = now_ms();

	if (argc > 1 && !strcmp(argv[1], "exec-child"))
		return 0;
	if (argc > 1)
		scale = atoi(argv[1]);
	if (scale < 1)
		scale = 1;
	page = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		const struct pattern *pt = &patterns[i];
		double t = now_ms();
		long count = 0;
		int ret;

		failed = 0;
		if (pattern_skipped(pt->name)) {
			printf("vma-workload: %s: skipped (VMA_WORKLOAD_SKIP)\n",
			       pt->name);
			nskip++;
			continue;
		}
		ret = pt->fn(&count);
		if (ret == PAT_SKIP && !failed) {
			printf("vma-workload: %s: skipped (this kernel lacks what it needs)\n",
			       pt->name);
			nskip++;
		} else if (ret == 0 && !failed) {
			printf("vma-workload: %s: ok (%ld %s, %.0f ms)\n",
			       pt->name, count, pt->unit, now_ms() - t);
		} else {
			printf("vma-workload: %s: FAILED: %s\n", pt->name, fail_msg);
			nfail++;
		}
	}
	if (nfail)
		printf("vma-workload: FAILED (%u of %u patterns, %.0f ms)\n",
		       nfail, i, now_ms() - t0);
	else
		printf("vma-workload: ok (%u patterns, %u skipped, %.0f ms)\n",
		       i - nskip, nskip, now_ms() - t0);
	return nfail ? 1 : 0;
}
