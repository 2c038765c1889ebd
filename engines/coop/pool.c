// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job's side of the pool: create and stop it, bind files, submit
 * requests (split, readahead windows, dispatch) and reap completions.
 * See pool.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engines/common/uring.h"
#include "engines/coop/pool_int.h"


/*
 * A ring's memory is mapped and unmapped by liburing with raw system calls,
 * which ThreadSanitizer does not see, and a new ring is often mapped where
 * an old one was (the next job's pool, in fio's thread mode).  Unmapping
 * does happen before the new mapping; this counter, bumped before every
 * io_uring_queue_exit() and read after every io_uring_queue_init(), says
 * so in a way TSan understands, instead of a report of a race between
 * workers of two pools that never coexisted.
 */
static atomic_uint rings_unmapped;

static bool coop_inline_all(const struct coop_pool_cfg *cfg);
static bool run_lazy(struct coop_pool *p);

static unsigned int ring_entries(const struct coop_pool *p)
{
	unsigned int want = p->cfg.depth * p->maxparts + COOP_RA_SLOTS;
	unsigned int e = 1;

	while (e < want && e < COOP_RING_MAX)
		e <<= 1;
	return e;
}

static int setup_rings(struct coop_pool *p, char *err, size_t errlen)
{
	unsigned int i, entries = ring_entries(p);
	int ret;

	/*
	 * Rings are set up here, by the job's thread, because liburing's
	 * setup allocates; a worker only submits and reaps.  With fio's
	 * io_uring setup flags (engines/common/uring.h): each ring has one
	 * issuer, its worker, which reaps with submit_and_wait (GETEVENTS)
	 * as DEFER_TASKRUN needs.  The ring starts disabled and the worker
	 * enables it (worker.c), so that the worker, not this thread, is its
	 * single issuer.
	 */
	for (i = 0; i < p->cfg.threads; i++) {
		struct coop_worker *w = &p->w[i];

		ret = pp_uring_setup(entries, &w->ring,
				     PP_URING_FAST | IORING_SETUP_R_DISABLED,
				     &w->ring_flags);
		if (ret < 0) {
			snprintf(err, errlen, "coop_backend=uring: io_uring_queue_init(%u) for worker %u: %s%s",
				 entries, i, strerror(-ret),
				 ret == -ENOSYS || ret == -EPERM ?
				 " (io_uring disabled? see /proc/sys/kernel/io_uring_disabled)" : "");
			return ret;
		}
		(void)atomic_load_explicit(&rings_unmapped, memory_order_acquire);
		w->ring_ok = true;
		w->ring_cap = entries;
		w->queued = calloc(entries, sizeof(*w->queued));
		if (!w->queued) {
			snprintf(err, errlen, "coop_backend=uring: out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * How many completions a worker may hold back (worker.c): a quarter of
 * its share of the iodepth, so that while the job's thread waits for a
 * batch the workers still have three quarters of theirs queued.
 */
static unsigned int coop_hold_batch(unsigned int depth, unsigned int threads)
{
	unsigned int b = depth / (COOP_HOLD_DIV * threads);

	return b ? b : 1;
}

int coop_pool_create(const struct coop_pool_cfg *cfg, struct coop_pool **pp,
		     char *err, size_t errlen)
{
	struct coop_pool *p;
	unsigned int i;
	int ret;

	*pp = NULL;
	if (cfg->threads < 1 || cfg->threads > COOP_MAX_THREADS) {
		snprintf(err, errlen, "coop_threads=%u: must be 1..%u", cfg->threads,
			 COOP_MAX_THREADS);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		goto enomem;
	p->cfg = *cfg;
	if (!p->cfg.depth)
		p->cfg.depth = 1;
	p->maxparts = coop_split_count(cfg->max_len, cfg->split);
	atomic_init(&p->done.head, NULL);
	atomic_init(&p->done.ndone, 0);
	atomic_init(&p->done.want, 0);
	p->taken = 0;
	atomic_init(&p->done.waiting, 0);
	coop_event_init(&p->done.ev);
	p->wait_avg_ns = 0;
	p->outstanding = 0;
	p->low_water = p->cfg.depth / 2;
	p->inline_ok = coop_inline_allowed(&p->cfg);
	p->inline_all = coop_inline_all(&p->cfg);	/* implies inline_ok */
	p->lazy_head = p->lazy_tail = NULL;
	p->inline_cmds = 0;
	coop_order_init(&p->order);
	atomic_init(&p->max_started, 0);
	atomic_init(&p->cpu_gen, 0);
	for (i = 0; i < COOP_RA_SLOTS; i++)
		atomic_init(&p->ra_slot[i].busy, 0);
	p->w = aligned_alloc(64, sizeof(*p->w) * cfg->threads);
	if (!p->w) {
		free(p);
		goto enomem;
	}
	memset(p->w, 0, sizeof(*p->w) * cfg->threads);
	for (i = 0; i < cfg->threads; i++) {
		p->w[i].p = p;
		p->w[i].idx = i;
		p->w[i].batch = coop_hold_batch(p->cfg.depth, cfg->threads);
		p->w[i].lookahead = cfg->threads == 1 ||
				    cfg->dispatch == COOP_DISPATCH_RR;
		atomic_init(&p->w[i].cpu_usr_us, 0);
		atomic_init(&p->w[i].cpu_sys_us, 0);
		snprintf(p->w[i].name, sizeof(p->w[i].name), "coop-w%hu",
			 (unsigned short)i);
	}
	if (coop_dispatch_init(&p->disp, cfg->dispatch, cfg->threads,
			       p->cfg.depth, p->maxparts, COOP_RA_SLOTS)) {
		free(p->w);
		free(p);
		goto enomem;
	}
	*pp = p;
	if (cfg->backend == COOP_BACKEND_URING) {
		ret = setup_rings(p, err, errlen);
		if (ret)
			goto fail;
	}
	/*
	 * One worker, and this thread runs every command (p->inline_all):
	 * the worker would only sleep.  Not starting it keeps fio's job
	 * process single-threaded, where the kernel looks a descriptor up
	 * for each read without taking a reference on its file.
	 */
	if (!p->inline_all) {
		ret = coop_threads_start(p, err, errlen);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	coop_pool_destroy(p);
	*pp = NULL;
	return ret;
enomem:
	snprintf(err, errlen, "out of memory for %u workers", cfg->threads);
	return -ENOMEM;
}

void coop_pool_stop(struct coop_pool *p)
{
	if (p->stopped)
		return;
	/* What fio queued still runs, as a worker drains its queue. */
	while (run_lazy(p))
		;
	coop_dispatch_stop(&p->disp);
	coop_threads_join(p);
	p->stopped = true;
}

void coop_pool_destroy(struct coop_pool *p)
{
	unsigned int i;

	if (!p)
		return;
	coop_pool_stop(p);
	for (i = 0; i < p->cfg.threads; i++) {
		if (!p->w[i].ring_ok)
			continue;
		/* Before the unmap: see rings_unmapped. */
		atomic_fetch_add_explicit(&rings_unmapped, 1, memory_order_release);
		io_uring_queue_exit(&p->w[i].ring);
		free(p->w[i].queued);
	}
	coop_dispatch_destroy(&p->disp);
	free(p->w);
	free(p);
}

/* Wait until no readahead window is in flight on any file. */
static void ra_quiesce(struct coop_pool *p)
{
	unsigned int i;

	for (i = 0; i < COOP_RA_SLOTS; i++)
		while (atomic_load_explicit(&p->ra_slot[i].busy, memory_order_acquire))
			usleep(100);
}

int coop_pool_file_open(struct coop_pool *p, struct coop_file *cf,
			const char *path, int flags, int fd, int is_bdev,
			char *err, size_t errlen)
{
	struct stat st, wst;
	unsigned int i;
	int ret;

	cf->fd = fd;
	cf->wfd = NULL;
	cf->is_bdev = is_bdev;
	coop_ra_init(&cf->ra, p->cfg.ra_max);
	if (p->cfg.ra == COOP_RA_OFF)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	if (p->cfg.fd != COOP_FD_PER_THREAD)
		return 0;

	cf->wfd = malloc(sizeof(int) * p->cfg.threads);
	if (!cf->wfd) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/*
	 * One open() per worker: its own struct file, hence its own
	 * readahead state, as each SCST thread had before 2.6.31.
	 */
	flags &= ~(O_CREAT | O_TRUNC | O_EXCL);
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "coop_fd=per-thread: fstat of fio's descriptor of %s: %s",
			 path, strerror(errno));
		free(cf->wfd);
		cf->wfd = NULL;
		return ret;
	}
	for (i = 0; i < p->cfg.threads; i++) {
		cf->wfd[i] = open(path, flags | O_CLOEXEC);
		ret = cf->wfd[i] < 0 ? -errno : 0;
		if (ret)
			snprintf(err, errlen, "coop_fd=per-thread: open(%s) for worker %u: %s",
				 path, i, strerror(-ret));
		/*
		 * The name is opened again: if it now leads to another file
		 * (renamed or replaced since fio opened it), the workers'
		 * writes would land there and the job's thread's in fio's.
		 */
		else if (fstat(cf->wfd[i], &wst) < 0 || wst.st_dev != st.st_dev ||
			 wst.st_ino != st.st_ino) {
			ret = -ESTALE;
			snprintf(err, errlen, "coop_fd=per-thread: %s, opened again for worker %u, is another "
				 "file than the one fio opened (renamed or replaced meanwhile): refused",
				 path, i);
			close(cf->wfd[i]);
		}
		if (ret) {
			while (i--)
				close(cf->wfd[i]);
			free(cf->wfd);
			cf->wfd = NULL;
			return ret;
		}
		if (p->cfg.ra == COOP_RA_OFF)
			posix_fadvise(cf->wfd[i], 0, 0, POSIX_FADV_RANDOM);
	}
	return 0;
}

int coop_pool_file_advise(struct coop_pool *p, struct coop_file *cf,
			  uint64_t off, uint64_t len, int advice)
{
	unsigned int i;
	int ret = 0, r;

	for (i = 0; cf->wfd && i < p->cfg.threads; i++) {
		r = posix_fadvise(cf->wfd[i], (off_t)off, (off_t)len, advice);
		if (r && !ret)
			ret = -r;
	}
	return ret;
}

void coop_pool_file_close(struct coop_pool *p, struct coop_file *cf)
{
	unsigned int i;

	/* A readahead window, or a command not yet run, may use them. */
	while (run_lazy(p))
		;
	ra_quiesce(p);
	if (!cf->wfd)
		return;
	for (i = 0; i < p->cfg.threads; i++)
		close(cf->wfd[i]);
	free(cf->wfd);
	cf->wfd = NULL;
}

struct coop_req *coop_req_alloc(struct coop_pool *p)
{
	struct coop_req *req;

	size_t size = sizeof(*req) + p->maxparts * sizeof(req->parts[0]);

	/* Cache-line aligned: see struct coop_req. */
	size = (size + 63) & ~(size_t)63;
	req = aligned_alloc(64, size);
	if (req) {
		memset(req, 0, size);
		req->maxparts = p->maxparts;
	}
	return req;
}

void coop_req_free(struct coop_req *req)
{
	free(req);
}

/* Queue a context readahead window, if a slot is free. */
static void submit_ra(struct coop_pool *p, struct coop_file *cf, uint64_t off,
		      uint64_t len)
{
	struct coop_part *part;
	unsigned int i, s;

	for (i = 0; i < COOP_RA_SLOTS; i++) {
		s = (p->ra_next + i) % COOP_RA_SLOTS;
		if (!atomic_load_explicit(&p->ra_slot[s].busy, memory_order_acquire))
			break;
	}
	if (i == COOP_RA_SLOTS) {
		p->ra_dropped++;
		return;
	}
	p->ra_next = s + 1;
	part = &p->ra_slot[s];

	atomic_store_explicit(&part->busy, 1, memory_order_relaxed);
	part->req = NULL;
	part->file = cf;
	part->off = off;
	part->len = len;
	part->buf = NULL;
	part->op = COOP_OP_READAHEAD;
	part->flags = 0;
	part->seq = p->disp.seq;
	coop_dispatch_push(&p->disp, part);
}

/*
 * What every kind of caller-runs needs: coop_inline=1, a psync worker's
 * call (an io_uring worker would submit differently) and no window of the
 * engine's own (coop_ra=context: those go to the workers).
 */
static bool inline_base(const struct coop_pool_cfg *cfg)
{
	return cfg->inline_cmds && cfg->backend == COOP_BACKEND_PSYNC &&
	       cfg->ra != COOP_RA_CONTEXT;
}

/*
 * Whether the job's thread runs every command (run_lazy()): one worker,
 * so one command at a time in fio's order whoever runs it; every request
 * one command (no split); and no coop_coalesce, which is about how this
 * thread waits for a worker.
 */
static bool coop_inline_all(const struct coop_pool_cfg *cfg)
{
	return inline_base(cfg) && cfg->threads == 1 && !cfg->split &&
	       !cfg->coalesce;
}

bool coop_inline_allowed(const struct coop_pool_cfg *cfg)
{
	if (!inline_base(cfg))
		return false;
	/* Shared: any worker's io_context is this thread's; the descriptor
	 * is fio's, or the sole worker's own (coop_fd=per-thread). */
	if (cfg->ioctx == COOP_IOCTX_SHARED)
		return cfg->fd == COOP_FD_SHARED || cfg->threads == 1;
	/*
	 * Private: the sole worker's io_context is not this thread's, so only
	 * if this thread runs every command of the job does one io_context do
	 * all of the job's I/O, as the worker's would have.
	 */
	return coop_inline_all(cfg);
}

/* Put @req at the end of the list @head..@tail (linked through done_next). */
static void list_append(struct coop_req **head, struct coop_req **tail,
			struct coop_req *req)
{
	req->done_next = NULL;
	if (*tail)
		(*tail)->done_next = req;
	else
		*head = req;
	*tail = req;
}

/*
 * Caller-runs: the job's thread executes @req itself, with the system
 * call a psync worker would make on the descriptor that worker would use,
 * and puts it on the ready list.  Only where the block layer could not
 * tell the difference (coop_inline_allowed(), engines/coop/README.md):
 * one io_context and one struct file (so one readahead state) do the
 * job's I/O, as with the workers; the request is one command (no split,
 * no readahead window of the engine's own); and no other command could
 * have run beside it or before it.  Either nothing is in flight
 * (p->outstanding == 0) and the caller waits for this one before it
 * submits anything else (iodepth 1, or a sync), or there is one worker
 * and this thread runs every command, oldest first (run_lazy()).  A
 * worker would have run exactly this command, alone, in the same order,
 * with the same call.
 */
static void run_inline(struct coop_pool *p, struct coop_req *req)
{
	struct coop_part *part = &req->parts[0];
	long res;

	part->req = req;
	part->file = req->file;
	part->off = req->off;
	part->len = req->len;
	part->buf = req->buf;
	part->op = req->op;
	part->flags = req->flags;
	part->seq = p->disp.seq;
	res = coop_exec_sync(req->file->wfd ? req->file->wfd[0] : req->file->fd, part);
	coop_part_result(part, res, &req->error, &req->resid);
	p->inline_cmds++;
	req->nparts = 1;
	req->taken = true;
	list_append(&p->ready_head, &p->ready_tail, req);
}

/*
 * One worker (p->inline_all): run the oldest command fio queued and this
 * thread has not run yet, as that worker would have next.  The worker
 * would have started it as soon as the one before it ended; this thread
 * starts it when it waits for a completion, a sync, or the end, so fio's
 * latency still counts the time it spent queued behind the others.
 */
static bool run_lazy(struct coop_pool *p)
{
	struct coop_req *req = p->lazy_head;

	if (!req)
		return false;
	p->lazy_head = req->done_next;
	if (!p->lazy_head)
		p->lazy_tail = NULL;
	run_inline(p, req);
	return true;
}

static void wait_taken(struct coop_pool *p, const struct coop_req *req);

/*
 * @waits: the caller waits for @req before it submits anything else (a
 * sync, coop_pool_submit_wait(), or iodepth 1), so no other command can
 * run beside it whoever runs it.
 */
static void submit(struct coop_pool *p, struct coop_req *req, bool waits)
{
	struct coop_req *blocker;
	bool rw = req->op == COOP_OP_READ || req->op == COOP_OP_WRITE ||
		  req->op == COOP_OP_TRIM;
	unsigned int i, n;
	uint64_t ra_off, ra_len;
	bool ra;

	/*
	 * One worker: queue it for this thread, in fio's order (nothing is
	 * split and there is no window of the engine's own to work out).
	 */
	if (p->inline_all) {
		req->taken = false;
		list_append(&p->lazy_head, &p->lazy_tail, req);
		while (waits && !req->taken && run_lazy(p))
			;
		return;
	}
	/* Only data moves are split; a sync is one command. */
	n = rw ? coop_split_count(req->len, p->cfg.split) : 1;
	if (n > req->maxparts)
		n = req->maxparts;	/* larger than max_len: last part is bigger */
	ra = p->cfg.ra == COOP_RA_CONTEXT && !p->cfg.direct &&
	     req->op == COOP_OP_READ &&
	     coop_ra_access(&req->file->ra, req->off, req->len, &ra_off, &ra_len);

	/* Nothing in flight: nothing to order against either. */
	if (p->inline_ok && waits && n == 1 && !p->outstanding) {
		run_inline(p, req);
		return;
	}
	/* Same blocks (or a sync): earlier conflicting requests first. */
	while ((blocker = coop_order_blocker(&p->order, req)))
		wait_taken(p, blocker);
	coop_order_add(&p->order, req);
	p->outstanding++;
	req->taken = false;
	req->nparts = n;
	/* One part: its worker sets the results directly (worker.c, finish()). */
	if (n > 1) {
		req->error = 0;
		req->resid = 0;
		coop_split_begin(&req->st, n);
	}
	for (i = 0; i < n; i++) {
		struct coop_part *part = &req->parts[i];
		uint64_t off, len;

		coop_split_part(req->off, req->len, rw ? p->cfg.split : 0, i, &off, &len);
		if (i == n - 1)
			len = req->off + req->len - off;
		part->req = req;
		part->file = req->file;
		part->off = off;
		part->len = len;
		part->buf = (char *)req->buf + (off - req->off);
		part->op = req->op;
		part->flags = req->flags;
		part->seq = p->disp.seq;
		coop_dispatch_push(&p->disp, part);
	}
	/* After the read itself: the window is for what comes next. */
	if (ra)
		submit_ra(p, req->file, ra_off, ra_len);
}

void coop_pool_submit(struct coop_pool *p, struct coop_req *req)
{
	submit(p, req, p->cfg.depth == 1);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Move what the workers completed to the ready list, oldest first. */
static bool take_done(struct coop_pool *p)
{
	struct coop_req *req, *next, *fifo = NULL;
	unsigned int n = 0;

	if (!atomic_load_explicit(&p->done.head, memory_order_relaxed))
		return false;
	req = atomic_exchange_explicit(&p->done.head, NULL, memory_order_acquire);
	for (; req; req = next, n++) {
		next = req->done_next;
		req->done_next = fifo;
		fifo = req;
		/* Done: what was ordered after it may start. */
		req->taken = true;
		coop_order_del(&p->order, req);
	}
	if (!fifo)
		return false;
	if (p->ready_tail)
		p->ready_tail->done_next = fifo;
	else
		p->ready_head = fifo;
	while (fifo->done_next)
		fifo = fifo->done_next;
	p->ready_tail = fifo;
	p->outstanding -= n;
	p->taken += n;
	return true;
}

static unsigned int take_ready(struct coop_pool *p, unsigned int n,
			       unsigned int max, struct coop_req **out)
{
	struct coop_req *req;

	while (n < max && (req = p->ready_head)) {
		p->ready_head = req->done_next;
		if (!p->ready_head)
			p->ready_tail = NULL;
		out[n++] = req;
	}
	return n;
}

/*
 * Sleep until @need more requests than were taken are done, the deadline
 * passes or a spurious wake-up: the caller looks again either way.
 * Returns the wake-up latency if a worker woke us (coop_event_wait()),
 * else -1.
 */
static int64_t sleep_for(struct coop_pool *p, unsigned int need, int64_t deadline)
{
	unsigned int seen, want = p->taken + need;
	int64_t left = -1, lat = -1;

	atomic_store_explicit(&p->done.want, want, memory_order_relaxed);
	/* seq_cst, against the worker's count-then-look (worker.c). */
	atomic_store_explicit(&p->done.waiting, 1, memory_order_seq_cst);
	seen = coop_event_get(&p->done.ev);
	if (deadline)
		left = deadline - mono_ns();
	if ((!deadline || left > 0) &&
	    (int)(atomic_load_explicit(&p->done.ndone, memory_order_seq_cst) - want) < 0)
		lat = coop_event_wait(&p->done.ev, seen, left);
	atomic_store_explicit(&p->done.waiting, 0, memory_order_relaxed);
	return lat;
}

/*
 * How long the job's thread polls for a completion before it sleeps.
 * Polling pays while the wait is shorter than what a sleep would add to
 * it, the wake-up latency (sync.h: measured on every wake-up of this
 * thread, tens of microseconds on an idle VM, one or two on a busy one).
 * So while the recent mean wait is within that latency it polls for up
 * to the latency (ski rental: a wait that outlasts it costs at most twice
 * the better choice), and a longer mean wait (1 MiB reads, direct I/O,
 * real disks) sleeps after one look: polling through it would burn a CPU
 * to save a wake-up that costs the worker a few microseconds.  Not twice
 * the mean: at iodepth 16 the mean is a microsecond, and a worker's
 * hiccup would then put this thread to sleep until the worker's queue ran
 * dry (it defers the wake-up), emptying the pipeline.  Fed by note_wait().
 */
static int64_t reap_poll_ns(const struct coop_pool *p)
{
	int64_t cap = coop_spin_cap(&p->done.ev);

	return p->wait_avg_ns > cap ? COOP_SPIN_MIN_NS : cap;
}

/*
 * A wait of @ns for completions ended: fold it into the mean (1/8 weight).
 * @ns < 0 when a wake-up's stamp predates this wait: count it as none.
 */
static void note_wait(struct coop_pool *p, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	p->wait_avg_ns += (ns - p->wait_avg_ns) / 8;
}

/*
 * Completion coalescing, as NVMe interrupt coalescing or NAPI do it: while
 * more than half the iodepth (p->low_water) is still in the workers'
 * hands, the job's thread waiting for @need completions sleeps until the
 * backlog falls to that low-water mark, not until the first completion.
 * Then it reaps a batch and fio refills a batch while the workers still
 * have the other half queued, and the job's thread pays one sleep and one
 * wake-up per batch instead of a poll or a wake-up per I/O.  The workers
 * run dry when the other half takes less time than the job's thread needs
 * to wake up: so it is an option, off by default (coop_coalesce; the
 * figures are in engines/coop/README.md).  Returns how many completions
 * to sleep for:
 * @need when coalescing does not apply (coop_coalesce=0, or too little in
 * flight).  The delay is bounded: see COOP_COALESCE_MAX_NS.
 */
static unsigned int coalesce_want(const struct coop_pool *p, unsigned int need)
{
	if (!p->cfg.coalesce || p->outstanding <= p->low_water)
		return need;
	return p->outstanding - p->low_water > need ?
	       p->outstanding - p->low_water : need;
}

unsigned int coop_pool_reap(struct coop_pool *p, unsigned int min,
			    unsigned int max, int64_t timeout_ns,
			    struct coop_req **out)
{
	int64_t deadline = timeout_ns > 0 ? mono_ns() + timeout_ns : 0;
	struct coop_count_goal goal = { .ctr = &p->done.ndone };
	int64_t waited_since = 0, woken = 0, lat, coalesce_end = 0, end;
	bool expired = timeout_ns == 0, coalesce = true;
	unsigned int n = 0, want;

	if (min > max)
		min = max;
	/*
	 * This thread runs every command.  When fio waits, it runs all it
	 * may return (up to @max), as the worker would have gone on from one
	 * to the next meanwhile: fio then reaps them in one call rather than
	 * one call each.  When fio only looks, one (no worker would ever
	 * run it otherwise).
	 */
	if (p->inline_all) {
		for (n = take_ready(p, 0, max, out); n < max && (min || !n);
		     n = take_ready(p, n, max, out))
			if (!run_lazy(p))
				break;
		return n;
	}
	for (;;) {
		n = take_ready(p, n, max, out);
		if (n >= min || n == max) {
			/* What the wait would have been without sleeping. */
			if (waited_since)
				note_wait(p, mono_ns() - waited_since - woken);
			return n;
		}
		if (take_done(p))
			continue;
		if (expired)
			return n;
		if (!waited_since) {
			waited_since = mono_ns();
			p->reap_waits++;
		}
		want = coalesce ? coalesce_want(p, min - n) : min - n;
		if (want > min - n) {
			/*
			 * Coalesced: sleep at once, the workers have half the
			 * iodepth to do first.  At most COOP_COALESCE_MAX_NS
			 * from the first such sleep; then wait as usual.
			 */
			if (!coalesce_end)
				coalesce_end = waited_since + COOP_COALESCE_MAX_NS;
			end = deadline && deadline < coalesce_end ? deadline : coalesce_end;
			p->reap_coalesced++;
			lat = sleep_for(p, want, end);
			if (lat > 0)
				woken += lat;
			if (mono_ns() >= coalesce_end) {
				coalesce = false;
				p->reap_coalesce_timeouts++;
			}
			if (timeout_ns > 0 && mono_ns() >= deadline)
				expired = true;
			continue;
		}
		goal.want = p->taken + (min - n);
		if (coop_poll_for(reap_poll_ns(p), coop_count_reached, &goal))
			continue;
		p->reap_sleeps++;
		lat = sleep_for(p, min - n, timeout_ns < 0 ? 0 : deadline);
		if (lat > 0)
			woken += lat;
		if (timeout_ns > 0 && mono_ns() >= deadline)
			expired = true;
	}
}

/*
 * Wait until @req is done and taken off the completion stack (onto the
 * ready list, where coop_pool_reap() finds it as usual).
 */
static void wait_taken(struct coop_pool *p, const struct coop_req *req)
{
	struct coop_count_goal goal = { .ctr = &p->done.ndone };

	while (!req->taken && run_lazy(p))
		;
	/* Not folded into the mean wait: a sync may take milliseconds. */
	while (!req->taken) {
		if (take_done(p))
			continue;
		goal.want = p->taken + 1;
		if (!coop_poll_for(reap_poll_ns(p), coop_count_reached, &goal))
			sleep_for(p, 1, 0);
	}
}

void coop_pool_submit_wait(struct coop_pool *p, struct coop_req *req)
{
	struct coop_req *prev = NULL, *r;

	submit(p, req, true);
	wait_taken(p, req);
	/* The caller has its result: take it off the ready list. */
	for (r = p->ready_head; r != req; r = r->done_next)
		prev = r;
	if (prev)
		prev->done_next = req->done_next;
	else
		p->ready_head = req->done_next;
	if (p->ready_tail == req)
		p->ready_tail = prev;
	req->done_next = NULL;
}

unsigned int coop_pool_threads(const struct coop_pool *p)
{
	return p->cfg.threads;
}

int coop_pool_worker_tid(const struct coop_pool *p, unsigned int w)
{
	return atomic_load_explicit(&p->w[w].tid, memory_order_acquire);
}

void coop_pool_worker_stats(const struct coop_pool *p, unsigned int w,
			    struct coop_worker_stats *st)
{
	*st = p->w[w].st;
	st->tid = coop_pool_worker_tid(p, w);
}

void coop_pool_worker_cpu(const struct coop_pool *p, unsigned int w,
			  uint64_t *usr_us, uint64_t *sys_us)
{
	*usr_us = atomic_load_explicit(&p->w[w].cpu_usr_us, memory_order_relaxed);
	*sys_us = atomic_load_explicit(&p->w[w].cpu_sys_us, memory_order_relaxed);
}

unsigned int coop_pool_cpu_gen(const struct coop_pool *p)
{
	return atomic_load_explicit(&((struct coop_pool *)p)->cpu_gen,
				    memory_order_acquire);
}

void coop_pool_wake_latency(const struct coop_pool *p, int64_t *reaper_ns,
			    int64_t *worker_ns)
{
	*reaper_ns = coop_event_latency(&p->done.ev);
	*worker_ns = coop_event_latency(&p->disp.q[0].wake);
}

void coop_pool_reap_stats(const struct coop_pool *p, uint64_t *waits,
			  uint64_t *sleeps, int64_t *wait_avg_ns)
{
	*waits = p->reap_waits;
	*sleeps = p->reap_sleeps;
	*wait_avg_ns = p->wait_avg_ns;
}

void coop_pool_coalesce_stats(const struct coop_pool *p, uint64_t *sleeps,
			      uint64_t *timeouts)
{
	*sleeps = p->reap_coalesced;
	*timeouts = p->reap_coalesce_timeouts;
}

uint64_t coop_pool_inline_cmds(const struct coop_pool *p)
{
	return p->inline_cmds;
}

uint64_t coop_pool_ra_dropped(const struct coop_pool *p)
{
	return p->ra_dropped;
}
