/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The critical section's arithmetic (vma_bench.c; its cases are in
 * lock_stat_test.c): what runs with a lock held for writing, per
 * operation, from the hold times <linux/lock_stat.h> adds up, and the
 * ceiling it puts on a workload whose every operation takes that lock.
 */
#ifndef _BENCH_CRITICAL_H
#define _BENCH_CRITICAL_H

/**
 * cs_per_op() - The locked code's cost per operation.
 * @total: The summed hold times (or instructions) of @holds holds.
 * @holds: How many holds.
 * @empty: What one empty hold measures: the timer's (or the
 *	bracket's) own cost, in each hold's figure once.
 * @ops: The operations that made the holds.
 *
 * Return: (@total - @holds * @empty) / @ops; 0 without operations.  It
 * may come out below zero when noise beats a short section: the caller
 * prints it as it is.
 */
static inline double cs_per_op(double total, double holds, double empty,
			       double ops)
{
	return ops > 0 ? (total - holds * empty) / ops : 0;
}

/**
 * cs_amdahl_ops() - The most operations a second that any number of
 * tasks can do when each holds one lock for @ns_per_op ns, one at a time.
 * @ns_per_op: The critical section per operation, in ns.
 *
 * Amdahl's law with the serial part alone: however many tasks share the
 * lock, it is held for @ns_per_op ns per operation, so no more than
 * 1 s / @ns_per_op operations fit in a second.
 *
 * Return: that ceiling in operations per second, or 0 when @ns_per_op is
 * not positive (no ceiling measured).
 */
static inline double cs_amdahl_ops(double ns_per_op)
{
	return ns_per_op > 0 ? 1e9 / ns_per_op : 0;
}

/**
 * cs_ceiling_reached_pct() - How close a measured rate came to its ceiling.
 * @ops: Operations per second of all tasks together.
 * @ceiling: cs_amdahl_ops() of the same workload.
 *
 * Return: @ops as a percentage of @ceiling, or 0 without a ceiling: near
 * 100 the lock is held nearly all the time and the section is what
 * limits the rate.
 */
static inline double cs_ceiling_reached_pct(double ops, double ceiling)
{
	return ceiling > 0 ? 100 * ops / ceiling : 0;
}

#endif /* _BENCH_CRITICAL_H */
