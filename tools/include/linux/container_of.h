/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TOOLS_LINUX_CONTAINER_OF_H
#define _TOOLS_LINUX_CONTAINER_OF_H

#include <linux/build_bug.h>
#include <linux/stddef.h>

/**
 * container_of() - The struct that embeds a member.
 * @ptr: Pointer to the member.
 * @type: Type of the containing struct.
 * @member: Name of the member within @type.
 *
 * The build fails if @ptr does not point to the member's type.
 */
#define container_of(ptr, type, member) ({				\
	void *__co_p = (void *)(ptr);					\
	_Static_assert(__same_type(*(ptr), ((type *)0)->member) ||	\
		       __same_type(*(ptr), void),			\
		       "container_of: pointer type mismatch");		\
	((type *)((char *)__co_p - offsetof(type, member)));		\
})

#endif /* _TOOLS_LINUX_CONTAINER_OF_H */
