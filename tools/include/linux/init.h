/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/init.h>: section annotations are empty
 * because userspace never discards init code.  The initcall macros that
 * matter to tests (module_init/module_exit) live in <linux/module.h>.
 */
#ifndef _TOOLS_LINUX_INIT_H
#define _TOOLS_LINUX_INIT_H

#include <linux/compiler.h>

#define __init
#define __exit
#define __initdata
#define __initconst
#define __exitdata
#define __init_or_module
#define __ref
#define __refdata
#define __ro_after_init
#define __meminit
#define __meminitdata

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

#endif /* _TOOLS_LINUX_INIT_H */
