/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Seeded random streams, one per consumer (splitmix64): each consumer keys
 * its own stream with the run's seed, so how often one of them draws never
 * moves another's draws.  sim_rng_below() scales a draw in [0, 1) by the
 * bound, so a bound 5 % larger gives every draw 5 % larger, not new draws.
 */
#ifndef PERFPACK_SIM_RNG_H
#define PERFPACK_SIM_RNG_H

#include <math.h>
#include <stdint.h>

#include "engines/sim/clock.h"

#define SIM_RNG_GOLDEN	0x9E3779B97F4A7C15ULL

/* the consumers' stream keys */
enum sim_rng_stream {
	SIM_RNG_DISK = 1,	/* the drive's spindle phase (disk.c) */
	SIM_RNG_NOISE = 2,	/* the SCST threads' noise with jitter_exp (target.c) */
};

struct sim_rng {
	uint64_t s;
};

static inline void sim_rng_init(struct sim_rng *r, uint64_t seed, enum sim_rng_stream k)
{
	r->s = seed * SIM_RNG_GOLDEN ^ ((uint64_t)k << 32);
}

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t z = (r->s += SIM_RNG_GOLDEN);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n): the draw's top 53 bits as a fraction of n */
static inline sim_ns sim_rng_below(struct sim_rng *r, sim_ns n)
{
	return (sim_ns)((double)(sim_rng_next(r) >> 11) * 0x1.0p-53 * (double)n);
}

/* exponential with mean @mean: -ln(1 - u) x mean, u in [0, 1) */
static inline sim_ns sim_rng_exp(struct sim_rng *r, sim_ns mean)
{
	return (sim_ns)(-log1p(-(double)(sim_rng_next(r) >> 11) * 0x1.0p-53) * (double)mean);
}

#endif
