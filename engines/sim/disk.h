/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A 7200 rpm disk of 2009 serving one request at a time (with NCQ it holds
 * several and the target picks, see target.c): command overhead,
 * a distance-dependent seek, rotational latency from the platter's angle
 * (so a sequential read that arrives late waits for the sector to come
 * round again), media transfer, and optional read look-ahead into the
 * drive's cache after each read.
 */
#ifndef PERFPACK_SIM_DISK_H
#define PERFPACK_SIM_DISK_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/sim/clock.h"
#include "engines/sim/params.h"
#include "engines/sim/rng.h"

struct disk_stats {
	uint64_t requests, bytes, seeks, cache_hits, streamed;
	uint64_t rot_waits, rot_drawn;	/* waits for a sector; of them with the phase drawn */
	sim_ns busy_ns, seek_ns, rot_ns;
};

struct disk {
	sim_ns rot_ns;			/* one revolution */
	double media_bps, iface_bps;
	uint64_t track_bytes, capacity;
	sim_ns seek_min, seek_max, cmd_ns;
	uint64_t prefetch, cache;
	unsigned int readthrough, rot_random;
	/* the platter's angle at time t is that of (t + phase) */
	sim_ns phase;
	struct sim_rng rng;
	/* state: media read [seg_lo, p_end) ended at t_end */
	uint64_t seg_lo, p_end;
	sim_ns t_end;
	struct disk_stats st;
};

void disk_init(struct disk *d, const struct sim_params *p);
/* Seek time over @dist bytes (0 within a track). */
sim_ns disk_seek_time(const struct disk *d, uint64_t dist);
/* Wait at time @t until the byte @off passes under the head (phase 0). */
sim_ns disk_rot_wait(const struct disk *d, sim_ns t, uint64_t off);
/* Serve [off, off+len) starting at @now; returns the completion time. */
sim_ns disk_service(struct disk *d, sim_ns now, uint64_t off, uint64_t len);
/* When disk_service() would complete [off, off+len) started at @now; no state change. */
sim_ns disk_probe(const struct disk *d, sim_ns now, uint64_t off, uint64_t len);

#endif
