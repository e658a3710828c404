/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/export.h>: every symbol is visible anyway. */
#ifndef _TOOLS_LINUX_EXPORT_H
#define _TOOLS_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define EXPORT_TRACEPOINT_SYMBOL(name)
#define EXPORT_TRACEPOINT_SYMBOL_GPL(name)

#endif /* _TOOLS_LINUX_EXPORT_H */
