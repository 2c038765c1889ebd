/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The checks of the C unit tests (tests/unit/, C files): a failed CHECK prints
 * "FAIL file:line (function): condition: message" on stderr (the first
 * CHECK_MAX_PRINTED of them), counts, and
 * the test goes on; main() ends with check_exit().  Link tests/unit/check.c.
 */
#ifndef PERFPACK_TESTS_CHECK_H
#define PERFPACK_TESTS_CHECK_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

/* Failed checks past this many are counted, not printed (a soak can fail millions). */
#define CHECK_MAX_PRINTED 50

/* Checks failed so far. */
extern int check_failures;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond) && check_failures++ < CHECK_MAX_PRINTED) {	\
			fprintf(stderr, "FAIL %s:%d (%s): %s: ",	\
				__FILE__, __LINE__, __func__, #cond);	\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
		}							\
	} while (0)

/* Two integers equal, both printed when they are not. */
#define CHECK_EQ(a, b)							\
	CHECK((int64_t)(a) == (int64_t)(b), "%s = %" PRId64 ", expected %" PRId64, \
	      #a, (int64_t)(a), (int64_t)(b))

/* 0 when every check passed, else 1 after "@prog: N check(s) failed". */
int check_exit(const char *prog);

#endif
