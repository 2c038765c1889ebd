/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block device under a file: which one it is (st_dev through
 * /sys/dev/block, or an explicit override), a node to open it by, its size
 * and block size, and why there is none (tmpfs, NFS, FUSE, btrfs...).
 *
 * No fio dependency.
 */
#ifndef PERFPACK_BLKFILE_BDEV_H
#define PERFPACK_BLKFILE_BDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The device to do @path's I/O on: @path itself when it is one (*is_bdev
 * = 1; @override does not apply), else the device proven to hold it: the
 * file's st_dev through /sys/dev/block, or on btrfs the one device of
 * BTRFS_IOC_DEV_INFO.  @override (blkfile_dev=), when given, must be that
 * very device (same st_rdev; not the partition's disk, not a disk under a
 * device-mapper device): else -EXDEV naming both.  @how gets how the
 * device was proven.  0, or -errno with a sentence in @why (including
 * what kind of filesystem @path is on when it has no block device).
 */
int bf_dev_find(const char *path, const char *override, dev_t *dev,
		int *is_bdev, char *how, size_t howlen, char *why, size_t whylen);

/*
 * Is the filesystem of open file @fd read-only: its mount (statvfs
 * ST_RDONLY) or its superblock ("ro" in the super options of
 * /proc/self/mountinfo)?  0 when writable, -EROFS with the reason in @why.
 * A frozen filesystem is not detected (Linux has no query for it).
 */
int bf_fs_readonly(int fd, char *why, size_t whylen);

/*
 * Open block device @dev with open(2) @flags through the first /dev node
 * that really is it (/dev/NAME, /dev/block/MAJ:MIN, /dev/mapper/DMNAME);
 * when there is none (a container without udev), through a node made
 * with mknod(2) in a private temporary directory and unlinked at once.
 * The node's path (or a description of the private one) goes to @path.
 * Returns the fd, or -errno with the reason in @why.
 */
int bf_dev_open(dev_t dev, int flags, char *path, size_t pathlen,
		char *why, size_t whylen);

/* Size in bytes and logical block size of an open block device.  0 or -errno. */
int bf_dev_geometry(int fd, uint64_t *size, uint32_t *lbs);

/* Human name of a statfs f_type with no block device of its own, or NULL. */
const char *bf_fs_without_bdev(unsigned long f_type);

/*
 * Refuse files whose data does not live where FIEMAP says on the device
 * that st_dev names: XFS realtime files (their extents are on the realtime
 * device) and ext4 data journalling (fresh data may still sit in the
 * journal).  0, or -EOPNOTSUPP with the reason in @why.
 */
int bf_file_data_on_dev(int fd, char *why, size_t whylen);

/*
 * Refuse files whose inode says the bytes at its extents are not the
 * file's plain data, or must not change: encrypted (fscrypt: the device
 * holds ciphertext, FIEMAP does not say so on ext4) for any I/O; and for
 * device writes (@writes), immutable, append-only and fs-verity files,
 * which the kernel refuses to change through the file, and active swap
 * files.  Asked both ways (statx attributes, FS_IOC_GETFLAGS): a
 * filesystem may answer only one.  0, or -EPERM/-EBUSY with the reason in
 * @why.
 */
int bf_file_attrs_allow(int fd, int writes, char *why, size_t whylen);

#endif
