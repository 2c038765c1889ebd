// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex event and adaptive spinning for the pool; see sync.h.
 */
#include <limits.h>
#include <linux/futex.h>
#include <time.h>

#include "engines/coop/sync.h"
#include "engines/coop/sys.h"

static long futex_wait(atomic_uint *addr, unsigned int val,
		       const struct timespec *ts)
{
	return coop_sys(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ts);
}

static void futex_wake(atomic_uint *addr, int n)
{
	coop_sys(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	/* vDSO: no system call, no TLS. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void coop_event_init(struct coop_event *e)
{
	atomic_init(&e->seq, 0);
	atomic_init(&e->woke_ns, 0);
	atomic_init(&e->lat_ns, COOP_WAKE_LAT_INIT_NS);
}

unsigned int coop_event_get(struct coop_event *e)
{
	return atomic_load_explicit(&e->seq, memory_order_acquire);
}

/* Wake-ups slower than this are a descheduled sleeper, not a wake-up cost. */
#define COOP_WAKE_LAT_SANE_NS	10000000

int64_t coop_event_wait(struct coop_event *e, unsigned int seen, int64_t timeout_ns)
{
	struct timespec ts;
	int64_t lat, avg;
	long ret;

	if (timeout_ns < 0) {
		ret = futex_wait(&e->seq, seen, NULL);
	} else {
		ts.tv_sec = timeout_ns / 1000000000;
		ts.tv_nsec = timeout_ns % 1000000000;
		ret = futex_wait(&e->seq, seen, &ts);
	}
	/* 0: slept and was woken (or spuriously: then the count is unchanged). */
	if (ret || atomic_load_explicit(&e->seq, memory_order_relaxed) == seen)
		return -1;
	lat = mono_ns() - atomic_load_explicit(&e->woke_ns, memory_order_relaxed);
	if (lat < 0 || lat > COOP_WAKE_LAT_SANE_NS)
		return -1;
	/* Several sleepers may fold at once: a lost update only loses a sample. */
	avg = atomic_load_explicit(&e->lat_ns, memory_order_relaxed);
	atomic_store_explicit(&e->lat_ns, avg + (lat - avg) / 8, memory_order_relaxed);
	return lat;
}

void coop_event_wake(struct coop_event *e, int n)
{
	atomic_store_explicit(&e->woke_ns, mono_ns(), memory_order_relaxed);
	atomic_fetch_add_explicit(&e->seq, 1, memory_order_release);
	futex_wake(&e->seq, n);
}

int64_t coop_event_latency(const struct coop_event *e)
{
	return atomic_load_explicit(&e->lat_ns, memory_order_relaxed);
}

int64_t coop_spin_cap(const struct coop_event *ev)
{
	int64_t cap = ev ? coop_event_latency(ev) : COOP_WAKE_LAT_INIT_NS;

	if (cap < COOP_SPIN_CAP_MIN_NS)
		return COOP_SPIN_CAP_MIN_NS;
	return cap > COOP_SPIN_MAX_NS ? COOP_SPIN_MAX_NS : cap;
}

void coop_spin_init(struct coop_spin *s, const struct coop_event *ev)
{
	s->ev = ev;	/* may not be initialized yet: read at the first poll */
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
	int64_t cap = coop_spin_cap(s->ev);
	bool seen;

	if (s->ns > cap)
		s->ns = cap;
	seen = coop_poll_for(s->ns, ready, arg);
	if (seen)
		s->ns = 2 * s->ns < cap ? 2 * s->ns : cap;
	else if (s->ns / 2 >= COOP_SPIN_MIN_NS)
		s->ns /= 2;
	return seen;
}

bool coop_count_reached(const void *arg)
{
	const struct coop_count_goal *g = arg;

	return (int)(atomic_load_explicit(g->ctr, memory_order_relaxed) - g->want) >= 0;
}
