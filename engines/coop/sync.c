// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex event and adaptive spinning for the pool; see sync.h.
 */
#include <limits.h>
#include <linux/futex.h>
#include <time.h>

#include "engines/coop/sync.h"
#include "engines/coop/sys.h"

static void futex_wait(atomic_uint *addr, unsigned int val,
		       const struct timespec *ts)
{
	coop_sys(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ts);
}

static void futex_wake(atomic_uint *addr, int n)
{
	coop_sys(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n);
}

void coop_event_init(struct coop_event *e)
{
	atomic_init(&e->seq, 0);
}

unsigned int coop_event_get(struct coop_event *e)
{
	return atomic_load_explicit(&e->seq, memory_order_acquire);
}

void coop_event_wait(struct coop_event *e, unsigned int seen, int64_t timeout_ns)
{
	struct timespec ts;

	if (timeout_ns < 0) {
		futex_wait(&e->seq, seen, NULL);
		return;
	}
	ts.tv_sec = timeout_ns / 1000000000;
	ts.tv_nsec = timeout_ns % 1000000000;
	futex_wait(&e->seq, seen, &ts);
}

void coop_event_wake(struct coop_event *e, int n)
{
	atomic_fetch_add_explicit(&e->seq, 1, memory_order_release);
	futex_wake(&e->seq, n);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void coop_spin_init(struct coop_spin *s)
{
	s->ns = COOP_SPIN_MIN_NS;
}

bool coop_poll_for(int64_t ns, bool (*ready)(const void *arg), const void *arg)
{
	int64_t end = mono_ns() + ns;

	for (;;) {
		if (ready(arg))
			return true;
		coop_sys(SYS_sched_yield);
		if (mono_ns() >= end)
			return false;
	}
}

bool coop_spin_while(struct coop_spin *s, bool (*ready)(const void *arg),
		     const void *arg)
{
	if (coop_poll_for(s->ns, ready, arg)) {
		if (s->ns < COOP_SPIN_MAX_NS)
			s->ns *= 2;
		return true;
	}
	if (s->ns > COOP_SPIN_MIN_NS)
		s->ns /= 2;
	return false;
}

bool coop_count_reached(const void *arg)
{
	const struct coop_count_goal *g = arg;

	return atomic_load_explicit(g->ctr, memory_order_relaxed) >= g->want;
}
