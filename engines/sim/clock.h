/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's virtual clock: a binary heap of timed events.  Time only
 * advances by popping events, never by reading a real clock, so a run is a
 * pure function of its inputs.  Ties are broken by insertion order (seq),
 * which keeps runs bit-for-bit reproducible.
 */
#ifndef PERFPACK_SIM_CLOCK_H
#define PERFPACK_SIM_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int64_t sim_ns;		/* modeled nanoseconds since the model started */

#define SIM_US	1000LL
#define SIM_MS	1000000LL
#define SIM_S	1000000000LL

typedef void (*sim_ev_fn)(void *ctx, uint64_t arg);

struct sim_ev {
	sim_ns t;
	uint64_t seq;
	sim_ev_fn fn;
	void *ctx;
	uint64_t arg;
};

struct sim_clock {
	sim_ns now;
	uint64_t seq;
	uint64_t nevents;	/* events run so far (the model's cost unit) */
	struct sim_ev *heap;
	size_t n, cap;
};

void clk_init(struct sim_clock *c);
void clk_free(struct sim_clock *c);
/* Run fn(ctx, arg) at time t (never earlier than now). */
void clk_at(struct sim_clock *c, sim_ns t, sim_ev_fn fn, void *ctx, uint64_t arg);
static inline void clk_after(struct sim_clock *c, sim_ns d, sim_ev_fn fn,
			     void *ctx, uint64_t arg)
{
	clk_at(c, c->now + d, fn, ctx, arg);
}
/* Pop and run the earliest event; false when none is left. */
bool clk_step(struct sim_clock *c);
/* Time of the earliest pending event, or -1. */
sim_ns clk_next(const struct sim_clock *c);

#endif
