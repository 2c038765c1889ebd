// SPDX-License-Identifier: GPL-2.0-only
/* Shared SVG pieces of fiotab's plots (see svgutil.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics.h"
#include "strmap.h"
#include "svgutil.h"

const char *const svg_palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
				    "#bcbd22", "#17becf" };
const size_t svg_npalette = sizeof(svg_palette) / sizeof(*svg_palette);

void svg_esc(FILE *f, const char *s)
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

double svg_nice_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
}

void svg_head(FILE *f, int w, int h, const char *title, const char *subtitle)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"%d\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">",
		w, h, w, h, w / 2);
	svg_esc(f, title);
	fputs("</text>\n", f);
	if (subtitle) {
		fprintf(f, "<text x=\"%d\" y=\"42\" font-size=\"12\" fill=\"#444\" text-anchor=\"middle\">",
			w / 2);
		svg_esc(f, subtitle);
		fputs("</text>\n", f);
	}
}

/*
 * "a" or "a, b" or "a, b and N more" of the distinct values, in the order
 * they first appear; one hash lookup per value (a plot's subtitle sees
 * every job of the sweep)
 */
static void distinct(FILE *m, const char *what, const char *const *v, size_t n)
{
	struct strmap seen = { 0 };
	size_t i, shown = 0, nd = 0;

	for (i = 0; i < n; i++) {
		if (map_get(&seen, v[i], nd) != nd)
			continue;
		nd++;
		if (shown < 2) {
			fprintf(m, "%s%s", shown ? ", " : (what ? what : ""), v[i]);
			shown++;
		}
	}
	map_free(&seen);
	if (nd > shown)
		fprintf(m, " and %zu more", nd - shown);
}

char *svg_subtitle(const struct job *const *jobs, size_t n, const struct subtitle_fold *sf)
{
	const char **v;
	char *buf = NULL, date[40];
	size_t len = 0, i, k, nh;
	double lo = INFINITY, hi = -INFINITY;
	FILE *m;

	if (!n)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m)
		die("out of memory");
	v = xmalloc(n * sizeof(*v));
	/*
	 * fio's "All clients" record names no hostname, but it is no local
	 * run: the servers it sums are the hosts (shown with their own
	 * records), or it is "All clients" where it is drawn alone.
	 */
	for (i = 0, k = 0, nh = 0; i < n; i++) {
		if (jobs[i]->aggregate)
			continue;
		v[nh++] = jobs[i]->hostname ? jobs[i]->hostname : local_host_quiet();
		k |= !jobs[i]->hostname;
	}
	if (!nh)
		v[nh++] = jobs[0]->host;
	distinct(m, "host ", v, nh);
	if (k && !local_host_opt)
		fputs(" (fiotab's host: fio names none)", m);
	fputs(" \u00b7 ", m);
	if (sf) {
		distinct(m, NULL, sf->versions, sf->nversions);
		if (sf->lo_ms <= sf->hi_ms) {
			lo = sf->lo_ms / 1000;
			hi = sf->hi_ms / 1000;
		}
	} else {
		for (i = 0; i < n; i++)
			v[i] = jobs[i]->doc->version;
		distinct(m, NULL, v, n);
		for (i = 0; i < n; i++) {
			if (jobs[i]->doc->timestamp_ms > 0) {
				lo = fmin(lo, jobs[i]->doc->timestamp_ms / 1000);
				hi = fmax(hi, jobs[i]->doc->timestamp_ms / 1000);
			}
		}
	}
	if (lo <= hi) {
		time_t t = (time_t)lo;
		struct tm tm;

		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", gmtime_r(&t, &tm));
		fprintf(m, " \u00b7 %s", date);
		if ((time_t)hi / 60 != t / 60) {
			t = (time_t)hi;
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M", gmtime_r(&t, &tm));
			fprintf(m, " to %s", date);
		}
		fputs(" UTC", m);
	}
	/* the device: --tag device=... when given, else fio's targets */
	for (k = 0; k < (size_t)nuser_tags && strcmp(user_tags[k].k, "device"); k++)
		;
	fputs(" \u00b7 ", m);
	if (k < (size_t)nuser_tags) {
		fputs(user_tags[k].v, m);
	} else {
		for (i = 0; i < n; i++)
			v[i] = jobs[i]->conf->target;
		distinct(m, NULL, v, n);
	}
	for (k = 0, i = 0; k < (size_t)nuser_tags; k++)
		if (strcmp(user_tags[k].k, "device"))
			fprintf(m, "%s%s=%s", i++ ? ", " : " \u00b7 ", user_tags[k].k,
				user_tags[k].v);
	free(v);
	if (fclose(m))
		die("out of memory");
	return buf;
}

void svg_legend(FILE *f, int x, int y, const char *colour, const char *label)
{
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n", x, y - 4,
		colour);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x + 20, y + 1);
	svg_esc(f, label);
	fputs("</text>\n", f);
}
