/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commit a benchmark run measures, for its JSON file: $BENCH_COMMIT
 * if set (make bench gives both programs of one run the same), else
 * "git rev-parse --short HEAD" with "-dirty" when tracked files changed,
 * else "unknown" (a tarball).  Shared by bench_tree and vma_bench.
 */
#ifndef _BENCH_COMMIT_H
#define _BENCH_COMMIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void bench_read_commit(char *buf, size_t size)
{
	const char *env = getenv("BENCH_COMMIT");
	char line[64] = "";
	FILE *p;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return;
	}
	snprintf(buf, size, "unknown");
	p = popen("git rev-parse --short HEAD 2>/dev/null", "r");
	if (!p)
		return;
	if (fgets(line, sizeof(line), p))
		line[strcspn(line, "\r\n")] = '\0';
	if (pclose(p) == 0 && line[0]) {
		/* Uncommitted changes to tracked files: "-dirty". */
		int dirty = system("git diff --quiet HEAD -- 2>/dev/null");

		snprintf(buf, size, "%s%s", line, dirty ? "-dirty" : "");
	}
}

#endif /* _BENCH_COMMIT_H */
