// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiotab plot: MB/s, IOPS and clat percentiles against the axis (block
 * size, or --x) as a standalone SVG 1.1 (no plotting dependency).  Three
 * panels share the x axis (log2 when every value is positive); each series
 * and direction is one polyline with its points, and the std of the rate
 * (blockdev-perftest's std, scaled to IOPS for the second panel) as error
 * bars.  Escaping, palette, tick steps and the head come from svgutil.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "svgutil.h"
#include "tables.h"

#define W 960
#define PANEL_H 360
#define ML 80		/* left margin */
#define MR 260		/* right margin: legend */
#define MT 60
#define GAP 70
#define NPANEL 3	/* MB/s, IOPS, clat percentiles */

#define NPCT 3		/* clat p50, p99, p99.9 */

struct point {
	double x, y, err;	/* axis position (log2 of the value), MB/s, std */
	double bs;		/* block size of the direction, for IOPS */
	double lat[NPCT];	/* mean over the iterations of each clat percentile, µs */
	double *its;		/* each iteration's percentiles, NPCT per iteration */
	size_t nits;
};

/* The x axis: the swept parameter (serieslist.axis), log2 when it is positive. */
struct xaxis {
	const char *name;
	int log2;
};

static struct xaxis xa;

struct line {
	char *label;
	struct point *p;
	size_t n;
	const struct series *s;
	int dir;
};

/*
 * Labels are usually target paths plus a direction; what tells two series
 * apart is the tail.  Longer than the legend column (MR at 11 px) shows as
 * "…" and the tail; the <title> around it keeps the whole label for hover.
 */
#define LEGEND_CHARS 36

static void legend_label(FILE *f, const char *label)
{
	size_t n = strlen(label);

	if (n <= LEGEND_CHARS) {
		svg_esc(f, label);
		return;
	}
	label += n - (LEGEND_CHARS - 1);
	/* Do not start inside a UTF-8 sequence. */
	while ((*label & 0xc0) == 0x80)
		label++;
	fputs("\u2026", f);
	svg_esc(f, label);
}

static void bs_label(char *buf, size_t len, double l2)
{
	static const char units[] = "kmgt";
	uint64_t v = (uint64_t)llround(xa.log2 ? exp2(l2) : l2);
	int u = -1;

	if (strcmp(xa.name, "bs")) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	}
	while (v >= 1024 && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

/* The step between x ticks: one octave on a log2 axis, else a round step. */
static double x_step(double xmin, double xmax)
{
	return xa.log2 ? 1 : svg_nice_step(xmax - floor(xmin) > 0 ? xmax - floor(xmin) : 1);
}

/* The x axis' name under a panel, @more appended (before the closing tag). */
static void x_name(FILE *f, int x, int y, const char *more)
{
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">", x, y);
	svg_esc(f, strcmp(xa.name, "bs") ? xa.name : "block size (bytes");
	fputs(strcmp(xa.name, "bs") ? (xa.log2 ? " (log2 scale)" : "") : ", log2 scale)", f);
	fprintf(f, "%s</text>\n", more);
}

static void panel(FILE *f, int top, const char *ylabel, struct line *ln, size_t nl,
		  int iops, double xmin, double xmax, char **legend)
{
	double ymax = 0, step, v;
	int pw = W - ML - MR, ph = PANEL_H;
	size_t i, k;
	char lbl[32];

#define X(x) (ML + (xmax > xmin ? ((x) - xmin) / (xmax - xmin) : 0.5) * pw)
#define Y(y) (top + ph - (y) / ymax * ph)
	for (i = 0; i < nl; i++)
		for (k = 0; k < ln[i].n; k++) {
			struct point p = ln[i].p[k];
			double mul = iops ? 1048576 / p.bs : 1;

			v = (p.y + p.err) * mul;
			if (v > ymax)
				ymax = v;
		}
	if (!(ymax > 0))
		ymax = 1;
	step = svg_nice_step(ymax);
	ymax = ceil(ymax / step) * step;
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
		ML, top, pw, ph);
	for (v = 0; v <= ymax + step / 2; v += step) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			ML, Y(v), ML + pw, Y(v));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%.10g</text>\n",
			ML - 6, Y(v) + 4, v);
	}
	for (v = floor(xmin); v <= xmax + 1e-9; v += x_step(xmin, xmax)) {
		bs_label(lbl, sizeof(lbl), v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n",
			X(v), top, X(v), top + ph);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
			X(v), top + ph + 16, lbl);
	}
	x_name(f, ML + pw / 2, top + ph + 34, "");
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %d)\">%s</text>\n",
		top + ph / 2, top + ph / 2, ylabel);
	for (i = 0; i < nl; i++) {
		const char *col = svg_palette[i % svg_npalette];

		fprintf(f, "<g stroke=\"%s\" fill=\"%s\"><title>", col, col);
		svg_esc(f, ln[i].label);
		fputs("</title>\n<polyline fill=\"none\" stroke-width=\"2\" points=\"", f);
		for (k = 0; k < ln[i].n; k++) {
			double mul = iops ? 1048576 / ln[i].p[k].bs : 1;

			fprintf(f, "%s%.1f,%.1f", k ? " " : "", X(ln[i].p[k].x),
				Y(ln[i].p[k].y * mul));
		}
		fputs("\"/>\n", f);
		for (k = 0; k < ln[i].n; k++) {
			struct point p = ln[i].p[k];
			double mul = iops ? 1048576 / p.bs : 1, x = X(p.x);
			double lo = (p.y - p.err) * mul, hi = (p.y + p.err) * mul;

			if (lo < 0)
				lo = 0;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", x, Y(p.y * mul));
			if (p.err > 0)
				fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" fill=\"none\"/>\n",
					x, Y(lo), Y(hi), x - 4, Y(lo), x + 4, x - 4, Y(hi), x + 4);
		}
		fputs("</g>\n", f);
		if (!iops) {
			int ly = top + 10 + (int)i * 18;

			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n",
				W - MR + 16, ly - 4, col);
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\"><title>", W - MR + 36, ly + 1);
			svg_esc(f, ln[i].label);
			fputs("</title>", f);
			legend_label(f, legend[i]);
			fputs("</text>\n", f);
		}
	}
#undef X
#undef Y
}

/*
 * The clat percentiles of a point: each iteration's, and their means; of
 * its jobs, or with @fold of its classes' iterations.
 */
static void point_latency(struct point *p, const struct bsgroup *bg, int dir,
			  const struct fold *fold)
{
	size_t i, k, n[NPCT] = { 0 }, nit = bg->n[dir];
	const double *rt, *io, *lat = NULL;
	double *own = NULL;

	if (fold)
		nit = fold_iters(bg, dir, fold, &rt, &io, &lat, &own);
	p->its = xmalloc((nit ? nit : 1) * NPCT * sizeof(*p->its));
	p->nits = nit;
	for (k = 0; k < NPCT; k++)
		p->lat[k] = 0;
	for (i = 0; i < nit; i++) {
		const struct dirstat *d = fold ? NULL : bg->it[dir][i].d;
		double v[NPCT];

		if (d) {
			v[0] = d->clat_p50_us;
			v[1] = d->clat_p99_us;
			v[2] = d->clat_p999_us;
		} else {
			for (k = 0; k < NPCT; k++)
				v[k] = lat ? lat[i * FOLD_NPCT + k] : NAN;
		}
		for (k = 0; k < NPCT; k++) {
			p->its[i * NPCT + k] = v[k];
			if (!isnan(v[k]) && v[k] > 0) {
				p->lat[k] += v[k];
				n[k]++;
			}
		}
	}
	for (k = 0; k < NPCT; k++)
		p->lat[k] = n[k] ? p->lat[k] / (double)n[k] : NAN;
	free(own);
}

/*
 * What tells the lines apart, for the legend: the --series label as given;
 * else the path components of the targets that differ (a common leading
 * scratch directory and a common file name dropped), the host when hosts
 * differ, the mode when modes differ; then the direction.  Full names stay
 * in each line's <title>.
 */
static char **legend_names(struct line *ln, size_t nl)
{
	char **out = xmalloc(nl * sizeof(*out));
	size_t i, pre = 0, suf = 0, len0;
	int hosts = 0, modes = 0, same = 1;
	const char *a;

	for (i = 1; i < nl; i++) {
		same &= !strcmp(ln[i].s->label, ln[0].s->label);
		hosts |= strcmp(ln[i].s->host, ln[0].s->host) != 0;
		modes |= ln[i].s->modeled != ln[0].s->modeled || ln[i].s->scale != ln[0].s->scale;
	}
	a = ln[0].s->label;
	len0 = strlen(a);
	if (!same) {
		/* longest common prefix and suffix, at '/' boundaries */
		pre = len0;
		suf = len0;
		for (i = 1; i < nl; i++) {
			const char *b = ln[i].s->label;
			size_t k = 0, lb = strlen(b);

			while (k < pre && a[k] && a[k] == b[k])
				k++;
			pre = k;
			k = 0;
			while (k < suf && k < lb && k < len0 && a[len0 - 1 - k] == b[lb - 1 - k])
				k++;
			suf = k;
		}
		while (pre > 0 && a[pre - 1] != '/')
			pre--;
		while (suf > 0 && a[len0 - suf] != '/')
			suf--;
	}
	for (i = 0; i < nl; i++) {
		const struct series *s = ln[i].s;
		const char *l = s->label;
		size_t n = strlen(l), from = pre, to = n > suf ? n - suf : n;
		char *mode = mode_label(s->modeled, s->scale), *t;

		if (same) {	/* one target: the host or mode tells, else its name */
			const char *slash = strrchr(l, '/');

			/* fio's default "." (files in the current directory) names nothing */
			from = hosts || modes || !strcmp(l, ".") ? n :
			       slash && slash[1] ? (size_t)(slash + 1 - l) : 0;
			to = n;
		} else if (from >= to) {
			from = 0;
			to = n;
		}
		t = xasprintf("%.*s%s%s%s%s", (int)(to - from), l + from,
			      hosts && strcmp(s->host, "-") ? (to > from ? " on " : "") : "",
			      hosts && strcmp(s->host, "-") ? s->host : "",
			      modes && (to > from || hosts) ? ", " : "", modes ? mode : "");
		{
			char *w = xasprintf("%s%s%s", t, *t ? " " : "",
					    dir_name[ln[i].dir]);

			free(t);
			t = w;
		}
		free(mode);
		out[i] = t;
	}
	return out;
}

/* Log10 µs axis of the latency panel. */
static void lat_panel(FILE *f, int top, struct line *ln, size_t nl, double xmin, double xmax)
{
	static const char *const dash[NPCT] = { "", "6,3", "2,3" };
	static const char *const pname[NPCT] = { "p50", "p99", "p99.9" };
	double lo = INFINITY, hi = -INFINITY, e;
	int pw = W - ML - MR, ph = PANEL_H, k;
	size_t i, p, it;
	char lbl[32];

	for (i = 0; i < nl; i++)
		for (p = 0; p < ln[i].n; p++)
			for (it = 0; it < ln[i].p[p].nits * NPCT; it++) {
				double v = ln[i].p[p].its[it];

				if (v > 0) {
					lo = fmin(lo, v);
					hi = fmax(hi, v);
				}
			}
	if (!(lo <= hi))
		return;
	lo = floor(log10(lo));
	hi = fmax(ceil(log10(hi)), lo + 1);
#define X(x) (ML + (xmax > xmin ? ((x) - xmin) / (xmax - xmin) : 0.5) * pw)
#define Y(v) (top + ph - (log10(v) - lo) / (hi - lo) * ph)
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
		ML, top, pw, ph);
	for (e = lo; e <= hi + 1e-9; e += 1) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			ML, Y(pow(10, e)), ML + pw, Y(pow(10, e)));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%g</text>\n",
			ML - 6, Y(pow(10, e)) + 4, pow(10, e));
	}
	for (e = floor(xmin); e <= xmax + 1e-9; e += x_step(xmin, xmax)) {
		bs_label(lbl, sizeof(lbl), e);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
			X(e), top + ph + 16, lbl);
	}
	x_name(f, ML + pw / 2, top + ph + 34, "; lines: mean over iterations, dots: each iteration");
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %d)\">clat (\u00b5s, log scale)</text>\n",
		top + ph / 2, top + ph / 2);
	for (i = 0; i < nl; i++) {
		const char *col = svg_palette[i % svg_npalette];

		for (k = 0; k < NPCT; k++) {
			int open = 0;

			fprintf(f, "<g stroke=\"%s\" fill=\"%s\"><title>", col, col);
			svg_esc(f, ln[i].label);
			fprintf(f, " clat %s</title>\n", pname[k]);
			for (p = 0; p < ln[i].n; p++) {
				double v = ln[i].p[p].lat[k];

				if (isnan(v) || !(v > 0)) {
					if (open)
						fputs("\"/>\n", f);
					open = 0;
					continue;
				}
				if (!open)
					fprintf(f, "<polyline fill=\"none\" stroke-width=\"1.5\"%s%s%s points=\"",
						*dash[k] ? " stroke-dasharray=\"" : "", dash[k],
						*dash[k] ? "\"" : "");
				fprintf(f, "%s%.1f,%.1f", open ? " " : "", X(ln[i].p[p].x), Y(v));
				open = 1;
			}
			if (open)
				fputs("\"/>\n", f);
			for (p = 0; p < ln[i].n; p++)
				for (it = 0; it < ln[i].p[p].nits; it++) {
					double v = ln[i].p[p].its[it * NPCT + k];

					if (v > 0)
						fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\"/>\n",
							X(ln[i].p[p].x), Y(v));
				}
			fputs("</g>\n", f);
		}
	}
	for (k = 0; k < NPCT; k++) {
		int ly = top + 10 + k * 18;

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\" stroke-width=\"1.5\"%s%s%s/>\n",
			W - MR + 16, ly - 2, W - MR + 40, ly - 2, *dash[k] ? " stroke-dasharray=\"" : "",
			dash[k], *dash[k] ? "\"" : "");
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">clat %s</text>\n",
			W - MR + 46, ly + 2, pname[k]);
	}
#undef X
#undef Y
}

/* Host, fio version, date and device of every job plotted. */
static char *plot_subtitle(const struct serieslist *sl, const struct fold *fold)
{
	const struct job **jobs = NULL;
	struct subtitle_fold sf;
	struct fold_facts ff = { 0 };
	size_t n = 0, i, k;
	char *r;

	for (i = 0; i < sl->n; i++) {
		jobs = xrealloc(jobs, (n + sl->v[i].njobs) * sizeof(*jobs));
		for (k = 0; k < sl->v[i].njobs; k++)
			jobs[n++] = sl->v[i].jobs[k];
	}
	if (fold) {
		const struct series **sv = xmalloc((sl->n ? sl->n : 1) * sizeof(*sv));
		const struct fold **fv = xmalloc((sl->n ? sl->n : 1) * sizeof(*fv));

		for (i = 0; i < sl->n; i++) {
			sv[i] = &sl->v[i];
			fv[i] = fold;
		}
		fold_facts(sv, fv, sl->n, &ff);
		free(sv);
		free(fv);
		sf = (struct subtitle_fold){ ff.vers, ff.nvers, ff.lo_ms, ff.hi_ms };
	}
	r = svg_subtitle(jobs, n, fold ? &sf : NULL);
	free(ff.vers);
	free(jobs);
	return r;
}

int svg_plot(FILE *f, const struct serieslist *sl, const struct fold *fold)
{
	/* mixed: unified_rw_reporting=1's only record (=both's is left out at reading) */
	static const int order[] = { DIR_WRITE, DIR_READ, DIR_MIXED };
	struct line *ln = NULL;
	size_t nl = 0, i, g;
	double xmin = INFINITY, xmax = -INFINITY;
	char **legend, *sub, *title;
	int o, h;

	if (!sl->numeric) {
		warnx_("plot: the axis %s has values that are not numbers: tabulate it (fiotab perftest --x %s)",
		       sl->axis, sl->axis);
		return -1;
	}
	xa.name = sl->axis;
	xa.log2 = 1;
	for (i = 0; i < sl->n; i++)
		for (g = 0; g < sl->v[i].ng; g++)
			if (!(sl->v[i].g[g].x > 0))
				xa.log2 = 0;
	for (i = 0; i < sl->n; i++) {
		const struct series *s = &sl->v[i];

		for (o = 0; o < (int)(sizeof(order) / sizeof(*order)); o++) {
			struct line l = { 0 };
			char *t;

			for (g = s->ng; g-- > 0;) {	/* ascending block size */
				const struct bsgroup *bg = &s->g[g];
				size_t n;
				double *r = bsgroup_rates(bg, order[o], fold, &n);

				if (!n || !bg->dbs[order[o]]) {
					free(r);
					continue;
				}
				l.p = xrealloc(l.p, (l.n + 1) * sizeof(*l.p));
				l.p[l.n].x = xa.log2 ? log2(bg->x) : bg->x;
				l.p[l.n].bs = (double)bg->dbs[order[o]];
				l.p[l.n].y = stat_mean(r, n) / 1048576;
				l.p[l.n].err = stat_pstd(r, n) / 1048576;
				point_latency(&l.p[l.n], bg, order[o], fold);
				free(r);
				xmin = fmin(xmin, l.p[l.n].x);
				xmax = fmax(xmax, l.p[l.n].x);
				l.n++;
			}
			if (!l.n)
				continue;
			t = series_name(s);
			l.label = xasprintf("%s %s", t, dir_name[order[o]]);
			l.s = s;
			l.dir = order[o];
			free(t);
			ln = xrealloc(ln, (nl + 1) * sizeof(*ln));
			ln[nl++] = l;
		}
	}
	if (!nl) {
		warnx_("plot: no usable jobs");
		free(ln);
		return -1;
	}
	h = MT + NPANEL * PANEL_H + (NPANEL - 1) * GAP + 60;
	legend = legend_names(ln, nl);
	sub = plot_subtitle(sl, fold);
	title = xasprintf("fiotab: throughput, IOPS and completion latency against %s (error bars: std over iterations)",
			  strcmp(xa.name, "bs") ? xa.name : "block size");
	svg_head(f, W, h, title, sub);
	free(title);
	free(sub);
	panel(f, MT, "MB/s (2^20 bytes/s)", ln, nl, 0, xmin, xmax, legend);
	panel(f, MT + PANEL_H + GAP, "IOPS", ln, nl, 1, xmin, xmax, legend);
	lat_panel(f, MT + 2 * (PANEL_H + GAP), ln, nl, xmin, xmax);
	fputs("</svg>\n", f);
	for (i = 0; i < nl; i++) {
		free(ln[i].label);
		free(legend[i]);
		for (g = 0; g < ln[i].n; g++)
			free(ln[i].p[g].its);
		free(ln[i].p);
	}
	free(legend);
	free(ln);
	return ferror(f) ? -1 : 0;
}
