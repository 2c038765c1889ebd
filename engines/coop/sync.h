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
 *
 * The event also measures what a sleep costs: the waker stamps the time
 * it sends a wake-up, and a sleeper that was woken folds the delay until
 * it runs again into @lat_ns (a mean, 1/8 weight).  That delay is what
 * polling instead of sleeping would have saved: on an idle VM tens of
 * microseconds (the halted vCPU must be woken), on a busy machine one or
 * two.  The pollers below spend at most that long.
 */
struct coop_event {
	atomic_uint seq;
	_Atomic int64_t woke_ns;	/* CLOCK_MONOTONIC of the last wake-up */
	_Atomic int64_t lat_ns;		/* mean wake-up latency seen by sleepers */
};

void coop_event_init(struct coop_event *e);
unsigned int coop_event_get(struct coop_event *e);
/*
 * Sleep while the count is still @seen; @timeout_ns < 0 waits forever.
 * Returns the wake-up latency when it slept and was woken, else -1.
 */
int64_t coop_event_wait(struct coop_event *e, unsigned int seen, int64_t timeout_ns);
/* Bump the count and wake up to @n sleepers (INT32_MAX: all). */
void coop_event_wake(struct coop_event *e, int n);
/* The mean wake-up latency of @e's sleepers (COOP_WAKE_LAT_INIT_NS at first). */
int64_t coop_event_latency(const struct coop_event *e);

#define COOP_WAKE_LAT_INIT_NS	16000

/*
 * How long to poll before sleeping: ski rental.  Polling for as long as a
 * sleep would delay the sleeper (coop_event_latency()) costs at most that
 * much CPU per wait and never more than twice the latency of the better
 * choice in hindsight; polling longer would spend CPU to save nothing.
 * Within that cap the budget adapts, in the spirit of glibc's adaptive
 * mutexes: a poll that saw the other side answer doubles the next one's
 * budget, one that ran out halves it, between COOP_SPIN_MIN_NS and the
 * cap (at most COOP_SPIN_MAX_NS, however slow wake-ups get on an
 * overloaded machine).  So a worker whose commands come seconds apart
 * polls a microsecond, and one whose commands come back to back polls
 * for as long as a sleep would cost.  One owner per budget.
 *
 * The poller yields the CPU between looks: with more runnable threads
 * than CPUs (the job's thread and two workers on two vCPUs) the thread it
 * waits for may be queued behind it on its own CPU, and sched_yield()
 * hands that CPU over; with nobody else runnable it costs one system call.
 */
#define COOP_SPIN_MIN_NS	1000
#define COOP_SPIN_MAX_NS	64000
/*
 * The cap is never below this: a sleep and its wake-up also cost the two
 * threads CPU (two system calls and two context switches, ~1.5 us in a
 * futex ping-pong here), so a wait this short is cheaper polled even where
 * wake-ups are fast.
 */
#define COOP_SPIN_CAP_MIN_NS	4000

struct coop_spin {
	int64_t ns;
	const struct coop_event *ev;	/* whose wake-up latency caps the budget */
};

void coop_spin_init(struct coop_spin *s, const struct coop_event *ev);
/*
 * The most a poll may last: @ev's wake-up latency, within
 * [COOP_SPIN_CAP_MIN_NS, COOP_SPIN_MAX_NS].
 */
int64_t coop_spin_cap(const struct coop_event *ev);
/*
 * Spin until @ready(@arg) or the budget runs out, then adapt the budget.
 * Returns true when @ready was seen.
 */
bool coop_spin_while(struct coop_spin *s, bool (*ready)(const void *arg),
		     const void *arg);
/* Poll @ready(@arg), yielding between looks, for at most @ns. */
bool coop_poll_for(int64_t ns, bool (*ready)(const void *arg), const void *arg);

/*
 * A condition for the pollers: *@ctr has reached @want.  Wrap-safe: @ctr
 * only grows, and @want is less than 2^31 ahead of it.
 */
struct coop_count_goal {
	atomic_uint *ctr;
	unsigned int want;
};

bool coop_count_reached(const void *arg);

#endif
