/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * The maple tree's trace points, compiled out: what Linux's own
 * lib/maple_tree.c calls when the benchmark builds it (make bench-upstream).
 * A kernel without tracing has them as no-ops too.
 */
#ifndef _BENCH_UPSTREAM_TRACE_MAPLE_TREE_H
#define _BENCH_UPSTREAM_TRACE_MAPLE_TREE_H

#define trace_ma_op(...)	do { } while (0)
#define trace_ma_read(...)	do { } while (0)
#define trace_ma_write(...)	do { } while (0)

#endif
