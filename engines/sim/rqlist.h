/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Block requests and the sector-sorted request lists the elevators keep
 * (their rb-trees; the queues are short).
 */
#ifndef PERFPACK_SIM_RQLIST_H
#define PERFPACK_SIM_RQLIST_H

#include <stdint.h>

#include "engines/sim/clock.h"

struct sim_req {
	uint64_t off, len;	/* bytes */
	int ioctx;		/* submitter's io_context (CFQ queue key) */
	uint64_t seq;		/* arrival order: FIFOs */
	sim_ns t_add;
	struct sim_req *next;	/* free list */
	struct sim_req *all;	/* every request allocated, for freeing */
};

/* Requests sorted by offset. */
struct rqlist {
	struct sim_req **v;
	uint32_t n, cap;
};

void rql_insert(struct rqlist *l, struct sim_req *r);
void rql_remove(struct rqlist *l, struct sim_req *r);
/* index of the first request with off >= @off (n if none) */
uint32_t rql_lower(const struct rqlist *l, uint64_t off);
/* oldest request (lowest seq), NULL if empty */
struct sim_req *rql_oldest(const struct rqlist *l);
/* Merge @r into a contiguous queued request if the result fits @max. */
struct sim_req *rql_merge(struct rqlist *l, const struct sim_req *r, uint64_t max);
void rql_free(struct rqlist *l);

#endif
