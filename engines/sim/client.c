// SPDX-License-Identifier: GPL-2.0-only
/*
 * The initiator side of the model (see client.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "engines/sim/client.h"

static void cli_io(void *ctx, uint32_t first, uint32_t n)
{
	struct client *c = ctx;

	/* one dd process: one io_context on the initiator */
	blkq_submit(&c->q, (uint64_t)first << PC_SHIFT, (uint64_t)n << PC_SHIFT, 0);
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

/* The iSCSI session is the initiator's "device". */
static void iscsi_start(void *dev, struct sim_req *r)
{
	struct client *c = dev;

	clk_at(c->clk, link_cmd(c->link, c->clk->now), cmd_arrive, c, (uintptr_t)r);
}

static void data_in(void *ctx, uint64_t arg)
{
	struct client *c = ctx;

	blkq_complete(&c->q, (struct sim_req *)(uintptr_t)arg);
}

/* target -> initiator: the command's data and status arrive at @when */
static void respond(void *ctx, void *cookie, sim_ns when)
{
	struct client *c = ctx;

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

static void app_run(void *ctx, uint64_t arg)
{
	struct client *c = ctx;
	struct areq *a = (struct areq *)(uintptr_t)arg;
	uint32_t wp;

	if (fread_step(&c->rc, &c->ra, &a->rd, &wp)) {
		a->waiting = true;
		a->wait_page = wp;
		return;
	}
	clk_after(c->clk, (sim_ns)((double)a->len * 1000.0 / c->p->client_copy_mbps),
		  app_done, c, (uintptr_t)a);
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
	if (blkq_init(&c->q, clk, p, p->client_sched, p->client_qdepth,
		      (uint64_t)p->client_max_sectors_kb * 1024))
		return -1;
	blkq_set_nr_requests(&c->q, p->client_nr_requests);
	c->q.start = iscsi_start;
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
	while ((a = c->all)) {
		c->all = a->all;
		free(a);
	}
}
