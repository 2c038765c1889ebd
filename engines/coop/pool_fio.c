// SPDX-License-Identifier: GPL-2.0-only
/*
 * coop_backend=psync|uring: fio's side of the worker pool (pool.h).
 *
 * Each io_u is one struct coop_req (allocated on its first queue), each
 * fio file one struct coop_file; completions come back as io_u events.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fio.h"
#include "verify.h"
#include "engines/common/blkdev.h"
#include "engines/common/pp.h"
#include "engines/coop/backend.h"
#include "engines/coop/cgroup.h"
#include "engines/coop/coop.h"
#include "engines/coop/dioalign.h"
#include "engines/coop/pool.h"
#include "engines/coop/stats.h"

struct coop_pool_job {
	struct coop_pool *pool;
	struct coop_options *o;
	struct coop_req **reaped;
	struct io_u **events;
	unsigned int depth;
	/* Requests by io_u->index. */
	struct coop_req **reqs;
	unsigned int reqs_cap;
	/* sync_file_range=: fio's first_write, last_write by f->fileno (sync_range_of()) */
	struct coop_wrange { uint64_t first, last; } *wr;
	unsigned int wr_cap;
	struct coop_devstats dev;
	struct coop_cpu cpu;	/* workers' CPU in fio's usr/sys (stats.h) */
	bool zero_logged;	/* zero_xfer() said why, once per job */
	bool followed;		/* workers_follow_job() ran */
};

static uint64_t max_bs(struct thread_data *td)
{
	uint64_t m = 0;
	int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (td->o.max_bs[d] > m)
			m = td->o.max_bs[d];
	return m ? m : 4096;
}

static int check_options(const struct coop_options *o)
{
	/* coop_threads is range-checked once, when fio parses it (coop.c). */
	if (o->ra == COOP_RA_CONTEXT && !o->ra_kb) {
		pp_err("coop", "coop_ra=context needs coop_ra_kb > 0");
		return EINVAL;
	}
	return 0;
}

/*
 * With direct=1 every part of a split request must start and end where
 * O_DIRECT can (the request itself is fio's to align, as with psync):
 * otherwise each would fail with an EINVAL that names no option.
 */
static int check_split_align(struct thread_data *td, const struct coop_options *o,
			     struct fio_file *f)
{
	unsigned int align;

	if (!o->split_kb || !td->o.odirect)
		return 0;
	align = coop_dio_align(f->fd, f->filetype == FIO_TYPE_BLOCK);
	if ((o->split_kb * 1024ull) % align == 0)
		return 0;
	pp_err("coop", "coop_split_kb=%u with direct=1: parts must be multiples of %s's "
	       "direct I/O alignment, %u bytes", o->split_kb, f->file_name, align);
	td_verror(td, EINVAL, "coop_split_kb");
	return EINVAL;
}

/*
 * Options of the pool that this job's others leave idle, named as coop.c's
 * note_no_effect() names the rest (the job runs): caller-runs set where
 * coop_inline_allowed() never allows it, readahead modes with direct=1
 * (no page cache to read ahead into; coop_ra=context still keeps the
 * commands off the job's thread), rr with a single worker.
 */
static void note_idle_pool(struct thread_data *td, const struct coop_options *o,
			   const struct coop_pool_cfg *cfg)
{
	struct coop_pool_cfg c = *cfg;

	c.inline_cmds = 1;
	if ((o->given & COOP_GIVEN_INLINE) && !coop_inline_allowed(&c))
		pp_err("coop", "%s: coop_inline has no effect with this job's options: caller-runs "
		       "needs coop_backend=psync without coop_ra=context, and one worker (no "
		       "coop_split_kb, no coop_coalesce) or coop_ioctx=shared with coop_fd=shared",
		       td->o.name);
	if (o->ra != COOP_RA_KERNEL && td->o.odirect)
		pp_err("coop", "%s: coop_ra=%s has no effect on readahead with direct=1 (O_DIRECT "
		       "reads bypass the page cache)", td->o.name, o->ra_str);
	else if (o->ra != COOP_RA_KERNEL && !td_read(td) && td->o.verify == VERIFY_NONE)
		pp_err("coop", "%s: coop_ra=%s has no effect on readahead in a job that does not read "
		       "(rw=%s, no verify=)", td->o.name, o->ra_str, ddir_str(td->o.td_ddir));
	if (o->dispatch == COOP_DISPATCH_RR && o->threads == 1)
		pp_err("coop", "%s: coop_dispatch=rr has no effect with coop_threads=1", td->o.name);
}

static int coop_pool_init(struct thread_data *td, struct coop_options *o,
			  void **priv)
{
	struct coop_pool_cfg cfg = {
		.threads	= o->threads,
		.dispatch	= o->dispatch,
		.fd		= o->fd,
		.ioctx		= o->ioctx,
		.ra		= o->ra,
		.ra_max		= (uint64_t)o->ra_kb << 10,
		.split		= (uint64_t)o->split_kb << 10,
		.backend	= o->backend,
		.depth		= td->o.iodepth,
		.max_len	= max_bs(td),
		.direct		= td->o.odirect,
		.stats		= o->stats,
		.coalesce	= o->coalesce,
		.inline_cmds	= o->inline_cmds,
	};
	struct coop_pool_job *j;
	char err[256] = "";
	int ret;

	ret = check_options(o);
	if (ret) {
		td_verror(td, ret, "coop options");
		return ret;
	}
	note_idle_pool(td, o, &cfg);
	/*
	 * fio applies its own fadvise hint (SEQUENTIAL for rw=read) after
	 * opening a file, which would undo coop_ra=off's POSIX_FADV_RANDOM.
	 */
	if (o->ra == COOP_RA_OFF)
		td->o.fadvise_hint = F_ADV_NONE;

	j = calloc(1, sizeof(*j));
	if (!j)
		goto enomem;
	j->o = o;
	j->depth = td->o.iodepth ? td->o.iodepth : 1;
	j->reaped = calloc(j->depth, sizeof(*j->reaped));
	j->events = calloc(j->depth, sizeof(*j->events));
	if (!j->reaped || !j->events)
		goto enomem;
	ret = coop_pool_create(&cfg, &j->pool, err, sizeof(err));
	if (ret) {
		pp_err("coop", "%s", err);
		td_verror(td, -ret, "coop pool");
		free(j->reaped);
		free(j->events);
		free(j);
		return -ret;
	}
	if (coop_cpu_init(&j->cpu, j->pool)) {
		coop_pool_destroy(j->pool);
		goto enomem;
	}
	*priv = j;
	return 0;

enomem:
	if (j) {
		free(j->reaped);
		free(j->events);
		free(j);
	}
	pp_err("coop", "out of memory");
	td_verror(td, ENOMEM, "coop init");
	return ENOMEM;
}

/*
 * fio's nice= and cgroup= are applied to the job's thread alone (nice()
 * is per thread on Linux; cgroup v1's "tasks" file takes one thread)
 * after ->init started the workers (backend.c, thread_main()), so they
 * kept what they were created with: a nice=19 job did its I/O at nice 0
 * (and at the I/O priority the kernel derives from it where no ioprio is
 * set), a cgroup= job's I/O ran outside the group and its blkio weight
 * and limits.  At the job's first open, after both, every worker takes
 * the job's thread's.  0, or the error (td_verror() done).
 */
static int workers_follow_job(struct thread_data *td, struct coop_pool_job *j)
{
	char err[2 * PATH_MAX + 128] = "";
	unsigned int i;
	int nice, tid, ret;

	if (j->followed)
		return 0;
	j->followed = true;
	nice = getpriority(PRIO_PROCESS, 0);	/* the calling thread's: cannot fail */
	for (i = 0; i < coop_pool_threads(j->pool); i++) {
		tid = coop_pool_worker_tid(j->pool, i);
		if (tid <= 0)
			continue;	/* not started: the job's thread runs every command */
		ret = setpriority(PRIO_PROCESS, (id_t)tid, nice) < 0 ? -errno : 0;
		if (ret)
			snprintf(err, sizeof(err), "nice=%d: %s", nice, strerror(-ret));
		else
			ret = coop_cgroup_follow(tid, err, sizeof(err));
		if (ret) {
			pp_err("coop", "%s: giving worker %u the job's thread's settings: %s",
			       td->o.name, i, err);
			td_verror(td, -ret, "coop worker settings");
			return -ret;
		}
	}
	return 0;
}

static int coop_pool_open_file(struct thread_data *td, void *priv,
			       struct fio_file *f)
{
	struct coop_pool_job *j = priv;
	struct coop_file *cf;
	char err[256] = "";
	int flags, ret;

	/*
	 * fio's trim is BLKDISCARD (os_trim()), which only a block device
	 * takes: a job of trims starts with one, and psync and io_uring fail
	 * it on anything else with ENOTTY before a byte moved.  Refused here,
	 * before any I/O, rather than after the writes already queued behind
	 * the failing trim (rw=trimwrite) went through.
	 */
	if (td_trim(td) && f->filetype != FIO_TYPE_BLOCK) {
		pp_err("coop", "%s: rw=%s: fio's trim is BLKDISCARD, which only a block device takes "
		       "(psync and io_uring fail it here with ENOTTY); refused before any I/O",
		       f->file_name, ddir_str(td->o.td_ddir));
		td_verror(td, ENOTTY, "coop open");
		return ENOTTY;
	}
	/*
	 * coop reads and writes at offsets.  On a file that cannot seek (a
	 * terminal, a socket) psync's pread() fails with ESPIPE before a
	 * byte moved, while an io_uring read there ignores the offset and
	 * waits for input, which SIGINT does not end: refused here, as psync
	 * would fail it.
	 */
	if (f->fd >= 0 && lseek(f->fd, 0, SEEK_CUR) < 0 && errno == ESPIPE) {
		pp_err("coop", "%s: not seekable (a terminal, socket or pipe): coop reads and writes at "
		       "offsets, which psync fails there with ESPIPE; refused before any I/O", f->file_name);
		td_verror(td, ESPIPE, "coop open");
		return ESPIPE;
	}
	if (check_split_align(td, j->o, f))
		return EINVAL;
	ret = workers_follow_job(td, j);
	if (ret)
		return ret;
	cf = calloc(1, sizeof(*cf));
	if (!cf) {
		td_verror(td, ENOMEM, "coop open");
		return ENOMEM;
	}
	/* The same flags fio used, so per-thread opens behave alike. */
	flags = fcntl(f->fd, F_GETFL);
	if (flags < 0)
		flags = td_write(td) ? O_RDWR : O_RDONLY;
	ret = coop_pool_file_open(j->pool, cf, f->file_name, flags, f->fd,
				  f->filetype == FIO_TYPE_BLOCK, err, sizeof(err));
	if (ret) {
		pp_err("coop", "%s", err);
		td_verror(td, -ret, "coop open");
		free(cf);
		return -ret;
	}
	/*
	 * fio applies its fadvise_hint to f->fd after this open
	 * (td_io_open_file()): the workers' own descriptors get the same
	 * advice here, else rw=read (fadvise_hint=1: POSIX_FADV_SEQUENTIAL,
	 * twice the readahead window) or fadvise_hint=random (no readahead)
	 * would apply to a descriptor no worker reads through.
	 */
	if (td->o.fadvise_hint != F_ADV_NONE &&
	    (f->filetype == FIO_TYPE_BLOCK || f->filetype == FIO_TYPE_FILE)) {
		int advice = POSIX_FADV_NORMAL;

		if (td->o.fadvise_hint == F_ADV_TYPE)
			advice = td_random(td) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
		else if (td->o.fadvise_hint == F_ADV_RANDOM)
			advice = POSIX_FADV_RANDOM;
		else if (td->o.fadvise_hint == F_ADV_SEQUENTIAL)
			advice = POSIX_FADV_SEQUENTIAL;
		ret = coop_pool_file_advise(j->pool, cf, f->file_offset, f->io_size, advice);
		if (ret) {
			pp_err("coop", "%s: coop_fd=per-thread: fadvise_hint on a worker's descriptor: %s",
			       f->file_name, strerror(-ret));
			td_verror(td, -ret, "coop open");
			coop_pool_file_close(j->pool, cf);
			free(cf);
			return -ret;
		}
	}
	if (j->o->stats)
		coop_devstats_add(&j->dev, f->file_name);
	FILE_SET_ENG_DATA(f, cf);
	return 0;
}

static void coop_pool_close_file(struct thread_data *td, void *priv,
				 struct fio_file *f)
{
	struct coop_pool_job *j = priv;
	struct coop_file *cf = FILE_ENG_DATA(f);

	(void)td;
	if (!cf)
		return;
	coop_pool_file_close(j->pool, cf);
	free(cf);
	FILE_SET_ENG_DATA(f, NULL);
}

/*
 * The request of @io_u, by fio's io_u->index (engine_data shares a union
 * with it), allocated on first use.
 */
static struct coop_req *req_of(struct coop_pool_job *j, struct io_u *io_u)
{
	unsigned int i = io_u->index;
	struct coop_req **n;

	if (i >= j->reqs_cap) {
		unsigned int cap = i + 16;

		n = realloc(j->reqs, sizeof(*n) * cap);
		if (!n)
			return NULL;
		memset(n + j->reqs_cap, 0, sizeof(*n) * (cap - j->reqs_cap));
		j->reqs = n;
		j->reqs_cap = cap;
	}
	if (!j->reqs[i])
		j->reqs[i] = coop_req_alloc(j->pool);
	return j->reqs[i];
}

/*
 * sync_file_range= syncs the file bytes written since the last sync, as
 * psync's: fio passes them as f->first_write..last_write (its
 * do_sync_file_range()), not in the io_u, whose offset is whatever its
 * last use left (the range was that offset to the end of the file, and
 * the bytes written below it were not synced).  fio's first_write and
 * last_write count only the writes it has reaped, while the sync waits
 * for every write queued before it (coop_pool_submit_wait()): the two are
 * kept here as fio keeps them (io_u.c, io_completed(): both 0 at first,
 * -1 after each sync, kept while the file is closed), from the writes
 * queued.
 */
static int sync_range_of(struct coop_pool_job *j, struct coop_req *req,
			 struct io_u *io_u)
{
	unsigned int i = io_u->file->fileno;
	struct coop_wrange *w;

	if (i >= j->wr_cap) {
		unsigned int cap = i + 16;

		w = realloc(j->wr, sizeof(*w) * cap);
		if (!w)
			return ENOMEM;
		memset(w + j->wr_cap, 0, sizeof(*w) * (cap - j->wr_cap));
		j->wr = w;
		j->wr_cap = cap;
	}
	w = &j->wr[i];
	if (io_u->ddir == DDIR_WRITE) {
		if (w->first == -1ULL || req->off < w->first)
			w->first = req->off;
		if (w->last == -1ULL || req->off + req->len > w->last)
			w->last = req->off + req->len;
		return 0;
	}
	req->off = w->first;
	req->len = w->last - w->first;
	w->first = w->last = -1ULL;
	return 0;
}

static int coop_pool_queue(struct thread_data *td, void *priv, struct io_u *io_u)
{
	struct coop_pool_job *j = priv;
	struct coop_req *req;

	req = req_of(j, io_u);
	if (!req) {
		io_u->error = ENOMEM;
		return FIO_Q_COMPLETED;
	}
	switch (io_u->ddir) {
	case DDIR_READ:
		req->op = COOP_OP_READ;
		break;
	case DDIR_WRITE:
		req->op = COOP_OP_WRITE;
		break;
	case DDIR_TRIM:
		req->op = COOP_OP_TRIM;
		break;
	case DDIR_SYNC:
		req->op = COOP_OP_SYNC;
		break;
	case DDIR_DATASYNC:
		req->op = COOP_OP_DATASYNC;
		break;
	case DDIR_SYNC_FILE_RANGE:
		req->op = COOP_OP_SYNC_RANGE;
		break;
	default:
		io_u->error = EINVAL;
		return FIO_Q_COMPLETED;
	}
	/* A file fio opened before our init is bound on first use. */
	if (!FILE_ENG_DATA(io_u->file) &&
	    coop_pool_open_file(td, j, io_u->file)) {
		io_u->error = td->error ? td->error : EIO;
		return FIO_Q_COMPLETED;
	}
	req->flags = td->o.sync_file_range;
	req->file = FILE_ENG_DATA(io_u->file);
	req->off = io_u->offset;
	req->len = io_u->xfer_buflen;
	if ((io_u->ddir == DDIR_WRITE || ddir_sync(io_u->ddir)) && sync_range_of(j, req, io_u)) {
		io_u->error = ENOMEM;
		return FIO_Q_COMPLETED;
	}
	if (req->op == COOP_OP_SYNC_RANGE && !req->len)
		return FIO_Q_COMPLETED;	/* nothing written: psync's does nothing */
	req->buf = io_u->xfer_buf;
	req->cookie = io_u;
	/*
	 * fio 3.33 ignores io_u->error of a sync-class io_u it reaps through
	 * getevents() (io_u.c, io_completed() returns before looking at it),
	 * so a failed fsync queued here would be lost.  It does honour the
	 * error of one completed in queue() (td_io_queue(), fio_io_sync(),
	 * io_queue_event()), which is what psync and libaio do: wait here for
	 * every request in flight on the file, then for the sync itself.
	 */
	if (ddir_sync(io_u->ddir)) {
		coop_pool_submit_wait(j->pool, req);
		io_u->error = req->error;
		/*
		 * fio names a failed I/O's file, operation and offset only
		 * where it reaps one (io_completed()), which returns before
		 * that for a sync; psync's queue() names it itself
		 * (fio_io_end()), and so does this one, or the job ended
		 * "err=5, func=td_io_queue" with no word of which file's
		 * sync failed.
		 */
		if (io_u->error)
			io_u_log_error(td, io_u);
		return FIO_Q_COMPLETED;
	}
	coop_pool_submit(j->pool, req);
	return FIO_Q_QUEUED;
}

/*
 * @io_u, a read or write, came back from the pool short by io_u->resid
 * bytes, without an error.  A partial transfer stays as it is: fio 3.33's
 * io_completed() (io_u.c) requeues the residual of a short async I/O, as
 * psync's io_queue_event() does, and that residual comes back through
 * here again.  One that moved nothing (a read at or past the end of the
 * file, e.g. one truncated under the job) would be counted as a completed
 * I/O of 0 bytes, where psync fails the job with EIO ("full resid"): fail
 * it alike.  Cold: only short I/O gets here.
 */
static void __attribute__((cold, noinline))
zero_xfer(struct thread_data *td, struct coop_pool_job *j, struct io_u *io_u)
{
	if (io_u->error || io_u->resid < io_u->xfer_buflen)
		return;
	if (!j->zero_logged) {
		j->zero_logged = true;
		pp_err("coop", "%s: %s of %llu bytes at offset %llu of %s moved 0 bytes "
		       "(past the end of the file?): EIO, as fio's psync",
		       td->o.name, io_ddir_name(io_u->ddir),
		       (unsigned long long)io_u->xfer_buflen,
		       (unsigned long long)io_u->offset, io_u->file->file_name);
	}
	io_u->error = EIO;
}

static int coop_pool_getevents(struct thread_data *td, void *priv,
			       unsigned int min, unsigned int max,
			       const struct timespec *t)
{
	struct coop_pool_job *j = priv;
	int64_t timeout = t ? (int64_t)t->tv_sec * 1000000000 + t->tv_nsec : -1;
	unsigned int i, n;

	if (max > j->depth)
		max = j->depth;
	n = coop_pool_reap(j->pool, min, max, timeout, j->reaped);
	coop_cpu_fold(&j->cpu, j->pool, &td->ru_start.ru_utime,
		      &td->ru_start.ru_stime);
	for (i = 0; i < n; i++) {
		struct io_u *io_u = j->reaped[i]->cookie;

		io_u->error = j->reaped[i]->error;
		io_u->resid = j->reaped[i]->resid;
		if (__builtin_expect(io_u->resid != 0, 0))
			zero_xfer(td, j, io_u);
		j->events[i] = io_u;
	}
	return (int)n;
}

static struct io_u *coop_pool_event(struct thread_data *td, void *priv, int ev)
{
	struct coop_pool_job *j = priv;

	(void)td;
	return j->events[ev];
}

static void emit_line(void *ctx, const char *line)
{
	struct thread_data *td = ctx;

	/*
	 * With --output-format=json (or terse) fio's log goes into the same
	 * file as the document, and a stray line would make it unparseable:
	 * then the statistics go to stderr.
	 */
	if (output_format & FIO_OUTPUT_NORMAL)
		pp_info("coop", "%s: %s", td->o.name, line);
	else
		fprintf(stderr, "coop: %s: %s\n", td->o.name, line);
}

static void coop_pool_cleanup(struct thread_data *td, void *priv)
{
	struct coop_pool_job *j = priv;
	unsigned int i;

	coop_pool_stop(j->pool);
	if (j->o->stats)
		coop_stats_emit(j->pool, &j->dev, emit_line, td);
	/* Files fio left open still hold the workers' descriptors. */
	for (i = 0; i < td->o.nr_files && td->files; i++)
		if (td->files[i] && FILE_ENG_DATA(td->files[i]))
			coop_pool_close_file(td, j, td->files[i]);
	coop_pool_destroy(j->pool);
	coop_cpu_free(&j->cpu);
	for (i = 0; i < j->reqs_cap; i++)
		coop_req_free(j->reqs[i]);
	free(j->reqs);
	free(j->wr);
	free(j->reaped);
	free(j->events);
	free(j);
}

static void coop_pool_quiesce(struct thread_data *td, void *priv)
{
	struct coop_pool_job *j = priv;

	(void)td;
	coop_pool_stop(j->pool);
}

const struct coop_backend_ops coop_pool_backend = {
	.name		= "pool",
	.init		= coop_pool_init,
	.queue		= coop_pool_queue,
	.getevents	= coop_pool_getevents,
	.event		= coop_pool_event,
	.cleanup	= coop_pool_cleanup,
	.open_file	= coop_pool_open_file,
	.close_file	= coop_pool_close_file,
	.quiesce	= coop_pool_quiesce,
};
