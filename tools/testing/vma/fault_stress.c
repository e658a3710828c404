// SPDX-License-Identifier: GPL-2.0
/*
 * fault_stress - page faults racing VMA changes in one address space.
 *
 * Runs in the /init of a booted test kernel (scripts/boot/init.sh, when
 * the command line says FAULT_STRESS=<seconds>).  In a kernel with
 * CONFIG_PER_VMA_LOCK a page fault finds its VMA with no mmap_lock, by an
 * RCU walk of the VMA tree (lock_vma_under_rcu()), while the tree is
 * being changed under the lock: this program makes both happen at once,
 * for as long as it is told, so that KASAN, lockdep and DEBUG_VM see the
 * tree's RCU readers beside every kind of VMA write.
 *
 * In one window of address space, reserved at start:
 *  - FAULTERS threads touch random pages (reads and writes, and now and
 *    then MADV_DONTNEED on the page just touched, so that the next touch
 *    faults again); a SIGSEGV where the writer has just unmapped or
 *    protected a page is caught and counted;
 *  - one writer thread maps (MAP_FIXED), unmaps, mprotects (splitting
 *    and merging VMAs), mremaps (grow and shrink in place, move) and
 *    zaps random page ranges of the window, and checks each call's
 *    result: success, or only the errors its arguments allow (a range
 *    that is not one mapping, no room to grow);
 *  - one reader thread reads /proc/self/maps and /proc/self/smaps in
 *    turn and checks every mapping line: it parses, start < end, both
 *    page aligned, and the file is read to its end.
 *
 * The counts: page faults taken (minflt of /proc/self/stat), and, where
 * the kernel counts them (CONFIG_PER_VMA_LOCK_STATS), the system's
 * vma_lock_success, vma_lock_abort, vma_lock_retry and vma_lock_miss of
 * /proc/vmstat over the run: faults handled with no mmap_lock, and those
 * that fell back to it.
 *
 * Output, one line:
 *	fault-stress: ok (<s> s, <n> touches, <n> segv, <n> faults, ...)
 * or "fault-stress: FAILED: <why>".  Exit status 0 only when ok.
 *
 * Usage: fault_stress [seconds] [--require-lockfree]
 *	seconds		how long to run (default 60)
 *	--require-lockfree  fail unless /proc/vmstat has vma_lock_success
 *			and it grew during the run (a kernel built to serve
 *			faults without mmap_lock, and counting them)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define WINDOW_PAGES	512
#define MAX_RANGE	16	/* pages per write, at most */
#define FAULTERS	2

static long page;
static char *window;
static atomic_int stop;
static double seconds = 60;

/* ---- reporting ---------------------------------------------------------- */

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static char fail_msg[256];
static atomic_int failed;

static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	if (!failed) {
		va_start(ap, fmt);
		vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
		va_end(ap);
		failed = 1;
	}
	pthread_mutex_unlock(&fail_lock);
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift: each thread its own sequence, from a seed printed at start. */
static unsigned long next_rand(unsigned long *s)
{
	unsigned long x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* A random page range [*first, *first + *n) inside the window. */
static void pick_range(unsigned long *s, unsigned long *first, unsigned long *n)
{
	*n = 1 + next_rand(s) % MAX_RANGE;
	*first = next_rand(s) % (WINDOW_PAGES - *n + 1);
}

/* ---- the faulting threads ----------------------------------------------- */

static __thread sigjmp_buf touch_env;
static __thread volatile int touching;

static void on_fault_signal(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (touching)
		siglongjmp(touch_env, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

struct faulter {
	unsigned long seed;
	long touches;
	long segv;
};

static void *faulter_run(void *arg)
{
	struct faulter *f = arg;
	unsigned long r;
	volatile char *p;

	while (!stop) {
		r = next_rand(&f->seed);
		p = window + (r % WINDOW_PAGES) * page + (r >> 16) % page;
		touching = 1;
		if (sigsetjmp(touch_env, 1)) {
			touching = 0;
			f->segv++;
			continue;
		}
		if (r & 0x100)
			*p = (char)r;
		else
			(void)*p;
		touching = 0;
		f->touches++;
		/* The page's next touch faults again: errors are harmless. */
		if ((r & 0x70000) == 0)
			madvise((void *)((unsigned long)p & ~(page - 1)), page,
				MADV_DONTNEED);
	}
	return NULL;
}

/* ---- the writer ----------------------------------------------------------- */

enum { W_MMAP, W_MUNMAP, W_MPROTECT, W_GROW, W_SHRINK, W_MOVE, W_ZAP, W_KINDS };
static const char *const w_names[W_KINDS] = {
	"mmap", "munmap", "mprotect", "mremap-grow", "mremap-shrink",
	"mremap-move", "dontneed",
};

/*
 * How often each kind is picked: maps outnumber unmaps, so that most of
 * the window stays mapped and most touches fault rather than hit a hole.
 */
static const unsigned char w_mix[] = {
	W_MMAP, W_MMAP, W_MMAP, W_MUNMAP, W_MPROTECT, W_MPROTECT,
	W_GROW, W_SHRINK, W_MOVE, W_MOVE, W_ZAP,
};

struct writer {
	unsigned long seed;
	long done[W_KINDS];
	long refused;	/* calls that failed with an error their range allows */
};

/* A call failed: with an error its arguments allow, or a real failure. */
static int refused(struct writer *w, const char *call, int allowed1, int allowed2)
{
	if (errno == allowed1 || errno == allowed2) {
		w->refused++;
		return 0;
	}
	fail("%s: unexpected error %d (%s)", call, errno, strerror(errno));
	return -1;
}

static int write_once(struct writer *w)
{
	static const int prots[] = { PROT_READ | PROT_WRITE, PROT_READ, PROT_NONE };
	unsigned long first, n, to, grow;
	char *a, *b;
	void *got;
	int kind = w_mix[next_rand(&w->seed) % sizeof(w_mix)];

	pick_range(&w->seed, &first, &n);
	a = window + first * page;
	switch (kind) {
	case W_MMAP:
		got = mmap(a, n * page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (got != a) {
			fail("mmap(MAP_FIXED) gave %p for %p: %s", got, a, strerror(errno));
			return -1;
		}
		break;
	case W_MUNMAP:
		if (munmap(a, n * page)) {
			fail("munmap: %s", strerror(errno));
			return -1;
		}
		break;
	case W_MPROTECT:
		/* ENOMEM: the range has a hole. */
		if (mprotect(a, n * page, prots[next_rand(&w->seed) % 3]))
			return refused(w, "mprotect", ENOMEM, ENOMEM);
		break;
	case W_GROW:
		/* In place, never past the window; EFAULT: not one mapping. */
		grow = 1 + next_rand(&w->seed) % 4;
		if (first + n + grow > WINDOW_PAGES)
			grow = WINDOW_PAGES - first - n;
		got = mremap(a, n * page, (n + grow) * page, 0);
		if (got == MAP_FAILED)
			return refused(w, "mremap grow", EFAULT, ENOMEM);
		if (got != a) {
			fail("mremap grow in place moved %p to %p", a, got);
			return -1;
		}
		break;
	case W_SHRINK:
		if (n < 2)
			return 0;
		got = mremap(a, n * page, (n / 2) * page, 0);
		if (got == MAP_FAILED)
			return refused(w, "mremap shrink", EFAULT, ENOMEM);
		if (got != a) {
			fail("mremap shrink moved %p to %p", a, got);
			return -1;
		}
		break;
	case W_MOVE:
		/* To a part of the window that does not overlap the source. */
		to = next_rand(&w->seed) % (WINDOW_PAGES - n + 1);
		if (to + n > first && to < first + n)
			return 0;
		b = window + to * page;
		got = mremap(a, n * page, n * page, MREMAP_MAYMOVE | MREMAP_FIXED, b);
		if (got == MAP_FAILED)
			return refused(w, "mremap move", EFAULT, ENOMEM);
		if (got != b) {
			fail("mremap move gave %p for %p", got, b);
			return -1;
		}
		break;
	case W_ZAP:
		if (madvise(a, n * page, MADV_DONTNEED))
			return refused(w, "madvise", ENOMEM, EINVAL);
		break;
	}
	w->done[kind]++;
	return 0;
}

static void *writer_run(void *arg)
{
	struct writer *w = arg;

	while (!stop)
		if (write_once(w))
			break;
	return NULL;
}

/* ---- the /proc reader ----------------------------------------------------- */

struct reader {
	long reads;
	long lines;
};

static char proc_buf[1 << 16];

/* Read one file to its end, checking every mapping line in it. */
static int read_maps(struct reader *r, const char *path)
{
	unsigned long start, end;
	size_t have = 0;
	ssize_t got;
	char *line, *nl;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		got = read(fd, proc_buf + have, sizeof(proc_buf) - 1 - have);
		if (got < 0) {
			fail("read %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		have += got;
		proc_buf[have] = '\0';
		line = proc_buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			/* smaps: mapping lines start with a hex range. */
			if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
			    strchr(line, '-') < strchr(line, ' ')) {
				if (start >= end || (start | end) & (page - 1)) {
					fail("%s: bad range line '%s'", path, line);
					close(fd);
					return -1;
				}
				r->lines++;
			}
			line = nl + 1;
		}
		have -= line - proc_buf;
		memmove(proc_buf, line, have);
		if (got == 0)
			break;
	}
	close(fd);
	if (have) {
		fail("%s: unterminated last line", path);
		return -1;
	}
	r->reads++;
	return 0;
}

static void *reader_run(void *arg)
{
	struct reader *r = arg;

	while (!stop)
		if (read_maps(r, "/proc/self/maps") ||
		    read_maps(r, "/proc/self/smaps"))
			break;
	return NULL;
}

/* ---- the counters ------------------------------------------------------- */

static const char *const vma_lock_names[] = {
	"vma_lock_success", "vma_lock_abort", "vma_lock_retry", "vma_lock_miss",
};
#define VMA_LOCK_COUNTERS 4

/* The vma_lock_* counts of /proc/vmstat; false if the kernel has none. */
static int read_vma_lock(long *v)
{
	char name[64];
	long val;
	int found = 0, i;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return 0;
	while (fscanf(f, "%63s %ld", name, &val) == 2)
		for (i = 0; i < VMA_LOCK_COUNTERS; i++)
			if (!strcmp(name, vma_lock_names[i])) {
				v[i] = val;
				found++;
			}
	fclose(f);
	return found == VMA_LOCK_COUNTERS;
}

/* Page faults this process took: minflt, field 10 of /proc/self/stat. */
static long read_minflt(void)
{
	char buf[1024], *p;
	long minflt = -1;
	int field;
	FILE *f = fopen("/proc/self/stat", "r");

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* the name may hold spaces */
		for (field = 2; p && field < 10; field++)
			p = strchr(p + 1, ' ');
		if (p)
			minflt = strtol(p + 1, NULL, 10);
	}
	fclose(f);
	return minflt;
}

int main(int argc, char **argv)
{
	struct faulter faulters[FAULTERS] = { 0 };
	pthread_t fthreads[FAULTERS], wthread, rthread;
	struct writer w = { 0 };
	struct reader r = { 0 };
	long lock0[VMA_LOCK_COUNTERS], lock1[VMA_LOCK_COUNTERS];
	long flt0, flt1, touches = 0, segv = 0, writes = 0;
	int require_lockfree = 0, counted, i;
	struct sigaction sa = { 0 };
	unsigned long seed;
	double t0, t;
	char *end;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--require-lockfree")) {
			require_lockfree = 1;
			continue;
		}
		seconds = strtod(argv[i], &end);
		if (*end || seconds <= 0) {
			fprintf(stderr, "usage: %s [seconds] [--require-lockfree]\n", argv[0]);
			return 2;
		}
	}
	page = sysconf(_SC_PAGESIZE);
	seed = (unsigned long)time(NULL) * 2654435761UL | 1;
	printf("fault-stress: %.0f s, %d faulting threads, a writer, a /proc reader, seed %lu\n",
	       seconds, FAULTERS, seed);
	fflush(stdout);

	sa.sa_sigaction = on_fault_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL)) {
		printf("fault-stress: FAILED: sigaction: %s\n", strerror(errno));
		return 1;
	}
	/* The window: ours for the run, so no other mapping lands in a hole. */
	window = mmap(NULL, WINDOW_PAGES * page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (window == MAP_FAILED) {
		printf("fault-stress: FAILED: mmap window: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < FAULTERS; i++)
		faulters[i].seed = seed + 2654435761UL * (i + 1);
	w.seed = seed ^ 0xdeadbeefUL;

	counted = read_vma_lock(lock0);
	flt0 = read_minflt();
	t0 = now_s();
	for (i = 0; i < FAULTERS; i++)
		if (pthread_create(&fthreads[i], NULL, faulter_run, &faulters[i]))
			fail("pthread_create");
	if (pthread_create(&wthread, NULL, writer_run, &w) ||
	    pthread_create(&rthread, NULL, reader_run, &r))
		fail("pthread_create");
	while (!stop && now_s() - t0 < seconds)
		usleep(100 * 1000);
	stop = 1;
	for (i = 0; i < FAULTERS; i++)
		pthread_join(fthreads[i], NULL);
	pthread_join(wthread, NULL);
	pthread_join(rthread, NULL);
	t = now_s() - t0;
	flt1 = read_minflt();
	counted = counted && read_vma_lock(lock1);

	for (i = 0; i < FAULTERS; i++) {
		touches += faulters[i].touches;
		segv += faulters[i].segv;
	}
	for (i = 0; i < W_KINDS; i++)
		writes += w.done[i];
	printf("fault-stress: writes:");
	for (i = 0; i < W_KINDS; i++)
		printf(" %s %ld", w_names[i], w.done[i]);
	printf(", refused %ld\n", w.refused);
	if (counted)
		printf("fault-stress: vma_lock_success %ld, vma_lock_abort %ld, vma_lock_retry %ld, vma_lock_miss %ld\n",
		       lock1[0] - lock0[0], lock1[1] - lock0[1],
		       lock1[2] - lock0[2], lock1[3] - lock0[3]);
	else
		printf("fault-stress: this kernel does not count lock-free faults (no vma_lock_* in /proc/vmstat)\n");

	if (!failed && (!touches || !writes || !r.reads))
		fail("a thread made no progress: %ld touches, %ld writes, %ld /proc reads",
		     touches, writes, r.reads);
	if (!failed && require_lockfree && !counted)
		fail("no vma_lock_* counters in /proc/vmstat (CONFIG_PER_VMA_LOCK_STATS)");
	if (!failed && require_lockfree && lock1[0] - lock0[0] <= 0)
		fail("no fault was handled without mmap_lock (vma_lock_success did not grow)");
	if (failed) {
		printf("fault-stress: FAILED: %s\n", fail_msg);
		return 1;
	}
	printf("fault-stress: ok (%.0f s, %ld touches, %ld segv, %ld faults, %ld writes, %ld /proc reads of %ld mapping lines",
	       t, touches, segv, flt1 - flt0, writes, r.reads, r.lines);
	if (counted)
		printf(", %ld lock-free", lock1[0] - lock0[0]);
	printf(")\n");
	return 0;
}
