/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * coop_stats=1: per worker, what it executed; per device, the average
 * request size the device saw (deltas of /sys/dev/block/M:m/stat over the
 * job, so other traffic on the same device counts too).  No fio here.
 */
#ifndef PERFPACK_COOP_STATS_H
#define PERFPACK_COOP_STATS_H

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

#endif
