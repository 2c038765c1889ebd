// SPDX-License-Identifier: GPL-2.0-only
/*
 * deadline (2.6.29 block/deadline-iosched.c), reads only: a sector-sorted
 * list served in batches of fifo_batch in ascending order from the last
 * dispatched request; a new batch starts at the FIFO head when the oldest
 * request expired or nothing lies ahead.
 */
#include <stdlib.h>

#include "engines/sim/elevator.h"

struct deadline {
	struct sim_clock *clk;
	uint64_t max_bytes;
	struct rqlist rq;
	struct sim_req *next_rq;
	unsigned int batching, fifo_batch;
	sim_ns expire;
};

static void *dl_init(const struct elv_conf *conf)
{
	struct deadline *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->clk = conf->clk;
	d->max_bytes = conf->max_bytes;
	d->fifo_batch = conf->p->dl_fifo_batch;
	d->expire = (sim_ns)conf->p->dl_read_expire_ms * SIM_MS;
	return d;
}

static int dl_add(void *e, struct sim_req *r)
{
	struct deadline *d = e;

	if (rql_merge(&d->rq, r, d->max_bytes))
		return ELV_ADD_MERGED;
	rql_insert(&d->rq, r);
	return ELV_ADD_QUEUED;
}

static struct sim_req *dl_next(void *e)
{
	struct deadline *d = e;
	struct sim_req *r = d->next_rq, *old;
	uint32_t i;

	if (!(r && d->batching < d->fifo_batch)) {
		if (!d->rq.n)
			return NULL;
		old = rql_oldest(&d->rq);
		if (d->clk->now >= old->t_add + d->expire || !d->next_rq)
			r = old;
		else
			r = d->next_rq;
		d->batching = 0;
	}
	d->batching++;
	/* deadline_move_request(): remember the sort successor */
	i = rql_lower(&d->rq, r->off);
	while (d->rq.v[i] != r)
		i++;
	d->next_rq = i + 1 < d->rq.n ? d->rq.v[i + 1] : NULL;
	rql_remove(&d->rq, r);
	return r;
}

static void dl_completed(void *e, struct sim_req *r)
{
	(void)e;
	(void)r;
}

static void dl_free(void *e)
{
	struct deadline *d = e;

	rql_free(&d->rq);
	free(d);
}

const struct elv_ops elv_deadline_ops = {
	.init		= dl_init,
	.add		= dl_add,
	.next		= dl_next,
	.completed	= dl_completed,
	.free		= dl_free,
};
