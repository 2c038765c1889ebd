// SPDX-License-Identifier: GPL-2.0-only
/*
 * File -> device extent map from FS_IOC_FIEMAP, and the rules for trusting
 * it.  The checks are the engine's main safety net: via=bdev reads and
 * writes the device under a mounted filesystem, so every byte it touches
 * must be a byte the filesystem would itself read for that file offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "engines/blkfile/why.h"
#include "engines/blkfile/fiemap.h"

/* Extents fetched per FIEMAP call; the loop continues until the last one. */
#define BF_FIEMAP_BATCH	256

void bf_map_init(struct bf_map *m)
{
	memset(m, 0, sizeof(*m));
}

void bf_map_free(struct bf_map *m)
{
	free(m->ext);
	bf_map_init(m);
}

int bf_map_add(struct bf_map *m, uint64_t logical, uint64_t physical,
	       uint64_t length, uint32_t flags)
{
	struct bf_extent *e;

	if (!length)
		return 0;
	if (m->n) {
		const struct bf_extent *last = &m->ext[m->n - 1];
		uint64_t end = last->logical + last->length;

		/*
		 * A FIEMAP call starting inside an extent reports that extent
		 * again: keep only the part we do not have yet.
		 */
		if (logical + length <= end)
			return 0;
		if (logical < end) {
			if (flags & FIEMAP_EXTENT_NOT_ALIGNED)
				return -EINVAL;
			physical += end - logical;
			length -= end - logical;
			logical = end;
		}
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;

		e = realloc(m->ext, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->ext = e;
		m->cap = cap;
	}
	e = &m->ext[m->n++];
	e->logical = logical;
	e->physical = physical;
	e->length = length;
	e->flags = flags;
	return 0;
}

int bf_map_identity(struct bf_map *m, uint64_t size)
{
	bf_map_free(m);
	m->file_size = size;
	return bf_map_add(m, 0, 0, size, FIEMAP_EXTENT_LAST);
}

int bf_map_load(struct bf_map *m, int fd, char *why, size_t whylen)
{
	return bf_map_load_flags(m, fd, FIEMAP_FLAG_SYNC, why, whylen);
}

int bf_map_load_flags(struct bf_map *m, int fd, uint32_t fiemap_flags,
		      char *why, size_t whylen)
{
	struct fiemap *fm;
	struct stat st;
	uint64_t start = 0;
	int ret = 0, last = 0;
	uint32_t i;

	bf_map_free(m);
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		bf_say(why, whylen, "fstat: %s", strerror(-ret));
		return ret;
	}
	m->file_size = st.st_size;

	fm = calloc(1, sizeof(*fm) + BF_FIEMAP_BATCH * sizeof(fm->fm_extents[0]));
	if (!fm) {
		bf_say(why, whylen, "out of memory for the FIEMAP buffer");
		return -ENOMEM;
	}

	while (!last && start < m->file_size) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		/* FIEMAP_FLAG_SYNC first so delayed allocations get their blocks. */
		fm->fm_flags = fiemap_flags;
		fm->fm_extent_count = BF_FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			ret = -errno;
			if (ret == -EOPNOTSUPP || ret == -ENOTTY)
				bf_say(why, whylen, "the filesystem does not support FIEMAP, so the file's device blocks cannot be found");
			else
				bf_say(why, whylen, "FIEMAP failed: %s", strerror(-ret));
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *fe = &fm->fm_extents[i];

			ret = bf_map_add(m, fe->fe_logical, fe->fe_physical,
					 fe->fe_length, fe->fe_flags);
			if (ret == -ENOMEM) {
				bf_say(why, whylen, "out of memory for the extent map");
				goto out;
			}
			if (ret) {
				bf_say(why, whylen, "FIEMAP returned overlapping unaligned extents at file offset %llu",
				    (unsigned long long)fe->fe_logical);
				goto out;
			}
			if (fe->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
			start = fe->fe_logical + fe->fe_length;
		}
	}
out:
	free(fm);
	if (ret)
		bf_map_free(m);
	return ret;
}

/* Index of the extent containing @off, or of the first one after it; m->n if none. */
static size_t find(const struct bf_map *m, uint64_t off)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bf_extent *e = &m->ext[mid];

		if (e->logical + e->length <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int bf_map_check(const struct bf_map *m, uint64_t off, uint64_t len,
		 enum bf_use use, uint32_t align, uint64_t dev_size,
		 char *why, size_t whylen)
{
	uint64_t end = off + len, pos = off;
	size_t i;

	if (end < off || end > m->file_size) {
		bf_say(why, whylen, "the job range %llu..%llu ends past the end of the file (%llu bytes)",
		    (unsigned long long)off, (unsigned long long)end,
		    (unsigned long long)m->file_size);
		return -ERANGE;
	}
	for (i = find(m, off); pos < end; i++) {
		const struct bf_extent *e = i < m->n ? &m->ext[i] : NULL;
		const char *bad;

		if (!e || e->logical > pos) {
			uint64_t hole_end = e && e->logical < end ? e->logical : end;

			bf_say(why, whylen, "file offsets %llu..%llu are a hole (no device blocks): "
			    "write the whole file first, or use blkfile_via=file",
			    (unsigned long long)pos, (unsigned long long)hole_end);
			return -EOPNOTSUPP;
		}
		bad = bf_extent_why(e->flags, use);
		if (bad) {
			bf_say(why, whylen, "the extent at file offset %llu (%llu bytes) %s",
			    (unsigned long long)e->logical,
			    (unsigned long long)e->length, bad);
			return -EOPNOTSUPP;
		}
		if (align && (e->physical % align || e->logical % align)) {
			bf_say(why, whylen, "the extent at file offset %llu (device offset %llu) is not aligned to the device's %u-byte blocks",
			    (unsigned long long)e->logical,
			    (unsigned long long)e->physical, align);
			return -EOPNOTSUPP;
		}
		if (dev_size && (e->physical > dev_size ||
				 e->length > dev_size - e->physical)) {
			bf_say(why, whylen, "the extent at file offset %llu maps to device bytes %llu..%llu, past the device's end (%llu bytes): wrong blkfile_dev?",
			    (unsigned long long)e->logical,
			    (unsigned long long)e->physical,
			    (unsigned long long)(e->physical + e->length),
			    (unsigned long long)dev_size);
			return -ERANGE;
		}
		pos = e->logical + e->length;
	}
	return 0;
}

uint64_t bf_map_resolve(const struct bf_map *m, uint64_t off, uint64_t len,
			uint64_t *phys)
{
	size_t i = m->n;	/* no hint: search */

	return bf_map_resolve_at(m, &i, off, len, phys);
}

size_t bf_map_find(const struct bf_map *m, uint64_t off)
{
	return find(m, off);
}

const struct bf_extent *bf_map_lookup(const struct bf_map *m, uint64_t off)
{
	size_t i = find(m, off);

	if (i == m->n || m->ext[i].logical > off)
		return NULL;
	return &m->ext[i];
}

/* Flags that say nothing about where or what the bytes are. */
#define BF_FLAGS_NOT_COMPARED	(FIEMAP_EXTENT_LAST | FIEMAP_EXTENT_MERGED)

int bf_map_same(const struct bf_map *a, const struct bf_map *b, uint64_t lo,
		uint64_t hi, char *why, size_t whylen)
{
	uint64_t pos = lo;

	while (pos < hi) {
		const struct bf_extent *ea = bf_map_lookup(a, pos);
		const struct bf_extent *eb = bf_map_lookup(b, pos);
		uint64_t end = hi, ea_end, eb_end;

		if (!ea || !eb) {
			if (ea || eb) {
				bf_say(why, whylen, "file offset %llu %s",
				    (unsigned long long)pos,
				    ea ? "was mapped and is now a hole" : "was a hole and is now mapped");
				return -ESTALE;
			}
			/* Both holes: on to the next extent of either. */
			{
				size_t ia = find(a, pos), ib = find(b, pos);
				uint64_t na = ia < a->n ? a->ext[ia].logical : hi;
				uint64_t nb = ib < b->n ? b->ext[ib].logical : hi;

				pos = na < nb ? na : nb;
			}
			continue;
		}
		if (ea->physical - ea->logical != eb->physical - eb->logical ||
		    (ea->flags & ~BF_FLAGS_NOT_COMPARED) != (eb->flags & ~BF_FLAGS_NOT_COMPARED)) {
			bf_say(why, whylen, "file offset %llu was at device byte %llu (flags %#x) and is now at %llu (flags %#x)",
			    (unsigned long long)pos,
			    (unsigned long long)(ea->physical + (pos - ea->logical)), ea->flags,
			    (unsigned long long)(eb->physical + (pos - eb->logical)), eb->flags);
			return -ESTALE;
		}
		ea_end = ea->logical + ea->length;
		eb_end = eb->logical + eb->length;
		if (ea_end < end)
			end = ea_end;
		if (eb_end < end)
			end = eb_end;
		pos = end;
	}
	return 0;
}

uint64_t bf_map_bytes(const struct bf_map *m)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct bf_extent *e = &m->ext[i];
		uint64_t end = e->logical + e->length;

		if (e->logical >= m->file_size)
			break;
		sum += (end > m->file_size ? m->file_size : end) - e->logical;
	}
	return sum;
}
