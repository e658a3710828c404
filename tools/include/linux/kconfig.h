/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's configuration glue.
 *
 * The kernel build force-includes a generated autoconf.h; userspace has no
 * Kconfig, so the handful of options the shims model are fixed here.  Build
 * variants (for example the debug library) add -DCONFIG_... on the compiler
 * command line instead.
 */
#ifndef _TOOLS_LINUX_KCONFIG_H
#define _TOOLS_LINUX_KCONFIG_H

/* Options that are always "on" in userspace. */
#ifndef CONFIG_SMP
#define CONFIG_SMP 1
#endif
#ifndef CONFIG_LOCKDEP
#define CONFIG_LOCKDEP 1		/* every lock tracks its owner */
#endif
#ifndef CONFIG_DEBUG_LOCK_ALLOC
#define CONFIG_DEBUG_LOCK_ALLOC 1	/* locks embed a dep_map */
#endif
#if defined(__LP64__) && !defined(CONFIG_64BIT)
#define CONFIG_64BIT 1
#endif

/*
 * IS_ENABLED(CONFIG_FOO) is 1 when CONFIG_FOO is defined to 1 (or FOO_MODULE
 * is), else 0; usable both in #if and in C expressions.  The trick: a macro
 * defined as 1 pastes into __kcfg_is_1 which expands to "0," and shifts a 1
 * into the second argument position; anything else leaves the default 0.
 */
#define __kcfg_is_1				0,
#define __kcfg_second(ignored, val, ...)	val
#define __kcfg_pick(arg_or_junk)		__kcfg_second(arg_or_junk 1, 0, 0)
#define __kcfg_eval(val)			__kcfg_pick(__kcfg_is_##val)
#define __kcfg_defined(x)			__kcfg_eval(x)

#define IS_BUILTIN(option)	__kcfg_defined(option)
#define IS_MODULE(option)	__kcfg_defined(option##_MODULE)
#define IS_ENABLED(option)	(IS_BUILTIN(option) || IS_MODULE(option))
#define IS_REACHABLE(option)	IS_ENABLED(option)

#endif /* _TOOLS_LINUX_KCONFIG_H */
