// SPDX-License-Identifier: GPL-2.0+
/*
 * verdict - ahead, level or behind, row by row (see verdict.h).
 *
 * Included by bench_tree.c, vma_bench.c and verdict_test.c: each is built
 * from one source file by rules it does not share.
 *
 * Conventions: v a verdict, b the baseline's value, n ours.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* fabs() without libm: build/maple-test, which tests this file, has none. */
static double verdict_abs(double x)
{
	return x < 0 ? -x : x;
}

static bool verdict_ends_with(const char *s, const char *end)
{
	size_t ls = strlen(s), le = strlen(end);

	return ls >= le && !strcmp(s + ls - le, end);
}

bool verdict_higher_is_better(const char *metric)
{
	return verdict_ends_with(metric, "_ops") ||
	       verdict_ends_with(metric, ".mops");
}

double verdict_change(double base, double new)
{
	if (base == 0)
		return new == 0 ? 0 : new > 0 ? INFINITY : -INFINITY;
	return 100 * (new - base) / base;
}

double verdict_spread(double base_rsd, double new_rsd)
{
	double s = base_rsd > 0 ? base_rsd : 0;

	return new_rsd > s ? new_rsd : s;
}

/* |@x| in tenths, rounded as printf("%.1f") shows it; huge stays huge. */
static long long verdict_tenths(double x)
{
	x = verdict_abs(x);
	return x < 1e15 ? (long long)(x * 10 + 0.5) : (long long)1e16;
}

enum verdict_class verdict_classify(const char *metric, double change,
				    double spread)
{
	/* Compared as printed, so that "-9.5% (spread ± 9.5%)" is level. */
	if (verdict_tenths(change) <= verdict_tenths(spread))
		return VERDICT_LEVEL;
	if ((change > 0) == verdict_higher_is_better(metric))
		return VERDICT_AHEAD;
	return VERDICT_BEHIND;
}

void verdict_init(struct verdict *v, const char *baseline)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->baseline, sizeof(v->baseline), "%s", baseline);
}

/*
 * How far behind, as a factor: how many times slower (the time ratio, or
 * the inverse of the rate ratio), so that -50% of a rate (2) comes before
 * +60% of a time (1.6).  Only for rows behind.
 */
static double verdict_loss(const char *metric, double change)
{
	if (!verdict_higher_is_better(metric))
		return 1 + change / 100;
	return change <= -100 ? INFINITY : 100 / (100 + change);
}

enum verdict_class verdict_add(struct verdict *v, const char *metric,
			       double base, double base_rsd, double new,
			       double new_rsd)
{
	double change = verdict_change(base, new);
	double spread = verdict_spread(base_rsd, new_rsd);
	enum verdict_class c = verdict_classify(metric, change, spread);
	struct verdict_row *row;
	double loss;
	unsigned int i;

	v->nr[c]++;
	if (c != VERDICT_BEHIND)
		return c;
	row = realloc(v->behind, v->nr[c] * sizeof(*row));
	if (!row) {
		fprintf(stderr, "verdict: out of memory\n");
		exit(1);
	}
	v->behind = row;
	/* Insert it, keeping the furthest behind first. */
	loss = verdict_loss(metric, change);
	for (i = v->nr[c] - 1; i > 0; i--) {
		if (verdict_loss(row[i - 1].name, row[i - 1].change) >= loss)
			break;
		row[i] = row[i - 1];
	}
	snprintf(row[i].name, sizeof(row[i].name), "%s", metric);
	row[i].change = change;
	row[i].spread = spread;
	return c;
}

void verdict_free(struct verdict *v)
{
	free(v->behind);
	v->behind = NULL;
}

const char *verdict_label(char *buf, size_t size, const char *baseline)
{
	if (!strcmp(baseline, "rbtree"))
		snprintf(buf, size, "the rbtree design");
	else if (!strcmp(baseline, "upstream"))
		snprintf(buf, size, "Linux 6.1");
	else if (!strncmp(baseline, "upstream-", 9) && baseline[9])
		snprintf(buf, size, "Linux %s", baseline + 9);
	else if (!strcmp(baseline, "base"))
		snprintf(buf, size, "the base run");
	else
		snprintf(buf, size, "%s", baseline);
	return buf;
}

void verdict_title(FILE *f, const char *scope, const char *baseline)
{
	char label[VERDICT_NAME_LEN + 16];

	fprintf(f, "\n%s: maple against %s (\"%s\")\n"
		"(*_ops and *.mops: higher is better; the rest: lower)\n",
		scope, verdict_label(label, sizeof(label), baseline),
		baseline);
}

FILE *verdict_open(void)
{
	const char *path = getenv("BENCH_VERDICT");
	FILE *f = stdout;

	if (path && *path) {
		f = fopen(path, "a");
		if (!f) {
			fprintf(stderr, "verdict: cannot write %s\n", path);
			exit(1);
		}
	}
	if (f != stdout && !fseek(f, 0, SEEK_END) && ftell(f) > 0)
		return f;
	fprintf(f, "\nVerdict, row by row: ahead or behind when the %%change "
		"of the two medians\nis larger than the rounds' spread (the "
		"larger ±stddev of the two), level\nwhen it is not.  *_ops and "
		"*.mops: higher is better; the rest (times,\ninstructions, "
		"allocations, nodes): lower.\n");
	return f;
}

void verdict_close(FILE *f)
{
	if (f == stdout)
		fflush(f);
	else
		fclose(f);
}

void verdict_print(FILE *f, const struct verdict *v, const char *scope)
{
	char label[VERDICT_NAME_LEN + 16];
	unsigned int i;

	fprintf(f, "\n%s, maple against %s: %u ahead, %u level, %u behind\n",
		scope, verdict_label(label, sizeof(label), v->baseline),
		v->nr[VERDICT_AHEAD], v->nr[VERDICT_LEVEL],
		v->nr[VERDICT_BEHIND]);
	for (i = 0; i < v->nr[VERDICT_BEHIND]; i++)
		fprintf(f, "  behind %+7.1f%% (spread ±%4.1f%%)  %s\n",
			v->behind[i].change, v->behind[i].spread,
			v->behind[i].name);
}

/* A JSON number: an infinite change (from 0) as a large finite one. */
static double verdict_json_number(double x)
{
	return x > 1e9 ? 1e9 : x < -1e9 ? -1e9 : x;
}

void verdict_json(FILE *f, const struct verdict *v, const char *ind)
{
	char label[VERDICT_NAME_LEN + 16];
	unsigned int i;

	fprintf(f, "%s\"%s\": {\n%s  \"label\": \"%s\",\n", ind, v->baseline,
		ind, verdict_label(label, sizeof(label), v->baseline));
	fprintf(f, "%s  \"ahead\": %u,\n%s  \"level\": %u,\n"
		"%s  \"behind\": %u,\n%s  \"behind_pct\": {", ind,
		v->nr[VERDICT_AHEAD], ind, v->nr[VERDICT_LEVEL], ind,
		v->nr[VERDICT_BEHIND], ind);
	for (i = 0; i < v->nr[VERDICT_BEHIND]; i++)
		fprintf(f, "%s\n%s    \"%s\": %.2f", i ? "," : "", ind,
			v->behind[i].name,
			verdict_json_number(v->behind[i].change));
	if (v->nr[VERDICT_BEHIND])
		fprintf(f, "\n%s  ", ind);
	fprintf(f, "}\n%s}", ind);
}
