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
	uint64_t cmds, bytes;
	sim_ns busy_ns;
};

void link_init(struct link *l, const struct sim_params *p);
/* A command sent at @now reaches the target at the returned time. */
sim_ns link_cmd(struct link *l, sim_ns now);
/* @len bytes of data + status queued at @now arrive at the initiator at the returned time. */
sim_ns link_data(struct link *l, sim_ns now, uint64_t len);

#endif
