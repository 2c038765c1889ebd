// SPDX-License-Identifier: GPL-2.0-only
/*
 * engines/common/uring.c: the setup flags and their fallback.
 *
 * 1. Against a fake kernel that knows only some flags: which flags are
 *    tried in which order, what the ring ends up with, and that an error
 *    other than EINVAL is returned at once.
 * 2. Against this kernel: a ring set up with PP_URING_FAST has a single
 *    issuer (another thread's submit fails with EEXIST); with R_DISABLED
 *    the thread that enables it becomes the issuer (the creator's submit
 *    fails), as the coop workers rely on.  Skipped (exit 77) if the kernel
 *    has no io_uring or not these flags.
 *
 * Exit 0 pass, 1 fail, 77 skip.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engines/common/uring.h"
#include "tests/unit/check.h"


/* The fake kernel: flags it knows, the error it gives otherwise, calls seen. */
static unsigned int known, tried[8];
static int ntried, other_err;

static int fake_setup(unsigned int entries, struct io_uring *ring,
		      struct io_uring_params *p)
{
	(void)entries;
	(void)ring;
	if (ntried < 8)
		tried[ntried] = p->flags;
	ntried++;
	if (other_err)
		return other_err;
	return p->flags & ~known ? -EINVAL : 0;
}

static int fake(unsigned int k, unsigned int flags, unsigned int *used)
{
	struct io_uring ring;

	known = k;
	ntried = 0;
	*used = 0xdead;
	return pp_uring_setup_with(fake_setup, 8, &ring, flags, used);
}

static void test_fallback(void)
{
	const unsigned int C = IORING_SETUP_COOP_TASKRUN, S = IORING_SETUP_SINGLE_ISSUER,
			   D = IORING_SETUP_DEFER_TASKRUN, R = IORING_SETUP_R_DISABLED;
	unsigned int used;
	int ret;

	ret = fake(C | S | D | R, PP_URING_FAST, &used);
	CHECK(ret == 0 && used == PP_URING_FAST && ntried == 1,
	      "6.1+: all flags at once (ret %d used %#x tries %d)", ret, used, ntried);

	/* 6.0: SINGLE_ISSUER but no DEFER_TASKRUN: fio drops both. */
	ret = fake(C | S | R, PP_URING_FAST, &used);
	CHECK(ret == 0 && used == C && ntried == 2 && tried[1] == C,
	      "6.0: COOP_TASKRUN only (ret %d used %#x tries %d)", ret, used, ntried);

	/* R_DISABLED serves only the single issuer: it goes with it. */
	ret = fake(C | R, PP_URING_FAST | R, &used);
	CHECK(ret == 0 && used == C && tried[1] == C,
	      "5.19: R_DISABLED dropped with SINGLE_ISSUER (used %#x)", used);

	ret = fake(R, PP_URING_FAST | R, &used);
	CHECK(ret == 0 && used == 0 && ntried == 3 && tried[2] == 0,
	      "5.10: no flags in the end (ret %d used %#x tries %d)", ret, used, ntried);

	ret = fake(0, 0, &used);
	CHECK(ret == 0 && used == 0 && ntried == 1, "no flags asked: one try");

	/* EINVAL with nothing left to drop is the answer. */
	known = 0;
	other_err = 0;
	ntried = 0;
	{
		struct io_uring ring;

		ret = pp_uring_setup_with(fake_setup, 8, &ring, IORING_SETUP_SQPOLL, &used);
	}
	CHECK(ret == -EINVAL && ntried == 1, "unknown flag: EINVAL after one try (%d, %d)",
	      ret, ntried);

	/* Other errors are not retried with fewer flags. */
	other_err = -ENOMEM;
	ret = fake(0, PP_URING_FAST, &used);
	CHECK(ret == -ENOMEM && ntried == 1 && used == 0xdead,
	      "ENOMEM returned at once (ret %d tries %d)", ret, ntried);
	other_err = 0;
}

/* Submit one NOP on @ring: what io_uring_submit says. */
static int submit_nop(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	io_uring_prep_nop(sqe);
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret >= 0 && io_uring_peek_cqe(ring, &cqe) == 0)
		io_uring_cqe_seen(ring, cqe);
	/* A refused SQE stays queued: take it back for the next try. */
	if (ret < 0)
		ring->sq.sqe_tail--;
	return ret;
}

struct other {
	struct io_uring *ring;
	int enable;
	int enable_ret, submit_ret;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;

	/* liburing 2.3 declares io_uring_enable_rings() but does not export it. */
	o->enable_ret = o->enable ? (int)syscall(__NR_io_uring_register, o->ring->ring_fd,
						 IORING_REGISTER_ENABLE_RINGS, NULL, 0) : 0;
	if (o->enable_ret < 0)
		o->enable_ret = -errno;
	o->submit_ret = submit_nop(o->ring);
	return NULL;
}

static int run_other(struct io_uring *ring, int enable, struct other *o)
{
	pthread_t t;

	o->ring = ring;
	o->enable = enable;
	if (pthread_create(&t, NULL, other_thread, o))
		return -1;
	pthread_join(t, NULL);
	return 0;
}

static int test_kernel(void)
{
	struct io_uring ring;
	struct other o;
	unsigned int used;
	int ret;

	ret = pp_uring_setup(8, &ring, PP_URING_FAST, &used);
	if (ret < 0) {
		printf("skip: no io_uring: %s\n", strerror(-ret));
		return 77;
	}
	if (used != PP_URING_FAST) {
		io_uring_queue_exit(&ring);
		printf("skip: this kernel refuses SINGLE_ISSUER/DEFER_TASKRUN (got %#x)\n", used);
		return 77;
	}
	CHECK(submit_nop(&ring) == 1, "the creator submits");
	CHECK(run_other(&ring, 0, &o) == 0 && o.submit_ret == -EEXIST,
	      "another thread's submit: %d, want -EEXIST (single issuer)", o.submit_ret);
	io_uring_queue_exit(&ring);

	ret = pp_uring_setup(8, &ring, PP_URING_FAST | IORING_SETUP_R_DISABLED, &used);
	CHECK(ret == 0 && used == (PP_URING_FAST | IORING_SETUP_R_DISABLED),
	      "R_DISABLED ring: %d %#x", ret, used);
	if (ret)
		return 1;
	CHECK(run_other(&ring, 1, &o) == 0 && o.enable_ret == 0 && o.submit_ret == 1,
	      "the enabling thread submits (enable %d, submit %d)", o.enable_ret, o.submit_ret);
	CHECK(submit_nop(&ring) == -EEXIST, "the creator may not submit once another enabled it");
	io_uring_queue_exit(&ring);
	return 0;
}

int main(void)
{
	int k;

	test_fallback();
	k = test_kernel();
	if (check_exit("uring-setup"))
		return 1;
	return k;
}
