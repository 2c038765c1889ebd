// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation and message helpers: out of memory is fatal (exit 1), and every
 * message starts with "fiotab: " so scripts can tell ours from fio's.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		die("out of memory");
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void vmsg(const char *fmt, va_list ap)
{
	fputs("fiotab: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(1);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

/* Shortest of %.15g/%.16g/%.17g that reads back as the same double. */
const char *fmt_double(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

/*
 * The decimal places of @v's shortest form (fmt_double()): 2 for 0.25,
 * 0 for 1e+20, 10 for 1.5e-10.
 */
static int dec_places(double v)
{
	char buf[32];
	const char *s = fmt_double(buf, sizeof(buf), v), *dot = strchr(s, '.'), *e;
	int n = 0;

	e = strchr(s, 'e');
	if (dot)
		n = (int)((e ? e : s + strlen(s)) - dot - 1);
	if (e)
		n -= atoi(e + 1);
	return n > 0 ? n : 0;
}

/*
 * @v times @f; when @f is a power of ten, as the double nearest the decimal
 * result: @v's shortest form with its exponent moved, read back (1810.432
 * us times 1e-6 is 0.001810432 s, where the doubles' product is
 * 0.0018104319999999998).
 */
double dec_scale(double v, double f)
{
	char buf[48], *e;
	int e10 = (int)lround(log10(f));

	if (!isfinite(v) || !v || !(f > 0) || pow(10, e10) != f)
		return v * f;
	fmt_double(buf, 32, v);
	e = strchr(buf, 'e');
	if (e)
		e10 += atoi(e + 1);
	else
		e = buf + strlen(buf);
	snprintf(e, sizeof(buf) - (size_t)(e - buf), "e%d", e10);
	return strtod(buf, NULL);
}

/*
 * @n per second over fio's @runtime_s (whole ms, times sim_time_scale if
 * modeled), in one rounding: @n * 1000 / ms (21 MiB in 700 ms is 30 MiB/s,
 * where dividing by 0.7 s gives 30.000000000000004).
 */
double per_s(double n, double runtime_s)
{
	return n * 1000 / dec_scale(runtime_s, 1e3);
}

/*
 * @a + @b as the double nearest the sum of their shortest forms (fio's
 * usr_cpu 20.1 + sys_cpu 10.2 is 30.3, where the doubles add up to
 * 30.299999999999997); the plain sum when that many places are more than
 * a double holds at its size.
 */
double dec_sum(double a, double b)
{
	double s = a + b;
	int k = dec_places(a), b_k = dec_places(b);
	char buf[400];

	if (b_k > k)
		k = b_k;
	if (!isfinite(s) || k > 17 || fabs(s) * 1e-15 >= pow(10, -k))
		return s;
	snprintf(buf, sizeof(buf), "%.*f", k, s);
	return strtod(buf, NULL);
}

/*
 * @a times @b as the double nearest the product of their shortest forms (a
 * modeled job's 0.193 s times sim_time_scale 5 is 0.965 s, where the
 * doubles' product is 0.9650000000000001); the plain product when that
 * many places are more than a double holds at its size.
 */
double dec_mul(double a, double b)
{
	double p = a * b;
	int k = dec_places(a) + dec_places(b);
	char buf[400];

	if (!isfinite(p) || !p || k > 17 || fabs(p) * 1e-15 >= pow(10, -k))
		return p;
	snprintf(buf, sizeof(buf), "%.*f", k, p);
	return strtod(buf, NULL);
}

/*
 * @a / @b as the short decimal it is when the doubles' quotient is a
 * rounding off one (candidate 800 over baseline 666.6666666666666 MB/s, six
 * fifths, is 1.2 where the division gives 1.2000000000000002): the quotient
 * to 15 significant digits, read back, when that has 12 or fewer; else the
 * quotient, whose last digits a rounding of the rates already holds.
 */
double dec_quot(double a, double b)
{
	double q = a / b;
	char buf[40];
	const char *s;
	int n = 0, lead = 1;

	if (!isfinite(q) || !q)
		return q;
	snprintf(buf, sizeof(buf), "%.15g", q);
	for (s = buf; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9' || (lead && *s == '0'))
			continue;
		lead = 0;
		n++;
	}
	return n <= 12 ? strtod(buf, NULL) : q;
}

/*
 * The length of the UTF-8 sequence at @s (its first byte >= 0x80), 0 when
 * it is not one: RFC 3629's, no overlong form, surrogate or code point
 * above U+10FFFF.
 */
size_t utf8_seq(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/*
 * fio writes names and options unescaped (--name=$'a\nb' gives a raw
 * newline) and as the job file's bytes (a Latin-1 job file's 'caf\xe9');
 * no table layout, Markdown cell, InfluxDB tag or XML text can carry a
 * control byte as it is, and every format fiotab writes is UTF-8 text
 * (Prometheus, InfluxDB, JSON and XML refuse other bytes).
 */
const char *control_byte(const char *s)
{
	size_t n;

	while (*s) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
		if ((unsigned char)*s < 0x80) {
			s++;
			continue;
		}
		n = utf8_seq(s);
		if (!n)
			return s;
		s += n;
	}
	return NULL;
}

const char *text_fault(const char *c)
{
	return (unsigned char)*c < 0x80 ? "a control character" : "a byte that is not UTF-8";
}
