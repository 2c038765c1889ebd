/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the pool: shared between pool.c (the job's side), worker.c (the
 * workers' side) and thread.c (starting and joining workers).
 */
#ifndef PERFPACK_COOP_POOL_INT_H
#define PERFPACK_COOP_POOL_INT_H

#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "engines/coop/order.h"
#include "engines/coop/pool.h"
#include "engines/coop/sync.h"

/* Readahead windows in flight at once; more are dropped (and counted). */
#define COOP_RA_SLOTS		64
/* A worker holds back at most its share of the iodepth over this. */
#define COOP_HOLD_DIV		4
/*
 * Completion coalescing (pool.c, coalesce_want()): the longest the job's
 * thread sleeps for a batch before it takes what is done.  Fast commands
 * (page-cached reads: half an iodepth of 16 in about 8 us) never reach
 * it; slow storage gets its completions at most this late.
 */
#define COOP_COALESCE_MAX_NS	100000
/* Largest io_uring per worker: a worker takes no more parts than this. */
#define COOP_RING_MAX		256

struct coop_worker {
	struct coop_pool *p;
	unsigned int idx;
	char name[16];		/* comm, set by the worker itself */
	atomic_int tid;		/* published by the worker when it runs */

	/* thread.c */
	pthread_t pt;
	bool started;
	void *stack;		/* clone(CLONE_IO) workers: mmap()ed stack */
	size_t stack_size;
	/* CLONE_CHILD_CLEARTID: the kernel zeroes it and futex-wakes on exit */
	atomic_int ctid;

	/* uring backend */
	struct io_uring ring;
	bool ring_ok;
	unsigned int ring_flags;	/* setup flags the kernel took */
	unsigned int ring_cap;
	/*
	 * The last ring_cap parts queued on the ring, by queueing order:
	 * after a failed submit the SQEs the kernel did not take are the
	 * newest io_uring_sq_ready() of them (worker.c, ring_failed()).
	 */
	struct coop_part **queued;
	unsigned int nqueued;

	/* Written by the worker only; read after it was joined. */
	struct coop_worker_stats st;
	/*
	 * Completions not yet published (worker.c, complete_req()): a chain
	 * newest first, pushed onto the completion stack in one go.
	 */
	struct coop_req *held_head, *held_tail;
	unsigned int held;
	unsigned int batch;	/* most completions held back (pool.c) */
	int64_t avg_ns;		/* mean command time, 1/8 weight (psync) */
	bool lookahead;		/* psync: claim the next command early */
	bool reaper_slept;	/* the last publish found the job's thread asleep */

	/*
	 * The worker's own CPU time (getrusage(RUSAGE_THREAD)), in us,
	 * published by the worker (worker.c, publish_cpu()) for the job's
	 * thread, which adds it to what fio reports (stats.c).
	 */
	atomic_uint_least64_t cpu_usr_us, cpu_sys_us;
	uint64_t cpu_pub_ns;	/* when it last published (worker only) */
} __attribute__((aligned(64)));

struct coop_pool {
	struct coop_pool_cfg cfg;
	struct coop_dispatch disp;
	unsigned int maxparts;	/* parts of the largest request */

	/*
	 * Completed requests: workers push them on a lock-free stack, the
	 * job's thread takes the whole stack at once.  @ndone counts every
	 * completion ever published, before its push; the job's thread
	 * counts what it took (@taken below), so the difference is what is
	 * on the stack or about to be, and taking costs it no second atomic
	 * read-modify-write.  Both wrap: compare differences (sync.h,
	 * coop_count_reached()).  One cache line, which the job's thread
	 * only reads while it polls.
	 */
	struct {
		_Atomic(struct coop_req *) head;
		atomic_uint ndone;
		atomic_uint want;	/* the reaper sleeps until ndone reaches want */
		atomic_int waiting;
		struct coop_event ev;
	} done __attribute__((aligned(64)));

	/* The job's thread only. */
	struct coop_req *ready_head, *ready_tail;	/* taken, not yet reaped */
	unsigned int taken;	/* completions taken off the stack, ever (wraps) */
	struct coop_order order;	/* submitted, not yet taken */
	int64_t wait_avg_ns;	/* mean wait for completions (pool.c) */
	uint64_t reap_waits, reap_sleeps;	/* getevents that waited; slept */
	/*
	 * Completion coalescing (pool.c, coalesce_want()): requests submitted
	 * and not yet taken off the completion stack, the backlog at which a
	 * coalesced sleep is woken, and how many sleeps were coalesced and how
	 * many of them ran into COOP_COALESCE_MAX_NS.
	 */
	unsigned int outstanding;
	unsigned int low_water;
	uint64_t reap_coalesced, reap_coalesce_timeouts;
	/*
	 * Caller-runs (pool.c, run_inline()): whether this pool's options
	 * make the job's thread doing a command indistinguishable from a
	 * worker doing it, and how many commands it ran itself.
	 */
	bool inline_ok;
	uint64_t inline_cmds;
	/*
	 * Caller-runs everything (one worker: pool.c, coop_inline_all()):
	 * the commands fio queued that this thread has not run yet, oldest
	 * first, linked through done_next; it runs them when it waits.
	 */
	bool inline_all;
	struct coop_req *lazy_head, *lazy_tail;

	atomic_uint_least64_t max_started __attribute__((aligned(64)));
					/* highest stream seq started (coop_stats) */
	struct coop_part ra_slot[COOP_RA_SLOTS];
	unsigned int ra_next;	/* where to look for a free slot */
	uint64_t ra_dropped;

	/* Bumped by every worker's publish_cpu(): the job's thread folds on change. */
	atomic_uint cpu_gen __attribute__((aligned(64)));

	bool stopped;
	struct coop_worker *w;
};

/* worker.c: the body of every worker thread. */
int coop_worker_main(void *arg);
/*
 * Execute @part on @fd with one system call, as a psync worker does:
 * bytes transferred or -errno.  No TLS (see worker.c).
 */
long coop_exec_sync(int fd, const struct coop_part *part);
/* What @res of coop_exec_sync() means for @part: a positive errno, a residual. */
void coop_part_result(const struct coop_part *part, long res, int *error,
		      uint64_t *resid);

/* thread.c */
int coop_threads_start(struct coop_pool *p, char *err, size_t errlen);
void coop_threads_join(struct coop_pool *p);

#endif
