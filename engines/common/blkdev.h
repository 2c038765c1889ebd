/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Block devices as sysfs shows them: which device holds a path, its name,
 * its queue attributes and its I/O counters.  No fio dependency, so unit
 * tests and fiotab-side tools can use it too.
 */
#ifndef PERFPACK_ENGINES_COMMON_BLKDEV_H
#define PERFPACK_ENGINES_COMMON_BLKDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The counters of /sys/dev/block/MAJ:MIN/stat (Documentation/block/stat.rst). */
struct pp_blkstat {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;
};

/*
 * The block device behind @path: the device itself for a block special
 * file, the device holding the file otherwise.  *is_bdev tells which.
 * Returns 0, or -errno (-ENODEV when the filesystem has no block device,
 * as on tmpfs, NFS or FUSE).
 */
int pp_blkdev_of(const char *path, dev_t *dev, int *is_bdev);

/* Kernel name of @dev ("loop0", "sda1", "dm-0") into @buf.  0 or -errno. */
int pp_blkdev_name(dev_t dev, char *buf, size_t len);

/* The whole disk of a partition, or @dev itself.  0 or -errno. */
int pp_blkdev_disk(dev_t dev, dev_t *disk);

/*
 * Read a sysfs attribute of @dev, e.g. "queue/read_ahead_kb"; queue/
 * attributes of a partition are read from its disk.  Trailing newline
 * stripped.  0 or -errno.
 */
int pp_blkdev_attr(dev_t dev, const char *attr, char *buf, size_t len);

/* Snapshot the I/O counters of @dev.  0 or -errno. */
int pp_blkstat_read(dev_t dev, struct pp_blkstat *st);

#endif
