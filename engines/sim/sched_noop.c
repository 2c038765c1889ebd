// SPDX-License-Identifier: GPL-2.0-only
/*
 * noop: FIFO order, only contiguous merges (the generic merge hash).
 */
#include <stdlib.h>

#include "engines/sim/elevator.h"

struct noop {
	uint64_t max_bytes;
	struct rqlist rq;
};

static void *noop_init(const struct elv_conf *conf)
{
	struct noop *n = calloc(1, sizeof(*n));

	if (n)
		n->max_bytes = conf->max_bytes;
	return n;
}

static int noop_add(void *e, struct sim_req *r)
{
	struct noop *n = e;

	if (rql_merge(&n->rq, r, n->max_bytes))
		return ELV_ADD_MERGED;
	rql_insert(&n->rq, r);
	return ELV_ADD_QUEUED;
}

static struct sim_req *noop_next(void *e)
{
	struct noop *n = e;
	struct sim_req *r = rql_oldest(&n->rq);

	if (r)
		rql_remove(&n->rq, r);
	return r;
}

static void noop_completed(void *e, struct sim_req *r)
{
	(void)e;
	(void)r;
}

static void noop_free(void *e)
{
	struct noop *n = e;

	rql_free(&n->rq);
	free(n);
}

const struct elv_ops elv_noop_ops = {
	.init		= noop_init,
	.add		= noop_add,
	.next		= noop_next,
	.completed	= noop_completed,
	.free		= noop_free,
};
