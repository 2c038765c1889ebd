/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pool of cooperating I/O workers serving one job's stream.
 *
 * No fio here (pool_fio.c is the glue), so the pool runs in a plain host
 * program too: tests/unit/coop-pool-test.c drives it under TSan/ASan.
 *
 * The job's thread is the only producer: it submits requests (one per fio
 * io_u), which are split into parts (split.h) and queued to the workers
 * (dispatch.h); context readahead windows (ctxra.h) are queued as extra
 * parts.  A worker executes a part with pread/pwrite (psync) or on its own
 * io_uring (uring); the worker finishing a request's last part puts it on
 * the completion list, which the job's thread reaps.
 *
 * Workers never call into libc's thread state (see sys.h): with
 * coop_ioctx=shared they are raw clone(CLONE_IO) threads.
 */
#ifndef PERFPACK_COOP_POOL_H
#define PERFPACK_COOP_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/common/enumtab.h"
#include "engines/coop/ctxra.h"
#include "engines/coop/dispatch.h"
#include "engines/coop/split.h"

/*
 * How many workers a pool may have (coop_threads): the one place of the
 * limit; coop.c's option callback, its help text and the model's
 * sim_params_check() use these.  The default is scst_vdisk's num_threads.
 */
#define COOP_MIN_THREADS	1
#define COOP_MAX_THREADS	1024
#define COOP_DEFAULT_THREADS	5

/*
 * coop_fd= and coop_ioctx= values: X(id, name, help), the one table of
 * their names (coop's options, the model's "fd" and "ioctx" parameters);
 * the first of each is the default (engines/common/enumtab.h).
 */
#define COOP_FDS(X)							\
	X(COOP_FD_SHARED, "shared",					\
	  "All workers use fio's open file (one readahead state)")	\
	X(COOP_FD_PER_THREAD, "per-thread",				\
	  "Each worker opens the target itself (readahead state per worker)")
#define COOP_IOCTXS(X)							\
	X(COOP_IOCTX_PRIVATE, "private", "pthreads, an io_context each") \
	X(COOP_IOCTX_SHARED, "shared",					\
	  "clone(CLONE_IO): one io_context (and ioprio) for the pool")
enum coop_fd_mode { COOP_FDS(PP_ENUM_ID) };
enum coop_ioctx_mode { COOP_IOCTXS(PP_ENUM_ID) };

/* coop_backend= values, the first the default; sim is not the pool. */
#define COOP_BACKENDS(X)						\
	X(COOP_BACKEND_PSYNC, "psync", "pread()/pwrite()")		\
	X(COOP_BACKEND_URING, "uring", "Each worker drives its own io_uring") \
	X(COOP_BACKEND_SIM, "sim", "The 2009 SCST testbed model (sim_* options)")
enum coop_backend_kind { COOP_BACKENDS(PP_ENUM_ID) };

struct coop_pool;

struct coop_pool_cfg {
	unsigned int threads;
	enum coop_dispatch_mode dispatch;
	enum coop_fd_mode fd;
	enum coop_ioctx_mode ioctx;
	enum coop_ra_mode ra;
	uint64_t ra_max;	/* bytes */
	uint64_t split;		/* bytes, 0 = no split */
	enum coop_backend_kind backend;	/* PSYNC or URING */
	unsigned int depth;	/* most requests in flight at once */
	uint64_t max_len;	/* largest request, bytes */
	int direct;		/* files are O_DIRECT: no readahead to do */
	int stats;		/* keep the out-of-order count (coop_stats) */
	int coalesce;		/* completion coalescing (pool.c, coalesce_want()) */
	int inline_cmds;	/* caller-runs where equivalent (coop_inline_allowed()) */
};

/*
 * Whether @cfg lets the job's thread run a command itself (caller-runs,
 * pool.c run_inline()): coop_inline=1, coop_backend=psync, coop_ra other
 * than context, and either coop_ioctx=shared with coop_fd=shared or one
 * worker (a command at a time while the pool is idle), or one worker
 * without coop_split_kb and coop_coalesce, private or shared: then this
 * thread runs every command, at any iodepth, one at a time in fio's order
 * (run_lazy()).  Requests of more than one part always go to the workers.
 */
bool coop_inline_allowed(const struct coop_pool_cfg *cfg);

enum coop_op {
	COOP_OP_READ,
	COOP_OP_WRITE,
	COOP_OP_TRIM,
	COOP_OP_SYNC,		/* fsync */
	COOP_OP_DATASYNC,	/* fdatasync */
	COOP_OP_SYNC_RANGE,	/* sync_file_range(flags) */
	COOP_OP_READAHEAD,	/* context readahead window (internal) */
};

/* One open target as the pool sees it. */
struct coop_file {
	int fd;			/* the job's own descriptor (coop_fd=shared) */
	int *wfd;		/* coop_fd=per-thread: worker w's descriptor */
	int is_bdev;		/* a block device (direct I/O alignment) */
	struct coop_ra ra;	/* context readahead (job's thread only) */
};

/* One command as a worker executes it. */
struct coop_part {
	struct coop_req *req;	/* NULL for a readahead window */
	struct coop_file *file;
	uint64_t off, len;
	void *buf;
	uint64_t seq;		/* position in the stream, for out-of-order stats */
	unsigned int op;	/* enum coop_op */
	unsigned int flags;	/* sync_file_range flags */
	_Atomic int busy;	/* readahead slots: owned by a worker */
};

/*
 * One request of the job (a fio io_u).  Laid out by who writes what, so
 * that a page-cached read moves as few cache lines between the two CPUs
 * as it can: the first line only the job's thread touches (what it was
 * asked to do, and the ordering list), the second the worker that
 * completes the request writes (its results) and the job's thread reads
 * when it reaps, and the commands on lines of their own, written by the
 * job's thread and read by a worker.  A one-part request's worker touches
 * only its command's line and the results' line.
 */
struct coop_req {
	/* Set by the submitter; the job's thread only. */
	unsigned int op;	/* enum coop_op, not READAHEAD */
	unsigned int flags;
	struct coop_file *file;
	uint64_t off, len;
	void *buf;
	void *cookie;		/* the io_u */
	struct coop_req *order_prev, *order_next;	/* in flight (order.h) */
	/*
	 * Results once reaped: 0 or a positive errno; bytes not transferred.
	 * Written by the worker that completes the request.
	 */
	int error __attribute__((aligned(64)));
	unsigned int nparts;	/* commands it was cut into (pool.c) */
	uint64_t resid;
	/* Private. */
	struct coop_req *done_next;
	struct coop_split_state st;	/* nparts > 1 only */
	bool taken;		/* off the completion stack (job's thread) */
	unsigned int maxparts;
	struct coop_part parts[] __attribute__((aligned(64)));
};

/*
 * Start the workers.  0, or -errno with a one-line reason in @err (no
 * "coop:" prefix: the caller adds its own).
 */
int coop_pool_create(const struct coop_pool_cfg *cfg, struct coop_pool **pp,
		     char *err, size_t errlen);
/*
 * Stop and join the workers once their queues are drained (idempotent);
 * every submitted request should have been reaped.
 */
void coop_pool_stop(struct coop_pool *p);
/* Stop if needed and free everything. */
void coop_pool_destroy(struct coop_pool *p);

/*
 * Bind an open descriptor @fd of @path: opens the workers' own descriptors
 * (coop_fd=per-thread) and applies coop_ra=off.  0 or -errno (@err set).
 */
int coop_pool_file_open(struct coop_pool *p, struct coop_file *cf,
			const char *path, int flags, int fd, int is_bdev,
			char *err, size_t errlen);
/*
 * posix_fadvise(@off, @len, @advice) on the workers' own descriptors
 * (coop_fd=per-thread; nothing otherwise): fio's fadvise_hint reaches only
 * the descriptor it opened.  0, or the first error as -errno.
 */
int coop_pool_file_advise(struct coop_pool *p, struct coop_file *cf,
			  uint64_t off, uint64_t len, int advice);
/* Close what coop_pool_file_open() opened (not @fd). */
void coop_pool_file_close(struct coop_pool *p, struct coop_file *cf);

/* A request able to carry @cfg->max_len bytes; NULL on ENOMEM. */
struct coop_req *coop_req_alloc(struct coop_pool *p);
void coop_req_free(struct coop_req *req);

/*
 * Queue @req to the workers, once every earlier request it must be ordered
 * after (order.h) has completed: until then the caller waits here.
 */
void coop_pool_submit(struct coop_pool *p, struct coop_req *req);

/*
 * Submit @req and wait for it: it is done, with req->error and req->resid
 * set, when this returns, and it is never reaped.  Every earlier request
 * it conflicts with (for a sync: all on its file) completed before it
 * started; those are reaped as usual.
 */
void coop_pool_submit_wait(struct coop_pool *p, struct coop_req *req);

/*
 * Reap between @min and @max completed requests into @out, waiting at
 * most @timeout_ns (< 0: forever) for @min.  Returns how many.
 */
unsigned int coop_pool_reap(struct coop_pool *p, unsigned int min,
			    unsigned int max, int64_t timeout_ns,
			    struct coop_req **out);

/* What a worker did, for coop_stats. */
struct coop_worker_stats {
	int tid;
	uint64_t reqs;		/* parts executed */
	uint64_t bytes;
	uint64_t busy_ns;
	uint64_t out_of_order;	/* started after a later part of the stream */
	uint64_t ra_windows;	/* readahead windows issued */
	uint64_t wakes;		/* futex wake-ups of the job's thread it sent */
	uint64_t wake_ns;	/* time spent sending them (the waker's cost) */
	int ioprio;		/* ioprio_get() of the worker when it stopped */
};

unsigned int coop_pool_threads(const struct coop_pool *p);
/* Thread id of worker @w (known from coop_pool_create() on). */
int coop_pool_worker_tid(const struct coop_pool *p, unsigned int w);
/* Worker @w's counters; only after coop_pool_stop(). */
void coop_pool_worker_stats(const struct coop_pool *p, unsigned int w,
			    struct coop_worker_stats *st);
/* How stale a worker's published CPU time may get (see below). */
#define COOP_CPU_PUBLISH_NS	1000000
#define COOP_CPU_IDLE_NS	50000

/*
 * Worker @w's CPU time as it last published it (microseconds of user and
 * system time, from getrusage(RUSAGE_THREAD) in the worker): at most
 * COOP_CPU_PUBLISH_NS old while it works, exact once it has been idle
 * for COOP_CPU_IDLE_NS or has stopped.
 */
void coop_pool_worker_cpu(const struct coop_pool *p, unsigned int w,
			  uint64_t *usr_us, uint64_t *sys_us);
/* Changes whenever some worker published its CPU time. */
unsigned int coop_pool_cpu_gen(const struct coop_pool *p);

/*
 * The mean wake-up latencies the pool measured (sync.h), in ns: of the
 * job's thread waiting for completions, and of workers waiting for
 * commands (the first queue's).  What caps polling.
 */
void coop_pool_wake_latency(const struct coop_pool *p, int64_t *reaper_ns,
			    int64_t *worker_ns);

/*
 * How the job's thread waited for completions (job's thread only): calls
 * of coop_pool_reap() that had to wait, how often it slept (after
 * polling up to its cap, see pool.c), and its mean wait in ns.
 */
void coop_pool_reap_stats(const struct coop_pool *p, uint64_t *waits,
			  uint64_t *sleeps, int64_t *wait_avg_ns);

/*
 * Completion coalescing: sleeps of the job's thread that waited for a
 * batch (coop_coalesce=1), and how many of them ran into the bound.
 */
void coop_pool_coalesce_stats(const struct coop_pool *p, uint64_t *sleeps,
			      uint64_t *timeouts);
/* Commands the job's thread ran itself (caller-runs). */
uint64_t coop_pool_inline_cmds(const struct coop_pool *p);

/* Readahead windows dropped because every readahead slot was busy. */
uint64_t coop_pool_ra_dropped(const struct coop_pool *p);

#endif
