// SPDX-License-Identifier: GPL-2.0-only
/*
 * Default values of the model and where each comes from.  Nothing here is
 * a published throughput: the thread's tables are what the model is
 * compared against (profiles/scst-coop/README.md), never an input.
 */
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/coop/pool.h"	/* thread limits; fd, ioctx, dispatch names */
#include "engines/sim/params.h"

void sim_params_default(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
#define X(a, b, f, dv, help) p->f = dv;
	SIM_UPARAMS(X, 0, 0)
#undef X
	p->client_sched = SIM_SCHED_DEFAULT;	/* Debian lenny default elevator */
	p->threads = COOP_DEFAULT_THREADS;	/* scst_vdisk num_threads default */
	p->fd_shared = 0;		/* scst_vdisk: a struct file per thread */
	p->server_ra = SIM_RA_CLASSIC;	/* 2.6.29 per-struct-file readahead */
	p->sched = SIM_SCHED_DEFAULT;	/* the thread: CFQ on the target */
}

#define SIM_ENUM_NAME(id, name, help) [id] = name,
const char *const sim_sched_names[] = { SIM_SCHEDS(SIM_ENUM_NAME) NULL };
const char *const sim_ra_names[] = { SIM_RAS(SIM_ENUM_NAME) NULL };
static const char *const order_names[] = { SIM_ORDERS(SIM_ENUM_NAME) NULL };
/* coop's own tables: the model's parameters take coop's option values */
static const char *const ioctx_names[] = { COOP_IOCTXS(SIM_ENUM_NAME) NULL };
static const char *const fd_names[] = { COOP_FDS(SIM_ENUM_NAME) NULL };
static const char *const dispatch_names[] = { COOP_DISPATCHES(SIM_ENUM_NAME) NULL };

static const char *enum_name(const char *const *names, int v)
{
	int i;

	for (i = 0; names[i]; i++)
		if (i == v)
			return names[i];
	return "?";
}

const char *sim_sched_name(int s)
{
	return enum_name(sim_sched_names, s);
}

const char *sim_ra_name(int r)
{
	return enum_name(sim_ra_names, r);
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
	if (p->threads < COOP_MIN_THREADS || p->threads > COOP_MAX_THREADS) {
		snprintf(err, errlen, "coop_threads must be %u..%u",
			 COOP_MIN_THREADS, COOP_MAX_THREADS);
		return -1;
	}
	NEED(p->client_max_sectors_kb >= 4, "sim_client_max_sectors_kb must be >= 4");
	NEED(p->server_max_sectors_kb >= 4, "sim_server_max_sectors_kb must be >= 4");
	/* 2.6.26 libiscsi.c iscsi_session_setup() takes none past ISCSI_MAX_CMD_PER_LUN */
	NEED(p->client_qdepth >= 1 && p->client_qdepth <= 128, "sim_client_qdepth must be 1..128");
	NEED(p->client_nr_requests >= 4 && p->server_nr_requests >= 4,
	     "sim_client_nr_requests and sim_server_nr_requests must be >= 4");
	NEED(p->link_mbps >= 1, "sim_link_mbps must be >= 1");
	NEED(p->client_copy_mbps >= 1 && p->target_copy_mbps >= 1,
	     "sim_*_copy_mbps must be >= 1");
	NEED(p->disk_rpm >= 1000, "sim_disk_rpm must be >= 1000");
	NEED(p->disk_media_mbps >= 1, "sim_disk_media_mbps must be >= 1");
	NEED(p->disk_iface_mbps >= 1, "sim_disk_iface_mbps must be >= 1");
	NEED(p->disk_capacity_gb >= 1, "sim_disk_capacity_gb must be >= 1");
	NEED(p->disk_seek_max_us >= p->disk_seek_min_us,
	     "sim_disk_seek_max_us must be >= sim_disk_seek_min_us");
	NEED(p->disk_qdepth >= 1 && p->disk_qdepth <= 32, "sim_disk_qdepth must be 1..32");
	NEED(p->hz >= 100 && p->hz <= 1000, "sim_hz must be 100..1000");
	NEED(p->client_hz >= 100 && p->client_hz <= 1000, "sim_client_hz must be 100..1000");
	NEED(p->server_unplug_ms <= 1000, "sim_server_unplug_ms must be <= 1000");
	/* the switches: a value past 1 would run as 1 */
#define FLAG(f) NEED(p->f <= 1, "sim_" #f " must be 0 or 1")
	FLAG(client_cfq_idle_in_flight);
	FLAG(target_copy_paced);
	FLAG(target_rx_serial);
	FLAG(server_ra_unplug);
	FLAG(client_nagle);
	FLAG(dispatch_list);
	FLAG(sn_at_release);
	FLAG(bind_at_run);
	FLAG(wake_lifo);
	FLAG(jitter_exp);
	FLAG(jitter_wake_only);
	FLAG(cfq_preempt_close);
	FLAG(cfq_coop);
	FLAG(disk_readthrough);
	FLAG(disk_rot_random);
#undef FLAG
	/*
	 * cmnd_set_sn(): MaxCmdSN = ExpCmdSN + 1 - active - 1 with a response
	 * counting itself until it left closes the window for good: the
	 * initiator never sends again (the model would run on forever).
	 */
	NEED(p->target_queued_cmds != 1 || p->sn_at_release,
	     "sim_target_queued_cmds=1 needs sim_sn_at_release=1: with 0 the CmdSN window never reopens");
	NEED(p->cfq_quantum >= 1, "sim_cfq_quantum must be >= 1");
	/* sched_cfq.c counts a queue's dispatched requests in an int against these */
	NEED((uint64_t)p->cfq_quantum * (p->client_cfq_lone_mult > 1 ? p->client_cfq_lone_mult : 1) <= INT_MAX &&
	     (uint64_t)p->cfq_quantum * (p->server_cfq_lone_mult > 1 ? p->server_cfq_lone_mult : 1) <= INT_MAX,
	     "sim_cfq_quantum x sim_client_cfq_lone_mult and x sim_server_cfq_lone_mult must be <= 2147483647");
	/* 2.6.29 cfq-iosched.c's sysfs stores take none of these below 1 */
	NEED(p->cfq_slice_sync_ms >= 1, "sim_cfq_slice_sync_ms must be >= 1");
	NEED(p->cfq_fifo_expire_ms >= 1, "sim_cfq_fifo_expire_ms must be >= 1");
	NEED(p->cfq_back_seek_penalty >= 1, "sim_cfq_back_seek_penalty must be >= 1");
	NEED(p->dl_fifo_batch >= 1, "sim_dl_fifo_batch must be >= 1");
	return 0;
}

#define U(n) { #n, offsetof(struct sim_params, n), NULL, -1 },
#define E(n, f, names) { n, offsetof(struct sim_params, f), names, -1 }
/* a flag of struct sim_params set from a coop enum: 1 when it is @yes */
#define B(n, f, names, yes) { n, offsetof(struct sim_params, f), names, yes }

static const struct {
	const char *name;
	size_t off;
	const char *const *names;	/* enum values, index = value */
	int yes;			/* -1: store the value; else store value == yes */
} ptab[] = {
#define X(a, b, f, dv, help) U(f)
	SIM_UPARAMS(X, 0, 0)
#undef X
	U(threads)
	E("sched", sched, sim_sched_names),
	E("client_sched", client_sched, sim_sched_names),
	E("ra", server_ra, sim_ra_names),
	E("order", order, order_names),
	B("ioctx", ioctx_shared, ioctx_names, COOP_IOCTX_SHARED),
	B("fd", fd_shared, fd_names, COOP_FD_SHARED),
	B("dispatch", dispatch_rr, dispatch_names, COOP_DISPATCH_RR),
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
					*(int *)((char *)p + ptab[i].off) =
						ptab[i].yes < 0 ? k : k == ptab[i].yes;
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
