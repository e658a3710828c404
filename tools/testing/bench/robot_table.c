// SPDX-License-Identifier: GPL-2.0+
/*
 * robot_table - the robot's comparison table (see robot_table.h).
 *
 * Included by vma_bench.c and replay_bench.c, as verdict.c is: each is
 * built from one source file by rules it does not share.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robot_table.h"

static int robot_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/**
 * robot_median() - The median of @n values (@n > 0), @v left as it is.
 */
double robot_median(const double *v, int n)
{
	double *s = malloc(n * sizeof(*s)), m;

	if (!s) {
		fprintf(stderr, "robot_median: out of memory\n");
		exit(1);
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), robot_cmp_double);
	m = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/**
 * robot_rsd() - The sample standard deviation of @n values, in percent of
 * their mean; 0 for fewer than two values or a mean of 0.
 */
double robot_rsd(const double *v, int n)
{
	double mean = 0, var = 0;
	int i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	return mean ? 100 * sqrt(var / (n - 1)) / mean : 0;
}

/**
 * robot_fmt_value() - "  12.3 ±  2%" in 16 columns, or blanks without
 * @have; a spread under 0.5% is left out, as the robot does.
 */
const char *robot_fmt_value(char *buf, size_t size, double v, double rsd,
			    bool have)
{
	char sd[16] = "";

	if (!have) {
		snprintf(buf, size, "%16s", "");
		return buf;
	}
	if (rsd >= 0.5)
		snprintf(sd, sizeof(sd), " ±%3.0f%%", rsd);
	if (fabs(v) >= 1000)
		snprintf(buf, size, "%10.0f%6s", v, sd);
	else if (fabs(v) >= 10)
		snprintf(buf, size, "%10.1f%6s", v, sd);
	else
		snprintf(buf, size, "%10.2f%6s", v, sd);
	return buf;
}

void robot_table_header(const char *base, const char *new)
{
	printf("\n%16s %27s\n", base, new);
	printf("---------------- ---------------------------\n");
	printf("         %%stddev     %%change         %%stddev\n");
	printf("             \\          |                \\\n");
}

void robot_table_row(double bv, double brsd, bool bhave, const char *change,
		     double nv, double nrsd, bool nhave, const char *name)
{
	char a[32], c[32];

	printf("%s %10s %s  %s\n", robot_fmt_value(a, sizeof(a), bv, brsd, bhave),
	       change, robot_fmt_value(c, sizeof(c), nv, nrsd, nhave), name);
}

/* A baseline's column heading: 6.1's backend is plainly "upstream". */
const char *robot_column_name(const char *backend)
{
	return strcmp(backend, "upstream") ? backend : "upstream-6.1";
}
