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
 * coop_dispatch is the thread-safe set of queues the pool runs on.  Its
 * waiting uses futexes and atomics only, never libc's thread state, so
 * workers created with a raw clone(CLONE_IO) can use it.
 */
#ifndef PERFPACK_COOP_DISPATCH_H
#define PERFPACK_COOP_DISPATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engines/coop/sync.h"

/* coop_dispatch= values (the order of the fio option's posval list). */
enum coop_dispatch_mode {
	COOP_DISPATCH_QUEUE = 0,
	COOP_DISPATCH_RR,
};

/* Number of queues: 1 shared FIFO, or one per worker. */
unsigned int coop_dispatch_nqueues(enum coop_dispatch_mode mode,
				   unsigned int nworkers);
/* The queue command number @seq (0, 1, 2, ... in issue order) goes to. */
unsigned int coop_dispatch_queue_of(enum coop_dispatch_mode mode, uint64_t seq,
				    unsigned int nworkers);
/* The queue worker @w takes its commands from. */
unsigned int coop_dispatch_queue_for(enum coop_dispatch_mode mode,
				     unsigned int w);

/* An entry in a queue; embed it in the command. */
struct coop_qitem {
	struct coop_qitem *next;
};

struct coop_queue {
	struct coop_lock lock;
	struct coop_qitem *head, *tail;
	atomic_uint len;	/* written under lock, read by spinners */
	unsigned int sleepers;	/* workers waiting on @wake (under lock) */
	atomic_uint spinner;	/* a worker is spinning for the next command */
	struct coop_spin spin;	/* its budget; owned by whoever is the spinner */
	struct coop_event wake;
} __attribute__((aligned(64)));	/* one cache line each: no false sharing */

struct coop_dispatch {
	enum coop_dispatch_mode mode;
	unsigned int nworkers, nqueues;
	uint64_t seq;		/* commands pushed (pusher only) */
	atomic_int stopping;	/* pop returns NULL once drained */
	struct coop_queue *q;
};

/* 0 or -ENOMEM. */
int coop_dispatch_init(struct coop_dispatch *d, enum coop_dispatch_mode mode,
		       unsigned int nworkers);
void coop_dispatch_destroy(struct coop_dispatch *d);

/*
 * Queue @it as the next command; returns the worker queue it went to.
 * Single producer: the job's thread.
 */
unsigned int coop_dispatch_push(struct coop_dispatch *d, struct coop_qitem *it);

/*
 * Take worker @w's next command.  With @wait, sleep until there is one or
 * the dispatcher stops (then NULL); without, NULL when none is queued.
 */
struct coop_qitem *coop_dispatch_pop(struct coop_dispatch *d, unsigned int w,
				     bool wait);

/* Wake every worker; pops return NULL once their queue is empty. */
void coop_dispatch_stop(struct coop_dispatch *d);

#endif
