// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole runs and the event clock: clock order, determinism, the
 * io_context patch end to end.
 * (tests/unit/sim-test.h; run by tests/unit/sim-unit.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sim-test.h"

/* ---- clock ---------------------------------------------------------- */

static char order_log[16];
static int order_n;

static void rec(void *ctx, uint64_t arg)
{
	(void)ctx;
	order_log[order_n++] = (char)arg;
}

static void test_clock(void)
{
	struct sim_clock c;

	clk_init(&c);
	clk_at(&c, 30, rec, NULL, 'c');
	clk_at(&c, 10, rec, NULL, 'a');
	clk_at(&c, 30, rec, NULL, 'd');	/* same time: insertion order */
	clk_at(&c, 20, rec, NULL, 'b');
	while (clk_step(&c))
		;
	order_log[order_n] = 0;
	CHECK(!strcmp(order_log, "abcd"), "order %s", order_log);
	CHECK_EQ(c.now, 30);
	CHECK_EQ(c.nevents, 4);
	clk_free(&c);
}


static void test_determinism(void)
{
	struct sim_params p;
	char a[2048], b[2048];

	sim_params_default(&p);
	p.jitter_us = 300;
	run_sweep(&p, 32 << 20, 65536, a, sizeof(a));
	run_sweep(&p, 32 << 20, 65536, b, sizeof(b));
	CHECK(!strcmp(a, b), "two runs differ:\n%s%s", a, b);
	p.seed = 2;
	run_sweep(&p, 32 << 20, 65536, b, sizeof(b));
	CHECK(strcmp(a, b), "seed has no effect");
}

/* The io_context patch effect end to end: shared beats private by >20%. */
static void test_ioctx_effect(void)
{
	struct sim_params p;
	char a[2048], b[2048];

	sim_params_default(&p);
	run_sweep(&p, 64 << 20, 1 << 20, a, sizeof(a));
	p.ioctx_shared = 1;
	run_sweep(&p, 64 << 20, 1 << 20, b, sizeof(b));
	CHECK(field(b, "model_time_ns=") * 12 < field(a, "model_time_ns=") * 10,
	      "shared %s private %s", b, a);
	CHECK_EQ(field(b, "cfq_queues="), 1);
	/* private: a queue per SCST thread that issued I/O (more than one) */
	CHECK(field(a, "cfq_queues=") > 1, "%s", a);
}

void sim_test_run(void)
{
	test_clock();
	test_determinism();
	test_ioctx_effect();
}
