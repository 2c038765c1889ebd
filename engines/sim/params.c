// SPDX-License-Identifier: GPL-2.0-only
/*
 * Default values of the model and where each comes from.  Nothing here is
 * a published throughput: the thread's tables are what the model is
 * compared against (profiles/scst-coop/README.md), never an input.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/sim/params.h"

void sim_params_default(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->client_ra_kb = 128;		/* VM_MAX_READAHEAD, 2.6.26 */
	p->client_max_sectors_kb = 512;	/* BLK_DEF_MAX_SECTORS 1024 sectors */
	p->client_qdepth = 32;		/* open-iscsi node.session.queue_depth */
	p->client_sched = SIM_SCHED_CFQ;	/* lenny default elevator */
	p->client_syscall_ns = 1000;	/* ~1 us read(2) on a 2009 Core2/Xeon */
	p->client_copy_mbps = 2000;	/* copy_to_user, ~2 GB/s memcpy of the era */

	p->link_mbps = 117;		/* 1 GbE: 125 MB/s x 1448/1538 TCP payload */
	p->link_latency_us = 50;	/* half of a ~100 us GbE round trip */

	p->threads = 5;			/* scst_vdisk num_threads default */
	p->server_ra = SIM_RA_CLASSIC;	/* 2.6.29 per-struct-file readahead */
	p->server_ra_kb = 128;		/* VM_MAX_READAHEAD */
	p->server_max_sectors_kb = 512;	/* BLK_DEF_MAX_SECTORS */
	p->sched = SIM_SCHED_CFQ;	/* thread: CFQ on the target */
	p->target_cmd_us = 20;		/* SCSI cmd parse, sg alloc, lookup */
	p->target_copy_mbps = 2000;	/* memcpy from page cache into sg */
	p->handoff_us = 50;		/* wake_up + context switch on a busy box */
	p->jitter_us = 0;
	p->seed = 1;

	p->hz = 250;			/* CONFIG_HZ_250, as Vlad assumes (8 ms = HZ/125) */
	p->cfq_slice_idle_ms = 8;	/* cfq_slice_idle = HZ/125 */
	p->cfq_slice_sync_ms = 100;	/* cfq_slice_sync = HZ/10 */
	p->cfq_quantum = 4;		/* cfq_quantum */
	p->cfq_fifo_expire_ms = 125;	/* cfq_fifo_expire[1] = HZ/8 */
	p->cfq_back_seek_max_kb = 16384;	/* cfq_back_max */
	p->cfq_back_seek_penalty = 2;	/* cfq_back_penalty */
	p->cfq_preempt_close = 1;	/* present in 2.6.29 cfq_should_preempt() */
	p->cfq_coop = 0;		/* close cooperator code arrived in 2.6.30 */
	p->dl_read_expire_ms = 500;	/* read_expire = HZ/2 */
	p->dl_fifo_batch = 16;		/* fifo_batch */

	p->disk_rpm = 7200;
	p->disk_media_mbps = 90;	/* outer zone of a 2008 500 GB 7200 rpm disk */
	p->disk_seek_min_us = 800;	/* track-to-track, datasheets ~0.8 ms */
	p->disk_seek_max_us = 16000;	/* full stroke ~16 ms (avg ~8.5 ms) */
	p->disk_capacity_gb = 500;
	p->disk_cmd_us = 100;		/* SATA command overhead ~0.1 ms */
	p->disk_iface_mbps = 300;	/* SATA II */
	p->disk_prefetch_kb = 512;	/* look-ahead: see README (calibrated) */
	p->disk_cache_kb = 2048;	/* one segment of a 16 MB cache */
	p->disk_readthrough = 1;
}

const char *sim_sched_name(int s)
{
	switch (s) {
	case SIM_SCHED_CFQ: return "cfq";
	case SIM_SCHED_DEADLINE: return "deadline";
	case SIM_SCHED_NOOP: return "noop";
	}
	return "?";
}

const char *sim_ra_name(int r)
{
	switch (r) {
	case SIM_RA_CLASSIC: return "classic";
	case SIM_RA_CONTEXT: return "context";
	case SIM_RA_OFF: return "off";
	}
	return "?";
}

#define NEED(cond, what)						\
	do {								\
		if (!(cond)) {						\
			snprintf(err, errlen, "%s", what);		\
			return -1;					\
		}							\
	} while (0)

int sim_params_check(const struct sim_params *p, char *err, size_t errlen)
{
	NEED(p->threads >= 1 && p->threads <= 1024, "threads must be 1..1024");
	NEED(p->client_max_sectors_kb >= 4, "sim_client_max_sectors_kb must be >= 4");
	NEED(p->server_max_sectors_kb >= 4, "sim_server_max_sectors_kb must be >= 4");
	NEED(p->client_qdepth >= 1, "sim_client_qdepth must be >= 1");
	NEED(p->link_mbps >= 1, "sim_link_mbps must be >= 1");
	NEED(p->client_copy_mbps >= 1 && p->target_copy_mbps >= 1,
	     "sim_*_copy_mbps must be >= 1");
	NEED(p->disk_rpm >= 1000, "sim_disk_rpm must be >= 1000");
	NEED(p->disk_media_mbps >= 1, "sim_disk_media_mbps must be >= 1");
	NEED(p->disk_iface_mbps >= 1, "sim_disk_iface_mbps must be >= 1");
	NEED(p->disk_capacity_gb >= 1, "sim_disk_capacity_gb must be >= 1");
	NEED(p->disk_seek_max_us >= p->disk_seek_min_us,
	     "sim_disk_seek_max_us must be >= sim_disk_seek_min_us");
	NEED(p->hz >= 100 && p->hz <= 1000, "sim_hz must be 100..1000");
	NEED(p->cfq_quantum >= 1, "sim_cfq_quantum must be >= 1");
	NEED(p->dl_fifo_batch >= 1, "sim_deadline_fifo_batch must be >= 1");
	return 0;
}

#define U(n) { #n, offsetof(struct sim_params, n), NULL }
#define E(n, f, names) { n, offsetof(struct sim_params, f), names }

static const struct {
	const char *name;
	size_t off;
	const char *const *names;	/* enum values, index = value */
} ptab[] = {
	U(client_ra_kb), U(client_max_sectors_kb), U(client_qdepth), U(client_syscall_ns),
	U(client_copy_mbps), U(link_mbps), U(link_latency_us), U(threads),
	U(server_ra_kb), U(server_max_sectors_kb), U(target_cmd_us), U(target_copy_mbps),
	U(handoff_us), U(jitter_us), U(seed), U(disk_readthrough), U(hz), U(cfq_slice_idle_ms), U(cfq_slice_sync_ms), U(cfq_quantum),
	U(cfq_fifo_expire_ms), U(cfq_back_seek_max_kb), U(cfq_back_seek_penalty),
	U(cfq_preempt_close), U(cfq_coop), U(dl_read_expire_ms), U(dl_fifo_batch),
	U(disk_rpm), U(disk_media_mbps), U(disk_seek_min_us), U(disk_seek_max_us),
	U(disk_capacity_gb), U(disk_cmd_us), U(disk_iface_mbps), U(disk_prefetch_kb), U(disk_cache_kb),
	E("sched", sched, ((const char *const[]){ "cfq", "deadline", "noop", NULL })),
	E("client_sched", client_sched, ((const char *const[]){ "cfq", "deadline", "noop", NULL })),
	E("ra", server_ra, ((const char *const[]){ "classic", "context", "off", NULL })),
	E("order", order, ((const char *const[]){ "simple", "ordered", NULL })),
	E("ioctx", ioctx_shared, ((const char *const[]){ "private", "shared", NULL })),
	E("fd", fd_shared, ((const char *const[]){ "per-thread", "shared", NULL })),
	E("dispatch", dispatch_rr, ((const char *const[]){ "queue", "rr", NULL })),
};

int sim_params_set(struct sim_params *p, const char *name, const char *val,
		   char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < sizeof(ptab) / sizeof(ptab[0]); i++) {
		char *end;
		unsigned long v;
		int k;

		if (strcmp(ptab[i].name, name))
			continue;
		if (ptab[i].names) {
			for (k = 0; ptab[i].names[k]; k++)
				if (!strcmp(ptab[i].names[k], val)) {
					*(int *)((char *)p + ptab[i].off) = k;
					return 0;
				}
			snprintf(err, errlen, "%s: unknown value '%s'", name, val);
			return -1;
		}
		v = strtoul(val, &end, 10);
		if (!*val || *end || v > UINT32_MAX) {
			snprintf(err, errlen, "%s: '%s' is not a number", name, val);
			return -1;
		}
		*(unsigned int *)((char *)p + ptab[i].off) = (unsigned int)v;
		return 0;
	}
	snprintf(err, errlen, "unknown parameter '%s'", name);
	return -1;
}
