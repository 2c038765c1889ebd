// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command queues between the job's thread and the workers; see dispatch.h.
 */
#include <errno.h>
#include <stdlib.h>

#include "engines/coop/dispatch.h"

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

int coop_dispatch_init(struct coop_dispatch *d, enum coop_dispatch_mode mode,
		       unsigned int nworkers)
{
	unsigned int i;

	d->mode = mode;
	d->nworkers = nworkers;
	d->nqueues = coop_dispatch_nqueues(mode, nworkers);
	d->seq = 0;
	atomic_init(&d->stopping, 0);
	d->q = aligned_alloc(64, sizeof(*d->q) * d->nqueues);
	if (!d->q)
		return -ENOMEM;
	for (i = 0; i < d->nqueues; i++) {
		struct coop_queue *q = &d->q[i];

		coop_lock_init(&q->lock);
		q->head = q->tail = NULL;
		atomic_init(&q->len, 0);
		q->sleepers = 0;
		atomic_init(&q->spinner, 0);
		coop_spin_init(&q->spin);
		coop_event_init(&q->wake);
	}
	return 0;
}

void coop_dispatch_destroy(struct coop_dispatch *d)
{
	free(d->q);
	d->q = NULL;
}

unsigned int coop_dispatch_push(struct coop_dispatch *d, struct coop_qitem *it)
{
	unsigned int qi = coop_dispatch_queue_of(d->mode, d->seq++, d->nworkers);
	struct coop_queue *q = &d->q[qi];
	int wake;

	it->next = NULL;
	coop_lock(&q->lock);
	if (q->tail)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
	atomic_store_explicit(&q->len, atomic_load_explicit(&q->len, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	/*
	 * Only pay for a futex wake when a worker is asleep and no spinning
	 * worker is about to take the command.
	 */
	wake = q->sleepers > 0 &&
	       atomic_load_explicit(&q->len, memory_order_relaxed) >
	       atomic_load_explicit(&q->spinner, memory_order_relaxed);
	coop_unlock(&q->lock);
	if (wake)
		coop_event_wake(&q->wake, 1);
	return qi;
}

static struct coop_qitem *take(struct coop_queue *q)
{
	struct coop_qitem *it = q->head;

	if (it) {
		q->head = it->next;
		if (!q->head)
			q->tail = NULL;
		atomic_store_explicit(&q->len,
				      atomic_load_explicit(&q->len, memory_order_relaxed) - 1,
				      memory_order_relaxed);
	}
	return it;
}

static int stopping(struct coop_dispatch *d)
{
	return atomic_load_explicit(&d->stopping, memory_order_acquire);
}

struct coop_qitem *coop_dispatch_pop(struct coop_dispatch *d, unsigned int w,
				     bool wait)
{
	struct coop_queue *q = &d->q[coop_dispatch_queue_for(d->mode, w)];
	struct coop_qitem *it;
	unsigned int seen;
	for (;;) {
		coop_lock(&q->lock);
		it = take(q);
		if (it || !wait || stopping(d)) {
			coop_unlock(&q->lock);
			return it;
		}
		coop_unlock(&q->lock);

		/*
		 * Commands often arrive back to back: one worker spins (more
		 * would steal the CPU the busy ones need), for as long as
		 * spinning has been paying off lately (sync.h).
		 */
		if (!atomic_exchange_explicit(&q->spinner, 1, memory_order_acquire)) {
			coop_spin_until(&q->spin, &q->len, 1);
			atomic_store_explicit(&q->spinner, 0, memory_order_release);
		}

		coop_lock(&q->lock);
		it = take(q);
		if (it || stopping(d)) {
			coop_unlock(&q->lock);
			return it;
		}
		q->sleepers++;
		seen = coop_event_get(&q->wake);
		coop_unlock(&q->lock);
		coop_event_wait(&q->wake, seen, -1);
		coop_lock(&q->lock);
		q->sleepers--;
		coop_unlock(&q->lock);
	}
}

void coop_dispatch_stop(struct coop_dispatch *d)
{
	unsigned int i;

	atomic_store_explicit(&d->stopping, 1, memory_order_release);
	for (i = 0; i < d->nqueues; i++) {
		struct coop_queue *q = &d->q[i];

		/* Take the lock so no worker is between its check and its sleep. */
		coop_lock(&q->lock);
		coop_unlock(&q->lock);
		coop_event_wake(&q->wake, INT32_MAX);
	}
}
