/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The coop engine's options, as fio's parser fills them in.
 *
 * Field names are an interface: the model (engines/sim/, coop_backend=sim)
 * reads threads, dispatch, fd, ioctx, ra, ra_kb, split_kb and stats to set
 * up the simulated pool the same way the real one would be.
 */
#ifndef PERFPACK_COOP_H
#define PERFPACK_COOP_H

#include "engines/coop/pool.h"
#include "engines/coop/sim_opts.h"

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
	unsigned int opt_refused; /* an integer option was out of range (PP_UINT_OPT_CB) */
	/*
	 * The enum options as written (fio's parser stores, duplicates and
	 * frees these; the values above are what counts).
	 */
	char *dispatch_str, *fd_str, *ioctx_str, *ra_str, *backend_str;
	struct sim_options sim;	/* sim_*: the model's own options */
};

#endif
