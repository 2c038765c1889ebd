// SPDX-License-Identifier: GPL-2.0-only
/*
 * iSCSI link timing (see link.h).
 */
#include "engines/sim/link.h"

void link_init(struct link *l, const struct sim_params *p)
{
	*l = (struct link){ 0 };
	l->bps = p->link_mbps * 1e6;
	l->latency = (sim_ns)p->link_latency_us * SIM_US;
}

sim_ns link_cmd(struct link *l, sim_ns now)
{
	l->cmds++;
	return now + l->latency;
}

sim_ns link_data(struct link *l, sim_ns now, uint64_t len)
{
	sim_ns start = now > l->tx_free ? now : l->tx_free;
	sim_ns d = (sim_ns)((double)len * SIM_S / l->bps);

	l->last_start = start;
	if (l->tx_hook)
		l->tx_hook(l->tx_ctx, start);
	l->tx_free = start + d;
	l->bytes += len;
	l->busy_ns += d;
	return l->tx_free + l->latency;
}
