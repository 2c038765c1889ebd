// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the model's mechanisms in isolation, with expectations
 * computed by hand in the comments: event clock, readahead state machine
 * (classic and context), CFQ idling and io_context sharing, deadline order,
 * disk service time, link, SCST hand-offs, determinism of a whole run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/sim/blkq.h"
#include "engines/sim/client.h"
#include "engines/sim/disk.h"
#include "engines/sim/link.h"
#include "engines/sim/readahead.h"
#include "engines/sim/sched_cfq.h"
#include "engines/sim/sim.h"
#include "engines/sim/target.h"

static int failures;

#define CHECK(cond, ...)							\
	do {								\
		if (!(cond)) {						\
			failures++;					\
			printf("FAIL %s:%d: %s: ", __func__, __LINE__, #cond); \
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

#define CHECK_EQ(a, b)								\
	CHECK((int64_t)(a) == (int64_t)(b), "%s = %" PRId64 ", expected %" PRId64, \
	      #a, (int64_t)(a), (int64_t)(b))

/* ---- clock ---------------------------------------------------------- */

static char order_log[16];
static int order_n;

static void rec(void *ctx, uint64_t arg)
{
	(void)ctx;
	order_log[order_n++] = (char)arg;
}

static void test_clock(void)
{
	struct sim_clock c;

	clk_init(&c);
	clk_at(&c, 30, rec, NULL, 'c');
	clk_at(&c, 10, rec, NULL, 'a');
	clk_at(&c, 30, rec, NULL, 'd');	/* same time: insertion order */
	clk_at(&c, 20, rec, NULL, 'b');
	while (clk_step(&c))
		;
	order_log[order_n] = 0;
	CHECK(!strcmp(order_log, "abcd"), "order %s", order_log);
	CHECK_EQ(c.now, 30);
	CHECK_EQ(c.nevents, 4);
	clk_free(&c);
}

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

/* ---- elevators ------------------------------------------------------ */

struct fakedev {
	struct blkq *q;
	struct sim_clock *clk;
	sim_ns svc;
	int n;
	sim_ns t[64];
	int ioctx[64];
	uint64_t off[64];
};

static void fake_done(void *ctx, uint64_t arg)
{
	struct fakedev *d = ctx;

	blkq_complete(d->q, (struct sim_req *)(uintptr_t)arg);
}

static void fake_start(void *dev, struct sim_req *r)
{
	struct fakedev *d = dev;

	d->t[d->n] = d->clk->now;
	d->ioctx[d->n] = r->ioctx;
	d->off[d->n++] = r->off;
	clk_after(d->clk, d->svc, fake_done, d, (uintptr_t)r);
}

static void fake_data(void *owner, const struct sim_req *r)
{
	(void)owner;
	(void)r;
}

/* Make @d the device of @q, run on @clk. */
static void fake_attach(struct fakedev *d, struct blkq *q, struct sim_clock *clk)
{
	d->q = q;
	d->clk = clk;
	q->start = fake_start;
	q->dev = d;
	q->done = fake_data;
	q->owner = d;
}

struct submit_ev {
	struct blkq *q;
	uint64_t off;
	int ioctx;
};

static void submit_cb(void *ctx, uint64_t arg)
{
	struct submit_ev *e = ctx;

	(void)arg;
	blkq_submit(e->q, e->off, 65536, e->ioctx);
}

/*
 * Request slots and congestion (2.6.29 get_request()/freed_request()):
 * nr_requests 128 -> congested when the 113th request is allocated
 * (128 - 16 + 1), clear once fewer than 103 (128 - 16 - 8 - 1) remain.
 * 113 requests 64K apart that cannot merge, device 1 ms each: congested at
 * submission; after 10 completions (t = 10 ms) 103 remain: still
 * congested; the 11th completion (t = 11 ms) leaves 102: clear.  A merged
 * bio takes no slot.
 */
static bool cong_at_10, cong_at_11;

static void cong_probe(void *ctx, uint64_t arg)
{
	struct blkq *q = ctx;

	if (arg == 10)
		cong_at_10 = blkq_congested(q);
	else
		cong_at_11 = blkq_congested(q);
}

static void test_congestion(void)
{
	struct sim_params p;
	struct sim_clock clk;
	struct blkq q = { 0 };
	struct fakedev d = { .svc = SIM_MS };
	int i;

	sim_params_default(&p);
	CHECK_EQ(p.server_nr_requests, 128);
	clk_init(&clk);
	blkq_init(&q, &clk, sim_elevator(SIM_SCHED_NOOP), &p, 4, 1, 128 << 10);
	blkq_set_nr_requests(&q, 128);
	CHECK_EQ(q.cong_on, 113);
	CHECK_EQ(q.cong_off, 103);
	fake_attach(&d, &q, &clk);
	for (i = 0; i < 112; i++)
		blkq_submit(&q, (uint64_t)i * (128 << 10), 64 << 10, 0);
	CHECK(!blkq_congested(&q), "112 requests: not congested");
	blkq_submit(&q, 111ULL * (128 << 10) + (64 << 10), 4096, 0);
	CHECK_EQ(q.nr_rq, 112);			/* back merge: no new slot */
	CHECK(!blkq_congested(&q), "merge: not congested");
	blkq_submit(&q, 200ULL << 20, 64 << 10, 0);
	CHECK_EQ(q.nr_rq, 113);
	CHECK(blkq_congested(&q), "113 requests: congested");
	/* probes after the completions due at the same instants */
	clk_at(&clk, 10 * SIM_MS + 1, cong_probe, &q, 10);
	clk_at(&clk, 11 * SIM_MS + 1, cong_probe, &q, 11);
	while (clk_step(&clk) && d.n < 64)
		;
	CHECK(cong_at_10, "103 left at 10 ms: still congested");
	CHECK(!cong_at_11, "102 left at 11 ms: clear");
	CHECK_EQ(q.st.congested, 1);
	CHECK_EQ(q.st.max_rq, 113);
	blkq_free(&q);
	clk_free(&clk);
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

/*
 * HZ 250 (4 ms jiffies), slice_idle 8 ms = 2 jiffies, device 1 ms/request.
 * t=0: queue 1 submits at 0 and 64K.  t=0.5 ms: queue 2 submits at 1 MiB
 * (far: no close preemption).  Queue 1 is served 0..1, 1..2 ms, then runs
 * empty at 2 ms: idle armed until jiffy 0 + 2 = 8 ms.  Queue 2's request
 * waits for the timer: dispatched at 8 ms.  With one shared io_context the
 * same three requests go back to back: the third at 2 ms (sorted: 0, 64K, 1M).
 */
static void test_cfq_idle(void)
{
	int shared;

	for (shared = 0; shared <= 1; shared++) {
		struct sim_params p;
		struct sim_clock clk;
		struct blkq q = { 0 };
		struct fakedev d = { .svc = SIM_MS };
		struct submit_ev e1 = { &q, 0, 1 }, e2 = { &q, 65536, 1 },
				 e3 = { &q, 1 << 20, shared ? 1 : 2 };
		const struct cfq_stats *st;

		sim_params_default(&p);
		clk_init(&clk);
		blkq_init(&q, &clk, sim_elevator(SIM_SCHED_CFQ), &p, 4, 1, 512 << 10);
		fake_attach(&d, &q, &clk);
		/* separate submissions so they are not merged */
		clk_at(&clk, 0, submit_cb, &e1, 0);
		clk_at(&clk, 1, submit_cb, &e2, 0);
		clk_at(&clk, SIM_MS / 2, submit_cb, &e3, 0);
		while (clk_step(&clk))
			;
		st = elv_cfq_stats(q.e);
		CHECK_EQ(d.n, 3);
		CHECK_EQ(d.off[2], 1 << 20);
		if (!shared) {
			CHECK_EQ(d.t[2], 8 * SIM_MS);
			CHECK_EQ(st->idle_expired, 1);
			CHECK_EQ(st->queues, 2);
		} else {
			CHECK_EQ(d.t[2], 2 * SIM_MS);
			CHECK_EQ(st->queues, 1);
		}
		blkq_free(&q);
		clk_free(&clk);
	}
}

/*
 * CFQ's cap for a lone queue: one io_context submits 32 requests that
 * cannot merge (64 KiB, 128 KiB apart) to a device with 32 slots.  With
 * 4 x quantum (cfq_dispatch_requests(): dispatched >= quantum and alone,
 * stop at 4 x quantum) 16 are dispatched at once; without the cap all 32.
 * All 32 complete either way.
 */
static void test_cfq_lone_cap(void)
{
	unsigned int mult;

	for (mult = 0; mult <= 4; mult += 4) {
		struct sim_params p;
		struct sim_clock clk;
		struct blkq q = { 0 };
		static struct fakedev d;
		int i;

		d = (struct fakedev){ .svc = SIM_MS };
		sim_params_default(&p);
		clk_init(&clk);
		blkq_init(&q, &clk, sim_elevator(SIM_SCHED_CFQ), &p, mult, 32, 512 << 10);
		fake_attach(&d, &q, &clk);
		for (i = 0; i < 32; i++)
			blkq_submit(&q, (uint64_t)i << 17, 65536, 1);
		CHECK_EQ(d.n, mult ? 16 : 32);
		while (clk_step(&clk))
			;
		CHECK_EQ(d.n, 32);
		blkq_free(&q);
		clk_free(&clk);
	}
}

/*
 * The same scene with the idling queue's next request arriving at 5 ms
 * (inside the idle window): it is served at once (idle hit), before
 * queue 2's request.
 */
static void test_cfq_idle_hit(void)
{
	struct sim_params p;
	struct sim_clock clk;
	struct blkq q = { 0 };
	struct fakedev d = { .svc = SIM_MS };
	struct submit_ev e1 = { &q, 0, 1 }, e2 = { &q, 1 << 20, 2 }, e3 = { &q, 65536, 1 };
	const struct cfq_stats *st;

	sim_params_default(&p);
	clk_init(&clk);
	blkq_init(&q, &clk, sim_elevator(SIM_SCHED_CFQ), &p, 4, 1, 512 << 10);
	fake_attach(&d, &q, &clk);
	clk_at(&clk, 0, submit_cb, &e1, 0);
	clk_at(&clk, SIM_MS / 2, submit_cb, &e2, 0);
	clk_at(&clk, 5 * SIM_MS, submit_cb, &e3, 0);
	while (clk_step(&clk))
		;
	st = elv_cfq_stats(q.e);
	CHECK_EQ(d.n, 3);
	CHECK_EQ(d.off[1], 65536);
	CHECK_EQ(d.t[1], 5 * SIM_MS);
	CHECK_EQ(d.off[2], 1 << 20);
	CHECK_EQ(st->idle_hits, 1);
	blkq_free(&q);
	clk_free(&clk);
}

/*
 * 2.6.30's close cooperator (sim_cfq_coop=1): in the private scene of
 * test_cfq_idle, queue 2's request (1 MiB, within CFQ_SEEK_THR = 4 MiB of the
 * head while queue 1 has no valid seek statistics) is a cooperator: no idling,
 * it goes at 2 ms right after queue 1's last request.
 */
static void test_cfq_coop(void)
{
	struct sim_params p;
	struct sim_clock clk;
	struct blkq q = { 0 };
	struct fakedev d = { .svc = SIM_MS };
	struct submit_ev e1 = { &q, 0, 1 }, e2 = { &q, 65536, 1 }, e3 = { &q, 1 << 20, 2 };
	const struct cfq_stats *st;

	sim_params_default(&p);
	p.cfq_coop = 1;
	clk_init(&clk);
	blkq_init(&q, &clk, sim_elevator(SIM_SCHED_CFQ), &p, 4, 1, 512 << 10);
	fake_attach(&d, &q, &clk);
	clk_at(&clk, 0, submit_cb, &e1, 0);
	clk_at(&clk, 1, submit_cb, &e2, 0);
	clk_at(&clk, SIM_MS / 2, submit_cb, &e3, 0);
	while (clk_step(&clk))
		;
	st = elv_cfq_stats(q.e);
	CHECK_EQ(d.n, 3);
	CHECK_EQ(d.t[2], 2 * SIM_MS);
	CHECK_EQ(st->idle_expired, 0);	/* only queue 2 idles at the very end */
	CHECK_EQ(st->coop_switches, 1);
	blkq_free(&q);
	clk_free(&clk);
}

/* deadline: ascending batch from the head, then the FIFO's oldest */
static void test_deadline_order(void)
{
	struct sim_params p;
	struct sim_clock clk;
	struct blkq q = { 0 };
	struct fakedev d = { .svc = SIM_MS };
	struct submit_ev e[4] = { { &q, 4 << 20, 0 }, { &q, 1 << 20, 1 },
				  { &q, 3 << 20, 2 }, { &q, 2 << 20, 3 } };
	int i;

	sim_params_default(&p);
	clk_init(&clk);
	blkq_init(&q, &clk, sim_elevator(SIM_SCHED_DEADLINE), &p, 4, 1, 512 << 10);
	fake_attach(&d, &q, &clk);
	for (i = 0; i < 4; i++)
		clk_at(&clk, 0, submit_cb, &e[i], 0);
	while (clk_step(&clk))
		;
	/*
	 * 4M starts alone at t=0; 1M, arriving next, goes to the empty
	 * dispatch list at once (no successor queued then); the next call
	 * takes the FIFO oldest 3M, which has no successor: then 2M
	 */
	CHECK_EQ(d.off[0], 4 << 20);
	CHECK_EQ(d.off[1], 1 << 20);
	CHECK_EQ(d.off[2], 3 << 20);
	CHECK_EQ(d.off[3], 2 << 20);
	blkq_free(&q);
	clk_free(&clk);
}

/*
 * The dispatch list (2.6.29 elevator.c __elv_next_request(), scsi_request_fn()
 * peeking before scsi_dev_queue_ready()): a disk with one slot serves 0 from
 * t=0 (1 ms each); 8M arrives at 0.1 ms while the list is empty and is moved
 * there at once; 1M and 2M arrive at 0.2 / 0.3 ms and wait in the
 * elevator.  CFQ: 0, 8M, then one round from 8M's end, the nearest behind
 * first: 2M, 1M (picked when the slot freed, it would be 0, 1M, 2M, 8M).
 * Deadline moves one request per call: 0, 8M, then the FIFO head 1M, then
 * its successor 2M.
 */
static void test_dispatch_list(void)
{
	static const uint64_t want[2][4] = { { 0, 8 << 20, 2 << 20, 1 << 20 },
					     { 0, 8 << 20, 1 << 20, 2 << 20 } };
	int k, i;

	for (k = 0; k < 2; k++) {
		struct sim_params p;
		struct sim_clock clk;
		struct blkq q = { 0 };
		struct fakedev d = { .svc = SIM_MS };
		struct submit_ev e[4] = { { &q, 0, 1 }, { &q, 8 << 20, 1 },
					  { &q, 1 << 20, 1 }, { &q, 2 << 20, 1 } };

		sim_params_default(&p);
		clk_init(&clk);
		blkq_init(&q, &clk, sim_elevator(k ? SIM_SCHED_DEADLINE : SIM_SCHED_CFQ), &p, 0, 1,
			  512 << 10);
		fake_attach(&d, &q, &clk);
		for (i = 0; i < 4; i++)
			clk_at(&clk, (sim_ns)i * SIM_MS / 10, submit_cb, &e[i], 0);
		while (clk_step(&clk))
			;
		CHECK_EQ(d.n, 4);
		for (i = 0; i < 4; i++)
			CHECK(d.off[i] == want[k][i], "%s: request %d at %" PRIu64 "K, expected %" PRIu64 "K",
			      k ? "deadline" : "cfq", i, d.off[i] >> 10, want[k][i] >> 10);
		blkq_free(&q);
		clk_free(&clk);
	}
}

/* ---- disk ----------------------------------------------------------- */

static void test_disk(void)
{
	struct sim_params p;
	struct disk d;
	sim_ns t1, t2;

	sim_params_default(&p);
	disk_init(&d, &p);
	/* 7200 rpm: 8333333 ns per turn; track = 90e6 * 8.333333 ms = 750000 bytes */
	CHECK_EQ(d.rot_ns, 8333333);
	CHECK_EQ(d.track_bytes, 749999);
	/*
	 * 128 KiB at 0 from t=0: 100 us command, no seek (same track), the
	 * head is at angle 100 us, sector 0 at angle 0: wait 8333333 - 100000,
	 * then 131072 B / 90 MB/s = 1456355 ns.
	 */
	t1 = disk_service(&d, 0, 0, 131072);
	CHECK_EQ(t1, 100000 + 8233333 + 1456355);
	/* the next 128 KiB right away: look-ahead is streaming, no rotation */
	t2 = disk_service(&d, t1, 131072, 131072);
	CHECK_EQ(t2, t1 + 1456355);
	/* seek curve: within a track 0, full stroke = max */
	CHECK_EQ(disk_seek_time(&d, 1000), 0);
	CHECK_EQ(disk_seek_time(&d, d.capacity), 16000 * SIM_US);

	/* without look-ahead, the same sequential request misses a turn */
	p.disk_prefetch_kb = 0;
	disk_init(&d, &p);
	t1 = disk_service(&d, 0, 0, 131072);
	t2 = disk_service(&d, t1, 131072, 131072);
	CHECK(t2 - t1 > 7 * SIM_MS, "sequential without look-ahead took %" PRId64 " ns", t2 - t1);
}

/* ---- link ----------------------------------------------------------- */

static void test_link(void)
{
	struct sim_params p;
	struct link l;
	sim_ns a, b;

	sim_params_default(&p);
	link_init(&l, &p);
	CHECK_EQ(link_cmd(&l, 1000), 1000 + 50000);
	/* 1 MiB at 117 MB/s = 8962188 ns on the wire, FIFO, + 50 us */
	a = link_data(&l, 0, 1 << 20);
	b = link_data(&l, 0, 1 << 20);
	CHECK_EQ(a, 8962188 + 50000);
	CHECK_EQ(b, 2 * 8962188 + 50000);
}

/*
 * A queueing (NCQ) drive picks the command it can finish first.  Noop on
 * the target, 64 KiB requests: X at 1 MiB starts at once on the idle drive;
 * then Y 512 KiB behind X and Z right after X are submitted.  Without NCQ
 * (disk_qdepth 1) the elevator hands them over in arrival order: Y, Z.
 * With NCQ both are in the drive when X ends; Z continues the media
 * stream, so it goes first and ends 64 KiB at the media rate after X:
 * 65536 / 90 MB/s = 728177 ns (Y would wait for its sector).
 */
static int ncq_n;
static uint64_t ncq_off[4];
static sim_ns ncq_t[4];

static void ncq_done(void *owner, const struct sim_req *r)
{
	struct target *t = owner;

	ncq_off[ncq_n] = r->off;
	ncq_t[ncq_n++] = t->clk->now;
}

static void ncq_run(unsigned int qdepth)
{
	struct sim_params p;
	struct sim_clock clk;
	struct link l;
	struct target t;
	const uint64_t x = 1 << 20;

	sim_params_default(&p);
	p.sched = SIM_SCHED_NOOP;
	p.disk_qdepth = qdepth;
	clk_init(&clk);
	link_init(&l, &p);
	CHECK(!target_init(&t, &clk, &p, &l, 64 << 20), "target_init");
	t.q.done = ncq_done;
	ncq_n = 0;
	blkq_submit(&t.q, x, 65536, 0);
	blkq_submit(&t.q, x - (512 << 10), 65536, 0);
	blkq_submit(&t.q, x + 65536, 65536, 0);
	while (clk_step(&clk))
		;
	CHECK_EQ(ncq_n, 3);
	CHECK_EQ(ncq_off[0], x);
	target_free(&t);
	clk_free(&clk);
}

static void test_disk_ncq(void)
{
	ncq_run(1);
	CHECK_EQ(ncq_off[1], (1 << 20) - (512 << 10));
	CHECK_EQ(ncq_off[2], (1 << 20) + 65536);
	ncq_run(31);
	CHECK_EQ(ncq_off[1], (1 << 20) + 65536);
	CHECK_EQ(ncq_t[1] - ncq_t[0], 728177);
	CHECK_EQ(ncq_off[2], (1 << 20) - (512 << 10));
}

/* ---- target hand-offs and determinism ------------------------------- */

static void run_sweep(const struct sim_params *p, uint64_t size, uint64_t bs, char *out, size_t n)
{
	char err[128];
	struct sim *s = sim_new(p, size, err, sizeof(err));
	FILE *f = fmemopen(out, n, "w");
	uint64_t off;
	sim_ns t;
	void *ck;

	CHECK(s != NULL, "%s", err);
	if (!s || !f)
		return;
	for (off = 0; off < size; off += bs) {
		sim_submit(s, off, bs, (void *)(uintptr_t)off);
		CHECK(sim_reap(s, &ck, &t), "reap");
		CHECK_EQ((uintptr_t)ck, off);
	}
	sim_report(s, f);
	fclose(f);
	sim_free(s);
}

static uint64_t field(const char *rep, const char *key)
{
	const char *p = strstr(rep, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : ~0ULL;
}

static void test_target_handoff(void)
{
	struct sim_params p;
	char rep[2048];

	/* ordered execution with 2 threads: every command after the first is
	 * woken on the other thread (the one that just finished goes to sleep) */
	sim_params_default(&p);
	p.threads = 2;
	p.order = SIM_ORDER_ORDERED;
	p.client_copy_mbps = 1000000;	/* no unplug by the timer */
	run_sweep(&p, 4 << 20, 4 << 20, rep, sizeof(rep));
	/*
	 * 4 MiB in one read: 256 KiB commands (two 128 KiB readahead windows
	 * merge in the plugged queue, see test_client_plug) = 16 commands,
	 * each a hand-off
	 */
	CHECK_EQ(field(rep, "iscsi_cmds="), 16);
	CHECK_EQ(field(rep, "tgt_handoffs="), 16);
	/*
	 * one thread: it takes the next command itself when one is waiting;
	 * it is only woken when it had gone to sleep on an empty queue.
	 * read_ahead_kb 2048: each 2 MiB window is 4 commands of 512 KiB,
	 * sent together (the 4th queued request unplugs): 8 commands
	 */
	p.threads = 1;
	p.client_ra_kb = 2048;
	run_sweep(&p, 4 << 20, 4 << 20, rep, sizeof(rep));
	CHECK(field(rep, "tgt_handoffs=") < 8, "%s", rep);
	CHECK_EQ(field(rep, "iscsi_cmds="), 8);
}

/*
 * Binding a command when the thread runs (the default, as
 * scst_do_job_active() pops the shared list head when a thread runs):
 * 5 threads, the initiator's 2 MiB readahead in 64 KiB commands (up to 16
 * in flight), 1 ms of scheduling noise.  Bound when it runs, the first
 * thread to run takes the oldest command, so commands start strictly in
 * arrival order (out of order = 0) and some are taken by another thread
 * than the one woken for them (rebinds > 0); bound at wake-up
 * (bind_at_run 0), a thread that runs late starts its command after a
 * later one (out of order > 0, no rebinds).
 */
static void test_bind_at_run(void)
{
	struct sim_params p;
	char rep[2048];

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.client_ra_kb = 2048;
	p.client_max_sectors_kb = 64;
	run_sweep(&p, 16 << 20, 1 << 20, rep, sizeof(rep));
	CHECK_EQ(field(rep, "tgt_out_of_order="), 0);
	CHECK(field(rep, "tgt_rebinds=") > 0, "%s", rep);
	p.bind_at_run = 0;
	run_sweep(&p, 16 << 20, 1 << 20, rep, sizeof(rep));
	CHECK(field(rep, "tgt_out_of_order=") > 0, "%s", rep);
	CHECK_EQ(field(rep, "tgt_rebinds="), 0);
}

/*
 * Which sleeping SCST thread a command wakes.  scst_cmd_thread() sleeps
 * with add_wait_queue_exclusive_head() and wake_up() wakes the first
 * exclusive waiter: the thread that went to sleep last.  One 4 MiB read
 * with read_ahead_kb 128 sends 16 commands of 256 KiB one at a time (see
 * test_client_plug), no scheduling noise: at start the threads slept in
 * the order 0..4, so thread 4 takes the first command, sleeps again at the
 * head of the queue and takes every later one (16, the others 0).  Waking
 * the longest sleeper instead (wake_lifo 0) rotates: 0,1,2,3,4,0,... = 4,
 * 3, 3, 3, 3.
 */
static void wake_run(int lifo, uint64_t cmds[5])	/* lifo -1: the default */
{
	struct sim_params p;
	char err[128];
	struct sim *s;
	sim_ns t;
	void *ck;
	int i;

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.jitter_us = 0;
	p.client_copy_mbps = 1000000;	/* no unplug by the timer */
	if (lifo >= 0)
		p.wake_lifo = (unsigned int)lifo;
	s = sim_new(&p, 4 << 20, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	sim_submit(s, 0, 4 << 20, NULL);
	CHECK(sim_reap(s, &ck, &t), "reap");
	for (i = 0; i < 5; i++)
		cmds[i] = sim_target(s)->th[i].cmds;
	sim_free(s);
}

static void test_wake_order(void)
{
	uint64_t c[5];

	wake_run(-1, c);
	CHECK_EQ(c[0], 0);
	CHECK_EQ(c[3], 0);
	CHECK_EQ(c[4], 16);
	wake_run(0, c);
	CHECK_EQ(c[0], 4);
	CHECK_EQ(c[1], 3);
	CHECK_EQ(c[4], 3);
}

/*
 * The SCST files' readahead window is the read_ahead_kb they were opened
 * with (file_ra_state_init() at open), not the device's current one.
 * One 512 KiB command at offset 0 on a fresh target, device read_ahead_kb
 * 2048:
 *  - files opened after the setting (ra_pages 512): get_init_ra_size(128,
 *    512) = 256 pages, async_size 128 (marker on page 128, beyond the
 *    command): 256 pages read in one window;
 *  - files opened at 128 (ra_pages 32): the 128-page read is oversize, so
 *    initial window 32 pages with the marker on its first page; each marker
 *    pushes a 32-page window: [0,32) [32,64) [64,96) [96,128) [128,160),
 *    the last one's marker (page 128) is never read: 160 pages, 5 windows.
 */
static int file_ra_responses;
static bool file_ra_whole_cmd;	/* one readv() segment per command */

static void file_ra_respond(void *ctx, void *cookie, sim_ns when, uint64_t cmd_limit)
{
	(void)ctx;
	(void)cookie;
	(void)when;
	(void)cmd_limit;
	file_ra_responses++;
}

static void file_ra_run(unsigned int file_ra_kb, uint64_t *pages, uint64_t *windows,
			uint32_t *ra_pages)
{
	struct sim_params p;
	struct sim_clock clk;
	struct link l;
	struct target t;

	sim_params_default(&p);
	p.server_ra_kb = 2048;
	p.server_file_ra_kb = file_ra_kb;
	if (file_ra_whole_cmd)
		p.target_iov_kb = 0;
	p.jitter_us = 0;
	clk_init(&clk);
	link_init(&l, &p);
	CHECK(!target_init(&t, &clk, &p, &l, 64 << 20), "target_init");
	t.respond = file_ra_respond;
	file_ra_responses = 0;
	target_cmd(&t, 0, 512 << 10, NULL);
	while (clk_step(&clk))
		;
	CHECK_EQ(file_ra_responses, 1);
	*pages = t.rc.ra_pages_read;
	*windows = t.rc.window_reads;
	*ra_pages = t.th[0].ra.ra_pages;
	target_free(&t);
	clk_free(&clk);
}

/*
 * By default the SCST files keep the window they were opened with at the
 * boot default (128 KiB = 32 pages) when read_ahead_kb is raised to 2048
 * with the session up: 32 pages, not 512.
 */
static void test_file_ra_default(void)
{
	struct sim_params p;
	struct sim_clock clk;
	struct link l;
	struct target t;

	sim_params_default(&p);
	p.server_ra_kb = 2048;
	clk_init(&clk);
	link_init(&l, &p);
	CHECK(!target_init(&t, &clk, &p, &l, 64 << 20), "target_init");
	CHECK_EQ(t.th[0].ra.ra_pages, 32);
	CHECK_EQ(t.shared_ra.ra_pages, 32);
	target_free(&t);
	clk_free(&clk);
}

static void test_file_ra_at_open(void)
{
	uint64_t pages, windows;
	uint32_t ra_pages;

	file_ra_whole_cmd = true;
	file_ra_run(0, &pages, &windows, &ra_pages);
	CHECK_EQ(ra_pages, 512);
	CHECK_EQ(pages, 256);
	CHECK_EQ(windows, 1);
	file_ra_run(128, &pages, &windows, &ra_pages);
	CHECK_EQ(ra_pages, 32);
	CHECK_EQ(pages, 160);
	CHECK_EQ(windows, 5);
}

/*
 * SCST's buffers are single pages (iscsi-scst sets no_clustering, so
 * scst_alloc_add_tgt_dev() takes the non-clustered sgv pool), vdisk_exec_read()
 * builds one iovec per buffer, and 2.6.29 generic_file_aio_read() calls
 * do_generic_file_read() per iovec: readahead sees 1-page requests.  One
 * 512 KiB command (pages 0..127) at offset 0, device read_ahead_kb 2048:
 *  - ra_pages 512: page 0 (prev_pos -1: sequential) opens
 *    get_init_ra_size(1, 512) = 4 pages, async 3, marker on page 1; the
 *    markers then push windows of get_next_ra_size() 16, 64, 128, 256:
 *    [0,4) [4,20) [20,84) [84,212) [212,468) = 468 pages in 5 windows;
 *  - ra_pages 32 (opened at 128): 4, 8, 16, 32, 32, 32, 32, 32 pages:
 *    [0,4) [4,12) [12,28) [28,60) [60,92) [92,124) [124,156) [156,188)
 *    (page 124's marker is inside the command) = 188 pages in 8 windows.
 */
static void test_file_ra_per_page(void)
{
	uint64_t pages, windows;
	uint32_t ra_pages;

	file_ra_whole_cmd = false;	/* the default: a page per iovec */
	file_ra_run(0, &pages, &windows, &ra_pages);
	CHECK_EQ(pages, 468);
	CHECK_EQ(windows, 5);
	file_ra_run(128, &pages, &windows, &ra_pages);
	CHECK_EQ(ra_pages, 32);
	CHECK_EQ(pages, 188);
	CHECK_EQ(windows, 8);
}

/*
 * 2.6.26 plugging on the initiator.  One 4 MiB read(2) of a 4 MiB file, read_ahead_kb
 * 128 (32 pages): the miss at page 0 opens [0,32) with its marker on page
 * 0; the request goes into an empty queue, which plugs (1 request, below
 * unplug_thresh 4).  do_generic_file_read() then finds page 0 with the
 * marker and reads [32,64) ahead before it waits on the page: that request
 * back-merges into the plugged one, and lock_page() -> sync_page() unplugs
 * a 256 KiB command.  Every later pair of windows does the same (marker on
 * the first page of the window just queued), up to [960,1024); the marker
 * on page 992 reads nothing past EOF.  4 MiB = 16 commands of 256 KiB,
 * 16 plugs, each ended by dd's wait, none by the timer (copy_to_user made
 * ~free here: with it, dd spends 64 us on the 32 pages before the marker,
 * and when a 4 ms tick falls in them the timer sends one window alone).
 */
static void test_client_plug(void)
{
	struct sim_params p;
	char rep[2048];

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.client_copy_mbps = 1000000;	/* dd gets to the next window at once */
	run_sweep(&p, 4 << 20, 4 << 20, rep, sizeof(rep));
	CHECK_EQ(field(rep, "iscsi_cmds="), 16);
	CHECK(strstr(rep, " iscsi_avg_kb=256.0 ") != NULL, "%s", rep);
	CHECK_EQ(field(rep, "cli_plugs="), 16);
	CHECK_EQ(field(rep, "cli_timer_unplugs="), 0);
}

/*
 * The reader copies page by page (file_read_actor() per page), so it
 * reaches a marker only after copying the pages before it.  Same read as
 * test_client_plug with copy_to_user at 16 MB/s: the 32 pages before a
 * marker take 8.2 ms, longer than the unplug timer (next 4 ms tick), so
 * every window read ahead at a marker is sent alone by the timer before dd
 * gets to it.  [0,64) goes out as one command (sync window + the async one
 * read at page 0 before dd waits); [64,96) ... [992,1024) are 30 windows
 * of 128 KiB, each a plug ended by the timer: 31 commands, 31 plugs, 30
 * timer unplugs.
 */
static void test_client_copy_paced(void)
{
	struct sim_params p;
	char rep[2048];

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.client_copy_mbps = 16;
	run_sweep(&p, 4 << 20, 4 << 20, rep, sizeof(rep));
	CHECK_EQ(field(rep, "iscsi_cmds="), 31);
	CHECK_EQ(field(rep, "cli_plugs="), 31);
	CHECK_EQ(field(rep, "cli_timer_unplugs="), 30);
}

/*
 * The iSCSI CmdSN window and 2.6.26's blocked host.  One 192 KiB read of a
 * 192 KiB file, initiator read_ahead_kb 192 and 64 KiB commands:
 * get_init_ra_size(48, 48) = 48 pages, one window [0, 48) = 3 commands.
 * QueuedCommands 2: commands 0 and 1 go out, command 2 is refused (window
 * closed; MaxCmdSN opens to CmdSN 2 with command 1's response).
 *  - host_blocked 0: command 2 goes out with command 1's completion, at T1;
 *  - host_blocked 3: the host stays starved until command 1 completes
 *    (zero depth at T1, run 1: 3 -> 2), dd then waits on page 32 (sync_page
 *    run 2: 2 -> 1), the unplug timer (unplug_delay 3 ms = 1 jiffy at
 *    HZ 250) fires at the next 4 ms tick (run 3: 1 -> 0, sends):
 *    unblocked at (T1 / 4 ms + 1) * 4 ms, 3 runs;
 *  - host_blocked 7: two runs at T1, five ticks: (T1 / 4 ms + 5) * 4 ms.
 * The refusal happens at the same time in all three runs, so the time
 * blocked differs by exactly the unblocking delay.
 */
static void window_run(unsigned int host_blocked, struct iscsi_win_stats *w, uint64_t *cmds)
{
	struct sim_params p;
	char err[128];
	struct sim *s;
	sim_ns t;
	void *ck;

	sim_params_default(&p);
	p.jitter_us = 0;
	p.client_ra_kb = 192;
	p.client_max_sectors_kb = 64;
	p.target_queued_cmds = 2;
	p.client_host_blocked = host_blocked;
	s = sim_new(&p, 192 << 10, err, sizeof(err));
	CHECK(s != NULL, "%s", err);
	if (!s)
		return;
	sim_submit(s, 0, 192 << 10, NULL);
	CHECK(sim_reap(s, &ck, &t), "reap");
	*w = sim_client(s)->win;
	*cmds = sim_client(s)->cmdsn;
	sim_free(s);
}

static void test_cmdsn_window(void)
{
	struct iscsi_win_stats w0, w3, w7;
	const sim_ns jiffy = 4 * SIM_MS;
	uint64_t cmds;
	sim_ns t1;

	window_run(0, &w0, &cmds);
	CHECK_EQ(cmds, 3);
	CHECK(w0.closed >= 1, "closed %" PRIu64, w0.closed);
	CHECK_EQ(w0.blocked_runs, 0);
	window_run(3, &w3, &cmds);
	CHECK_EQ(cmds, 3);
	CHECK_EQ(w3.closed, 1);
	CHECK_EQ(w3.blocked_runs, 3);
	t1 = w3.drained_at;
	CHECK(t1 > 0, "drained at %" PRId64, t1);
	CHECK_EQ(w3.unblocked_at, (t1 / jiffy + 1) * jiffy);
	CHECK_EQ(w3.blocked_ns - w0.blocked_ns, w3.unblocked_at - t1);
	window_run(7, &w7, &cmds);
	CHECK_EQ(w7.blocked_runs, 7);
	CHECK_EQ(w7.drained_at, t1);
	CHECK_EQ(w7.unblocked_at, (t1 / jiffy + 5) * jiffy);
	CHECK_EQ(w7.blocked_ns - w0.blocked_ns, w7.unblocked_at - t1);
}

/*
 * At the defaults (QueuedCommands 32, queue_depth 32) the window never
 * closes under CFQ on the initiator: a lone CFQ queue has at most
 * 4 x quantum = 16 requests dispatched, so at most 16 commands are
 * outstanding, and the run is identical to one without a window.  With
 * deadline on the initiator, or CFQ without the lone-queue cap, all 32
 * slots fill (a 2 MiB window = 32 commands of 64 KiB) and it closes.
 */
static void test_cmdsn_window_defaults(void)
{
	struct sim_params p;
	char a[2048], b[2048];

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.client_ra_kb = 2048;
	p.client_max_sectors_kb = 64;
	run_sweep(&p, 16 << 20, 1 << 20, a, sizeof(a));
	CHECK_EQ(field(a, "cli_window_closed="), 0);
	p.target_queued_cmds = 0;
	run_sweep(&p, 16 << 20, 1 << 20, b, sizeof(b));
	CHECK(!strcmp(a, b), "window at the defaults changes the run:\n%s%s", a, b);
	p.target_queued_cmds = 32;
	p.client_sched = SIM_SCHED_DEADLINE;
	run_sweep(&p, 16 << 20, 1 << 20, a, sizeof(a));
	CHECK(field(a, "cli_window_closed=") > 0, "%s", a);
	CHECK(field(a, "cli_blocked_runs=") > 0, "%s", a);
	p.client_sched = SIM_SCHED_CFQ;
	p.client_cfq_lone_mult = 0;
	run_sweep(&p, 16 << 20, 1 << 20, a, sizeof(a));
	CHECK(field(a, "cli_window_closed=") > 0, "%s", a);
}

static void test_determinism(void)
{
	struct sim_params p;
	char a[2048], b[2048];

	sim_params_default(&p);
	p.jitter_us = 300;
	run_sweep(&p, 32 << 20, 65536, a, sizeof(a));
	run_sweep(&p, 32 << 20, 65536, b, sizeof(b));
	CHECK(!strcmp(a, b), "two runs differ:\n%s%s", a, b);
	p.seed = 2;
	run_sweep(&p, 32 << 20, 65536, b, sizeof(b));
	CHECK(strcmp(a, b), "seed has no effect");
}

/* The io_context patch effect end to end: shared beats private by >20%. */
static void test_ioctx_effect(void)
{
	struct sim_params p;
	char a[2048], b[2048];

	sim_params_default(&p);
	run_sweep(&p, 64 << 20, 1 << 20, a, sizeof(a));
	p.ioctx_shared = 1;
	run_sweep(&p, 64 << 20, 1 << 20, b, sizeof(b));
	CHECK(field(b, "model_time_ns=") * 12 < field(a, "model_time_ns=") * 10,
	      "shared %s private %s", b, a);
	CHECK_EQ(field(b, "cfq_queues="), 1);
	/* private: a queue per SCST thread that issued I/O (more than one) */
	CHECK(field(a, "cfq_queues=") > 1, "%s", a);
}

int main(void)
{
	test_clock();
	test_readahead_classic();
	test_readahead_interleaved();
	test_readahead_marker_context();
	test_congestion();
	test_readahead_congested();
	test_cfq_idle();
	test_cfq_lone_cap();
	test_cfq_idle_hit();
	test_cfq_coop();
	test_deadline_order();
	test_dispatch_list();
	test_disk();
	test_disk_ncq();
	test_link();
	test_target_handoff();
	test_bind_at_run();
	test_wake_order();
	test_file_ra_default();
	test_file_ra_at_open();
	test_file_ra_per_page();
	test_client_plug();
	test_client_copy_paced();
	test_cmdsn_window();
	test_cmdsn_window_defaults();
	test_determinism();
	test_ioctx_effect();
	if (failures) {
		printf("%d check(s) failed\n", failures);
		return 1;
	}
	printf("all sim unit tests passed\n");
	return 0;
}
