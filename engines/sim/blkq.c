// SPDX-License-Identifier: GPL-2.0-only
/*
 * Request queue plumbing shared by the elevators (see blkq.h).
 */
#include <stdlib.h>

#include "engines/sim/blkq.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

uint32_t rql_lower(const struct rqlist *l, uint64_t off)
{
	uint32_t lo = 0, hi = l->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (l->v[mid]->off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void rql_insert(struct rqlist *l, struct sim_req *r)
{
	uint32_t i = rql_lower(l, r->off), k;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	for (k = l->n; k > i; k--)
		l->v[k] = l->v[k - 1];
	l->v[i] = r;
	l->n++;
}

void rql_remove(struct rqlist *l, struct sim_req *r)
{
	uint32_t i = rql_lower(l, r->off);

	while (i < l->n && l->v[i] != r)
		i++;
	if (i == l->n)
		abort();	/* not queued: a model bug, not an input error */
	for (; i + 1 < l->n; i++)
		l->v[i] = l->v[i + 1];
	l->n--;
}

struct sim_req *rql_oldest(const struct rqlist *l)
{
	struct sim_req *o = NULL;
	uint32_t i;

	for (i = 0; i < l->n; i++)
		if (!o || l->v[i]->seq < o->seq)
			o = l->v[i];
	return o;
}

struct sim_req *rql_merge(struct rqlist *l, const struct sim_req *r, uint64_t max)
{
	uint32_t i = rql_lower(l, r->off);

	if (i > 0) {			/* back merge: r continues v[i-1] */
		struct sim_req *p = l->v[i - 1];

		if (p->off + p->len == r->off && p->len + r->len <= max) {
			p->len += r->len;
			return p;
		}
	}
	if (i < l->n) {			/* front merge: r precedes v[i] */
		struct sim_req *s = l->v[i];

		if (r->off + r->len == s->off && s->len + r->len <= max) {
			s->off = r->off;
			s->len += r->len;
			return s;
		}
	}
	return NULL;
}

void rql_free(struct rqlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

int blkq_init(struct blkq *q, struct sim_clock *clk, const struct sim_params *p,
	      int sched, uint32_t qdepth, uint64_t max_bytes)
{
	q->clk = clk;
	q->qdepth = qdepth;
	q->may_start = NULL;
	q->requeued = NULL;
	q->max_bytes = max_bytes;
	q->plug_hz = 0;
	q->plugged = false;
	switch (sched) {
	case SIM_SCHED_NOOP:
		q->ops = &elv_noop_ops;
		q->e = elv_noop_new(q, p);
		break;
	case SIM_SCHED_DEADLINE:
		q->ops = &elv_deadline_ops;
		q->e = elv_deadline_new(q, p);
		break;
	case SIM_SCHED_CFQ:
		q->ops = &elv_cfq_ops;
		q->e = elv_cfq_new(q, p);
		break;
	default:
		return -1;
	}
	return q->e ? 0 : -1;
}

void blkq_set_nr_requests(struct blkq *q, uint32_t n)
{
	uint32_t on = n - n / 8 + 1, off = n - n / 8 - n / 16 - 1;

	q->nr_requests = n;
	q->cong_on = on > n ? n : on;
	q->cong_off = off < 1 || off > n ? 1 : off;
}

bool blkq_congested(const struct blkq *q)
{
	return q->congested;
}

/* get_request(): a new request is allocated (not merged) */
static void rq_allocated(struct blkq *q)
{
	q->nr_rq++;
	if (q->nr_rq > q->st.max_rq)
		q->st.max_rq = q->nr_rq;
	if (q->nr_requests && !q->congested && q->nr_rq >= q->cong_on) {
		q->congested = true;
		q->st.congested++;
	}
}

/* freed_request(): a completed request gives its slot back */
static void rq_freed(struct blkq *q)
{
	q->nr_rq--;
	if (q->congested && q->nr_rq < q->cong_off)
		q->congested = false;
}

void blkq_free(struct blkq *q)
{
	struct sim_req *r;

	if (q->e)
		q->ops->free(q->e);
	q->e = NULL;
	while ((r = q->all)) {
		q->all = r->all;
		free(r);
	}
	q->free_list = NULL;
}

static struct sim_req *req_alloc(struct blkq *q)
{
	struct sim_req *r = q->free_list;

	if (r)
		q->free_list = r->next;
	else {
		r = xrealloc(NULL, sizeof(*r));
		r->all = q->all;
		q->all = r;
	}
	return r;
}

static void req_put(struct blkq *q, struct sim_req *r)
{
	r->next = q->free_list;
	q->free_list = r;
}

void blkq_set_plugging(struct blkq *q, unsigned int hz, unsigned int delay_ms,
		       unsigned int thresh)
{
	q->plug_hz = hz;
	q->plug_delay_ms = delay_ms;
	q->unplug_thresh = thresh;
}

static void unplug_timer(void *ctx, uint64_t gen)
{
	struct blkq *q = ctx;

	if (gen == q->plug_gen && q->plugged) {
		q->timer_unplugs++;
		blkq_unplug(q);
	}
}

void blkq_plug(struct blkq *q)
{
	sim_ns jiffy, d;

	if (!q->plug_hz || q->plugged)
		return;
	/* blk_queue_make_request(): unplug_delay = 3 ms in jiffies, at least 1 */
	jiffy = SIM_S / q->plug_hz;
	d = (sim_ns)q->plug_delay_ms * q->plug_hz / 1000;
	if (d < 1)
		d = 1;
	q->plugged = true;
	q->plugs++;
	clk_at(q->clk, (q->clk->now / jiffy + d) * jiffy, unplug_timer, q, ++q->plug_gen);
}

void blkq_unplug(struct blkq *q)
{
	if (!q->plugged)
		return;
	q->plugged = false;
	q->plug_gen++;		/* del_timer() */
	blkq_kick(q);
}

/* requests allocated and not in the driver: elv_queue_empty() is 0 of them */
static uint32_t queued(const struct blkq *q)
{
	return q->nr_rq - q->in_flight;
}

void blkq_submit(struct blkq *q, uint64_t off, uint64_t len, int ioctx)
{
	while (len) {
		uint64_t n = len < q->max_bytes ? len : q->max_bytes;
		struct sim_req *r = req_alloc(q);

		r->off = off;
		r->len = n;
		r->ioctx = ioctx;
		r->seq = q->seq++;
		r->t_add = q->clk->now;
		q->st.submitted++;
		if (!queued(q))
			blkq_plug(q);	/* __make_request(): empty queue -> plug */
		if (q->ops->add(q->e, r)) {
			q->st.merged++;
			req_put(q, r);	/* merged: the bio needed no request */
		} else {
			rq_allocated(q);
			/* elv_insert(): enough queued requests unplug it */
			if (q->plugged && queued(q) >= q->unplug_thresh)
				blkq_unplug(q);
		}
		off += n;
		len -= n;
	}
	if (!q->plugged)
		blkq_kick(q);
}

void blkq_kick(struct blkq *q)
{
	while (!q->plugged && q->in_flight < q->qdepth) {
		struct sim_req *r = q->requeued;

		if (r)
			q->requeued = NULL;
		else
			r = q->ops->next(q->e);
		if (!r)
			break;
		if (q->may_start && !q->may_start(q->dev, r)) {
			q->requeued = r;
			break;
		}
		q->in_flight++;
		q->st.dispatched++;
		q->st.bytes += r->len;
		q->start(q->dev, r);
	}
}

void blkq_complete(struct blkq *q, struct sim_req *r)
{
	q->in_flight--;
	q->done(q->owner, r);
	q->ops->completed(q->e, r);
	req_put(q, r);
	rq_freed(q);
	/* the driver's completion runs the queue: blk_run_queue() unplugs */
	if (q->plugged) {
		q->plugged = false;
		q->plug_gen++;
	}
	blkq_kick(q);
}
