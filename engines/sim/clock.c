// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event heap of the virtual clock (see clock.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engines/sim/clock.h"

void clk_init(struct sim_clock *c)
{
	memset(c, 0, sizeof(*c));
}

void clk_free(struct sim_clock *c)
{
	free(c->heap);
	c->heap = NULL;
	c->n = c->cap = 0;
}

static bool ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void clk_at(struct sim_clock *c, sim_ns t, sim_ev_fn fn, void *ctx, uint64_t arg)
{
	size_t i;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->heap = realloc(c->heap, c->cap * sizeof(*c->heap));
		if (!c->heap)
			abort();	/* a few KiB: out of memory is not recoverable here */
	}
	if (t < c->now)
		t = c->now;
	i = c->n++;
	struct sim_ev ev = { .t = t, .seq = c->seq++, .fn = fn, .ctx = ctx, .arg = arg };

	while (i) {
		size_t p = (i - 1) / 2;

		if (!ev_before(&ev, &c->heap[p]))
			break;
		c->heap[i] = c->heap[p];
		i = p;
	}
	c->heap[i] = ev;
}

sim_ns clk_next(const struct sim_clock *c)
{
	return c->n ? c->heap[0].t : -1;
}

bool clk_step(struct sim_clock *c)
{
	struct sim_ev ev, last;
	size_t i = 0;

	if (!c->n)
		return false;
	ev = c->heap[0];
	last = c->heap[--c->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct sim_ev *best = &last;

		if (l < c->n && ev_before(&c->heap[l], best)) {
			m = l;
			best = &c->heap[l];
		}
		if (r < c->n && ev_before(&c->heap[r], best))
			m = r;
		if (m == i)
			break;
		c->heap[i] = c->heap[m];
		i = m;
	}
	if (c->n)
		c->heap[i] = last;
	c->now = ev.t;
	c->nevents++;
	ev.fn(ev.ctx, ev.arg);
	return true;
}
