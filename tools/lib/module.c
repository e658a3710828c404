// SPDX-License-Identifier: GPL-2.0
/*
 * The registry behind module_init()/module_exit() in userspace: entries
 * are static and linked in by ELF constructors, so registering allocates
 * nothing; the harness runs them by name.
 */
#include <errno.h>
#include <string.h>

#include <linux/module.h>

static struct module_entry *module_entries;
static struct module_entry **module_tail = &module_entries;

void __module_register(struct module_entry *entry)
{
	entry->next = NULL;
	*module_tail = entry;
	module_tail = &entry->next;
}

/* Does @name match the base name of @file without its ".c"? */
static bool module_file_matches(const char *file, const char *name)
{
	const char *base = strrchr(file, '/');
	size_t len = strlen(name);

	base = base ? base + 1 : file;
	return !strncmp(base, name, len) && !strcmp(base + len, ".c");
}

static struct module_entry *module_find(const char *name, bool init)
{
	struct module_entry *e;

	for (e = module_entries; e; e = e->next) {
		if (init ? !e->init : !e->exit)
			continue;
		if (!strcmp(e->name, name) || module_file_matches(e->file, name))
			return e;
	}
	return NULL;
}

int module_call_init(const char *name)
{
	struct module_entry *e = module_find(name, true);

	return e ? e->init() : -ENOENT;
}

int module_call_exit(const char *name)
{
	struct module_entry *e = module_find(name, false);

	if (!e)
		return -ENOENT;
	e->exit();
	return 0;
}
