/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/limits.h>.
 *
 * glibc's <limits.h> includes the uapi <linux/limits.h> (PATH_MAX, ...), so
 * that header comes first and the kernel's fixed-width limits are added.  The
 * C limits are defined only if <limits.h> has not done so yet (the compiler's
 * <limits.h> #undefs and redefines them, so either order is fine).
 */
#ifndef _TOOLS_LINUX_LIMITS_H
#define _TOOLS_LINUX_LIMITS_H

#include_next <linux/limits.h>

#ifndef INT_MAX
#define INT_MAX		__INT_MAX__
#endif
#ifndef INT_MIN
#define INT_MIN		(-INT_MAX - 1)
#endif
#ifndef UINT_MAX
#define UINT_MAX	(INT_MAX * 2U + 1U)
#endif
#ifndef LONG_MAX
#define LONG_MAX	__LONG_MAX__
#endif
#ifndef LONG_MIN
#define LONG_MIN	(-LONG_MAX - 1L)
#endif
#ifndef ULONG_MAX
#define ULONG_MAX	(LONG_MAX * 2UL + 1UL)
#endif
#ifndef LLONG_MAX
#define LLONG_MAX	__LONG_LONG_MAX__
#endif
#ifndef LLONG_MIN
#define LLONG_MIN	(-LLONG_MAX - 1LL)
#endif
#ifndef ULLONG_MAX
#define ULLONG_MAX	(LLONG_MAX * 2ULL + 1ULL)
#endif
#ifndef SHRT_MAX
#define SHRT_MAX	__SHRT_MAX__
#endif
#ifndef SHRT_MIN
#define SHRT_MIN	(-SHRT_MAX - 1)
#endif
#ifndef USHRT_MAX
#define USHRT_MAX	(SHRT_MAX * 2 + 1)
#endif
#ifndef SIZE_MAX
#define SIZE_MAX	__SIZE_MAX__
#endif

#define U8_MAX		((unsigned char)~0U)
#define S8_MAX		((signed char)(U8_MAX >> 1))
#define S8_MIN		((signed char)(-S8_MAX - 1))
#define U16_MAX		((unsigned short)~0U)
#define S16_MAX		((short)(U16_MAX >> 1))
#define S16_MIN		((short)(-S16_MAX - 1))
#define U32_MAX		((unsigned int)~0U)
#define U32_MIN		((unsigned int)0)
#define S32_MAX		((int)(U32_MAX >> 1))
#define S32_MIN		((int)(-S32_MAX - 1))
#define U64_MAX		((unsigned long long)~0ULL)
#define S64_MAX		((long long)(U64_MAX >> 1))
#define S64_MIN		((long long)(-S64_MAX - 1))

#endif /* _TOOLS_LINUX_LIMITS_H */
