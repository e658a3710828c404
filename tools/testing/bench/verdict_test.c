// SPDX-License-Identifier: GPL-2.0+
/*
 * The benchmarks' verdict (verdict.c): %change from the two medians, the
 * direction each metric is better in, ahead / level / behind against the
 * rounds' spread, the rows behind worst first, and the text and JSON
 * make bench prints and keeps.  Every expected value is worked out by
 * hand in the comment beside it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kunit/test.h>

#include "verdict.c"

/* @x to tenths, rounded half away from zero, as an integer. */
static long tenths(double x)
{
	return (long)(x * 10 + (x < 0 ? -0.5 : 0.5));
}

static void verdict_direction_by_name(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, verdict_higher_is_better(
			"will-it-scale.mmap1.process.1.per_process_ops"));
	KUNIT_EXPECT_TRUE(test, verdict_higher_is_better(
			"will-it-scale.brk2.thread.2.per_thread_ops"));
	KUNIT_EXPECT_TRUE(test, verdict_higher_is_better(
			"rcu_lookup.readers1.nowriter.mops"));
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better(
			"mtree_load.100.ns_per_op"));
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better(
			"vma.iterate.100vmas.insn_per_op"));
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better(
			"mas_next.1000.ns_per_entry"));
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better(
			"memory.100.nodes_per_1000_ranges"));
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better(
			"append.100.allocs_per_op"));
	/* Only the whole suffix counts. */
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better("ops"));
	KUNIT_EXPECT_FALSE(test, verdict_higher_is_better("xmops"));
}

static void verdict_change_is_that_of_the_medians(struct kunit *test)
{
	/* (150 - 200) / 200 = -25 %; (100 - 80) / 80 = +25 %. */
	KUNIT_EXPECT_EQ(test, tenths(verdict_change(200, 150)), -250L);
	KUNIT_EXPECT_EQ(test, tenths(verdict_change(80, 100)), 250L);
	/*
	 * An earlier run's execl row, 38659 -> 32525, printed +14.9 % as
	 * the median of per-round ratios: (32525 - 38659) / 38659 = -6134 /
	 * 38659 = -15.87 %.
	 */
	KUNIT_EXPECT_EQ(test, tenths(verdict_change(38659, 32525)), -159L);
	/* Its brk2.thread row, 1124804 -> 1368368, printed -12.0 %: +21.65. */
	KUNIT_EXPECT_EQ(test, tenths(verdict_change(1124804, 1368368)), 217L);
	KUNIT_EXPECT_EQ(test, tenths(verdict_change(0, 0)), 0L);
	KUNIT_EXPECT_TRUE(test, verdict_change(0, 5) > 1e300);
	KUNIT_EXPECT_TRUE(test, verdict_change(0, -5) < -1e300);
}

static void verdict_spread_is_the_larger(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tenths(verdict_spread(3, 7)), 70L);
	KUNIT_EXPECT_EQ(test, tenths(verdict_spread(12.5, 4)), 125L);
	/* A negative spread is none: 0. */
	KUNIT_EXPECT_EQ(test, tenths(verdict_spread(-1, 2)), 20L);
	KUNIT_EXPECT_EQ(test, tenths(verdict_spread(2, -1)), 20L);
	KUNIT_EXPECT_EQ(test, tenths(verdict_spread(-1, -1)), 0L);
}

static void verdict_classify_by_direction_and_spread(struct kunit *test)
{
	const char *rate = "x.per_process_ops", *time = "x.ns_per_op";

	KUNIT_EXPECT_EQ(test, verdict_classify(rate, 10, 5), VERDICT_AHEAD);
	KUNIT_EXPECT_EQ(test, verdict_classify(rate, -10, 5), VERDICT_BEHIND);
	KUNIT_EXPECT_EQ(test, verdict_classify(time, 10, 5), VERDICT_BEHIND);
	KUNIT_EXPECT_EQ(test, verdict_classify(time, -10, 5), VERDICT_AHEAD);
	KUNIT_EXPECT_EQ(test, verdict_classify("x.mops", 10, 5),
			VERDICT_AHEAD);
	/* Inside the spread, its edge included: level either way. */
	KUNIT_EXPECT_EQ(test, verdict_classify(time, -5, 5), VERDICT_LEVEL);
	KUNIT_EXPECT_EQ(test, verdict_classify(rate, 4.9, 5), VERDICT_LEVEL);
	KUNIT_EXPECT_EQ(test, verdict_classify(time, 5.1, 5), VERDICT_BEHIND);
	/* As printed: -9.52% against ±9.47% both read 9.5, level. */
	KUNIT_EXPECT_EQ(test, verdict_classify(rate, -9.52, 9.47),
			VERDICT_LEVEL);
	KUNIT_EXPECT_EQ(test, verdict_classify(rate, -9.56, 9.47),
			VERDICT_BEHIND);
	/* Without a spread (exact counts), what prints as 0.0% is level. */
	KUNIT_EXPECT_EQ(test, verdict_classify(time, 0.04, 0), VERDICT_LEVEL);
	KUNIT_EXPECT_EQ(test, verdict_classify(time, 0.1, 0), VERDICT_BEHIND);
	KUNIT_EXPECT_EQ(test, verdict_classify(rate, INFINITY, 50),
			VERDICT_AHEAD);
}

/*
 * Seven rows:
 *   a  ops  100 -> 120 (±2, ±3)       +20 %      ahead
 *   b  ns    10 -> 11  (±1, ±1)       +10 %      behind (by 10)
 *   c  ops 38659 -> 32525 (±1, ±9)    -15.87 %   behind (by 15.87)
 *   d  ns    50 -> 55  (±20, ±5)      +10 %      level (spread 20)
 *   e  allocs 2 -> 2   (none)           0 %      level
 *   f  ns     4 -> 3   (±0, ±0)       -25 %      ahead
 *   g  nodes 140 -> 143 (none)        +2.14 %    behind (by 2.14)
 * Behind, worst first (times slower): c (1.19), b (1.10), g (1.02).
 */
static void verdict_fill(struct verdict *v)
{
	verdict_add(v, "a.per_process_ops", 100, 2, 120, 3);
	verdict_add(v, "b.ns_per_op", 10, 1, 11, 1);
	verdict_add(v, "c.per_thread_ops", 38659, 1, 32525, 9);
	verdict_add(v, "d.ns_per_op", 50, 20, 55, 5);
	verdict_add(v, "e.allocs_per_op", 2, -1, 2, -1);
	verdict_add(v, "f.ns_per_op", 4, 0, 3, 0);
	verdict_add(v, "g.nodes_per_1000_ranges", 140, -1, 143, -1);
}

static void verdict_counts_and_rows_behind(struct kunit *test)
{
	struct verdict v;

	verdict_init(&v, "rbtree");
	KUNIT_EXPECT_EQ(test, verdict_add(&v, "a.per_process_ops", 100, 2,
					  120, 3), VERDICT_AHEAD);
	verdict_free(&v);

	verdict_init(&v, "rbtree");
	verdict_fill(&v);
	KUNIT_EXPECT_STREQ(test, v.baseline, "rbtree");
	KUNIT_EXPECT_EQ(test, v.nr[VERDICT_AHEAD], 2U);
	KUNIT_EXPECT_EQ(test, v.nr[VERDICT_LEVEL], 2U);
	KUNIT_EXPECT_EQ(test, v.nr[VERDICT_BEHIND], 3U);
	KUNIT_EXPECT_STREQ(test, v.behind[0].name, "c.per_thread_ops");
	KUNIT_EXPECT_EQ(test, tenths(v.behind[0].change), -159L);
	KUNIT_EXPECT_EQ(test, tenths(v.behind[0].spread), 90L);
	KUNIT_EXPECT_STREQ(test, v.behind[1].name, "b.ns_per_op");
	KUNIT_EXPECT_EQ(test, tenths(v.behind[1].change), 100L);
	KUNIT_EXPECT_EQ(test, tenths(v.behind[1].spread), 10L);
	KUNIT_EXPECT_STREQ(test, v.behind[2].name, "g.nodes_per_1000_ranges");
	/* 3 / 140 = 2.14 % */
	KUNIT_EXPECT_EQ(test, tenths(v.behind[2].change), 21L);
	verdict_free(&v);
	KUNIT_EXPECT_NULL(test, v.behind);

	/*
	 * Worst first by how many times slower: a rate at -50% (2 times)
	 * before a time at +60% (1.6 times) before a rate at -20% (1.25
	 * times), whatever the order they come in.
	 */
	verdict_init(&v, "upstream");
	verdict_add(&v, "r20.per_thread_ops", 100, 1, 80, 1);
	verdict_add(&v, "t60.ns_per_op", 100, 1, 160, 1);
	verdict_add(&v, "r50.per_process_ops", 100, 1, 50, 1);
	KUNIT_EXPECT_EQ(test, v.nr[VERDICT_BEHIND], 3U);
	KUNIT_EXPECT_STREQ(test, v.behind[0].name, "r50.per_process_ops");
	KUNIT_EXPECT_STREQ(test, v.behind[1].name, "t60.ns_per_op");
	KUNIT_EXPECT_STREQ(test, v.behind[2].name, "r20.per_thread_ops");
	verdict_free(&v);
}

static void verdict_labels(struct kunit *test)
{
	char buf[64];

	KUNIT_EXPECT_STREQ(test, verdict_label(buf, sizeof(buf), "rbtree"),
			   "the rbtree design");
	KUNIT_EXPECT_STREQ(test, verdict_label(buf, sizeof(buf), "upstream"),
			   "Linux 6.1");
	KUNIT_EXPECT_STREQ(test,
			   verdict_label(buf, sizeof(buf), "upstream-6.1"),
			   "Linux 6.1");
	KUNIT_EXPECT_STREQ(test,
			   verdict_label(buf, sizeof(buf), "upstream-6.12"),
			   "Linux 6.12");
	KUNIT_EXPECT_STREQ(test, verdict_label(buf, sizeof(buf), "base"),
			   "the base run");
	KUNIT_EXPECT_STREQ(test, verdict_label(buf, sizeof(buf), "upstream-"),
			   "upstream-");
	KUNIT_EXPECT_STREQ(test, verdict_label(buf, sizeof(buf), "mine"),
			   "mine");
}

/* What @print writes for @v, in a buffer the caller frees. */
static char *verdict_text(const struct verdict *v, bool json)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	if (json)
		verdict_json(f, v, "    ");
	else
		verdict_print(f, v, "mm/");
	fclose(f);
	return text;
}

static void verdict_text_and_json(struct kunit *test)
{
	struct verdict v;
	char *text;

	verdict_init(&v, "upstream-6.12");
	verdict_fill(&v);
	text = verdict_text(&v, false);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_STREQ(test, text,
		"\nmm/, maple against Linux 6.12: 2 ahead, 2 level, 3 behind\n"
		"  behind   -15.9% (spread ± 9.0%)  c.per_thread_ops\n"
		"  behind   +10.0% (spread ± 1.0%)  b.ns_per_op\n"
		"  behind    +2.1% (spread ± 0.0%)  g.nodes_per_1000_ranges\n");
	free(text);
	verdict_free(&v);

	verdict_init(&v, "rbtree");
	verdict_add(&v, "b.ns_per_op", 10, 1, 11, 1);
	verdict_add(&v, "f.ns_per_op", 4, 0, 3, 0);
	text = verdict_text(&v, true);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_STREQ(test, text,
		"    \"rbtree\": {\n"
		"      \"label\": \"the rbtree design\",\n"
		"      \"ahead\": 1,\n"
		"      \"level\": 0,\n"
		"      \"behind\": 1,\n"
		"      \"behind_pct\": {\n"
		"        \"b.ns_per_op\": 10.00\n"
		"      }\n"
		"    }");
	free(text);
	verdict_free(&v);

	/* Nothing behind: an empty object. */
	verdict_init(&v, "upstream");
	verdict_add(&v, "f.ns_per_op", 4, 0, 3, 0);
	text = verdict_text(&v, true);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_TRUE(test, strstr(text, "\"behind_pct\": {}\n") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(text, "\"label\": \"Linux 6.1\"") !=
			  NULL);
	free(text);
	verdict_free(&v);
}

/* make bench's file: both programs append, the legend comes once. */
static void verdict_file_has_one_legend(struct kunit *test)
{
	char path[] = "/tmp/verdict_test.XXXXXX", text[2048];
	const char *legend = "Verdict, row by row";
	struct verdict v;
	size_t len;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	KUNIT_ASSERT_GE(test, fd, 0);
	close(fd);
	setenv("BENCH_VERDICT", path, 1);
	verdict_init(&v, "upstream-6.1");
	verdict_add(&v, "f.ns_per_op", 4, 0, 3, 0);
	f = verdict_open();
	verdict_print(f, &v, "tree");
	verdict_close(f);
	f = verdict_open();
	verdict_print(f, &v, "mm/");
	verdict_close(f);
	unsetenv("BENCH_VERDICT");
	verdict_free(&v);

	f = fopen(path, "r");
	KUNIT_ASSERT_NOT_NULL(test, f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	unlink(path);
	text[len] = '\0';
	KUNIT_EXPECT_TRUE(test, strstr(text, legend) == text + 1);
	KUNIT_EXPECT_NULL(test, strstr(text + 1 + strlen(legend), legend));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text,
		"\ntree, maple against Linux 6.1: 1 ahead, 0 level, 0 behind\n"
		"\nmm/, maple against Linux 6.1: 1 ahead, 0 level, 0 behind\n"));
}

static struct kunit_case verdict_cases[] = {
	KUNIT_CASE(verdict_direction_by_name),
	KUNIT_CASE(verdict_change_is_that_of_the_medians),
	KUNIT_CASE(verdict_spread_is_the_larger),
	KUNIT_CASE(verdict_classify_by_direction_and_spread),
	KUNIT_CASE(verdict_counts_and_rows_behind),
	KUNIT_CASE(verdict_labels),
	KUNIT_CASE(verdict_text_and_json),
	KUNIT_CASE(verdict_file_has_one_legend),
	{}
};

static struct kunit_suite verdict_suite = {
	.name = "bench_verdict",
	.test_cases = verdict_cases,
};

kunit_test_suite(verdict_suite);
