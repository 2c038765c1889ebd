// SPDX-License-Identifier: GPL-2.0-only
/*
 * coop_backend=sim: the fio job is the application on the 2009 initiator
 * (dd reading a file over iSCSI from an SCST target); the model in
 * engines/sim/ computes when each read completes on its virtual clock, and
 * completions are handed to fio in real time at sim_time_scale x the
 * modeled speed, so fio's rates are the modeled rates times the scale.
 *
 * The modeled numbers depend only on the modeled events, never on real
 * time: a late completion (fio or the machine too slow for the scale) is
 * counted and reported, the model itself is unaffected.  The per-job
 * report (log, and sim_report=FILE) carries the modeled time and MB/s.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fio.h"
#include "verify.h"
#include "engines/common/pp.h"
#include "engines/coop/backend.h"
#include "engines/coop/coop.h"
#include "engines/sim/sim.h"

/*
 * The report goes to stderr: with --output-format=json fio's stdout must stay
 * pure JSON for fiotab.
 */
#define sim_note(fmt, ...) log_err("coop: sim: " fmt "\n", ##__VA_ARGS__)

struct sim_job {
	struct sim *s;
	struct coop_options *o;
	FILE *report;			/* sim_report, opened at init */
	struct sim_params p;
	struct io_u **events;
	unsigned int nev, depth;
	uint64_t size;			/* the modelled file's, bytes */
	struct io_u *pend;		/* reaped from the model, not yet due */
	sim_ns pend_t;
	struct timespec t0;		/* real time of modeled time 0 */
	sim_ns max_lag;
	sim_ns last_lag, last_due;	/* the last completion: late by, due at (from t0) */
	uint64_t late, done;
};

/*
 * The model is the thread's dd: one application reading one file through
 * the page cache, back to back, on a testbed of its own.  A job that does
 * something else -- or whose fio options change what it does in ways the
 * model never sees (fio's pacing happens in real time, the model's clock
 * only moves with its own events) -- is refused naming the option, never
 * modelled as the plain reads it is not.  True after the message.
 */
static bool sim_job_unmodelled(struct thread_data *td)
{
	const struct thread_options *t = &td->o;
	bool reads_on;

	if (td_write(td) || td_trim(td)) {
		pp_err("coop", "coop_backend=sim models the thread's read test only: use rw=read or randread");
		return true;
	}
	if (td->files_index > 1) {
		pp_err("coop", "coop_backend=sim models one file per job (this job has %u: filename=, nrfiles=)",
		       td->files_index);
		return true;
	}
	if (t->numjobs > 1) {
		pp_err("coop", "coop_backend=sim: numjobs=%u would model %u testbeds of one reader each, "
		       "not %u readers on one testbed: use numjobs=1", t->numjobs, t->numjobs,
		       t->numjobs);
		return true;
	}
	/*
	 * The thread's reader is blockdev-perftest's dd: one read(2) at a
	 * time.  Deeper, the model would run several reads of one file at
	 * once through one page cache and readahead state, which nothing in
	 * the thread measured.
	 */
	if (t->iodepth > 1) {
		pp_err("coop", "coop_backend=sim: iodepth=%u is not modelled (the model's reader is "
		       "blockdev-perftest's dd, one read(2) at a time): use iodepth=1", t->iodepth);
		return true;
	}
	if (t->odirect) {
		pp_err("coop", "coop_backend=sim models buffered reads (dd through the initiator's page cache): direct=1 is not modelled");
		return true;
	}
	if (t->verify != VERIFY_NONE) {
		pp_err("coop", "coop_backend=sim moves no data: verify= cannot check it");
		return true;
	}
	/*
	 * The model's caches start cold and stay warm: fio invalidates the
	 * page cache before each loop (and invalidate=0 keeps what was there;
	 * pre_read=1 fills it first and turns invalidate off: named first, as
	 * the job set it).
	 */
	if (t->pre_read) {
		pp_err("coop", "coop_backend=sim: pre_read=1 is not modelled (fio reads the file into the page "
		       "cache first and keeps it there, the model starts with cold caches)");
		return true;
	}
	if (!t->invalidate_cache) {
		pp_err("coop", "coop_backend=sim: invalidate=0 is not modelled (the model starts with cold caches, as invalidate=1)");
		return true;
	}
	if (t->loops > 1) {
		pp_err("coop", "coop_backend=sim: loops=%u is not modelled (fio invalidates the cache before each loop, the model would read loops 2.. from its warm one): run one loop per job",
		       t->loops);
		return true;
	}
	/*
	 * Passes after the first, as loops= makes them: fio invalidates before
	 * each, once the file is done (never with norandommap: it reads on).
	 */
	reads_on = td_random(td) && t->norandommap;
	if (t->io_size > t->size && !reads_on) {
		pp_err("coop", "coop_backend=sim: io_size=%llu past size=%llu is not modelled (fio reads the file "
		       "again from the start, invalidating the cache before each pass, the model would read the "
		       "passes after the first from its warm one): io_size no larger than size",
		       (unsigned long long)t->io_size, (unsigned long long)t->size);
		return true;
	}
	if (t->time_based && !reads_on) {
		pp_err("coop", "coop_backend=sim: time_based is not modelled (a job done before runtime= reads "
		       "the file again, fio invalidating the cache before each pass, the model would read the "
		       "passes after the first from its warm one): runtime= alone ends a job early");
		return true;
	}
	/* fio switches the real device's scheduler after ->init; the model never sees it. */
	if (t->ioscheduler) {
		pp_err("coop", "coop_backend=sim: ioscheduler=%s is not modelled (it switches the real device's "
		       "scheduler, which the model never sees): the model's are sim_sched= (the target's) and "
		       "sim_client_sched= (the initiator's)", t->ioscheduler);
		return true;
	}
	/* The job's thread has it (ioprio_set() before ->init); CFQ honours it. */
	if (fio_option_is_set(&td->o, ioprio) || fio_option_is_set(&td->o, ioprio_class)) {
		pp_err("coop", "coop_backend=sim: prio=/prioclass= are not modelled (the model's CFQ serves "
		       "one priority level, as the thread's dd ran)");
		return true;
	}
	if (t->thinktime) {
		pp_err("coop", "coop_backend=sim: thinktime=%u is not modelled (the model's reads run back to back)",
		       t->thinktime);
		return true;
	}
	/* fio pauses a job ahead of its flow_id's share (flow.c, flow_threshold_exceeded()). */
	if (t->flow) {
		pp_err("coop", "coop_backend=sim: flow=%u is not modelled (fio pauses the job in real time while it "
		       "is ahead of its share of its flow_id's I/Os, the model's reads run back to back)",
		       t->flow);
		return true;
	}
	/* A replay sleeps the log's pauses before its I/Os (iolog.c, iolog_delay()). */
	if (t->read_iolog_file && !t->no_stall) {
		pp_err("coop", "coop_backend=sim: read_iolog=%s is not modelled with the log's pauses (fio sleeps them "
		       "in real time before each I/O, the model's reads run back to back): set replay_no_stall=1",
		       t->read_iolog_file);
		return true;
	}
	/*
	 * fio advises the file when it opens it (ioengines.c
	 * td_io_open_file()): fadvise_hint=1, its default, POSIX_FADV_RANDOM
	 * for random I/O and POSIX_FADV_SEQUENTIAL otherwise.  RANDOM turns
	 * the reader's readahead off, SEQUENTIAL doubles its window
	 * (mm/fadvise.c, not in refs/).  The model's client reads ahead as
	 * dd's kernel did, and dd gives no advice: fadvise_hint=0.  (A rw=read
	 * job of 64 KiB reads was modelled with 128 KiB iSCSI commands under
	 * every hint.)
	 */
	if (t->fadvise_hint != F_ADV_NONE) {
		bool rnd = t->fadvise_hint == F_ADV_RANDOM ||
			   (t->fadvise_hint == F_ADV_TYPE && td_random(td));

		pp_err("coop", "coop_backend=sim: fadvise_hint=%s%s is not modelled: fio advises the file "
		       "%s, which %s the reader's readahead, and the model's client reads ahead as "
		       "dd's kernel did, with no advice: set fadvise_hint=0",
		       t->fadvise_hint == F_ADV_TYPE ? "1" : rnd ? "random" : "sequential",
		       t->fadvise_hint == F_ADV_TYPE ? " (fio's default)" : "",
		       rnd ? "POSIX_FADV_RANDOM" : "POSIX_FADV_SEQUENTIAL",
		       rnd ? "turns off" : "doubles");
		return true;
	}
	if (t->rate[DDIR_READ] || t->ratemin[DDIR_READ] || t->rate_iops[DDIR_READ] ||
	    t->rate_iops_min[DDIR_READ]) {
		pp_err("coop", "coop_backend=sim: rate=/rate_min=/rate_iops=/rate_iops_min= are not modelled "
		       "(fio paces in real time, the model's clock never sees it)");
		return true;
	}
	return false;
}

/*
 * The model's options by the part of the model they configure, from their
 * names: sim_cfq_* and sim_dl_* whichever queue runs CFQ or deadline,
 * sim_client_cfq_* the initiator's CFQ, sim_server_cfq_* the target's;
 * sim_kernel_ra is what coop_ra=kernel means.  NULL when @i's option
 * works in this job, else the part it configures that the job leaves out.
 */
static const char *const sim_opt_names[SIM_OPT_N] = {
	SIM_UPARAMS(SIM_FIO_NAME, 0, 0) "sim_kernel_ra"
};

static const char *idle_because(const struct coop_options *o, unsigned int i)
{
	const char *n = sim_opt_names[i];
	bool tgt_cfq = o->sim.p.sched == SIM_SCHED_CFQ;
	bool cli_cfq = o->sim.p.client_sched == SIM_SCHED_CFQ;
	bool dl = o->sim.p.sched == SIM_SCHED_DEADLINE ||
		  o->sim.p.client_sched == SIM_SCHED_DEADLINE;

	if (!strncmp(n, "sim_client_cfq_", 15))
		return cli_cfq ? NULL : "the initiator's CFQ";
	if (!strncmp(n, "sim_server_cfq_", 15))
		return tgt_cfq ? NULL : "the target's CFQ";
	if (!strncmp(n, "sim_cfq_", 8))
		return tgt_cfq || cli_cfq ? NULL : "CFQ";
	if (!strncmp(n, "sim_dl_", 7))
		return dl ? NULL : "deadline";
	if (i == SIM_OPT_kernel_ra)
		return o->ra == COOP_RA_KERNEL ? NULL : "coop_ra=kernel";
	return NULL;
}

/*
 * sim_* options the job set that its other options leave idle are named,
 * as coop.c's note_no_effect() does for coop's own; one the job sets
 * twice under two names with two values is refused (true).
 */
static bool sim_opts_idle(struct thread_data *td, const struct coop_options *o)
{
	unsigned int i;
	const char *why;

	if (o->split_kb && o->sim.set[SIM_OPT_client_max_sectors_kb] &&
	    o->split_kb != o->sim.p.client_max_sectors_kb) {
		pp_err("coop", "coop_backend=sim: coop_split_kb=%u and sim_client_max_sectors_kb=%u "
		       "both set the initiator's max_sectors_kb: set one of them",
		       o->split_kb, o->sim.p.client_max_sectors_kb);
		return true;
	}
	for (i = 0; i < SIM_OPT_N; i++)
		if (o->sim.set[i] && (why = idle_because(o, i)))
			pp_err("coop", "%s: %s has no effect: it configures %s, which this job "
			       "does not use (sim_sched=%s, sim_client_sched=%s, coop_ra=%s)",
			       td->o.name, sim_opt_names[i], why, o->sim.sched_str,
			       o->sim.client_sched_str, o->ra_str);
	/* read only under another option's value (target.c, client.c) */
	if (o->sim.set[SIM_OPT_server_ra_kb] && o->sim.p.server_file_ra_kb)
		pp_err("coop", "%s: sim_server_ra_kb=%u has no effect on the SCST files, which keep the "
		       "read_ahead_kb they were opened with, sim_server_file_ra_kb=%u; "
		       "sim_server_file_ra_kb=0 gives them sim_server_ra_kb",
		       td->o.name, o->sim.p.server_ra_kb, o->sim.p.server_file_ra_kb);
	if (o->sim.set[SIM_OPT_link_delack_ms] && !o->sim.p.client_nagle)
		pp_err("coop", "%s: sim_link_delack_ms has no effect: the target's delayed ACK holds "
		       "only a command Nagle's algorithm waits on, and sim_client_nagle=0",
		       td->o.name);
	return false;
}

static int sim_job_params(struct thread_data *td, struct coop_options *o,
			  struct sim_params *p)
{
	char err[256];

	*p = o->sim.p;
	p->threads = o->threads;
	p->dispatch_rr = o->dispatch == COOP_DISPATCH_RR;
	p->fd_shared = o->fd == COOP_FD_SHARED;
	p->ioctx_shared = o->ioctx == COOP_IOCTX_SHARED;
	p->server_ra = o->ra == COOP_RA_OFF ? SIM_RA_OFF :
		       o->ra == COOP_RA_CONTEXT ? SIM_RA_CONTEXT : (int)o->sim.kernel_ra;
	/* coop_split_kb is the initiator's max_sectors_kb, as on real storage */
	if (o->split_kb)
		p->client_max_sectors_kb = o->split_kb;
	if (sim_job_unmodelled(td) || sim_opts_idle(td, o))
		return EINVAL;
	if (sim_params_check(p, err, sizeof(err))) {
		/* Name the option the job wrote, not only the parameter it set. */
		if (o->split_kb && strstr(err, "client_max_sectors_kb"))
			pp_err("coop", "coop_backend=sim: coop_split_kb=%u (the initiator's max_sectors_kb): %s",
			       o->split_kb, err);
		else
			pp_err("coop", "coop_backend=sim: %s", err);
		return EINVAL;
	}
	return 0;
}

static int coop_sim_init(struct thread_data *td, struct coop_options *o, void **priv)
{
	struct sim_job *j;
	int ret;

	j = calloc(1, sizeof(*j));
	if (!j)
		return ENOMEM;
	ret = sim_job_params(td, o, &j->p);
	if (ret) {
		free(j);
		return ret;
	}
	j->o = o;
	j->depth = td->o.iodepth ? td->o.iodepth : 1;
	j->events = calloc(j->depth, sizeof(*j->events));
	if (!j->events) {
		free(j);
		return ENOMEM;
	}
	/* Opened now, so a bad path fails the job instead of losing the report. */
	if (o->sim.report && *o->sim.report) {
		j->report = fopen(o->sim.report, "a");
		if (!j->report) {
			ret = errno;
			pp_err("coop", "sim_report=%s: cannot open for appending: %s",
			       o->sim.report, strerror(ret));
			free(j->events);
			free(j);
			return ret;
		}
	}
	*priv = j;
	return 0;
}

static int start_model(struct thread_data *td, struct sim_job *j, struct fio_file *f)
{
	uint64_t size = f->file_offset + f->io_size;
	char err[256];

	if (!f->io_size)
		size = td->o.size;
	/*
	 * Where fio reads past offset + size, up to the file's end (io_u.c),
	 * the modelled file reaches too: zonemode=strided moves on by
	 * zonerange after each zone and wraps only there
	 * (__fill_io_u_zone()), and the last sequential read of a size that
	 * is not a multiple of bs may run up to a block past it.
	 */
	if (f->real_file_size != -1ULL && f->real_file_size > size) {
		uint64_t reach = size;

		if (td->o.zone_mode == ZONE_MODE_STRIDED)
			reach = f->real_file_size;
		else if (f->io_size % td_max_bs(td) || td_min_bs(td) != td_max_bs(td))
			reach = size - 1 + td_max_bs(td);
		size = reach < f->real_file_size ? reach : f->real_file_size;
	}
	j->size = size;
	j->s = sim_new(&j->p, size, err, sizeof(err));
	if (!j->s) {
		pp_err("coop", "coop_backend=sim: %s", err);
		return EINVAL;
	}
	clock_gettime(CLOCK_MONOTONIC, &j->t0);
	return 0;
}

static int coop_sim_queue(struct thread_data *td, void *priv, struct io_u *io_u)
{
	struct sim_job *j = priv;
	int ret;

	if (io_u->ddir != DDIR_READ) {
		io_u->error = EINVAL;
		return FIO_Q_COMPLETED;
	}
	if (!j->s) {
		ret = start_model(td, j, io_u->file);
		if (ret) {
			io_u->error = ret;
			td_verror(td, ret, "coop_backend=sim");
			return FIO_Q_COMPLETED;
		}
	}
	/*
	 * The model reads nothing at or past its file's end, at the cost of
	 * a system call: such a read would complete at once as if it moved
	 * its bytes.
	 */
	if (io_u->offset >= j->size) {
		pp_err("coop", "coop_backend=sim: %s: read at offset %llu, past the modelled file's end (%llu bytes): "
		       "not modelled", io_u->file->file_name, io_u->offset, (unsigned long long)j->size);
		io_u->error = EINVAL;
		td_verror(td, EINVAL, "coop_backend=sim");
		return FIO_Q_COMPLETED;
	}
	io_u->resid = 0;
	io_u->error = 0;
	sim_submit(j->s, io_u->offset, io_u->xfer_buflen, io_u);
	return FIO_Q_QUEUED;
}

static struct timespec due_time(const struct sim_job *j, sim_ns vt)
{
	sim_ns real = vt / j->o->sim.time_scale;
	struct timespec ts = j->t0;

	ts.tv_sec += real / SIM_S;
	ts.tv_nsec += real % SIM_S;
	if (ts.tv_nsec >= SIM_S) {
		ts.tv_sec++;
		ts.tv_nsec -= SIM_S;
	}
	return ts;
}

static sim_ns ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (a->tv_sec - b->tv_sec) * SIM_S + (a->tv_nsec - b->tv_nsec);
}

/* Take the pending completion if it is due (or wait for it when @block). */
static bool take_pending(struct sim_job *j, bool block)
{
	struct timespec due = due_time(j, j->pend_t), now;
	sim_ns lag;

	clock_gettime(CLOCK_MONOTONIC, &now);
	lag = ts_diff(&now, &due);
	if (lag < 0) {
		if (!block)
			return false;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL) == EINTR)
			;
	} else if (lag > SIM_MS) {
		j->late++;
		if (lag > j->max_lag)
			j->max_lag = lag;
	}
	j->last_lag = lag > 0 ? lag : 0;
	j->last_due = ts_diff(&due, &j->t0);
	j->events[j->nev++] = j->pend;
	j->pend = NULL;
	j->done++;
	return true;
}

/* How much of the job's real time its last completion came late: what fio's rates miss. */
static double late_pct(const struct sim_job *j)
{
	sim_ns run = j->last_due + j->last_lag;

	return run > 0 ? 100.0 * (double)j->last_lag / (double)run : 0;
}

/*
 * Real time could not keep the paced schedule: a completion later than
 * sim_lag_warn_ms (fio's latencies are off), or a run ending 5 % or more
 * behind it (fio's rates are: a short job on a slow or busy machine stays
 * under any fixed lag).
 */
static bool fell_behind(const struct sim_job *j)
{
	return j->max_lag > (sim_ns)j->o->sim.lag_warn_ms * SIM_MS || late_pct(j) >= 5.0;
}

static int coop_sim_getevents(struct thread_data *td, void *priv, unsigned int min,
			      unsigned int max, const struct timespec *t)
{
	struct sim_job *j = priv;
	void *cookie;

	(void)td;
	(void)t;
	j->nev = 0;
	if (max > j->depth)
		max = j->depth;
	while (j->nev < max && j->s) {
		if (!j->pend) {
			if (!sim_reap(j->s, &cookie, &j->pend_t))
				break;
			j->pend = cookie;
		}
		if (!take_pending(j, j->nev < min))
			break;
	}
	return (int)j->nev;
}

static struct io_u *coop_sim_event(struct thread_data *td, void *priv, int ev)
{
	struct sim_job *j = priv;

	(void)td;
	return j->events[ev];
}

static void coop_sim_cleanup(struct thread_data *td, void *priv)
{
	struct sim_job *j = priv;
	char *line = NULL;
	size_t len = 0;
	FILE *m;

	if (!j)
		return;
	if (j->s) {
		uint64_t reads, bytes;
		sim_ns el;

		sim_totals(j->s, &reads, &bytes, &el);
		m = open_memstream(&line, &len);
		if (m) {
			fprintf(m, "job=%s time_scale=%u ", td->o.name, j->o->sim.time_scale);
			sim_report(j->s, m);
			fclose(m);
		}
		if (line) {
			sim_note("%.*s", (int)(len && line[len - 1] == '\n' ? len - 1 : len),
				line);
			if (j->report) {
				int bad = fputs(line, j->report) == EOF;

				if (fclose(j->report) || bad) {
					pp_err("coop", "sim_report=%s: cannot append: %s",
					       j->o->sim.report, strerror(errno));
					td_verror(td, errno, "sim_report");
				}
				j->report = NULL;
			}
			free(line);
		}
		if (fell_behind(j))
			sim_note("job %s: real time fell behind the modeled schedule: the last completion came %.1f ms late, %.0f %% of the run (%llu of %llu completions more than 1 ms late, the worst by %.1f ms): fio's rates understate the model: lower sim_time_scale",
				td->o.name, (double)j->last_lag / SIM_MS, late_pct(j),
				(unsigned long long)j->late, (unsigned long long)j->done,
				(double)j->max_lag / SIM_MS);
		sim_free(j->s);
	}
	if (j->report)
		fclose(j->report);	/* the model never ran: nothing to add */
	free(j->events);
	free(j);
}

const struct coop_backend_ops coop_sim_backend = {
	.name		= "sim",
	.init		= coop_sim_init,
	.queue		= coop_sim_queue,
	.getevents	= coop_sim_getevents,
	.event		= coop_sim_event,
	.cleanup	= coop_sim_cleanup,
};
