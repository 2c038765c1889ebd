// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics behind the tables.
 *
 * avg/std follow blockdev-perftest's awk exactly (population std from the
 * sums, clamped at 0), but equal values have std 0, not the sums' rounding.  The noise test for ratios is Welch's t-test; its
 * p-value needs Student's t CDF, computed from the regularized incomplete
 * beta function I_x(a,b) by the continued fraction of Numerical Recipes
 * (modified Lentz), using the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where the
 * fraction converges slowly.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats.h"

double stat_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stat_pstd(const double *x, size_t n)
{
	double s = 0, s2 = 0, v;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	for (i = 1; i < n && x[i] == x[0]; i++)
		;
	if (i == n)
		return 0;	/* the sums' rounding is no spread */
	v = s2 / (double)n - (s / (double)n) * (s / (double)n);
	return v > 0 ? sqrt(v) : 0;
}

double stat_var(const double *x, size_t n)
{
	double m = stat_mean(x, n), s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

/* One step of the modified Lentz algorithm: updates c, d, returns c*d. */
static double lentz(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

static double betacf(double a, double b, double x)
{
	double c = 1, d = 1, h;
	int m;

	/* the first term: c = 1, h = d = 1 / (1 - (a+b) x / (a+1)) */
	lentz(-(a + b) * x / (a + 1), &c, &d);
	c = 1;
	h = d;
	for (m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz(m * (b - m) * x / ((a + m2 - 1) * (a + m2)), &c, &d);
		del = lentz(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double stat_ibeta(double a, double b, double x)
{
	double lbt;

	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double stat_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	tail = stat_ibeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail / 2 : tail / 2;
}

/* every value the first (a variance from the sums may be rounding's) */
static bool all_equal(const double *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] != v[0])
			return false;
	return true;
}

double stat_welch_p(const double *a, size_t na, const double *b, size_t nb,
		    double *t_out, double *df_out)
{
	double ma, mb, va, vb, se2, t, df, p;

	if (t_out)
		*t_out = NAN;
	if (df_out)
		*df_out = NAN;
	if (na < 2 || nb < 2)
		return NAN;
	ma = stat_mean(a, na);
	mb = stat_mean(b, nb);
	va = stat_var(a, na) / (double)na;
	vb = stat_var(b, nb) / (double)nb;
	se2 = va + vb;
	/*
	 * No spread on either side: equal means differ by nothing, but
	 * different ones cannot be weighed against noise.  fio times a run in
	 * whole ms, so runs of a few ms are often equal by its rounding alone
	 * (and a deterministic model's by design): n/a, not p = 0.
	 */
	if (!(se2 > 0) || (all_equal(a, na) && all_equal(b, nb)))
		return ma == mb ? 1 : NAN;
	t = (ma - mb) / sqrt(se2);
	df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	p = 2 * stat_t_cdf(-fabs(t), df);
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return p > 1 ? 1 : p;
}

struct pidx {
	double p;
	size_t i;
};

static int pidx_cmp(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	return (x->p > y->p) - (x->p < y->p);
}

void stat_holm(const double *p, size_t n, double *adj)
{
	struct pidx *ix = malloc((n ? n : 1) * sizeof(*ix));
	size_t m = 0, i;
	double run = 0, v;

	if (!ix)
		abort();
	for (i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			ix[m++] = (struct pidx){ p[i], i };
	}
	qsort(ix, m, sizeof(*ix), pidx_cmp);
	for (i = 0; i < m; i++) {
		v = (double)(m - i) * ix[i].p;
		if (v > 1)
			v = 1;
		if (v > run)
			run = v;
		adj[ix[i].i] = run;
	}
	free(ix);
}
