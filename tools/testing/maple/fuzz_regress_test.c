// SPDX-License-Identifier: GPL-2.0+
/*
 * Replays every input in tools/testing/maple/fuzz-regressions/ through the
 * fuzz decoder (model_fuzz_run()), so inputs that once found a bug, and a
 * few hand-made ones, keep running on every `make check` without clang or
 * libFuzzer.
 *
 * The directory is FUZZ_REGRESS_DIR if the build defines it, otherwise the
 * "fuzz-regressions" directory next to this source file as __FILE__ names
 * it (relative to the directory the build ran in).
 */
#include <kunit/test.h>
#include <linux/maple_tree.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* Inputs larger than this are not what the fuzzer produces; refuse them. */
#define REGRESS_MAX_INPUT	(1 << 20)

static void regress_dir(char *buf, size_t len)
{
#ifdef FUZZ_REGRESS_DIR
	snprintf(buf, len, "%s", FUZZ_REGRESS_DIR);
#else
	const char *file = __FILE__;
	const char *slash = strrchr(file, '/');
	int dir_len = slash ? (int)(slash - file + 1) : 0;

	snprintf(buf, len, "%.*sfuzz-regressions", dir_len, file);
#endif
}

static bool regress_wanted(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	if (de->d_name[0] == '.')
		return false;
	/* Notes kept beside the inputs are not inputs. */
	if (n > 3 && !strcmp(de->d_name + n - 3, ".md"))
		return false;
	if (n > 4 && !strcmp(de->d_name + n - 4, ".txt"))
		return false;
	return true;
}

static int regress_filter(const struct dirent *de)
{
	return regress_wanted(de);
}

/* Read @path whole; returns a malloc()ed buffer or NULL. */
static unsigned char *regress_read(const char *path, size_t *size)
{
	unsigned char *buf;
	FILE *f = fopen(path, "rb");
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    len > REGRESS_MAX_INPUT || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc(len ? len : 1);
	if (buf && fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = len;
	return buf;
}

static void every_regression_input_replays_cleanly(struct kunit *test)
{
	char dir[4096], path[8192], msg[2 * MODEL_MSG_LEN];
	struct dirent **names;
	int nr, i, replayed = 0;

	regress_dir(dir, sizeof(dir));
	nr = scandir(dir, &names, regress_filter, alphasort);
	KUNIT_ASSERT_GE_MSG(test, nr, 0, "cannot read %s", dir);
	for (i = 0; i < nr; i++) {
		unsigned char *data;
		size_t size = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		free(names[i]);
		data = regress_read(path, &size);
		if (!data) {
			KUNIT_FAIL(test, "cannot read %s", path);
			continue;
		}
		if (model_fuzz_run(data, size, msg, sizeof(msg)))
			KUNIT_FAIL(test, "%s: %s", path, msg);
		free(data);
		replayed++;
	}
	free(names);
	kunit_info(test, "replayed %d inputs from %s\n", replayed, dir);
	KUNIT_EXPECT_GT(test, replayed, 0);
}

/* The decoder takes every byte string, including none at all. */
static void empty_and_truncated_inputs_run_cleanly(struct kunit *test)
{
	static const unsigned char inputs[][6] = {
		{ 0 },
		{ 0, 0 },
		{ 1, 16, 3 },
		{ 2, 0, 0xff, 0x03 },
		{ 3, 5, 3, 0xff, 0xff, 0xff },
	};
	char msg[2 * MODEL_MSG_LEN];
	size_t i, len;

	KUNIT_EXPECT_EQ(test, model_fuzz_run(NULL, 0, msg, sizeof(msg)), 0);
	for (i = 0; i < ARRAY_SIZE(inputs); i++)
		for (len = 1; len <= sizeof(inputs[i]); len++)
			KUNIT_EXPECT_EQ_MSG(test,
					    model_fuzz_run(inputs[i], len, msg,
							   sizeof(msg)), 0,
					    "input %zu length %zu: %s", i, len,
					    msg);
}

static struct kunit_case maple_fuzz_regress_cases[] = {
	KUNIT_CASE(every_regression_input_replays_cleanly),
	KUNIT_CASE(empty_and_truncated_inputs_run_cleanly),
	{}
};

static struct kunit_suite maple_fuzz_regress_suite = {
	.name = "maple_fuzz_regress",
	.test_cases = maple_fuzz_regress_cases,
};
kunit_test_suite(maple_fuzz_regress_suite);
