// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a worker does: take commands from its queue, execute them with
 * pread/pwrite or on its own io_uring, and complete the request whose last
 * part it finished.
 *
 * Runs in threads that may have no TLS (coop_ioctx=shared): only coop_sys(),
 * atomics, the futex primitives and liburing's submission/completion calls
 * (raw syscalls, no errno) are allowed here -- no errno, malloc or stdio.
 */
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/ioprio.h>
#include <linux/prctl.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>

#include "engines/coop/pool_int.h"
#include "engines/coop/sys.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	/* vDSO clock_gettime: no syscall and no TLS on success. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Publish this thread's CPU time for the job's thread (pool.h,
 * coop_pool_worker_cpu()).  getrusage(RUSAGE_THREAD) costs a system call,
 * so it runs when COOP_CPU_PUBLISH_NS passed since the last time, or
 * COOP_CPU_IDLE_NS when the worker is about to wait (@idle), and at exit.
 */
static void publish_cpu(struct coop_worker *w, bool idle, bool force)
{
	uint64_t now = now_ns(), since = now - w->cpu_pub_ns;
	struct rusage ru;

	if (!force && since < (idle ? COOP_CPU_IDLE_NS : COOP_CPU_PUBLISH_NS))
		return;
	w->cpu_pub_ns = now;
	if (coop_sys(SYS_getrusage, RUSAGE_THREAD, &ru))
		return;
	atomic_store_explicit(&w->cpu_usr_us,
			      (uint64_t)ru.ru_utime.tv_sec * 1000000 + (uint64_t)ru.ru_utime.tv_usec,
			      memory_order_relaxed);
	atomic_store_explicit(&w->cpu_sys_us,
			      (uint64_t)ru.ru_stime.tv_sec * 1000000 + (uint64_t)ru.ru_stime.tv_usec,
			      memory_order_relaxed);
	atomic_fetch_add_explicit(&w->p->cpu_gen, 1, memory_order_release);
}

static int part_fd(const struct coop_worker *w, const struct coop_part *part)
{
	return part->file->wfd ? part->file->wfd[w->idx] : part->file->fd;
}

/*
 * Count commands that start after a later command of the stream started.
 * Only for coop_stats: the shared maximum is a cache line every worker
 * writes, which costs more than a page-cached read's hand-off.
 */
static void note_start(struct coop_worker *w, const struct coop_part *part)
{
	uint64_t max;

	if (!w->p->cfg.stats)
		return;
	max = atomic_load_explicit(&w->p->max_started, memory_order_relaxed);

	while (part->seq > max) {
		if (atomic_compare_exchange_weak_explicit(&w->p->max_started,
							  &max, part->seq,
							  memory_order_relaxed,
							  memory_order_relaxed))
			return;
	}
	if (part->seq < max)
		w->st.out_of_order++;
}

/*
 * A trim is fio's os_trim() (os/os-linux.h): BLKDISCARD whatever the file
 * is, so a regular file fails it with ENOTTY as under psync and io_uring
 * (a hole punch there discarded the user's bytes where fio's own engines
 * fail the job).
 */
static long do_trim(int fd, const struct coop_part *part)
{
	uint64_t range[2] = { part->off, part->len };

	return coop_sys(SYS_ioctl, fd, BLKDISCARD, range);
}

long coop_exec_sync(int fd, const struct coop_part *part)
{
	switch (part->op) {
	case COOP_OP_READ:
		return coop_sys(SYS_pread64, fd, part->buf, part->len, part->off);
	case COOP_OP_WRITE:
		return coop_sys(SYS_pwrite64, fd, part->buf, part->len, part->off);
	case COOP_OP_TRIM:
		return do_trim(fd, part);
	case COOP_OP_SYNC:
		return coop_sys(SYS_fsync, fd);
	case COOP_OP_DATASYNC:
		return coop_sys(SYS_fdatasync, fd);
	case COOP_OP_SYNC_RANGE:
		return coop_sys(SYS_sync_file_range, fd, part->off, part->len,
				part->flags);
	case COOP_OP_READAHEAD:
		return coop_sys(SYS_readahead, fd, part->off, part->len);
	}
	return -EINVAL;
}

/*
 * Wake the job's thread if it sleeps for what is done by now.  True when
 * it was asleep (woken now or still waiting for more).
 */
static bool wake_reaper(struct coop_worker *w)
{
	struct coop_pool *p = w->p;

	/* seq_cst, against the reaper's announce-then-look (pool.c). */
	if (!atomic_load_explicit(&p->done.waiting, memory_order_seq_cst))
		return false;
	if ((int)(atomic_load_explicit(&p->done.ndone, memory_order_relaxed) -
		  atomic_load_explicit(&p->done.want, memory_order_relaxed)) < 0)
		return true;
	if (atomic_exchange_explicit(&p->done.waiting, 0, memory_order_relaxed)) {
		uint64_t t0 = now_ns();

		coop_event_wake(&p->done.ev, 1);
		/* What the wake-up cost this worker (coop_stats: wake_us). */
		w->st.wakes++;
		w->st.wake_ns += now_ns() - t0;
	}
	return true;
}

/*
 * Publish the completions this worker holds: one count and one push of
 * the whole chain, then wake the job's thread if it sleeps for them.  Each
 * completion published alone would cost a cache line or two crossing
 * between the CPUs and a look at the reaper's state; held back a few at a
 * time they cost that once per batch.
 */
static void flush_done(struct coop_worker *w)
{
	struct coop_pool *p = w->p;
	struct coop_req *head;

	if (!w->held)
		return;
	/* Count first: the reaper never takes more than it was told of. */
	atomic_fetch_add_explicit(&p->done.ndone, w->held, memory_order_seq_cst);
	head = atomic_load_explicit(&p->done.head, memory_order_relaxed);
	do {
		w->held_tail->done_next = head;
	} while (!atomic_compare_exchange_weak_explicit(&p->done.head, &head,
							w->held_head,
							memory_order_release,
							memory_order_relaxed));
	w->held_head = w->held_tail = NULL;
	w->held = 0;
	w->reaper_slept = wake_reaper(w);
}

/*
 * @req is done with @error and @resid: hold it for flush_done(), which
 * runs now unless @defer and fewer than w->batch are held.
 */
static void complete_req(struct coop_worker *w, struct coop_req *req,
			 int error, uint64_t resid, bool defer)
{
	req->error = error;
	req->resid = resid;
	/* Newest first, like the stack it joins (pool.c, take_done()). */
	req->done_next = w->held_head;
	w->held_head = req;
	if (!w->held_tail)
		w->held_tail = req;
	if (++w->held >= w->batch || !defer)
		flush_done(w);
}

/*
 * @part finished with @res (bytes or -errno).  With @defer, its request's
 * completion may be held back until flush_done(): see run_psync().
 */
void coop_part_result(const struct coop_part *part, long res, int *error,
		      uint64_t *resid)
{
	*error = 0;
	*resid = 0;
	if (res < 0)
		*error = (int)-res;
	else if ((part->op == COOP_OP_READ || part->op == COOP_OP_WRITE) &&
		 (uint64_t)res < part->len)
		*resid = part->len - (uint64_t)res;	/* short I/O, as psync */
}

static void finish(struct coop_worker *w, struct coop_part *part, long res,
		   bool defer)
{
	struct coop_req *req = part->req;
	uint64_t resid;
	int error;

	coop_part_result(part, res, &error, &resid);

	w->st.reqs++;
	if (!req) {
		w->st.ra_windows++;
		/* Hand the slot back to the job's thread. */
		atomic_store_explicit(&part->busy, 0, memory_order_release);
		return;
	}
	if (res > 0 && part->op != COOP_OP_TRIM)
		w->st.bytes += (uint64_t)res;
	if (req->nparts == 1)
		complete_req(w, req, error, resid, defer);
	else if (coop_split_done(&req->st, error,
				 resid ? part->off + part->len - resid - req->off :
				 COOP_SPLIT_WHOLE))
		complete_req(w, req, coop_split_error(&req->st),
			     coop_split_resid(&req->st, req->len), defer);
	else if (!defer)
		flush_done(w);
}

static struct coop_part *take(struct coop_worker *w, bool wait)
{
	enum coop_pop_wait how = COOP_POP_TRY;

	/*
	 * Poll for the next command only while the job's thread is awake.
	 * When it sleeps for completions (its waits are longer than a
	 * wake-up: large or direct I/O), or the last completions had to
	 * wake it, nothing can come before its wake-up latency has passed
	 * and it has run: polling through that would burn this CPU for
	 * nothing (measured: about the wake-up latency per I/O, 2.4x
	 * psync's CPU for 256 KiB iodepth-1 reads), so sleep at once.
	 */
	if (wait)
		how = w->reaper_slept ||
		      atomic_load_explicit(&w->p->done.waiting, memory_order_relaxed) ?
		      COOP_POP_SLEEP : COOP_POP_WAIT;
	w->reaper_slept = false;
	return coop_dispatch_pop(&w->p->disp, w->idx, how);
}

/*
 * Publishing a completion costs about as much as a page-cache read's
 * copy, so a worker that is busy with fast commands holds completions
 * back: until its queue runs dry, a command takes longer than
 * COOP_DEFER_NS, or it holds w->batch of them (pool.c: a quarter of the
 * job's iodepth over the workers, so the job's thread gets them in time
 * to keep every worker's queue filled).  Slow storage is never delayed.
 */
#define COOP_DEFER_NS	10000

static void run_psync(struct coop_worker *w)
{
	struct coop_part *part, *next = NULL;
	uint64_t t0, t;
	bool more;
	long res;

	for (;;) {
		part = next ? next : take(w, false);
		if (!part) {
			flush_done(w);
			publish_cpu(w, true, false);
			part = take(w, true);
			if (!part)
				break;
		}
		/*
		 * Claim the next command now: its cache lines, written by the
		 * job's thread on another CPU, then cross while this one runs
		 * instead of stalling the worker after it.  Only from a queue
		 * of its own (one worker, or coop_dispatch=rr): from a shared
		 * one it would hold a command another, idle, worker could run
		 * now (w->lookahead, pool.c).
		 */
		next = w->lookahead ? take(w, false) : NULL;
		if (next)
			__builtin_prefetch(next, 0);
		t0 = now_ns();
		note_start(w, part);
		res = coop_exec_sync(part_fd(w, part), part);
		t = now_ns() - t0;
		w->st.busy_ns += t;
		if (next && next->req)
			__builtin_prefetch(&next->req->error, 1);
		/*
		 * Held back only while more data moves are queued (a sync
		 * next may take milliseconds) and commands have been fast
		 * lately, not just this one: a completion held back waits
		 * for the next command, which on storage that misses now and
		 * then may be a slow one.  See COOP_DEFER_NS.
		 */
		w->avg_ns += ((int64_t)t - w->avg_ns) / 8;
		more = next ? next->op == COOP_OP_READ || next->op == COOP_OP_WRITE :
			      coop_dispatch_pending(&w->p->disp, w->idx);
		finish(w, part, res, more && t < COOP_DEFER_NS &&
		       w->avg_ns < COOP_DEFER_NS / 4);
		if (t0 - w->cpu_pub_ns >= COOP_CPU_PUBLISH_NS)
			publish_cpu(w, false, false);
	}
	flush_done(w);
}

/* Queue @part on the worker's ring; false if it was done synchronously. */
static bool prep_uring(struct coop_worker *w, struct coop_part *part)
{
	struct io_uring_sqe *sqe;
	int fd = part_fd(w, part);

	if (part->op == COOP_OP_TRIM) {
		/* io_uring has no discard for files or this kernel's bdevs. */
		finish(w, part, do_trim(fd, part), false);
		return false;
	}
	sqe = io_uring_get_sqe(&w->ring);	/* never NULL: bounded by ring_cap */
	switch (part->op) {
	case COOP_OP_READ:
		io_uring_prep_read(sqe, fd, part->buf, part->len, part->off);
		break;
	case COOP_OP_WRITE:
		io_uring_prep_write(sqe, fd, part->buf, part->len, part->off);
		break;
	case COOP_OP_SYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	case COOP_OP_DATASYNC:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	case COOP_OP_SYNC_RANGE:
		io_uring_prep_sync_file_range(sqe, fd, part->len, part->off,
					      part->flags);
		break;
	case COOP_OP_READAHEAD:
		io_uring_prep_fadvise(sqe, fd, part->off, part->len,
				      POSIX_FADV_WILLNEED);
		break;
	}
	io_uring_sqe_set_data(sqe, part);
	w->queued[w->nqueued++ % w->ring_cap] = part;
	return true;
}

/*
 * The ring refused a submission for good (not EINTR/EAGAIN/EBUSY).  The
 * SQEs it did not take are the newest ones queued: fail their parts now,
 * or the job's thread would wait for them forever.  Those SQEs stay in
 * the ring, so nothing may be submitted on it again.  Returns how many
 * parts were failed.
 */
static unsigned int ring_failed(struct coop_worker *w, int err)
{
	unsigned int i, k = io_uring_sq_ready(&w->ring);

	for (i = k; i > 0; i--)
		finish(w, w->queued[(w->nqueued - i) % w->ring_cap], err, false);
	return k;
}

static void run_uring(struct coop_worker *w)
{
	struct io_uring_cqe *cqe;
	struct coop_part *part;
	unsigned int inflight = 0, head, n;
	uint64_t busy_since = 0;
	int ret, broken = 0;

	/* Become the ring's single issuer (pool.c, setup_rings()). */
	if (w->ring_flags & IORING_SETUP_R_DISABLED)
		broken = (int)coop_sys(SYS_io_uring_register, w->ring.ring_fd,
				       IORING_REGISTER_ENABLE_RINGS, NULL, 0);
	for (;;) {
		if (!inflight)
			publish_cpu(w, true, false);
		else
			publish_cpu(w, false, false);
		/* Sleep for work only when nothing is in flight. */
		while (inflight < w->ring_cap) {
			part = take(w, inflight == 0);
			if (!part) {
				if (!inflight)
					return;		/* stopped and drained */
				break;
			}
			note_start(w, part);
			if (broken) {
				finish(w, part, broken, false);
				continue;
			}
			if (!inflight)
				busy_since = now_ns();
			if (prep_uring(w, part))
				inflight++;
			else if (!inflight)
				w->st.busy_ns += now_ns() - busy_since;
		}
		/* A broken ring only reaps what the kernel did take. */
		ret = broken ? io_uring_wait_cqe(&w->ring, &cqe) :
			       io_uring_submit_and_wait(&w->ring, 1);
		if (ret == -EINTR || ret == -EAGAIN || ret == -EBUSY) {
			/*
			 * Transient: what is queued stays queued and what
			 * is in flight completes, so just retry.
			 */
			coop_sys(SYS_sched_yield);
		} else if (ret < 0 && !broken) {
			broken = ret;
			inflight -= ring_failed(w, ret);
		}
		n = 0;
		/* What one pass reaps is published together (w->batch at most). */
		io_uring_for_each_cqe(&w->ring, head, cqe) {
			finish(w, io_uring_cqe_get_data(cqe), cqe->res, true);
			n++;
		}
		io_uring_cq_advance(&w->ring, n);
		flush_done(w);
		inflight -= n;
		if (!inflight)
			w->st.busy_ns += now_ns() - busy_since;
	}
}

int coop_worker_main(void *arg)
{
	struct coop_worker *w = arg;

	coop_sys(SYS_prctl, PR_SET_NAME, w->name);
	atomic_store_explicit(&w->tid, (int)coop_sys(SYS_gettid),
			      memory_order_release);
	if (w->ring_ok)
		run_uring(w);
	else
		run_psync(w);
	publish_cpu(w, true, true);
	w->st.ioprio = (int)coop_sys(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
	return 0;
}
