// SPDX-License-Identifier: GPL-2.0-only
/*
 * SCST target threads (see target.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "engines/sim/target.h"
#include "engines/sim/trace.h"

static void fifo_push(struct tcmd_fifo *f, struct tcmd *c)
{
	c->next = NULL;
	if (f->tail)
		f->tail->next = c;
	else
		f->head = c;
	f->tail = c;
	f->n++;
}

static struct tcmd *fifo_pop(struct tcmd_fifo *f)
{
	struct tcmd *c = f->head;

	if (c) {
		f->head = c->next;
		if (!f->head)
			f->tail = NULL;
		f->n--;
	}
	return c;
}

static void tgt_io(void *ctx, uint32_t first, uint32_t n)
{
	struct target *t = ctx;
	int ioctx = t->p->ioctx_shared ? 0 : t->cur + 1;

	SIM_TRACE(t->clk, "thr%d  submit off=%uK len=%uK", t->cur, first * 4, n * 4);

	blkq_submit(&t->q, (uint64_t)first << PC_SHIFT, (uint64_t)n << PC_SHIFT, ioctx);
}

static bool tgt_congested(void *ctx)
{
	struct target *t = ctx;

	return blkq_congested(&t->q);
}

/* blk_run_backing_dev() -> generic_unplug_device(): runs a plugged queue */
static void tgt_run_queue(void *ctx)
{
	struct target *t = ctx;

	blkq_unplug(&t->q);
}

static void disk_done_ev(void *ctx, uint64_t arg);

/*
 * The drive takes its next command: the only one without NCQ; with NCQ the
 * one it can complete first from where the head is (shortest positioning
 * time first; the oldest on a tie).
 */
static void disk_pick(struct target *t)
{
	uint32_t i, best = 0;
	struct sim_req *r;
	sim_ns done, best_done = 0;

	if (t->disk_busy || !t->ncq_n)
		return;
	for (i = 0; t->ncq_n > 1 && i < t->ncq_n; i++) {
		done = disk_probe(&t->disk, t->clk->now, t->ncq[i]->off, t->ncq[i]->len);
		if (!i || done < best_done) {
			best = i;
			best_done = done;
		}
	}
	r = t->ncq[best];
	for (i = best; i + 1 < t->ncq_n; i++)
		t->ncq[i] = t->ncq[i + 1];
	t->ncq_n--;
	done = disk_service(&t->disk, t->clk->now, r->off, r->len);
	t->disk_busy = true;

	SIM_TRACE(t->clk, "disk  start ioctx=%d off=%lluK len=%lluK done=%.3f", r->ioctx,
		  (unsigned long long)r->off >> 10, (unsigned long long)r->len >> 10,
		  (double)done / SIM_MS);

	clk_at(t->clk, done, disk_done_ev, t, (uintptr_t)r);
}

static void disk_done_ev(void *ctx, uint64_t arg)
{
	struct target *t = ctx;

	/* busy until the completion has let the elevator dispatch more */
	blkq_complete(&t->q, (struct sim_req *)(uintptr_t)arg);
	t->disk_busy = false;
	disk_pick(t);
}

static void disk_start(void *dev, struct sim_req *r)
{
	struct target *t = dev;

	t->ncq[t->ncq_n++] = r;
	disk_pick(t);
}

static void thread_run(void *ctx, uint64_t arg);

static void disk_data(void *owner, const struct sim_req *r)
{
	struct target *t = owner;
	uint32_t first = (uint32_t)(r->off >> PC_SHIFT);
	uint32_t n = (uint32_t)(r->len >> PC_SHIFT);
	unsigned int i;

	pc_complete(&t->pc, first, n);
	for (i = 0; i < t->p->threads; i++) {
		struct tthread *th = &t->th[i];

		if (th->waiting && th->wait_page >= first && th->wait_page < first + n) {
			th->waiting = false;
			clk_at(t->clk, t->clk->now, thread_run, t, (uint64_t)i);
		}
	}
}

/*
 * Scheduling noise: deterministic (seeded xorshift64), uniform in [0,
 * jitter_us); with jitter_exp exponential of mean jitter_us / 2 from the
 * noise's own stream, a draw scaled by jitter_us (not new draws).
 */
static sim_ns jitter(struct target *t)
{
	if (!t->p->jitter_us)
		return 0;
	if (t->p->jitter_exp)
		return sim_rng_exp(&t->noise, (sim_ns)t->p->jitter_us * SIM_US / 2);
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	return (sim_ns)(t->rng % ((uint64_t)t->p->jitter_us * SIM_US));
}

/*
 * SCST's vdisk reads a command with readv() of one iovec per buffer page,
 * and 2.6.29's generic_file_aio_read() calls do_generic_file_read() per
 * segment: readahead sees 1-page requests and prev_pos moves per page.
 */
static bool next_segment(struct target *t, struct tthread *th)
{
	uint64_t end = th->cmd->off + th->cmd->len, seg = end - th->seg_next;

	if (th->seg_next >= end)
		return false;
	if (t->p->target_iov_kb && seg > (uint64_t)t->p->target_iov_kb * 1024)
		seg = (uint64_t)t->p->target_iov_kb * 1024;
	fread_begin(&th->rd, th->seg_next, seg);
	th->seg_next += seg;
	return true;
}

static void thread_start(void *ctx, uint64_t arg)
{
	struct target *t = ctx;
	struct tthread *th = &t->th[arg];
	sim_ns noise = 0;

	th->t_start = t->clk->now;
	SIM_TRACE(t->clk, "thr%d  start cmd %llu off=%lluK", (int)arg,
		  (unsigned long long)th->cmd->seq, (unsigned long long)th->cmd->off >> 10);
	/*
	 * with jitter_wake_only the noise is the wake-up's: a thread looping
	 * over a non-empty active list (scst_cmd_thread()) does not sleep
	 */
	if (th->woken || !t->p->jitter_wake_only) {
		noise = jitter(t);
		t->st.noise_draws++;
	}
	clk_after(t->clk, (t->p->target_rx_serial ? 0 : (sim_ns)t->p->target_cmd_us * SIM_US) + noise,
		  thread_run, t, arg);
}

/* Give @cmd to idle thread @id; waking it costs a hand-off unless it never slept. */
static void assign(struct target *t, int id, struct tcmd *cmd)
{
	struct tthread *th = &t->th[id];
	sim_ns cost = (sim_ns)t->p->handoff_us * SIM_US;
	int i, k = 0;

	for (i = 0; i < t->nidle; i++)
		if (t->idle[i] != id)
			t->idle[k++] = t->idle[i];
	t->nidle = k;
	th->idle = false;
	th->cmd = cmd;
	th->begun = false;
	t->executing++;
	th->woken = true;
	if (id == t->last_finisher && t->last_finish == t->clk->now) {
		cost = 0;
		th->woken = false;
	} else
		t->st.handoffs++;
	clk_after(t->clk, cost, thread_start, t, (uint64_t)id);
}

static void try_dispatch(struct target *t)
{
	int i;

	if (t->p->dispatch_rr) {
		for (i = 0; i < t->nidle; i++) {
			int id = t->idle[i];

			if (t->th[id].own.n && !(t->p->order == SIM_ORDER_ORDERED && t->executing)) {
				assign(t, id, fifo_pop(&t->th[id].own));
				i = -1;		/* idle[] changed */
			}
		}
		return;
	}
	while (t->queue.n && t->nidle) {
		if (t->p->order == SIM_ORDER_ORDERED && t->executing)
			return;
		assign(t, t->idle[t->p->wake_lifo ? t->nidle - 1 : 0], fifo_pop(&t->queue));
	}
}

/*
 * iscsi-scst cmnd_set_sn() at cmnd_tx_start(), when the response's PDU
 * starts leaving: MaxCmdSN = ExpCmdSN + QueuedCommands - active - 1.  A
 * command stops being active in iscsi_xmit_response() -> req_cmnd_release(),
 * before its PDUs are sent, so responses still queued for the wire do not
 * count: CmdSN below (commands released by now) + QueuedCommands may be sent.
 */
static void tx_start_ev(void *ctx, uint64_t arg)
{
	struct target *t = ctx;
	struct tcmd *c = (struct tcmd *)(uintptr_t)arg;
	uint64_t done = t->p->sn_at_release ? t->st.released : t->st.sent;

	c->cmd_limit = t->p->target_queued_cmds ? done + t->p->target_queued_cmds : 0;
}

static void respond_ev(void *ctx, uint64_t arg)
{
	struct target *t = ctx;
	struct tcmd *c = (struct tcmd *)(uintptr_t)arg;

	if (!t->p->sn_at_release)	/* sn_at_release=0: active until the response left */
		tx_start_ev(t, arg);
	t->st.sent++;
	t->respond(t->rctx, c->cookie, t->clk->now, c->cmd_limit);
	c->next = t->free_cmds;
	t->free_cmds = c;
}

static void thread_done(void *ctx, uint64_t arg)
{
	struct target *t = ctx;
	struct tthread *th = &t->th[arg];
	struct tcmd *c = th->cmd, *next = NULL;
	sim_ns arrive = link_data(t->link, t->clk->now, c->len);

	t->st.released++;
	if (t->p->sn_at_release)
		clk_at(t->clk, t->link->last_start, tx_start_ev, t, (uintptr_t)c);
	clk_at(t->clk, arrive, respond_ev, t, (uintptr_t)c);
	th->cmds++;
	th->bytes += c->len;
	th->busy_ns += t->clk->now - th->t_start;
	t->st.cmds++;
	t->st.bytes += c->len;
	t->executing--;
	th->cmd = NULL;
	t->last_finisher = (int)arg;
	t->last_finish = t->clk->now;
	/* a running SCST thread loops over its list before sleeping */
	if (t->p->order != SIM_ORDER_ORDERED)
		next = t->p->dispatch_rr ? fifo_pop(&th->own) : fifo_pop(&t->queue);
	if (next) {
		th->cmd = next;
		th->begun = false;
		th->woken = false;
		t->executing++;
		clk_at(t->clk, t->clk->now, thread_start, t, arg);
		return;
	}
	th->idle = true;
	t->idle[t->nidle++] = (int)arg;
	try_dispatch(t);
}

/*
 * The thread got the CPU and takes its command.  SCST's threads pop the head
 * of the shared active command list when they run (scst_do_job_active()),
 * not when they are woken: if a thread woken later runs first, it takes the
 * oldest command, and the one woken for it takes a later one.  Commands
 * thus start in arrival order while which thread (which struct file, which
 * io_context) executes a command follows the scheduling noise.
 */
static void thread_begin(struct target *t, struct tthread *th)
{
	unsigned int i;

	if (t->p->bind_at_run && !t->p->dispatch_rr) {
		for (i = 0; i < t->p->threads; i++) {
			struct tthread *o = &t->th[i];

			if (o != th && o->cmd && !o->begun && o->cmd->seq < th->cmd->seq) {
				struct tcmd *c = o->cmd;

				o->cmd = th->cmd;
				th->cmd = c;
				t->st.rebinds++;
			}
		}
	}
	th->begun = true;
	if (th->cmd->seq != t->expect) {
		th->out_of_order++;
		t->st.out_of_order++;
	}
	t->expect = th->cmd->seq + 1;
	th->seg_next = th->cmd->off;
	next_segment(t, th);
}

/* file_read_actor(): copying @n pages of the page cache into SCST's buffers */
static sim_ns copy_ns(const struct target *t, uint64_t n)
{
	return (sim_ns)((double)(n << PC_SHIFT) * 1000.0 / t->p->target_copy_mbps);
}

/*
 * The thread has copied what it read so far and goes to lock the page it
 * stopped at: lock_page_killable() on a page under I/O runs the plugged
 * queue (sync_page() -> block_sync_page() -> blk_run_backing_dev()), then
 * the thread sleeps until the page is read.
 */
static void thread_lock_page(void *ctx, uint64_t arg)
{
	struct target *t = ctx;
	struct tthread *th = &t->th[arg];

	if (pc_uptodate(&t->pc, th->wait_page)) {
		thread_run(t, arg);
		return;
	}
	th->waiting = true;
	blkq_unplug(&t->q);
}

/*
 * One run of the thread over its command's readv() segments.  With
 * target_copy_paced (2.6.29 do_generic_file_read() calls the actor on each
 * page as it gets to it) the copy of the pages read so far is charged
 * before the thread meets a marker or a locked page; without it, after
 * the whole read.
 */
static void thread_run(void *ctx, uint64_t arg)
{
	struct target *t = ctx;
	struct tthread *th = &t->th[arg];
	struct ra_state *ra = t->p->fd_shared ? &t->shared_ra : &th->ra;
	bool paced = t->p->target_copy_paced;
	uint64_t n = 0;		/* pages copied in this run, not yet charged */
	uint32_t wp;
	int st;

	t->cur = (int)arg;
	if (!th->begun)
		thread_begin(t, th);
	th->rd.pace_markers = paced;
	for (;;) {
		uint32_t from = th->rd.index;

		/* a marker at the start of the next segment: copy first */
		if (paced && n && th->rd.index < th->rd.last && pc_present(&t->pc, th->rd.index) &&
		    pc_marked(&t->pc, th->rd.index)) {
			clk_after(t->clk, copy_ns(t, n), thread_run, t, arg);
			return;
		}
		st = fread_step(&t->rc, ra, &th->rd, &wp);
		n += th->rd.index - from;
		if (st == 1) {
			th->wait_page = wp;
			if (paced && n)
				clk_after(t->clk, copy_ns(t, n), thread_lock_page, t, arg);
			else
				thread_lock_page(t, arg);
			return;
		}
		if (st == 2) {
			clk_after(t->clk, copy_ns(t, n), thread_run, t, arg);
			return;
		}
		if (!next_segment(t, th))
			break;
		th->rd.pace_markers = paced;
	}
	clk_after(t->clk, paced ? copy_ns(t, n)
			 : (sim_ns)((double)th->cmd->len * 1000.0 / t->p->target_copy_mbps),
		  thread_done, t, arg);
}

/* The command is through SCST's stage 1: queued for the vdisk threads. */
static void cmd_queue(struct target *t, struct tcmd *c)
{
	if (t->p->dispatch_rr)
		fifo_push(&t->th[c->seq % t->p->threads].own, c);
	else
		fifo_push(&t->queue, c);
	if (t->queue.n > t->st.max_queued)
		t->st.max_queued = t->queue.n;
	try_dispatch(t);
}

static void rx_done_ev(void *ctx, uint64_t arg)
{
	cmd_queue(ctx, (struct tcmd *)(uintptr_t)arg);
}

/*
 * iscsi-scst's read thread runs SCST's stage 1 of each command it
 * receives (init, parse, buffer allocation) in its own context and only
 * then restarts the command for the vdisk threads: one connection's
 * commands pass it one after another (target_rx_serial).
 */
static void cmd_receive(struct target *t, struct tcmd *c)
{
	sim_ns cost = (sim_ns)t->p->target_cmd_us * SIM_US;
	sim_ns start = t->rx_free > t->clk->now ? t->rx_free : t->clk->now;

	if (!t->p->target_rx_serial || !cost) {
		cmd_queue(t, c);
		return;
	}
	t->rx_free = start + cost;
	clk_at(t->clk, t->rx_free, rx_done_ev, t, (uintptr_t)c);
}

void target_cmd(struct target *t, uint64_t off, uint64_t len, void *cookie)
{
	struct tcmd *c = t->free_cmds;

	if (c)
		t->free_cmds = c->next;
	else {
		if (!(c = malloc(sizeof(*c))))
			abort();
		c->all = t->all_cmds;
		t->all_cmds = c;
	}
	c->off = off;
	c->len = len;
	c->cookie = cookie;
	c->seq = t->seq++;
	cmd_receive(t, c);
}

int target_init(struct target *t, struct sim_clock *clk, const struct sim_params *p,
		struct link *link, uint64_t file_size)
{
	unsigned int i, ra_kb;

	*t = (struct target){ 0 };
	t->clk = clk;
	t->p = p;
	t->link = link;
	t->last_finisher = -1;
	t->rng = 0x9E3779B97F4A7C15ULL ^ p->seed;
	sim_rng_init(&t->noise, p->seed, SIM_RNG_NOISE);
	if (pc_init(&t->pc, file_size))
		return -1;
	t->th = calloc(p->threads, sizeof(*t->th));
	t->idle = calloc(p->threads, sizeof(*t->idle));
	if (!t->th || !t->idle)
		return -1;
	/*
	 * file_ra_state_init() at open: each struct file keeps the
	 * read_ahead_kb of the moment it was opened (server_file_ra_kb)
	 */
	ra_kb = p->server_file_ra_kb ? p->server_file_ra_kb : p->server_ra_kb;
	ra_state_init(&t->shared_ra, ra_kb);
	for (i = 0; i < p->threads; i++) {
		t->th[i].id = (int)i;
		t->th[i].idle = true;
		ra_state_init(&t->th[i].ra, ra_kb);
		t->idle[t->nidle++] = (int)i;
	}
	t->rc = (struct ra_ctx){ .pc = &t->pc, .algo = p->server_ra, .io = tgt_io,
				 .congested = tgt_congested, .ctx = t,
				 .run_queue = p->server_ra_unplug ? tgt_run_queue : NULL };
	disk_init(&t->disk, p);
	if (blkq_init(&t->q, clk, sim_elevator(p->sched), p, p->server_cfq_lone_mult, p->disk_qdepth,
		      (uint64_t)p->server_max_sectors_kb * 1024))
		return -1;
	blkq_set_nr_requests(&t->q, p->server_nr_requests);
	/* 2.6.29 blk_queue_make_request(): unplug_thresh 4, unplug_delay 3 ms */
	if (p->server_unplug_ms)
		blkq_set_plugging(&t->q, p->hz, p->server_unplug_ms, 4);
	t->q.start = disk_start;
	t->q.dev = t;
	t->q.done = disk_data;
	t->q.owner = t;
	return 0;
}

void target_free(struct target *t)
{
	struct tcmd *c;

	blkq_free(&t->q);
	pc_free(&t->pc);
	while ((c = t->all_cmds)) {
		t->all_cmds = c->all;
		free(c);
	}
	free(t->th);
	free(t->idle);
	t->th = NULL;
	t->idle = NULL;
}
