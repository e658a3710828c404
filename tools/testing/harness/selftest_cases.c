// SPDX-License-Identifier: GPL-2.0
/*
 * Cases for build/runner-selftest, a binary whose only job is to show the
 * runner handling each outcome: one case passes, one fails a check, one
 * crashes, one skips.  shim_test.c runs it and checks the output; its
 * summary line must be "1 passed, 2 failed, 1 skipped".
 *
 * With RUNNER_SELFTEST_HANG=1 in the environment a second suite is
 * registered whose one case never returns, to check KTEST_TIMEOUT.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <kunit/test.h>

#include "internal.h"

/* This binary runs only the cases below, not the runner's own suite. */
const int ktest_runner_selftest = 1;

static void selftest_passes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1 + 1, 2);
}

static void selftest_fails(struct kunit *test)
{
	int three = 3;

	KUNIT_EXPECT_EQ(test, 1 + 1, three);
}

static void selftest_crashes(struct kunit *test)
{
	(void)test;
	raise(SIGSEGV);
}

static void selftest_skips(struct kunit *test)
{
	kunit_skip(test, "skipped on purpose");
	KUNIT_FAIL(test, "not reached");
}

static struct kunit_case selftest_cases[] = {
	KUNIT_CASE(selftest_passes),
	KUNIT_CASE(selftest_fails),
	KUNIT_CASE(selftest_crashes),
	KUNIT_CASE(selftest_skips),
	{}
};

static struct kunit_suite selftest_suite = {
	.name = "runner_selftest",
	.test_cases = selftest_cases,
};

kunit_test_suite(selftest_suite);

static void selftest_hangs(struct kunit *test)
{
	(void)test;
	for (;;)
		pause();
}

static struct kunit_case hang_cases[] = {
	KUNIT_CASE(selftest_hangs),
	{}
};

static struct kunit_suite hang_suite = {
	.name = "runner_selftest_hang",
	.test_cases = hang_cases,
};

static struct kunit_suite * const hang_suites[] = { &hang_suite };
static struct kunit_suite_set hang_set = {
	.suites = hang_suites,
	.nr = 1,
};

static void __attribute__((__constructor__)) selftest_register_hang(void)
{
	const char *env = getenv("RUNNER_SELFTEST_HANG");

	if (env && *env == '1')
		__kunit_register_suites(&hang_set);
}
