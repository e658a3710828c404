/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the runner and its KUnit implementation. */
#ifndef _KTEST_INTERNAL_H
#define _KTEST_INTERNAL_H

#include <kunit/test.h>

/* All registered suite sets, in registration order. */
extern struct kunit_suite_set *ktest_suite_sets;

/* Indentation of the current case's lines ("    " or deeper for params). */
extern const char *ktest_indent;

/* Set by the runner: false under KTEST_NOFORK=1. */
extern bool ktest_fork_mode;

/* Reset per-case state (seed) and reseed the kernel PRNG. */
void ktest_case_begin(const char *suite, const char *name);

/* Make @test the current case of this process (NULL: none). */
void ktest_set_current(struct kunit *test);

/* Record a failure that is not a KUNIT_* check, printing it as a comment. */
void ktest_fail(struct kunit *test, const char *fmt, ...)
	__attribute__((__format__(printf, 2, 3)));

/* Print a KTAP comment line at the current indentation. */
void ktest_comment(const char *fmt, ...)
	__attribute__((__format__(printf, 1, 2)));

/*
 * Defined by runner-selftest only, whose output is checked line by line:
 * the runner then leaves its own suite ("ktest_runner") out.
 */
extern const int ktest_runner_selftest __weak;

/* Run and forget the case's pending actions (kunit_kmalloc() etc.). */
void ktest_release_resources(struct kunit *test);

#endif /* _KTEST_INTERNAL_H */
