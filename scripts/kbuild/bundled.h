/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced first into every object of the out-of-tree test module (see the
 * top-level Kbuild).  Not used in a kernel tree or in userspace.
 *
 * 1. Our <linux/maple_tree.h> is read before any kernel header can pull in
 *    the running kernel's copy; both use the same include guard, so the
 *    kernel's is skipped from then on and one set of types is seen.
 * 2. The module carries a private copy of the tree.  Exporting its symbols
 *    would clash with the running kernel's exports of the same names, which
 *    modpost and the module loader refuse, so exports become no-ops.
 */
#ifndef _MAPLE_KBUILD_BUNDLED_H
#define _MAPLE_KBUILD_BUNDLED_H

#include "../../include/linux/maple_tree.h"
#include <linux/export.h>

#undef EXPORT_SYMBOL
#undef EXPORT_SYMBOL_GPL
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif /* _MAPLE_KBUILD_BUNDLED_H */
