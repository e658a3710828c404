/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/errno.h>.
 *
 * glibc's <errno.h> includes the uapi <linux/errno.h>, which supplies the
 * standard codes (ENOMEM, EINVAL, EEXIST, EBUSY, ENOENT, ...).  The kernel
 * adds codes that never reach userspace; their values are the kernel's.
 */
#ifndef _TOOLS_LINUX_ERRNO_H
#define _TOOLS_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS		512
#define ERESTARTNOINTR		513
#define ERESTARTNOHAND		514
#define ENOIOCTLCMD		515
#define ERESTART_RESTARTBLOCK	516
#define EPROBE_DEFER		517
#define EOPENSTALE		518
#define ENOPARAM		519
#define EBADHANDLE		521
#define ENOTSYNC		522
#define EBADCOOKIE		523
#define ENOTSUPP		524
#define ETOOSMALL		525
#define ESERVERFAULT		526
#define EBADTYPE		527
#define EJUKEBOX		528
#define EIOCBQUEUED		529
#define ERECALLCONFLICT		530

#endif /* _TOOLS_LINUX_ERRNO_H */
