// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engines/common/blkdev.h"

static int sysfs_path(char *buf, size_t len, dev_t dev, const char *attr)
{
	int n = snprintf(buf, len, "/sys/dev/block/%u:%u%s%s", major(dev),
			 minor(dev), attr ? "/" : "", attr ? attr : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pp_blkdev_of(const char *path, dev_t *dev, int *is_bdev)
{
	char sys[128];
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		*dev = st.st_rdev;
		*is_bdev = 1;
		return 0;
	}
	*dev = st.st_dev;
	*is_bdev = 0;
	/* tmpfs, NFS, FUSE, overlay: anonymous devices with no sysfs node. */
	if (sysfs_path(sys, sizeof(sys), st.st_dev, NULL) || access(sys, F_OK) < 0)
		return -ENODEV;
	return 0;
}

int pp_blkdev_name(dev_t dev, char *buf, size_t len)
{
	char sys[128], link[512];
	ssize_t n;
	int ret;

	ret = sysfs_path(sys, sizeof(sys), dev, NULL);
	if (ret)
		return ret;
	n = readlink(sys, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	if (strlen(basename(link)) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, basename(link));
	return 0;
}

static int read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int pp_blkdev_disk(dev_t dev, dev_t *disk)
{
	char sys[128], buf[32];
	unsigned int ma, mi;

	*disk = dev;
	if (sysfs_path(sys, sizeof(sys), dev, "partition") || access(sys, F_OK) < 0)
		return 0;
	/* A partition's parent directory is its disk. */
	if (sysfs_path(sys, sizeof(sys), dev, "../dev") || read_line(sys, buf, sizeof(buf)))
		return -ENODEV;
	if (sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*disk = makedev(ma, mi);
	return 0;
}

int pp_blkdev_attr(dev_t dev, const char *attr, char *buf, size_t len)
{
	char sys[256];
	int ret;

	if (!strncmp(attr, "queue/", 6)) {
		ret = pp_blkdev_disk(dev, &dev);
		if (ret)
			return ret;
	}
	ret = sysfs_path(sys, sizeof(sys), dev, attr);
	return ret ? ret : read_line(sys, buf, len);
}

int pp_blkstat_read(dev_t dev, struct pp_blkstat *st)
{
	char buf[512];
	int ret;

	ret = pp_blkdev_attr(dev, "stat", buf, sizeof(buf));
	if (ret)
		return ret;
	memset(st, 0, sizeof(*st));
	if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &st->rd_ios, &st->rd_merges, &st->rd_sectors, &st->rd_ticks,
		   &st->wr_ios, &st->wr_merges, &st->wr_sectors, &st->wr_ticks,
		   &st->in_flight, &st->io_ticks, &st->time_in_queue) != 11)
		return -EINVAL;
	return 0;
}
