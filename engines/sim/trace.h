/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Optional event trace of the model (simrun sets it from $SIM_TRACE): one
 * line per mechanism step, for calibration and debugging.  Off by default;
 * costs one branch per step.
 */
#ifndef PERFPACK_SIM_TRACE_H
#define PERFPACK_SIM_TRACE_H

#include <stdio.h>

#include "engines/sim/clock.h"

extern FILE *sim_tracef;
extern sim_ns sim_trace_until;

#define SIM_TRACE(clk, fmt, ...)						\
	do {								\
		if (sim_tracef && (clk)->now <= sim_trace_until)	\
			fprintf(sim_tracef, "%10.3f " fmt "\n",		\
				(double)(clk)->now / SIM_MS, ##__VA_ARGS__); \
	} while (0)

#endif
