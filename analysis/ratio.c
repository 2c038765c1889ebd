// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "Ratio of file I/O throughput to block I/O throughput" table of seed
 * 000: candidate avg / baseline avg per block size (or --x point) and
 * direction, "%.2f".
 *
 * Beyond the thread, which drew conclusions from three runs: each cell gets
 * the two-sided p-value of Welch's t-test on the per-run rates of both
 * sides, and Holm's adjustment of those p-values over every cell of the
 * table; '*' marks the cells whose adjusted p is below alpha.  A table tests
 * dozens of cells at once: without the adjustment a run compared with its
 * identical repeat flags about alpha of them.  With fewer than two runs on
 * a side there is no test ("n/a").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tables.h"

static const int order[] = { DIR_WRITE, DIR_READ, DIR_MIXED };
#define NORDER (sizeof(order) / sizeof(*order))

static const struct bsgroup *find_x(const struct series *s, const char *xs)
{
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].xs, xs))
			return &s->g[i];
	return NULL;
}

static int has_dir(const struct series *s, int dir)
{
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (s->g[i].n[dir])
			return 1;
	return 0;
}

/*
 * What one side has and the other lacks has no ratio: a direction of one
 * side only, a point (block size or --x value) of one side only, or a
 * direction one side ran at a point both have.  The table leaves it out and
 * says so, naming it, so a missing column, row or cell does not read as
 * nothing measured there.  "" when both sides have the same.
 */
static void add_item(char **out, char *item)
{
	char *tmp = xasprintf("%s%s%s", *out, **out ? ", " : "", item);

	free(*out);
	free(item);
	*out = tmp;
}

static char *one_side(const struct series *const sides[2], const char *axis)
{
	static const char *const who[2] = { "baseline", "candidate" };
	char *out = xstrdup("");
	size_t s, i, k;

	for (s = 0; s < 2; s++)
		for (k = 0; k < NORDER; k++)
			if (has_dir(sides[s], order[k]) && !has_dir(sides[!s], order[k]))
				add_item(&out, xasprintf("%s %s", who[s], dir_letter[order[k]]));
	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->ng; i++) {
			const struct bsgroup *g = &sides[s]->g[i], *og = find_x(sides[!s], g->xs);

			if (!og) {
				add_item(&out, xasprintf("%s %s %s", who[s], axis, g->xs));
				continue;
			}
			for (k = 0; k < NORDER; k++)
				if (g->n[order[k]] && !og->n[order[k]] && has_dir(sides[!s], order[k]))
					add_item(&out, xasprintf("%s %s at %s %s", who[s], dir_letter[order[k]],
								 axis, g->xs));
		}
	return out;
}

/* One tested cell, kept until every p is known (Holm needs them all). */
struct rcell {
	int row, dir;
	double p;
};

int ratio_table(const struct serieslist *sl, const struct series *base, const struct fold *bf,
		const struct series *cand, const struct fold *cf, const struct ratio_opts *o,
		struct tablist *out)
{
	const struct series *sides[2] = { base, cand };
	const struct fold *folds[2] = { bf, cf };
	struct table *t = table_new("ratio", 2);
	struct rcell *rc = NULL;
	size_t nrc = 0, i, k, ntested = 0, nsig = 0;
	int dirs[NORDER], nd = 0, row;
	char key[64], tags[32], *bt, *ct;
	double *p, *adj;
	struct col *c;

	for (k = 0; k < NORDER; k++)
		if (has_dir(base, order[k]) && has_dir(cand, order[k]))
			dirs[nd++] = order[k];
	if (!nd) {
		warnx_("ratio: baseline and candidate have no direction in common");
		table_free(t);
		return -1;
	}
	bt = series_name(base);
	ct = series_name(cand);
	t->title = xasprintf("candidate %s / baseline %s", ct, bt);
	free(bt);
	free(ct);
	t->timestamp = fold_meta(t, sides, folds, 2);
	bt = series_diff(base, cand, sl->axis);
	table_note(t, "baseline / candidate configurations differ in: %s", *bt ? bt : "nothing but target, host or mode");
	free(bt);
	if (base->modeled != cand->modeled || base->scale != cand->scale)
		table_note(t, "WARNING: baseline is %s, candidate is %s",
			   base->modeled ? "modeled (coop_backend=sim)" : "real",
			   cand->modeled ? "modeled (coop_backend=sim)" : "real");
	if (base->tied && *base->tied)
		table_note(t, "baseline: %s: one value per %s, changing with it", base->tied, sl->axis);
	if (cand->tied && *cand->tied)
		table_note(t, "candidate: %s: one value per %s, changing with it", cand->tied, sl->axis);
	bt = one_side(sides, sl->axis);
	if (*bt)
		table_note(t, "left out, measured on one side only: %s", bt);
	free(bt);
	table_tag(t, "baseline", base->label);
	table_tag(t, "candidate", cand->label);

	/* the columns, by key: a direction or a statistic is one more line */
	axis_col(t, sl);
	for (k = 0; k < (size_t)nd; k++) {
		snprintf(key, sizeof(key), "%s_ratio", dir_letter[dirs[k]]);
		snprintf(tags, sizeof(tags), "rw=%s", dir_name[dirs[k]]);
		c = table_col(t, key, NULL, COL_NUM, 8, 2, " ");
		col_hdr(c, dir_letter[dirs[k]], NULL, NULL);
		col_metric(c, "ratio", 1, tags);
	}
	for (k = 0; k < (size_t)nd; k++) {
		snprintf(key, sizeof(key), "%s(p)", dir_letter[dirs[k]]);
		c = table_col(t, key, NULL, COL_STR, 8, 0, " ");
		col_hdr(c, key, NULL, NULL);
		c->flags |= COL_TEXT_ONLY;
		snprintf(key, sizeof(key), "%s(p.adj)", dir_letter[dirs[k]]);
		c = table_col(t, key, NULL, COL_STR, 9, 0, " ");
		col_hdr(c, key, NULL, NULL);
		c->flags |= COL_TEXT_ONLY;
	}
	for (k = 0; k < (size_t)nd; k++) {
		static const struct { const char *suffix, *unit; int kind, prec; const char *field; } data[] = {
			{ "_p", NULL, COL_NUM, 4, "welch_p" },
			{ "_p_holm", NULL, COL_NUM, 4, "welch_p_holm" },
			{ "_significant", NULL, COL_INT, 0, NULL },
			{ "_base_MBps", "MB/s", COL_NUM, 3, NULL },
			{ "_cand_MBps", "MB/s", COL_NUM, 3, NULL },
		};
		size_t m;

		snprintf(tags, sizeof(tags), "rw=%s", dir_name[dirs[k]]);
		for (m = 0; m < sizeof(data) / sizeof(*data); m++) {
			snprintf(key, sizeof(key), "%s%s", dir_letter[dirs[k]], data[m].suffix);
			c = table_col(t, key, data[m].unit, data[m].kind, 0, data[m].prec, " ");
			c->flags |= COL_DATA_ONLY;
			if (data[m].field)
				col_metric(c, data[m].field, 1, tags);
		}
	}

	for (i = 0; i < base->ng; i++) {
		const struct bsgroup *bg = &base->g[i], *cg = find_x(cand, bg->xs);

		if (!cg)
			continue;
		row = table_row(t);
		axis_cell(t, sl, row, bg);
		for (k = 0; k < (size_t)nd; k++) {
			int d = dirs[k];
			const char *L = dir_letter[d];
			size_t nb, nc;
			double *rb = bsgroup_rates(bg, d, bf, &nb), *rcand = bsgroup_rates(cg, d, cf, &nc);
			double mb, mc, pv;
			char pbuf[32];

			if (!nb || !nc) {
				free(rb);
				free(rcand);
				continue;
			}
			mb = stat_mean(rb, nb);
			mc = stat_mean(rcand, nc);
			if (mb > 0)
				table_setf(t, row, dec_quot(mc, mb), "%s_ratio", L);
			pv = stat_welch_p(rcand, nc, rb, nb, NULL, NULL);
			free(rb);
			free(rcand);
			if (isnan(pv))
				snprintf(pbuf, sizeof(pbuf), "n/a");
			else
				snprintf(pbuf, sizeof(pbuf), "%.3f", pv);
			snprintf(key, sizeof(key), "%s(p)", L);
			table_sets(t, row, key, pbuf);
			table_setf(t, row, pv, "%s_p", L);
			table_setf(t, row, mb / 1048576, "%s_base_MBps", L);
			table_setf(t, row, mc / 1048576, "%s_cand_MBps", L);
			rc = xrealloc(rc, (nrc + 1) * sizeof(*rc));
			rc[nrc++] = (struct rcell){ row, d, pv };
		}
	}
	if (!t->nrows) {
		warnx_("ratio: baseline and candidate have no %s in common",
		       strcmp(sl->axis, "bs") ? sl->axis : "block size");
		table_free(t);
		free(rc);
		return -1;
	}
	/* Holm over every cell tested in this table */
	p = xmalloc((nrc ? nrc : 1) * sizeof(*p));
	adj = xmalloc((nrc ? nrc : 1) * sizeof(*adj));
	for (i = 0; i < nrc; i++)
		p[i] = rc[i].p;
	stat_holm(p, nrc, adj);
	for (i = 0; i < nrc; i++) {
		const char *L = dir_letter[rc[i].dir];
		char pbuf[32];

		if (isnan(adj[i])) {
			snprintf(pbuf, sizeof(pbuf), "n/a");
		} else {
			ntested++;
			nsig += adj[i] < o->alpha;
			snprintf(pbuf, sizeof(pbuf), "%.3f%s", adj[i], adj[i] < o->alpha ? "*" : "");
			table_setf(t, rc[i].row, adj[i], "%s_p_holm", L);
			table_setf(t, rc[i].row, adj[i] < o->alpha, "%s_significant", L);
		}
		snprintf(key, sizeof(key), "%s(p.adj)", L);
		table_sets(t, rc[i].row, key, pbuf);
	}
	free(p);
	free(adj);
	free(rc);
	table_note(t, "p: Welch's t-test (two-sided) on the per-run rates of each cell; p.adj: Holm's adjustment over the %zu cells tested in this table",
		   ntested);
	table_note(t, "'*' = p.adj < %g (%zu cell%s): there the two sides' mean rates differ by more than their run-to-run spread explains, and the chance that any '*' of this table is noise is below %g; no '*' does not show equal rates (few runs detect only large differences); n/a = fewer than 2 runs on a side, or no spread on either side with different means (fio times runs in whole ms: equal runs may be its rounding alone)",
		   o->alpha, nsig, nsig == 1 ? "" : "s", o->alpha);
	tablist_add(out, t);
	return 0;
}
