/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iSCSI link over 1 GbE: commands (a 48-byte PDU) take the one-way
 * latency; Data-In is serialised on the wire at the payload ceiling, FIFO.
 */
#ifndef PERFPACK_SIM_LINK_H
#define PERFPACK_SIM_LINK_H

#include <stdint.h>

#include "engines/sim/clock.h"
#include "engines/sim/params.h"

struct link {
	double bps;
	sim_ns latency;
	sim_ns tx_free;		/* target -> initiator wire free from */
	sim_ns last_start;	/* when the last burst queued starts leaving */
	uint64_t cmds, bytes;
	sim_ns busy_ns;
	/* told when a Data-In burst starts leaving the target (carries ACKs) */
	void (*tx_hook)(void *ctx, sim_ns start);
	void *tx_ctx;
};

void link_init(struct link *l, const struct sim_params *p);
/* A command sent at @now reaches the target at the returned time. */
sim_ns link_cmd(struct link *l, sim_ns now);
/* @len bytes of data + status queued at @now arrive at the initiator at the returned time. */
sim_ns link_data(struct link *l, sim_ns now, uint64_t len);

#endif
