/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's unit tests (tests/unit/sim-test*.c): one file per mechanism
 * group, each exporting a runner that main() (sim-test.c) calls, and the
 * helpers they share.
 */
#ifndef PERFPACK_TESTS_SIM_TEST_H
#define PERFPACK_TESTS_SIM_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "engines/sim/blkq.h"
#include "engines/sim/client.h"
#include "engines/sim/disk.h"
#include "engines/sim/link.h"
#include "engines/sim/readahead.h"
#include "engines/sim/sched_cfq.h"
#include "engines/sim/sim.h"
#include "engines/sim/target.h"
#include "tests/unit/check.h"

/* The groups, in the order main() runs them. */
void sim_test_readahead(void);	/* sim-test-readahead.c */
void sim_test_queue(void);	/* sim-test-queue.c: blkq + elevators */
void sim_test_device(void);	/* sim-test-device.c: disk, link */
void sim_test_target(void);	/* sim-test-target.c */
void sim_test_client(void);	/* sim-test-client.c */
void sim_test_run(void);	/* sim-test-run.c: clock, whole runs */

/* A blockdev-perftest-like read of @size in @bs reads; the report in @out. */
void run_sweep(const struct sim_params *p, uint64_t size, uint64_t bs, char *out, size_t n);
/* The number after @key in a report, ~0 when absent. */
uint64_t field(const char *rep, const char *key);

#endif
