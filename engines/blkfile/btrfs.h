/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btrfs on a single device.  Its FIEMAP "physical" offsets are btrfs
 * logical addresses, which the chunk tree maps to offsets on the device;
 * its st_dev is an anonymous device, so the device comes from the
 * filesystem's device list instead.  No fio dependency.
 */
#ifndef PERFPACK_BLKFILE_BTRFS_H
#define PERFPACK_BLKFILE_BTRFS_H

#include <stddef.h>
#include <sys/types.h>

#include "engines/blkfile/fiemap.h"

/*
 * The one device of the btrfs holding @path (@how: which id and node).
 * 0, or -errno with the reason in @why (more than one device, no permission for the ioctls...).
 */
int bf_btrfs_device(const char *path, dev_t *dev, char *how, size_t howlen,
		    char *why, size_t whylen);

/* The same for the btrfs holding the open file @fd. */
int bf_btrfs_device_fd(int fd, dev_t *dev, char *how, size_t howlen,
		       char *why, size_t whylen);

/*
 * Rewrite the extents of @m, mapped by FIEMAP on the btrfs file @fd, from
 * btrfs logical addresses to device offsets, splitting extents that cross
 * chunks.  Refuses what the device copy cannot stand in for: RAID
 * profiles, and for @use == BF_USE_WRITE DUP chunks (two copies) and files
 * with data checksums (a device write would leave them stale: only
 * nodatacow files, chattr +C, may be written).  0, or -errno with @why.
 */
int bf_btrfs_translate(int fd, struct bf_map *m, enum bf_use use, char *why,
		       size_t whylen);

#endif
