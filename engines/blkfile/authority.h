/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write authority of one file of a blkfile_via=bdev job: exactly what
 * was verified when the file was opened (the device and how it was proven
 * to hold the file, the byte range checked, every extent of it with its
 * flags, the inode, its generation and size), the check of every I/O
 * against it before submission, and the re-verification that the file
 * still is what was verified.
 *
 * The range checked and the range permitted are one and the same: [lo, hi).
 * lo..io_end is the job's own range (offset..offset+size): it must pass or
 * the job is refused.  fio 3.33 lets the last sequential I/O start anywhere
 * before io_end and run its full block size past it, capped only at the
 * file's real size (io_u.c: get_next_buflen does not check a fixed bs
 * against io_size; fill_io_u only against real_file_size).  That tail,
 * io_end..reach, is checked the same way; when it passes it is permitted
 * (hi = reach), when it does not, hi = io_end and the reason is kept so an
 * I/O reaching into it fails saying why.
 *
 * No fio dependency: tests/unit/blkfile-map.c runs it on synthetic maps.
 */
#ifndef PERFPACK_BLKFILE_AUTHORITY_H
#define PERFPACK_BLKFILE_AUTHORITY_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engines/blkfile/fiemap.h"

struct bf_authority {
	dev_t dev;			/* the device the I/O goes to */
	char how[PATH_MAX + 160];	/* how it was proven to hold the file */
	enum bf_use use;		/* BF_USE_WRITE: the job writes the device */
	uint64_t lo, hi;		/* checked == permitted file bytes */
	uint64_t io_end;		/* end of the job's own range */
	char tail_why[PATH_MAX + 256];	/* why io_end..reach is not permitted, or "" */
	uint32_t align;			/* alignment the extents were checked for */
	uint64_t dev_size;		/* the device's size when checked */
	int btrfs;			/* the map is translated through btrfs chunks */
	dev_t st_dev;			/* the file's st_dev and inode... */
	ino_t ino;
	uint32_t generation;		/* ...and FS_IOC_GETVERSION, when have_generation */
	int have_generation;
	uint64_t size;			/* i_size */
	struct bf_map map;		/* file -> device offsets, as checked */
};

/*
 * How far fio may reach from [@off, @off + @len) of a file of @real_size
 * bytes with blocks up to @max_bs: the last I/O may start at @off+@len-1.
 */
uint64_t bf_auth_reach(uint64_t off, uint64_t len, uint64_t max_bs,
		       uint64_t real_size);

/*
 * Map the open file @fd into @m: FIEMAP (@fiemap_flags, FIEMAP_FLAG_SYNC at
 * open), then on btrfs the chunk translation for @use.  0, or -errno with
 * the reason in @why.
 */
int bf_auth_map(int fd, int btrfs, enum bf_use use, uint32_t fiemap_flags,
		struct bf_map *m, char *why, size_t whylen);

/*
 * Record the authority over @a->map (already loaded by bf_auth_map, and
 * @a->dev, how, use, btrfs set by the caller): the file's identity from
 * @fd, the job's range [@off, @io_end) checked strictly, the tail
 * [@io_end, @reach) checked and permitted only if it passes.  0, or -errno
 * with the refusal in @why.
 */
int bf_auth_take(struct bf_authority *a, int fd, uint64_t off,
		 uint64_t io_end, uint64_t reach, uint32_t align,
		 uint64_t dev_size, char *why, size_t whylen);

/*
 * May the I/O at file bytes [@off, @off + @len) go through the device?
 * Inside [lo, hi), and every extent it touches still one whose flags allow
 * @a->use.  0, or -EPERM with the reason in @why (naming the offset).
 */
int bf_auth_io(const struct bf_authority *a, uint64_t off, uint64_t len,
	       char *why, size_t whylen);
/*
 * The same check, its search for @off's extent starting from *@first (a
 * hint: any value is safe, see bf_map_find_from); *@first is left on the
 * extent holding @off, where the I/O's pieces are resolved from
 * (bf_map_resolve_at).
 */
int bf_auth_io_at(const struct bf_authority *a, uint64_t off, uint64_t len,
		  size_t *first, char *why, size_t whylen);

/*
 * bf_auth_io_at for the I/O path: the common case decided inline, the
 * rest (several extents, the hint wrong, any refusal) by bf_auth_io_at
 * itself.  The common case is the very check bf_auth_io_at makes when
 * the I/O lies inside one extent: inside [lo, hi), that extent holds
 * every byte of it, and its flags allow @a->use.
 */
static inline int bf_auth_io_fast(const struct bf_authority *a, uint64_t off,
				  uint64_t len, size_t *first, char *why,
				  size_t whylen)
{
	uint64_t end = off + len;
	const struct bf_extent *e;

	if (end >= off && off >= a->lo && end <= a->hi && *first < a->map.n) {
		e = &a->map.ext[*first];
		if (e->logical <= off && end - e->logical <= e->length &&
		    !bf_extent_why(e->flags, a->use))
			return 0;
	}
	return bf_auth_io_at(a, off, len, first, why, whylen);
}

/*
 * Is the file still what was verified?  The open file @fd has the same
 * inode, generation and size; @path still names it; its filesystem is not
 * read-only (for a writing job); its extents over [lo, hi) map to the
 * same device bytes with the same flags; and the device, open as @dev_fd
 * (-1: not checked), has not shrunk.  0, -EROFS, -ESTALE or -ENOSPC with
 * the reason in @why.
 */
int bf_auth_recheck(const struct bf_authority *a, int fd, int dev_fd,
		    const char *path, char *why, size_t whylen);

void bf_auth_free(struct bf_authority *a);

#endif
