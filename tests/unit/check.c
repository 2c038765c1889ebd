// SPDX-License-Identifier: GPL-2.0-only
/*
 * The failure count of tests/unit/check.h.
 */
#include "tests/unit/check.h"

int check_failures;

int check_exit(const char *prog)
{
	if (!check_failures)
		return 0;
	fprintf(stderr, "%s: %d check(s) failed\n", prog, check_failures);
	return 1;
}
