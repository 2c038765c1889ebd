// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SCST target: thread hand-offs, binding at run time, wake-up order,
 * the file readahead of vdisk.
 * (tests/unit/sim-test.h; run by tests/unit/sim-unit.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sim-test.h"

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
	p.client_sched = SIM_SCHED_NOOP;	/* no CFQ idling sends a window alone */
	run_sweep(&p, 4 << 20, 4 << 20, rep, sizeof(rep));
	/*
	 * 4 MiB in one read: 256 KiB commands (two 128 KiB readahead windows
	 * merge in the plugged queue, see test_client_plug's noop case) = 16
	 * commands, each a hand-off
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
 * with read_ahead_kb 128 and noop on the initiator sends 16 commands of
 * 256 KiB one at a time (see test_client_plug), no scheduling noise: at start the threads slept in
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
	p.client_sched = SIM_SCHED_NOOP;
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
 * Scheduling noise on wake-ups only (jitter_wake_only 1): one thread, the
 * initiator's 2 MiB readahead in 512 KiB commands (4 per window, sent
 * together): the thread is woken for the first command of a window and
 * takes the other three from the list without sleeping, so only the
 * hand-offs draw noise.  Per command (0, the default): every command does.
 */
static void test_noise_on_wake(void)
{
	struct sim_params p;
	char rep[2048];

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.threads = 1;
	p.client_ra_kb = 2048;
	p.jitter_wake_only = 1;
	run_sweep(&p, 16 << 20, 1 << 20, rep, sizeof(rep));
	CHECK_EQ(field(rep, "iscsi_cmds="), 32);
	CHECK_EQ(field(rep, "tgt_noise_draws="), field(rep, "tgt_handoffs="));
	CHECK(field(rep, "tgt_handoffs=") < 32, "%s", rep);
	p.jitter_wake_only = 0;
	run_sweep(&p, 16 << 20, 1 << 20, rep, sizeof(rep));
	CHECK_EQ(field(rep, "tgt_noise_draws="), 32);
}

/*
 * jitter_exp: the SCST threads' noise is exponential of mean jitter_us / 2,
 * from its own stream (seed 1: splitmix64 from 1 x 0x9E3779B97F4A7C15 ^
 * (2 << 32)), whose first draws are u = 0.016292... and 0.060054...:
 * -ln(1 - u) x 500 us = 8213 and 30966 ns at jitter_us 1000.  At 1050 the
 * same draws come 5 % longer (8623), not new ones; the drive's stream
 * (key 1) starts with 0.293348... whatever the noise drew.  In a run the
 * noise is drawn per command as before, from the new stream (20 ms of
 * noise, so that it shows past the disk).
 */
static void test_noise_exp(void)
{
	struct sim_params p;
	struct sim_rng noise, drive;
	char rep[2048];
	uint64_t t_uniform;

	sim_rng_init(&noise, 1, SIM_RNG_NOISE);
	CHECK_EQ(sim_rng_exp(&noise, 500000), 8213);
	CHECK_EQ(sim_rng_exp(&noise, 500000), 30966);
	sim_rng_init(&noise, 1, SIM_RNG_NOISE);
	CHECK_EQ(sim_rng_exp(&noise, 525000), 8623);
	sim_rng_init(&drive, 1, SIM_RNG_DISK);
	CHECK_EQ(sim_rng_below(&drive, 8333333), 2444571);

	sim_params_default(&p);
	p.ioctx_shared = 1;
	p.threads = 1;
	p.client_ra_kb = 2048;
	p.jitter_us = 20000;
	p.jitter_exp = 0;
	run_sweep(&p, 16 << 20, 1 << 20, rep, sizeof(rep));
	t_uniform = field(rep, "model_time_ns=");
	p.jitter_exp = 1;
	run_sweep(&p, 16 << 20, 1 << 20, rep, sizeof(rep));
	CHECK_EQ(field(rep, "tgt_noise_draws="), 32);
	CHECK(field(rep, "model_time_ns=") != t_uniform, "%s", rep);
}

/*
 * The target's queue plugs (2.6.29 __make_request()), and SCST's
 * readahead-2.6.29.patch runs it after an async readahead whose marker page
 * is up to date.  One thread, no noise, deadline (no CFQ idling to unplug
 * it), classic readahead with 32-page windows, a page per iovec:
 *  - command 1, pages [0,32) at t = 0: windows [0,4) (marker 1), [4,12),
 *    [12,28), [28,60), [60,92): each one's reader sleeps on a page, which
 *    unplugs the queue (sync_page()); the marker is left on page 60;
 *  - command 2, pages [60,92) at t = 100 ms, all cached: the thread runs at
 *    100 ms + hand-off 50 us + 20 us; page 60's marker pushes window
 *    [92,124) and the thread does not sleep.  With the patch the window
 *    goes to the disk at once; without it, it waits in the plugged queue
 *    for the unplug timer, the next tick + 1 jiffy = 104 ms at HZ 250;
 *    never plugged (sim_server_unplug_ms 0) it goes at once too.
 * Observed: when the last request reaches the disk.
 */
static int plug_responses;
static sim_ns plug_resp_at[2], plug_last_start;
static struct sim_clock *plug_clk;
static void (*plug_disk_start)(void *dev, struct sim_req *r);

static void plug_start(void *dev, struct sim_req *r)
{
	plug_last_start = plug_clk->now;
	plug_disk_start(dev, r);
}

static void plug_respond(void *ctx, void *cookie, sim_ns when, uint64_t cmd_limit)
{
	(void)ctx;
	(void)cookie;
	(void)cmd_limit;
	if (plug_responses < 2)
		plug_resp_at[plug_responses] = when;
	plug_responses++;
}

static uint32_t plug_cmd2_page = 60;
static const char *plug_copy_paced = "1";

static void plug_cmd2(void *ctx, uint64_t arg)
{
	(void)arg;
	target_cmd(ctx, (uint64_t)plug_cmd2_page << 12, 128 << 10, NULL);
}

static sim_ns plug_run(const char *unplug_ms, const char *ra_unplug, uint64_t *timer_unplugs)
{
	struct sim_params p;
	struct sim_clock clk;
	struct link l;
	struct target t;
	char err[128];

	sim_params_default(&p);
	p.threads = 1;
	p.jitter_us = 0;
	/* the thread runs 20 + 50 us after a command arrives, copies at 2000 MB/s */
	p.target_cmd_us = 20;
	p.handoff_us = 50;
	p.target_copy_mbps = 2000;
	CHECK(!sim_params_set(&p, "sched", "deadline", err, sizeof(err)), "%s", err);
	CHECK(!sim_params_set(&p, "ra", "classic", err, sizeof(err)), "%s", err);
	CHECK(!sim_params_set(&p, "server_unplug_ms", unplug_ms, err, sizeof(err)), "%s", err);
	CHECK(!sim_params_set(&p, "server_ra_unplug", ra_unplug, err, sizeof(err)), "%s", err);
	CHECK(!sim_params_set(&p, "target_copy_paced", plug_copy_paced, err, sizeof(err)), "%s", err);
	clk_init(&clk);
	link_init(&l, &p);
	CHECK(!target_init(&t, &clk, &p, &l, 64 << 20), "target_init");
	t.respond = plug_respond;
	plug_responses = 0;
	plug_clk = &clk;
	plug_disk_start = t.q.start;
	t.q.start = plug_start;
	target_cmd(&t, 0, 128 << 10, NULL);
	clk_at(&clk, 100 * SIM_MS, plug_cmd2, &t, 0);
	while (clk_step(&clk))
		;
	CHECK_EQ(plug_responses, 2);
	CHECK_EQ(t.rc.window_reads, 6);
	*timer_unplugs = t.q.timer_unplugs;
	target_free(&t);
	clk_free(&clk);
	return plug_last_start;
}

static void test_tgt_plug_ra_patch(void)
{
	uint64_t tu_patch, tu_none, tu_never;
	sim_ns end_patch, end_none, end_never, resp2;

	end_patch = plug_run("3", "1", &tu_patch);
	resp2 = plug_resp_at[1];
	end_none = plug_run("3", "0", &tu_none);
	CHECK_EQ(plug_resp_at[1], resp2);	/* the thread never waited */
	end_never = plug_run("0", "1", &tu_never);
	CHECK_EQ(tu_patch, 0);
	CHECK_EQ(tu_none, 1);
	CHECK_EQ(tu_never, 0);
	CHECK_EQ(end_patch, 100 * SIM_MS + 70 * SIM_US);
	CHECK_EQ(end_none, 104 * SIM_MS);
	CHECK_EQ(end_never, end_patch);
}

/*
 * The vdisk thread copies each page as do_generic_file_read() gets to it
 * (file_read_actor()), so it meets a marker after copying the pages before
 * it.  plug_run's command 1, then command 2 = pages [44,76) at 100 ms, all
 * cached: the thread runs at 100.070 ms, copies pages 44..59 (unmarked,
 * 64 KiB at sim_target_copy_mbps 2000 = 32.768 us) and reaches page 60's
 * marker: window [92,124) reaches the disk (the readahead patch runs the
 * queue) at 100.102768 ms.  Copied after the whole readv()
 * (sim_target_copy_paced 0) it is read ahead at once: 100.070 ms.
 */
static void test_tgt_copy_paced(void)
{
	uint64_t tu;
	sim_ns paced, whole;

	plug_cmd2_page = 44;
	plug_copy_paced = "1";
	paced = plug_run("3", "1", &tu);
	CHECK_EQ(tu, 0);
	plug_copy_paced = "0";
	whole = plug_run("3", "1", &tu);
	plug_copy_paced = "1";
	plug_cmd2_page = 60;
	CHECK_EQ(whole, 100 * SIM_MS + 70 * SIM_US);
	CHECK_EQ(paced, 100 * SIM_MS + 70 * SIM_US + 32768);
}

/*
 * iscsi-scst's read thread runs SCST's stage 1 (target_cmd_us) of every
 * command itself before queueing it for the vdisk threads
 * (target_rx_serial).  Two commands arrive at t = 0 with two idle
 * threads, no wake-up cost, no noise, 100 us of stage 1: the first is
 * queued at 100 us, the second at 200 us, and each thread starts its
 * command then.  On the vdisk threads (0, the model before) both start
 * at 0 and pay the 100 us in parallel.
 */
static void rx_serial_run(int serial, sim_ns *first, sim_ns *second)
{
	struct sim_params p;
	struct sim_clock clk;
	struct link l;
	struct target t;
	sim_ns a, b;

	sim_params_default(&p);
	p.threads = 2;
	p.jitter_us = 0;
	p.handoff_us = 0;
	p.target_cmd_us = 100;
	p.target_rx_serial = serial;
	clk_init(&clk);
	link_init(&l, &p);
	CHECK(!target_init(&t, &clk, &p, &l, 64 << 20), "target_init");
	t.respond = file_ra_respond;
	file_ra_responses = 0;
	target_cmd(&t, 0, 4096, NULL);
	target_cmd(&t, 1 << 20, 4096, NULL);
	while (clk_step(&clk))
		;
	CHECK_EQ(file_ra_responses, 2);
	a = t.th[0].t_start;
	b = t.th[1].t_start;
	*first = a < b ? a : b;
	*second = a < b ? b : a;
	target_free(&t);
	clk_free(&clk);
}

static void test_rx_serial(void)
{
	sim_ns first, second;

	rx_serial_run(1, &first, &second);
	CHECK_EQ(first, 100 * SIM_US);
	CHECK_EQ(second, 200 * SIM_US);
	rx_serial_run(0, &first, &second);
	CHECK_EQ(first, 0);
	CHECK_EQ(second, 0);
}

void sim_test_target(void)
{
	test_noise_on_wake();
	test_noise_exp();
	test_target_handoff();
	test_bind_at_run();
	test_wake_order();
	test_file_ra_default();
	test_file_ra_at_open();
	test_file_ra_per_page();
	test_tgt_plug_ra_patch();
	test_tgt_copy_paced();
	test_rx_serial();
}
