/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file's map from file offsets to offsets on the block device under it,
 * as FS_IOC_FIEMAP reports it after syncing the file, plus the checks that
 * decide whether the device copy of the bytes can stand in for the file.
 *
 * No fio dependency: the checks run on synthetic maps in tests/unit.
 */
#ifndef PERFPACK_BLKFILE_FIEMAP_H
#define PERFPACK_BLKFILE_FIEMAP_H

#include <stddef.h>
#include <stdint.h>
#include <linux/fiemap.h>

struct bf_extent {
	uint64_t logical;	/* file offset, bytes */
	uint64_t physical;	/* device offset, bytes */
	uint64_t length;	/* bytes */
	uint32_t flags;		/* FIEMAP_EXTENT_* */
};

struct bf_map {
	struct bf_extent *ext;	/* sorted by logical, non-overlapping */
	size_t n, cap;
	uint64_t file_size;	/* i_size when mapped: reads never go past it */
};

/* What the caller is about to do through the device. */
enum bf_use {
	BF_USE_READ,
	BF_USE_WRITE,
};

void bf_map_init(struct bf_map *m);
void bf_map_free(struct bf_map *m);

/* Append an extent (must come after the previous one).  0 or -ENOMEM/-EINVAL. */
int bf_map_add(struct bf_map *m, uint64_t logical, uint64_t physical,
	       uint64_t length, uint32_t flags);

/*
 * The identity map of a whole block device of @size bytes: the target is
 * the device itself, so file offset == device offset.
 */
int bf_map_identity(struct bf_map *m, uint64_t size);

/*
 * Map the whole of the open regular file @fd with FIEMAP_FLAG_SYNC, so
 * delayed allocations are resolved first.  0, or -errno with a reason in
 * @why (e.g. -EOPNOTSUPP when the filesystem has no FIEMAP).
 */
int bf_map_load(struct bf_map *m, int fd, char *why, size_t whylen);

/* The same with FIEMAP flags of the caller's choosing (0: no sync). */
int bf_map_load_flags(struct bf_map *m, int fd, uint32_t fiemap_flags,
		      char *why, size_t whylen);

/*
 * May [@off, @off + @len) of the file be done through the device?  Every
 * byte must lie in an extent whose device copy is the file's data: no
 * holes, nothing delayed/unknown, encoded, encrypted, inline, tail-packed,
 * unaligned to @align (the device's logical block size) or unwritten, no
 * shared extents when writing, and every device range inside
 * [0, @dev_size).  The range must also end within the file.  0, or
 * -EOPNOTSUPP / -ERANGE with a sentence in @why naming the first offending
 * extent and what to do about it.
 */
int bf_map_check(const struct bf_map *m, uint64_t off, uint64_t len,
		 enum bf_use use, uint32_t align, uint64_t dev_size,
		 char *why, size_t whylen);

/*
 * Where file offset @off lives on the device: stores the device offset in
 * *@phys and returns how many bytes (at most @len) are contiguous there,
 * never past the end of the file.  0 when @off is unmapped or at/after EOF.
 */
uint64_t bf_map_resolve(const struct bf_map *m, uint64_t off, uint64_t len,
			uint64_t *phys);

/* Index of the extent holding @off, or of the first one after it; m->n if none. */
size_t bf_map_find(const struct bf_map *m, uint64_t off);

/*
 * bf_map_find(@m, @off), trying extent @hint and the one after it first:
 * one of them holding @off is the one the search would find, since
 * extents are sorted and do not overlap.  Any @hint is safe.
 */
static inline size_t bf_map_find_from(const struct bf_map *m, size_t hint,
				      uint64_t off)
{
	size_t i;

	for (i = hint; i < m->n && i <= hint + 1; i++)
		if (m->ext[i].logical <= off && off - m->ext[i].logical < m->ext[i].length)
			return i;
	return bf_map_find(m, off);
}

/*
 * bf_map_resolve, the search starting from extent *@hint (bf_map_find_from)
 * and *@hint left on the extent used: the same result, and no search when
 * the I/O is in the extent of the hint or, for its next piece, the one
 * after.  Inline: the I/O path resolves every piece with it.
 */
static inline uint64_t bf_map_resolve_at(const struct bf_map *m, size_t *hint,
					 uint64_t off, uint64_t len,
					 uint64_t *phys)
{
	const struct bf_extent *e;
	uint64_t n;
	size_t i;

	if (off >= m->file_size)
		return 0;
	if (len > m->file_size - off)
		len = m->file_size - off;
	i = bf_map_find_from(m, *hint, off);
	if (i == m->n)
		return 0;
	e = &m->ext[i];
	if (e->logical > off)
		return 0;
	*hint = i;
	*phys = e->physical + (off - e->logical);
	n = e->logical + e->length - off;
	return n < len ? n : len;
}

/*
 * The extent holding file offset @off, or NULL when @off is in a hole or
 * past the last extent.
 */
const struct bf_extent *bf_map_lookup(const struct bf_map *m, uint64_t off);

/*
 * Why the device bytes of an extent with FIEMAP @flags cannot stand in for
 * the file's for @use (one clause, "is shared with another file..."), or
 * NULL when they can.
 */
static inline const char *bf_extent_why(uint32_t flags, enum bf_use use)
{
	if (flags & FIEMAP_EXTENT_DELALLOC)
		return "is still delayed-allocated after sync (no device location yet)";
	if (flags & FIEMAP_EXTENT_UNKNOWN)
		return "has an unknown device location";
	if (flags & FIEMAP_EXTENT_ENCODED)
		return "is encoded (compressed): its device bytes are not the file's bytes";
	if (flags & FIEMAP_EXTENT_DATA_ENCRYPTED)
		return "is encrypted by the filesystem: its device bytes are ciphertext";
	if (flags & FIEMAP_EXTENT_DATA_INLINE)
		return "is inline data kept in filesystem metadata, not in data blocks of its own";
	if (flags & FIEMAP_EXTENT_DATA_TAIL)
		return "is a packed tail sharing a block with other files";
	if (flags & FIEMAP_EXTENT_NOT_ALIGNED)
		return "is not block-aligned";
	if (flags & FIEMAP_EXTENT_UNWRITTEN)
		return "is unwritten (preallocated, e.g. by fallocate): the file reads zeros there "
		       "but the device holds stale bytes; write the file through the filesystem first";
	if (use == BF_USE_WRITE && (flags & FIEMAP_EXTENT_SHARED))
		return "is shared with another file (reflink, snapshot or dedupe): "
		       "writing its device blocks would change that file too";
	return NULL;
}


/*
 * Do @a and @b map every byte of [@lo, @hi) to the same device byte with
 * the same flags (FIEMAP_EXTENT_LAST and _MERGED aside), holes included?
 * 0, or -ESTALE with the first difference in @why.
 */
int bf_map_same(const struct bf_map *a, const struct bf_map *b, uint64_t lo,
		uint64_t hi, char *why, size_t whylen);

/* Total bytes of the file mapped (sum of extent lengths, capped at EOF). */
uint64_t bf_map_bytes(const struct bf_map *m);

#endif
