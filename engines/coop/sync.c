// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex lock and event for the pool; see sync.h.
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

void coop_lock_init(struct coop_lock *l)
{
	atomic_init(&l->v, 0);
}

void coop_lock(struct coop_lock *l)
{
	int c = 0;
	int spin;

	if (atomic_compare_exchange_strong_explicit(&l->v, &c, 1,
						    memory_order_acquire,
						    memory_order_relaxed))
		return;
	/* Hold times are a few list operations: spin a little first. */
	for (spin = 0; spin < 100; spin++) {
		coop_cpu_relax();
		c = 0;
		if (atomic_compare_exchange_weak_explicit(&l->v, &c, 1,
							  memory_order_acquire,
							  memory_order_relaxed))
			return;
	}
	if (c != 2)
		c = atomic_exchange_explicit(&l->v, 2, memory_order_acquire);
	while (c != 0) {
		futex_wait((atomic_uint *)&l->v, 2, NULL);
		c = atomic_exchange_explicit(&l->v, 2, memory_order_acquire);
	}
}

void coop_unlock(struct coop_lock *l)
{
	if (atomic_fetch_sub_explicit(&l->v, 1, memory_order_release) != 1) {
		atomic_store_explicit(&l->v, 0, memory_order_release);
		futex_wake((atomic_uint *)&l->v, 1);
	}
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

bool coop_spin_until(struct coop_spin *s, atomic_uint *ctr, unsigned int want)
{
	int64_t end = mono_ns() + s->ns;
	unsigned int i;

	for (;;) {
		/* Look at the clock only now and then: it costs ~20 ns. */
		for (i = 0; i < 32; i++) {
			if (atomic_load_explicit(ctr, memory_order_relaxed) >= want) {
				if (s->ns < COOP_SPIN_MAX_NS)
					s->ns *= 2;
				return true;
			}
			coop_cpu_relax();
		}
		if (mono_ns() >= end) {
			if (s->ns > COOP_SPIN_MIN_NS)
				s->ns /= 2;
			return false;
		}
	}
}
