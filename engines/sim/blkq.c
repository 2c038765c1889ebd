// SPDX-License-Identifier: GPL-2.0-only
/*
 * The request queue (see blkq.h).
 */
#include <stdlib.h>

#include "engines/sim/blkq.h"
#include "engines/sim/trace.h"

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

/*
 * blk_start_queueing() (2.6.26/2.6.29 blk-core.c), as CFQ's
 * cfq_kick_queue() calls it when its idle timer fires: a plugged queue is
 * unplugged, an unplugged one run.
 */
static void blkq_run(void *ctx)
{
	struct blkq *q = ctx;

	if (q->plugged)
		blkq_unplug(q);
	else
		blkq_kick(q);
}

int blkq_init(struct blkq *q, struct sim_clock *clk, const struct elv_ops *elv,
	      const struct sim_params *p, unsigned int cfq_lone_mult, uint32_t qdepth,
	      uint64_t max_bytes)
{
	struct elv_conf conf = {
		.clk = clk, .p = p, .max_bytes = max_bytes, .qdepth = qdepth,
		.cfq_lone_mult = cfq_lone_mult, .run = blkq_run, .run_ctx = q,
	};

	q->clk = clk;
	q->qdepth = qdepth;
	q->may_start = NULL;
	q->dl_head = q->dl_tail = NULL;
	q->dl_n = 0;
	q->dispatch_list = p->dispatch_list;
	q->max_bytes = max_bytes;
	q->plug_hz = 0;
	q->plugged = false;
	q->ops = elv;
	q->e = elv ? elv->init(&conf) : NULL;
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
		r = xmalloc(sizeof(*r));
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

/* requests allocated and not in the driver: elv_queue_empty() is 0 of them */
static uint32_t queued(const struct blkq *q)
{
	return q->nr_rq - q->in_flight;
}

static void unplug_timer(void *ctx, uint64_t gen)
{
	struct blkq *q = ctx;

	if (gen == q->plug_gen && q->plugged) {
		SIM_TRACE(q->clk, "blkq  unplug timer (%u queued)", queued(q));
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


void blkq_submit(struct blkq *q, uint64_t off, uint64_t len, int ioctx)
{
	int add;

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
		add = q->ops->add(q->e, r);
		if (add == ELV_ADD_MERGED) {
			q->st.merged++;
			req_put(q, r);	/* merged: the bio needed no request */
		} else {
			rq_allocated(q);
			if (add == ELV_ADD_START)
				blkq_run(q);
			/* elv_insert(): enough queued requests unplug it */
			else if (q->plugged && queued(q) >= q->unplug_thresh)
				blkq_unplug(q);
		}
		off += n;
		len -= n;
	}
	if (!q->plugged)
		blkq_kick(q);
}

/* elevator_dispatch_fn(): refill the empty dispatch list */
static void dl_refill(struct blkq *q)
{
	bool batch = q->dispatch_list && q->ops->dispatch_batch;
	struct sim_req *r;

	while ((r = q->ops->next(q->e))) {
		r->next = NULL;
		if (q->dl_tail)
			q->dl_tail->next = r;
		else
			q->dl_head = r;
		q->dl_tail = r;
		if (++q->dl_n > q->st.max_dl)
			q->st.max_dl = q->dl_n;
		if (!batch)
			break;
	}
}

/*
 * A queue run (request_fn): the driver looks at the list head even when
 * the device has no free slot (2.6.29 scsi_request_fn() calls
 * elv_next_request() before scsi_dev_queue_ready()), so an empty list is
 * refilled then, and what waits there keeps its order.
 */
void blkq_kick(struct blkq *q)
{
	while (!q->plugged) {
		struct sim_req *r;

		if (q->dispatch_list) {
			if (!q->dl_head)
				dl_refill(q);
			if (!q->dl_head || q->in_flight >= q->qdepth)
				break;
			r = q->dl_head;
		} else {
			if (q->in_flight >= q->qdepth)
				break;
			if (!q->dl_head)
				dl_refill(q);
			if (!(r = q->dl_head))
				break;
		}
		if (q->may_start && !q->may_start(q->dev, r))
			break;		/* stays at the head: blk_requeue_request() */
		q->dl_head = r->next;
		if (!q->dl_head)
			q->dl_tail = NULL;
		q->dl_n--;
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
