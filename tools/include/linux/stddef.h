/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/stddef.h>; the uapi header of the same name
 * is included first (system headers rely on it).
 */
#ifndef _TOOLS_LINUX_STDDEF_H
#define _TOOLS_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

/* Size of a struct member, without an instance at hand. */
#define sizeof_field(TYPE, MEMBER)	sizeof((((TYPE *)0)->MEMBER))

/* Offset of the first byte after a struct member. */
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))

#endif /* _TOOLS_LINUX_STDDEF_H */
