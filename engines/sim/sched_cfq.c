// SPDX-License-Identifier: GPL-2.0-only
/*
 * CFQ as of 2.6.29 (block/cfq-iosched.c), reads only, one priority level:
 * one queue per io_context served in time slices (slice_sync); when the
 * active queue runs empty CFQ idles slice_idle for that same io_context
 * (if its think time says it is worth it), unless a new request close to
 * the head preempts.  next() is one step of cfq_dispatch_requests(): the
 * queue (blkq.c) calls it until NULL to fill the empty dispatch list, so it
 * returns NULL where the kernel's loop stops (quantum per queue with other
 * queues busy, checked per request here, per round of quantum there; a lone
 * queue only at lone_max, 2.6.26's 4 x quantum, none in 2.6.29).
 * cfq_coop adds the close cooperator as 2.6.31 has it (new in 2.6.30): switch to
 * another queue working next to the head instead of idling.  Timing is in
 * jiffies (sim_hz) like the kernel's, which matters for the think time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "engines/sim/elevator.h"
#include "engines/sim/sched_cfq.h"
#include "engines/sim/trace.h"

#define SAMPLE_VALID(s)	((s) > 80)
#define CIC_SEEKY(q)	((q)->seek_mean > 8 * 1024)	/* sectors */
#define CFQ_SEEK_THR	(8 * 1024)

struct cfqq {
	struct rqlist rq;
	int dispatched;
	bool on_rr, idle_window, slice_new, fifo_checked, used;
	int64_t slice_end;		/* jiffies */
	/* cfq_io_context statistics (one cic per queue here) */
	int64_t last_end_request;	/* jiffies */
	uint64_t ttime_total, ttime_samples, ttime_mean;
	uint64_t seek_total, seek_samples, seek_mean;
	uint64_t last_request_pos;	/* sectors */
};

struct cfq {
	struct sim_clock *clk;
	uint64_t max_bytes;
	void (*run)(void *ctx);		/* the queue's run, for the idle timer */
	void *run_ctx;
	const struct sim_params *p;
	struct cfqq *qs;
	int nq;
	int *rr, nrr;			/* service tree: busy queues in order */
	int active;			/* -1: none */
	bool wait_request, timer_pending;
	uint64_t timer_gen;
	uint64_t last_position;		/* sectors */
	int rq_in_driver, hw_tag;
	int lone_max;			/* a lone queue's dispatch cap, 0 = none */
	bool idle_in_flight;		/* 2.6.26: idle with requests in the driver */
	sim_ns jiffy, idle_since;
	int64_t slice_idle, slice_sync, fifo_expire;	/* jiffies */
	struct cfq_stats st;
};

static int64_t jiffies(struct cfq *c)
{
	return c->clk->now / c->jiffy;
}

static void *cfq_init(const struct elv_conf *conf)
{
	const struct sim_params *p = conf->p;
	struct cfq *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->clk = conf->clk;
	c->max_bytes = conf->max_bytes;
	c->run = conf->run;
	c->run_ctx = conf->run_ctx;
	c->p = p;
	c->active = -1;
	c->jiffy = SIM_S / p->hz;
	c->slice_idle = ((int64_t)p->cfq_slice_idle_ms * p->hz + 999) / 1000;
	c->slice_sync = ((int64_t)p->cfq_slice_sync_ms * p->hz + 999) / 1000;
	c->fifo_expire = ((int64_t)p->cfq_fifo_expire_ms * p->hz + 999) / 1000;
	/*
	 * hw_tag from the device's slots, fixed.  The kernels find it out:
	 * 2.6.26 sets it once more than 4 requests are in the driver, 2.6.29
	 * starts at 1 and re-decides from the peak depth every 50 samples
	 * (cfq_update_hw_tag()).  It only stops idling on a seeky queue; no
	 * stream here is seeky, and hw_tag 1 from the start on both sides
	 * leaves cases 1-11 and the later matrix unchanged.
	 */
	c->hw_tag = conf->qdepth > 5;	/* CFQ_HW_QUEUE_MIN */
	c->lone_max = (int)(conf->cfq_lone_mult * p->cfq_quantum);
	return c;
}

const struct cfq_stats *elv_cfq_stats(void *e)
{
	return &((struct cfq *)e)->st;
}

void elv_cfq_set_idle_in_flight(void *e, bool on)
{
	((struct cfq *)e)->idle_in_flight = on;
}

static struct cfqq *cfqq_get(struct cfq *c, int ioctx)
{
	if (ioctx >= c->nq) {
		int n = ioctx + 1, i;

		c->qs = realloc(c->qs, n * sizeof(*c->qs));
		c->rr = realloc(c->rr, n * sizeof(*c->rr));
		if (!c->qs || !c->rr)
			abort();
		for (i = c->nq; i < n; i++)
			c->qs[i] = (struct cfqq){ .idle_window = true };
		c->nq = n;
	}
	if (!c->qs[ioctx].used) {
		c->qs[ioctx].used = true;
		c->st.queues++;
	}
	return &c->qs[ioctx];
}

static void rr_del(struct cfq *c, int id)
{
	int i, k = 0;

	for (i = 0; i < c->nrr; i++)
		if (c->rr[i] != id)
			c->rr[k++] = c->rr[i];
	c->nrr = k;
	c->qs[id].on_rr = false;
}

static void rr_add(struct cfq *c, int id, bool front)
{
	int i;

	if (c->qs[id].on_rr)
		rr_del(c, id);
	if (front) {
		for (i = c->nrr; i > 0; i--)
			c->rr[i] = c->rr[i - 1];
		c->rr[0] = id;
	} else {
		c->rr[c->nrr] = id;
	}
	c->nrr++;
	c->qs[id].on_rr = true;
}

static void idle_end(struct cfq *c)
{
	if (c->wait_request) {
		c->st.idle_ns += c->clk->now - c->idle_since;
		c->wait_request = false;
	}
	c->timer_pending = false;
	c->timer_gen++;
}

static bool slice_used(struct cfq *c, struct cfqq *q)
{
	return !q->slice_new && jiffies(c) > q->slice_end;
}

/* cfq_slice_expired(): the active queue goes to the back of the tree */
static void slice_expired(struct cfq *c)
{
	int id = c->active;

	if (id < 0)
		return;
	idle_end(c);
	if (c->qs[id].rq.n)
		rr_add(c, id, false);
	c->active = -1;
}

static void set_active(struct cfq *c, int id)
{
	struct cfqq *q = &c->qs[id];

	c->active = id;
	q->slice_new = true;
	q->slice_end = 0;
	q->fifo_checked = false;
	c->st.slices++;
}

static uint64_t dist_from_last(struct cfq *c, uint64_t sector)
{
	return sector >= c->last_position ? sector - c->last_position
					  : c->last_position - sector;
}

/* cfq_choose_req(): the better of the next request ahead and behind */
static struct sim_req *choose_req(struct cfq *c, struct cfqq *q)
{
	uint64_t last = c->last_position, back_max = c->p->cfq_back_seek_max_kb * 2ULL;
	uint32_t i = rql_lower(&q->rq, last * 512);
	struct sim_req *fwd = i < q->rq.n ? q->rq.v[i] : NULL;
	struct sim_req *back = i > 0 ? q->rq.v[i - 1] : NULL;
	uint64_t d1, d2;

	if (!q->rq.n)
		return NULL;
	if (back && back->off / 512 + back_max < last)
		back = NULL;		/* too far behind: treated as wrapped */
	if (!fwd && !back)
		return q->rq.v[0];	/* both wrapped: lowest sector */
	if (!back)
		return fwd;
	if (!fwd)
		return back;
	d1 = fwd->off / 512 - last;
	d2 = (last - back->off / 512) * c->p->cfq_back_seek_penalty;
	return d2 < d1 ? back : fwd;
}

static bool rq_close(struct cfq *c, struct cfqq *active, struct sim_req *r, bool coop)
{
	uint64_t sdist = active->seek_mean;

	if (!SAMPLE_VALID(active->seek_samples)) {
		if (!coop)
			return false;
		sdist = CFQ_SEEK_THR;
	}
	return dist_from_last(c, r->off / 512) <= sdist;
}

/* 2.6.31 cfq_close_cooperator(): a busy queue with a request near the head */
static int close_cooperator(struct cfq *c, int cur)
{
	int i;

	if (!c->p->cfq_coop)
		return -1;
	for (i = 0; i < c->nrr; i++) {
		int id = c->rr[i];
		struct sim_req *r;

		if (id == cur)
			continue;
		r = choose_req(c, &c->qs[id]);
		if (r && rq_close(c, &c->qs[cur], r, true))
			return id;
	}
	return -1;
}

static void idle_timer(void *ctx, uint64_t gen)
{
	struct cfq *c = ctx;
	struct cfqq *q;

	if (gen != c->timer_gen || !c->timer_pending)
		return;
	c->timer_pending = false;
	if (c->active >= 0) {
		q = &c->qs[c->active];
		if (!slice_used(c, q)) {
			if (q->rq.n)
				goto kick;
			if (!c->nrr)
				return;		/* nobody else waits: keep the slice */
		}
	}
	c->st.idle_expired++;
	SIM_TRACE(c->clk, "cfq   idle expired q%d", c->active);
	slice_expired(c);
kick:
	c->run(c->run_ctx);
}

/* cfq_arm_slice_timer() */
static void arm_slice_timer(struct cfq *c)
{
	struct cfqq *q = &c->qs[c->active];
	int64_t sl = c->slice_idle, now = jiffies(c);

	if (!c->slice_idle || !q->idle_window || (c->rq_in_driver && !c->idle_in_flight))
		return;
	if (close_cooperator(c, c->active) >= 0)
		return;
	if (SAMPLE_VALID(q->seek_samples) && CIC_SEEKY(q))
		sl = sl < 1 ? sl : 1;	/* CFQ_MIN_TT, 2 ms = 1 jiffy at HZ 250 */
	c->wait_request = true;
	c->timer_pending = true;
	c->idle_since = c->clk->now;
	c->st.idles++;
	SIM_TRACE(c->clk, "cfq   idle q%d sl=%lld ttime=%llu/%llu seek=%llu", c->active,
		  (long long)sl, (unsigned long long)q->ttime_mean,
		  (unsigned long long)q->ttime_samples, (unsigned long long)q->seek_mean);
	clk_at(c->clk, (now + sl) * c->jiffy, idle_timer, c, ++c->timer_gen);
}

static void update_stats_on_enqueue(struct cfq *c, struct cfqq *q, struct sim_req *r)
{
	int64_t elapsed = jiffies(c) - q->last_end_request;
	uint64_t ttime = (uint64_t)(elapsed < 2 * c->slice_idle ? elapsed : 2 * c->slice_idle);
	uint64_t sector = r->off / 512, sdist, total;
	bool enable;

	/* cfq_update_io_thinktime() */
	q->ttime_samples = (7 * q->ttime_samples + 256) / 8;
	q->ttime_total = (7 * q->ttime_total + 256 * ttime) / 8;
	q->ttime_mean = (q->ttime_total + 128) / q->ttime_samples;

	/* cfq_update_io_seektime() */
	sdist = sector > q->last_request_pos ? sector - q->last_request_pos
					     : q->last_request_pos - sector;
	if (q->seek_samples <= 60) {
		if (sdist > q->seek_mean * 4 + 2 * 1024 * 1024)
			sdist = q->seek_mean * 4 + 2 * 1024 * 1024;
	} else if (sdist > q->seek_mean * 4 + 2 * 1024 * 64) {
		sdist = q->seek_mean * 4 + 2 * 1024 * 64;
	}
	q->seek_samples = (7 * q->seek_samples + 256) / 8;
	q->seek_total = (7 * q->seek_total + 256 * sdist) / 8;
	total = q->seek_total + q->seek_samples / 2;
	q->seek_mean = total / q->seek_samples;

	/* cfq_update_idle_window() */
	enable = q->idle_window;
	if (!c->slice_idle || (c->hw_tag && CIC_SEEKY(q)))
		enable = false;
	else if (SAMPLE_VALID(q->ttime_samples))
		enable = q->ttime_mean <= (uint64_t)c->slice_idle;
	q->idle_window = enable;

	q->last_request_pos = sector + r->len / 512;
}

static int cfq_add(void *e, struct sim_req *r)
{
	struct cfq *c = e;
	struct cfqq *q = cfqq_get(c, r->ioctx);
	int id = r->ioctx;

	/* cfq_allow_merge(): only into a request of the same io_context */
	if (rql_merge(&q->rq, r, c->max_bytes))
		return ELV_ADD_MERGED;
	rql_insert(&q->rq, r);
	/* the active queue is served directly, the others wait in the tree */
	if (!q->on_rr && id != c->active)
		rr_add(c, id, false);
	update_stats_on_enqueue(c, q, r);
	SIM_TRACE(c->clk, "cfq   add q%d off=%lluK ttime=%llu idle_window=%d", id,
		  (unsigned long long)r->off >> 10, (unsigned long long)q->ttime_mean, q->idle_window);

	if (id == c->active) {
		if (c->wait_request) {
			c->st.idle_hits++;
			idle_end(c);
			return ELV_ADD_START;	/* "let it rip": blk_start_queueing() */
		}
	} else if (c->active >= 0) {
		/* cfq_should_preempt(), 2.6.29, both queues sync, same class */
		struct cfqq *a = &c->qs[c->active];
		bool preempt = slice_used(c, a);

		if (!preempt && c->p->cfq_preempt_close && c->wait_request)
			preempt = rq_close(c, a, r, false);
		if (preempt) {
			c->st.preempts++;
			SIM_TRACE(c->clk, "cfq   preempt q%d by q%d", c->active, id);
			slice_expired(c);
			rr_add(c, id, true);
			return ELV_ADD_START;
		}
	}
	return ELV_ADD_QUEUED;
}

static struct sim_req *cfq_next(void *e)
{
	struct cfq *c = e;
	struct cfqq *q;
	struct sim_req *r = NULL;
	int coop;

	/* cfq_select_queue() */
	if (c->active >= 0) {
		q = &c->qs[c->active];
		if (slice_used(c, q))
			goto expire;
		if (q->rq.n)
			goto keep;
		coop = close_cooperator(c, c->active);
		if (coop >= 0) {
			c->st.coop_switches++;
			slice_expired(c);
			rr_add(c, coop, true);
			goto new_queue;
		}
		if (c->timer_pending || (q->dispatched && q->idle_window))
			return NULL;
expire:
		slice_expired(c);
	}
new_queue:
	if (!c->nrr)
		return NULL;
	set_active(c, c->rr[0]);
	rr_del(c, c->rr[0]);
keep:
	q = &c->qs[c->active];
	if (q->dispatched >= (int)c->p->cfq_quantum &&
	    (c->nrr > 0 || (c->lone_max && q->dispatched >= c->lone_max)))
		return NULL;
	idle_end(c);
	/* cfq_check_fifo(): once per slice, an expired request goes first */
	if (!q->fifo_checked) {
		struct sim_req *o = rql_oldest(&q->rq);

		q->fifo_checked = true;
		if (o && jiffies(c) >= o->t_add / c->jiffy + c->fifo_expire)
			r = o;
	}
	if (!r)
		r = choose_req(c, q);
	rql_remove(&q->rq, r);
	q->dispatched++;
	c->rq_in_driver++;
	c->last_position = (r->off + r->len) / 512;
	return r;
}

static void cfq_completed(void *e, struct sim_req *r)
{
	struct cfq *c = e;
	struct cfqq *q = &c->qs[r->ioctx];
	int64_t now = jiffies(c);

	c->rq_in_driver--;
	q->dispatched--;
	q->last_end_request = now;
	if (c->active == r->ioctx) {
		if (q->slice_new) {
			q->slice_end = now + c->slice_sync;
			q->slice_new = false;
		}
		if (slice_used(c, q))
			slice_expired(c);
		else if (!q->rq.n)
			arm_slice_timer(c);
	}
}

static void cfq_free(void *e)
{
	struct cfq *c = e;
	int i;

	for (i = 0; i < c->nq; i++)
		rql_free(&c->qs[i].rq);
	free(c->qs);
	free(c->rr);
	free(c);
}

static void cfq_report(void *e, FILE *f)
{
	const struct cfq_stats *c = elv_cfq_stats(e);

	fprintf(f, " cfq_queues=%u cfq_slices=%" PRIu64 " cfq_idles=%" PRIu64
		" cfq_idle_hits=%" PRIu64 " cfq_idle_expired=%" PRIu64
		" cfq_preempts=%" PRIu64 " cfq_coop=%" PRIu64 " cfq_idle_ms=%.1f",
		c->queues, c->slices, c->idles, c->idle_hits, c->idle_expired,
		c->preempts, c->coop_switches, (double)c->idle_ns / SIM_MS);
}

const struct elv_ops elv_cfq_ops = {
	.dispatch_batch	= true,
	.init		= cfq_init,
	.report		= cfq_report,
	.add		= cfq_add,
	.next		= cfq_next,
	.completed	= cfq_completed,
	.free		= cfq_free,
};
