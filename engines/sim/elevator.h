/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The elevator interface: what a queue hands its I/O scheduler, and the
 * schedulers' operations.  sched_{noop,deadline,cfq}.c implement it without
 * knowing the queue (blkq.c); elevator.c holds the table the model's queues
 * choose from by name.
 */
#ifndef PERFPACK_SIM_ELEVATOR_H
#define PERFPACK_SIM_ELEVATOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/sim/clock.h"
#include "engines/sim/params.h"
#include "engines/sim/rqlist.h"

/* One queue's configuration of its elevator. */
struct elv_conf {
	struct sim_clock *clk;
	const struct sim_params *p;	/* tunables: cfq_*, dl_*, hz */
	uint64_t max_bytes;		/* merge limit: the queue's max_sectors_kb */
	uint32_t qdepth;		/* device slots (CFQ's hw_tag) */
	unsigned int cfq_lone_mult;	/* CFQ: a lone queue's dispatch cap, x quantum; 0 = none */
	void (*run)(void *ctx);		/* run the queue: an elevator timer fired */
	void *run_ctx;
};

enum { ELV_ADD_QUEUED, ELV_ADD_MERGED, ELV_ADD_START };

/* An elevator's name is its SIM_SCHEDS entry (params.h), not a field here. */
struct elv_ops {
	/*
	 * true: one elevator_dispatch_fn call moves requests until next()
	 * returns NULL (2.6.29 cfq_dispatch_requests() loops over
	 * cfq_select_queue()); false: one request per call (deadline, noop)
	 */
	bool dispatch_batch;
	void *(*init)(const struct elv_conf *conf);
	/*
	 * ELV_ADD_MERGED: @r was merged into a queued request (the queue
	 * frees it); ELV_ADD_QUEUED: queued; ELV_ADD_START: queued, and the
	 * elevator runs the queue now even if it is plugged (2.6.26/2.6.29
	 * cfq_rq_enqueued(): a request of the queue CFQ idles for, or one
	 * that preempts, calls blk_start_queueing(), which unplugs)
	 */
	int (*add)(void *e, struct sim_req *r);
	/* the next request for the device, or NULL (maybe waiting on a timer) */
	struct sim_req *(*next)(void *e);
	void (*completed)(void *e, struct sim_req *r);
	/* optional: append " key=value..." counters to the model report */
	void (*report)(void *e, FILE *f);
	void (*free)(void *e);
};

extern const struct elv_ops elv_noop_ops, elv_deadline_ops, elv_cfq_ops;

/* The elevator for enum sim_sched @sched, NULL if unknown. */
const struct elv_ops *sim_elevator(int sched);

#endif
