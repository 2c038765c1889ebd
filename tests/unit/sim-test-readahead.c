// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel readahead on the model's page cache: classic (2.6.29), two
 * interleaved streams, the context variant's marker hits, a congested
 * queue.
 * (tests/unit/sim-test.h; run by tests/unit/sim-unit.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sim-test.h"

/* ---- readahead ------------------------------------------------------ */

struct io_rec {
	uint32_t first[64], n[64];
	int k;
};

static void rec_io(void *ctx, uint32_t first, uint32_t n)
{
	struct io_rec *r = ctx;

	r->first[r->k] = first;
	r->n[r->k++] = n;
}

static void test_readahead_classic(void)
{
	struct pagecache pc;
	struct io_rec io = { .k = 0 };
	struct ra_ctx rc = { .pc = &pc, .algo = SIM_RA_CLASSIC, .io = rec_io, .ctx = &io };
	struct ra_state ra;
	struct file_read r;
	uint32_t w;

	pc_init(&pc, 64 << 20);
	ra_state_init(&ra, 128);		/* max 32 pages */
	CHECK_EQ(ra.ra_pages, 32);

	/*
	 * First 16 KiB read at 0: req 4 pages, get_init_ra_size(4, 32):
	 * roundup 4, 4 <= 32/4 -> x2 = 8 pages; async_size 8 - 4 = 4, so the
	 * marker sits on page 8 - 4 = 4.  One I/O of pages [0, 8).
	 */
	fread_begin(&r, 0, 16384);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 1);
	CHECK_EQ(w, 0);
	CHECK_EQ(io.k, 1);
	CHECK_EQ(io.first[0], 0);
	CHECK_EQ(io.n[0], 8);
	CHECK_EQ(ra.start, 0);
	CHECK_EQ(ra.size, 8);
	CHECK_EQ(ra.async_size, 4);
	CHECK(pc_marked(&pc, 4), "marker on page 4");
	pc_complete(&pc, 0, 8);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 0);
	CHECK_EQ(ra.prev_pos, 16384);

	/*
	 * Second read [16K, 32K) hits the marker on page 4: offset 4 ==
	 * start + size - async_size, so the window moves on: start 8, size
	 * get_next_ra_size(8) = 8 < 32/16? no -> x2 = 16, async 16: I/O
	 * [8, 24), marker on its first page.
	 */
	fread_begin(&r, 16384, 16384);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 0);
	CHECK_EQ(io.k, 2);
	CHECK_EQ(io.first[1], 8);
	CHECK_EQ(io.n[1], 16);
	CHECK_EQ(ra.size, 16);
	CHECK(pc_marked(&pc, 8), "marker on page 8");
	pc_complete(&pc, 8, 16);

	/* next window ramps to the 32-page maximum and stays there */
	fread_begin(&r, 32768, 4096);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 0);
	CHECK_EQ(io.first[2], 24);
	CHECK_EQ(io.n[2], 32);

	/*
	 * A random 8 KiB read at 1 MiB (page 256) by this file: not
	 * sequential, no marker: read as is (2 pages), state untouched.
	 */
	fread_begin(&r, 1 << 20, 8192);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 1);
	CHECK_EQ(io.first[3], 256);
	CHECK_EQ(io.n[3], 2);
	CHECK_EQ(ra.start, 24);
	pc_free(&pc);
}

/*
 * Two SCST threads, each its own struct file, reading a stream in turns of
 * 64 KiB.  Thread B's first read at 64K is not sequential for its file and
 * finds no marker: classic reads exactly 16 pages; context readahead sees
 * 16 cached pages behind it (A's read) and starts a window instead.
 */
static void test_readahead_interleaved(void)
{
	int algo;

	for (algo = SIM_RA_CLASSIC; algo <= SIM_RA_CONTEXT; algo++) {
		struct pagecache pc;
		struct io_rec io = { .k = 0 };
		struct ra_ctx rc = { .pc = &pc, .algo = algo, .io = rec_io, .ctx = &io };
		struct ra_state a, b;
		struct file_read r;
		uint32_t w;

		pc_init(&pc, 64 << 20);
		ra_state_init(&a, 128);
		ra_state_init(&b, 128);
		/* A at 0, 64K: req 16, init size 16 <= 32/4? no -> max 32, async 32-16 = 16 */
		fread_begin(&r, 0, 65536);
		fread_step(&rc, &a, &r, &w);
		CHECK_EQ(io.n[0], 32);
		pc_complete(&pc, 0, 32);
		fread_step(&rc, &a, &r, &w);
		/* B at 128K (page 32): A's window [0,32) is cached behind it */
		fread_begin(&r, 131072, 65536);
		fread_step(&rc, &b, &r, &w);
		if (algo == SIM_RA_CLASSIC) {
			CHECK_EQ(io.first[1], 32);
			CHECK_EQ(io.n[1], 16);	/* as is */
		} else {
			/*
			 * history 32 pages >= offset 32: doubled to 64;
			 * get_init_ra_size(64 + 16, 32) = 32 (max), async 32;
			 * offset == start and size == async: the next window
			 * is merged in: 32 + get_next_ra_size = 64 pages.
			 */
			CHECK_EQ(io.first[1], 32);
			CHECK_EQ(io.n[1], 64);
		}
		pc_free(&pc);
	}
}

/*
 * A marker hit without valid state (interleaved threads), ra_pages 128
 * (512 KiB): pages [0,64) cached, the marker on page 32, a fresh struct
 * file reads one page there (SCST's per-page iovec).
 *  - classic 2.6.29: next hole from page 32 = 64, size 64 - 32 = 32,
 *    get_next_ra_size(32, 128) = 64: window [64,128);
 *  - context (readahead-context-2.6.29.patch): next hole from page 33 = 64,
 *    size 32 + req 1 = 33, get_next_ra_size = 66: window [64,130).
 */
static void test_readahead_marker_context(void)
{
	int algo;

	for (algo = SIM_RA_CLASSIC; algo <= SIM_RA_CONTEXT; algo++) {
		struct pagecache pc;
		struct io_rec io = { .k = 0 };
		struct ra_ctx rc = { .pc = &pc, .algo = algo, .io = rec_io, .ctx = &io };
		struct ra_state ra;
		uint32_t n;

		pc_init(&pc, 64 << 20);
		ra_state_init(&ra, 512);
		n = ra_do_readahead(&rc, 0, 64, 32);	/* [0,64), marker on 32 */
		CHECK_EQ(n, 64);
		pc_complete(&pc, 0, 64);
		ra_async(&rc, &ra, 32, 1);
		CHECK_EQ(io.k, 2);
		CHECK_EQ(io.first[1], 64);
		CHECK_EQ(io.n[1], algo == SIM_RA_CLASSIC ? 64 : 66);
		pc_free(&pc);
	}
}

/*
 * page_cache_async_readahead() on a congested device: the marker is
 * cleared and no window is read.  A 16 KiB read at 0 (max 32 pages) reads
 * [0, 8) with the marker on page 4 (see test_readahead_classic); the next
 * read [16K, 32K) hits it while the queue is congested: no I/O, the marker
 * is gone, one skip counted, the state untouched (start 0, size 8).  The
 * read after it misses on page 8 = start + size: the expected offset, so
 * the window moves on as if nothing happened: [8, 24) (get_next_ra_size(8)
 * = 16) with the marker on page 8, which this read hits at once: [24, 56).
 * (This is how a per-file stream recovers; a thread whose state does not
 * end there reads its command as is.)
 */
static bool always_congested(void *ctx)
{
	(void)ctx;
	return true;
}

static void test_readahead_congested(void)
{
	struct pagecache pc;
	struct io_rec io = { .k = 0 };
	struct ra_ctx rc = { .pc = &pc, .algo = SIM_RA_CLASSIC, .io = rec_io, .ctx = &io };
	struct ra_state ra;
	struct file_read r;
	uint32_t w;

	pc_init(&pc, 64 << 20);
	ra_state_init(&ra, 128);
	fread_begin(&r, 0, 16384);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 1);
	pc_complete(&pc, 0, 8);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 0);
	CHECK(pc_marked(&pc, 4), "marker on page 4");

	rc.congested = always_congested;
	fread_begin(&r, 16384, 16384);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 0);
	CHECK_EQ(io.k, 1);
	CHECK(!pc_marked(&pc, 4), "marker cleared");
	CHECK_EQ(rc.async_skipped, 1);

	rc.congested = NULL;
	fread_begin(&r, 32768, 16384);
	CHECK_EQ(fread_step(&rc, &ra, &r, &w), 1);
	CHECK_EQ(io.k, 3);
	CHECK_EQ(io.first[1], 8);
	CHECK_EQ(io.n[1], 16);
	CHECK_EQ(io.first[2], 24);
	CHECK_EQ(io.n[2], 32);
	pc_free(&pc);
}

void sim_test_readahead(void)
{
	test_readahead_classic();
	test_readahead_interleaved();
	test_readahead_marker_context();
	test_readahead_congested();
}
