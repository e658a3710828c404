// SPDX-License-Identifier: GPL-2.0
/*
 * Runs lib/test_maple_tree_api.c, the test module, as one userspace case: its
 * module_init() must return 0, and its MT_BUG_ON() counters must show that
 * it checked something and that every check passed.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/maple_tree.h>
#include <linux/module.h>

static void test_module_init_passes_every_check(struct kunit *test)
{
	unsigned int run0 = atomic_read(&maple_tree_tests_run);
	unsigned int passed0 = atomic_read(&maple_tree_tests_passed);
	unsigned int run, passed;

	KUNIT_EXPECT_EQ(test, module_call_init("test_maple_tree_api"), 0);
	run = atomic_read(&maple_tree_tests_run) - run0;
	passed = atomic_read(&maple_tree_tests_passed) - passed0;
	KUNIT_EXPECT_GT(test, run, 100U);
	KUNIT_EXPECT_EQ(test, passed, run);
	KUNIT_EXPECT_EQ(test, module_call_exit("test_maple_tree_api"), 0);
}

static struct kunit_case maple_module_cases[] = {
	KUNIT_CASE(test_module_init_passes_every_check),
	{}
};

static struct kunit_suite maple_module_suite = {
	.name = "maple_test_module",
	.test_cases = maple_module_cases,
};
kunit_test_suite(maple_module_suite);
