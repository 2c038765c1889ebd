// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "Ratio of file I/O throughput to block I/O throughput" table of seed
 * 000: candidate avg / baseline avg per block size and direction, "%.2f".
 *
 * Beyond the thread, which drew conclusions from three runs: each ratio gets
 * the two-sided p-value of Welch's t-test on the per-run rates of both
 * sides, marked '*' when below alpha, i.e. when the difference is
 * distinguishable from run-to-run noise.  With fewer than two runs on a side
 * there is no test ("n/a").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tables.h"

static const int order[] = { DIR_WRITE, DIR_READ };

static const struct bsgroup *find_bs(const struct series *s, uint64_t bs)
{
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (s->g[i].bs == bs)
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

int ratio_table(const struct series *base, const struct series *cand,
		const struct ratio_opts *o, struct tablist *out)
{
	struct table *t = table_new("ratio", 2);
	const struct job **jobs;
	int dirs[2], nd = 0, k, row, col;
	char key[64], tags[32], *bt, *ct;
	struct col *c;
	size_t i;

	for (k = 0; k < 2; k++)
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
	jobs = xmalloc((base->njobs + cand->njobs) * sizeof(*jobs));
	memcpy(jobs, base->jobs, base->njobs * sizeof(*jobs));
	memcpy(jobs + base->njobs, cand->jobs, cand->njobs * sizeof(*jobs));
	note_versions(t, jobs, base->njobs + cand->njobs);
	for (i = 0; i < base->njobs + cand->njobs; i++)
		if (jobs[i]->timestamp > t->timestamp)
			t->timestamp = jobs[i]->timestamp;
	free(jobs);
	table_note(t, "p: Welch's t-test on the per-run rates (two-sided); '*' = p < %g: the ratio is distinguishable from run-to-run noise; n/a = fewer than 2 runs",
		   o->alpha);
	if (base->modeled != cand->modeled || base->scale != cand->scale)
		table_note(t, "WARNING: baseline is %s, candidate is %s",
			   base->modeled ? "modeled (coop_backend=sim)" : "real",
			   cand->modeled ? "modeled (coop_backend=sim)" : "real");
	table_tag(t, "baseline", base->label);
	table_tag(t, "candidate", cand->label);

	c = table_col(t, "blocksize", "bytes", COL_INT, 9, 0, " ");
	col_hdr(c, "blocksize", "(bytes)", NULL);
	col_tag(c, "bs");
	for (k = 0; k < nd; k++) {
		snprintf(key, sizeof(key), "%s_ratio", dir_letter[dirs[k]]);
		snprintf(tags, sizeof(tags), "rw=%s", dir_name[dirs[k]]);
		c = table_col(t, key, NULL, COL_NUM, 8, 2, " ");
		col_hdr(c, dir_letter[dirs[k]], NULL, NULL);
		col_metric(c, "ratio", 1, tags);
	}
	for (k = 0; k < nd; k++) {
		snprintf(key, sizeof(key), "%s(p)", dir_letter[dirs[k]]);
		c = table_col(t, key, NULL, COL_STR, 8, 0, " ");
		col_hdr(c, key, NULL, NULL);
		c->flags |= COL_TEXT_ONLY;
	}
	for (k = 0; k < nd; k++) {
		snprintf(tags, sizeof(tags), "rw=%s", dir_name[dirs[k]]);
		snprintf(key, sizeof(key), "%s_p", dir_letter[dirs[k]]);
		c = table_col(t, key, NULL, COL_NUM, 0, 4, " ");
		c->flags |= COL_DATA_ONLY;
		col_metric(c, "welch_p", 1, tags);
		snprintf(key, sizeof(key), "%s_significant", dir_letter[dirs[k]]);
		c = table_col(t, key, NULL, COL_INT, 0, 0, " ");
		c->flags |= COL_DATA_ONLY;
		snprintf(key, sizeof(key), "%s_base_MBps", dir_letter[dirs[k]]);
		c = table_col(t, key, "MB/s", COL_NUM, 0, 3, " ");
		c->flags |= COL_DATA_ONLY;
		snprintf(key, sizeof(key), "%s_cand_MBps", dir_letter[dirs[k]]);
		c = table_col(t, key, "MB/s", COL_NUM, 0, 3, " ");
		c->flags |= COL_DATA_ONLY;
	}

	for (i = 0; i < base->ng; i++) {
		const struct bsgroup *bg = &base->g[i], *cg = find_bs(cand, bg->bs);

		if (!cg)
			continue;
		row = table_row(t);
		table_num(t, row, 0, (double)bg->bs);
		for (k = 0; k < nd; k++) {
			int d = dirs[k];
			size_t nb, nc;
			double *rb = bsgroup_rates(bg, d, &nb), *rc = bsgroup_rates(cg, d, &nc);
			double mb, mc, p;
			char pbuf[32];

			if (!nb || !nc) {
				free(rb);
				free(rc);
				continue;
			}
			mb = stat_mean(rb, nb);
			mc = stat_mean(rc, nc);
			if (mb > 0)
				table_num(t, row, 1 + k, mc / mb);
			p = stat_welch_p(rc, nc, rb, nb, NULL, NULL);
			free(rb);
			free(rc);
			if (isnan(p))
				snprintf(pbuf, sizeof(pbuf), "n/a");
			else
				snprintf(pbuf, sizeof(pbuf), "%.3f%s", p, p < o->alpha ? "*" : "");
			table_str(t, row, 1 + nd + k, pbuf);
			col = 1 + 2 * nd + 4 * k;
			table_num(t, row, col, p);
			if (!isnan(p))
				table_num(t, row, col + 1, p < o->alpha);
			table_num(t, row, col + 2, mb / 1048576);
			table_num(t, row, col + 3, mc / 1048576);
		}
	}
	if (!t->nrows) {
		warnx_("ratio: baseline and candidate have no block size in common");
		table_free(t);
		return -1;
	}
	tablist_add(out, t);
	return 0;
}
