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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/magic.h>

#include "engines/common/blkdev.h"
#include "engines/blkfile/why.h"
#include "engines/blkfile/bdev.h"
#include "engines/blkfile/btrfs.h"

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
	}
	return NULL;
}

/*
 * Is FIEMAP on a filesystem of type @f_type known to say, extent by
 * extent, where the device bytes are not the file's bytes (encoded,
 * inline, tail-packed, unwritten, shared, delayed)?  Only on the
 * filesystems blkfile is tested on.  Others may report plain extents that
 * are not: erofs reports its compressed extents unflagged, so a device
 * read returned the compressed bytes with err= 0; nilfs2 does not flag
 * the blocks its checkpoints share; a cluster filesystem's other nodes
 * move blocks unseen.
 */
static int fiemap_trusted(unsigned long f_type)
{
	switch (f_type) {
	case EXT4_SUPER_MAGIC:	/* ext2, ext3, ext4 */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
		return 1;
	}
	return 0;
}

/* A name for a block filesystem blkfile does not trust, for the refusal. */
static const char *untrusted_name(unsigned long f_type)
{
	switch (f_type) {
	case EROFS_SUPER_MAGIC_V1: return "erofs";
	case SQUASHFS_MAGIC:	return "squashfs";
	case F2FS_SUPER_MAGIC:	return "f2fs";
	case MSDOS_SUPER_MAGIC:	return "FAT";
	case NILFS_SUPER_MAGIC:	return "nilfs2";
	case MINIX_SUPER_MAGIC:
	case MINIX_SUPER_MAGIC2:
	case MINIX2_SUPER_MAGIC:
	case MINIX2_SUPER_MAGIC2:
	case MINIX3_SUPER_MAGIC: return "minix";
	case REISERFS_SUPER_MAGIC: return "reiserfs";
	}
	return NULL;
}

/* "loop3, 7:3" for @dev into @buf. */
static const char *dev_label(dev_t dev, char *buf, size_t len)
{
	char name[64];

	if (pp_blkdev_name(dev, name, sizeof(name)))
		snprintf(name, sizeof(name), "no sysfs name");
	snprintf(buf, len, "%s, %u:%u", name, major(dev), minor(dev));
	return buf;
}

/* What else @claimed may be to @held, as a clause for the refusal. */
static const char *relation(dev_t claimed, dev_t held)
{
	char attr[160], buf[64];
	dev_t disk;

	if (pp_blkdev_disk(held, &disk) == 0 && disk == claimed && disk != held)
		return ": it is the whole disk of that partition, and FIEMAP offsets are relative to the partition";
	if (pp_blkdev_disk(claimed, &disk) == 0 && disk == held && disk != claimed)
		return ": it is a partition of that disk";
	if (pp_blkdev_name(claimed, buf, sizeof(buf)) == 0) {
		snprintf(attr, sizeof(attr), "/sys/dev/block/%u:%u/slaves/%s",
			 major(held), minor(held), buf);
		if (access(attr, F_OK) == 0)
			return ": it is under that device-mapper device, whose table maps offsets";
	}
	return "";
}

/* Find the device holding @path (not itself a block device); @how says how it was proven. */
static int dev_holding(const char *path, dev_t *dev, char *how, size_t howlen,
		       char *why, size_t whylen)
{
	struct statfs sfs;
	struct stat st;
	const char *fs;
	int ret, is_bdev;

	/* Name the filesystem first: btrfs has a sysfs-less anonymous st_dev. */
	if (statfs(path, &sfs) < 0) {
		ret = -errno;
		bf_say(why, whylen, "%s", strerror(-ret));
		return ret;
	}
	if (sfs.f_type == BTRFS_SUPER_MAGIC)
		return bf_btrfs_device(path, dev, how, howlen, why, whylen);
	fs = bf_fs_without_bdev(sfs.f_type);
	if (fs) {
		bf_say(why, whylen, "is on %s, which has no block device under it to address "
		    "(blkfile_via=bdev needs a file on ext4, XFS or btrfs; "
		    "blkfile_via=file works anywhere)", fs);
		return -ENODEV;
	}
	if (!fiemap_trusted(sfs.f_type)) {
		fs = untrusted_name(sfs.f_type);
		bf_say(why, whylen, "is on %s%s (statfs type %#lx), whose FIEMAP is not known to flag the extents "
		    "whose device bytes are not the file's (compressed, inline, shared): blkfile_via=bdev "
		    "needs a file on ext2/3/4, XFS or btrfs (blkfile_via=file works anywhere)",
		    fs ? fs : "a filesystem", fs ? "" : " blkfile does not know", (unsigned long)sfs.f_type);
		return -EOPNOTSUPP;
	}
	ret = pp_blkdev_of(path, dev, &is_bdev);
	if (ret == -ENODEV)
		bf_say(why, whylen, "is on a filesystem with no block device (st_dev %u:%u has no /sys/dev/block entry), "
		    "so no device can be proven to hold it; use blkfile_via=file",
		    major(*dev), minor(*dev));
	else if (ret)
		bf_say(why, whylen, "%s", strerror(-ret));
	if (!ret && stat(path, &st) == 0)
		bf_say(how, howlen, "found from the file's st_dev %u:%u", major(st.st_dev), minor(st.st_dev));
	return ret;
}

int bf_dev_find(const char *path, const char *override, dev_t *dev,
		int *is_bdev, char *how, size_t howlen, char *why, size_t whylen)
{
	char a[96], b[96];
	struct stat st;
	dev_t claimed;
	int ret;

	*is_bdev = 0;
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
		/* The target is a device: blkfile_dev= does not apply. */
		*is_bdev = 1;
		*dev = st.st_rdev;
		bf_say(how, howlen, "the target itself");
		return 0;
	}
	ret = dev_holding(path, dev, how, howlen, why, whylen);
	if (!override || !*override)
		return ret;

	if (stat(override, &st) < 0) {
		ret = -errno;
		bf_say(why, whylen, "blkfile_dev=%s: %s", override, strerror(-ret));
		return ret;
	}
	if (!S_ISBLK(st.st_mode)) {
		bf_say(why, whylen, "blkfile_dev=%s is not a block device", override);
		return -ENOTBLK;
	}
	claimed = st.st_rdev;
	if (ret) {
		size_t n = strlen(why);

		snprintf(why + n, whylen - n, " (blkfile_dev=%s (%s) cannot be proven to hold it)",
			 override, dev_label(claimed, a, sizeof(a)));
		return ret;
	}
	if (claimed != *dev) {
		if (pp_blkdev_name(*dev, b, sizeof(b)))
			snprintf(b, sizeof(b), "a device without a sysfs name");
		bf_say(why, whylen, "blkfile_dev=%s (%s) is not the device that holds the file: "
		    "that is %s (%u:%u), %s%s; refused (the file's FIEMAP offsets mean nothing on another device)",
		    override, dev_label(claimed, a, sizeof(a)), b, major(*dev), minor(*dev),
		    how, relation(claimed, *dev));
		return -EXDEV;
	}
	{
		size_t n = strlen(how);

		snprintf(how + n, howlen - n, ", which blkfile_dev=%s is", override);
	}
	return 0;
}

/*
 * open(2) of a device node as fio opens one (filesetup.c file_open() for
 * any file that is not regular): with O_NOATIME, or without it where the
 * caller may not set it (EPERM), so that a read does not update the node's
 * access time.  fd, or -1 with errno.
 */
static int open_node(const char *node, int flags)
{
	int fd = open(node, flags | O_NOATIME | O_CLOEXEC);

	if (fd < 0 && errno == EPERM)
		fd = open(node, flags | O_CLOEXEC);
	return fd;
}

/* Open @node if it is block device @dev.  fd, or -errno (-ENOENT: not it). */
static int open_if(const char *node, dev_t dev, int flags)
{
	struct stat st;
	int fd;

	if (stat(node, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != dev)
		return -ENOENT;
	fd = open_node(node, flags);
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
			fd = open_node(node, flags);
			if (fd < 0)
				fd = -errno;
			unlink(node);
		}
		rmdir(dir);
		if (fd >= 0) {
			snprintf(path, pathlen, "(private node %u:%u)", major(dev), minor(dev));
			return fd;
		}
		/* EACCES/EPERM: a nodev mount or no CAP_MKNOD here; try the next. */
		if (fd != -EACCES && fd != -EPERM)
			break;
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
		bf_say(why, whylen, "cannot open block device %s (%u:%u): %s", name,
		    major(dev), minor(dev), strerror(-err));
		return err;
	}
	fd = open_private(dev, flags, path, pathlen);
	if (fd < 0)
		bf_say(why, whylen, "block device %s (%u:%u) has no node in /dev and making one failed: %s",
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

/*
 * Does a mount of device @dev (field 3 of /proc/self/mountinfo) carry
 * @opt among its super options (after " - TYPE SOURCE ")?  1, 0, or -errno.
 */
static int super_has(dev_t dev, const char *opt)
{
	char line[4096], want[32];
	FILE *mi;
	int found = 0;

	mi = fopen("/proc/self/mountinfo", "re");
	if (!mi)
		return -errno;
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	while (!found && fgets(line, sizeof(line), mi)) {
		char *sep = strstr(line, " - "), *at = strstr(line, want), *opts, *tok, *save;
		int field;

		if (!sep || !at || at > sep)
			continue;
		/* " - TYPE SOURCE OPTIONS" (spaces in SOURCE are escaped as \040) */
		opts = sep + 3;
		for (field = 0; field < 2 && opts; field++) {
			opts = strchr(opts, ' ');
			if (opts)
				opts++;
		}
		if (!opts)
			continue;
		opts[strcspn(opts, " \n")] = 0;
		for (tok = strtok_r(opts, ",", &save); tok && !found; tok = strtok_r(NULL, ",", &save))
			found = !strcmp(tok, opt);
	}
	fclose(mi);
	return found;
}

int bf_fs_readonly(int fd, char *why, size_t whylen)
{
	struct statvfs sv;
	struct stat st;

	if (fstatvfs(fd, &sv) < 0) {
		int err = errno;

		bf_say(why, whylen, "statvfs: %s", strerror(err));
		return -err;
	}
	if (sv.f_flag & ST_RDONLY) {
		bf_say(why, whylen, "is on a read-only mount (statvfs ST_RDONLY): its filesystem must not change, "
		    "so the device under it is not written");
		return -EROFS;
	}
	if (fstat(fd, &st) == 0 && super_has(st.st_dev, "ro") == 1) {
		bf_say(why, whylen, "is on a filesystem whose superblock is read-only (/proc/self/mountinfo): "
		    "the device under it is not written");
		return -EROFS;
	}
	return 0;
}

int bf_file_data_on_dev(int fd, char *why, size_t whylen)
{
	struct fsxattr fsx;
	struct stat st;
	int flags = 0;

	if (ioctl(fd, FS_IOC_FSGETXATTR, &fsx) == 0 &&
	    (fsx.fsx_xflags & FS_XFLAG_REALTIME)) {
		bf_say(why, whylen, "is an XFS realtime file: its extents are on the realtime device, "
		    "not on the data device the file's st_dev names");
		return -EOPNOTSUPP;
	}
	if ((ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_JOURNAL_DATA_FL)) ||
	    (fstat(fd, &st) == 0 && super_has(st.st_dev, "data=journal") == 1)) {
		bf_say(why, whylen, "has its data journalled (ext4 data=journal or chattr +j): "
		    "fresh data may still be in the journal rather than at its extents");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Is open file @fd an active swap file (a path in /proc/swaps that is it)? */
static int is_swapfile(int fd)
{
	char line[PATH_MAX + 128], path[PATH_MAX], *in, *out;
	struct stat st, sw;
	int found = 0;
	FILE *fp;

	if (fstat(fd, &st) < 0 || !(fp = fopen("/proc/swaps", "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), fp)) {
		if (line[0] != '/')
			continue;	/* the header */
		/* the first field, with the kernel's octal escapes (\040) undone */
		for (in = line, out = path; *in && *in != ' ' && *in != '\t' &&
		     out < path + sizeof(path) - 1; out++) {
			if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] && in[3]) {
				*out = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
				in += 4;
			} else {
				*out = *in++;
			}
		}
		*out = 0;
		found = stat(path, &sw) == 0 && sw.st_dev == st.st_dev && sw.st_ino == st.st_ino;
	}
	fclose(fp);
	return found;
}

int bf_file_attrs_allow(int fd, int writes, char *why, size_t whylen)
{
	static const struct {
		uint64_t statx_attr;	/* STATX_ATTR_* */
		int fl;			/* FS_*_FL */
		int writes_only;
		const char *what;
	} attrs[] = {
		{ STATX_ATTR_ENCRYPTED, FS_ENCRYPT_FL, 0,
		  "is encrypted (fscrypt): its extents hold ciphertext, which the device reads and writes as it is" },
		{ STATX_ATTR_IMMUTABLE, FS_IMMUTABLE_FL, 1,
		  "is immutable (chattr +i): the kernel refuses every write to it, so the device under it is not written" },
		{ STATX_ATTR_APPEND, FS_APPEND_FL, 1,
		  "is append-only (chattr +a): the kernel refuses to overwrite it, so the device under it is not written" },
		{ STATX_ATTR_VERITY, FS_VERITY_FL, 1,
		  "has fs-verity: its content is sealed, so the device under it is not written" },
	};
	struct statx stx;
	int flags = 0, have_flags, have_stx;
	size_t i;

	have_stx = statx(fd, "", AT_EMPTY_PATH, 0, &stx) == 0;
	have_flags = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		if (attrs[i].writes_only && !writes)
			continue;
		if ((have_stx && (stx.stx_attributes & attrs[i].statx_attr)) ||
		    (have_flags && (flags & attrs[i].fl))) {
			bf_say(why, whylen, "%s", attrs[i].what);
			return -EPERM;
		}
	}
	if (writes && is_swapfile(fd)) {
		bf_say(why, whylen, "is an active swap file (/proc/swaps): the kernel writes its blocks itself");
		return -EBUSY;
	}
	return 0;
}
