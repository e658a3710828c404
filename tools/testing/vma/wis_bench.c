// SPDX-License-Identifier: GPL-2.0
/*
 * wis_bench - will-it-scale style address-space loops, timed from userspace.
 *
 * Runs as a static program in the /init of a booted kernel (see
 * scripts/kernel-bench.sh): each loop repeats one small piece of VMA work
 * for a fixed time and reports how many times per second it got done.
 * The loops (one "op" is one pass of the loop):
 *
 *   mmap1        mmap 128 MiB of private anonymous memory, munmap it
 *   brk1         grow the heap by one page, shrink it again, where the
 *                heap ends in a read-only page: each grow inserts a new
 *                VMA and each shrink removes it
 *   brk2         the same on a writable heap end (grown once before the
 *                loop): each grow expands the heap VMA, each shrink
 *                contracts it; no VMA comes or goes
 *   page_fault1  mmap 128 MiB, write one byte to every page, munmap; an
 *                op here is one page (as will-it-scale counts it)
 *   mmap1_frag   mmap1 in an address space with 1,000 more VMAs
 *                (one 1,000-page mapping, every other page read-only)
 *   fork_frag    fork in that address space; the child exits at once and
 *                the parent waits for it
 *
 * Mode "process" runs the loop in the program's only thread; mode "thread"
 * runs it in a second thread while the first waits in pthread_join(), so
 * the address space has two users (with one CPU only one runs at a time).
 *
 * Timing: a warm-up doubles the batch size until a batch takes at least
 * 20 ms and goes on for a quarter of the time (at most 0.5 s), then
 * batches run until the time is up; the clock is read only
 * between batches, so a coarse clock (jiffies) costs at most its step
 * over the whole run.  Output, one line per loop and mode:
 *
 *   wis-bench: test <name> mode <process|thread> ops <n> ns <elapsed> ops_per_sec <rate>
 *
 * Usage: wis_bench [-t seconds] [-m process|thread|both] [test...]
 * (default 2 s, both modes, every test).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAP_BYTES	(128UL << 20)
#define FRAG_PAGES	1000

static long page_size;
static double run_seconds = 2.0;

/* Output without stdio buffers: stdio would take heap memory via brk. */
static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(1, buf, n) < 0)
		_exit(3);
}

static void die(const char *what)
{
	say("wis-bench: FAILED: %s: %s\n", what, strerror(errno));
	_exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned long sys_brk(unsigned long addr)
{
	return syscall(SYS_brk, addr);
}

/* Each loop body does @n ops and returns how many ops it counts. */
typedef long (*loop_fn)(long n);

static long do_mmap1(long n)
{
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		if (munmap(p, MAP_BYTES))
			die("munmap");
	}
	return n;
}

static unsigned long brk_base;

static long do_brk(long n)
{
	unsigned long top = brk_base + page_size;

	for (long i = 0; i < n; i++) {
		if (sys_brk(top) != top)
			die("brk grow");
		if (sys_brk(brk_base) != brk_base)
			die("brk shrink");
	}
	return n;
}

static long do_page_fault1(long n)
{
	long pages = MAP_BYTES / page_size;

	for (long i = 0; i < n; i++) {
		char *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		for (long j = 0; j < pages; j++)
			p[j * page_size] = 1;
		if (munmap(p, MAP_BYTES))
			die("munmap");
	}
	return n * pages;
}

static long do_fork(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			die("waitpid");
	}
	return n;
}

struct run {
	loop_fn fn;
	long long ops;
	long long ns;
};

static void *timed_loop(void *arg)
{
	struct run *r = arg;
	long long start, end, t, ops = 0;
	long batch = 1;

	/*
	 * Warm-up, not counted: size a batch to at least 20 ms, then go on
	 * for a quarter of the run (at most 0.5 s), so that an emulator's
	 * code cache is warm too.
	 */
	start = now_ns();
	for (;;) {
		t = now_ns();
		r->fn(batch);
		if (now_ns() - t >= 20000000LL || batch >= (1L << 30))
			break;
		batch *= 2;
	}
	end = start + (long long)(run_seconds * 1e9 / 4);
	if (end > start + 500000000LL)
		end = start + 500000000LL;
	while (now_ns() < end)
		r->fn(batch);
	start = now_ns();
	end = start + (long long)(run_seconds * 1e9);
	do {
		ops += r->fn(batch);
		t = now_ns();
	} while (t < end);
	r->ops = ops;
	r->ns = t - start;
	return NULL;
}

static void run_loop(const char *name, loop_fn fn, int threaded)
{
	struct run r = { .fn = fn };
	pthread_t th;
	int err;

	if (threaded) {
		err = pthread_create(&th, NULL, timed_loop, &r);
		if (err) {
			errno = err;
			die("pthread_create");
		}
		pthread_join(th, NULL);
	} else {
		timed_loop(&r);
	}
	say("wis-bench: test %s mode %s ops %lld ns %lld ops_per_sec %.1f\n",
	    name, threaded ? "thread" : "process", r.ops, r.ns,
	    r.ops * 1e9 / (double)r.ns);
}

/* 1,000 single-page VMAs: one mapping, every other page read-only. */
static char *fragment(void)
{
	char *p = mmap(NULL, FRAG_PAGES * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	for (long i = 1; i < FRAG_PAGES; i += 2)
		if (mprotect(p + i * page_size, page_size, PROT_READ))
			die("mprotect");
	return p;
}

static void run_test(const char *name, int threaded)
{
	unsigned long start = sys_brk(0);
	char *frag = NULL;

	if (!strcmp(name, "mmap1")) {
		run_loop(name, do_mmap1, threaded);
	} else if (!strcmp(name, "brk1")) {
		/* End the heap in a read-only page, so a grow cannot merge. */
		if (sys_brk(start + page_size) != start + page_size)
			die("brk");
		if (mprotect((void *)start, page_size, PROT_READ))
			die("mprotect");
		brk_base = start + page_size;
		run_loop(name, do_brk, threaded);
	} else if (!strcmp(name, "brk2")) {
		if (sys_brk(start + page_size) != start + page_size)
			die("brk");
		brk_base = start + page_size;
		run_loop(name, do_brk, threaded);
	} else if (!strcmp(name, "page_fault1")) {
		run_loop(name, do_page_fault1, threaded);
	} else if (!strcmp(name, "mmap1_frag")) {
		frag = fragment();
		run_loop(name, do_mmap1, threaded);
	} else if (!strcmp(name, "fork_frag")) {
		frag = fragment();
		run_loop(name, do_fork, threaded);
	} else {
		say("wis-bench: unknown test %s\n", name);
		_exit(2);
	}
	if (frag && munmap(frag, FRAG_PAGES * page_size))
		die("munmap");
	/* Give back what the test took of the heap (the read-only page too). */
	if (sys_brk(start) != start)
		die("brk restore");
}

int main(int argc, char **argv)
{
	static const char *const all[] = {
		"mmap1", "brk1", "brk2", "page_fault1", "mmap1_frag", "fork_frag",
	};
	int modes = 3, opt, ntests;
	const char *const *tests;
	struct timespec res;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "t:m:")) != -1) {
		switch (opt) {
		case 't':
			run_seconds = atof(optarg);
			if (run_seconds <= 0)
				run_seconds = 2.0;
			break;
		case 'm':
			modes = !strcmp(optarg, "process") ? 1 :
				!strcmp(optarg, "thread") ? 2 : 3;
			break;
		default:
			say("usage: %s [-t seconds] [-m process|thread|both] [test...]\n",
			    argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		tests = (const char *const *)argv + optind;
		ntests = argc - optind;
	} else {
		tests = all;
		ntests = sizeof(all) / sizeof(all[0]);
	}
	clock_getres(CLOCK_MONOTONIC, &res);
	say("wis-bench: clock_getres_ns %ld seconds %.1f\n",
	    res.tv_sec * 1000000000L + res.tv_nsec, run_seconds);
	for (int i = 0; i < ntests; i++) {
		if (modes & 1)
			run_test(tests[i], 0);
		if (modes & 2)
			run_test(tests[i], 1);
	}
	say("wis-bench: done\n");
	return 0;
}
