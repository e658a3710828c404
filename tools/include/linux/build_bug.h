/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/build_bug.h>: compile-time assertions,
 * all expressed with C11 _Static_assert.
 */
#ifndef _TOOLS_LINUX_BUILD_BUG_H
#define _TOOLS_LINUX_BUILD_BUG_H

#include <linux/compiler.h>

/* Fail the build if @cond is true; a statement. */
#define BUILD_BUG_ON_MSG(cond, msg) \
	do { _Static_assert(!(cond), msg); } while (0)
#define BUILD_BUG_ON(cond) \
	BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)
#define BUILD_BUG() \
	BUILD_BUG_ON_MSG(1, "BUILD_BUG failed")

/*
 * Fail the build if @e is true; otherwise an int expression equal to 0.
 * A struct may hold a _Static_assert, and sizeof turns it into a value.
 */
#define BUILD_BUG_ON_ZERO(e) \
	((int)(0 * sizeof(struct { _Static_assert(!(e), #e); char __c; })))

/* Fail the build unless @a is an array (not a pointer). */
#define __must_be_array(a)	BUILD_BUG_ON_ZERO(__same_type((a), &(a)[0]))

/*
 * The kernel's static_assert() accepts the message as optional; C11's does
 * not.  <assert.h> may already have defined the two-argument form.
 */
#undef static_assert
#define static_assert(expr, ...)	__static_assert_msg(expr, ##__VA_ARGS__, #expr)
#define __static_assert_msg(expr, msg, ...)	_Static_assert(expr, msg)

#endif /* _TOOLS_LINUX_BUILD_BUG_H */
