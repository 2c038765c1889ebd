// SPDX-License-Identifier: GPL-2.0-only
/*
 * The coop pool without fio, so ThreadSanitizer and ASan see all of it.
 *
 *   coop-pool-test FILE [SOAK_SECONDS]
 *
 * 1. split, dispatch and readahead window logic and the adaptive spin
 *    budget (pure functions);
 * 2. data through every combination of dispatch x fd x split x backend x
 *    ioctx (shared only outside TSan), with read-back checks; with one
 *    worker and caller-runs, every command on the job's thread, oldest
 *    first, when it waits; residuals of
 *    short reads at EOF and the first error of a split request; ordering
 *    on the same blocks (write, trim, write, read chains) and syncs;
 * 3. io_context sharing through ioprio, asked of the workers' tids;
 * 4. a soak: 64 workers, 256 requests in flight, random reads and writes
 *    of 1..16 KiB split at 4 KiB, context readahead, every read checked
 *    against what was last written there, for SOAK_SECONDS (default 5).
 *
 * FILE is created (64 MiB) and removed.  Exit 0 pass, 1 fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/ioprio.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engines/coop/dispatch.h"
#include "engines/coop/order.h"
#include "engines/coop/pool.h"
#include "tests/unit/check.h"

#if defined(__SANITIZE_THREAD__)
#define TSAN 1
#else
#define TSAN 0
#endif

#define BLK		4096u
#define NBLK		16384u		/* 64 MiB */
#define MAXBLKS		4u		/* largest request: 16 KiB */

static const char *path;

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- 1. pure logic ------------------------------------------------------- */

static void test_split(void)
{
	struct coop_split_state st;
	uint64_t off, len;

	CHECK(coop_split_count(16384, 0) == 1, "no split");
	CHECK(coop_split_count(16384, 4096) == 4, "16k/4k");
	CHECK(coop_split_count(10000, 4096) == 3, "10000/4096");
	CHECK(coop_split_count(0, 4096) == 1, "zero length is one part");
	coop_split_part(8192, 10000, 4096, 2, &off, &len);
	CHECK(off == 8192 + 8192 && len == 10000 - 8192, "last part %llu+%llu",
	      (unsigned long long)off, (unsigned long long)len);

	coop_split_begin(&st, 3);
	CHECK(!coop_split_done(&st, 0, COOP_SPLIT_WHOLE), "1st of 3 not last");
	CHECK(!coop_split_done(&st, EIO, COOP_SPLIT_WHOLE), "2nd of 3 not last");
	CHECK(coop_split_done(&st, ENOSPC, COOP_SPLIT_WHOLE), "3rd of 3 is last");
	CHECK(coop_split_error(&st) == EIO, "first error wins: %d", coop_split_error(&st));
	CHECK(coop_split_resid(&st, 12288) == 0, "whole parts: no residual");

	/* Short at the end (the file ends in the 2nd part, the 3rd moved nothing). */
	coop_split_begin(&st, 3);
	CHECK(!coop_split_done(&st, 0, 8192), "3rd, moved nothing");
	CHECK(!coop_split_done(&st, 0, COOP_SPLIT_WHOLE), "1st, whole");
	CHECK(coop_split_done(&st, 0, 5000), "2nd, short, last");
	CHECK(coop_split_error(&st) == 0, "short parts are no error");
	CHECK(coop_split_resid(&st, 12288) == 12288 - 5000, "residual from the 2nd part's end: %llu",
	      (unsigned long long)coop_split_resid(&st, 12288));

	/*
	 * Short in the middle, a later part whole (a write out of space
	 * while the next part overwrote allocated blocks): the residual is
	 * everything from the first byte not moved, not the 1000 bytes
	 * missing, which fio would requeue at the I/O's end and count the
	 * middle as written.
	 */
	coop_split_begin(&st, 3);
	CHECK(!coop_split_done(&st, 0, COOP_SPLIT_WHOLE), "3rd, whole");
	CHECK(!coop_split_done(&st, 0, 3096), "1st, short by 1000");
	CHECK(coop_split_done(&st, 0, COOP_SPLIT_WHOLE), "2nd, whole, last");
	CHECK(coop_split_resid(&st, 12288) == 12288 - 3096, "residual from the short middle: %llu",
	      (unsigned long long)coop_split_resid(&st, 12288));
}

/*
 * The completion count only grows and wraps (pool_int.h): "reached" is a
 * difference, right across the wrap.
 */
static void test_count_wrap(void)
{
	atomic_uint ctr = UINT_MAX - 1;
	struct coop_count_goal g = { .ctr = &ctr, .want = UINT_MAX - 1 + 3 };

	CHECK(!coop_count_reached(&g), "count: 3 short across the wrap is not reached");
	atomic_fetch_add(&ctr, 2);
	CHECK(!coop_count_reached(&g), "count: 1 short just after the wrap");
	atomic_fetch_add(&ctr, 1);
	CHECK(coop_count_reached(&g), "count: reached after the wrap");
	atomic_fetch_add(&ctr, 5);
	CHECK(coop_count_reached(&g), "count: beyond is reached");
}

/*
 * struct coop_req keeps what the job's thread writes, the results a worker
 * writes and the commands on separate cache lines (pool.h), and requests
 * are allocated on a line boundary, or the lines are shared after all.
 */
static void test_req_layout(struct coop_req *req)
{
	CHECK(offsetof(struct coop_req, error) % 64 == 0 &&
	      offsetof(struct coop_req, parts) % 64 == 0,
	      "layout: results at %zu, commands at %zu: not on line boundaries",
	      offsetof(struct coop_req, error), offsetof(struct coop_req, parts));
	CHECK(offsetof(struct coop_req, cookie) / 64 != offsetof(struct coop_req, error) / 64 &&
	      offsetof(struct coop_req, resid) / 64 == offsetof(struct coop_req, error) / 64 &&
	      offsetof(struct coop_req, done_next) / 64 == offsetof(struct coop_req, error) / 64,
	      "layout: the results share the submitter's line");
	CHECK((uintptr_t)req % 64 == 0, "layout: request at %p not line-aligned", (void *)req);
}

static void test_dispatch_policy(void)
{
	CHECK(coop_dispatch_nqueues(COOP_DISPATCH_QUEUE, 5) == 1, "queue: 1 FIFO");
	CHECK(coop_dispatch_nqueues(COOP_DISPATCH_RR, 5) == 5, "rr: N queues");
	CHECK(coop_dispatch_queue_of(COOP_DISPATCH_RR, 12, 5) == 2, "rr: 12 mod 5");
	CHECK(coop_dispatch_queue_of(COOP_DISPATCH_QUEUE, 12, 5) == 0, "queue: FIFO 0");
	CHECK(coop_dispatch_queue_for(COOP_DISPATCH_RR, 3) == 3, "rr: own queue");
}

static void test_readahead(void)
{
	struct coop_ra ra;
	uint64_t o, l, off = 0, last = 0;
	int i, issued = 0;

	coop_ra_init(&ra, 256 << 10);
	CHECK(!coop_ra_access(&ra, 0, 16384, &o, &l), "first read: no stream yet");
	off = 16384;
	for (i = 0; i < 64; i++, off += 16384) {
		if (!coop_ra_access(&ra, off, 16384, &o, &l))
			continue;
		CHECK(o >= off + 16384, "window %d starts ahead of the reader", issued);
		if (issued == 0)
			CHECK(l == coop_ra_init_window(16384, 256 << 10) && l == 65536,
			      "first window %llu", (unsigned long long)l);
		else
			CHECK(l == (last * 2 < (256 << 10) ? last * 2 : 256 << 10),
			      "window doubles to the cap: %llu after %llu",
			      (unsigned long long)l, (unsigned long long)last);
		last = l;
		issued++;
	}
	CHECK(issued >= 4 && last == 256 << 10, "windows issued %d, last %llu",
	      issued, (unsigned long long)last);
	/* A jump elsewhere ends the stream; the next read restarts it. */
	CHECK(!coop_ra_access(&ra, 1ull << 30, 16384, &o, &l), "random read: no window");
	CHECK(coop_ra_access(&ra, (1ull << 30) + 16384, 16384, &o, &l) && l == 65536,
	      "new stream starts at the initial window");
	/* Reads inside the window (reordered commands) stay in stream. */
	CHECK(!coop_ra_access(&ra, (1ull << 30) + 3 * 16384, 16384, &o, &l) ||
	      o >= (1ull << 30) + 4 * 16384, "out-of-order read inside the window");
	CHECK(ra.seq >= 3, "still one stream");
}

/* --- 2./4. data through the pool ------------------------------------------ */

struct blkstate {
	uint32_t gen;
	int busy;
};

/* What each block of FILE holds, across pools. */
static struct blkstate blkstate[NBLK];

struct ctx {
	struct coop_pool *p;
	struct coop_file cf;
	int fd;
	struct blkstate *blk;
	struct coop_req **reqs;
	struct coop_req **done;
	unsigned int depth;
	uint64_t ios, bytes;
};

static void fill(void *buf, uint32_t blk, uint32_t gen)
{
	uint32_t *w = buf;
	unsigned int i;

	for (i = 0; i < BLK / 4; i++)
		w[i] = blk * 2654435761u ^ gen * 40503u ^ i;
}

static int check_blk(const void *buf, uint32_t blk, uint32_t gen)
{
	const uint32_t *w = buf;
	unsigned int i;

	for (i = 0; i < BLK / 4; i++)
		if (w[i] != (blk * 2654435761u ^ gen * 40503u ^ i))
			return 0;
	return 1;
}

static void prepare_file(void)
{
	static char buf[BLK];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	uint32_t b;

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	for (b = 0; b < NBLK; b++) {
		fill(buf, b, 0);
		if (pwrite(fd, buf, BLK, (off_t)b * BLK) != BLK) {
			perror("pwrite");
			exit(1);
		}
	}
	close(fd);
}

static int ctx_open(struct ctx *c, const struct coop_pool_cfg *cfg)
{
	char err[256];
	unsigned int i;
	int ret;

	memset(c, 0, sizeof(*c));
	c->depth = cfg->depth;
	ret = coop_pool_create(cfg, &c->p, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "pool: %s\n", err);
		return ret;
	}
	c->fd = open(path, O_RDWR);
	ret = coop_pool_file_open(c->p, &c->cf, path, O_RDWR, c->fd, 0, err, sizeof(err));
	CHECK(!ret, "file open: %s", err);
	c->blk = blkstate;
	c->reqs = calloc(c->depth, sizeof(*c->reqs));
	c->done = calloc(c->depth, sizeof(*c->done));
	for (i = 0; i < c->depth; i++) {
		c->reqs[i] = coop_req_alloc(c->p);
		c->reqs[i]->buf = aligned_alloc(4096, MAXBLKS * BLK);
	}
	return 0;
}

static void ctx_close(struct ctx *c)
{
	unsigned int i;

	coop_pool_stop(c->p);
	coop_pool_file_close(c->p, &c->cf);
	coop_pool_destroy(c->p);
	close(c->fd);
	for (i = 0; i < c->depth; i++) {
		free(c->reqs[i]->buf);
		coop_req_free(c->reqs[i]);
	}
	free(c->reqs);
	free(c->done);
}

/* Submit @req as a random read or write on blocks nobody else holds. */
static void submit_random(struct ctx *c, struct coop_req *req, int seq_read,
			  uint32_t *seq_pos)
{
	uint32_t start, n, b;

	for (;;) {
		n = 1 + rnd() % MAXBLKS;
		start = seq_read ? *seq_pos : rnd() % (NBLK - n);
		if (seq_read && start + n > NBLK)
			start = *seq_pos = 0;
		for (b = start; b < start + n; b++)
			if (c->blk[b].busy)
				break;
		if (b == start + n)
			break;
		if (seq_read)
			*seq_pos = (*seq_pos + n) % (NBLK - MAXBLKS);
	}
	if (seq_read)
		*seq_pos = start + n;
	req->op = (!seq_read && rnd() % 2) ? COOP_OP_WRITE : COOP_OP_READ;
	req->file = &c->cf;
	req->off = (uint64_t)start * BLK;
	req->len = (uint64_t)n * BLK;
	req->flags = 0;
	for (b = start; b < start + n; b++) {
		c->blk[b].busy = 1;
		if (req->op == COOP_OP_WRITE) {
			c->blk[b].gen++;
			fill((char *)req->buf + (b - start) * BLK, b, c->blk[b].gen);
		}
	}
	coop_pool_submit(c->p, req);
}

static void complete(struct ctx *c, struct coop_req *req)
{
	uint32_t start = req->off / BLK, n = req->len / BLK, b;

	CHECK(req->error == 0 && req->resid == 0, "request %s %llu+%llu: error %d resid %llu",
	      req->op == COOP_OP_WRITE ? "write" : "read",
	      (unsigned long long)req->off, (unsigned long long)req->len,
	      req->error, (unsigned long long)req->resid);
	for (b = start; b < start + n; b++) {
		if (req->op == COOP_OP_READ)
			CHECK(check_blk((char *)req->buf + (b - start) * BLK, b, c->blk[b].gen),
			      "block %u: stale or torn data (gen %u)", b, c->blk[b].gen);
		c->blk[b].busy = 0;
	}
	c->ios++;
	c->bytes += req->len;
}

/* Keep @c->depth requests in flight for @secs (or @min_ios requests). */
static void run_load(struct ctx *c, double secs, uint64_t min_ios, int seq_read)
{
	double end = now_s() + secs;
	unsigned int nfree = c->depth, inflight = 0, n, i;
	struct coop_req **freel = malloc(sizeof(*freel) * c->depth);
	uint32_t seq_pos = 0;

	memcpy(freel, c->reqs, sizeof(*freel) * c->depth);
	while (c->ios < min_ios || now_s() < end) {
		while (nfree) {
			submit_random(c, freel[--nfree], seq_read, &seq_pos);
			inflight++;
		}
		/* Now and then poll without waiting, as fio does with min=0. */
		n = coop_pool_reap(c->p, rnd() % 8 ? 1 : 0, c->depth,
				   rnd() % 8 ? -1 : 0, c->done);
		for (i = 0; i < n; i++) {
			complete(c, c->done[i]);
			freel[nfree++] = c->done[i];
		}
		inflight -= n;
		if (check_failures > 20)
			break;
	}
	while (inflight) {
		n = coop_pool_reap(c->p, inflight, c->depth, 1000000000, c->done);
		for (i = 0; i < n; i++)
			complete(c, c->done[i]);
		inflight -= n;
	}
	free(freel);
}

static void test_combinations(void)
{
	static const char *const be[] = { "psync", "uring" };
	unsigned int d, fd, sp, b, io;
	struct ctx c;

	for (d = 0; d < 2; d++)
	for (fd = 0; fd < 2; fd++)
	for (sp = 0; sp < 2; sp++)
	for (b = 0; b < 2; b++)
	for (io = 0; io < (TSAN ? 1u : 2u); io++) {
		struct coop_pool_cfg cfg = {
			.threads = 3, .dispatch = d, .fd = fd, .ioctx = io,
			.ra = COOP_RA_CONTEXT, .ra_max = 128 << 10,
			.split = sp ? 4096 : 0,
			.backend = b ? COOP_BACKEND_URING : COOP_BACKEND_PSYNC,
			.depth = 16, .max_len = MAXBLKS * BLK,
		};

		if (ctx_open(&c, &cfg)) {
			CHECK(0, "pool %u/%u/%u/%s/%u did not start", d, fd, sp, be[b], io);
			continue;
		}
		run_load(&c, 0, 2000, 0);
		run_load(&c, 0, 500, 1);
		ctx_close(&c);
	}
}

/*
 * One worker with caller-runs (pool.c, run_lazy()): the job's thread runs
 * every command, oldest first, only when it waits (as many as the reap may
 * return), looks (min 0: one) or stops; the data is right and the worker
 * runs none.
 */
static void test_inline_all(void)
{
	struct coop_pool_cfg cfg = {
		.threads = 1, .ra = COOP_RA_KERNEL, .backend = COOP_BACKEND_PSYNC,
		.depth = 16, .max_len = MAXBLKS * BLK, .inline_cmds = 1,
	};
	struct coop_worker_stats st;
	struct coop_req *out[16];
	unsigned int i, n, io;
	struct ctx c;

	for (io = 0; io < (TSAN ? 1u : 2u); io++) {
		cfg.ioctx = io;
		if (ctx_open(&c, &cfg)) {
			CHECK(0, "inline pool (ioctx %u) did not start", io);
			continue;
		}
		run_load(&c, 0, 2000, 0);
		CHECK(coop_pool_inline_cmds(c.p) == c.ios, "ioctx %u: %llu inline of %llu",
		      io, (unsigned long long)coop_pool_inline_cmds(c.p),
		      (unsigned long long)c.ios);

		/* 16 reads of blocks 0..15: nothing runs until the reap. */
		for (i = 0; i < 16; i++) {
			c.reqs[i]->op = COOP_OP_READ;
			c.reqs[i]->file = &c.cf;
			c.reqs[i]->off = (uint64_t)i * BLK;
			c.reqs[i]->len = BLK;
			c.reqs[i]->flags = 0;
			coop_pool_submit(c.p, c.reqs[i]);
		}
		CHECK(coop_pool_inline_cmds(c.p) == c.ios, "ioctx %u: ran before a reap", io);
		n = coop_pool_reap(c.p, 3, 5, -1, out);
		CHECK(n == 5 && out[0] == c.reqs[0] && out[4] == c.reqs[4],
		      "ioctx %u: reap(3, max 5) gave %u, not the 5 oldest", io, n);
		n = coop_pool_reap(c.p, 0, 16, 0, out);
		CHECK(n == 1 && out[0] == c.reqs[5], "ioctx %u: reap(0) gave %u, not the next", io, n);
		for (i = 0; i < 6; i++)
			CHECK(check_blk(c.reqs[i]->buf, i, c.blk[i].gen),
			      "ioctx %u: block %u read wrong", io, i);
		/* The 10 not reaped still run at the stop, as a worker drains. */
		coop_pool_stop(c.p);
		CHECK(coop_pool_inline_cmds(c.p) == c.ios + 16,
		      "ioctx %u: %llu inline after the stop, want %llu", io,
		      (unsigned long long)coop_pool_inline_cmds(c.p),
		      (unsigned long long)c.ios + 16);
		coop_pool_worker_stats(c.p, 0, &st);
		CHECK(st.reqs == 0, "ioctx %u: the worker ran %llu commands", io,
		      (unsigned long long)st.reqs);
		ctx_close(&c);
	}
}

/* Short reads at EOF leave a residual; a failing part's error wins. */
static void test_resid_and_error(void)
{
	struct coop_pool_cfg cfg = {
		.threads = 3, .split = 4096, .depth = 2, .max_len = 16384,
	};
	struct coop_req *req, *done[2];
	struct coop_file bad = { .fd = -1 };
	struct coop_pool *p;
	struct coop_file cf;
	char err[256];
	int fd;

	if (coop_pool_create(&cfg, &p, err, sizeof(err))) {
		CHECK(0, "pool: %s", err);
		return;
	}
	fd = open(path, O_RDONLY);
	CHECK(!coop_pool_file_open(p, &cf, path, O_RDONLY, fd, 0, err, sizeof(err)),
	      "open: %s", err);
	req = coop_req_alloc(p);
	test_req_layout(req);
	req->buf = malloc(16384);
	req->op = COOP_OP_READ;
	req->file = &cf;
	req->off = (uint64_t)NBLK * BLK - 6000;
	req->len = 16384;
	coop_pool_submit(p, req);
	CHECK(coop_pool_reap(p, 1, 2, -1, done) == 1, "reap");
	CHECK(req->error == 0 && req->resid == 16384 - 6000,
	      "read across EOF: error %d resid %llu", req->error,
	      (unsigned long long)req->resid);

	req->file = &bad;
	req->off = 0;
	coop_pool_submit(p, req);
	CHECK(coop_pool_reap(p, 1, 2, -1, done) == 1, "reap");
	CHECK(req->error == EBADF, "bad descriptor: error %d", req->error);

	coop_pool_stop(p);
	coop_pool_file_close(p, &cf);
	coop_pool_destroy(p);
	close(fd);
	free(req->buf);
	coop_req_free(req);
}

/*
 * Ordering on the same blocks (order.h): the conflict rule itself, then
 * chains of write, trim, write, read of the same 16 KiB queued back to
 * back to 16 workers: every read must see the second write (the trim, a
 * BLKDISCARD, fails on this regular file with ENOTTY, as fio's own does,
 * but is ordered all the same; coop-order.sh trims a loop device).  A sync
 * submitted with coop_pool_submit_wait() returns after everything queued
 * before it on the file is done (reapable without waiting), and is itself
 * never reaped.
 */
static void test_order(void)
{
	enum { REGIONS = 8, CHAIN = 4, ROUNDS = TSAN ? 40 : 200 };
	struct coop_file f1, f2;
	struct coop_req a = { .op = COOP_OP_WRITE, .file = &f1, .off = 4096, .len = 4096 };
	struct coop_req b = a;
	unsigned int be, round, r, k, n, i;

	/* The rule. */
	CHECK(coop_order_conflict(&a, &b), "order: write after write of the same block");
	b.op = COOP_OP_READ;
	CHECK(coop_order_conflict(&a, &b) && coop_order_conflict(&b, &a),
	      "order: read after write, write after read");
	a.op = COOP_OP_READ;
	CHECK(!coop_order_conflict(&a, &b), "order: reads never wait for reads");
	a.op = COOP_OP_TRIM;
	b.off = 8192;
	CHECK(!coop_order_conflict(&a, &b), "order: adjacent blocks do not conflict");
	b.off = 8191;
	CHECK(coop_order_conflict(&a, &b), "order: one byte of overlap conflicts");
	b.file = &f2;
	CHECK(!coop_order_conflict(&a, &b), "order: other files do not conflict");
	b.file = &f1;
	b.op = COOP_OP_SYNC;
	b.off = b.len = 0;
	CHECK(coop_order_conflict(&a, &b), "order: a sync waits for everything on its file");

	for (be = 0; be < 2; be++) {
		struct coop_pool_cfg cfg = {
			.threads = 16, .split = 4096,
			.backend = be ? COOP_BACKEND_URING : COOP_BACKEND_PSYNC,
			.depth = REGIONS * CHAIN + 1, .max_len = MAXBLKS * BLK,
		};
		struct coop_req *req[REGIONS * CHAIN + 1], *done[REGIONS * CHAIN + 1];
		struct coop_pool *p;
		struct coop_file cf;
		char err[256];
		int fd;

		if (coop_pool_create(&cfg, &p, err, sizeof(err))) {
			CHECK(0, "order pool: %s", err);
			continue;
		}
		fd = open(path, O_RDWR);
		CHECK(!coop_pool_file_open(p, &cf, path, O_RDWR, fd, 0, err, sizeof(err)),
		      "open: %s", err);
		for (i = 0; i < REGIONS * CHAIN + 1; i++) {
			req[i] = coop_req_alloc(p);
			req[i]->buf = aligned_alloc(4096, MAXBLKS * BLK);
			req[i]->file = &cf;
		}
		for (round = 0; round < ROUNDS; round++) {
			uint32_t gen = 1000 + 2 * round;

			for (r = 0; r < REGIONS; r++) {
				uint32_t blk = r * 64 * MAXBLKS;
				static const unsigned int op[CHAIN] = {
					COOP_OP_WRITE, COOP_OP_TRIM, COOP_OP_WRITE, COOP_OP_READ,
				};

				for (k = 0; k < CHAIN; k++) {
					struct coop_req *q = req[r * CHAIN + k];

					q->op = op[k];
					q->off = (uint64_t)blk * BLK;
					q->len = MAXBLKS * BLK;
					for (i = 0; i < MAXBLKS && q->op == COOP_OP_WRITE; i++)
						fill((char *)q->buf + i * BLK, blk + i, gen + k / 2);
					coop_pool_submit(p, q);
				}
			}
			if (round % 4 == 3) {
				/* A barrier: all of the above is done when it returns. */
				req[REGIONS * CHAIN]->op = COOP_OP_SYNC;
				req[REGIONS * CHAIN]->off = req[REGIONS * CHAIN]->len = 0;
				coop_pool_submit_wait(p, req[REGIONS * CHAIN]);
				CHECK(req[REGIONS * CHAIN]->error == 0, "fsync: error %d",
				      req[REGIONS * CHAIN]->error);
				n = coop_pool_reap(p, 0, REGIONS * CHAIN + 1, 0, done);
				CHECK(n == REGIONS * CHAIN, "after a sync: %u of %u requests done",
				      n, REGIONS * CHAIN);
			} else {
				n = coop_pool_reap(p, REGIONS * CHAIN, REGIONS * CHAIN + 1, -1, done);
			}
			while (n < REGIONS * CHAIN)
				n += coop_pool_reap(p, 1, REGIONS * CHAIN + 1 - n, -1, done + n);
			for (i = 0; i < n; i++)
				CHECK(done[i] != req[REGIONS * CHAIN], "a waited-for sync was reaped");
			for (r = 0; r < REGIONS; r++) {
				struct coop_req *q = req[r * CHAIN + CHAIN - 1];
				uint32_t blk = r * 64 * MAXBLKS;

				CHECK(q->error == 0, "read: error %d", q->error);
				for (i = 0; i < MAXBLKS; i++) {
					CHECK(check_blk((char *)q->buf + i * BLK, blk + i, gen + 1),
					      "%s: round %u, block %u: the read did not see write, trim, write in order",
					      be ? "uring" : "psync", round, blk + i);
					blkstate[blk + i].gen = gen + 1;
				}
			}
		}
		coop_pool_stop(p);
		coop_pool_file_close(p, &cf);
		coop_pool_destroy(p);
		close(fd);
		for (i = 0; i < REGIONS * CHAIN + 1; i++) {
			free(req[i]->buf);
			coop_req_free(req[i]);
		}
	}
}

/* --- 3. io_context sharing --------------------------------------------- */

static void test_ioprio(void)
{
	int io;

	if (TSAN)
		return;
	for (io = 0; io < 2; io++) {
		struct coop_pool_cfg cfg = {
			.threads = 4, .ioctx = io, .depth = 1, .max_len = BLK,
		};
		int prio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7);
		struct coop_pool *p;
		char err[256];
		long got;

		if (coop_pool_create(&cfg, &p, err, sizeof(err))) {
			CHECK(0, "pool: %s", err);
			continue;
		}
		CHECK(syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS,
			      coop_pool_worker_tid(p, 0), prio) == 0,
		      "ioprio_set on worker 0: %s", strerror(errno));
		got = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, coop_pool_worker_tid(p, 2));
		if (io)
			CHECK(got == prio, "shared io_context: worker 2 has ioprio %ld, not %d", got, prio);
		else
			CHECK(got != prio, "private io_context: worker 2 got worker 0's ioprio");
		coop_pool_destroy(p);
	}
}

/* --- 4. soak -------------------------------------------------------------- */

static void soak(double secs)
{
	static const struct { unsigned int d, fd, be; } phase[] = {
		{ COOP_DISPATCH_QUEUE, COOP_FD_SHARED, COOP_BACKEND_PSYNC },
		{ COOP_DISPATCH_RR, COOP_FD_PER_THREAD, COOP_BACKEND_URING },
		{ COOP_DISPATCH_QUEUE, COOP_FD_PER_THREAD, COOP_BACKEND_URING },
		{ COOP_DISPATCH_RR, COOP_FD_SHARED, COOP_BACKEND_PSYNC },
	};
	unsigned int i, n = sizeof(phase) / sizeof(phase[0]);
	struct ctx c;

	for (i = 0; i < n; i++) {
		struct coop_pool_cfg cfg = {
			.threads = 64, .dispatch = phase[i].d, .fd = phase[i].fd,
			.ioctx = TSAN ? COOP_IOCTX_PRIVATE : (i % 2),
			.ra = COOP_RA_CONTEXT, .ra_max = 512 << 10, .split = 4096,
			.backend = phase[i].be, .depth = 256, .max_len = MAXBLKS * BLK,
		};
		double t0 = now_s();

		if (ctx_open(&c, &cfg)) {
			CHECK(0, "soak pool %u did not start", i);
			continue;
		}
		run_load(&c, secs / n / 2, 0, 0);
		run_load(&c, secs / n / 2, 0, 1);
		printf("soak phase %u: %llu requests, %.0f MiB in %.1f s\n", i,
		       (unsigned long long)c.ios, c.bytes / 1048576.0, now_s() - t0);
		ctx_close(&c);
	}
}

static bool spin_until(struct coop_spin *s, atomic_uint *ctr, unsigned int want)
{
	struct coop_count_goal g = { .ctr = ctr, .want = want };

	return coop_spin_while(s, coop_count_reached, &g);
}

struct sleeper {
	struct coop_event *ev;
	unsigned int seen;
	int64_t lat;
};

static void *sleeper_body(void *arg)
{
	struct sleeper *sl = arg;

	sl->lat = coop_event_wait(sl->ev, sl->seen, -1);
	return NULL;
}

struct popper {
	struct coop_dispatch *d;
	int items;
	atomic_int got;
};

static void *popper_body(void *arg)
{
	struct popper *pp = arg;
	int i;

	/* Asleep at once, as a worker whose job's thread sleeps (worker.c). */
	for (i = 0; i < pp->items; i++)
		if (coop_dispatch_pop(pp->d, 0, i ? COOP_POP_WAIT : COOP_POP_SLEEP))
			atomic_fetch_add(&pp->got, 1);
	return NULL;
}

/*
 * A lone sleeping worker is woken once for a burst of commands, not once
 * per command while it is on its way (dispatch.c, coop_dispatch_push()):
 * each wake-up is a system call of the pushing job's thread.  Every
 * command still reaches the worker.
 */
static void test_lone_wake(void)
{
	enum { N = 16 };
	static int items[N];
	struct coop_dispatch d;
	struct popper pp = { .d = &d, .items = N };
	unsigned int before, wakes;
	pthread_t t;
	int i;

	CHECK(!coop_dispatch_init(&d, COOP_DISPATCH_QUEUE, 1, N, 1, 0), "lone: init");
	atomic_init(&pp.got, 0);
	pthread_create(&t, NULL, popper_body, &pp);
	while (!atomic_load(&d.q[0].sleepers))
		usleep(100);
	usleep(20000);		/* in the kernel by now */
	before = coop_event_get(&d.q[0].wake);
	for (i = 0; i < N; i++)
		coop_dispatch_push(&d, &items[i]);
	wakes = coop_event_get(&d.q[0].wake) - before;
	pthread_join(t, NULL);
	CHECK(atomic_load(&pp.got) == N, "lone: %d of %d commands taken", atomic_load(&pp.got), N);
	CHECK(wakes >= 1 && wakes <= 4, "lone: %u wake-ups for one sleeper and %d commands", wakes, N);
	coop_dispatch_destroy(&d);
}

/*
 * A spin that sees its count doubles the next budget, one that runs out
 * halves it; the cap is the event's measured wake-up latency, within
 * [COOP_SPIN_MIN_NS, COOP_SPIN_MAX_NS]; a woken sleeper measures it.
 */
static void test_spin_budget(void)
{
	struct coop_event ev;
	struct coop_spin s;
	struct sleeper sl;
	atomic_uint ctr;
	pthread_t t;
	int i;

	coop_event_init(&ev);
	CHECK(coop_event_latency(&ev) == COOP_WAKE_LAT_INIT_NS, "event: initial latency");
	coop_spin_init(&s, &ev);
	atomic_init(&ctr, 3);
	CHECK(s.ns == COOP_SPIN_MIN_NS, "spin: starts at the minimum");
	CHECK(spin_until(&s, &ctr, 3), "spin: count already reached");
	CHECK(s.ns == 2 * COOP_SPIN_MIN_NS, "spin: success doubles the budget");
	for (i = 0; i < 20; i++)
		spin_until(&s, &ctr, 1);
	CHECK(s.ns == COOP_WAKE_LAT_INIT_NS, "spin: capped at the wake-up latency (%lld)",
	      (long long)s.ns);
	atomic_store(&ev.lat_ns, 1000000000);
	for (i = 0; i < 20; i++)
		spin_until(&s, &ctr, 1);
	CHECK(s.ns == COOP_SPIN_MAX_NS, "spin: never beyond the maximum (%lld)", (long long)s.ns);
	CHECK(!spin_until(&s, &ctr, 4), "spin: runs out when never reached");
	CHECK(s.ns == COOP_SPIN_MAX_NS / 2, "spin: running out halves the budget");
	for (i = 0; i < 20; i++)
		spin_until(&s, &ctr, 4);
	CHECK(s.ns == COOP_SPIN_MIN_NS, "spin: floored at the minimum");
	atomic_store(&ev.lat_ns, 6000);
	for (i = 0; i < 20; i++)
		spin_until(&s, &ctr, 1);
	CHECK(s.ns == 6000, "spin: a faster wake-up lowers the cap (%lld)", (long long)s.ns);
	atomic_store(&ev.lat_ns, 10);
	CHECK(coop_spin_cap(&ev) == COOP_SPIN_CAP_MIN_NS, "spin: cap floored (%lld)",
	      (long long)coop_spin_cap(&ev));

	/* A timed-out sleep measures nothing. */
	atomic_store(&ev.lat_ns, COOP_WAKE_LAT_INIT_NS);
	CHECK(coop_event_wait(&ev, coop_event_get(&ev), 1000000) == -1, "event: timeout");
	CHECK(coop_event_latency(&ev) == COOP_WAKE_LAT_INIT_NS, "event: timeout leaves the latency");
	/* A woken sleeper folds its wake-up latency in. */
	sl.ev = &ev;
	sl.seen = coop_event_get(&ev);
	sl.lat = -2;
	CHECK(pthread_create(&t, NULL, sleeper_body, &sl) == 0, "pthread_create");
	usleep(20000);
	coop_event_wake(&ev, 1);
	pthread_join(t, NULL);
	CHECK(sl.lat >= 0 && sl.lat < 10000000, "event: wake-up latency %lld", (long long)sl.lat);
	CHECK(sl.lat < 0 || coop_event_latency(&ev) ==
	      COOP_WAKE_LAT_INIT_NS + (sl.lat - COOP_WAKE_LAT_INIT_NS) / 8,
	      "event: latency folded 1/8 (%lld)", (long long)coop_event_latency(&ev));
}

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 5;

	if (argc < 2) {
		fprintf(stderr, "usage: coop-pool-test FILE [SOAK_SECONDS]\n");
		return 2;
	}
	path = argv[1];
	test_split();
	test_dispatch_policy();
	test_count_wrap();
	test_readahead();
	test_spin_budget();
	test_lone_wake();
	prepare_file();
	test_combinations();
	printf("combinations: %d failures\n", check_failures);
	test_inline_all();
	test_resid_and_error();
	test_order();
	printf("order: %d failures\n", check_failures);
	test_ioprio();
	soak(secs);
	unlink(path);
	printf("%s: %d failures\n", check_failures ? "FAIL" : "PASS", check_failures);
	return check_exit(argv[0]);
}
