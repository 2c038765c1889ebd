/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Waiting between the job's thread and the workers: an event made of one
 * atomic int and a futex, and an adaptive polling budget.
 *
 * Why not pthread_cond: workers may run in raw clone(CLONE_IO) threads
 * without TLS (see sys.h).  C11 atomics give ThreadSanitizer the
 * happens-before edges it needs, so the pool stays checkable under TSan.
 */
#ifndef PERFPACK_COOP_SYNC_H
#define PERFPACK_COOP_SYNC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * A wake-up counter.  A waiter announces itself, reads the count with
 * coop_event_get(), checks its condition once more and sleeps in
 * coop_event_wait() unless the count moved in between.
 */
struct coop_event {
	atomic_uint seq;
};

void coop_event_init(struct coop_event *e);
unsigned int coop_event_get(struct coop_event *e);
/* Sleep while the count is still @seen; @timeout_ns < 0 waits forever. */
void coop_event_wait(struct coop_event *e, unsigned int seen, int64_t timeout_ns);
/* Bump the count and wake up to @n sleepers (INT32_MAX: all). */
void coop_event_wake(struct coop_event *e, int n);

/*
 * An adaptive spin budget, in the spirit of glibc's adaptive mutexes.  A
 * futex sleep costs the sleeper its wake-up latency: on an idle VM that is
 * tens of microseconds (the vCPU itself must be woken), far more than a
 * page-cached read, so waiting for the other side by spinning wins.  On a
 * busy machine the spinner steals the CPU the other side needs, and the
 * spin only delays the sleep.  So every spin that saw the other side answer
 * doubles the next one's budget and every spin that ran out halves it,
 * between COOP_SPIN_MIN_NS and COOP_SPIN_MAX_NS.  One owner per budget.
 *
 * The spinner yields the CPU between looks: with more runnable threads
 * than CPUs (the job's thread and two workers on two vCPUs) the thread it
 * waits for may be queued behind it on its own CPU, and sched_yield()
 * hands that CPU over; with nobody else runnable it costs one system call.
 * The floor is 16 us, not less, because a sleep and its wake-up cost more
 * than that here.
 */
#define COOP_SPIN_MIN_NS	16000
#define COOP_SPIN_MAX_NS	64000

struct coop_spin {
	int64_t ns;
};

void coop_spin_init(struct coop_spin *s);
/*
 * Spin until @ready(@arg) or the budget runs out, then adapt the budget.
 * Returns true when @ready was seen.
 */
bool coop_spin_while(struct coop_spin *s, bool (*ready)(const void *arg),
		     const void *arg);
/* Poll @ready(@arg), yielding between looks, for at most @ns. */
bool coop_poll_for(int64_t ns, bool (*ready)(const void *arg), const void *arg);

/* A condition for the pollers: *@ctr >= @want. */
struct coop_count_goal {
	atomic_uint *ctr;
	unsigned int want;
};

bool coop_count_reached(const void *arg);

#endif
