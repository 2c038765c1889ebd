// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the model's mechanisms in isolation, with expectations
 * computed by hand in the comments; one file per mechanism group
 * (tests/unit/sim-test-*.c), this file: main() and the helpers they share.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/sim-test.h"

/* ---- whole runs, shared by the groups ---------------------------------- */

void run_sweep(const struct sim_params *p, uint64_t size, uint64_t bs, char *out, size_t n)
{
	char err[128];
	struct sim *s = sim_new(p, size, err, sizeof(err));
	FILE *f = fmemopen(out, n, "w");
	uint64_t off;
	sim_ns t;
	void *ck;

	CHECK(s != NULL, "%s", err);
	if (!s || !f)
		return;
	for (off = 0; off < size; off += bs) {
		sim_submit(s, off, bs, (void *)(uintptr_t)off);
		CHECK(sim_reap(s, &ck, &t), "reap");
		CHECK_EQ((uintptr_t)ck, off);
	}
	sim_report(s, f);
	fclose(f);
	sim_free(s);
}

uint64_t field(const char *rep, const char *key)
{
	const char *p = strstr(rep, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : ~0ULL;
}

int main(void)
{
	sim_test_readahead();
	sim_test_queue();
	sim_test_device();
	sim_test_target();
	sim_test_client();
	sim_test_run();
	if (check_exit("sim-test"))
		return 1;
	printf("all sim unit tests passed\n");
	return 0;
}
