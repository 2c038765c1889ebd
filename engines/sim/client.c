// SPDX-License-Identifier: GPL-2.0-only
/*
 * The initiator side of the model (see client.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "engines/sim/client.h"
#include "engines/sim/sched_cfq.h"
#include "engines/sim/trace.h"

#define UNPLUG_THRESH	4	/* 2.6.26 blk_queue_make_request(): q->unplug_thresh */

static void cli_io(void *ctx, uint32_t first, uint32_t n)
{
	struct client *c = ctx;

	/* one dd process: one io_context on the initiator */
	blkq_submit(&c->q, (uint64_t)first << PC_SHIFT, (uint64_t)n << PC_SHIFT, 0);
}

/*
 * One dispatch attempt of a queue run (scsi_request_fn() -> queuecommand).
 * 2.6.26: scsi_host_queue_ready() keeps a blocked host starved while any
 * command is outstanding; at zero depth each run counts host_blocked down
 * and the run that reaches 0 sends.  libiscsi's iscsi_queuecommand()
 * refuses a command beyond MaxCmdSN with SCSI_MLQUEUE_HOST_BUSY, which
 * sets host_blocked = max_host_blocked (scsi_queue_insert()) and runs the
 * queue once more (scsi_run_queue()).
 */
static bool iscsi_may_start(void *dev, struct sim_req *r)
{
	struct client *c = dev;

	(void)r;	/* any command: the window counts commands, not bytes */
	if (c->host_blocked) {
		if (c->q.in_flight)
			return false;		/* starved until zero depth */
		if (c->host_blocked == c->p->client_host_blocked)
			c->win.drained_at = c->clk->now;
		c->win.blocked_runs++;
		if (--c->host_blocked) {
			blkq_plug(&c->q);	/* not ready: plugged again */
			return false;
		}
		c->win.unblocked_at = c->clk->now;
	}
	if (c->cmdsn >= c->cmd_limit) {
		if (!c->refused) {
			c->refused = true;
			c->refused_at = c->clk->now;
		}
		c->win.closed++;
		if (!c->p->client_host_blocked)
			return false;		/* waits for a response to open it */
		c->host_blocked = c->p->client_host_blocked;
		return c->q.in_flight ? false : iscsi_may_start(dev, r);
	}
	return true;
}

static bool cli_congested(void *ctx)
{
	struct client *c = ctx;

	return blkq_congested(&c->q);
}

static void cmd_arrive(void *ctx, uint64_t arg)
{
	struct client *c = ctx;
	struct sim_req *r = (struct sim_req *)(uintptr_t)arg;

	target_cmd(c->tgt, r->off, r->len, r);
}

static void ack_ev(void *ctx, uint64_t gen);

/* The segment now leaving carries every held PDU: they reach the target together. */
static void seg_arrive(void *ctx, uint64_t gen)
{
	struct client *c = ctx;

	if (gen != c->seg_gen || !c->unacked)
		return;
	/* a target sending Data-In acks on its next segment */
	if (c->link->tx_free > c->clk->now)
		clk_after(c->clk, c->link->latency, ack_ev, c, gen);
	else {
		/* else it owes one: a pure ACK after the delayed-ACK timeout */
		c->ack_owed = true;
		clk_after(c->clk, (sim_ns)c->p->link_delack_ms * SIM_MS + c->link->latency,
			  ack_ev, c, gen);
	}
}

static void send_segment(struct client *c, struct sim_req **rs, uint32_t n)
{
	sim_ns at = link_cmd(c->link, c->clk->now);
	uint32_t i;

	for (i = 0; i < n; i++)
		clk_at(c->clk, at, cmd_arrive, c, (uintptr_t)rs[i]);
	if (!c->p->client_nagle)
		return;
	c->unacked = true;
	c->ack_owed = false;
	c->seg_gen++;
	c->nagle_segs++;
	clk_at(c->clk, at, seg_arrive, c, c->seg_gen);
}

/*
 * The ACK of the unacked segment is back: Nagle lets the PDUs queued
 * behind it go, coalesced into one segment (they are far below the MSS).
 */
static void ack_ev(void *ctx, uint64_t gen)
{
	struct client *c = ctx;
	struct sim_req *rs[64];
	uint32_t n = 0;

	if (gen != c->seg_gen || !c->unacked)
		return;
	c->unacked = false;
	c->ack_owed = false;
	if (!c->held_n)
		return;
	c->nagle_wait_ns += c->clk->now - c->held_since;
	while (c->held_n && n < 64) {
		rs[n++] = c->held[c->held_head];
		c->held_head = (c->held_head + 1) % c->held_cap;
		c->held_n--;
	}
	send_segment(c, rs, n);
	if (c->held_n)
		c->held_since = c->clk->now;
}

/* the target's Data-In starts leaving at @start: it carries the owed ACK */
static void tx_hook(void *ctx, sim_ns start)
{
	struct client *c = ctx;

	if (c->unacked && c->ack_owed) {
		c->ack_owed = false;
		clk_at(c->clk, start + c->link->latency, ack_ev, c, c->seg_gen);
	}
}

/* The iSCSI session is the initiator's "device". */
static void iscsi_start(void *dev, struct sim_req *r)
{
	struct client *c = dev;

	if (c->refused) {
		c->refused = false;
		c->win.blocked_ns += c->clk->now - c->refused_at;
	}
	c->cmdsn++;
	SIM_TRACE(c->clk, "cli   send cmd off=%lluK len=%lluK", (unsigned long long)r->off >> 10,
		  (unsigned long long)r->len >> 10);
	if (c->p->client_nagle && c->unacked) {
		/* tcp_sendmsg() (net/ipv4, not in refs/): a small segment waits while one is unacked */
		if (!c->held_n)
			c->held_since = c->clk->now;
		c->held[(c->held_head + c->held_n) % c->held_cap] = r;
		c->held_n++;
		c->nagle_held++;
		return;
	}
	send_segment(c, &r, 1);
}

static void data_in(void *ctx, uint64_t arg)
{
	struct client *c = ctx;

	blkq_complete(&c->q, (struct sim_req *)(uintptr_t)arg);
}

/* target -> initiator: the command's data and status arrive at @when */
static void respond(void *ctx, void *cookie, sim_ns when, uint64_t cmd_limit)
{
	struct client *c = ctx;

	/* iscsi_update_cmdsn(): MaxCmdSN only moves forward */
	if (cmd_limit > c->cmd_limit)
		c->cmd_limit = cmd_limit;

	clk_at(c->clk, when, data_in, c, (uintptr_t)cookie);
}

static void app_run(void *ctx, uint64_t arg);

static void page_data(void *owner, const struct sim_req *r)
{
	struct client *c = owner;
	uint32_t first = (uint32_t)(r->off >> PC_SHIFT);
	uint32_t n = (uint32_t)(r->len >> PC_SHIFT);
	struct areq *a;

	pc_complete(&c->pc, first, n);
	for (a = c->active; a; a = a->next)
		if (a->waiting && a->wait_page >= first && a->wait_page < first + n) {
			a->waiting = false;
			clk_at(c->clk, c->clk->now, app_run, c, (uintptr_t)a);
		}
}

static void app_done(void *ctx, uint64_t arg)
{
	struct client *c = ctx;
	struct areq *a = (struct areq *)(uintptr_t)arg, **pp;

	for (pp = &c->active; *pp != a; pp = &(*pp)->next)
		;
	*pp = a->next;
	a->next = NULL;
	a->t_done = c->clk->now;
	if (c->done_tail)
		c->done_tail->next = a;
	else
		c->done_head = a;
	c->done_tail = a;
	c->reads++;
	c->bytes += a->len;
}

/* file_read_actor(): copy_to_user of @n pages from the page cache */
static sim_ns copy_ns(const struct client *c, uint32_t n)
{
	return (sim_ns)((double)n * PC_SIZE * 1000.0 / c->p->client_copy_mbps);
}

/*
 * do_generic_file_read() reached a page under I/O: lock_page() ->
 * sync_page() -> block_sync_page() -> blk_run_backing_dev() runs the
 * queue if it is plugged (block_sync_page() is fs/buffer.c, not in refs/),
 * and the reader sleeps until the page is read.
 */
static void app_wait(void *ctx, uint64_t arg)
{
	struct client *c = ctx;
	struct areq *a = (struct areq *)(uintptr_t)arg;

	if (pc_uptodate(&c->pc, a->wait_page)) {
		app_run(c, arg);
		return;
	}
	a->waiting = true;
	blkq_unplug(&c->q);
}

/*
 * The read copies each page as it gets to it, so it reaches a marker or a
 * page under I/O only after copying the pages before it.
 */
static void app_run(void *ctx, uint64_t arg)
{
	struct client *c = ctx;
	struct areq *a = (struct areq *)(uintptr_t)arg;
	uint32_t from = a->rd.index, wp;
	int st = fread_step(&c->rc, &c->ra, &a->rd, &wp);
	sim_ns copy = copy_ns(c, a->rd.index - from);

	if (st == 1) {
		a->wait_page = wp;
		if (copy)
			clk_after(c->clk, copy, app_wait, c, arg);
		else
			app_wait(c, arg);
		return;
	}
	clk_after(c->clk, copy, st == 2 ? app_run : app_done, c, arg);
}

void client_read(struct client *c, uint64_t off, uint64_t len, void *cookie)
{
	struct areq *a = c->free_list;

	if (a) {
		c->free_list = a->next;
	} else {
		if (!(a = malloc(sizeof(*a))))
			abort();
		a->all = c->all;
		c->all = a;
	}
	a->off = off;
	a->len = len;
	a->cookie = cookie;
	a->waiting = false;
	a->next = c->active;
	c->active = a;
	fread_begin(&a->rd, off, len);
	a->rd.pace_markers = true;
	clk_after(c->clk, c->p->client_syscall_ns, app_run, c, (uintptr_t)a);
}

struct areq *client_reap(struct client *c)
{
	struct areq *a = c->done_head;

	if (a) {
		c->done_head = a->next;
		if (!c->done_head)
			c->done_tail = NULL;
	}
	return a;
}

void client_put(struct client *c, struct areq *a)
{
	a->next = c->free_list;
	c->free_list = a;
}

int client_init(struct client *c, struct sim_clock *clk, const struct sim_params *p,
		struct link *link, struct target *tgt, uint64_t file_size)
{
	*c = (struct client){ 0 };
	c->clk = clk;
	c->p = p;
	c->link = link;
	c->tgt = tgt;
	if (pc_init(&c->pc, file_size))
		return -1;
	ra_state_init(&c->ra, p->client_ra_kb);
	c->rc = (struct ra_ctx){ .pc = &c->pc, .algo = SIM_RA_CLASSIC, .io = cli_io,
				 .congested = cli_congested, .ctx = c };
	if (blkq_init(&c->q, clk, sim_elevator(p->client_sched), p, p->client_cfq_lone_mult,
		      p->client_qdepth, (uint64_t)p->client_max_sectors_kb * 1024))
		return -1;
	blkq_set_nr_requests(&c->q, p->client_nr_requests);
	blkq_set_plugging(&c->q, p->client_hz, p->client_unplug_ms, UNPLUG_THRESH);
	if (p->client_sched == SIM_SCHED_CFQ)
		elv_cfq_set_idle_in_flight(c->q.e, p->client_cfq_idle_in_flight);
	c->q.start = iscsi_start;
	c->held_cap = p->client_qdepth + 1;
	if (!(c->held = calloc(c->held_cap, sizeof(*c->held))))
		return -1;
	link->tx_hook = tx_hook;
	link->tx_ctx = c;
	if (p->target_queued_cmds) {
		/* login: MaxCmdSN = ExpCmdSN + QueuedCommands - 1 */
		c->cmd_limit = p->target_queued_cmds;
		c->q.may_start = iscsi_may_start;
	}
	c->q.dev = c;
	c->q.done = page_data;
	c->q.owner = c;
	tgt->respond = respond;
	tgt->rctx = c;
	return 0;
}

void client_free(struct client *c)
{
	struct areq *a;

	blkq_free(&c->q);
	pc_free(&c->pc);
	free(c->held);
	c->held = NULL;
	while ((a = c->all)) {
		c->all = a->all;
		free(a);
	}
}
