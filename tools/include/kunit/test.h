/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <kunit/test.h>.
 *
 * Test files are written exactly as for the kernel's KUnit: suites of
 * cases registered with kunit_test_suite(), checks with KUNIT_EXPECT_*()
 * and KUNIT_ASSERT_*().  The same file builds in a kernel.  Here the suites
 * are run by the userspace runner (tools/testing/harness/runner.c), which
 * prints KTAP; see Documentation/dev-tools/testing.rst.
 *
 * Differences from the kernel worth knowing:
 *  - each case runs in its own forked process (unless KTEST_NOFORK=1), so a
 *    crash fails only that case;
 *  - after a case (and its exit function) the runner checks that no object
 *    allocated through <linux/slab.h> was leaked, and that no WARN*() fired;
 *  - a failed KUNIT_ASSERT_*() in a thread other than the one running the
 *    case ends that thread (pthread_exit()) after recording the failure.
 */
#ifndef _TOOLS_KUNIT_TEST_H
#define _TOOLS_KUNIT_TEST_H

#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/types.h>

#define KUNIT_PARAM_DESC_SIZE	128

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit_resource;

/**
 * struct kunit - State of the test case being run.
 * @priv: For the test's own use (typically set by the suite's init).
 * @name: Name of the case.
 * @param_value: Current parameter of a parameterised case, else NULL.
 * @param_index: Index of that parameter, from 0.
 *
 * The members after these belong to the harness.
 */
struct kunit {
	void *priv;
	const char *name;
	const void *param_value;
	int param_index;

	/* private: */
	int status;				/* enum kunit_status */
	char status_comment[256];		/* reason for SKIP */
	char fail_reason[256];			/* first failure, for "not ok" */
	void *jmp;				/* jmp_buf of the running case */
	void *owner;				/* thread running the case */
	struct kunit_resource *resources;	/* released after exit() */
	bool allow_warnings;
};

/**
 * struct kunit_case - One test case.
 * @run_case: The test function.
 * @name: Its name, as printed.
 * @generate_params: For parameterised cases: given the previous parameter
 *	(NULL at first) and a description buffer of KUNIT_PARAM_DESC_SIZE
 *	bytes, return the next parameter, or NULL when done.
 */
struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	int slow;
};

#define KUNIT_CASE(test_name)						\
	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_SLOW(test_name)					\
	{ .run_case = test_name, .name = #test_name, .slow = 1 }
#define KUNIT_CASE_PARAM(test_name, gen_params)				\
	{ .run_case = test_name, .name = #test_name,			\
	  .generate_params = gen_params }

/**
 * struct kunit_suite - A set of related cases.
 * @name: Suite name, as printed and as matched by KTEST_FILTER.
 * @suite_init: Run before the suite's cases (in every case's process).
 * @suite_exit: Run after them.
 * @init: Run before each case; a non-zero return fails the case.
 * @exit: Run after each case, even one that failed an assertion.
 * @test_cases: Array of cases, ended by an empty entry ({}).
 */
struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

/* Registration: one static node per kunit_test_suites() use. */
struct kunit_suite_set {
	struct kunit_suite * const *suites;
	unsigned int nr;
	struct kunit_suite_set *next;
};

void __kunit_register_suites(struct kunit_suite_set *set);

#define __KUNIT_CAT2(a, b)	a##b
#define __KUNIT_CAT(a, b)	__KUNIT_CAT2(a, b)

#define __kunit_test_suites(id, ...)					\
	static struct kunit_suite * const				\
	__KUNIT_CAT(__kunit_suites_, id)[] = { __VA_ARGS__ };		\
	static struct kunit_suite_set __KUNIT_CAT(__kunit_set_, id) = {	\
		.suites = __KUNIT_CAT(__kunit_suites_, id),		\
		.nr = ARRAY_SIZE(__KUNIT_CAT(__kunit_suites_, id)),	\
	};								\
	static void __attribute__((__constructor__))			\
	__KUNIT_CAT(__kunit_register_, id)(void)			\
	{								\
		__kunit_register_suites(&__KUNIT_CAT(__kunit_set_, id));	\
	}

/* Register suites (pointers) with the runner, in this order. */
#define kunit_test_suites(...)	__kunit_test_suites(__COUNTER__, __VA_ARGS__)
#define kunit_test_suite(suite)	kunit_test_suites(&suite)
#define kunit_test_init_section_suites(...) kunit_test_suites(__VA_ARGS__)

/* ---- parameterised cases ---- */

/*
 * Define name##_gen_params() walking @array; @get_desc(elem, desc) writes
 * each element's description, or is NULL (the index is used).
 */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)			\
	static const void *name##_gen_params(const void *prev, char *desc) \
	{								\
		__typeof__((array)[0]) *__next = prev ?			\
			((__typeof__(__next))prev) + 1 : (array);	\
		void (*__get_desc)(__typeof__(__next), char *) = get_desc; \
									\
		if (__next - (array) >= (long)ARRAY_SIZE(array))	\
			return NULL;					\
		if (__get_desc)						\
			__get_desc(__next, desc);			\
		else							\
			snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%ld",	\
				 (long)(__next - (array)));		\
		return __next;						\
	}

/* As KUNIT_ARRAY_PARAM, describing each element by its string @desc_member. */
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)		\
	static const void *name##_gen_params(const void *prev, char *desc) \
	{								\
		__typeof__((array)[0]) *__next = prev ?			\
			((__typeof__(__next))prev) + 1 : (array);	\
									\
		if (__next - (array) >= (long)ARRAY_SIZE(array))	\
			return NULL;					\
		strscpy(desc, __next->desc_member, KUNIT_PARAM_DESC_SIZE); \
		return __next;						\
	}

/* ---- reporting (used by the macros below) ---- */

enum kunit_assert_type {
	KUNIT_EXPECTATION,
	KUNIT_ASSERTION,
};

struct kunit_loc {
	const char *file;
	int line;
	enum kunit_assert_type type;
};

#define __KUNIT_LOC(type)						\
	(&(const struct kunit_loc){ __FILE__, __LINE__, type })

void __kunit_fail_int(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      bool lsigned, unsigned long long lval,
		      bool rsigned, unsigned long long rval,
		      const char *fmt, ...) __printf(10, 11) __cold;
void __kunit_fail_ptr(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      const void *lval, const void *rval,
		      const char *fmt, ...) __printf(8, 9) __cold;
void __kunit_fail_str(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      const char *lval, const char *rval,
		      const char *fmt, ...) __printf(8, 9) __cold;
void __kunit_fail_mem(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      const void *lval, const void *rval, size_t size,
		      const char *fmt, ...) __printf(9, 10) __cold;
void __kunit_fail_msg(struct kunit *test, const struct kunit_loc *loc,
		      const char *what, const char *fmt, ...)
		      __printf(4, 5) __cold;
void __noreturn __kunit_abort(struct kunit *test);

/* Signedness of an expression's type, for printing its value. */
#define __KUNIT_IS_SIGNED(x)	((__typeof__(x))-1L < (__typeof__(x))1L)

#define __KUNIT_END(test, type)						\
	do {								\
		if ((type) == KUNIT_ASSERTION)				\
			__kunit_abort(test);				\
	} while (0)

/*
 * Both sides are evaluated exactly once and compared with C's rules.  The
 * signed/unsigned comparison warning is silenced: comparing an unsigned
 * result with a plain integer constant is what tests do all day.
 */
#define __KUNIT_INT(test, type, left, op, right, fmt, ...)		\
do {									\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")		\
	__auto_type __ku_l = (left);					\
	__auto_type __ku_r = (right);					\
	if (unlikely(!(__ku_l op __ku_r))) {				\
		__kunit_fail_int(test, __KUNIT_LOC(type),		\
				 #left, #op, #right,			\
				 __KUNIT_IS_SIGNED(__ku_l),		\
				 (unsigned long long)__ku_l,		\
				 __KUNIT_IS_SIGNED(__ku_r),		\
				 (unsigned long long)__ku_r,		\
				 fmt, ##__VA_ARGS__);			\
		__KUNIT_END(test, type);				\
	}								\
	_Pragma("GCC diagnostic pop")					\
} while (0)

#define __KUNIT_PTR(test, type, left, op, right, fmt, ...)		\
do {									\
	__auto_type __ku_l = (left);					\
	__auto_type __ku_r = (right);					\
	if (unlikely(!(__ku_l op __ku_r))) {				\
		__kunit_fail_ptr(test, __KUNIT_LOC(type),		\
				 #left, #op, #right,			\
				 (const void *)__ku_l,			\
				 (const void *)__ku_r,			\
				 fmt, ##__VA_ARGS__);			\
		__KUNIT_END(test, type);				\
	}								\
} while (0)

#define __KUNIT_STR(test, type, left, op, right, fmt, ...)		\
do {									\
	const char *__ku_l = (left);					\
	const char *__ku_r = (right);					\
	int __ku_same = __ku_l && __ku_r ? !strcmp(__ku_l, __ku_r) :	\
					   __ku_l == __ku_r;		\
	if (unlikely(!(__ku_same op 1))) {				\
		__kunit_fail_str(test, __KUNIT_LOC(type),		\
				 #left, #op, #right, __ku_l, __ku_r,	\
				 fmt, ##__VA_ARGS__);			\
		__KUNIT_END(test, type);				\
	}								\
} while (0)

#define __KUNIT_MEM(test, type, left, op, right, size, fmt, ...)	\
do {									\
	const void *__ku_l = (left);					\
	const void *__ku_r = (right);					\
	size_t __ku_n = (size);						\
	int __ku_same = !memcmp(__ku_l, __ku_r, __ku_n);		\
	if (unlikely(!(__ku_same op 1))) {				\
		__kunit_fail_mem(test, __KUNIT_LOC(type),		\
				 #left, #op, #right, __ku_l, __ku_r,	\
				 __ku_n, fmt, ##__VA_ARGS__);		\
		__KUNIT_END(test, type);				\
	}								\
} while (0)

#define __KUNIT_BOOL(test, type, cond, expect, fmt, ...)		\
do {									\
	if (unlikely((bool)(cond) != (expect))) {			\
		__kunit_fail_msg(test, __KUNIT_LOC(type),		\
				 (expect) ?				\
				 "Expected " #cond " to be true, but is false" : \
				 "Expected " #cond " to be false, but is true", \
				 fmt, ##__VA_ARGS__);			\
		__KUNIT_END(test, type);				\
	}								\
} while (0)

#define __KUNIT_NULL(test, type, ptr, want_null, fmt, ...)		\
do {									\
	const void *__ku_p = (ptr);					\
	if (unlikely((__ku_p == NULL) != (want_null))) {		\
		__kunit_fail_ptr(test, __KUNIT_LOC(type),		\
				 #ptr, (want_null) ? "==" : "!=",	\
				 "NULL", __ku_p, NULL,			\
				 fmt, ##__VA_ARGS__);			\
		__KUNIT_END(test, type);				\
	}								\
} while (0)

#define __KUNIT_NOT_ERR_OR_NULL(test, type, ptr, fmt, ...)		\
do {									\
	const void *__ku_p = (ptr);					\
	if (unlikely(IS_ERR_OR_NULL(__ku_p))) {				\
		char __ku_what[160];					\
		if (__ku_p)						\
			snprintf(__ku_what, sizeof(__ku_what),		\
				 "Expected %s is not error, but is: %ld", \
				 #ptr, PTR_ERR(__ku_p));		\
		else							\
			snprintf(__ku_what, sizeof(__ku_what),		\
				 "Expected %s is not null, but is", #ptr); \
		__kunit_fail_msg(test, __KUNIT_LOC(type), __ku_what,	\
				 fmt, ##__VA_ARGS__);			\
		__KUNIT_END(test, type);				\
	}								\
} while (0)

/* ---- expectations: record a failure and carry on ---- */

#define KUNIT_SUCCEED(test)	do { (void)(test); } while (0)

/* Fail unconditionally, with a printf-style message. */
#define KUNIT_FAIL(test, fmt, ...)					\
	__kunit_fail_msg(test, __KUNIT_LOC(KUNIT_EXPECTATION), NULL,	\
			 fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE(test, cond)	KUNIT_EXPECT_TRUE_MSG(test, cond, NULL)
#define KUNIT_EXPECT_TRUE_MSG(test, cond, fmt, ...)			\
	__KUNIT_BOOL(test, KUNIT_EXPECTATION, cond, 1, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE(test, cond)	KUNIT_EXPECT_FALSE_MSG(test, cond, NULL)
#define KUNIT_EXPECT_FALSE_MSG(test, cond, fmt, ...)			\
	__KUNIT_BOOL(test, KUNIT_EXPECTATION, cond, 0, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ(test, l, r)	KUNIT_EXPECT_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_NE(test, l, r)	KUNIT_EXPECT_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LT(test, l, r)	KUNIT_EXPECT_LT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LE(test, l, r)	KUNIT_EXPECT_LE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GT(test, l, r)	KUNIT_EXPECT_GT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GE(test, l, r)	KUNIT_EXPECT_GE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_EXPECTATION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_EXPECTATION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_EXPECTATION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_EXPECTATION, l, >=, r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(test, l, r)	KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_NE(test, l, r)	KUNIT_EXPECT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_PTR(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_PTR(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_NULL(test, p)	KUNIT_EXPECT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_NULL(test, p)	KUNIT_EXPECT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NULL_MSG(test, p, fmt, ...)			\
	__KUNIT_NULL(test, KUNIT_EXPECTATION, p, 1, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, fmt, ...)			\
	__KUNIT_NULL(test, KUNIT_EXPECTATION, p, 0, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p)				\
	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...)		\
	__KUNIT_NOT_ERR_OR_NULL(test, KUNIT_EXPECTATION, p, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_STREQ(test, l, r)	KUNIT_EXPECT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_STRNEQ(test, l, r)	KUNIT_EXPECT_STRNEQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_STREQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_STR(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_STR(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_MEMEQ(test, l, r, n)				\
	KUNIT_EXPECT_MEMEQ_MSG(test, l, r, n, NULL)
#define KUNIT_EXPECT_MEMNEQ(test, l, r, n)				\
	KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, n, NULL)
#define KUNIT_EXPECT_MEMEQ_MSG(test, l, r, n, fmt, ...)			\
	__KUNIT_MEM(test, KUNIT_EXPECTATION, l, ==, r, n, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, n, fmt, ...)		\
	__KUNIT_MEM(test, KUNIT_EXPECTATION, l, !=, r, n, fmt, ##__VA_ARGS__)

/* ---- assertions: record a failure and end the case ---- */

/* Fail unconditionally and end the case. */
#define KUNIT_ASSERT_FAILURE(test, fmt, ...)				\
	do {								\
		__kunit_fail_msg(test, __KUNIT_LOC(KUNIT_ASSERTION),	\
				 NULL, fmt, ##__VA_ARGS__);		\
		__kunit_abort(test);					\
	} while (0)

#define KUNIT_ASSERT_TRUE(test, cond)	KUNIT_ASSERT_TRUE_MSG(test, cond, NULL)
#define KUNIT_ASSERT_TRUE_MSG(test, cond, fmt, ...)			\
	__KUNIT_BOOL(test, KUNIT_ASSERTION, cond, 1, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE(test, cond)	KUNIT_ASSERT_FALSE_MSG(test, cond, NULL)
#define KUNIT_ASSERT_FALSE_MSG(test, cond, fmt, ...)			\
	__KUNIT_BOOL(test, KUNIT_ASSERTION, cond, 0, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_EQ(test, l, r)	KUNIT_ASSERT_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_NE(test, l, r)	KUNIT_ASSERT_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LT(test, l, r)	KUNIT_ASSERT_LT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LE(test, l, r)	KUNIT_ASSERT_LE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GT(test, l, r)	KUNIT_ASSERT_GT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GE(test, l, r)	KUNIT_ASSERT_GE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_ASSERTION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_ASSERTION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_ASSERTION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_INT(test, KUNIT_ASSERTION, l, >=, r, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_PTR_EQ(test, l, r)	KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_NE(test, l, r)	KUNIT_ASSERT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_PTR(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(test, l, r, fmt, ...)			\
	__KUNIT_PTR(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_NULL(test, p)	KUNIT_ASSERT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_NULL(test, p)	KUNIT_ASSERT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NULL_MSG(test, p, fmt, ...)			\
	__KUNIT_NULL(test, KUNIT_ASSERTION, p, 1, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, fmt, ...)			\
	__KUNIT_NULL(test, KUNIT_ASSERTION, p, 0, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p)				\
	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...)		\
	__KUNIT_NOT_ERR_OR_NULL(test, KUNIT_ASSERTION, p, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_STREQ(test, l, r)	KUNIT_ASSERT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_STRNEQ(test, l, r)	KUNIT_ASSERT_STRNEQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_STREQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_STR(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(test, l, r, fmt, ...)			\
	__KUNIT_STR(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_MEMEQ(test, l, r, n)				\
	KUNIT_ASSERT_MEMEQ_MSG(test, l, r, n, NULL)
#define KUNIT_ASSERT_MEMEQ_MSG(test, l, r, n, fmt, ...)			\
	__KUNIT_MEM(test, KUNIT_ASSERTION, l, ==, r, n, fmt, ##__VA_ARGS__)

/* ---- skipping and logging ---- */

void __kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
	__printf(2, 3);

/* Mark the case skipped (with a reason) but let it run on. */
#define kunit_mark_skipped(test, fmt, ...)				\
	__kunit_mark_skipped(test, fmt, ##__VA_ARGS__)

/* Mark the case skipped (with a reason) and end it now. */
#define kunit_skip(test, fmt, ...)					\
	do {								\
		__kunit_mark_skipped(test, fmt, ##__VA_ARGS__);		\
		__kunit_abort(test);					\
	} while (0)

void __kunit_log(struct kunit *test, const char *fmt, ...) __printf(2, 3);

/* Print a KTAP comment line "# <case>: <message>" within the case. */
#define kunit_log(lvl, test, fmt, ...)	__kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_info(test, fmt, ...)	__kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	__kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	__kunit_log(test, fmt, ##__VA_ARGS__)

/**
 * kunit_get_current_test() - The case being run by this process.
 *
 * Return: Its struct kunit, or NULL outside a case.
 */
struct kunit *kunit_get_current_test(void);

/* ---- managed resources: released after the case's exit() ---- */

typedef void (kunit_action_t)(void *);

/**
 * kunit_add_action() - Call @action(@ctx) when the case ends.
 * @test: The case.
 * @action: The function; actions run in reverse order of adding.
 * @ctx: Its argument.
 *
 * Return: 0, or -ENOMEM.
 */
int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx);

/**
 * kunit_add_action_or_reset() - kunit_add_action(), or call @action(@ctx)
 * at once if that fails.
 * @test: The case.
 * @action: The function.
 * @ctx: Its argument.
 *
 * Return: 0, or -ENOMEM (after running @action).
 */
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx);

/**
 * kunit_release_action() - Run a pending action now and forget it.
 * @test: The case.
 * @action: The function given to kunit_add_action().
 * @ctx: Its argument.
 */
void kunit_release_action(struct kunit *test, kunit_action_t *action,
			  void *ctx);

/**
 * kunit_kmalloc() - kmalloc() memory that is kfree()d when the case ends.
 * @test: The case.
 * @size: Bytes.
 * @gfp: Allocation flags.
 *
 * Return: The memory, or NULL.
 */
void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp);

/**
 * kunit_kfree() - Free memory from kunit_kmalloc() early.
 * @test: The case.
 * @ptr: The memory, or NULL.
 */
void kunit_kfree(struct kunit *test, const void *ptr);

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

static inline void *kunit_kmalloc_array(struct kunit *test, size_t n,
					size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kunit_kmalloc(test, bytes, gfp);
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size,
				  gfp_t gfp)
{
	return kunit_kmalloc_array(test, n, size, gfp | __GFP_ZERO);
}

#endif /* _TOOLS_KUNIT_TEST_H */
