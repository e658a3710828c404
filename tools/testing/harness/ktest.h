/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace-only additions to the KUnit API, for tests that never build in
 * a kernel (tools/testing/...).  Kernel-buildable tests (the lib/ KUnit files)
 * must stick to <kunit/test.h>.
 */
#ifndef _KTEST_H
#define _KTEST_H

#include <kunit/test.h>

/**
 * ktest_seed() - The seed for this case's random choices.
 *
 * The first call in a case picks the seed: the value of the environment
 * variable SEED if set, else one derived from the time and pid.  It prints
 * "# seed: N (replay with SEED=N)" and reseeds get_random_u32() and
 * friends with it.  Later calls in the same case return the same seed.
 *
 * Return: The seed.
 */
unsigned long ktest_seed(void);

/**
 * ktest_allow_warnings() - Let the current case pass despite WARN*() hits.
 * @test: The case.
 *
 * By default a case that triggers any WARN*() fails.  Call this in a case
 * that provokes warnings on purpose; its warnings are then printed as
 * comment lines of the case instead of on stderr.
 */
void ktest_allow_warnings(struct kunit *test);

/**
 * ktest_forked() - Does each case run in a process of its own?
 *
 * Return: false under KTEST_NOFORK=1.  Cases that crash or leak on purpose
 * should kunit_skip() when this is false.
 */
bool ktest_forked(void);

#endif /* _KTEST_H */
