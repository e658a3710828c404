// SPDX-License-Identifier: GPL-2.0
/*
 * The trace replayer under test (replay.h): every shipped trace
 * (tools/testing/vma/traces/) replayed on the maple and the rbtree
 * backend, debug builds with validate_mm() at every exec and exit, each
 * answer checked against the kernel's and the two backends' address
 * spaces compared after every operation; then the replayer's own rules
 * and errors on traces written here.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kunit/test.h>

#include "replay.h"

#ifndef REPLAY_TRACE_DIR
#define REPLAY_TRACE_DIR	"tools/testing/vma/traces"
#endif

static const struct replay_opts check_opts = {
	.touch_pages = REPLAY_TOUCH_PAGES,
	.touch_max = REPLAY_TOUCH_MAX,
	.seed = REPLAY_SEED,
	.digests = true,
	.validate = true,
};

static void replay_both(struct kunit *test, const struct replay_trace *t,
			struct replay_result *rm)
{
	struct replay_result rr;
	char err[512] = "";

	KUNIT_ASSERT_NOT_NULL(test, &vma_replay_ops_maple);
	KUNIT_ASSERT_NOT_NULL(test, &vma_replay_ops_rbtree);
	KUNIT_EXPECT_EQ_MSG(test, replay_run(t, &vma_replay_ops_maple,
					     &check_opts, rm), 0,
			    "%s", rm->error);
	KUNIT_EXPECT_EQ_MSG(test, replay_run(t, &vma_replay_ops_rbtree,
					     &check_opts, &rr), 0,
			    "%s", rr.error);
	KUNIT_EXPECT_EQ_MSG(test, replay_compare(t, rm, &rr, "maple", "rbtree",
						 err, sizeof(err)), 0,
			    "%s", err);
	replay_result_free(&rr);
}

static void shipped_traces_replay_alike_on_both_backends(struct kunit *test)
{
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (sizeof(long) < 8)
		kunit_skip(test, "the traces are of 64-bit programs, this build is 32-bit");
	d = opendir(REPLAY_TRACE_DIR);
	KUNIT_ASSERT_NOT_NULL_MSG(test, d, "no %s", REPLAY_TRACE_DIR);
	while ((e = readdir(d))) {
		struct replay_trace t;
		struct replay_result r;
		char path[4096], err[512];
		size_t len = strlen(e->d_name);

		if (len < 4 || strcmp(e->d_name + len - 3, ".gz"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", REPLAY_TRACE_DIR, e->d_name);
		KUNIT_ASSERT_EQ_MSG(test, replay_load(path, &t, err, sizeof(err)),
				    0, "%s", err);
		replay_both(test, &t, &r);
		/* Every operation applied: the rules skipped none here. */
		KUNIT_EXPECT_EQ_MSG(test, r.ops + r.skipped, t.nr_ops, "%s",
				    e->d_name);
		KUNIT_EXPECT_GT_MSG(test, r.lookups, 0UL, "%s", e->d_name);
		kunit_info(test, "%s: %zu operations, %lu lookups, peak %d VMAs",
			   e->d_name, t.nr_ops, r.lookups, r.peak_vmas);
		replay_result_free(&r);
		replay_free(&t);
		n++;
	}
	closedir(d);
	/* gcc, python, git, shell, threads, chromium at least. */
	KUNIT_EXPECT_GE(test, n, 6);
}

static int parse(const char *text, struct replay_trace *t, char *err,
		 size_t size)
{
	return replay_parse("t", text, strlen(text), t, err, size);
}

#define HDR	"# maple-vma-trace 1\n"

/*
 * A handmade life: exec, heap, mappings, a fork whose child execs, a
 * thread, an mprotect of a range exec mapped (the implicit rule), a
 * failed call replayed, one left out, exits.
 */
static const char handmade[] =
	HDR
	"10 exec prog\n"
	"10 brk 0x0 = 0x600000\n"
	"10 brk 0x621000 = 0x621000\n"
	"10 mmap 0x0 0x3000 rw- p - 0x0 = 0x70000000\n"
	"10 mmap 0x0 0x2000 r-- p 1 0x0 = 0x70100000\n"
	"10 mprotect 0x400000 0x1000 r-- = 0\n"
	"10 munmap 0x70000000 0x1000 = 0\n"
	"10 mprotect 0x70000000 0x1000 r-- = -12\n"
	"10 mmap 0x0 0x1000 rw- s 2 0x0 = -13\n"
	"10 fork 11\n"
	"11 exec child\n"
	"11 mmap 0x0 0x1000 rw- p - 0x0 = 0x71000000\n"
	"11 exit\n"
	"10 thread 12\n"
	"12 madvise 0x70001000 0x2000 = 0\n"
	"12 mremap 0x70001000 0x2000 0x4000 m 0x0 = 0x70200000\n"
	"12 exit\n"
	"10 exit\n";

static void handmade_trace_follows_the_rules(struct kunit *test)
{
	struct replay_trace t;
	struct replay_result r;
	char err[512];

	KUNIT_ASSERT_EQ_MSG(test, parse(handmade, &t, err, sizeof(err)), 0,
			    "%s", err);
	KUNIT_EXPECT_EQ(test, t.nr_ops, 18UL);
	KUNIT_EXPECT_EQ(test, t.nr_tasks, 3);
	KUNIT_EXPECT_EQ(test, t.nr_processes, 2);
	replay_both(test, &t, &r);
	/* The mprotect of exec's 0x400000: one range mapped for it. */
	KUNIT_EXPECT_EQ(test, r.implicit, 1UL);
	/* The -ENOMEM mprotect replayed; the -EACCES mmap left out. */
	KUNIT_EXPECT_EQ(test, r.failed, 1UL);
	KUNIT_EXPECT_EQ(test, r.skipped, 1UL);
	KUNIT_EXPECT_EQ(test, r.ops, 17UL);
	/* heap, 0x70000000 (3 pages), file, 0x400000 implicit. */
	KUNIT_EXPECT_EQ(test, r.peak_vmas, 4);
	replay_result_free(&r);
	replay_free(&t);
}

/* The kernel said one thing, mm/ must do another: the line is named. */
static void a_different_answer_names_its_line(struct kunit *test)
{
	static const char text[] =
		HDR
		"5 mmap 0x0 0x2000 rw- p - 0x0 = 0x70000000\n"
		"5 mprotect 0x70000000 0x2000 r-- = -12\n"
		"5 exit\n";
	struct replay_trace t;
	struct replay_result r;
	char err[512];

	KUNIT_ASSERT_EQ_MSG(test, parse(text, &t, err, sizeof(err)), 0,
			    "%s", err);
	KUNIT_EXPECT_EQ(test, replay_run(&t, &vma_replay_ops_maple,
					 &check_opts, &r), -1);
	KUNIT_EXPECT_EQ(test, r.bad_line, 3U);
	KUNIT_EXPECT_NOT_NULL(test, strstr(r.error, "t:3: mprotect"));
	replay_result_free(&r);
	replay_free(&t);
}

/* Bad traces: each error says where. */
static void bad_traces_are_refused_with_the_line(struct kunit *test)
{
	static const struct {
		const char *text, *error;
	} cases[] = {
		{ "10 exec x\n", "t:1: not a trace" },
		{ HDR "10 exec x\n10 frob 1 = 0\n", "t:3: unknown operation \"frob\"" },
		{ HDR "10 exec x\n10 munmap 0x1000 = 0\n", "t:3: munmap takes 2 arguments" },
		{ HDR "10 mmap 0 0x1000 rwz p - 0 = 0x1000\n", "t:2: bad arguments to mmap" },
		{ HDR "10 brk 0x0 = zz\n", "t:2: bad return value" },
		{ HDR "10 exec x\n10 exit\n10 brk 0x0 = 0x1000\n", "t:4: pid 10 is used after its exit" },
		{ HDR "10 exec x\n11 exit\n", "t:3: pid 11 appears without" },
		{ HDR "10 exec x\n10 fork 10\n", "t:3: new task 10 is already alive" },
		{ HDR "10 exec x\n10 brk 0x0 = 0x1", "t:3: truncated" },
		{ HDR "# nothing\n", "t: no operations" },
	};
	struct replay_trace t;
	char err[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		KUNIT_EXPECT_EQ_MSG(test, parse(cases[i].text, &t, err, sizeof(err)),
				    -1, "case %zu", i);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, cases[i].error),
					  "case %zu: \"%s\"", i, err);
		KUNIT_EXPECT_NULL(test, t.ops);
	}
}

/* A gzip file cut short: refused, with the last whole line named. */
static void truncated_gzip_is_refused(struct kunit *test)
{
	char dir[] = "/tmp/replay-suite-XXXXXX", cmd[512], path[256], err[512];
	struct replay_trace t;
	FILE *f;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.gz", dir);
	snprintf(cmd, sizeof(cmd), "gzip -c > %s", path);
	f = popen(cmd, "w");
	KUNIT_ASSERT_NOT_NULL(test, f);
	fputs(HDR "10 exec x\n", f);
	for (i = 0; i < 20000; i++)
		fprintf(f, "10 mmap 0x0 0x1000 rw- p - 0x0 = %#lx\n",
			0x40000000UL + i * 0x1000UL);
	KUNIT_ASSERT_EQ(test, pclose(f), 0);
	KUNIT_ASSERT_EQ(test, replay_load(path, &t, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, t.nr_ops, 20001UL);
	replay_free(&t);
	KUNIT_ASSERT_EQ(test, truncate(path, 20000), 0);
	KUNIT_EXPECT_EQ(test, replay_load(path, &t, err, sizeof(err)), -1);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, "truncated or corrupt gzip"),
				  "%s", err);
	unlink(path);
	rmdir(dir);
}

static struct kunit_case replay_cases[] = {
	KUNIT_CASE(shipped_traces_replay_alike_on_both_backends),
	KUNIT_CASE(handmade_trace_follows_the_rules),
	KUNIT_CASE(a_different_answer_names_its_line),
	KUNIT_CASE(bad_traces_are_refused_with_the_line),
	KUNIT_CASE(truncated_gzip_is_refused),
	{}
};

static struct kunit_suite replay_suite = {
	.name = "vma_replay",
	.test_cases = replay_cases,
};
kunit_test_suite(replay_suite);
