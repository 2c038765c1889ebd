// SPDX-License-Identifier: GPL-2.0-only
/*
 * coop_stats=1 output; see stats.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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

	int64_t lat_reap, lat_work, wait_avg;
	uint64_t waits, sleeps, csleeps, ctimeouts;
	uint64_t usr, sys;

	for (i = 0; i < coop_pool_threads(p); i++) {
		coop_pool_worker_stats(p, i, &st);
		if (!st.tid) {
			snprintf(line, sizeof(line),
				 "worker=%u not started: the job's thread runs every command (caller-runs)", i);
			emit(ctx, line);
			continue;
		}
		coop_pool_worker_cpu(p, i, &usr, &sys);
		snprintf(line, sizeof(line),
			 "worker=%u tid=%d requests=%llu bytes=%llu busy_ms=%.1f out_of_order=%llu ra_windows=%llu ioprio=%d wakes=%llu wake_us=%.1f usr_ms=%.1f sys_ms=%.1f",
			 i, st.tid, (unsigned long long)st.reqs,
			 (unsigned long long)st.bytes, st.busy_ns / 1e6,
			 (unsigned long long)st.out_of_order,
			 (unsigned long long)st.ra_windows, st.ioprio,
			 (unsigned long long)st.wakes,
			 st.wakes ? (double)st.wake_ns / 1e3 / (double)st.wakes : 0.0,
			 usr / 1e3, sys / 1e3);
		emit(ctx, line);
		reqs += st.reqs;
		ooo += st.out_of_order;
	}
	coop_pool_wake_latency(p, &lat_reap, &lat_work);
	coop_pool_reap_stats(p, &waits, &sleeps, &wait_avg);
	coop_pool_coalesce_stats(p, &csleeps, &ctimeouts);
	snprintf(line, sizeof(line),
		 "stream requests=%llu inline=%llu out_of_order=%llu ra_dropped=%llu wake_us_job=%.1f wake_us_workers=%.1f wait_us_job=%.1f job_waits=%llu job_sleeps=%llu coalesced_sleeps=%llu coalesce_timeouts=%llu",
		 (unsigned long long)reqs,
		 (unsigned long long)coop_pool_inline_cmds(p), (unsigned long long)ooo,
		 (unsigned long long)coop_pool_ra_dropped(p), lat_reap / 1e3, lat_work / 1e3,
		 wait_avg / 1e3, (unsigned long long)waits, (unsigned long long)sleeps,
		 (unsigned long long)csleeps, (unsigned long long)ctimeouts);
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

int coop_cpu_init(struct coop_cpu *acc, const struct coop_pool *p)
{
	unsigned int n = coop_pool_threads(p);

	acc->gen = coop_pool_cpu_gen(p);
	acc->usr_us = acc->sys_us = 0;
	acc->w_usr_us = calloc(n, sizeof(*acc->w_usr_us));
	acc->w_sys_us = calloc(n, sizeof(*acc->w_sys_us));
	if (!acc->w_usr_us || !acc->w_sys_us) {
		coop_cpu_free(acc);
		return -ENOMEM;
	}
	/* What the workers used before fio's start is not the job's. */
	acc->gen--;
	coop_cpu_fold(acc, p, NULL, NULL);
	return 0;
}

void coop_cpu_free(struct coop_cpu *acc)
{
	free(acc->w_usr_us);
	free(acc->w_sys_us);
	acc->w_usr_us = acc->w_sys_us = NULL;
}

/* *@tv -= @us, kept normalized (0 <= tv_usec < 1000000; tv_sec may go negative). */
static void tv_sub_us(struct timeval *tv, uint64_t us)
{
	int64_t t = (int64_t)tv->tv_sec * 1000000 + tv->tv_usec - (int64_t)us;
	int64_t sec = t / 1000000, usec = t % 1000000;

	if (usec < 0) {
		usec += 1000000;
		sec--;
	}
	tv->tv_sec = sec;
	tv->tv_usec = usec;
}

void coop_cpu_fold(struct coop_cpu *acc, const struct coop_pool *p,
		   struct timeval *ru_utime, struct timeval *ru_stime)
{
	unsigned int i, gen = coop_pool_cpu_gen(p);
	uint64_t u, s, du = 0, ds = 0;

	if (gen == acc->gen || !acc->w_usr_us)
		return;
	acc->gen = gen;
	for (i = 0; i < coop_pool_threads(p); i++) {
		coop_pool_worker_cpu(p, i, &u, &s);
		/* A reader may see one field newer than the other: never go back. */
		if (u > acc->w_usr_us[i]) {
			du += u - acc->w_usr_us[i];
			acc->w_usr_us[i] = u;
		}
		if (s > acc->w_sys_us[i]) {
			ds += s - acc->w_sys_us[i];
			acc->w_sys_us[i] = s;
		}
	}
	acc->usr_us += du;
	acc->sys_us += ds;
	if (ru_utime)
		tv_sub_us(ru_utime, du);
	if (ru_stime)
		tv_sub_us(ru_stime, ds);
}
