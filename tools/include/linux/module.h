/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/module.h>.
 *
 * module_init(fn) and module_exit(fn) do not run anything by themselves:
 * they register @fn, under its own name, in a process-wide table that a test
 * harness can call by name (module_call_init("fn")).  Registration happens
 * from an ELF constructor and touches no allocator.  The MODULE_* tags are
 * accepted and ignored.  The uapi header of the same name is included first.
 */
#ifndef _TOOLS_LINUX_MODULE_H
#define _TOOLS_LINUX_MODULE_H

#include_next <linux/module.h>

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/stringify.h>

#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_VERSION(s)
#define MODULE_ALIAS(s)
#define MODULE_IMPORT_NS(ns)
#define MODULE_PARM_DESC(var, desc)
#define module_param(name, type, perm)
#define module_param_named(name, value, type, perm)

#define THIS_MODULE	((struct module *)0)
struct module;

/* One registered init or exit function; defined statically by the macros. */
struct module_entry {
	const char *name;		/* the function's name */
	const char *file;		/* source file that registered it */
	initcall_t init;		/* set for module_init() */
	exitcall_t exit;		/* set for module_exit() */
	struct module_entry *next;
};

void __module_register(struct module_entry *entry);

#define __MODULE_ENTRY(fn, initfn, exitfn)				\
	static struct module_entry __module_entry_##fn = {		\
		.name = #fn,						\
		.file = __FILE__,					\
		.init = initfn,						\
		.exit = exitfn,						\
	};								\
	static void __attribute__((__constructor__))			\
	__module_ctor_##fn(void)					\
	{								\
		__module_register(&__module_entry_##fn);		\
	}

#define module_init(fn)		__MODULE_ENTRY(fn, fn, NULL)
#define module_exit(fn)		__MODULE_ENTRY(fn, NULL, fn)
#define late_initcall(fn)	module_init(fn)
#define subsys_initcall(fn)	module_init(fn)
#define core_initcall(fn)	module_init(fn)
#define device_initcall(fn)	module_init(fn)

/* ---- userspace harness only ---- */

/**
 * module_call_init() - Run a function registered with module_init().
 * @name: The function's name, or the base name of its source file without
 *        ".c" (e.g. "test_maple_tree_api").
 *
 * Return: The init function's return value, or -ENOENT if none matches.
 */
int module_call_init(const char *name);

/**
 * module_call_exit() - Run a function registered with module_exit().
 * @name: As for module_call_init().
 *
 * Return: 0, or -ENOENT if none matches.
 */
int module_call_exit(const char *name);

#endif /* _TOOLS_LINUX_MODULE_H */
