/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CFQ's counters, for the model report and the unit tests.
 */
#ifndef PERFPACK_SIM_SCHED_CFQ_H
#define PERFPACK_SIM_SCHED_CFQ_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/sim/clock.h"

struct cfq_stats {
	uint64_t slices;	/* queue activations */
	uint64_t idles;		/* idle windows armed */
	uint64_t idle_hits;	/* ... ended by a request of the idling queue */
	uint64_t idle_expired;	/* ... ended by the timer */
	uint64_t preempts;	/* cfq_should_preempt() switches */
	uint64_t coop_switches;	/* close cooperator switches (cfq_coop) */
	sim_ns idle_ns;		/* disk time spent idling */
	uint32_t queues;	/* io_contexts seen */
};

/* The counters of a CFQ instance (a queue's elevator data). */
const struct cfq_stats *elv_cfq_stats(void *e);
/*
 * 2.6.26 CFQ: idle on an empty active queue even with requests in the
 * driver (2.6.26 cfq_arm_slice_timer() has no rq_in_driver check; 2.6.29
 * added "still requests with the driver, don't idle").  Default: 2.6.29.
 */
void elv_cfq_set_idle_in_flight(void *e, bool on);

#endif
