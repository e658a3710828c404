// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit API of <kunit/test.h> for userspace: suite registration,
 * failure reports, skipping, logging, managed resources and seeds.
 * Running the suites is runner.c's job.
 *
 * Everything printed here is a KTAP comment line ("# ...") indented to the
 * level of the case being run, so the output stays valid KTAP.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kunit/test.h>
#include <linux/bug.h>
#include <linux/lockdep.h>
#include <linux/random.h>

#include "internal.h"
#include "ktest.h"

struct kunit_suite_set *ktest_suite_sets;
static struct kunit_suite_set **ktest_suite_tail = &ktest_suite_sets;

const char *ktest_indent = "    ";
bool ktest_fork_mode = true;

static struct kunit *ktest_current;
static pthread_mutex_t ktest_lock = PTHREAD_MUTEX_INITIALIZER;

/* Seed state of the current case. */
static bool seed_chosen;
static unsigned long seed_value;

struct kunit_resource {
	kunit_action_t *action;
	void *ctx;
	struct kunit_resource *next;
};

void __kunit_register_suites(struct kunit_suite_set *set)
{
	set->next = NULL;
	*ktest_suite_tail = set;
	ktest_suite_tail = &set->next;
}

struct kunit *kunit_get_current_test(void)
{
	return ktest_current;
}

void ktest_set_current(struct kunit *test)
{
	ktest_current = test;
}

/* Write @text, a sequence of lines, as comment lines under the case. */
static void ktest_emit_lines(const char *text)
{
	const char *line = text;

	flockfile(stdout);
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		fprintf(stdout, "%s# %.*s\n", ktest_indent, (int)n, line);
		line += n + (nl ? 1 : 0);
	}
	funlockfile(stdout);
	fflush(stdout);
}

void ktest_comment(const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) >= 0) {
		ktest_emit_lines(text);
		free(text);
	}
	va_end(ap);
}

/* Mark @test failed; the first reason is kept for the "not ok" line. */
static void ktest_set_failed(struct kunit *test, const char *reason)
{
	pthread_mutex_lock(&ktest_lock);
	__atomic_store_n(&test->status, KUNIT_FAILURE, __ATOMIC_RELAXED);
	if (!test->fail_reason[0])
		snprintf(test->fail_reason, sizeof(test->fail_reason), "%s",
			 reason);
	pthread_mutex_unlock(&ktest_lock);
}

void ktest_fail(struct kunit *test, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	ktest_set_failed(test, text ? text : "failed");
	if (text) {
		ktest_comment("%s: %s", test->name, text);
		free(text);
	}
}

/*
 * Print a failed check: the location, @body (the expectation and values,
 * one item per line) and the optional user message, then record it.
 */
static void ktest_report(struct kunit *test, const struct kunit_loc *loc,
			 const char *body, const char *fmt, va_list ap)
{
	const char *kind = loc->type == KUNIT_ASSERTION ?
			   "ASSERTION" : "EXPECTATION";
	char reason[256];
	char *msg = NULL;
	char *text;
	size_t len;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		abort();
	fprintf(f, "%s: %s FAILED at %s:%d\n", test->name, kind,
		loc->file, loc->line);
	if (body)
		fprintf(f, "%s\n", body);
	if (fmt && vasprintf(&msg, fmt, ap) >= 0) {
		fprintf(f, "%s\n", msg);
		free(msg);
	}
	fclose(f);
	ktest_emit_lines(text);
	free(text);

	snprintf(reason, sizeof(reason), "%s failed at %s:%d",
		 loc->type == KUNIT_ASSERTION ? "assertion" : "expectation",
		 loc->file, loc->line);
	ktest_set_failed(test, reason);
}

static void ktest_format_int(char *buf, size_t size, const char *expr,
			     bool is_signed, unsigned long long val)
{
	if (is_signed)
		snprintf(buf, size, "    %s == %lld (0x%llx)", expr,
			 (long long)val, val);
	else
		snprintf(buf, size, "    %s == %llu (0x%llx)", expr, val, val);
}

void __kunit_fail_int(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      bool lsigned, unsigned long long lval,
		      bool rsigned, unsigned long long rval,
		      const char *fmt, ...)
{
	char lbuf[512], rbuf[512], body[1200];
	va_list ap;

	ktest_format_int(lbuf, sizeof(lbuf), left, lsigned, lval);
	ktest_format_int(rbuf, sizeof(rbuf), right, rsigned, rval);
	snprintf(body, sizeof(body), "Expected %s %s %s, but\n%s\n%s",
		 left, op, right, lbuf, rbuf);
	va_start(ap, fmt);
	ktest_report(test, loc, body, fmt, ap);
	va_end(ap);
}

void __kunit_fail_ptr(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      const void *lval, const void *rval,
		      const char *fmt, ...)
{
	char body[1200];
	va_list ap;

	snprintf(body, sizeof(body),
		 "Expected %s %s %s, but\n    %s == %p\n    %s == %p",
		 left, op, right, left, lval, right, rval);
	va_start(ap, fmt);
	ktest_report(test, loc, body, fmt, ap);
	va_end(ap);
}

void __kunit_fail_str(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      const char *lval, const char *rval,
		      const char *fmt, ...)
{
	char *body;
	va_list ap;

	if (asprintf(&body,
		     "Expected %s %s %s, but\n    %s == %s%s%s\n    %s == %s%s%s",
		     left, op, right,
		     left, lval ? "\"" : "", lval ? lval : "NULL",
		     lval ? "\"" : "",
		     right, rval ? "\"" : "", rval ? rval : "NULL",
		     rval ? "\"" : "") < 0)
		body = NULL;
	va_start(ap, fmt);
	ktest_report(test, loc, body, fmt, ap);
	va_end(ap);
	free(body);
}

void __kunit_fail_mem(struct kunit *test, const struct kunit_loc *loc,
		      const char *left, const char *op, const char *right,
		      const void *lval, const void *rval, size_t size,
		      const char *fmt, ...)
{
	const unsigned char *l = lval, *r = rval;
	char body[1200];
	size_t i;
	va_list ap;

	for (i = 0; i < size && l[i] == r[i]; i++)
		;
	if (i < size)
		snprintf(body, sizeof(body),
			 "Expected %s %s %s (%zu bytes), but\n    first difference at byte %zu: %02x vs %02x",
			 left, op, right, size, i, l[i], r[i]);
	else
		snprintf(body, sizeof(body),
			 "Expected %s %s %s (%zu bytes), but\n    all bytes are equal",
			 left, op, right, size);
	va_start(ap, fmt);
	ktest_report(test, loc, body, fmt, ap);
	va_end(ap);
}

void __kunit_fail_msg(struct kunit *test, const struct kunit_loc *loc,
		      const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktest_report(test, loc, what, fmt, ap);
	va_end(ap);
}

void __kunit_abort(struct kunit *test)
{
	if (test && test->jmp && test->owner == __lockdep_self())
		longjmp(*(jmp_buf *)test->jmp, 1);
	if (test && test->jmp)
		pthread_exit(NULL);	/* a helper thread of the case */
	fflush(stdout);
	fprintf(stderr, "kunit: assertion failed outside a running test\n");
	abort();
}

void __kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&ktest_lock);
	if (__atomic_load_n(&test->status, __ATOMIC_RELAXED) != KUNIT_FAILURE)
		__atomic_store_n(&test->status, KUNIT_SKIPPED,
				 __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vsnprintf(test->status_comment, sizeof(test->status_comment), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&ktest_lock);
}

void __kunit_log(struct kunit *test, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) >= 0) {
		/* A trailing newline is conventional in kunit_info(). */
		size_t n = strlen(text);

		if (n && text[n - 1] == '\n')
			text[n - 1] = '\0';
		ktest_comment("%s: %s", test->name, text);
		free(text);
	}
	va_end(ap);
}

/* ---- managed resources ---- */

int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct kunit_resource *res = malloc(sizeof(*res));

	if (!res)
		return -ENOMEM;
	res->action = action;
	res->ctx = ctx;
	pthread_mutex_lock(&ktest_lock);
	res->next = test->resources;
	test->resources = res;
	pthread_mutex_unlock(&ktest_lock);
	return 0;
}

int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx)
{
	int ret = kunit_add_action(test, action, ctx);

	if (ret)
		action(ctx);
	return ret;
}

/* Unlink the newest matching resource; NULL if none. */
static struct kunit_resource *ktest_take_resource(struct kunit *test,
						  kunit_action_t *action,
						  void *ctx)
{
	struct kunit_resource **pp, *res = NULL;

	pthread_mutex_lock(&ktest_lock);
	for (pp = &test->resources; *pp; pp = &(*pp)->next) {
		if ((*pp)->action == action && (*pp)->ctx == ctx) {
			res = *pp;
			*pp = res->next;
			break;
		}
	}
	pthread_mutex_unlock(&ktest_lock);
	return res;
}

void kunit_release_action(struct kunit *test, kunit_action_t *action,
			  void *ctx)
{
	struct kunit_resource *res = ktest_take_resource(test, action, ctx);

	if (res) {
		res->action(res->ctx);
		free(res);
	}
}

void ktest_release_resources(struct kunit *test)
{
	struct kunit_resource *res;

	for (;;) {
		pthread_mutex_lock(&ktest_lock);
		res = test->resources;
		if (res)
			test->resources = res->next;
		pthread_mutex_unlock(&ktest_lock);
		if (!res)
			break;
		res->action(res->ctx);
		free(res);
	}
}

static void ktest_kfree_action(void *ptr)
{
	kfree(ptr);
}

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp);

	if (p && kunit_add_action(test, ktest_kfree_action, p)) {
		kfree(p);
		p = NULL;
	}
	return p;
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct kunit_resource *res;

	if (!ptr)
		return;
	res = ktest_take_resource(test, ktest_kfree_action, (void *)ptr);
	if (!res) {
		ktest_fail(test, "kunit_kfree(%p): not from kunit_kmalloc()",
			   ptr);
		return;
	}
	kfree(ptr);
	free(res);
}

/* ---- seeds and userspace-only helpers ---- */

void ktest_case_begin(const char *suite, const char *name)
{
	const char *env = getenv("SEED");
	unsigned long h = 5381;
	const char *p;

	seed_chosen = false;
	/*
	 * Until a case asks for a seed, the kernel PRNG starts from SEED if
	 * given, else from a hash of the case's name: runs are repeatable.
	 */
	if (env && *env) {
		h = strtoul(env, NULL, 0);
	} else {
		for (p = suite; *p; p++)
			h = h * 33 + (unsigned char)*p;
		for (p = name; *p; p++)
			h = h * 33 + (unsigned char)*p;
	}
	random_set_seed(h);
}

unsigned long ktest_seed(void)
{
	const char *env;

	pthread_mutex_lock(&ktest_lock);
	if (seed_chosen)
		goto out;
	env = getenv("SEED");
	if (env && *env) {
		seed_value = strtoul(env, NULL, 0);
	} else {
		struct timespec ts;
		u64 mix;

		clock_gettime(CLOCK_REALTIME, &ts);
		mix = (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		mix ^= (u64)getpid() << 32;
		seed_value = __prandom_next(&mix) >> 1;
	}
	seed_chosen = true;
	random_set_seed(seed_value);
	ktest_comment("seed: %lu (replay with SEED=%lu)", seed_value,
		      seed_value);
out:
	pthread_mutex_unlock(&ktest_lock);
	return seed_value;
}

void ktest_allow_warnings(struct kunit *test)
{
	test->allow_warnings = true;
	kernel_warn_set_expected(true);
}

bool ktest_forked(void)
{
	return ktest_fork_mode;
}
