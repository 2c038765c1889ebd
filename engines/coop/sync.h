/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A lock and an event made of one atomic int and a futex each.
 *
 * Why not pthread_mutex/cond: workers may run in raw clone(CLONE_IO)
 * threads without TLS (see sys.h).  C11 atomics give ThreadSanitizer the
 * happens-before edges it needs, so the pool stays checkable under TSan.
 */
#ifndef PERFPACK_COOP_SYNC_H
#define PERFPACK_COOP_SYNC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* 0 free, 1 held, 2 held with waiters (Drepper, "Futexes Are Tricky"). */
struct coop_lock {
	atomic_int v;
};

void coop_lock_init(struct coop_lock *l);
void coop_lock(struct coop_lock *l);
void coop_unlock(struct coop_lock *l);

/*
 * A wake-up counter.  A waiter reads the count with coop_event_get() while
 * it still holds the lock protecting its condition, drops the lock and
 * sleeps in coop_event_wait() unless the count moved in between.
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
 */
#define COOP_SPIN_MIN_NS	1000
#define COOP_SPIN_MAX_NS	64000

struct coop_spin {
	int64_t ns;
};

void coop_spin_init(struct coop_spin *s);
/*
 * Spin until *@ctr >= @want or the budget runs out, then adapt the budget.
 * Returns true when the count was reached.
 */
bool coop_spin_until(struct coop_spin *s, atomic_uint *ctr, unsigned int want);

/* CPU relax hint for short spins before sleeping. */
static inline void coop_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

#endif
