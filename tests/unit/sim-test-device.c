// SPDX-License-Identifier: GPL-2.0-only
/*
 * The disk (service time, NCQ) and the link.
 * (tests/unit/sim-test.h; run by tests/unit/sim-unit.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sim-test.h"

/* ---- disk ----------------------------------------------------------- */

/*
 * The defaults with the drive this file's figures are worked out for
 * (90 MB/s media, 100 us per command, 1 MiB look-ahead, 2 MiB cache, seeks
 * 800 us .. 16 ms, the platter's angle from model time), so that a change
 * of the drive's defaults does not change what they check.
 */
static void params_test_drive(struct sim_params *p)
{
	sim_params_default(p);
	p->disk_media_mbps = 90;
	p->disk_cmd_us = 100;
	p->disk_prefetch_kb = 1024;
	p->disk_cache_kb = 2048;
	p->disk_seek_min_us = 800;
	p->disk_seek_max_us = 16000;
	p->disk_rot_random = 0;
}

static void test_disk(void)
{
	struct sim_params p;
	struct disk d;
	sim_ns t1, t2;

	params_test_drive(&p);
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

/*
 * The spindle as a clock of its own (disk_rot_random, seed 1): the drive's
 * stream is splitmix64 from 1 x 0x9E3779B97F4A7C15 ^ (1 << 32); its first
 * draws are 0.29334861... and 0.46654515... of a turn: 2444571 and
 * 3887876 ns of 8333333.  The first request (no position yet) waits the
 * first draw instead of 8233333.  Its look-ahead (1 MiB at 90 MB/s:
 * 11650844 ns) stops at 1179648; a request there 1 ms after the stop keeps
 * the phase: the sector passed the head 1 ms ago, wait 8333333 - 1000000,
 * + 17 ns: the track holds 749999 bytes, not 750000, so 1179648 sits
 * 1179648 / 749999 - 1179648 / 750000 turns (17 ns) further round than
 * the media rate alone puts it.  A seek draws the second.
 */
static void test_disk_rot_random(void)
{
	struct sim_params p;
	struct disk d;
	sim_ns t1, stopped, now, t2, t3, w;
	const uint64_t far = 100 << 20, head = 1179648 + 65536 + (1 << 20);

	params_test_drive(&p);
	p.disk_rot_random = 1;
	p.seed = 1;
	disk_init(&d, &p);
	t1 = disk_service(&d, 0, 0, 131072);
	CHECK_EQ(t1, 100000 + 2444571 + 1456355);
	stopped = t1 + 11650844;
	now = stopped + 1000000 - 100000;
	t2 = disk_service(&d, now, 1179648, 65536);
	w = t2 - now - 100000 - 728177;
	CHECK_EQ(w, 7333333 + 17);
	CHECK_EQ(d.st.rot_drawn, 1);
	now = t2 + SIM_S;
	t3 = disk_service(&d, now, far, 65536);
	CHECK_EQ(t3, now + 100000 + disk_seek_time(&d, far - head) + 3887876 + 728177);
	CHECK_EQ(d.st.rot_drawn, 2);
	CHECK_EQ(d.st.rot_waits, 3);
}

/* ---- link ----------------------------------------------------------- */

static void test_link(void)
{
	struct sim_params p;
	struct link l;
	sim_ns a, b;

	sim_params_default(&p);
	/* the link this test's figures are worked out for (not the defaults) */
	p.link_latency_us = 70;
	p.link_mbps = 117;
	link_init(&l, &p);
	CHECK_EQ(link_cmd(&l, 1000), 1000 + 70000);
	/* 1 MiB at 117 MB/s = 8962188 ns on the wire, FIFO, + 70 us */
	a = link_data(&l, 0, 1 << 20);
	b = link_data(&l, 0, 1 << 20);
	CHECK_EQ(a, 8962188 + 70000);
	CHECK_EQ(b, 2 * 8962188 + 70000);
	CHECK_EQ(l.last_start, 8962188);	/* the second burst waits for the first */
}

/*
 * A queueing (NCQ) drive picks the command it can finish first.  Noop on
 * the target, 64 KiB requests: X at 1 MiB starts at once on the idle drive
 * (the queue it plugged is run by its reader sleeping on it);
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

	params_test_drive(&p);	/* 64 KiB at 90 MB/s = 728177 ns */
	p.sched = SIM_SCHED_NOOP;
	p.disk_qdepth = qdepth;
	clk_init(&clk);
	link_init(&l, &p);
	CHECK(!target_init(&t, &clk, &p, &l, 64 << 20), "target_init");
	t.q.done = ncq_done;
	ncq_n = 0;
	blkq_submit(&t.q, x, 65536, 0);
	blkq_unplug(&t.q);	/* its reader sleeps on it: sync_page() */
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

void sim_test_device(void)
{
	test_disk();
	test_disk_ncq();
	test_disk_rot_random();
	test_link();
}
