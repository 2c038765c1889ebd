/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The initiator: the application's read(2)s (the fio job, i.e. dd) go
 * through the client's page cache and readahead; misses become block
 * requests cut at client_max_sectors_kb, ordered by the client's elevator
 * and sent as iSCSI commands (at most client_qdepth outstanding).
 */
#ifndef PERFPACK_SIM_CLIENT_H
#define PERFPACK_SIM_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/sim/blkq.h"
#include "engines/sim/link.h"
#include "engines/sim/pagecache.h"
#include "engines/sim/readahead.h"
#include "engines/sim/target.h"

struct areq {
	uint64_t off, len;
	void *cookie;
	struct file_read rd;
	bool waiting;
	uint32_t wait_page;
	sim_ns t_done;
	struct areq *next;
	struct areq *all;
};

/* The iSCSI session's CmdSN window and the SCSI host's blocked state. */
struct iscsi_win_stats {
	uint64_t closed;		/* commands refused: window closed */
	uint64_t blocked_runs;		/* queue runs spent counting host_blocked down */
	sim_ns blocked_ns;		/* refusal -> next command sent, summed */
	sim_ns drained_at;		/* last time a blocked host reached zero depth */
	sim_ns unblocked_at;		/* last time a blocked host sent again */
};

struct client {
	struct sim_clock *clk;
	const struct sim_params *p;
	struct link *link;
	struct target *tgt;
	struct pagecache pc;
	struct ra_state ra;		/* dd's struct file */
	struct ra_ctx rc;
	struct blkq q;
	struct areq *active;		/* reads in progress */
	struct areq *done_head, *done_tail;
	struct areq *free_list, *all;
	uint64_t reads, bytes;
	uint64_t cmdsn;			/* commands sent (0-based CmdSN of the next) */
	uint64_t cmd_limit;		/* MaxCmdSN + 1 as last seen */
	unsigned int host_blocked;	/* Scsi_Host.host_blocked */
	bool refused;			/* a refusal awaits the next send */
	sim_ns refused_at;
	struct iscsi_win_stats win;
	/* Nagle on the session's socket: held command PDUs, FIFO ring */
	struct sim_req **held;
	uint32_t held_head, held_n, held_cap;
	bool unacked;			/* a sent segment awaits its ACK */
	bool ack_owed;			/* it reached the target, which has not answered */
	uint64_t seg_gen;		/* segment generation, to drop stale ACK events */
	uint64_t nagle_held, nagle_segs;
	sim_ns nagle_wait_ns, held_since;
};

int client_init(struct client *c, struct sim_clock *clk, const struct sim_params *p,
		struct link *link, struct target *tgt, uint64_t file_size);
void client_free(struct client *c);
/* The application calls read(2) for [off, off+len) now. */
void client_read(struct client *c, uint64_t off, uint64_t len, void *cookie);
/* A finished read (oldest first), or NULL. */
struct areq *client_reap(struct client *c);
void client_put(struct client *c, struct areq *a);

#endif
