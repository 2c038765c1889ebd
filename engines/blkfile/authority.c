// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write authority of a blkfile_via=bdev file: what was verified at
 * open, the check of every I/O against it, and its re-verification.  See
 * authority.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>

#include "engines/blkfile/why.h"
#include "engines/blkfile/authority.h"
#include "engines/blkfile/bdev.h"
#include "engines/blkfile/btrfs.h"

uint64_t bf_auth_reach(uint64_t off, uint64_t len, uint64_t max_bs,
		       uint64_t real_size)
{
	uint64_t end = off + len, reach;

	if (!len || !max_bs)
		return end;
	reach = end - 1 + max_bs;
	if (reach < end)		/* wrapped */
		reach = UINT64_MAX;
	if (reach > real_size)
		reach = real_size;
	return reach > end ? reach : end;
}

int bf_auth_map(int fd, int btrfs, enum bf_use use, uint32_t fiemap_flags,
		struct bf_map *m, char *why, size_t whylen)
{
	int ret = bf_map_load_flags(m, fd, fiemap_flags, why, whylen);

	/* btrfs: FIEMAP gave btrfs logical addresses; make them device offsets. */
	if (!ret && btrfs)
		ret = bf_btrfs_translate(fd, m, use, why, whylen);
	return ret;
}

int bf_auth_take(struct bf_authority *a, int fd, uint64_t off,
		 uint64_t io_end, uint64_t reach, uint32_t align,
		 uint64_t dev_size, char *why, size_t whylen)
{
	struct stat st;
	int ret, gen;

	if (fstat(fd, &st) < 0) {
		ret = -errno;
		bf_say(why, whylen, "fstat: %s", strerror(-ret));
		return ret;
	}
	a->st_dev = st.st_dev;
	a->ino = st.st_ino;
	a->size = st.st_size;
	a->have_generation = ioctl(fd, FS_IOC_GETVERSION, &gen) == 0;
	a->generation = a->have_generation ? (uint32_t)gen : 0;
	a->align = align;
	a->dev_size = dev_size;
	a->lo = off;
	a->io_end = io_end;
	a->tail_why[0] = 0;

	ret = bf_map_check(&a->map, off, io_end - off, a->use, align, dev_size,
			   why, whylen);
	if (ret)
		return ret;
	a->hi = io_end;
	if (reach > io_end) {
		if (bf_map_check(&a->map, io_end, reach - io_end, a->use, align,
				 dev_size, a->tail_why, sizeof(a->tail_why)) == 0)
			a->hi = reach;
	}
	return 0;
}

int bf_auth_io(const struct bf_authority *a, uint64_t off, uint64_t len,
	       char *why, size_t whylen)
{
	size_t first = a->map.n;	/* no hint */

	return bf_auth_io_at(a, off, len, &first, why, whylen);
}

int bf_auth_io_at(const struct bf_authority *a, uint64_t off, uint64_t len,
		  size_t *first, char *why, size_t whylen)
{
	uint64_t end = off + len, pos = off;
	const struct bf_extent *e;
	const char *bad;
	size_t i;

	if (end < off || off < a->lo || end > a->hi) {
		bf_say(why, whylen, "file bytes %llu..%llu are outside the range checked at open, %llu..%llu%s%s",
		    (unsigned long long)off, (unsigned long long)end,
		    (unsigned long long)a->lo, (unsigned long long)a->hi,
		    a->tail_why[0] ? "; past it, where fio's last sequential I/O may reach, " : "",
		    a->tail_why);
		return -EPERM;
	}
	/*
	 * One search (none when *first, the caller's hint, holds @off), then
	 * extent after extent: they are sorted and do not overlap, so the
	 * extent after one ending at pos is the only one that can hold pos
	 * (a hole if it starts later).
	 */
	*first = i = bf_map_find_from(&a->map, *first, off);
	while (pos < end) {
		e = i < a->map.n ? &a->map.ext[i] : NULL;
		if (!e || e->logical > pos) {
			bf_say(why, whylen, "file offset %llu is a hole (no device blocks)",
			    (unsigned long long)pos);
			return -EPERM;
		}
		bad = bf_extent_why(e->flags, a->use);
		if (bad) {
			bf_say(why, whylen, "file offset %llu: the extent at %llu %s",
			    (unsigned long long)pos, (unsigned long long)e->logical, bad);
			return -EPERM;
		}
		pos = e->logical + e->length;
		i++;
	}
	return 0;
}

/*
 * Has the device under the file shrunk since it was checked (a loop
 * device's backing file truncated and `losetup -c`, a dm table reloaded)?
 * Its end may now cut through the file's extents: an I/O there fails, or
 * is short in the middle of a request.  0, or -ENOSPC with the reason.
 */
static int dev_shrunk(const struct bf_authority *a, int dev_fd, char *why,
		      size_t whylen)
{
	uint64_t size;

	if (dev_fd < 0 || !a->dev_size || ioctl(dev_fd, BLKGETSIZE64, &size) < 0 ||
	    size >= a->dev_size)
		return 0;
	bf_say(why, whylen, "the device under the file shrank during the job, from %llu to %llu bytes: "
	    "its end may cut through the file's extents, so the job's device I/O there failed or was cut short",
	    (unsigned long long)a->dev_size, (unsigned long long)size);
	return -ENOSPC;
}

/*
 * On btrfs, is the file's filesystem still on the one device proven at
 * open?  A `btrfs replace` or `device add` says nothing to an open file,
 * and FIEMAP's logical addresses and the chunk tree stay the same while
 * the data moves to another device: the job's device writes would go to
 * one the filesystem no longer reads (or to what is put on it next).
 * 0, or -ESTALE with the reason.
 */
static int btrfs_dev_moved(const struct bf_authority *a, int fd, const char *harm,
			   char *why, size_t whylen)
{
	char how[PATH_MAX + 160], sub[PATH_MAX + 256];
	dev_t now;
	int ret;

	if (!a->btrfs)
		return 0;
	ret = bf_btrfs_device_fd(fd, &now, how, sizeof(how), sub, sizeof(sub));
	if (!ret && now == a->dev)
		return 0;
	if (!ret)
		bf_say(sub, sizeof(sub), "is now on %u:%u, %s", major(now), minor(now), how);
	bf_say(why, whylen, "the btrfs filesystem's device changed during the job (btrfs replace or device add?); %s "
	    "(the file %s; the device used is %u:%u)", harm, sub, major(a->dev), minor(a->dev));
	return -ESTALE;
}

int bf_auth_recheck(const struct bf_authority *a, int fd, int dev_fd,
		    const char *path, char *why, size_t whylen)
{
	const char *harm = a->use == BF_USE_WRITE ? "device writes may have hit other data"
						  : "device reads may have returned other data";
	struct bf_map now;
	struct stat st;
	char sub[PATH_MAX + 256] = "";
	int ret, gen;

	if (fstat(fd, &st) < 0) {
		ret = -errno;
		bf_say(why, whylen, "the file can no longer be checked (fstat: %s)", strerror(-ret));
		return ret;
	}
	if (st.st_ino != a->ino || st.st_dev != a->st_dev) {
		bf_say(why, whylen, "the file's extents changed during the job; %s "
		    "(the open file is inode %llu, was %llu)", harm,
		    (unsigned long long)st.st_ino, (unsigned long long)a->ino);
		return -ESTALE;
	}
	if ((uint64_t)st.st_size != a->size) {
		bf_say(why, whylen, "the file's extents changed during the job; %s "
		    "(its size went from %llu to %llu bytes: truncated or extended by someone else)", harm,
		    (unsigned long long)a->size, (unsigned long long)st.st_size);
		return -ESTALE;
	}
	if (a->have_generation &&
	    (ioctl(fd, FS_IOC_GETVERSION, &gen) < 0 || (uint32_t)gen != a->generation)) {
		bf_say(why, whylen, "the file's extents changed during the job; %s "
		    "(its inode generation is no longer %u)", harm, a->generation);
		return -ESTALE;
	}
	if (path && (stat(path, &st) < 0 || st.st_ino != a->ino || st.st_dev != a->st_dev)) {
		bf_say(why, whylen, "the file's name no longer leads to the file that was checked "
		    "(removed or replaced during the job); %s", harm);
		return -ESTALE;
	}
	if (a->use == BF_USE_WRITE && bf_fs_readonly(fd, sub, sizeof(sub))) {
		bf_say(why, whylen, "the filesystem became read-only during the job; device writes stopped: the file %s", sub);
		return -EROFS;
	}
	if (bf_file_attrs_allow(fd, a->use == BF_USE_WRITE, sub, sizeof(sub))) {
		bf_say(why, whylen, "the file's attributes changed during the job: it now %s", sub);
		return -EPERM;
	}

	ret = dev_shrunk(a, dev_fd, why, whylen);
	if (!ret)
		ret = btrfs_dev_moved(a, fd, harm, why, whylen);
	if (ret)
		return ret;

	bf_map_init(&now);
	ret = bf_auth_map(fd, a->btrfs, a->use, 0, &now, sub, sizeof(sub));
	if (!ret)
		ret = bf_map_same(&a->map, &now, a->lo, a->hi, sub, sizeof(sub));
	bf_map_free(&now);
	if (ret) {
		bf_say(why, whylen, "the file's extents changed during the job; %s (%s)", harm, sub);
		return -ESTALE;
	}
	return 0;
}

void bf_auth_free(struct bf_authority *a)
{
	bf_map_free(&a->map);
}
