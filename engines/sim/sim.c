// SPDX-License-Identifier: GPL-2.0-only
/*
 * Top level of the model (see sim.h): wires client, link and target on
 * one virtual clock and writes the report.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "engines/sim/client.h"
#include "engines/sim/sim.h"
#include "engines/sim/trace.h"

struct sim {
	struct sim_params p;
	struct sim_clock clk;
	struct link link;
	struct target tgt;
	struct client cli;
	bool started;
	sim_ns t_first, t_last;
};

struct sim *sim_new(const struct sim_params *p, uint64_t file_size, char *err, size_t errlen)
{
	struct sim *s;

	if (sim_params_check(p, err, errlen))
		return NULL;
	if (!file_size) {
		snprintf(err, errlen, "file size is 0");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->p = *p;
	clk_init(&s->clk);
	link_init(&s->link, &s->p);
	if (target_init(&s->tgt, &s->clk, &s->p, &s->link, file_size) ||
	    client_init(&s->cli, &s->clk, &s->p, &s->link, &s->tgt, file_size)) {
		snprintf(err, errlen, "out of memory for a %" PRIu64 "-byte file", file_size);
		sim_free(s);
		return NULL;
	}
	return s;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	client_free(&s->cli);
	target_free(&s->tgt);
	clk_free(&s->clk);
	free(s);
}

void sim_submit(struct sim *s, uint64_t off, uint64_t len, void *cookie)
{
	if (!s->started) {
		s->started = true;
		s->t_first = s->clk.now;
	}
	client_read(&s->cli, off, len, cookie);
}

bool sim_reap(struct sim *s, void **cookie, sim_ns *t)
{
	struct areq *a;

	while (!(a = client_reap(&s->cli)))
		if (!clk_step(&s->clk))
			return false;
	*cookie = a->cookie;
	*t = a->t_done;
	s->t_last = a->t_done;
	client_put(&s->cli, a);
	return true;
}

sim_ns sim_now(const struct sim *s)
{
	return s->clk.now;
}

void sim_totals(const struct sim *s, uint64_t *reads, uint64_t *bytes, sim_ns *elapsed)
{
	*reads = s->cli.reads;
	*bytes = s->cli.bytes;
	*elapsed = s->t_last - s->t_first;
}

uint64_t sim_events(const struct sim *s)
{
	return s->clk.nevents;
}

struct target *sim_target(struct sim *s)
{
	return &s->tgt;
}

struct client *sim_client(struct sim *s)
{
	return &s->cli;
}

void sim_report(const struct sim *s, FILE *f)
{
	const struct target *t = &s->tgt;
	const struct disk_stats *d = &t->disk.st;
	sim_ns el = s->t_last - s->t_first;
	double mbs = el > 0 ? (double)s->cli.bytes / 1e6 / ((double)el / SIM_S) : 0;

	fprintf(f, "model_time_ns=%" PRId64 " bytes=%" PRIu64 " reads=%" PRIu64
		" MBps=%.3f", el, s->cli.bytes, s->cli.reads, mbs);
	fprintf(f, " iscsi_cmds=%" PRIu64 " iscsi_avg_kb=%.1f tgt_handoffs=%" PRIu64
		" tgt_out_of_order=%" PRIu64 " tgt_max_queued=%" PRIu64 " tgt_rebinds=%" PRIu64,
		t->st.cmds, t->st.cmds ? (double)t->st.bytes / t->st.cmds / 1024 : 0,
		t->st.handoffs, t->st.out_of_order, t->st.max_queued, t->st.rebinds);
	fprintf(f, " tgt_noise_draws=%" PRIu64, t->st.noise_draws);
	fprintf(f, " disk_reqs=%" PRIu64 " disk_avg_kb=%.1f disk_seeks=%" PRIu64
		" disk_busy_pct=%.1f disk_rot_ms=%.1f disk_cache_hits=%" PRIu64,
		d->requests, d->requests ? (double)d->bytes / d->requests / 1024 : 0,
		d->seeks, el > 0 ? 100.0 * d->busy_ns / el : 0, (double)d->rot_ns / SIM_MS,
		d->cache_hits);
	if (t->disk.rot_random)	/* printed only when on: reports with it off keep their form */
		fprintf(f, " disk_rot_waits=%" PRIu64 " disk_rot_drawn=%" PRIu64,
			d->rot_waits, d->rot_drawn);
	fprintf(f, " tgt_ra_windows=%" PRIu64 " tgt_ra_asis=%" PRIu64 " tgt_merged=%" PRIu64,
		t->rc.window_reads, t->rc.asis_reads, t->q.st.merged);
	fprintf(f, " tgt_max_rq=%u tgt_max_dl=%u tgt_congested=%" PRIu64 " tgt_ra_async_skipped=%" PRIu64
		" cli_max_rq=%u cli_ra_async_skipped=%" PRIu64,
		t->q.st.max_rq, t->q.st.max_dl, t->q.st.congested, t->rc.async_skipped,
		s->cli.q.st.max_rq, s->cli.rc.async_skipped);
	fprintf(f, " cli_plugs=%" PRIu64 " cli_timer_unplugs=%" PRIu64,
		s->cli.q.plugs, s->cli.q.timer_unplugs);
	fprintf(f, " tgt_plugs=%" PRIu64 " tgt_timer_unplugs=%" PRIu64,
		t->q.plugs, t->q.timer_unplugs);
	fprintf(f, " cli_nagle_held=%" PRIu64 " cli_nagle_ms=%.1f", s->cli.nagle_held,
		(double)s->cli.nagle_wait_ns / SIM_MS);
	fprintf(f, " cli_window_closed=%" PRIu64 " cli_blocked_runs=%" PRIu64
		" cli_blocked_ms=%.1f", s->cli.win.closed, s->cli.win.blocked_runs,
		(double)s->cli.win.blocked_ns / SIM_MS);
	if (t->q.ops->report)
		t->q.ops->report(t->q.e, f);
	fprintf(f, " events=%" PRIu64 "\n", s->clk.nevents);
}

FILE *sim_tracef;
sim_ns sim_trace_until;
