/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SCST target: commands from the link wait in a queue; N I/O threads
 * take them (a sleeping thread costs a hand-off to wake), read the data
 * through the target's page cache (per-thread or shared struct file, hence
 * per-thread or shared readahead state) from a disk behind an elevator
 * (one io_context per thread, or one shared with the io_context patch),
 * and send it back over the link.
 */
#ifndef PERFPACK_SIM_TARGET_H
#define PERFPACK_SIM_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/sim/blkq.h"
#include "engines/sim/disk.h"
#include "engines/sim/rng.h"
#include "engines/sim/link.h"
#include "engines/sim/pagecache.h"
#include "engines/sim/readahead.h"

struct tcmd {
	uint64_t off, len, seq;
	uint64_t cmd_limit;	/* MaxCmdSN + 1 carried by its response */
	void *cookie;
	struct tcmd *next;
	struct tcmd *all;	/* every command allocated, for freeing */
};

struct tcmd_fifo {
	struct tcmd *head, *tail;
	uint32_t n;
};

struct tthread {
	int id;
	bool idle, waiting;
	bool begun;			/* has taken its command and started reading */
	bool woken;			/* slept before this command: pays the wake-up noise */
	struct ra_state ra;		/* its own struct file */
	struct file_read rd;
	uint64_t seg_next;		/* next readv() segment of the command */
	struct tcmd *cmd;
	struct tcmd_fifo own;		/* coop_dispatch=rr */
	uint32_t wait_page;
	uint64_t cmds, bytes, out_of_order;
	sim_ns busy_ns, t_start;
};

struct target_stats {
	uint64_t cmds, bytes, handoffs, out_of_order, max_queued;
	uint64_t sent;			/* responses that have left the target */
	uint64_t released;		/* commands through xmit_response (no longer active) */
	uint64_t rebinds;		/* commands taken by a thread woken later */
	uint64_t noise_draws;		/* commands that paid the scheduling noise */
};

struct target {
	struct sim_clock *clk;
	const struct sim_params *p;
	struct link *link;
	struct pagecache pc;
	struct ra_state shared_ra;
	struct ra_ctx rc;
	struct blkq q;
	struct disk disk;
	struct sim_req *ncq[32];	/* commands queued in the drive (NCQ) */
	uint32_t ncq_n;
	bool disk_busy;
	struct tcmd_fifo queue;
	struct tcmd *free_cmds, *all_cmds;
	struct tthread *th;
	int *idle, nidle;		/* idle threads, longest sleeping first */
	int cur;			/* thread whose read is issuing I/O */
	uint32_t executing;		/* commands being executed */
	uint64_t seq, expect;
	uint64_t rng;			/* xorshift64 state for jitter */
	struct sim_rng noise;		/* jitter_exp's own stream */
	sim_ns rx_free;			/* iscsi-scst's read thread is free from */
	int last_finisher;
	sim_ns last_finish;
	/*
	 * data for @cookie reaches the initiator at @when; the response
	 * carries MaxCmdSN: commands with a 0-based CmdSN below @cmd_limit
	 * may be sent (0: no window)
	 */
	void (*respond)(void *ctx, void *cookie, sim_ns when, uint64_t cmd_limit);
	void *rctx;
	struct target_stats st;
};

int target_init(struct target *t, struct sim_clock *clk, const struct sim_params *p,
		struct link *link, uint64_t file_size);
void target_free(struct target *t);
/* A command for [off, off+len) arrives now. */
void target_cmd(struct target *t, uint64_t off, uint64_t len, void *cookie);

#endif
