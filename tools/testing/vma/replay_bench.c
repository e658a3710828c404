// SPDX-License-Identifier: GPL-2.0
/*
 * vma_replay - real programs' address-space traces (tools/testing/vma/
 * record) replayed on mm/ over every backend: our maple tree, the rbtree
 * design and, when make bench found Debian's linux-source-6.1 or -6.12,
 * Linux 6.1's and 6.12's own trees behind the same mm/.
 *
 * For each trace, first the check: one replay per backend with every
 * answer compared with the kernel's and a digest of the operation's
 * address space taken after every operation; the backends' digests must
 * agree operation for operation (a difference is an error naming the
 * first operation after which they differ).  Then, unless --check, the
 * timing: --runs rounds (11; 5 with --quick), the backends alternating,
 * each round's sample the trace replayed as many times as take 40 ms
 * (10 with --quick) on our tree; the figure is nanoseconds per replayed
 * operation (the trace's operations and the lookups added for page
 * faults, address spaces created and torn down included), the median of
 * the rounds, ±N% their relative standard deviation.  The table is the kernel test robot's
 * ("rbtree %change maple metric", one per baseline), the verdict follows
 * (verdict.c, scope "traces"), and the worst trace for our tree, the one
 * with the largest %change against any baseline, is named; with
 * --profile it is run once more under callgrind and the functions where
 * its instructions go are listed.
 *
 * Page faults are invisible to strace: after every mapping that succeeds,
 * lookups (handle_fault_lockless()) are added at random pages of the new
 * range, one per --touch pages (16; 0: none), at least 1 and at most 64,
 * from a fixed seed, the same for every backend.
 *
 * Usage: vma_replay [--check] [--quick] [--runs N] [--touch N]
 *                   [--no-upstream] [--profile] [--json DIR] TRACE...
 *        vma_replay --one BACKEND TRACE    (one replay: what --profile runs)
 *
 * Conventions: t a trace, ops a backend, b a backend's index, r a round.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/maple_tree.h>

#include "replay.h"
#include "../bench/bench_commit.h"
#include "../bench/verdict.h"
#include "../bench/verdict.c"
#include "../bench/robot_table.c"

#define R_MAX_BACKENDS	4
#define R_MAX_TRACES	64
#define R_MAX_RUNS	31

struct trace_row {
	struct replay_trace t;
	struct replay_result check;	/* the check's outcome on ours */
	double load_ms;
	double ns[R_MAX_BACKENDS][R_MAX_RUNS];
	double med[R_MAX_BACKENDS], rsd[R_MAX_BACKENDS];
	double change[R_MAX_BACKENDS];
	double check_ms;
	int reps;
};

static const struct vma_replay_ops *backends[R_MAX_BACKENDS];
static int nr_backends;
static struct trace_row rows[R_MAX_TRACES];
static int nr_rows;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "vma_replay: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vma_replay [--check] [--quick] [--runs N] [--touch N] [--no-upstream]\n"
		"                  [--profile] [--json DIR] TRACE...\n"
		"       vma_replay --one BACKEND TRACE\n");
	exit(2);
}

static const struct vma_replay_ops *backend_by_name(const char *name)
{
	int b;

	for (b = 0; b < nr_backends; b++)
		if (!strcmp(backends[b]->name, name))
			return backends[b];
	return NULL;
}

static void trace_label(const struct replay_trace *t, char *buf, size_t size)
{
	size_t n = strcspn(t->name, ".");

	snprintf(buf, size, "traces.%.*s.ns_per_op", (int)n, t->name);
}

/* The check: every backend once, with digests, all alike. */
static void check_trace(struct trace_row *row, const struct replay_opts *o)
{
	struct replay_opts co = *o;
	struct replay_result r[R_MAX_BACKENDS];
	char err[512];
	double t0 = now_ns();
	int b;

	co.digests = true;
	for (b = 0; b < nr_backends; b++) {
		if (replay_run(&row->t, backends[b], &co, &r[b])) {
			fprintf(stderr, "vma_replay: %s\n", r[b].error);
			die("%s: the replay on %s failed", row->t.name,
			    backends[b]->name);
		}
		if (b && replay_compare(&row->t, &r[0], &r[b], backends[0]->name,
					backends[b]->name, err, sizeof(err)))
			die("%s", err);
	}
	row->check_ms = (now_ns() - t0) / 1e6;
	row->check = r[0];
	row->check.digests = NULL;
	for (b = 0; b < nr_backends; b++)
		replay_result_free(&r[b]);
}

/*
 * Each round's sample replays the trace @reps times, as many as make
 * @sample_ms on our tree, so that a short trace is not timed once.
 */
static void time_trace(struct trace_row *row, const struct replay_opts *o,
		       int runs, unsigned int sample_ms)
{
	struct replay_result r;
	int rr, k, b, i, reps;
	double t0, t1;

	t0 = now_ns();
	if (replay_run(&row->t, backends[0], o, &r))
		die("%s", r.error);
	t1 = now_ns();
	reps = (int)(sample_ms * 1e6 / (t1 - t0 + 1));
	reps = reps < 1 ? 1 : reps > 10000 ? 10000 : reps;
	row->reps = reps;
	for (rr = 0; rr < runs; rr++) {
		for (k = 0; k < nr_backends; k++) {
			b = (rr + k) % nr_backends;
			t0 = now_ns();
			for (i = 0; i < reps; i++)
				if (replay_run(&row->t, backends[b], o, &r))
					die("%s", r.error);
			t1 = now_ns();
			row->ns[b][rr] = (t1 - t0) /
					 ((double)reps * (r.ops + r.lookups));
		}
	}
	for (b = 0; b < nr_backends; b++) {
		row->med[b] = robot_median(row->ns[b], runs);
		row->rsd[b] = robot_rsd(row->ns[b], runs);
		row->change[b] = verdict_change(row->med[b], row->med[0]);
	}
}

/* ---- the robot's table, as vma_bench prints it ---- */

static void print_tables(void)
{
	char change[32], name[160];
	int b, i;

	for (b = 1; b < nr_backends; b++) {
		verdict_title(stdout, "traces", backends[b]->name);
		robot_table_header(robot_column_name(backends[b]->name),
				   backends[0]->name);
		for (i = 0; i < nr_rows; i++) {
			struct trace_row *row = &rows[i];

			trace_label(&row->t, name, sizeof(name));
			snprintf(change, sizeof(change), "%+.1f%%",
				 row->change[b]);
			robot_table_row(row->med[b], row->rsd[b], true, change,
					row->med[0], row->rsd[0], true, name);
		}
	}
}

static void print_verdicts(struct verdict *v)
{
	char name[160];
	FILE *f;
	int b, i;

	for (b = 1; b < nr_backends; b++) {
		verdict_init(&v[b], backends[b]->name);
		for (i = 0; i < nr_rows; i++) {
			trace_label(&rows[i].t, name, sizeof(name));
			verdict_add(&v[b], name, rows[i].med[b], rows[i].rsd[b],
				    rows[i].med[0], rows[i].rsd[0]);
		}
	}
	f = verdict_open();
	for (b = 1; b < nr_backends; b++)
		verdict_print(f, &v[b], "traces");
	verdict_close(f);
}

static void print_summary(const struct replay_opts *o)
{
	int i;

	printf("\ntraces: %d, replayed on", nr_rows);
	for (i = 0; i < nr_backends; i++)
		printf(" %s", backends[i]->name);
	printf("; every backend ended every operation with the same address\n"
	       "space (a digest of the VMAs after each operation) and answered the\n"
	       "kernel's return value.  Added page-fault lookups: one per %lu pages of\n"
	       "each new range, at least 1, at most %u, random pages, seed %llu.\n",
	       o->touch_pages, o->touch_max, (unsigned long long)o->seed);
	printf("\n%-10s %7s %7s %5s %5s %5s %8s %6s %7s %9s %7s %8s\n", "trace",
	       "ops", "lookups", "procs", "execs", "peak", "implicit", "failed",
	       "skipped", "reordered", "load ms", "check ms");
	for (i = 0; i < nr_rows; i++) {
		struct trace_row *row = &rows[i];
		char name[64];

		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(row->t.name, "."), row->t.name);
		printf("%-10s %7lu %7lu %5d %5lu %5d %8lu %6lu %7lu %9lu %7.1f %8.1f\n",
		       name, row->check.ops, row->check.lookups,
		       row->t.nr_processes, row->t.nr_kind[REPLAY_EXEC],
		       row->check.peak_vmas, row->check.implicit,
		       row->check.failed, row->check.skipped,
		       row->check.reordered, row->load_ms, row->check_ms);
	}
	printf("(ops: the trace's operations applied; peak: most VMAs in one mm;\n"
	       "implicit: ranges exec had mapped, mapped when a call needed them;\n"
	       "failed: calls that failed in the kernel, replayed as failures;\n"
	       "skipped: calls left out by the rules; reordered: a thread's munmap\n"
	       "applied before another's mmap that reused its range, as the kernel ran\n"
	       "them; the rules: Documentation/dev-tools/traces.rst)\n");
}

/* The trace with the largest %change of ours against any baseline. */
static int worst_trace(int *worst_b)
{
	int i, b, w = -1;

	*worst_b = 1;
	for (i = 0; i < nr_rows; i++)
		for (b = 1; b < nr_backends; b++)
			if (w < 0 || rows[i].change[b] > rows[w].change[*worst_b]) {
				w = i;
				*worst_b = b;
			}
	return w;
}

/*
 * One replay of @path on @backend under callgrind: with @top, the
 * functions with the most instructions of their own; then the
 * instructions under each mm/ entry point the replay calls.
 */
static int profile_one(const char *self, const char *path,
		       const char *backend, bool top)
{
	char cmd[4096], list[512] = "", out[64];

	snprintf(out, sizeof(out), "/tmp/vma_replay.callgrind.%d", (int)getpid());
	if (top)
		snprintf(list, sizeof(list),
			 "callgrind_annotate --inclusive=no %s 2>/dev/null | "
			 "awk '/PROGRAM TOTALS/ || (/file:function/ && !on) { print; on = 1; next } "
			 "on && /^ *[0-9,]+ \\(/ && c++ < 12' | sed 's/^/  /'; ",
			 out);
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --callgrind-out-file=%s "
		 "--toggle-collect=replay_run '%s' --one %s '%s' >/dev/null 2>&1 || exit 1; "
		 "%secho '%s by mm/ entry point (instructions, inclusive):'; "
		 "callgrind_annotate --inclusive=yes %s 2>/dev/null | "
		 "grep -E ':(vm_mmap|vm_munmap|do_mprotect|do_mremap|mm_brk|"
		 "handle_fault_lockless|dup_mmap|mmput) \\[' | "
		 "sed 's/ \\[.*//; s/^/  /'; rm -f %s",
		 out, self, backend, path, list, backend, out, out);
	fflush(stdout);
	return system(cmd);
}

static void profile(const char *self, const char *path, int wb)
{
	if (system("command -v valgrind >/dev/null 2>&1 && "
		   "command -v callgrind_annotate >/dev/null 2>&1")) {
		printf("(no profile: valgrind is not installed; make deps-callgrind)\n");
		return;
	}
	printf("profile (callgrind, one replay on %s; instructions, self, top 12):\n",
	       backends[0]->name);
	if (profile_one(self, path, backends[0]->name, true) ||
	    profile_one(self, path, backends[wb]->name, false))
		printf("(callgrind failed)\n");
}

static void write_json(const char *dir, int runs, bool quick)
{
	char path[1024], stamp[32], commit[64];
	const char *env = getenv("BENCH_STAMP");
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;
	int i, b;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (env && *env)
		snprintf(stamp, sizeof(stamp), "%s", env);
	bench_read_commit(commit, sizeof(commit));
	snprintf(path, sizeof(path), "%s", dir);
	for (i = 1; path[i]; i++) {
		if (path[i] != '/')
			continue;
		path[i] = '\0';
		mkdir(path, 0777);
		path[i] = '/';
	}
	if (mkdir(dir, 0777) && errno != EEXIST)
		die("mkdir %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s-%s%s-traces.json", dir, stamp,
		 commit, quick ? "-quick" : "");
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "{\n  \"commit\": \"%s\",\n  \"rounds\": %d,\n  \"backends\": [",
		commit, runs);
	for (b = 0; b < nr_backends; b++)
		fprintf(f, "%s\"%s\"", b ? ", " : "", backends[b]->name);
	fprintf(f, "],\n  \"traces\": {");
	for (i = 0; i < nr_rows; i++) {
		fprintf(f, "%s\n    \"%.*s\": { \"ops\": %lu, \"lookups\": %lu, \"ns_per_op\": {",
			i ? "," : "", (int)strcspn(rows[i].t.name, "."),
			rows[i].t.name, rows[i].check.ops,
			rows[i].check.lookups);
		for (b = 0; b < nr_backends; b++)
			fprintf(f, "%s\"%s\": %.2f", b ? ", " : " ",
				backends[b]->name, rows[i].med[b]);
		fprintf(f, " }, \"rsd_pct\": {");
		for (b = 0; b < nr_backends; b++)
			fprintf(f, "%s\"%s\": %.2f", b ? ", " : " ",
				backends[b]->name, rows[i].rsd[b]);
		fprintf(f, " } }");
	}
	fprintf(f, "\n  }\n}\n");
	if (fclose(f))
		die("cannot write %s", path);
	fprintf(stderr, "vma_replay: wrote %s\n", path);
}

static int one(const char *backend, const char *path,
	       const struct replay_opts *o)
{
	const struct vma_replay_ops *ops = backend_by_name(backend);
	struct replay_trace t;
	struct replay_result r;
	char err[512];

	if (!ops)
		die("no backend %s in this build", backend);
	if (replay_load(path, &t, err, sizeof(err)))
		die("%s", err);
	if (replay_run(&t, ops, o, &r))
		die("%s", r.error);
	replay_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	struct replay_opts o = {
		.touch_pages = REPLAY_TOUCH_PAGES, .touch_max = REPLAY_TOUCH_MAX,
		.seed = REPLAY_SEED,
	};
	struct verdict v[R_MAX_BACKENDS];
	const char *json = NULL, *paths[R_MAX_TRACES];
	bool check = false, quick = false, upstream = true, prof = false;
	int runs = 0, nr_paths = 0, i, b, wb, w;
	char err[512];

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--no-upstream"))
			upstream = false;
	if (&vma_replay_ops_maple)
		backends[nr_backends++] = &vma_replay_ops_maple;
	if (&vma_replay_ops_rbtree)
		backends[nr_backends++] = &vma_replay_ops_rbtree;
	if (&vma_replay_ops_upstream && upstream)
		backends[nr_backends++] = &vma_replay_ops_upstream;
	if (&vma_replay_ops_upstream612 && upstream)
		backends[nr_backends++] = &vma_replay_ops_upstream612;
	maple_tree_init();
	for (b = 0; b < nr_backends; b++)
		if (backends[b]->init)
			backends[b]->init();

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--no-upstream"))
			continue;
		else if (!strcmp(argv[i], "--profile"))
			prof = true;
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--touch") && i + 1 < argc)
			o.touch_pages = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json = argv[++i];
		else if (!strcmp(argv[i], "--one") && i + 2 < argc)
			return one(argv[i + 1], argv[i + 2], &o);
		else if (argv[i][0] == '-')
			usage();
		else if (nr_paths < R_MAX_TRACES)
			paths[nr_paths++] = argv[i];
		else
			die("more than %d traces", R_MAX_TRACES);
	}
	if (!nr_paths)
		usage();
	if (sizeof(long) < 8) {
		printf("vma_replay: the traces are of 64-bit programs; a 32-bit build\n"
		       "cannot hold their addresses, so nothing is replayed\n");
		return 0;
	}
	if (runs < 1 || runs > R_MAX_RUNS)
		runs = quick ? 5 : 11;

	for (i = 0; i < nr_paths; i++) {
		struct trace_row *row = &rows[nr_rows];
		double t0 = now_ns();

		if (replay_load(paths[i], &row->t, err, sizeof(err)))
			die("%s", err);
		row->load_ms = (now_ns() - t0) / 1e6;
		nr_rows++;
		check_trace(row, &o);
		if (!check) {
			fprintf(stderr, "vma_replay: %s: timing, %d rounds\n",
				row->t.name, runs);
			time_trace(row, &o, runs, quick ? 10 : 40);
		}
	}
	print_summary(&o);
	if (check || nr_backends < 2) {
		printf("vma_replay: %d trace%s checked on %d backends\n", nr_rows,
		       nr_rows == 1 ? "" : "s", nr_backends);
		goto out;
	}
	printf("\ntraces (vma_replay): %d rounds, backends alternating; ns per replayed\n"
	       "operation (lookups included), medians, %%stddev the spread of the rounds,\n"
	       "%%change that of the two medians printed, maple against the baseline;\n"
	       "lower is better.\n", runs);
	if (!backend_by_name("upstream"))
		printf("upstream (Linux 6.1's lib/maple_tree.c): not in this run\n");
	if (!backend_by_name("upstream-6.12"))
		printf("upstream-6.12 (Linux 6.12's lib/maple_tree.c): not in this run\n");
	print_tables();
	w = worst_trace(&wb);
	printf("\nworst trace for %s: %.*s, %+.1f%% against %s (%.1f ns/op against %.1f)\n",
	       backends[0]->name, (int)strcspn(rows[w].t.name, "."),
	       rows[w].t.name, rows[w].change[wb], robot_column_name(backends[wb]->name),
	       rows[w].med[0], rows[w].med[wb]);
	if (prof)
		profile(argv[0], paths[w], wb);
	print_verdicts(v);
	for (b = 1; b < nr_backends; b++)
		verdict_free(&v[b]);
	if (json)
		write_json(json, runs, quick);
out:
	for (i = 0; i < nr_rows; i++)
		replay_free(&rows[i].t);
	return 0;
}
