// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiotab hist: fio's json+ latency histograms ("clat_ns"/"slat_ns"/"lat_ns"
 * "bins") as rows with exact bucket bounds (CSV, JSON, Influx, text), as a
 * Prometheus histogram (hist_prom) and as a plot (hist_plot).
 *
 * Prometheus: a histogram, not a summary, because what its users query is
 * histogram_quantile() over sum by (le) of several jobs or hosts, and only
 * bucket counts can be added; quantiles of a summary cannot (fio's own
 * percentiles are in `fiotab summary` as gauges).  Buckets are cumulative
 * at fio's own bucket edges, so every count is exact: for each non-empty
 * fio bucket [lo, hi] the edges lo - 1 and hi, and in one family every
 * series gets the union of the edges, so that sum by (le) adds like with
 * like.  le is in seconds, printed as the exact decimal of the ns count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "identity.h"
#include "metrics.h"
#include "svgutil.h"

/* One histogram: a job's direction and latency kind. */
struct hseries {
	const struct job *j;
	int dir, lat;
	const struct latbins *b;
	uint64_t *lo, *hi;	/* bounds of b's buckets */
	uint64_t total;
};

static void hseries_free(struct hseries *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].lo);
		free(v[i].hi);
	}
	free(v);
}

/* Orders series by what names them in every output: kind, direction, run, job, host, target. */
static int cmp_identity(const void *pa, const void *pb)
{
	const struct hseries *a = *(const struct hseries *const *)pa;
	const struct hseries *b = *(const struct hseries *const *)pb;
	int c;

	if (a->lat != b->lat)
		return a->lat - b->lat;
	if (a->dir != b->dir)
		return a->dir - b->dir;
	if ((c = identity_cmp(a->j, b->j)))
		return c;
	return a->j->seq < b->j->seq ? -1 : a->j->seq > b->j->seq;
}

/*
 * Two series with the same name would be summed by Prometheus, overwritten
 * by InfluxDB and confused in CSV: refused in every output (identity.c).
 */
static int check_identities(const struct hseries *v, size_t n)
{
	const struct hseries **s = xmalloc((n ? n : 1) * sizeof(*s));
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		s[i] = &v[i];
	qsort(s, n, sizeof(*s), cmp_identity);
	for (i = 1; i < n && !ret; i++)
		if (s[i - 1]->lat == s[i]->lat && s[i - 1]->dir == s[i]->dir &&
		    !identity_cmp(s[i - 1]->j, s[i]->j))
			ret = identity_refuse("hist", "histogram in every output", s[i - 1]->j, s[i]->j);
	free(s);
	return ret;
}

static struct hseries *collect(const struct jobset *js, size_t *nout)
{
	struct hseries *v = NULL;
	size_t n = 0, i, k;
	int d, l, said_aggregate = 0;

	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];

		/*
		 * fio's "All clients" record sums the servers' (fio 3.33 writes
		 * its json+ without bins): a series of its own would be counted
		 * twice by every sum by (le); the servers' series add up to it.
		 */
		if (j->aggregate) {
			if (!said_aggregate++)
				warnx_("hist: %s: fio's \"All clients\" record left out: it is the sum of the servers' (sum by (le) over the hosts gives it)",
				       j->doc->file);
			continue;
		}
		for (d = 0; d < NDIR; d++)
			for (l = 0; l < NLAT; l++) {
				const struct latbins *b = j->bins ? j->bins[d][l] : NULL;
				struct hseries *h;

				if (!b || !b->n)
					continue;
				if (j->conf->modeled) {
					warnx_("hist: %s: job %s is modeled (coop_backend=sim): its bins count virtual-clock time, not latencies",
					       j->doc->file, job_ref(j->name, j->host));
					goto bad;
				}
				v = xrealloc(v, (n + 1) * sizeof(*v));
				h = &v[n++];
				memset(h, 0, sizeof(*h));
				h->j = j;
				h->dir = d;
				h->lat = l;
				h->b = b;
				h->lo = xmalloc(b->n * sizeof(*h->lo));
				h->hi = xmalloc(b->n * sizeof(*h->hi));
				for (k = 0; k < b->n; k++) {
					if (hist_bucket(b->key[k], &h->lo[k], &h->hi[k])) {
						warnx_("hist: %s: job %s %s.%s_ns.bins: \"%llu\" is not the key of a fio bucket (fio 3.x plat_idx_to_val)",
						       j->doc->file, job_ref(j->name, j->host), dir_name[d], lat_name[l],
						       (unsigned long long)b->key[k]);
						goto bad;
					}
					h->total += b->count[k];
				}
				if ((double)h->total != b->samples) {
					warnx_("hist: %s: job %s %s.%s_ns: the bins hold %llu samples, \"N\" says %.0f",
					       j->doc->file, job_ref(j->name, j->host), dir_name[d], lat_name[l],
					       (unsigned long long)h->total, b->samples);
					goto bad;
				}
			}
	}
	if (!n) {
		warnx_("hist: no latency bins in the input (fio writes them with --output-format=json+, for the latencies it measured: none with gtod_reduce=1, no clat with disable_clat=1 or clat_percentiles=0)");
		goto bad;
	}
	if (check_identities(v, n))
		goto bad;
	*nout = n;
	return v;
bad:
	hseries_free(v, n);
	return NULL;
}

int hist_tables(const struct jobset *js, struct tablist *out)
{
	size_t n, i, k;
	struct hseries *v = collect(js, &n);
	struct table *t;
	struct col *c;

	if (!v)
		return -1;
	t = table_new("histogram", 1);
	t->title = xstrdup("latency histograms (fio json+ bins; bounds in ns, inclusive)");
	table_note(t, "bucket lower_ns..upper_ns holds the samples s with lower_ns <= s <= upper_ns; upper_ns empty: fio's last bucket (everything above)");
	label_col(t, "job", "job", "job", COL_LEFT, 0, "  ");
	label_col(t, "host", "host", "host", COL_LEFT, 0, "  ");
	label_col(t, "target", NULL, "target", COL_DATA_ONLY, 0, "  ");
	run_col(t, "  ");
	label_col(t, "dir", "dir", "rw", COL_LEFT, 0, "  ");
	label_col(t, "latency", "lat", "latency", COL_LEFT, 0, "  ");
	c = table_col(t, "lower_ns", "ns", COL_INT, 0, 0, "  ");
	col_hdr(c, "lower(ns)", NULL, NULL);
	col_tag(c, "bucket_lower_ns");
	c = table_col(t, "upper_ns", "ns", COL_INT, 0, 0, "  ");
	col_hdr(c, "upper(ns)", NULL, NULL);
	c = table_col(t, "count", NULL, COL_INT, 0, 0, "  ");
	col_hdr(c, "count", NULL, NULL);
	col_metric(c, "count", 1, NULL);
	c = table_col(t, "cumulative", NULL, COL_INT, 0, 0, "  ");
	col_hdr(c, "cumulative", NULL, NULL);
	col_metric(c, "cumulative_count", 1, NULL);
	c = table_col(t, "percent", "%", COL_NUM, 0, 3, "");
	col_hdr(c, "%", NULL, NULL);
	for (i = 0; i < n; i++) {
		uint64_t cum = 0;

		for (k = 0; k < v[i].b->n; k++) {
			int row = table_row(t);

			cum += v[i].b->count[k];
			table_str(t, row, 0, v[i].j->name);
			table_str(t, row, 1, identity_host(v[i].j));
			table_str(t, row, 2, v[i].j->conf->target);
			table_str(t, row, 3, run_value(v[i].j));
			table_str(t, row, 4, dir_name[v[i].dir]);
			table_str(t, row, 5, lat_name[v[i].lat]);
			table_num(t, row, 6, (double)v[i].lo[k]);
			if (v[i].hi[k] != UINT64_MAX)
				table_num(t, row, 7, (double)v[i].hi[k]);
			table_num(t, row, 8, (double)v[i].b->count[k]);
			table_num(t, row, 9, (double)cum);
			table_num(t, row, 10, 100.0 * (double)v[i].b->count[k] / (double)v[i].total);
			table_row_time(t, row, v[i].j->doc->timestamp_ms / 1000);
		}
	}
	hseries_free(v, n);
	tablist_add(out, t);
	return 0;
}

/* @ns as exact decimal seconds: 1535 -> "0.000001535" */
static void ns_as_s(char *buf, size_t len, uint64_t ns)
{
	char d[32];
	int n, i;

	snprintf(d, sizeof(d), "%020llu", (unsigned long long)ns);
	n = (int)strlen(d);
	for (i = 0; i < n - 10 && d[i] == '0'; i++)
		;
	snprintf(buf, len, "%.*s.%s", n - 9 - i, d + i, d + n - 9);
	n = (int)strlen(buf);
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[--n] = '\0';
}

static void prom_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* A series' own labels, before --tag; returns their count. */
static int own_labels(const struct hseries *h, struct tagkv *t)
{
	int n = 0;

	t[n++] = (struct tagkv){ "fio_job", h->j->name };
	t[n++] = (struct tagkv){ "host", identity_host(h->j) };
	t[n++] = (struct tagkv){ "target", h->j->conf->target };
	t[n++] = (struct tagkv){ "run", run_value(h->j) };
	t[n++] = (struct tagkv){ "rw", dir_name[h->dir] };
	return n;
}

/*
 * A --tag replacing a label of several values would make their series one
 * (as user_tags_check() for the tables): -1 after saying so.
 */
static int tags_merge(const struct hseries *v, size_t n)
{
	struct tagkv a[MAX_TAGS], b[MAX_TAGS];
	size_t i;
	int u, k, na, nb;

	for (u = 0; u < nuser_tags; u++)
		for (i = 1; i < n; i++) {
			na = own_labels(&v[0], a);
			nb = own_labels(&v[i], b);
			for (k = 0; k < na && k < nb && strcmp(a[k].k, user_tags[u].k); k++)
				;
			if (k < na && k < nb && strcmp(a[k].v, b[k].v)) {
				warnx_("--tag %s=%s replaces the label %s, which takes more than one value here ('%s', '%s'): their series would be one; give the tag another name",
				       user_tags[u].k, user_tags[u].v, user_tags[u].k, a[k].v, b[k].v);
				return -1;
			}
		}
	return 0;
}

static void prom_labels(FILE *f, const struct hseries *h, const char *le)
{
	struct tagkv t[MAX_TAGS];
	int n = own_labels(h, t), i, k;

	for (i = 0; i < nuser_tags; i++) {
		for (k = 0; k < n && strcmp(t[k].k, user_tags[i].k); k++)
			;
		if (k == n)
			n++;
		t[k] = user_tags[i];
	}
	for (i = 0; i < n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "{", t[i].k);
		prom_value(f, t[i].v);
		fputc('"', f);
	}
	if (le)
		fprintf(f, ",le=\"%s\"", le);
	fputc('}', f);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static const char *const prom_help[NLAT] = {
	"Completion latency of fio's I/Os (submission to completion, fio clat), seconds; from fio json+ bins",
	"Submission latency of fio's I/Os (fio slat), seconds; from fio json+ bins",
	"Total latency of fio's I/Os (fio lat = slat + clat), seconds; from fio json+ bins",
};

int hist_prom(FILE *f, const struct jobset *js)
{
	size_t n, i, k, e, ne, cap;
	struct hseries *v = collect(js, &n);
	uint64_t *edge;
	char le[48], num[40];
	int l;

	if (!v)
		return -1;
	if (tags_merge(v, n)) {
		hseries_free(v, n);
		return -1;
	}
	for (l = 0; l < NLAT; l++) {
		int any = 0;

		ne = cap = 0;
		edge = NULL;
		for (i = 0; i < n; i++) {
			if (v[i].lat != l)
				continue;
			any = 1;
			for (k = 0; k < v[i].b->n; k++) {
				if (ne + 2 > cap) {
					cap = cap ? 2 * cap : 256;
					edge = xrealloc(edge, cap * sizeof(*edge));
				}
				if (v[i].lo[k] > 0)
					edge[ne++] = v[i].lo[k] - 1;
				if (v[i].hi[k] != UINT64_MAX)
					edge[ne++] = v[i].hi[k];
			}
		}
		if (!any)
			continue;
		if (ne)
			qsort(edge, ne, sizeof(*edge), cmp_u64);
		for (i = k = 0; i < ne; i++)
			if (!k || edge[k - 1] != edge[i])
				edge[k++] = edge[i];
		ne = k;
		fprintf(f, "# HELP fiotab_%s_seconds %s\n# TYPE fiotab_%s_seconds histogram\n",
			lat_name[l], prom_help[l], lat_name[l]);
		for (i = 0; i < n; i++) {
			const struct hseries *h = &v[i];
			uint64_t cum = 0;

			if (h->lat != l)
				continue;
			for (e = k = 0; e < ne; e++) {
				while (k < h->b->n && h->hi[k] <= edge[e])
					cum += h->b->count[k++];
				ns_as_s(le, sizeof(le), edge[e]);
				fprintf(f, "fiotab_%s_seconds_bucket", lat_name[l]);
				prom_labels(f, h, le);
				fprintf(f, " %llu\n", (unsigned long long)cum);
			}
			fprintf(f, "fiotab_%s_seconds_bucket", lat_name[l]);
			prom_labels(f, h, "+Inf");
			fprintf(f, " %llu\n", (unsigned long long)h->total);
			fprintf(f, "fiotab_%s_seconds_sum", lat_name[l]);
			prom_labels(f, h, NULL);
			fprintf(f, " %s\n", fmt_double(num, sizeof(num),
						       dec_scale(h->b->mean_ns * h->b->samples, 1e-9)));
			fprintf(f, "fiotab_%s_seconds_count", lat_name[l]);
			prom_labels(f, h, NULL);
			fprintf(f, " %llu\n", (unsigned long long)h->total);
		}
		free(edge);
	}
	hseries_free(v, n);
	return ferror(f) ? -1 : 0;
}

/*
 * The plot: one panel per latency kind, x = latency (log10 scale, µs, at
 * each bucket's middle), y = share of the I/Os in that fio bucket.  fio's
 * buckets are about equally wide on a log scale (1/64 to 1/128 of their
 * value), so the curve's shape is the density of log latency.
 */
#define HW 960
#define HML 80
#define HMR 280
#define HPH 300
#define HGAP 70
#define HTOP 60

static void hlabel(char *buf, size_t len, double us)
{
	if (us >= 1e6)
		snprintf(buf, len, "%gs", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, len, "%gms", us / 1e3);
	else
		snprintf(buf, len, "%g\u00b5s", us);
}

static char *series_label(const struct hseries *h, int hosts)
{
	return hosts ? xasprintf("%s %s on %s", h->j->name, dir_name[h->dir], identity_host(h->j)) :
		       xasprintf("%s %s", h->j->name, dir_name[h->dir]);
}

static void hpanel(FILE *f, int top, int l, const struct hseries *v, size_t n, int hosts)
{
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0, step, y, x;
	int pw = HW - HML - HMR, leg = 0;
	size_t i, k;
	char lbl[32];

	for (i = 0; i < n; i++)
		if (v[i].lat == l)
			for (k = 0; k < v[i].b->n; k++) {
				double mid = v[i].hi[k] == UINT64_MAX ? (double)v[i].lo[k] :
					     ((double)v[i].lo[k] + (double)v[i].hi[k]) / 2;

				x = log10(fmax(mid, 1) / 1e3);
				xmin = fmin(xmin, x);
				xmax = fmax(xmax, x);
				ymax = fmax(ymax, 100.0 * (double)v[i].b->count[k] / (double)v[i].total);
			}
	xmin = floor(xmin);
	xmax = fmax(ceil(xmax), xmin + 1);
	step = svg_nice_step(ymax > 0 ? ymax : 1);
	ymax = ceil((ymax > 0 ? ymax : 1) / step) * step;
#define HX(x) (HML + ((x) - xmin) / (xmax - xmin) * pw)
#define HY(y) (top + HPH - (y) / ymax * HPH)
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
		HML, top, pw, HPH);
	for (y = 0; y <= ymax + step / 2; y += step) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			HML, HY(y), HML + pw, HY(y));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%g</text>\n",
			HML - 6, HY(y) + 4, y);
	}
	for (x = xmin; x <= xmax + 1e-9; x += 1) {
		hlabel(lbl, sizeof(lbl), pow(10, x));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n",
			HX(x), top, HX(x), top + HPH);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
			HX(x), top + HPH + 16, lbl);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">%s latency (log scale)</text>\n",
		HML + pw / 2, top + HPH + 34, lat_name[l]);
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %d)\">%% of I/Os in the fio bucket</text>\n",
		top + HPH / 2, top + HPH / 2);
	for (i = 0; i < n; i++) {
		const char *col = svg_palette[leg % svg_npalette];
		char *name;

		if (v[i].lat != l)
			continue;
		name = series_label(&v[i], hosts);
		fprintf(f, "<g stroke=\"%s\" fill=\"none\"><title>", col);
		svg_esc(f, name);
		fputs("</title><polyline stroke-width=\"1.5\" points=\"", f);
		for (k = 0; k < v[i].b->n; k++) {
			double mid = v[i].hi[k] == UINT64_MAX ? (double)v[i].lo[k] :
				     ((double)v[i].lo[k] + (double)v[i].hi[k]) / 2;

			/* empty buckets between two: down to 0 and back, not a bridge */
			if (k && v[i].lo[k] != v[i].hi[k - 1] + 1)
				fprintf(f, " %.1f,%.1f %.1f,%.1f",
					HX(log10(fmax((double)v[i].hi[k - 1] + 1, 1) / 1e3)), HY(0),
					HX(log10(fmax((double)v[i].lo[k] - 1, 1) / 1e3)), HY(0));
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", HX(log10(fmax(mid, 1) / 1e3)),
				HY(100.0 * (double)v[i].b->count[k] / (double)v[i].total));
		}
		fputs("\"/></g>\n", f);
		svg_legend(f, HW - HMR + 16, top + 10 + leg * 18, col, name);
		free(name);
		leg++;
	}
#undef HX
#undef HY
}

int hist_plot(FILE *f, const struct jobset *js)
{
	size_t n, i;
	struct hseries *v = collect(js, &n);
	const struct job **jobs;
	int l, np = 0, hosts = 0, has[NLAT] = { 0 };
	char *sub;

	if (!v)
		return -1;
	jobs = xmalloc(n * sizeof(*jobs));
	for (i = 0; i < n; i++) {
		jobs[i] = v[i].j;
		has[v[i].lat] = 1;
		if (strcmp(v[i].j->host, v[0].j->host))
			hosts = 1;
	}
	for (l = 0; l < NLAT; l++)
		np += has[l];
	sub = svg_subtitle(jobs, n, NULL);
	svg_head(f, HW, HTOP + np * (HPH + HGAP) + 10,
		 "fiotab: latency histograms (fio json+ bins)", sub);
	for (l = np = 0; l < NLAT; l++)
		if (has[l])
			hpanel(f, HTOP + np++ * (HPH + HGAP), l, v, n, hosts);
	fputs("</svg>\n", f);
	free(sub);
	free(jobs);
	hseries_free(v, n);
	return ferror(f) ? -1 : 0;
}
