/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which worker executes a command.
 *
 *   queue  one shared FIFO; whichever worker is idle takes the oldest
 *          command (SCST's I/O thread pool).
 *   rr     command k goes to worker k mod N, whatever the load.
 *
 * Commands are the parts after splitting (one per initiator command);
 * readahead windows count as commands too.
 *
 * The policy functions are pure (the model uses them); struct
 * coop_dispatch is the thread-safe set of queues the pool runs on.  It
 * uses atomics and futexes only, never libc's thread state, so workers
 * created with a raw clone(CLONE_IO) can use it.
 */
#ifndef PERFPACK_COOP_DISPATCH_H
#define PERFPACK_COOP_DISPATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engines/common/enumtab.h"
#include "engines/coop/sync.h"

/*
 * coop_dispatch= values: X(id, name, help), the one table of their names
 * (coop's option, the model's "dispatch" parameter); the first is the
 * default (engines/common/enumtab.h).
 */
#define COOP_DISPATCHES(X)						\
	X(COOP_DISPATCH_QUEUE, "queue",					\
	  "One shared FIFO, any idle worker takes the next command (SCST)") \
	X(COOP_DISPATCH_RR, "rr", "Command k goes to worker k mod coop_threads")
enum coop_dispatch_mode { COOP_DISPATCHES(PP_ENUM_ID) };

/* Number of queues: 1 shared FIFO, or one per worker. */
unsigned int coop_dispatch_nqueues(enum coop_dispatch_mode mode,
				   unsigned int nworkers);
/* The queue command number @seq (0, 1, 2, ... in issue order) goes to. */
unsigned int coop_dispatch_queue_of(enum coop_dispatch_mode mode, uint64_t seq,
				    unsigned int nworkers);
/* The queue worker @w takes its commands from. */
unsigned int coop_dispatch_queue_for(enum coop_dispatch_mode mode,
				     unsigned int w);

/*
 * One queue: a bounded multi-consumer ring (Dmitry Vyukov's MPMC queue with
 * a single producer).  Every slot carries a sequence number saying whose
 * turn it is, so the job's thread publishes a command with one release
 * store and a worker claims one with one compare-and-swap on @head; no
 * lock, no list node shared between the two sides.  What each side writes
 * sits on a cache line of its own: the producer's tail, the consumers'
 * head, the polling count, and the sleepers the producer checks.
 */
struct coop_slot {
	atomic_uint_least64_t seq;
	void *item;
};

#define COOP_CACHELINE __attribute__((aligned(64)))

struct coop_queue {
	uint64_t tail COOP_CACHELINE;		/* producer only */
	/*
	 * Producer only: its last wake-up found exactly one sleeper, left
	 * @wake's count at @lone_seq, at @lone_ns (dispatch.c, push).
	 */
	bool lone_woken;
	unsigned int lone_seq;
	int64_t lone_ns;
	atomic_uint_least64_t head COOP_CACHELINE;	/* consumers */
	struct coop_slot *slot COOP_CACHELINE;	/* read-only once set up */
	uint64_t mask;
	atomic_uint spinners COOP_CACHELINE;	/* workers polling the ring */
	atomic_uint sleepers COOP_CACHELINE;	/* workers asleep on @wake */
	atomic_uint seen_max;	/* the latest @wake count a sleeper read (wraps) */
	struct coop_event wake;
} COOP_CACHELINE;

/* A worker's own spin budget, alone on its cache line. */
struct coop_wspin {
	struct coop_spin spin;
} COOP_CACHELINE;

struct coop_dispatch {
	enum coop_dispatch_mode mode;
	unsigned int nworkers, nqueues;
	unsigned int max_spinners;	/* more pollers than CPUs cannot help */
	uint64_t seq;		/* commands pushed (pusher only) */
	atomic_int stopping;	/* pop returns NULL once drained */
	struct coop_queue *q;
	struct coop_wspin *wspin;
};

/*
 * Set up queues for @depth requests of up to @maxparts commands each, plus
 * @extra lone commands (readahead windows) in flight at once.  0 or -ENOMEM.
 */
int coop_dispatch_init(struct coop_dispatch *d, enum coop_dispatch_mode mode,
		       unsigned int nworkers, unsigned int depth,
		       unsigned int maxparts, unsigned int extra);
void coop_dispatch_destroy(struct coop_dispatch *d);

/*
 * Queue @item as the next command; returns the worker queue it went to.
 * Single producer: the job's thread.
 */
unsigned int coop_dispatch_push(struct coop_dispatch *d, void *item);

/*
 * How coop_dispatch_pop() waits: not at all (NULL when nothing is
 * queued), polling then sleeping until there is a command or the
 * dispatcher stops (then NULL), or sleeping without polling first (the
 * caller knows nothing can come soon).
 */
enum coop_pop_wait { COOP_POP_TRY, COOP_POP_WAIT, COOP_POP_SLEEP };

/* Take worker @w's next command. */
void *coop_dispatch_pop(struct coop_dispatch *d, unsigned int w,
			enum coop_pop_wait wait);

/* Whether a command is queued for worker @w (a hint: it may be taken). */
bool coop_dispatch_pending(const struct coop_dispatch *d, unsigned int w);

/* Wake every worker; pops return NULL once their queue is empty. */
void coop_dispatch_stop(struct coop_dispatch *d);

#endif
