/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel readahead (mm/readahead.c) on the model's page cache, and the page
 * loop of do_generic_file_read() (mm/filemap.c) that drives it.
 *
 *  classic: 2.6.29 ondemand_readahead() with per-struct-file state: a read is
 *           sequential when it starts where the same file's last read ended
 *           (or hits a PG_readahead marker); otherwise it reads only what it
 *           was asked for.
 *  context: 2.6.31 adds try_context_readahead(): sequentiality inferred from
 *           the pages already cached before the read, whoever read them.
 *  off:     ra_pages = 0 (POSIX_FADV_RANDOM): one page per I/O.
 */
#ifndef PERFPACK_SIM_READAHEAD_H
#define PERFPACK_SIM_READAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/sim/pagecache.h"

/* struct file_ra_state, in pages */
struct ra_state {
	uint32_t start, size, async_size;
	uint32_t ra_pages;		/* max window */
	int64_t prev_pos;		/* byte after the last read, -1 initially */
};

/* Issue I/O for pages [first, first+n), just added to the cache. */
typedef void (*ra_io_fn)(void *ctx, uint32_t first, uint32_t n);
/* bdi_read_congested() of the file's device (NULL: never congested) */
typedef bool (*ra_congested_fn)(void *ctx);

struct ra_ctx {
	struct pagecache *pc;
	int algo;			/* enum sim_ra */
	ra_io_fn io;
	ra_congested_fn congested;
	/*
	 * optional: run the device's queue after an async readahead whose
	 * marker page is up to date (SCST's readahead-2.6.29.patch)
	 */
	void (*run_queue)(void *ctx);
	void *ctx;
	uint64_t ra_calls, ra_pages_read;	/* stats */
	uint64_t asis_reads, window_reads;	/* standalone vs readahead windows */
	uint64_t async_skipped;			/* marker hit on a congested queue */
};

void ra_state_init(struct ra_state *ra, unsigned int ra_kb);
/* page_cache_sync_readahead(): cache miss at @offset, @req pages wanted. */
void ra_sync(struct ra_ctx *rc, struct ra_state *ra, uint32_t offset, uint32_t req);
/*
 * page_cache_async_readahead(): the page at @offset carried the marker.  The
 * marker is cleared first; on a congested queue no window is read (2.6.24+
 * "defer asynchronous read-ahead on IO congestion"), so the marker chain
 * ends there and the next reads of that stream are cache misses.
 */
void ra_async(struct ra_ctx *rc, struct ra_state *ra, uint32_t offset, uint32_t req);
/* __do_page_cache_readahead(): add missing pages, mark one, issue I/O. */
uint32_t ra_do_readahead(struct ra_ctx *rc, uint32_t offset, uint32_t nr, uint32_t lookahead);

/* One read(2) through the page cache, resumable after waiting on a page. */
struct file_read {
	uint64_t pos, end;		/* bytes */
	uint32_t index, last;		/* pages: [index, last) still to copy */
	/*
	 * pause at a PG_readahead page reached after copying others (return
	 * 2): the caller charges the copy of the pages before it first, so
	 * the async readahead starts when the reader gets there
	 */
	bool pace_markers;
};

void fread_begin(struct file_read *r, uint64_t pos, uint64_t len);
/*
 * Advance; returns 0 when every page is copied (prev_pos updated), 1 with
 * *wait set to a page that is under I/O (call again once it is up to
 * date), or 2 at a marked page when pace_markers is set (call again).
 */
int fread_step(struct ra_ctx *rc, struct ra_state *ra, struct file_read *r, uint32_t *wait);

#endif
