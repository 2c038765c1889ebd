// SPDX-License-Identifier: GPL-2.0-only
/*
 * coop_stats=1 output; see stats.h.
 */
#include <stdio.h>

#include "engines/coop/stats.h"

void coop_devstats_add(struct coop_devstats *ds, const char *path)
{
	dev_t dev;
	unsigned int i;
	int is_bdev;

	if (pp_blkdev_of(path, &dev, &is_bdev))
		return;
	for (i = 0; i < ds->n; i++)
		if (ds->d[i].dev == dev)
			return;
	if (ds->n == COOP_MAX_DEVS)
		return;
	if (pp_blkdev_name(dev, ds->d[ds->n].name, sizeof(ds->d[ds->n].name)) ||
	    pp_blkstat_read(dev, &ds->d[ds->n].before))
		return;
	ds->d[ds->n].dev = dev;
	ds->n++;
}

static double avg_kb(uint64_t sectors, uint64_t ios)
{
	return ios ? (double)sectors * 512 / 1024 / (double)ios : 0;
}

void coop_stats_emit(const struct coop_pool *p, const struct coop_devstats *ds,
		     void (*emit)(void *ctx, const char *line), void *ctx)
{
	struct coop_worker_stats st;
	uint64_t reqs = 0, ooo = 0;
	struct pp_blkstat now;
	unsigned int i;
	char line[512];

	for (i = 0; i < coop_pool_threads(p); i++) {
		coop_pool_worker_stats(p, i, &st);
		snprintf(line, sizeof(line),
			 "worker=%u tid=%d requests=%llu bytes=%llu busy_ms=%.1f out_of_order=%llu ra_windows=%llu ioprio=%d",
			 i, st.tid, (unsigned long long)st.reqs,
			 (unsigned long long)st.bytes, st.busy_ns / 1e6,
			 (unsigned long long)st.out_of_order,
			 (unsigned long long)st.ra_windows, st.ioprio);
		emit(ctx, line);
		reqs += st.reqs;
		ooo += st.out_of_order;
	}
	snprintf(line, sizeof(line),
		 "stream requests=%llu out_of_order=%llu ra_dropped=%llu",
		 (unsigned long long)reqs, (unsigned long long)ooo,
		 (unsigned long long)coop_pool_ra_dropped(p));
	emit(ctx, line);
	for (i = 0; i < ds->n; i++) {
		const struct pp_blkstat *b = &ds->d[i].before;

		if (pp_blkstat_read(ds->d[i].dev, &now))
			continue;
		snprintf(line, sizeof(line),
			 "device=%s reads=%llu avg_read_kb=%.1f writes=%llu avg_write_kb=%.1f",
			 ds->d[i].name,
			 (unsigned long long)(now.rd_ios - b->rd_ios),
			 avg_kb(now.rd_sectors - b->rd_sectors, now.rd_ios - b->rd_ios),
			 (unsigned long long)(now.wr_ios - b->wr_ios),
			 avg_kb(now.wr_sectors - b->wr_sectors, now.wr_ios - b->wr_ios));
		emit(ctx, line);
	}
}
