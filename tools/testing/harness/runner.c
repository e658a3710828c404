// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace KUnit runner: main() of every test binary.
 *
 * It runs every registered suite, in registration order, and prints KTAP
 * version 1 with one nested subtest per suite.  Each case runs in a forked
 * child, so a crash or a hang fails that case only; the parent never
 * touches liburcu or the allocator, which keeps fork() safe.  In the child:
 *
 *   suite_init, then per case (or per parameter) init, the case, exit and
 *   the release of managed resources, then suite_exit; then the leak check
 *   (kmem_leak_check(): objects still allocated fail the case) and the
 *   warning check (a WARN*() fails the case unless it allowed warnings).
 *
 * The child sends its result down a pipe; the parent prints the "ok" line.
 * The warnings a case expects (ktest_allow_warnings()), and the stack
 * traces printed meanwhile, go to a file of the case's own; the parent
 * prints them as comment lines before the "not ok" line if the case fails,
 * before the "ok" line under V=1, and not otherwise.
 * The last line printed is "N passed, M failed" (", K skipped" if K > 0),
 * counting cases, and the exit status is 1 if any case failed.  A filter
 * that matches no case is a mistake, not an empty pass: the runner names
 * it on stderr and exits 2 (after the summary line, for both.sh).
 *
 * Environment:
 *   KTEST_FILTER=glob[.glob][,...]  run only matching suites (and cases)
 *   KTEST_NOFORK=1                  run cases in this process (for gdb)
 *   KTEST_TIMEOUT=seconds           per-case time limit (default 600)
 *   KTEST_CORE=1                    allow core dumps from crashed cases
 *   V=1 or KTEST_VERBOSE=1          show expected warnings of passing cases
 *   SEED=n                          seed for ktest_seed() and the PRNG
 * Arguments, if any, are filters too; --list prints suite.case names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kunit/test.h>
#include <linux/bug.h>
#include <linux/lockdep.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "internal.h"
#include "ktest.h"

#define MAX_FILTERS	32

/* What a case's child reports to the parent. */
struct case_result {
	int status;			/* enum kunit_status */
	char reason[480];
};

/* The kernel calls this at boot; userspace does it once per process. */
extern void maple_tree_init(void) __attribute__((__weak__));

static const char *filters[MAX_FILTERS];
static unsigned int nr_filters;
static bool opt_nofork;
static bool opt_verbose;
static long opt_timeout = 600;
static bool booted;

static bool glob_match(const char *pattern, size_t len, const char *name)
{
	char pat[256];

	if (len >= sizeof(pat))
		len = sizeof(pat) - 1;
	memcpy(pat, pattern, len);
	pat[len] = '\0';
	return fnmatch(pat, name, 0) == 0;
}

/* Is suite.case selected?  @kase NULL asks about the suite as a whole. */
static bool selected(const char *suite, const char *kase)
{
	unsigned int i;

	if (!nr_filters)
		return true;
	for (i = 0; i < nr_filters; i++) {
		const char *f = filters[i];
		const char *dot = strchr(f, '.');

		if (!dot) {
			if (glob_match(f, strlen(f), suite))
				return true;
			continue;
		}
		if (!glob_match(f, dot - f, suite))
			continue;
		if (!kase || glob_match(dot + 1, strlen(dot + 1), kase))
			return true;
	}
	return false;
}

static void add_filters(char *list)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*tok && nr_filters < MAX_FILTERS)
			filters[nr_filters++] = tok;
	}
}

static unsigned int count_cases(struct kunit_suite *suite)
{
	struct kunit_case *kc;
	unsigned int n = 0;

	for (kc = suite->test_cases; kc && kc->run_case; kc++)
		if (selected(suite->name, kc->name))
			n++;
	return n;
}

#define for_each_suite(set, i, suite)					\
	for (set = ktest_suite_sets; set; set = set->next)		\
		for (i = 0; i < set->nr && ((suite) = set->suites[i]); i++)

/*
 * Run init, the case and exit for one struct kunit.  A failed assertion
 * longjmps back here; exit still runs.
 */
static void run_one(struct kunit_suite *suite, struct kunit_case *kc,
		    struct kunit *test)
{
	jmp_buf jb;
	volatile bool init_ok = true;

	test->name = kc->name;
	test->owner = __lockdep_self();
	test->jmp = &jb;
	ktest_set_current(test);

	if (setjmp(jb) == 0) {
		if (suite->init) {
			int ret = suite->init(test);

			if (ret) {
				ktest_fail(test, "init failed: %d", ret);
				init_ok = false;
			}
		}
		if (init_ok)
			kc->run_case(test);
	}
	if (init_ok && suite->exit && setjmp(jb) == 0)
		suite->exit(test);
	ktest_release_resources(test);
	test->jmp = NULL;
	ktest_set_current(NULL);
}

/* Run every parameter of a parameterised case as a nested subtest. */
static void run_params(struct kunit_suite *suite, struct kunit_case *kc,
		       struct kunit *total)
{
	const void *param = NULL;
	char desc[KUNIT_PARAM_DESC_SIZE];
	unsigned int n = 0, failed = 0, skipped = 0;

	printf("        KTAP version 1\n        # Subtest: %s\n", kc->name);
	for (;;) {
		struct kunit test = { 0 };

		desc[0] = '\0';
		param = kc->generate_params(param, desc);
		if (!param)
			break;
		n++;
		if (!desc[0])
			snprintf(desc, sizeof(desc), "param-%u", n - 1);
		test.param_value = param;
		test.param_index = n - 1;
		ktest_indent = "        ";
		printk_set_prefix("        # ");
		run_one(suite, kc, &test);
		ktest_indent = "    ";
		printk_set_prefix("    # ");
		if (test.allow_warnings)
			total->allow_warnings = true;
		if (test.status == KUNIT_FAILURE) {
			failed++;
			printf("        not ok %u %s # %s\n", n, desc,
			       test.fail_reason);
		} else if (test.status == KUNIT_SKIPPED) {
			skipped++;
			printf("        ok %u %s # SKIP %s\n", n, desc,
			       test.status_comment);
		} else {
			printf("        ok %u %s\n", n, desc);
		}
	}
	printf("        1..%u\n", n);
	if (failed) {
		total->status = KUNIT_FAILURE;
		snprintf(total->fail_reason, sizeof(total->fail_reason),
			 "%u of %u parameters failed", failed, n);
	} else if (n && skipped == n) {
		total->status = KUNIT_SKIPPED;
		snprintf(total->status_comment, sizeof(total->status_comment),
			 "all parameters skipped");
	}
}

/*
 * Run one case in the current process and fill in @res.  Expected warnings
 * go to @log_fd (-1: to stdout, as comment lines).
 */
static void run_case(struct kunit_suite *suite, struct kunit_case *kc,
		     struct case_result *res, int log_fd)
{
	struct kunit test = { 0 };
	long live, warns, leaked;

	ktest_case_begin(suite->name, kc->name);
	printk_set_prefix("    # ");
	if (maple_tree_init && !booted) {
		maple_tree_init();
		booted = true;
	}
	live = kmem_nr_live();
	kernel_warn_set_expected(false);
	kernel_warn_set_log(log_fd);
	warns = kernel_warn_count();
	test.name = kc->name;

	if (suite->suite_init) {
		int ret = suite->suite_init(suite);

		if (ret) {
			ktest_fail(&test, "suite_init failed: %d", ret);
			goto report;
		}
	}
	if (kc->generate_params)
		run_params(suite, kc, &test);
	else
		run_one(suite, kc, &test);
	if (suite->suite_exit)
		suite->suite_exit(suite);

	/* A case may leave fault injection armed; it must not leak out. */
	kmem_fault_reset();
	leaked = kmem_leak_check() - live;
	if (leaked)
		ktest_fail(&test, "leaked %ld object%s", leaked,
			   leaked == 1 ? "" : "s");
	warns = kernel_warn_count() - warns;
	if (warns && !test.allow_warnings)
		ktest_fail(&test, "%ld WARNING%s triggered (see stderr)", warns,
			   warns == 1 ? "" : "s");
report:
	kernel_warn_set_expected(false);
	kernel_warn_set_log(-1);
	printk_set_prefix(NULL);
	fflush(stdout);
	res->status = test.status;
	snprintf(res->reason, sizeof(res->reason), "%s",
		 test.status == KUNIT_SKIPPED ? test.status_comment :
		 test.status == KUNIT_FAILURE ? test.fail_reason : "");
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void set_result(struct case_result *res, int status, const char *fmt,
		       ...) __attribute__((__format__(printf, 3, 4)));
static void set_result(struct case_result *res, int status, const char *fmt,
		       ...)
{
	va_list ap;

	res->status = status;
	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
}

/* Run one case in a child process, within the time limit. */
static void run_case_forked(struct kunit_suite *suite, struct kunit_case *kc,
			    struct case_result *res, int log_fd)
{
	long deadline = now_ms() + opt_timeout * 1000;
	size_t got = 0;
	int fds[2], status;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		set_result(res, KUNIT_FAILURE, "pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		set_result(res, KUNIT_FAILURE, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		if (!getenv("KTEST_CORE")) {
			struct rlimit none = { 0, 0 };

			setrlimit(RLIMIT_CORE, &none);
		}
		close(fds[0]);
		run_case(suite, kc, res, log_fd);
		fflush(stdout);
		fflush(stderr);
		if (write(fds[1], res, sizeof(*res)) != sizeof(*res))
			_exit(3);
		_exit(0);
	}

	close(fds[1]);
	while (got < sizeof(*res)) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		long left = deadline - now_ms();
		ssize_t n;
		int ret;

		if (left <= 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(fds[0]);
			set_result(res, KUNIT_FAILURE, "timeout (%ld s)",
				   opt_timeout);
			return;
		}
		ret = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (ret <= 0)
			continue;
		n = read(fds[0], (char *)res + got, sizeof(*res) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;

	if (WIFSIGNALED(status))
		set_result(res, KUNIT_FAILURE, "crashed: signal %d (%s)",
			   WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		set_result(res, KUNIT_FAILURE, "crashed: exit status %d",
			   WEXITSTATUS(status));
	else if (got < sizeof(*res))
		set_result(res, KUNIT_FAILURE, "crashed: exited early");
}

/* Print the lines of @log as comment lines of case @name. */
static void print_log(FILE *out, const char *name, FILE *log)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool first = true;

	rewind(log);
	while ((len = getline(&line, &cap, log)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (first)
			fprintf(out, "    # %s: expected warnings:\n", name);
		first = false;
		fprintf(out, "    # %s\n", line);
	}
	free(line);
}

/*
 * Run case number @case_no of @suite and print its result line to @out,
 * after its expected warnings if it failed or under V=1.
 * Return: The case's status.
 */
static int run_and_report(FILE *out, struct kunit_suite *suite,
			  struct kunit_case *kc, unsigned int case_no)
{
	struct case_result res = { 0 };
	FILE *log = tmpfile();
	int log_fd = log ? fileno(log) : -1;

	if (opt_nofork)
		run_case(suite, kc, &res, log_fd);
	else
		run_case_forked(suite, kc, &res, log_fd);

	if (log && (opt_verbose || res.status == KUNIT_FAILURE))
		print_log(out, kc->name, log);
	if (log)
		fclose(log);
	if (res.status == KUNIT_FAILURE)
		fprintf(out, "    not ok %u %s # %s\n", case_no, kc->name,
			res.reason);
	else if (res.status == KUNIT_SKIPPED)
		fprintf(out, "    ok %u %s # SKIP %s\n", case_no, kc->name,
			res.reason);
	else
		fprintf(out, "    ok %u %s\n", case_no, kc->name);
	fflush(out);
	return res.status;
}

static bool env_true(const char *name)
{
	const char *env = getenv(name);

	return env && *env && strcmp(env, "0");
}

static void register_own_suite(void);

static void usage(const char *prog)
{
	printf("usage: %s [--list] [suite[.case] glob ...]\n"
	       "environment: KTEST_FILTER KTEST_NOFORK KTEST_TIMEOUT KTEST_CORE SEED\n",
	       prog);
}

int main(int argc, char **argv)
{
	struct kunit_suite_set *set;
	struct kunit_suite *suite;
	unsigned int i, nr_suites = 0, suite_no = 0;
	unsigned int passed = 0, failed = 0, skipped = 0;
	bool list = false;
	char *env;
	int a;

	setvbuf(stdout, NULL, _IOLBF, 0);
	env = getenv("KTEST_FILTER");
	if (env && *env)
		add_filters(strdup(env));
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--list")) {
			list = true;
		} else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(argv[0]);
			return 0;
		} else {
			add_filters(argv[a]);
		}
	}
	env = getenv("KTEST_NOFORK");
	opt_nofork = env && *env && *env != '0';
	opt_verbose = env_true("KTEST_VERBOSE") ||
		      ((env = getenv("V")) && !strcmp(env, "1"));
	ktest_fork_mode = !opt_nofork;
	env = getenv("KTEST_TIMEOUT");
	if (env && atol(env) > 0)
		opt_timeout = atol(env);

	register_own_suite();
	if (list) {
		for_each_suite(set, i, suite) {
			struct kunit_case *kc;

			for (kc = suite->test_cases; kc && kc->run_case; kc++)
				if (selected(suite->name, kc->name))
					printf("%s.%s\n", suite->name, kc->name);
		}
		return 0;
	}

	for_each_suite(set, i, suite)
		if (count_cases(suite))
			nr_suites++;

	printf("KTAP version 1\n1..%u\n", nr_suites);

	for_each_suite(set, i, suite) {
		unsigned int nr_cases = count_cases(suite), case_no = 0;
		unsigned int s_pass = 0, s_fail = 0, s_skip = 0;
		struct kunit_case *kc;

		if (!nr_cases)
			continue;
		suite_no++;
		printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n",
		       suite->name, nr_cases);
		for (kc = suite->test_cases; kc->run_case; kc++) {
			if (!selected(suite->name, kc->name))
				continue;
			switch (run_and_report(stdout, suite, kc, ++case_no)) {
			case KUNIT_FAILURE:
				s_fail++;
				break;
			case KUNIT_SKIPPED:
				s_skip++;
				break;
			default:
				s_pass++;
			}
		}
		printf("    # %s: pass:%u fail:%u skip:%u total:%u\n",
		       suite->name, s_pass, s_fail, s_skip, nr_cases);
		if (s_fail)
			printf("not ok %u %s\n", suite_no, suite->name);
		else if (s_skip == nr_cases)
			printf("ok %u %s # SKIP\n", suite_no, suite->name);
		else
			printf("ok %u %s\n", suite_no, suite->name);
		passed += s_pass;
		failed += s_fail;
		skipped += s_skip;
	}

	printf("# Totals: pass:%u fail:%u skip:%u total:%u\n",
	       passed, failed, skipped, passed + failed + skipped);
	if (skipped)
		printf("%u passed, %u failed, %u skipped\n", passed, failed,
		       skipped);
	else
		printf("%u passed, %u failed\n", passed, failed);
	fflush(stdout);
	if (!nr_suites && nr_filters) {
		fprintf(stderr, "%s: no test case matches the filter:", argv[0]);
		for (i = 0; i < nr_filters; i++)
			fprintf(stderr, " '%s'", filters[i]);
		fprintf(stderr, " (--list names them)\n");
		return 2;
	}
	return failed ? 1 : 0;
}

/* ---- the runner's own suite (in maple-test, not in runner-selftest) ---- */

/* Not a tail call to dump_stack(): this frame stays on the stack. */
static noinline void sample_trace_marker(void)
{
	dump_stack();
	barrier();
}

static void sample_warns(struct kunit *test)
{
	ktest_allow_warnings(test);
	WARN(1, "sample warning %d", 42);
	sample_trace_marker();
}

static void sample_warns_and_passes(struct kunit *test)
{
	sample_warns(test);
}

static void sample_warns_and_fails(struct kunit *test)
{
	sample_warns(test);
	KUNIT_FAIL(test, "failing on purpose");
}

static struct kunit_case sample_cases[] = {
	KUNIT_CASE(sample_warns_and_passes),
	KUNIT_CASE(sample_warns_and_fails),
	{}
};

/* Never registered: the cases below run its cases one by one. */
static struct kunit_suite sample_suite = {
	.name = "ktest_runner_sample",
	.test_cases = sample_cases,
};

static void free_action(void *p)
{
	free(p);
}

/*
 * Run sample case @kc as the runner's main loop does, verbose or not, and
 * return what it printed for the case.
 */
static char *run_sample(struct kunit *test, struct kunit_case *kc,
			bool verbose, int *status)
{
	bool was_verbose = opt_verbose;
	int saved_stdout, null;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	/* In this process, the sample's warnings would be this case's. */
	if (!ktest_forked())
		kunit_skip(test, "the sample case needs a process of its own");
	out = open_memstream(&text, &len);
	KUNIT_ASSERT_NOT_NULL(test, out);
	/* What the sample prints itself (its failure) is not ours to show. */
	fflush(stdout);
	saved_stdout = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	KUNIT_ASSERT_GE(test, saved_stdout, 0);
	KUNIT_ASSERT_GE(test, null, 0);
	dup2(null, STDOUT_FILENO);
	close(null);
	opt_verbose = verbose;
	*status = run_and_report(out, &sample_suite, kc, 1);
	opt_verbose = was_verbose;
	fflush(stdout);
	dup2(saved_stdout, STDOUT_FILENO);
	close(saved_stdout);
	fclose(out);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_action,
							text), 0);
	return text;
}

static void expected_warnings_hidden_when_case_passes(struct kunit *test)
{
	int status;
	char *out = run_sample(test, &sample_cases[0], false, &status);

	KUNIT_EXPECT_EQ(test, status, KUNIT_SUCCESS);
	KUNIT_EXPECT_STREQ(test, out, "    ok 1 sample_warns_and_passes\n");
}

static void expected_warnings_shown_when_case_fails(struct kunit *test)
{
	int status;
	char *out = run_sample(test, &sample_cases[1], false, &status);
	char *warning, *trace, *result;

	KUNIT_EXPECT_EQ(test, status, KUNIT_FAILURE);
	warning = strstr(out,
		"    # sample_warns_and_fails: expected warnings:\n"
		"    # WARNING (expected): at tools/testing/harness/runner.c:");
	trace = strstr(out, "(): sample warning 42\n    # Call trace:\n");
	result = strstr(out, "    not ok 1 sample_warns_and_fails # ");
	KUNIT_ASSERT_NOT_NULL(test, warning);
	KUNIT_ASSERT_NOT_NULL(test, trace);
	KUNIT_ASSERT_NOT_NULL(test, result);
	/* The warnings come first, then the result line, which ends it. */
	KUNIT_EXPECT_TRUE(test, warning < trace && trace < result);
	KUNIT_EXPECT_NULL(test, strchr(strchr(result, '\n') + 1, '\n'));
}

static void expected_warnings_shown_when_verbose(struct kunit *test)
{
	int status;
	char *out = run_sample(test, &sample_cases[0], true, &status);
	char *result;

	KUNIT_EXPECT_EQ(test, status, KUNIT_SUCCESS);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"    # sample_warns_and_passes: expected warnings:\n"
		"    # WARNING (expected): at tools/testing/harness/runner.c:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out, "    # Call trace:\n"));
	result = strstr(out, "    ok 1 sample_warns_and_passes\n");
	KUNIT_ASSERT_NOT_NULL(test, result);
	KUNIT_EXPECT_STREQ(test, result, "    ok 1 sample_warns_and_passes\n");
}

/* Static functions have no dynamic symbol: only addr2line can name them. */
static void call_trace_names_static_functions(struct kunit *test)
{
	int status;
	char *out;

	if (system("command -v addr2line >/dev/null 2>&1"))
		kunit_skip(test, "no addr2line (binutils) to name frames");
	out = run_sample(test, &sample_cases[1], false, &status);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"\n    #  dump_stack (tools/lib/printk.c:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"\n    #  sample_trace_marker (tools/testing/harness/runner.c:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out,
		"\n    #  sample_warns_and_fails (tools/testing/harness/runner.c:"));
}

static struct kunit_case own_cases[] = {
	KUNIT_CASE(expected_warnings_hidden_when_case_passes),
	KUNIT_CASE(expected_warnings_shown_when_case_fails),
	KUNIT_CASE(expected_warnings_shown_when_verbose),
	KUNIT_CASE(call_trace_names_static_functions),
	{}
};

static struct kunit_suite own_suite = {
	.name = "ktest_runner",
	.test_cases = own_cases,
};

static struct kunit_suite * const own_suites[] = { &own_suite };
static struct kunit_suite_set own_set = {
	.suites = own_suites,
	.nr = 1,
};

/*
 * After every other suite, unless this is runner-selftest: its output is
 * checked line by line (shim_test.c).
 */
static void register_own_suite(void)
{
	if (!&ktest_runner_selftest)
		__kunit_register_suites(&own_set);
}
