/* SPDX-License-Identifier: GPL-2.0-only */
/* Statistics: blockdev-perftest's awk formulas and Welch's t-test. */
#ifndef FIOTAB_STATS_H
#define FIOTAB_STATS_H

#include <stddef.h>

double stat_mean(const double *x, size_t n);
/* sqrt(mean(x^2) - mean(x)^2), 0 when rounding makes it negative (awk's) */
double stat_pstd(const double *x, size_t n);
/* sample variance (n - 1) */
double stat_var(const double *x, size_t n);
/* regularized incomplete beta I_x(a, b) */
double stat_ibeta(double a, double b, double x);
/* P(T <= t) for Student's t with df degrees of freedom (df may be fractional) */
double stat_t_cdf(double t, double df);
/*
 * Welch's unequal-variance t-test, two-sided p-value; NAN when either side
 * has fewer than 2 values, or neither has any spread and the means differ.
 * *t_out and *df_out may be NULL.
 */
double stat_welch_p(const double *a, size_t na, const double *b, size_t nb,
		    double *t_out, double *df_out);

/*
 * Holm's step-down adjustment of the @n p-values @p (NAN = not tested,
 * left NAN and not counted) into @adj: adj(i) = max over k <= i of
 * min(1, (m - k + 1) p(k)) in ascending order, m = the number tested.
 * adj < alpha rejects with family-wise error rate <= alpha under any
 * dependence between the tests.
 */
void stat_holm(const double *p, size_t n, double *adj);

#endif
