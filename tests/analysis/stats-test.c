// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of fiotab's arithmetic: Student's t CDF and Welch's test
 * against values computed independently (closed forms, and Simpson
 * integration of the t density in Python, digits below), blockdev-perftest's
 * std, fio size strings with both kb_base conventions, and the decimal
 * conversions every output prints (no binary noise, round-trips).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/fiotab.h"
#include "analysis/stats.h"

static int failures;

static void near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol)) {
		printf("FAIL %s: got %.12g, want %.12g (tol %g)\n", what, got, want, tol);
		failures++;
	}
}

static void size_is(const char *s, unsigned base, long long want)
{
	uint64_t v = 0;
	int rc = fio_parse_size(s, base, &v);

	if (want < 0 ? rc == 0 : (rc || v != (uint64_t)want)) {
		printf("FAIL size '%s' (kb_base %u): rc %d value %llu, want %lld\n", s, base, rc,
		       (unsigned long long)v, want);
		failures++;
	}
}

/* @got must be the very double @want (the literal's nearest), printed as @text. */
static void dec_is(const char *what, double got, double want, const char *text)
{
	char buf[32];

	fmt_double(buf, sizeof(buf), got);
	if (got != want || strcmp(buf, text)) {
		printf("FAIL %s: got %s (%.17g), want %s\n", what, buf, got, text);
		failures++;
	}
}

static void decimals(void)
{
	/* fio's ns and % turned into us, s and ratios */
	dec_is("89600 ns in us", dec_scale(89600, 1e-3), 89.6, "89.6");
	dec_is("1810.432 us in s", dec_scale(1810.432, 1e-6), 0.001810432, "0.001810432");
	dec_is("12.096 us in s", dec_scale(12.096, 1e-6), 1.2096e-05, "1.2096e-05");
	dec_is("42.857143 % as a ratio", dec_scale(42.857143, 0.01), 0.42857143, "0.42857143");
	dec_is("1.5e-10 s in ns", dec_scale(1.5e-10, 1e9), 0.15, "0.15");
	dec_is("3 KiB/s in B/s", dec_scale(3, 1024), 3072, "3072");
	dec_is("a third (no decimal form) in %", dec_scale(1.0 / 3, 100), 1.0 / 3 * 100,
	       "33.33333333333333");
	/* rates over fio's whole-ms runtimes */
	dec_is("21 MiB in 700 ms, MiB/s", per_s(22020096, 0.7) / 1048576, 30, "30");
	dec_is("21 MiB in 700 ms, B/s", per_s(22020096, 0.7), 31457280, "31457280");
	dec_is("1 MiB in 1300 ms, MiB/s", per_s(1048576, 1.3) / 1048576, 1000.0 / 1300,
	       "0.7692307692307693");
	{
		/* equal rates: std 0, not the sums' rounding (1.19e-07 MiB/s) */
		const double eq[] = { 7037422.818791946, 7037422.818791946, 7037422.818791946 };

		dec_is("std of three equal rates", stat_pstd(eq, 3), 0, "0");
	}
	/* usr_cpu + sys_cpu */
	dec_is("20.1 + 10.2", dec_sum(20.1, 10.2), 30.3, "30.3");
	dec_is("0.1 + 0.2", dec_sum(0.1, 0.2), 0.3, "0.3");
	dec_is("1.5 + 2.25", dec_sum(1.5, 2.25), 3.75, "3.75");
	dec_is("1e17 + 0.5 (more places than a double has)", dec_sum(1e17, 0.5), 1e17 + 0.5,
	       "1e+17");
	/* a modeled job's figures times sim_time_scale */
	dec_is("0.193 s at scale 5", dec_mul(0.193, 5), 0.965, "0.965");
	dec_is("4.992 us at scale 5", dec_mul(4.992, 5), 24.96, "24.96");
	dec_is("0.1 at scale 0.7", dec_mul(0.1, 0.7), 0.07, "0.07");
	/* ratio's quotient of mean rates: the short decimal it is, else as it is */
	dec_is("800 / (4000/6) MB/s", dec_quot(800, 4000.0 / 6), 1.2, "1.2");
	dec_is("1000 / 3", dec_quot(1000, 3), 1000.0 / 3, "333.3333333333333");
	dec_is("0.1 / 3 (no short decimal)", dec_quot(0.1, 3), 0.1 / 3, "0.03333333333333333");
	/* the shortest form that reads back: 16 digits where 17 are not needed */
	dec_is("0.1 + 0.7 as it is", 0.1 + 0.7, 0.7999999999999999, "0.7999999999999999");
	dec_is("0.1 + 0.2 as it is", 0.1 + 0.2, 0.30000000000000004, "0.30000000000000004");
}

int main(void)
{
	static const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
				    23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
				    21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double same[] = { 5, 5, 5 }, other[] = { 6, 6, 6 }, one[] = { 5 };
	static const double r[] = { 1, 2, 3, 4 };
	double t, df;
	uint64_t bs[NDIR];

	/* closed forms: df=1 is Cauchy, df=2 has 1/2 + t/(2 sqrt(2+t^2)) */
	near("t_cdf(0, 5)", stat_t_cdf(0, 5), 0.5, 1e-12);
	near("t_cdf(1, 1)", stat_t_cdf(1, 1), 0.75, 1e-12);
	near("t_cdf(-3, 2)", stat_t_cdf(-3, 2), 0.5 - 3 / (2 * sqrt(11)), 1e-12);
	/* tables: t(0.975, 10) = 2.228138852 */
	near("t_cdf(2.228138852, 10)", stat_t_cdf(2.228138852, 10), 0.975, 1e-9);
	/* Simpson integration of the density (fractional df) */
	near("t_cdf(1.5, 3.7)", stat_t_cdf(1.5, 3.7), 0.8932009154, 1e-9);
	near("ibeta(2, 3, 0.4)", stat_ibeta(2, 3, 0.4), 0.5248, 1e-12);

	/*
	 * Holm by hand: sorted 0.005 0.01 0.03 0.04 (m = 4, NAN not counted)
	 * -> 4*0.005 = 0.02, 3*0.01 = 0.03, 2*0.03 = 0.06, max(1*0.04, 0.06) =
	 * 0.06; NAN stays NAN.  {0.6, 0.7}: 2*0.6 = 1.2 capped to 1, then max(0.7, 1).
	 */
	{
		static const double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 }, q[] = { 0.6, 0.7 };
		double adj[5], aq[2];

		stat_holm(p, 5, adj);
		near("holm 0.01", adj[0], 0.03, 1e-15);
		near("holm 0.04", adj[1], 0.06, 1e-15);
		if (!isnan(adj[2])) {
			printf("FAIL holm: NAN adjusted to %g\n", adj[2]);
			failures++;
		}
		near("holm 0.03", adj[3], 0.06, 1e-15);
		near("holm 0.005", adj[4], 0.02, 1e-15);
		stat_holm(q, 2, aq);
		near("holm capped", aq[0], 1, 0);
		near("holm monotone", aq[1], 1, 0);
	}

	/* Welch, Wikipedia's example 1: t = -2.4554, df = 24.9885, p = 0.0213780 */
	near("welch p", stat_welch_p(a, 15, b, 15, &t, &df), 0.0213780015, 1e-8);
	near("welch t", t, -2.455356398286006, 1e-9);
	near("welch df", df, 24.98852929023142, 1e-9);
	near("welch symmetric", stat_welch_p(b, 15, a, 15, NULL, NULL), 0.0213780015, 1e-8);
	if (!isnan(stat_welch_p(one, 1, a, 15, NULL, NULL))) {
		printf("FAIL welch with one run is not n/a\n");
		failures++;
	}
	near("welch no spread, equal", stat_welch_p(same, 3, same, 3, NULL, NULL), 1, 0);
	/* fio's whole-ms runtimes make equal runs: no spread tells nothing */
	if (!isnan(stat_welch_p(same, 3, other, 3, NULL, NULL))) {
		printf("FAIL welch with no spread and different means is not n/a\n");
		failures++;
	}

	/* blockdev-perftest's awk: population std from the sums */
	near("mean", stat_mean(r, 4), 2.5, 0);
	near("pstd", stat_pstd(r, 4), sqrt(1.25), 1e-15);
	near("pstd of equal values", stat_pstd(same, 3), 0, 0);

	/* fio sizes: kb_base=1024 compatibility mode (IEC spellings are 1000) */
	size_is("4k", 1024, 4096);
	size_is("4K", 1024, 4096);
	size_is("64m", 1024, 67108864);
	size_is("1g", 1024, 1073741824);
	size_is("1gb", 1024, 1073741824);
	size_is("1KiB", 1024, 1000);
	size_is("1k", 1000, 1000);
	size_is("1KiB", 1000, 1024);
	size_is("512", 1024, 512);
	size_is("1t", 1024, 1099511627776LL);
	size_is("", 1024, -1);
	size_is("4x", 1024, -1);
	/* fio's hexadecimal integers (str_to_decimal()): no unit */
	size_is("0x10", 1024, 16);
	size_is("0X1000", 1024, 4096);
	size_is("0xfF", 1000, 255);
	size_is("0x", 1024, -1);
	size_is("0x10k", 1024, -1);
	size_is("0x-1", 1024, -1);
	size_is("0x10000000000000000", 1024, -1);
	size_is("k", 1024, -1);
	size_is("99999999999e", 1024, -1);
	if (fio_parse_bs("8k,32k", 1024, 4096, bs) || bs[DIR_READ] != 8192 ||
	    bs[DIR_WRITE] != 32768 || bs[DIR_TRIM] != 32768) {
		printf("FAIL bs=8k,32k\n");
		failures++;
	}
	if (fio_parse_bs(",8k", 1024, 4096, bs) || bs[DIR_READ] != 4096 || bs[DIR_WRITE] != 8192) {
		printf("FAIL bs=,8k\n");
		failures++;
	}
	if (fio_parse_bs("8k,32k,", 1024, 4096, bs) || bs[DIR_TRIM] != 4096) {
		printf("FAIL bs=8k,32k,\n");
		failures++;
	}
	if (!fio_parse_bs("1k,2k,3k,4k", 1024, 4096, bs)) {
		printf("FAIL bs with 4 fields accepted\n");
		failures++;
	}
	decimals();
	return failures ? 1 : 0;
}
