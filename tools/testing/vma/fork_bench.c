// SPDX-License-Identifier: GPL-2.0
/*
 * fork_bench - time fork() of a process with many VMAs, from userspace.
 *
 * Runs as a static program in the /init of a booted kernel (see
 * scripts/fork-bench.sh).  For each VMA count asked for, it maps that many
 * pages and makes every page its own VMA (odd pages read-only, so no two
 * neighbours merge), then forks in a loop; each child exits at once.  Two
 * times per fork: the fork() call as the parent sees it (copy_process(),
 * dup_mmap() with the VMA tree copy among it) and the whole cycle
 * (fork, the child's exit with its exit_mmap(), waitpid).  The pages are
 * never touched, so copy_page_range() has no page tables to copy and
 * the VMA and tree work is what differs with the VMA count.
 *
 * Output, one line per VMA count:
 *	fork-bench: vmas <n> forks <k> fork_ns <median> cycle_ns <median>
 * where <n> counts every VMA of the process (its own mappings included).
 *
 * Usage: fork_bench [forks] [pages...]   (default 300 forks, 100 and
 * 1000 VMAs)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int count_vmas(void)
{
	char buf[4096];
	int n = 0;
	ssize_t r;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
		for (ssize_t i = 0; i < r; i++)
			n += buf[i] == '\n';
	fclose(f);
	return n;
}

/* Time @forks forks of the process as it is now. */
static int run(int forks, long long *fork_ns, long long *cycle_ns)
{
	for (int i = -forks / 10; i < forks; i++) {	/* warm-up first */
		long long t0 = now_ns(), t1;
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			perror("fork-bench: fork");
			return -1;
		}
		if (pid == 0)
			_exit(0);
		t1 = now_ns();
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
			fprintf(stderr, "fork-bench: child failed\n");
			return -1;
		}
		if (i >= 0) {
			fork_ns[i] = t1 - t0;
			cycle_ns[i] = now_ns() - t0;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const long def_pages[] = { 100, 1000 };
	long page = sysconf(_SC_PAGESIZE);
	int forks = argc > 1 ? atoi(argv[1]) : 300;
	int nsizes = argc > 2 ? argc - 2 : 2;
	long long *fork_ns, *cycle_ns;

	if (forks < 1)
		forks = 1;
	fork_ns = calloc(forks, sizeof(*fork_ns));
	cycle_ns = calloc(forks, sizeof(*cycle_ns));
	if (!fork_ns || !cycle_ns)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int s = 0; s < nsizes; s++) {
		long want = argc > 2 ? atol(argv[s + 2]) : def_pages[s];
		long pages, i;
		int base = count_vmas();
		char *p;

		/* The process's own mappings count towards the target. */
		pages = want > base ? want - base : 1;
		p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("fork-bench: mmap");
			return 1;
		}
		for (i = 1; i < pages; i += 2)
			if (mprotect(p + i * page, page, PROT_READ)) {
				perror("fork-bench: mprotect");
				return 1;
			}
		if (run(forks, fork_ns, cycle_ns))
			return 1;
		printf("fork-bench: vmas %d forks %d fork_ns %lld cycle_ns %lld\n",
		       count_vmas(), forks, median(fork_ns, forks),
		       median(cycle_ns, forks));
		munmap(p, pages * page);
	}
	return 0;
}
