/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Setting up an io_uring with the flags fio 3.33's own io_uring engine
 * asks for, and falling back on kernels that refuse them.
 *
 *   IORING_SETUP_COOP_TASKRUN   (5.19) completions are not pushed to the
 *                               task with an interrupt (IPI): it runs
 *                               them when it enters the kernel anyway
 *   IORING_SETUP_SINGLE_ISSUER  (6.0) one task submits: cheaper locking
 *   IORING_SETUP_DEFER_TASKRUN  (6.1, needs SINGLE_ISSUER) completion work
 *                               runs only when that task waits for
 *                               events (io_uring_enter with GETEVENTS)
 *   IORING_SETUP_R_DISABLED     (5.10) the ring starts disabled; the task
 *                               that enables it (io_uring_enable_rings())
 *                               becomes the single issuer.  For rings set
 *                               up by one thread and driven by another.
 *
 * The single issuer is the task that created the ring, or with
 * R_DISABLED the one that enabled it; any other task's submit fails with
 * EEXIST.  Reaping with DEFER_TASKRUN must go through io_uring_enter with
 * GETEVENTS (liburing's wait/submit_and_wait do): a peek alone sees
 * nothing that completed since the last enter.
 */
#ifndef PERFPACK_COMMON_URING_H
#define PERFPACK_COMMON_URING_H

#include <liburing.h>

/*
 * The most SQEs a ring may have (the kernel's IORING_MAX_ENTRIES, not in
 * its uapi headers): setup with more fails with EINVAL.
 */
#define PP_URING_MAX_ENTRIES	32768

#define PP_URING_FAST	(IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | \
			 IORING_SETUP_DEFER_TASKRUN)

/* How a ring is set up: io_uring_queue_init_params() or a test's fake. */
typedef int (*pp_uring_setup_fn)(unsigned int entries, struct io_uring *ring,
				 struct io_uring_params *p);

/*
 * io_uring_queue_init_params() with @flags; while the kernel says EINVAL,
 * retry with fewer, in fio's order: without DEFER_TASKRUN and
 * SINGLE_ISSUER (and R_DISABLED, which only serves the single issuer),
 * then without COOP_TASKRUN.  Any other error, or EINVAL with nothing
 * left to drop, is returned as -errno.  *@used: the flags the ring has.
 */
int pp_uring_setup(unsigned int entries, struct io_uring *ring,
		   unsigned int flags, unsigned int *used);
/* The same through @setup (tests). */
int pp_uring_setup_with(pp_uring_setup_fn setup, unsigned int entries,
			struct io_uring *ring, unsigned int flags,
			unsigned int *used);

#endif
