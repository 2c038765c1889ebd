// SPDX-License-Identifier: GPL-2.0-only
/*
 * Starting and joining workers: pthreads (coop_ioctx=private, an
 * io_context each) or raw clone(CLONE_IO) threads (coop_ioctx=shared).
 *
 * CLONE_IO makes the child share the parent's io_context -- but only if
 * the parent has one.  A task gets its io_context lazily (first I/O that
 * needs it, or ioprio_set()), so we set the parent's own ioprio to itself
 * first; otherwise the children would each get a private one later.
 */
#include <errno.h>
#include <linux/futex.h>
#include <linux/ioprio.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "engines/coop/pool_int.h"
#include "engines/coop/sys.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COOP_STACK_SIZE	(1u << 20)	/* sanitizers need deep stacks */
#else
#define COOP_STACK_SIZE	(256u << 10)
#endif

static void *pthread_body(void *arg)
{
	coop_worker_main(arg);
	return NULL;
}

/* Give the calling thread an io_context so CLONE_IO has one to share. */
static int own_io_context(void)
{
	long prio = coop_sys(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);

	if (prio < 0)
		return (int)prio;
	if (coop_sys(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, prio) == 0)
		return 0;
	/* Some kernels report a value they would not accept back. */
	return (int)coop_sys(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
			     IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0));
}

static int start_clone(struct coop_worker *w)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_IO |
			  CLONE_CHILD_CLEARTID;
	char *stack;
	int tid;

	stack = mmap(NULL, COOP_STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -errno;
	/* A guard page at the bottom: overflow faults instead of corrupting. */
	mprotect(stack, 4096, PROT_NONE);
	w->stack = stack;
	w->stack_size = COOP_STACK_SIZE;
	atomic_store(&w->ctid, 1);
	tid = clone(coop_worker_main, stack + COOP_STACK_SIZE, flags, w, NULL,
		    NULL, &w->ctid);
	if (tid < 0) {
		int err = -errno;

		munmap(stack, COOP_STACK_SIZE);
		w->stack = NULL;
		return err;
	}
	return 0;
}

static int start_pthread(struct coop_worker *w)
{
	pthread_attr_t attr;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, COOP_STACK_SIZE);
	ret = pthread_create(&w->pt, &attr, pthread_body, w);
	pthread_attr_destroy(&attr);
	return -ret;
}

int coop_threads_start(struct coop_pool *p, char *err, size_t errlen)
{
	bool shared = p->cfg.ioctx == COOP_IOCTX_SHARED;
	sigset_t all, old;
	unsigned int i;
	int ret = 0;

	if (shared) {
#if defined(__SANITIZE_THREAD__)
		snprintf(err, errlen, "coop_ioctx=shared: raw clone(CLONE_IO) threads cannot run under ThreadSanitizer");
		return -ENOTSUP;
#endif
		if (!COOP_HAVE_RAW_SYSCALL) {
			snprintf(err, errlen, "coop_ioctx=shared: not supported on this architecture");
			return -ENOTSUP;
		}
		ret = own_io_context();
		if (ret) {
			snprintf(err, errlen, "coop_ioctx=shared: ioprio_set() to create an io_context: %s",
				 strerror(-ret));
			return ret;
		}
	}

	/* Workers start with every signal blocked: signals are fio's business. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < p->cfg.threads; i++) {
		struct coop_worker *w = &p->w[i];

		ret = shared ? start_clone(w) : start_pthread(w);
		if (ret) {
			snprintf(err, errlen, "cannot start worker %u of %u (%s): %s",
				 i, p->cfg.threads, shared ? "clone(CLONE_IO)" : "pthread_create",
				 strerror(-ret));
			break;
		}
		w->started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return ret;

	/* Wait for every tid, so tests and stats can name the workers. */
	for (i = 0; i < p->cfg.threads; i++)
		while (!atomic_load_explicit(&p->w[i].tid, memory_order_acquire))
			sched_yield();
	return 0;
}

void coop_threads_join(struct coop_pool *p)
{
	unsigned int i;
	int v;

	for (i = 0; i < p->cfg.threads; i++) {
		struct coop_worker *w = &p->w[i];

		if (!w->started)
			continue;
		if (!w->stack) {
			pthread_join(w->pt, NULL);
		} else {
			/* The kernel clears ctid and wakes us when the thread is gone. */
			while ((v = atomic_load(&w->ctid)) != 0)
				coop_sys(SYS_futex, &w->ctid, FUTEX_WAIT, v, NULL);
			munmap(w->stack, w->stack_size);
			w->stack = NULL;
		}
		w->started = false;
	}
}
