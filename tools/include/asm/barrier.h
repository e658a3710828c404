/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <asm/barrier.h>: see <linux/compiler.h>. */
#ifndef _TOOLS_ASM_BARRIER_H
#define _TOOLS_ASM_BARRIER_H

#include <linux/compiler.h>

#endif /* _TOOLS_ASM_BARRIER_H */
