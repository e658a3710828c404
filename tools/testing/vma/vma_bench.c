// SPDX-License-Identifier: GPL-2.0
/*
 * vma_bench - mm/ on the maple tree against the pre-6.1 rbtree, same run.
 *
 * Workloads, each on an address space that already holds 100 or 1,000
 * VMAs (4 pages each, 128 KiB apart):
 *   mmap-munmap     mmap() of 32 anonymous pages without an address (the
 *                   top-down search), then munmap() of it (will-it-scale
 *                   mmap1's loop)
 *   fault           handle_fault(): mmap_read_lock, find_vma, access check
 *   fault-lockless  handle_fault_lockless(): lock_vma_under_rcu() on the
 *                   maple backend; the same as fault on the rbtree one
 *   iterate         every VMA in order under mmap_read_lock, per VMA:
 *                   for_each_vma() on the maple backend, the vm_next list
 *                   on the rbtree one (what exit, fork and
 *                   /proc/pid/maps walk)
 * Faults go to 4,096 random addresses inside the VMAs, in turn.
 *
 * ns/op is the median of --runs rounds (default 7), each round timing
 * the maple and the rbtree backend one after the other, order alternating.
 * With --callgrind, instructions per op: the program runs itself under
 * valgrind's callgrind with N and 2N operations and divides the
 * difference by N, so the setup cancels out.  Nanoseconds on a shared
 * machine are noisy; compare the two columns of one run, not runs.
 *
 * Usage: vma_bench [--quick] [--runs N] [--callgrind]
 *        vma_bench --one BACKEND WORKLOAD VMAS OPS   (what callgrind runs)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/maple_tree.h>

#include "bench_ops.h"

#define B_PAGE		4096UL
#define B_BASE		0x10000000UL
#define B_STEP		0x20000UL
#define B_VMA_LEN	(4 * B_PAGE)
#define B_MAP_LEN	(32 * B_PAGE)
#define B_ADDRS		4096

static const struct vma_bench_ops *backends[] = {
	&vma_bench_ops_maple, &vma_bench_ops_rbtree,
};

static const char * const workloads[] = {
	"mmap-munmap", "fault", "fault-lockless", "iterate",
};

#define NR_WORKLOADS	(sizeof(workloads) / sizeof(workloads[0]))

static const unsigned long sizes[] = { 100, 1000 };

static unsigned long addrs[B_ADDRS];

static void *setup(const struct vma_bench_ops *ops, unsigned long nr)
{
	void *mm = ops->mm_new();
	unsigned long i, seed = 12345;

	if (!mm) {
		fprintf(stderr, "vma_bench: mm_new failed\n");
		exit(1);
	}
	for (i = 0; i < nr; i++) {
		if (ops->mmap_anon(mm, B_BASE + i * B_STEP, B_VMA_LEN, i & 1) !=
		    B_BASE + i * B_STEP) {
			fprintf(stderr, "vma_bench: setup mmap failed\n");
			exit(1);
		}
	}
	if ((unsigned long)ops->map_count(mm) != nr) {
		fprintf(stderr, "vma_bench: %d VMAs, wanted %lu\n",
			ops->map_count(mm), nr);
		exit(1);
	}
	for (i = 0; i < B_ADDRS; i++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		addrs[i] = B_BASE + ((seed >> 33) % nr) * B_STEP +
			   ((seed >> 13) % B_VMA_LEN);
	}
	return mm;
}

/* The measured loops; out of line so they show up as such in a profile. */
static noinline int loop_mmap(const struct vma_bench_ops *ops,
					       void *mm, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		unsigned long a = ops->mmap_anon(mm, 0, B_MAP_LEN, 1);

		if (a >= (unsigned long)-4095 || ops->munmap(mm, a, B_MAP_LEN))
			return -1;
	}
	return 0;
}

static noinline int loop_fault(const struct vma_bench_ops *ops,
						void *mm, unsigned long n,
						bool lockless)
{
	int (*fault)(void *, unsigned long) =
		lockless ? ops->fault_lockless : ops->fault;
	unsigned long i;

	for (i = 0; i < n; i++)
		if (fault(mm, addrs[i & (B_ADDRS - 1)]))
			return -1;
	return 0;
}

/* @n VMAs visited, in whole passes (the last one may go past @n). */
static noinline int loop_iterate(const struct vma_bench_ops *ops,
				 void *mm, unsigned long n)
{
	unsigned long seen = 0, nr = ops->map_count(mm);

	while (seen < n) {
		if (ops->iterate(mm) != nr)
			return -1;
		seen += nr;
	}
	return 0;
}

static int run(const struct vma_bench_ops *ops, int w, void *mm,
	       unsigned long n)
{
	if (w == 0)
		return loop_mmap(ops, mm, n);
	if (w == 3)
		return loop_iterate(ops, mm, n);
	return loop_fault(ops, mm, n, w == 2);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double timed(const struct vma_bench_ops *ops, int w, unsigned long nr,
		    unsigned long n)
{
	void *mm = setup(ops, nr);
	double t0, t1;

	run(ops, w, mm, n / 10);	/* warm up */
	t0 = now_ns();
	if (run(ops, w, mm, n)) {
		fprintf(stderr, "vma_bench: %s %s failed\n", ops->name,
			workloads[w]);
		exit(1);
	}
	t1 = now_ns();
	ops->mm_put(mm);
	return (t1 - t0) / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---- callgrind ---- */

static int callgrind_ir(const char *self, const char *backend, int w,
			unsigned long nr, unsigned long n, double *ir)
{
	char out[256], arg_n[32], arg_nr[32], line[512];
	FILE *f;
	pid_t pid;
	int status;

	snprintf(out, sizeof(out), "/tmp/vma_bench.%d.%s.%d.%lu.%lu",
		 (int)getpid(), backend, w, nr, n);
	snprintf(arg_n, sizeof(arg_n), "%lu", n);
	snprintf(arg_nr, sizeof(arg_nr), "%lu", nr);
	pid = fork();
	if (pid == 0) {
		char file_arg[300];

		snprintf(file_arg, sizeof(file_arg), "--callgrind-out-file=%s",
			 out);
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("valgrind", "valgrind", "--tool=callgrind", file_arg,
		       self, "--one", backend, workloads[w], arg_nr, arg_n,
		       (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	f = fopen(out, "r");
	if (!f)
		return -1;
	*ir = -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7))
			*ir = strtod(strchr(line, ':') + 1, NULL);
	fclose(f);
	unlink(out);
	return *ir < 0 ? -1 : 0;
}

static double insn_per_op(const char *self, const char *backend, int w,
			  unsigned long nr)
{
	unsigned long n = w == 0 ? 2000 : 20000;
	double ir1, ir2;

	if (callgrind_ir(self, backend, w, nr, n, &ir1) ||
	    callgrind_ir(self, backend, w, nr, 2 * n, &ir2))
		return -1;
	return (ir2 - ir1) / n;
}

static int one(char **argv)
{
	const struct vma_bench_ops *ops = NULL;
	unsigned long nr = strtoul(argv[2], NULL, 0);
	unsigned long n = strtoul(argv[3], NULL, 0);
	unsigned int i;
	int w = -1;
	void *mm;

	for (i = 0; i < 2; i++)
		if (!strcmp(argv[0], backends[i]->name))
			ops = backends[i];
	for (i = 0; i < NR_WORKLOADS; i++)
		if (!strcmp(argv[1], workloads[i]))
			w = i;
	if (!ops || w < 0)
		return 2;
	mm = setup(ops, nr);
	if (run(ops, w, mm, n))
		return 1;
	ops->mm_put(mm);
	return 0;
}

int main(int argc, char **argv)
{
	bool quick = false, callgrind = false;
	int runs = 7, i, w, s, b;

	maple_tree_init();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			quick = true;
			runs = 3;
		} else if (!strcmp(argv[i], "--callgrind")) {
			callgrind = true;
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--one") && i + 4 < argc) {
			return one(&argv[i + 1]);
		} else {
			fprintf(stderr, "usage: vma_bench [--quick] [--runs N] [--callgrind]\n");
			return 2;
		}
	}
	if (runs < 1 || runs > 99)
		runs = 7;

	printf("%-15s %5s %12s %12s %8s", "workload", "VMAs", "maple ns/op",
	       "rbtree ns/op", "m/rb");
	if (callgrind)
		printf(" %13s %13s", "maple insn/op", "rbtree insn/op");
	printf("\n");
	for (w = 0; w < (int)NR_WORKLOADS; w++) {
		for (s = 0; s < 2; s++) {
			unsigned long n = (w == 0 ? 100000 : 1000000) /
					  (quick ? 20 : 1);
			double t[2][99], med[2];
			int r;

			for (r = 0; r < runs; r++)
				for (b = 0; b < 2; b++) {
					int which = (r & 1) ? 1 - b : b;

					t[which][r] = timed(backends[which], w,
							    sizes[s], n);
				}
			for (b = 0; b < 2; b++) {
				qsort(t[b], runs, sizeof(double), cmp_double);
				med[b] = t[b][runs / 2];
			}
			printf("%-15s %5lu %12.1f %12.1f %8.2f", workloads[w],
			       sizes[s], med[0], med[1], med[0] / med[1]);
			if (callgrind)
				printf(" %13.0f %13.0f",
				       insn_per_op(argv[0], "maple", w, sizes[s]),
				       insn_per_op(argv[0], "rbtree", w, sizes[s]));
			printf("\n");
			fflush(stdout);
		}
	}
	return 0;
}
