// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ordering on the same blocks; see order.h.
 */
#include <stddef.h>

#include "engines/coop/order.h"
#include "engines/coop/pool.h"

static bool is_sync(unsigned int op)
{
	return op == COOP_OP_SYNC || op == COOP_OP_DATASYNC ||
	       op == COOP_OP_SYNC_RANGE;
}

static bool changes(unsigned int op)
{
	return op == COOP_OP_WRITE || op == COOP_OP_TRIM || is_sync(op);
}

void coop_order_init(struct coop_order *o)
{
	o->head = o->tail = NULL;
	o->n = o->nmod = 0;
}

bool coop_order_conflict(const struct coop_req *a, const struct coop_req *b)
{
	if (a->file != b->file)
		return false;
	if (is_sync(a->op) || is_sync(b->op))
		return true;
	if (!changes(a->op) && !changes(b->op))
		return false;
	/* [off, off + len) ranges overlap; an empty one overlaps nothing. */
	return a->len && b->len && a->off < b->off + b->len &&
	       b->off < a->off + a->len;
}

struct coop_req *coop_order_blocker(const struct coop_order *o,
				    const struct coop_req *req)
{
	struct coop_req *r;

	/* A read among reads: nothing to look at (the common case). */
	if (!o->nmod && !changes(req->op))
		return NULL;
	for (r = o->head; r; r = r->order_next)
		if (coop_order_conflict(r, req))
			return r;
	return NULL;
}

void coop_order_add(struct coop_order *o, struct coop_req *req)
{
	req->order_next = NULL;
	req->order_prev = o->tail;
	if (o->tail)
		o->tail->order_next = req;
	else
		o->head = req;
	o->tail = req;
	o->n++;
	if (changes(req->op))
		o->nmod++;
}

void coop_order_del(struct coop_order *o, struct coop_req *req)
{
	if (req->order_prev)
		req->order_prev->order_next = req->order_next;
	else
		o->head = req->order_next;
	if (req->order_next)
		req->order_next->order_prev = req->order_prev;
	else
		o->tail = req->order_prev;
	req->order_prev = req->order_next = NULL;
	o->n--;
	if (changes(req->op))
		o->nmod--;
}
