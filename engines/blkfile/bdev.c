// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding and opening the block device under a file.  Discovery goes
 * st_dev -> /sys/dev/block/MAJ:MIN (engines/common/blkdev.c), which covers
 * whole disks, partitions, loop and device-mapper alike; the node is
 * verified by st_rdev, never trusted by name.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/magic.h>

#include "engines/common/blkdev.h"
#include "engines/blkfile/bdev.h"

/* Not all of these are in every <linux/magic.h>. */
#ifndef FUSE_SUPER_MAGIC
#define FUSE_SUPER_MAGIC	0x65735546
#endif
#ifndef CIFS_SUPER_MAGIC
#define CIFS_SUPER_MAGIC	0xff534d42
#endif
#ifndef SMB2_SUPER_MAGIC
#define SMB2_SUPER_MAGIC	0xfe534d42
#endif
#define ZFS_SUPER_MAGIC		0x2fc12fc1
#ifndef CEPH_SUPER_MAGIC
#define CEPH_SUPER_MAGIC	0x00c36400
#endif
#ifndef V9FS_MAGIC
#define V9FS_MAGIC		0x01021997
#endif

static void say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

const char *bf_fs_without_bdev(unsigned long f_type)
{
	switch (f_type) {
	case TMPFS_MAGIC:	return "tmpfs (memory)";
	case RAMFS_MAGIC:	return "ramfs (memory)";
	case NFS_SUPER_MAGIC:	return "NFS (network)";
	case CIFS_SUPER_MAGIC:
	case SMB2_SUPER_MAGIC:	return "SMB/CIFS (network)";
	case CEPH_SUPER_MAGIC:	return "Ceph (network)";
	case V9FS_MAGIC:	return "9p (network/virtio)";
	case FUSE_SUPER_MAGIC:	return "FUSE (user space)";
	case OVERLAYFS_SUPER_MAGIC: return "overlayfs (stacked)";
	case PROC_SUPER_MAGIC:	return "procfs";
	case SYSFS_MAGIC:	return "sysfs";
	case ZFS_SUPER_MAGIC:	return "ZFS (pooled: its block pointers are not device offsets)";
	case BTRFS_SUPER_MAGIC:	return "btrfs (FIEMAP reports btrfs logical addresses, not offsets on one device)";
	}
	return NULL;
}

int bf_dev_find(const char *path, const char *override, dev_t *dev,
		int *is_bdev, char *why, size_t whylen)
{
	struct statfs sfs;
	struct stat st;
	const char *fs;
	int ret;

	if (override && *override) {
		if (stat(override, &st) < 0) {
			ret = -errno;
			say(why, whylen, "blkfile_dev=%s: %s", override, strerror(-ret));
			return ret;
		}
		if (!S_ISBLK(st.st_mode)) {
			say(why, whylen, "blkfile_dev=%s is not a block device", override);
			return -ENOTBLK;
		}
		*dev = st.st_rdev;
		*is_bdev = 0;
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			*is_bdev = 1;
		return 0;
	}

	/* Name the filesystem first: btrfs has a sysfs-less anonymous st_dev too. */
	if (statfs(path, &sfs) == 0) {
		fs = bf_fs_without_bdev(sfs.f_type);
		if (fs && stat(path, &st) == 0 && !S_ISBLK(st.st_mode)) {
			say(why, whylen, "is on %s, which has no block device under it to address "
			    "(blkfile_via=bdev needs a file on ext4, XFS or another block filesystem; "
			    "blkfile_via=file works anywhere)", fs);
			return -ENODEV;
		}
	}
	ret = pp_blkdev_of(path, dev, is_bdev);
	if (ret == -ENODEV)
		say(why, whylen, "is on a filesystem with no block device (st_dev %u:%u has no /sys/dev/block entry); "
		    "use blkfile_via=file, or name the device with blkfile_dev=",
		    major(*dev), minor(*dev));
	else if (ret)
		say(why, whylen, "%s", strerror(-ret));
	return ret;
}

/* Open @node if it is block device @dev.  fd, or -errno (-ENOENT: not it). */
static int open_if(const char *node, dev_t dev, int flags)
{
	struct stat st;
	int fd;

	if (stat(node, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != dev)
		return -ENOENT;
	fd = open(node, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* A udev rename between stat and open must not send us elsewhere. */
	if (fstat(fd, &st) < 0 || st.st_rdev != dev) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/* mknod a node for @dev in a fresh private directory, open it, remove it. */
static int open_private(dev_t dev, int flags, char *path, size_t pathlen)
{
	const char *bases[] = { getenv("TMPDIR"), "/dev", "/tmp", "/run" };
	char dir[PATH_MAX], node[PATH_MAX + 8];
	int fd = -ENOENT;
	size_t i;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!bases[i] || !*bases[i])
			continue;
		snprintf(dir, sizeof(dir), "%s/.blkfile.XXXXXX", bases[i]);
		if (!mkdtemp(dir))
			continue;
		snprintf(node, sizeof(node), "%s/dev", dir);
		if (mknod(node, S_IFBLK | 0600, dev) < 0) {
			fd = -errno;
		} else {
			fd = open(node, flags | O_CLOEXEC);
			if (fd < 0)
				fd = -errno;
			unlink(node);
		}
		rmdir(dir);
		/* EACCES from open: the directory is on a nodev mount, try the next. */
		if (fd >= 0) {
			snprintf(path, pathlen, "(private node %u:%u)", major(dev), minor(dev));
			return fd;
		}
	}
	return fd;
}

int bf_dev_open(dev_t dev, int flags, char *path, size_t pathlen,
		char *why, size_t whylen)
{
	char name[64], dmname[128], node[PATH_MAX];
	int fd, err = -ENOENT;

	if (pp_blkdev_name(dev, name, sizeof(name)) == 0) {
		snprintf(node, sizeof(node), "/dev/%s", name);
		fd = open_if(node, dev, flags);
		if (fd >= 0)
			goto found;
		if (fd != -ENOENT)
			err = fd;
	} else {
		snprintf(name, sizeof(name), "%u:%u", major(dev), minor(dev));
	}

	snprintf(node, sizeof(node), "/dev/block/%u:%u", major(dev), minor(dev));
	fd = open_if(node, dev, flags);
	if (fd >= 0)
		goto found;
	if (fd != -ENOENT)
		err = fd;

	if (pp_blkdev_attr(dev, "dm/name", dmname, sizeof(dmname)) == 0) {
		snprintf(node, sizeof(node), "/dev/mapper/%s", dmname);
		fd = open_if(node, dev, flags);
		if (fd >= 0)
			goto found;
		if (fd != -ENOENT)
			err = fd;
	}

	if (err != -ENOENT) {
		say(why, whylen, "cannot open block device %s (%u:%u): %s", name,
		    major(dev), minor(dev), strerror(-err));
		return err;
	}
	fd = open_private(dev, flags, path, pathlen);
	if (fd < 0)
		say(why, whylen, "block device %s (%u:%u) has no node in /dev and making one failed: %s",
		    name, major(dev), minor(dev), strerror(-fd));
	return fd;
found:
	snprintf(path, pathlen, "%s", node);
	return fd;
}

int bf_dev_geometry(int fd, uint64_t *size, uint32_t *lbs)
{
	int ss;

	if (ioctl(fd, BLKGETSIZE64, size) < 0)
		return -errno;
	if (ioctl(fd, BLKSSZGET, &ss) < 0)
		return -errno;
	*lbs = ss;
	return 0;
}

/* Is the filesystem of device @dev mounted with data=journal? */
static int data_journalled(dev_t dev)
{
	char line[4096], want[32];
	FILE *mi;
	int found = 0;

	mi = fopen("/proc/self/mountinfo", "re");
	if (!mi)
		return 0;
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	while (!found && fgets(line, sizeof(line), mi)) {
		const char *sep = strstr(line, " - ");

		/* Field 3 is MAJ:MIN; super options follow " - TYPE SOURCE ". */
		if (!sep || !strstr(line, want) || strstr(line, want) > sep)
			continue;
		found = strstr(sep, "data=journal") != NULL;
	}
	fclose(mi);
	return found;
}

int bf_file_data_on_dev(int fd, char *why, size_t whylen)
{
	struct fsxattr fsx;
	struct stat st;
	int flags = 0;

	if (ioctl(fd, FS_IOC_FSGETXATTR, &fsx) == 0 &&
	    (fsx.fsx_xflags & FS_XFLAG_REALTIME)) {
		say(why, whylen, "is an XFS realtime file: its extents are on the realtime device, "
		    "not on the data device the file's st_dev names");
		return -EINVAL;
	}
	if ((ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_JOURNAL_DATA_FL)) ||
	    (fstat(fd, &st) == 0 && data_journalled(st.st_dev))) {
		say(why, whylen, "has its data journalled (ext4 data=journal or chattr +j): "
		    "fresh data may still be in the journal rather than at its extents");
		return -EINVAL;
	}
	return 0;
}
