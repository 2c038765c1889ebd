// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command queues between the job's thread and the workers; see dispatch.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/coop/dispatch.h"
#include "engines/coop/sys.h"

/*
 * The longest the producer counts on its last wake-up of a lone sleeper
 * (see coop_dispatch_push()): wake-ups slower than this are a sleeper
 * waiting for a CPU, and it is woken again.
 */
#define COOP_LONE_WAKE_NS	200000

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

unsigned int coop_dispatch_nqueues(enum coop_dispatch_mode mode,
				   unsigned int nworkers)
{
	return mode == COOP_DISPATCH_RR ? nworkers : 1;
}

unsigned int coop_dispatch_queue_of(enum coop_dispatch_mode mode, uint64_t seq,
				    unsigned int nworkers)
{
	return mode == COOP_DISPATCH_RR ? (unsigned int)(seq % nworkers) : 0;
}

unsigned int coop_dispatch_queue_for(enum coop_dispatch_mode mode,
				     unsigned int w)
{
	return mode == COOP_DISPATCH_RR ? w : 0;
}

/* A power of two >= @n, and at least one cache line of slots. */
static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t e = 64 / sizeof(struct coop_slot);

	while (e < n)
		e <<= 1;
	return e;
}

int coop_dispatch_init(struct coop_dispatch *d, enum coop_dispatch_mode mode,
		       unsigned int nworkers, unsigned int depth,
		       unsigned int maxparts, unsigned int extra)
{
	uint64_t entries, k, per_req;
	unsigned int i;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	d->mode = mode;
	d->nworkers = nworkers;
	d->nqueues = coop_dispatch_nqueues(mode, nworkers);
	d->max_spinners = ncpu > 0 ? (unsigned int)ncpu : 1;
	d->seq = 0;
	atomic_init(&d->stopping, 0);
	/*
	 * What can be queued at once: every part of @depth requests, plus
	 * @extra lone commands.  rr spreads one request's consecutive parts
	 * evenly, so a queue holds at most its share of each request.
	 */
	per_req = (maxparts + d->nqueues - 1) / d->nqueues;
	entries = pow2_at_least((uint64_t)depth * per_req + extra);
	d->wspin = aligned_alloc(64, sizeof(*d->wspin) * nworkers);
	d->q = aligned_alloc(64, sizeof(*d->q) * d->nqueues);
	if (d->q)
		memset(d->q, 0, sizeof(*d->q) * d->nqueues);
	if (!d->q || !d->wspin)
		goto enomem;
	for (i = 0; i < nworkers; i++)
		coop_spin_init(&d->wspin[i].spin,
			       &d->q[coop_dispatch_queue_for(mode, i)].wake);
	for (i = 0; i < d->nqueues; i++) {
		struct coop_queue *q = &d->q[i];

		q->slot = aligned_alloc(64, sizeof(*q->slot) * entries);
		if (!q->slot)
			goto enomem;
		q->mask = entries - 1;
		q->tail = 0;
		atomic_init(&q->head, 0);
		for (k = 0; k < entries; k++) {
			atomic_init(&q->slot[k].seq, k);
			q->slot[k].item = NULL;
		}
		atomic_init(&q->spinners, 0);
		atomic_init(&q->sleepers, 0);
		atomic_init(&q->seen_max, 0);
		q->lone_woken = false;
		coop_event_init(&q->wake);
	}
	return 0;

enomem:
	coop_dispatch_destroy(d);
	return -ENOMEM;
}

void coop_dispatch_destroy(struct coop_dispatch *d)
{
	unsigned int i;

	for (i = 0; d->q && i < d->nqueues; i++)
		free(d->q[i].slot);
	free(d->q);
	free(d->wspin);
	d->q = NULL;
	d->wspin = NULL;
}

unsigned int coop_dispatch_push(struct coop_dispatch *d, void *item)
{
	unsigned int qi = coop_dispatch_queue_of(d->mode, d->seq++, d->nworkers);
	struct coop_queue *q = &d->q[qi];
	struct coop_slot *s = &q->slot[q->tail & q->mask];
	unsigned int sleepers;
	uint64_t queued;

	/*
	 * The ring is sized for everything that can be in flight, so the
	 * slot is free; should a consumer still be reading it, wait.
	 */
	while (atomic_load_explicit(&s->seq, memory_order_acquire) != q->tail)
		coop_sys(SYS_sched_yield);
	s->item = item;
	atomic_store_explicit(&s->seq, q->tail + 1, memory_order_release);
	q->tail++;

	/*
	 * The look at the sleepers must be ordered after the store above
	 * against a worker's increment before its last look at the ring
	 * (coop_dispatch_pop()), so that one of the two always sees the
	 * other: a store-load pair of fences (Dekker), here a
	 * read-modify-write.  Not membarrier(2) from the worker about to
	 * sleep instead: its IPI through the hypervisor cost each sleep
	 * 15-50 us on one host, and on another 1.2-3x the IOPS wherever
	 * workers sleep often (two or five workers, iodepth 1 hand-offs;
	 * results/history.md, session 11).
	 * Only pay for a futex wake when a worker sleeps and the polling
	 * ones cannot take everything queued.
	 */
	sleepers = atomic_fetch_add_explicit(&q->sleepers, 0, memory_order_seq_cst);
	if (!sleepers)
		return qi;
	queued = q->tail - atomic_load_explicit(&q->head, memory_order_relaxed);
	if (queued <= atomic_load_explicit(&q->spinners, memory_order_relaxed))
		return qi;
	/*
	 * Wake a lone sleeper once.  A woken worker stays counted until it
	 * runs, a wake-up latency later (tens of us on an idle VM), and a
	 * wake-up per push meanwhile was a system call each for nothing
	 * (results/history.md).  Skipped only while: one worker sleeps, this
	 * thread's last wake-up found one too and nothing bumped the count
	 * since, every sleeper read the count before that bump (so the
	 * bump ends its wait or keeps it from starting), and for at most
	 * COOP_LONE_WAKE_NS, after which it wakes again whatever happened.
	 * With more sleepers every push wakes one, as before.
	 */
	if (sleepers == 1 && q->lone_woken &&
	    coop_event_get(&q->wake) == q->lone_seq &&
	    (int)(q->lone_seq - atomic_load_explicit(&q->seen_max, memory_order_relaxed)) > 0 &&
	    mono_ns() - q->lone_ns < COOP_LONE_WAKE_NS)
		return qi;
	coop_event_wake(&q->wake, 1);
	q->lone_woken = sleepers == 1;
	if (q->lone_woken) {
		q->lone_seq = coop_event_get(&q->wake);
		q->lone_ns = mono_ns();
	}
	return qi;
}

/* Claim the oldest command of @q, or NULL when it is empty. */
static void *try_pop(struct coop_queue *q)
{
	uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
	struct coop_slot *s;
	uint64_t seq;
	void *item;

	for (;;) {
		s = &q->slot[pos & q->mask];
		seq = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (seq == pos + 1) {
			if (atomic_compare_exchange_weak_explicit(&q->head, &pos, pos + 1,
								  memory_order_relaxed,
								  memory_order_relaxed))
				break;
			/* Another worker took it; @pos is the new head. */
		} else if (seq == pos) {
			return NULL;			/* not yet published */
		} else {
			pos = atomic_load_explicit(&q->head, memory_order_relaxed);
		}
	}
	item = s->item;
	/* Hand the slot back to the producer, one lap later. */
	atomic_store_explicit(&s->seq, pos + q->mask + 1, memory_order_release);
	return item;
}

static bool queue_ready(const void *arg)
{
	const struct coop_queue *q = arg;
	uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);

	return atomic_load_explicit(&q->slot[pos & q->mask].seq,
				    memory_order_relaxed) == pos + 1;
}

bool coop_dispatch_pending(const struct coop_dispatch *d, unsigned int w)
{
	return queue_ready(&d->q[coop_dispatch_queue_for(d->mode, w)]);
}

static int stopping(struct coop_dispatch *d)
{
	return atomic_load_explicit(&d->stopping, memory_order_acquire);
}

/*
 * A sleeper read @wake's count @seen: make seen_max at least that (wrap
 * aware), before it counts itself a sleeper, for the producer's lone-
 * sleeper check.
 */
static void raise_seen_max(struct coop_queue *q, unsigned int seen)
{
	unsigned int cur = atomic_load_explicit(&q->seen_max, memory_order_relaxed);

	while ((int)(seen - cur) > 0 &&
	       !atomic_compare_exchange_weak_explicit(&q->seen_max, &cur, seen,
						      memory_order_relaxed,
						      memory_order_relaxed))
		;
}

void *coop_dispatch_pop(struct coop_dispatch *d, unsigned int w,
			enum coop_pop_wait wait)
{
	struct coop_queue *q = &d->q[coop_dispatch_queue_for(d->mode, w)];
	bool poll = wait == COOP_POP_WAIT;
	unsigned int seen;
	bool polled;
	void *item;

	item = try_pop(q);
	if (item || wait == COOP_POP_TRY)
		return item;
	for (;; poll = true) {
		/*
		 * Commands often arrive back to back: poll for as long as
		 * polling has been paying off lately (sync.h), but never with
		 * more workers than there are CPUs to poll on.
		 */
		polled = false;
		if (poll) {
			polled = atomic_fetch_add_explicit(&q->spinners, 1,
							   memory_order_relaxed) <
				 d->max_spinners &&
				 coop_spin_while(&d->wspin[w].spin, queue_ready, q);
			atomic_fetch_sub_explicit(&q->spinners, 1, memory_order_relaxed);
			item = try_pop(q);
			if (item)
				return item;
		}
		if (polled && !stopping(d))
			continue;	/* another worker was quicker: poll again */

		/*
		 * Sleep: announce it, then look once more (see push): either
		 * this look sees the producer's publish or its look at the
		 * sleepers sees this count.
		 */
		seen = coop_event_get(&q->wake);
		raise_seen_max(q, seen);
		atomic_fetch_add_explicit(&q->sleepers, 1, memory_order_seq_cst);
		item = try_pop(q);
		if (!item && !stopping(d))
			coop_event_wait(&q->wake, seen, -1);
		atomic_fetch_sub_explicit(&q->sleepers, 1, memory_order_relaxed);
		if (!item)
			item = try_pop(q);
		if (item || stopping(d))
			return item;
	}
}

void coop_dispatch_stop(struct coop_dispatch *d)
{
	unsigned int i;

	atomic_store_explicit(&d->stopping, 1, memory_order_release);
	/* A worker reads the count before it checks @stopping: it wakes. */
	for (i = 0; i < d->nqueues; i++)
		coop_event_wake(&d->q[i].wake, INT32_MAX);
}
