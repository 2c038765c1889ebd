/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * coop_stats=1: per worker, what it executed; per device, the average
 * request size the device saw (deltas of /sys/dev/block/M:m/stat over the
 * job, so other traffic on the same device counts too).  No fio here.
 */
#ifndef PERFPACK_COOP_STATS_H
#define PERFPACK_COOP_STATS_H

#include <sys/time.h>
#include <sys/types.h>

#include "engines/common/blkdev.h"
#include "engines/coop/pool.h"

#define COOP_MAX_DEVS	8

struct coop_devstats {
	unsigned int n;
	struct {
		dev_t dev;
		char name[32];
		struct pp_blkstat before;
	} d[COOP_MAX_DEVS];
};

/* Snapshot the device holding @path, once per device (no-op on tmpfs...). */
void coop_devstats_add(struct coop_devstats *ds, const char *path);

/*
 * Emit the statistics as "key=value ..." lines through @emit: one line per
 * worker, one per device, one summary.  Only after coop_pool_stop().
 */
void coop_stats_emit(const struct coop_pool *p, const struct coop_devstats *ds,
		     void (*emit)(void *ctx, const char *line), void *ctx);

/*
 * The workers' CPU time in fio's figures.  fio counts a job's usr_cpu and
 * sys_cpu with getrusage(RUSAGE_THREAD) on the job's thread alone: the
 * difference between td->ru_start, taken at the start and after every
 * update, and the thread's rusage at the next update (fio's stat.c,
 * update_rusage_stat(), which runs in the job's thread).  coop_cpu_fold(),
 * called by the job's thread in getevents, moves @ru_start back by what
 * the workers used since the last fold, so fio's next difference includes
 * it.  @acc remembers what was folded already.
 */
struct coop_cpu {
	unsigned int gen;	/* coop_pool_cpu_gen() at the last fold */
	uint64_t usr_us, sys_us;	/* worker CPU folded so far */
	uint64_t *w_usr_us, *w_sys_us;	/* per worker, likewise */
};

int coop_cpu_init(struct coop_cpu *acc, const struct coop_pool *p);
void coop_cpu_fold(struct coop_cpu *acc, const struct coop_pool *p,
		   struct timeval *ru_utime, struct timeval *ru_stime);
void coop_cpu_free(struct coop_cpu *acc);

#endif
