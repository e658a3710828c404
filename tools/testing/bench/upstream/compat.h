/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Forced in first (-include) when the benchmark is built against Linux's
 * own lib/maple_tree.c from Debian's linux-source-6.1 or -6.12 (make
 * bench-upstream, make bench; the same header for both versions):
 * what that file takes from kernel headers that our userspace stand-ins in
 * tools/include do not give it through the same includes.
 */
#ifndef _BENCH_UPSTREAM_COMPAT_H
#define _BENCH_UPSTREAM_COMPAT_H

#include <linux/string.h>
#include <linux/lockdep.h>

#define __init

/*
 * The kernel's lockdep map for RCU callbacks, named in a lock check when a
 * tree is freed from one; our stand-ins never evaluate that check outside
 * debug builds, and this benchmark is not one.
 */
static struct lockdep_map rcu_callback_map __attribute__((unused));

#endif /* _BENCH_UPSTREAM_COMPAT_H */
