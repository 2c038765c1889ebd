/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every knob of the 2009 SCST testbed model, in plain C (no fio).  The
 * defaults describe the setup of seed 001 and say where they come from; the
 * fio options in sim_opts.h fill this struct (backend_sim.c).
 */
#ifndef PERFPACK_SIM_PARAMS_H
#define PERFPACK_SIM_PARAMS_H

#include <stddef.h>

enum sim_sched { SIM_SCHED_CFQ, SIM_SCHED_DEADLINE, SIM_SCHED_NOOP };
enum sim_ra { SIM_RA_CLASSIC, SIM_RA_CONTEXT, SIM_RA_OFF };
enum sim_order { SIM_ORDER_SIMPLE, SIM_ORDER_ORDERED };

struct sim_params {
	/* initiator: Debian lenny 2.6.26, one dd reading a file on XFS */
	unsigned int client_ra_kb;		/* read_ahead_kb */
	unsigned int client_max_sectors_kb;	/* max_sectors_kb = iSCSI command size */
	unsigned int client_qdepth;		/* iSCSI session queue depth */
	unsigned int client_nr_requests;	/* request slots of the sdX queue */
	unsigned int client_cfq_lone_mult;	/* lone CFQ queue cap, x quantum (0: none) */
	unsigned int client_host_blocked;	/* max_host_blocked on HOST_BUSY (0: wait for window) */
	unsigned int client_hz;			/* initiator CONFIG_HZ (unplug timer) */
	unsigned int client_unplug_ms;		/* queue unplug_delay */
	int client_sched;			/* enum sim_sched */
	unsigned int client_syscall_ns;		/* read(2) entry/exit */
	unsigned int client_copy_mbps;		/* copy_to_user from page cache */

	/* iSCSI over 1 GbE */
	unsigned int link_mbps;			/* payload ceiling, MB/s (10^6) */
	unsigned int link_latency_us;		/* one way, per PDU */

	/* SCST target (vdisk fileio on a file on XFS) */
	unsigned int threads;			/* SCST I/O threads */
	int dispatch_rr;			/* 0: shared FIFO (SCST), 1: cmd k -> thread k%N */
	int fd_shared;				/* 1: one struct file for all threads */
	int ioctx_shared;			/* 1: io_context patch (one CFQ queue) */
	int order;				/* enum sim_order */
	int server_ra;				/* enum sim_ra */
	unsigned int server_ra_kb;
	unsigned int server_file_ra_kb;		/* ra_pages of the SCST files (0 = server_ra_kb) */
	unsigned int server_max_sectors_kb;
	unsigned int server_nr_requests;	/* request slots of the disk's queue */
	int sched;				/* enum sim_sched on the target disk */
	unsigned int target_queued_cmds;	/* iscsi-scst QueuedCommands (CmdSN window), 0 = none */
	unsigned int target_cmd_us;		/* SCSI parse + page-cache lookup per cmd */
	unsigned int target_copy_mbps;		/* page cache -> SCST buffers */
	unsigned int target_iov_kb;		/* readv() segment size, 0 = whole cmd */
	unsigned int handoff_us;		/* waking a sleeping thread for a cmd */
	unsigned int wake_lifo;			/* most recently idle thread first */
	unsigned int bind_at_run;		/* a woken thread takes the oldest cmd when it runs */
	unsigned int jitter_us;			/* CPU scheduling noise per command start */
	unsigned int seed;			/* of the jitter's PRNG (determinism) */

	/* CFQ (2.6.29) and deadline tunables, kernel defaults */
	unsigned int hz;
	unsigned int cfq_slice_idle_ms;
	unsigned int cfq_slice_sync_ms;
	unsigned int cfq_quantum;
	unsigned int cfq_fifo_expire_ms;
	unsigned int cfq_back_seek_max_kb;
	unsigned int cfq_back_seek_penalty;
	unsigned int cfq_preempt_close;			/* 2.6.29 cfq_should_preempt(): rq close to head */
	unsigned int cfq_coop;				/* 2.6.30 close cooperator: switch instead of idling */
	unsigned int dl_read_expire_ms;
	unsigned int dl_fifo_batch;

	/* the disk: a 7200 rpm SATA drive of 2008/2009 */
	unsigned int disk_rpm;
	unsigned int disk_media_mbps;		/* outer-zone sustained rate */
	unsigned int disk_seek_min_us;		/* track to track */
	unsigned int disk_seek_max_us;		/* full stroke */
	unsigned int disk_capacity_gb;
	unsigned int disk_cmd_us;		/* command overhead (controller + firmware) */
	unsigned int disk_iface_mbps;		/* SATA transfer from the drive's cache */
	unsigned int disk_prefetch_kb;		/* read look-ahead past a read (0 = off) */
	unsigned int disk_cache_kb;		/* cache segment kept behind the head */
	unsigned int disk_qdepth;		/* NCQ depth (1 = none) */
	unsigned int disk_readthrough;			/* look-ahead streams over small gaps */
};

void sim_params_default(struct sim_params *p);
/* 0, or -1 with a message naming the culprit in err. */
int sim_params_check(const struct sim_params *p, char *err, size_t errlen);
const char *sim_sched_name(int s);
const char *sim_ra_name(int r);



/*
 * Set one parameter by its option name without the "sim_"/"coop_" prefix
 * (e.g. "client_ra_kb", "sched", "ioctx"); for host tools.  0 or -1 + err.
 */
int sim_params_set(struct sim_params *p, const char *name, const char *val,
		   char *err, size_t errlen);
#endif
