// SPDX-License-Identifier: GPL-2.0-only
/*
 * The elevators the model's queues choose from (sysfs queue/scheduler).
 */
#include "engines/sim/elevator.h"

static const struct elv_ops *const elevators[] = {
	[SIM_SCHED_CFQ] = &elv_cfq_ops,
	[SIM_SCHED_DEADLINE] = &elv_deadline_ops,
	[SIM_SCHED_NOOP] = &elv_noop_ops,
};

const struct elv_ops *sim_elevator(int sched)
{
	if (sched < 0 || (unsigned int)sched >= sizeof(elevators) / sizeof(elevators[0]))
		return NULL;
	return elevators[sched];
}
