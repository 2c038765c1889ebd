/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A page cache of one file: per 4 KiB page, whether it is present (allocated,
 * maybe still under I/O), up to date, and carries the PG_readahead marker.
 * The queries are the radix-tree ones readahead uses (next/prev hole).
 */
#ifndef PERFPACK_SIM_PAGECACHE_H
#define PERFPACK_SIM_PAGECACHE_H

#include <stdbool.h>
#include <stdint.h>

#define PC_SHIFT	12
#define PC_SIZE		(1u << PC_SHIFT)

#define PC_PRESENT	1u
#define PC_UPTODATE	2u
#define PC_RA_MARK	4u

struct pagecache {
	uint32_t npages;	/* file size in pages (rounded up) */
	uint8_t *f;
};

int pc_init(struct pagecache *pc, uint64_t file_size);
void pc_free(struct pagecache *pc);

static inline bool pc_present(const struct pagecache *pc, uint32_t i)
{
	return i < pc->npages && (pc->f[i] & PC_PRESENT);
}

static inline bool pc_uptodate(const struct pagecache *pc, uint32_t i)
{
	return i < pc->npages && (pc->f[i] & PC_UPTODATE);
}

static inline bool pc_marked(const struct pagecache *pc, uint32_t i)
{
	return i < pc->npages && (pc->f[i] & PC_RA_MARK);
}

/* radix_tree_next_hole(): first absent index in [i, i+max), else i+max. */
uint32_t pc_next_hole(const struct pagecache *pc, uint32_t i, uint32_t max);
/* radix_tree_prev_hole(): last absent index in (i-max, i], else i-max (may be < 0). */
int64_t pc_prev_hole(const struct pagecache *pc, uint32_t i, uint32_t max);
/* I/O for [first, first+n) finished: the pages become up to date. */
void pc_complete(struct pagecache *pc, uint32_t first, uint32_t n);

#endif
