/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ordering on the same blocks: which in-flight request a new one must wait
 * for before any of its parts may reach a worker.
 *
 * Workers run commands in any order, so two commands on the same blocks
 * would race.  The rule (README.md, "Ordering"): a request waits for every
 * earlier request still in flight on the same file that it conflicts with:
 *
 *   - both touch an overlapping byte range and at least one of them
 *     changes it (a write or a trim): write after write, trim after write,
 *     write after trim, read after write or trim, write or trim after read;
 *   - either is a sync (fsync, fdatasync, sync_file_range): a barrier for
 *     the whole file.
 *
 * Reads never wait for reads.  This is what a synchronous engine (psync)
 * gives for free and what fio's own async engines get from doing trims and
 * syncs synchronously in queue().
 *
 * The job's thread alone submits and reaps, so the in-flight list is plain
 * data: no atomics.  Pure logic, no fio: the pool and its unit test use it.
 */
#ifndef PERFPACK_COOP_ORDER_H
#define PERFPACK_COOP_ORDER_H

#include <stdbool.h>

struct coop_req;

struct coop_order {
	struct coop_req *head;	/* in flight, oldest first */
	struct coop_req *tail;
	unsigned int n;		/* requests in flight */
	unsigned int nmod;	/* of those, writes, trims and syncs */
};

void coop_order_init(struct coop_order *o);
/* Must @later wait for @earlier (both requests, submitted in this order)? */
bool coop_order_conflict(const struct coop_req *earlier, const struct coop_req *later);
/* The oldest in-flight request @req must wait for, or NULL. */
struct coop_req *coop_order_blocker(const struct coop_order *o,
				    const struct coop_req *req);
/* @req is now in flight / no longer in flight. */
void coop_order_add(struct coop_order *o, struct coop_req *req);
void coop_order_del(struct coop_order *o, struct coop_req *req);

#endif
