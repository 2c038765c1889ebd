// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiotab plot: MB/s and IOPS against block size as a standalone SVG 1.1
 * (no plotting dependency).  Two panels share a log2 x axis; each series and
 * direction is one polyline with its points, and the std of the rate
 * (blockdev-perftest's std, scaled to IOPS for the lower panel) as error
 * bars.  Text is XML-escaped; colours come from a fixed palette.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tables.h"

#define W 960
#define PANEL_H 360
#define ML 80		/* left margin */
#define MR 260		/* right margin: legend */
#define MT 50
#define GAP 70

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				       "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
				       "#bcbd22", "#17becf" };

struct point {
	double x, y, err;	/* axis position (log2 of the value), MB/s, std */
	double bs;		/* block size of the direction, for IOPS */
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
};

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

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
		esc(f, label);
		return;
	}
	label += n - (LEGEND_CHARS - 1);
	/* Do not start inside a UTF-8 sequence. */
	while ((*label & 0xc0) == 0x80)
		label++;
	fputs("\u2026", f);
	esc(f, label);
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

static double nice_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
}

static void panel(FILE *f, int top, const char *ylabel, struct line *ln, size_t nl,
		  int iops, double xmin, double xmax)
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
	step = nice_step(ymax);
	ymax = ceil(ymax / step) * step;
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
		ML, top, pw, ph);
	for (v = 0; v <= ymax + step / 2; v += step) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			ML, Y(v), ML + pw, Y(v));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%g</text>\n",
			ML - 6, Y(v) + 4, v);
	}
	for (v = floor(xmin); v <= xmax + 1e-9; v += xa.log2 ? 1 : nice_step(xmax - floor(xmin) > 0 ? xmax - floor(xmin) : 1)) {
		bs_label(lbl, sizeof(lbl), v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n",
			X(v), top, X(v), top + ph);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
			X(v), top + ph + 16, lbl);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
		ML + pw / 2, top + ph + 34);
	esc(f, strcmp(xa.name, "bs") ? xa.name : "block size (bytes");
	fputs(strcmp(xa.name, "bs") ? (xa.log2 ? " (log2 scale)" : "") : ", log2 scale)", f);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %d)\">%s</text>\n",
		top + ph / 2, top + ph / 2, ylabel);
	for (i = 0; i < nl; i++) {
		const char *col = palette[i % (sizeof(palette) / sizeof(*palette))];

		fprintf(f, "<g stroke=\"%s\" fill=\"%s\"><title>", col, col);
		esc(f, ln[i].label);
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
			esc(f, ln[i].label);
			fputs("</title>", f);
			legend_label(f, ln[i].label);
			fputs("</text>\n", f);
		}
	}
#undef X
#undef Y
}

int svg_plot(FILE *f, const struct serieslist *sl)
{
	static const int order[] = { DIR_WRITE, DIR_READ };
	struct line *ln = NULL;
	size_t nl = 0, i, g;
	double xmin = INFINITY, xmax = -INFINITY;
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

		for (o = 0; o < 2; o++) {
			struct line l = { 0 };
			char *t;

			for (g = s->ng; g-- > 0;) {	/* ascending block size */
				const struct bsgroup *bg = &s->g[g];
				size_t n;
				double *r = bsgroup_rates(bg, order[o], &n);

				if (!n || !bg->dbs[order[o]]) {
					free(r);
					continue;
				}
				l.p = xrealloc(l.p, (l.n + 1) * sizeof(*l.p));
				l.p[l.n].x = xa.log2 ? log2(bg->x) : bg->x;
				l.p[l.n].bs = (double)bg->dbs[order[o]];
				l.p[l.n].y = stat_mean(r, n) / 1048576;
				l.p[l.n].err = stat_pstd(r, n) / 1048576;
				free(r);
				xmin = fmin(xmin, l.p[l.n].x);
				xmax = fmax(xmax, l.p[l.n].x);
				l.n++;
			}
			if (!l.n)
				continue;
			t = series_name(s);
			l.label = xasprintf("%s %s", t, order[o] == DIR_WRITE ? "write" : "read");
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
	h = MT + 2 * PANEL_H + GAP + 60;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"%d\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">fiotab: throughput and IOPS against ",
		W, h, W, h, W / 2);
	esc(f, strcmp(xa.name, "bs") ? xa.name : "block size");
	fputs(" (error bars: std over iterations)</text>\n", f);
	panel(f, MT, "MB/s (2^20 bytes/s)", ln, nl, 0, xmin, xmax);
	panel(f, MT + PANEL_H + GAP, "IOPS", ln, nl, 1, xmin, xmax);
	fputs("</svg>\n", f);
	for (i = 0; i < nl; i++) {
		free(ln[i].label);
		free(ln[i].p);
	}
	free(ln);
	return ferror(f) ? -1 : 0;
}
