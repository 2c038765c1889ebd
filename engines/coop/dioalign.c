// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kept apart: the kernel's struct statx (linux/stat.h) has the direct I/O
 * fields glibc 2.36's lacks, and the two cannot share a file.
 */
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engines/coop/dioalign.h"

unsigned int coop_dio_align(int fd, int is_bdev)
{
	struct statx stx = { 0 };
	int ss;

	if (!syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
	if (is_bdev && !ioctl(fd, BLKSSZGET, &ss) && ss > 0)
		return (unsigned int)ss;
	return 512;
}
