// SPDX-License-Identifier: GPL-2.0-only
/*
 * btrfs single-device support for blkfile_via=bdev: device discovery
 * through BTRFS_IOC_FS_INFO/DEV_INFO and logical -> physical translation
 * through the chunk tree (BTRFS_IOC_TREE_SEARCH, root only), the same
 * lookup btrfs-progs does for swap files.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "engines/blkfile/why.h"
#include "engines/blkfile/btrfs.h"

struct chunk {
	uint64_t logical, length, type, devid, physical;
	uint16_t num_stripes;
};

int bf_btrfs_device(const char *path, dev_t *dev, char *how, size_t howlen,
		    char *why, size_t whylen)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		bf_say(why, whylen, "open: %s", strerror(-ret));
		return ret;
	}
	ret = bf_btrfs_device_fd(fd, dev, how, howlen, why, whylen);
	close(fd);
	return ret;
}

int bf_btrfs_device_fd(int fd, dev_t *dev, char *how, size_t howlen,
		       char *why, size_t whylen)
{
	struct btrfs_ioctl_fs_info_args fs;
	struct btrfs_ioctl_dev_info_args di;
	struct stat st;
	uint64_t id;

	memset(&fs, 0, sizeof(fs));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &fs) < 0) {
		int ret = -errno;

		bf_say(why, whylen, "is on btrfs, and BTRFS_IOC_FS_INFO failed: %s", strerror(-ret));
		return ret;
	}
	/* (a device replace in progress counts its target: two) */
	if (fs.num_devices != 1) {
		bf_say(why, whylen, "is on a btrfs spanning %llu devices (or replacing one): only single-device btrfs is supported",
		    (unsigned long long)fs.num_devices);
		return -ENODEV;
	}
	for (id = 0; id <= fs.max_id; id++) {
		memset(&di, 0, sizeof(di));
		di.devid = id;
		if (ioctl(fd, BTRFS_IOC_DEV_INFO, &di) < 0)
			continue;
		if (stat((const char *)di.path, &st) < 0 || !S_ISBLK(st.st_mode)) {
			bf_say(why, whylen, "is on btrfs whose device %s cannot be found (%s)",
			    (const char *)di.path, strerror(errno ? errno : ENOTBLK));
			return -ENODEV;
		}
		*dev = st.st_rdev;
		bf_say(how, howlen, "found as btrfs device id %llu, %s, by BTRFS_IOC_DEV_INFO: the filesystem's only device",
		    (unsigned long long)id, (const char *)di.path);
		return 0;
	}
	bf_say(why, whylen, "is on btrfs, but BTRFS_IOC_DEV_INFO found no device");
	return -ENODEV;
}

/* Every chunk of the filesystem (usually a handful), sorted by logical. */
static int load_chunks(int fd, struct chunk **out, size_t *n, char *why, size_t whylen)
{
	struct btrfs_ioctl_search_args args;
	struct btrfs_ioctl_search_key *sk = &args.key;
	struct chunk *v = NULL, *c;
	size_t cap = 0;
	uint32_t i;

	*n = 0;
	memset(&args, 0, sizeof(args));
	sk->tree_id = BTRFS_CHUNK_TREE_OBJECTID;
	sk->min_objectid = sk->max_objectid = BTRFS_FIRST_CHUNK_TREE_OBJECTID;
	sk->min_type = sk->max_type = BTRFS_CHUNK_ITEM_KEY;
	sk->max_offset = (uint64_t)-1;
	sk->max_transid = (uint64_t)-1;

	for (;;) {
		size_t pos = 0;

		sk->nr_items = 4096;
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH, &args) < 0) {
			int err = errno;

			bf_say(why, whylen, "is on btrfs and its chunk tree cannot be searched (%s%s)",
			    strerror(err), err == EPERM ? ": needs root" : "");
			free(v);
			return -err;
		}
		if (!sk->nr_items)
			break;
		for (i = 0; i < sk->nr_items; i++) {
			const struct btrfs_ioctl_search_header *sh = (void *)(args.buf + pos);
			const struct btrfs_chunk *bc = (void *)(sh + 1);

			pos += sizeof(*sh) + sh->len;
			if (sh->type != BTRFS_CHUNK_ITEM_KEY)
				continue;
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				c = realloc(v, cap * sizeof(*c));
				if (!c) {
					free(v);
					bf_say(why, whylen, "out of memory for the btrfs chunk map");
					return -ENOMEM;
				}
				v = c;
			}
			c = &v[(*n)++];
			c->logical = sh->offset;
			c->length = le64toh(bc->length);
			c->type = le64toh(bc->type);
			c->num_stripes = le16toh(bc->num_stripes);
			c->devid = le64toh(bc->stripe.devid);
			c->physical = le64toh(bc->stripe.offset);
			sk->min_offset = sh->offset + 1;
		}
		if (sk->min_offset == 0)
			break;
	}
	*out = v;
	return 0;
}

static const struct chunk *chunk_of(const struct chunk *v, size_t n, uint64_t addr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (addr >= v[i].logical && addr - v[i].logical < v[i].length)
			return &v[i];
	return NULL;
}

int bf_btrfs_translate(int fd, struct bf_map *m, enum bf_use use, char *why,
		       size_t whylen)
{
	/* Extents whose "physical" is no address: left for bf_map_check to refuse. */
	const uint32_t no_addr = FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_UNKNOWN |
				 FIEMAP_EXTENT_DELALLOC;
	struct bf_map out;
	struct chunk *v = NULL;
	size_t n, i;
	int flags = 0, ret;

	if (use == BF_USE_WRITE &&
	    (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0 || !(flags & FS_NOCOW_FL))) {
		bf_say(why, whylen, "is a btrfs file with data checksums: writing its blocks through the device "
		    "would leave the checksums stale (only nodatacow files, chattr +C on an empty file, can be written)");
		return -EOPNOTSUPP;
	}
	ret = load_chunks(fd, &v, &n, why, whylen);
	if (ret)
		return ret;

	bf_map_init(&out);
	out.file_size = m->file_size;
	for (i = 0; i < m->n && !ret; i++) {
		const struct bf_extent *e = &m->ext[i];
		uint64_t lo = e->logical, addr = e->physical, left = e->length, piece;
		const struct chunk *c;

		if (e->flags & no_addr) {
			ret = bf_map_add(&out, e->logical, e->physical, e->length, e->flags);
			continue;
		}
		while (left && !ret) {
			c = chunk_of(v, n, addr);
			if (!c) {
				bf_say(why, whylen, "the extent at file offset %llu is at btrfs address %llu, in no chunk",
				    (unsigned long long)lo, (unsigned long long)addr);
				ret = -EOPNOTSUPP;
				break;
			}
			if (c->type & BTRFS_BLOCK_GROUP_PROFILE_MASK & ~BTRFS_BLOCK_GROUP_DUP) {
				bf_say(why, whylen, "the extent at file offset %llu is in a btrfs RAID chunk (profile %#llx): its bytes are striped or mirrored",
				    (unsigned long long)lo,
				    (unsigned long long)(c->type & BTRFS_BLOCK_GROUP_PROFILE_MASK));
				ret = -EOPNOTSUPP;
				break;
			}
			if (use == BF_USE_WRITE && (c->type & BTRFS_BLOCK_GROUP_DUP)) {
				bf_say(why, whylen, "the extent at file offset %llu is in a btrfs DUP chunk: "
				    "a device write would change one of its two copies",
				    (unsigned long long)lo);
				ret = -EOPNOTSUPP;
				break;
			}
			piece = c->logical + c->length - addr;
			if (piece > left)
				piece = left;
			ret = bf_map_add(&out, lo, c->physical + (addr - c->logical), piece, e->flags);
			lo += piece;
			addr += piece;
			left -= piece;
		}
	}
	free(v);
	if (ret) {
		bf_map_free(&out);
		return ret;
	}
	bf_map_free(m);
	*m = out;
	return 0;
}
