// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockdev-perftest's table (SCST scripts/blockdev-perftest), byte for byte:
 *
 *   header  printf "%9s " then "%8s " per cell, two lines
 *   rows    printf "%9d " block size, "%8.3f " per iteration time, then the
 *           awk's avg, std and IOPS, block sizes descending
 *
 * with rᵢ = bytes/tᵢ over the iterations with tᵢ > 0:
 * avg = mean(rᵢ)/2²⁰, std = sqrt(mean(rᵢ²) - mean(rᵢ)²)/2²⁰, IOPS = mean(rᵢ)/bs.
 * Writes come first (W), then reads (R); a read-only series prints only R.
 * The script labels the read std column "R(std" (no comma): kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tables.h"

static const int order[] = { DIR_WRITE, DIR_READ };

static struct table *one_series(const struct series *s)
{
	struct table *t = table_new("perftest", 2);
	size_t iters[NDIR] = { 0 }, g, i;
	int o, dir, col, row;
	double ts = 0;
	struct col *c;
	char key[64], tags[64];

	t->title = series_title(s);
	note_versions(t, s->jobs, s->njobs);
	series_tags(s, t);
	for (i = 0; i < s->njobs; i++)
		if (s->jobs[i]->timestamp > ts)
			ts = s->jobs[i]->timestamp;
	t->timestamp = ts;
	for (g = 0; g < s->ng; g++)
		for (dir = 0; dir < NDIR; dir++)
			if (s->g[g].n[dir] > iters[dir])
				iters[dir] = s->g[g].n[dir];

	c = table_col(t, "blocksize", "bytes", COL_INT, 9, 0, " ");
	col_hdr(c, "blocksize", "(bytes)", NULL);
	col_tag(c, "bs");
	for (o = 0; o < 2; o++) {
		const char *L;

		dir = order[o];
		if (!iters[dir])
			continue;
		L = dir_letter[dir];
		snprintf(tags, sizeof(tags), "rw=%s", dir_name[dir]);
		for (i = 0; i < iters[dir]; i++) {
			char it[160];

			snprintf(key, sizeof(key), "%s%zu_s", L, i + 1);
			c = table_col(t, key, "s", COL_NUM, 8, 3, " ");
			col_hdr(c, L, "(s)", NULL);
			snprintf(it, sizeof(it), "%s" TAGSEP "iteration=%zu", tags, i + 1);
			col_metric(c, "iteration_seconds", 1, it);
		}
		snprintf(key, sizeof(key), "%s(avg,", L);
		c = table_col(t, "", "MB/s", COL_NUM, 8, 3, " ");
		free(c->key);
		c->key = xasprintf("%s_avg_MBps", L);
		col_hdr(c, key, "MB/s)", NULL);
		col_metric(c, "throughput_bytes_per_second", 1048576, tags);
		c = table_col(t, "", "MB/s", COL_NUM, 8, 3, " ");
		free(c->key);
		c->key = xasprintf("%s_std_MBps", L);
		col_hdr(c, dir == DIR_WRITE ? "W(std," : "R(std", ",MB/s)", NULL);
		col_metric(c, "throughput_std_bytes_per_second", 1048576, tags);
		c = table_col(t, "", "IOPS", COL_NUM, 8, 3, " ");
		free(c->key);
		c->key = xasprintf("%s_IOPS", L);
		col_hdr(c, L, "(IOPS)", NULL);
		col_metric(c, "iops", 1, tags);
	}

	for (g = 0; g < s->ng; g++) {
		const struct bsgroup *bg = &s->g[g];

		row = table_row(t);
		table_num(t, row, 0, (double)bg->bs);
		col = 1;
		for (o = 0; o < 2; o++) {
			double *r, m;
			size_t n;

			dir = order[o];
			if (!iters[dir])
				continue;
			for (i = 0; i < iters[dir]; i++, col++)
				if (i < bg->n[dir])
					table_num(t, row, col, bg->it[dir][i].t);
			r = bsgroup_rates(bg, dir, &n);
			if (n) {
				m = stat_mean(r, n);
				table_num(t, row, col, m / 1048576);
				table_num(t, row, col + 1, stat_pstd(r, n) / 1048576);
				if (bg->bs)
					table_num(t, row, col + 2, m / (double)bg->bs);
			}
			free(r);
			col += 3;
		}
	}
	return t;
}

int perftest_tables(const struct serieslist *sl, struct tablist *out)
{
	size_t i;
	int any = 0;

	for (i = 0; i < sl->n; i++) {
		if (!sl->v[i].ng)
			continue;
		tablist_add(out, one_series(&sl->v[i]));
		any = 1;
	}
	if (!any) {
		warnx_("perftest: no usable jobs (no read or write moved any data%s)",
		       sl->n ? "" : ", or none matched --series");
		return -1;
	}
	return 0;
}
