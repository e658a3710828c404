/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * The verdict of a benchmark run against a baseline: how many rows
 * (metrics) are ahead, level and behind, and which rows are behind, by
 * how much.  Shared by bench_tree.c and vma_bench.c, which include
 * verdict.c (each program is built from one source file); tested by
 * verdict_test.c.
 *
 * A row's %change is (new - base) / base of the two values the table
 * prints, the medians.  The row is level when the change is no larger
 * (to one decimal, as printed) than the rounds' spread, the larger of the two values' relative
 * standard deviations (the table's "±N%"); else it is ahead or behind by
 * the direction the metric is better in: higher for rates (names ending
 * in "_ops" or ".mops"), lower for everything else (times, instruction
 * counts, allocations, nodes).
 */
#ifndef _BENCH_VERDICT_H
#define _BENCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define VERDICT_NAME_LEN	96

enum verdict_class {
	VERDICT_AHEAD,
	VERDICT_LEVEL,
	VERDICT_BEHIND,
	VERDICT_NR,
};

/* A row behind: its %change and the spread it was weighed against. */
struct verdict_row {
	char name[VERDICT_NAME_LEN];
	double change;
	double spread;
};

/*
 * The verdict against one baseline.  @behind holds @nr[VERDICT_BEHIND]
 * rows, the furthest behind first.
 */
struct verdict {
	char baseline[VERDICT_NAME_LEN];
	unsigned int nr[VERDICT_NR];
	struct verdict_row *behind;
};

/**
 * verdict_higher_is_better() - Which way is better for a metric?
 * @metric: The metric's name.
 *
 * Return: true for rates (names ending in "_ops" or ".mops"), false for
 * everything else.
 */
bool verdict_higher_is_better(const char *metric);

/**
 * verdict_change() - The %change of @new against @base.
 * @base: The baseline's value.
 * @new: Ours.
 *
 * Return: 100 * (new - base) / base; 0 when both are 0; +/-INFINITY when
 * only @base is 0.
 */
double verdict_change(double base, double new);

/**
 * verdict_spread() - The spread a change is weighed against.
 * @base_rsd: The baseline's relative standard deviation in %, <0: none.
 * @new_rsd: Ours.
 *
 * Return: the larger of the two, a missing one counting as 0.
 */
double verdict_spread(double base_rsd, double new_rsd);

/**
 * verdict_classify() - Ahead, level or behind?
 * @metric: The metric's name (it says which way is better).
 * @change: Its %change, from verdict_change().
 * @spread: The spread, from verdict_spread().
 *
 * The two are compared as they print, to one decimal: a change that
 * prints as 0.0% is level whatever the spread, and so is -9.5% against a
 * spread of ±9.5%.
 *
 * Return: VERDICT_LEVEL when |@change| <= @spread, else VERDICT_AHEAD or
 * VERDICT_BEHIND.
 */
enum verdict_class verdict_classify(const char *metric, double change,
				    double spread);

/**
 * verdict_init() - An empty verdict against @baseline.
 * @v: The verdict.
 * @baseline: The baseline's name, as the JSON keys it ("rbtree",
 *	"upstream", "upstream-6.1", "upstream-6.12", "base").
 */
void verdict_init(struct verdict *v, const char *baseline);

/**
 * verdict_add() - Weigh one row and count it.
 * @v: The verdict.
 * @metric: The row's name.
 * @base: The baseline's value.
 * @base_rsd: Its spread in %, <0: none.
 * @new: Ours.
 * @new_rsd: Ours.
 *
 * Return: the row's class.  Exits on running out of memory.
 */
enum verdict_class verdict_add(struct verdict *v, const char *metric,
			       double base, double base_rsd, double new,
			       double new_rsd);

/** verdict_free() - Free what verdict_add() allocated. @v: The verdict. */
void verdict_free(struct verdict *v);

/**
 * verdict_label() - A baseline's name as people say it.
 * @buf: Where to write it.
 * @size: Its size.
 * @baseline: The name the tables and the JSON use.
 *
 * Return: @buf: "the rbtree design", "Linux 6.1" (for "upstream" and
 * "upstream-6.1"), "Linux <v>" for "upstream-<v>", "the base run" for
 * "base", else @baseline itself.
 */
const char *verdict_label(char *buf, size_t size, const char *baseline);

/**
 * verdict_title() - The line above a table: what it compares, which way.
 * @f: Where to print.
 * @scope: "tree" or "mm/".
 * @baseline: The baseline's name.
 */
void verdict_title(FILE *f, const char *scope, const char *baseline);

/**
 * verdict_open() - Where the verdicts go.
 *
 * The file $BENCH_VERDICT names, appended to (make bench collects both
 * programs' verdicts there and prints them at its end), else stdout.
 * When nothing has been written there yet, the legend comes first.
 *
 * Return: the stream; give it to verdict_close().  Exits when the file
 * cannot be opened.
 */
FILE *verdict_open(void);

/** verdict_close() - Done with verdict_open()'s stream. @f: The stream. */
void verdict_close(FILE *f);

/**
 * verdict_print() - The verdict in a few lines.
 * @f: Where to print.
 * @v: The verdict.
 * @scope: "tree" or "mm/".
 */
void verdict_print(FILE *f, const struct verdict *v, const char *scope);

/**
 * verdict_json() - The verdict as a JSON member, one value a line.
 * @f: Where to write.
 * @v: The verdict.
 * @ind: The indentation of the member's key.
 *
 * Writes "<baseline>": { "label", "ahead", "level", "behind",
 * "behind_pct": { "<metric>": <change>, ... } } without a trailing comma
 * or newline.
 */
void verdict_json(FILE *f, const struct verdict *v, const char *ind);

#endif /* _BENCH_VERDICT_H */
