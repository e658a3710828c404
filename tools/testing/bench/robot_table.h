/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * The kernel test robot's comparison table, as the mm/ benchmarks print
 * it (vma_bench.c, replay_bench.c):
 *
 *         upstream                       maple
 *   ---------------- ---------------------------
 *            %stddev     %change         %stddev
 *                \          |                \
 *        12.3 ±  2%      -4.1%        11.8 ±  3%  metric
 *
 * and the statistics of its columns: the median of the rounds and their
 * standard deviation relative to the mean.  Needs libm.
 */
#ifndef _BENCH_ROBOT_TABLE_H
#define _BENCH_ROBOT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

double robot_median(const double *v, int n);

double robot_rsd(const double *v, int n);

const char *robot_fmt_value(char *buf, size_t size, double v, double rsd,
			    bool have);

void robot_table_header(const char *base, const char *new);

void robot_table_row(double bv, double brsd, bool bhave, const char *change,
		     double nv, double nrsd, bool nhave, const char *name);

const char *robot_column_name(const char *backend);

#endif /* _BENCH_ROBOT_TABLE_H */
