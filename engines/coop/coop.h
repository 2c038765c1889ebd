/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The coop engine's options, as fio's parser fills them in.
 *
 * Field names are an interface: the model (engines/sim/, coop_backend=sim)
 * reads threads, dispatch, fd, ioctx, ra and split_kb to set up the
 * simulated pool the same way the real one would be (backend_sim.c).
 */
#ifndef PERFPACK_COOP_H
#define PERFPACK_COOP_H

#include "engines/coop/pool.h"
#include "engines/coop/sim_opts.h"

/*
 * Options the job file or command line set, told apart from the defaults
 * fio fills in first: those are parsed into a zeroed struct before fio
 * stores its thread_data pointer at offset 0 (fio 3.33 init.c,
 * ioengine_load()), a job's own options after.  The callbacks of options
 * that do nothing in some mix record them (coop.c, note_no_effect()):
 * COOP_GIVEN_* bits in .given, the first sim_* option's name in .sim.given.
 */
#define COOP_OPT_GIVEN(o) ((o)->pad != NULL)

enum coop_given {
	COOP_GIVEN_RA_KB	= 1u << 0,
	COOP_GIVEN_STATS	= 1u << 1,
	COOP_GIVEN_COALESCE	= 1u << 2,
	COOP_GIVEN_INLINE	= 1u << 3,
};

struct coop_options {
	void *pad;		/* fio's option parser needs offset 0 unused */
	unsigned int threads;	/* coop_threads: workers in the pool, COOP_MIN_THREADS..COOP_MAX_THREADS */
	unsigned int dispatch;	/* coop_dispatch: enum coop_dispatch_mode */
	unsigned int fd;	/* coop_fd: enum coop_fd_mode */
	unsigned int ioctx;	/* coop_ioctx: enum coop_ioctx_mode */
	unsigned int ra;	/* coop_ra: enum coop_ra_mode */
	unsigned int ra_kb;	/* coop_ra_kb: largest context readahead window, KiB */
	unsigned int split_kb;	/* coop_split_kb: largest part, KiB; 0 = no split */
	unsigned int backend;	/* coop_backend: enum coop_backend_kind */
	unsigned int stats;	/* coop_stats: print per-worker stats at exit */
	unsigned int coalesce;	/* coop_coalesce: completion coalescing (pool.c) */
	unsigned int inline_cmds; /* coop_inline: caller-runs where equivalent (pool.c) */
	unsigned int given;	/* COOP_GIVEN_* bits: options the job set (COOP_OPT_GIVEN) */
	/*
	 * The enum options as written (fio's parser stores, duplicates and
	 * frees these; the values above are what counts).
	 */
	char *dispatch_str, *fd_str, *ioctx_str, *ra_str, *backend_str;
	/* the numbers and booleans as written (PP_UINT_STR_OPT_CB) */
	char *threads_str, *ra_kb_str, *split_kb_str, *stats_str, *coalesce_str, *inline_cmds_str;
	struct sim_options sim;	/* sim_*: the model's own options */
};

#endif
