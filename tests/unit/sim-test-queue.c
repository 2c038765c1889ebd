// SPDX-License-Identifier: GPL-2.0-only
/*
 * The block queue and its elevators: congestion, readahead under
 * congestion, CFQ idling / lone-queue cap / io_context sharing, deadline
 * order, the dispatch list.
 * (tests/unit/sim-test.h; run by tests/unit/sim-unit.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sim-test.h"

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
 * 2.6.31's close cooperator (sim_cfq_coop=1): in the private scene of
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

/*
 * CFQ lets a request of the queue it idles for go at once, even on a plugged
 * queue (2.6.26/2.6.29 cfq_rq_enqueued() -> blk_start_queueing(), which
 * unplugs).  Plugging as 2.6.29 blk_queue_make_request() (HZ 250: unplug
 * timer 1 jiffy = 4 ms after the tick, unplug_thresh 4), device 1 ms:
 *  - R1 (64 KiB at 0) at t = 0 plugs the empty queue; CFQ has no active
 *    queue, nothing unplugs it until the timer at 4 ms: served 4..5 ms;
 *  - its completion leaves the queue empty with nothing in the driver:
 *    CFQ idles on it (slice_idle 8 ms, until 13 ms);
 *  - R2 (64 KiB at 64 KiB, same io_context) at t = 6 ms plugs the queue
 *    again (timer at 8 ms) but ends the idle: dispatched at 6 ms, not at
 *    the timer's 8 ms.
 */
static void test_cfq_start_queueing(void)
{
	struct sim_params p;
	struct sim_clock clk;
	struct blkq q = { 0 };
	struct fakedev d = { .svc = SIM_MS };
	struct submit_ev e1 = { &q, 0, 1 }, e2 = { &q, 65536, 1 };

	sim_params_default(&p);
	clk_init(&clk);
	blkq_init(&q, &clk, sim_elevator(SIM_SCHED_CFQ), &p, 4, 1, 512 << 10);
	blkq_set_plugging(&q, 250, 3, 4);
	fake_attach(&d, &q, &clk);
	clk_at(&clk, 0, submit_cb, &e1, 0);
	clk_at(&clk, 6 * SIM_MS, submit_cb, &e2, 0);
	while (clk_step(&clk))
		;
	CHECK_EQ(d.n, 2);
	CHECK_EQ(d.t[0], 4 * SIM_MS);
	CHECK_EQ(d.t[1], 6 * SIM_MS);
	CHECK_EQ(q.timer_unplugs, 1);
	CHECK_EQ(elv_cfq_stats(q.e)->idle_hits, 1);
	blkq_free(&q);
	clk_free(&clk);
}

/*
 * 2.6.26's CFQ (the initiator's) idles on an empty active queue even with
 * requests in the driver; 2.6.29's does not (cfq_arm_slice_timer(): "still
 * requests with the driver, don't idle").  One io_context, plugging on
 * (HZ 250), a device with 2 slots and 1 ms per request:
 *  - R1 (0) at t = 0 and R2 (1 MiB) at 0.5 ms, each unplugged at once by
 *    its reader: served 0..1 and 0.5..1.5 ms;
 *  - R1's completion at 1 ms empties the queue with R2 in the driver:
 *    2.6.26 idles, 2.6.29 does not;
 *  - R3 (2 MiB) at 1.2 ms plugs the empty queue: 2.6.26 ends the idle and
 *    runs the queue (blk_start_queueing()): dispatched at 1.2 ms; 2.6.29
 *    leaves it plugged until R2's completion runs the queue: 1.5 ms.
 */
struct unplug_ev {
	struct blkq *q;
	uint64_t off;
};

static void submit_unplug_cb(void *ctx, uint64_t arg)
{
	struct unplug_ev *e = ctx;

	(void)arg;
	blkq_submit(e->q, e->off, 65536, 1);
	blkq_unplug(e->q);
}

static void test_cfq_idle_in_flight(void)
{
	int v;

	for (v = 0; v <= 1; v++) {
		struct sim_params p;
		struct sim_clock clk;
		struct blkq q = { 0 };
		struct fakedev d = { .svc = SIM_MS };
		struct unplug_ev e1 = { &q, 0 }, e2 = { &q, 1 << 20 };
		struct submit_ev e3 = { &q, 2 << 20, 1 };

		sim_params_default(&p);
		clk_init(&clk);
		blkq_init(&q, &clk, sim_elevator(SIM_SCHED_CFQ), &p, 4, 2, 512 << 10);
		blkq_set_plugging(&q, 250, 3, 4);
		elv_cfq_set_idle_in_flight(q.e, v);
		fake_attach(&d, &q, &clk);
		clk_at(&clk, 0, submit_unplug_cb, &e1, 0);
		clk_at(&clk, SIM_MS / 2, submit_unplug_cb, &e2, 0);
		clk_at(&clk, 1200 * SIM_US, submit_cb, &e3, 0);
		while (clk_step(&clk))
			;
		CHECK_EQ(d.n, 3);
		CHECK_EQ(d.t[1], SIM_MS / 2);
		CHECK_EQ(d.off[2], 2 << 20);
		CHECK_EQ(d.t[2], v ? 1200 * SIM_US : 1500 * SIM_US);
		CHECK_EQ(q.timer_unplugs, 0);
		blkq_free(&q);
		clk_free(&clk);
	}
}

void sim_test_queue(void)
{
	test_congestion();
	test_cfq_idle();
	test_cfq_lone_cap();
	test_cfq_idle_hit();
	test_cfq_coop();
	test_deadline_order();
	test_dispatch_list();
	test_cfq_start_queueing();
	test_cfq_idle_in_flight();
}
