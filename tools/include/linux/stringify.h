/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TOOLS_LINUX_STRINGIFY_H
#define _TOOLS_LINUX_STRINGIFY_H

/* Stringify after macro expansion of the argument. */
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif /* _TOOLS_LINUX_STRINGIFY_H */
