/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A block request queue: requests cut at max_sectors_kb, merged with queued
 * neighbours, ordered by an I/O scheduler (elevator.h), and handed to a
 * device (the disk, or the iSCSI session on the initiator) that has
 * @qdepth slots.
 */
#ifndef PERFPACK_SIM_BLKQ_H
#define PERFPACK_SIM_BLKQ_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/sim/clock.h"
#include "engines/sim/elevator.h"
#include "engines/sim/params.h"
#include "engines/sim/rqlist.h"


struct blkq_stats {
	uint64_t submitted, merged, dispatched, bytes;
	uint64_t congested;		/* times the queue turned congested */
	uint32_t max_dl;		/* longest dispatch list */
	uint32_t max_rq;		/* most requests allocated at once */
};

struct blkq {
	struct sim_clock *clk;
	const struct elv_ops *ops;
	void *e;
	uint32_t qdepth, in_flight;
	/*
	 * Request slots (2.6.29 request_list): nr_rq requests allocated
	 * (queued or in the device); congested from nr_rq >= cong_on until
	 * nr_rq < cong_off.  nr_requests 0: untracked, never congested.
	 */
	uint32_t nr_requests, nr_rq, cong_on, cong_off;
	bool congested;
	uint64_t max_bytes;
	/* device: start serving @r, later call blkq_complete() */
	void (*start)(void *dev, struct sim_req *r);
	/*
	 * optional: the device is offered @r in a queue run (blkq_kick());
	 * false = refused now, @r goes back to the head of the dispatch
	 * list (blk_requeue_request()) and the run ends (the initiator's
	 * closed CmdSN window / blocked host)
	 */
	bool (*may_start)(void *dev, struct sim_req *r);
	/*
	 * The dispatch list (q->queue_head; 2.6.26/2.6.29 elevator.c
	 * __elv_next_request()): the driver takes its head; only when it is
	 * empty does a queue run ask the elevator (elevator_dispatch_fn), and
	 * the order of what the elevator moved there is frozen.  CFQ moves a
	 * whole round (elv_ops.dispatch_batch), deadline and noop one request.
	 * dispatch_list 0: no list, the elevator is asked whenever the device
	 * has a free slot.
	 */
	struct sim_req *dl_head, *dl_tail;
	uint32_t dl_n;
	bool dispatch_list;
	/*
	 * Plugging (2.6.26/2.6.29 blk-core.c __make_request(),
	 * blk_plug_device(), elevator.c elv_insert()): a request added to an
	 * empty queue plugs it; it is run by the unplug_thresh'th queued
	 * request, the unplug timer (unplug_delay jiffies after the current
	 * tick), a completion (scsi_run_queue()), blkq_unplug() (sync_page(),
	 * the readahead patch's blk_run_backing_dev()), or the elevator
	 * (ELV_ADD_START, its idle timer: blk_start_queueing()).  plug_hz 0:
	 * never plugged (the queue runs at once).
	 */
	unsigned int plug_hz, plug_delay_ms, unplug_thresh;
	bool plugged;
	uint64_t plug_gen;
	uint64_t plugs, timer_unplugs;	/* report: plugs, unplugs by the timer */
	void *dev;
	/* owner (page cache): @r's data is there */
	void (*done)(void *owner, const struct sim_req *r);
	void *owner;
	uint64_t seq;
	struct sim_req *free_list, *all;
	struct blkq_stats st;
};

/*
 * A queue with elevator @elv (tunables from @p, CFQ's lone-queue cap
 * @cfq_lone_mult x quantum) in front of a device with @qdepth slots.
 */
int blkq_init(struct blkq *q, struct sim_clock *clk, const struct elv_ops *elv,
	      const struct sim_params *p, unsigned int cfq_lone_mult, uint32_t qdepth,
	      uint64_t max_bytes);
void blkq_free(struct blkq *q);
/*
 * nr_requests (sysfs queue/nr_requests) and the congestion thresholds of
 * blk_queue_congestion_threshold(): on at n - n/8 + 1, off below
 * n - n/8 - n/16 - 1 (128 -> 113 / 103).
 */
void blkq_set_nr_requests(struct blkq *q, uint32_t n);
/* bdi_read_congested() of the queue's backing device */
bool blkq_congested(const struct blkq *q);
/* Submit [off, off+len) for @ioctx, cut at max_bytes. */
void blkq_submit(struct blkq *q, uint64_t off, uint64_t len, int ioctx);
void blkq_kick(struct blkq *q);
/* Plug the queue now (blk_plug_device()); no-op if plugging is off. */
void blkq_plug(struct blkq *q);
/* Run a plugged queue (blk_run_backing_dev() from sync_page()). */
void blkq_unplug(struct blkq *q);
/* Plug with the unplug timer of @hz / @delay_ms and unplug_thresh @thresh. */
void blkq_set_plugging(struct blkq *q, unsigned int hz, unsigned int delay_ms,
		       unsigned int thresh);
void blkq_complete(struct blkq *q, struct sim_req *r);

#endif
