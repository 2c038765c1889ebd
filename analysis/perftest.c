// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockdev-perftest's table (SCST scripts/blockdev-perftest), byte for byte:
 *
 *   header  printf "%9s " then "%8s " per cell, two lines, the last cell
 *           without its blank
 *   rows    printf "%9d " block size, "%8.3f " per iteration time, then the
 *           awk's avg, std and IOPS, block sizes descending
 *
 * with rᵢ = bytes/tᵢ over the iterations with tᵢ > 0:
 * avg = mean(rᵢ)/2²⁰, std = sqrt(mean(rᵢ²) - mean(rᵢ)²)/2²⁰, IOPS = mean(rᵢ)/bs.
 * Writes come first (W), then reads (R), always both: a test the script
 * did not run (a read-only series) contributes a time of 0 per iteration,
 * and its awk, left with no time > 0, prints 0 for avg, std and IOPS.  Those
 * zeros are text only (no dashboard metric) and a note says so.  The script
 * labels the read std column "R(std" (no comma): kept.  Beyond the script: fio's "mixed" direction (unified_rw_reporting)
 * as M, and axes other than the block size (--x iodepth: the first column
 * is the iodepth, ascending).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "stats.h"
#include "tables.h"

static const int order[] = { DIR_WRITE, DIR_READ, DIR_MIXED };
#define NORDER (sizeof(order) / sizeof(*order))

/* The first column: the block size as the script has it, or the axis. */
struct col *axis_col(struct table *t, const struct serieslist *sl)
{
	struct col *c;

	if (!strcmp(sl->axis, "bs")) {
		c = table_col(t, "blocksize", "bytes", COL_INT, 9, 0, " ");
		col_hdr(c, "blocksize", "(bytes)", NULL);
	} else {
		c = table_col(t, sl->axis, NULL, sl->numeric ? COL_INT : COL_STR, 9, 0, " ");
		col_hdr(c, sl->axis, "", NULL);
	}
	col_tag(c, sl->axis);
	return c;
}

void axis_cell(struct table *t, const struct serieslist *sl, int row, const struct bsgroup *g)
{
	if (!strcmp(sl->axis, "bs"))
		table_set(t, row, "blocksize", (double)g->bs);
	else if (sl->numeric)
		table_set(t, row, sl->axis, g->x);
	else
		table_sets(t, row, sl->axis, g->xs);
}

/*
 * A half's avg, std and IOPS columns (W(avg, MB/s) ...), metrics unless the
 * half only prints zeros (@zero); returns the last.
 */
static struct col *rate_cols(struct table *t, int dir, int zero, const char *tags)
{
	const char *L = dir_letter[dir];
	struct col *c;
	char key[64];

	snprintf(key, sizeof(key), "%s_avg_MBps", L);
	c = table_col(t, key, "MB/s", COL_NUM, 8, 3, " ");
	snprintf(key, sizeof(key), "%s(avg,", L);
	col_hdr(c, key, "MB/s)", NULL);
	if (!zero)
		col_metric(c, "throughput_bytes_per_second", 1048576, tags);
	snprintf(key, sizeof(key), "%s_std_MBps", L);
	c = table_col(t, key, "MB/s", COL_NUM, 8, 3, " ");
	snprintf(key, sizeof(key), dir == DIR_WRITE ? "%s(std," : "%s(std", L);
	col_hdr(c, key, ",MB/s)", NULL);
	if (!zero)
		col_metric(c, "throughput_std_bytes_per_second", 1048576, tags);
	snprintf(key, sizeof(key), "%s_IOPS", L);
	c = table_col(t, key, "IOPS", COL_NUM, 8, 3, " ");
	col_hdr(c, L, "(IOPS)", NULL);
	if (!zero)
		col_metric(c, "iops", 1, tags);
	return c;
}

/* The zeros of a half the series did not run, as blockdev-perftest prints them. */
static void zero_rates(struct table *t, int row, const char *L)
{
	table_setf(t, row, 0, "%s_avg_MBps", L);
	table_setf(t, row, 0, "%s_std_MBps", L);
	table_setf(t, row, 0, "%s_IOPS", L);
}

double fold_meta(struct table *t, const struct series *const *sv, const struct fold *const *fv,
		 size_t ns)
{
	struct fold_facts ff;
	struct jobdoc *vd;
	struct job *vj;
	const struct job **vp;
	size_t i, k, v;

	fold_facts(sv, fv, ns, &ff);
	/* note_versions() reads each job's document's version */
	vd = xcalloc(ff.nvers ? ff.nvers : 1, sizeof(*vd));
	vj = xcalloc(ff.nvers ? ff.nvers : 1, sizeof(*vj));
	vp = xcalloc(ff.nvers ? ff.nvers : 1, sizeof(*vp));
	for (i = k = 0; i < ff.nvers; i++) {
		for (v = 0; v < k && vd[v].version != ff.vers[i]; v++)
			;
		if (v < k)
			continue;
		vd[k].version = ff.vers[i];
		vj[k].doc = &vd[k];
		vp[k] = &vj[k];
		k++;
	}
	note_versions(t, vp, k);
	free(ff.vers);
	free(vd);
	free(vj);
	free(vp);
	return ff.ts;
}

/* The iterations of direction @dir on point @bg: those of its classes. */
static size_t point_count(const struct bsgroup *bg, int dir, const struct fold *f)
{
	size_t i, n = 0;

	for (i = 0; i < bg->n[dir]; i++) {
		const struct foldcls *fc = fold_class(f, bg->it[dir][i].d);

		if (fc)
			n += fc->n[dir];
	}
	return n;
}

/*
 * A job that read and wrote at once (rw=randrw, readwrite) gives a point
 * both its halves from one run, the two directions sharing the target,
 * where blockdev-perftest's W and R are a write run and a read run apart:
 * said, naming the first such job.  So is a job whose W or R ran with
 * I/O no half shows: trims (rw=trimwrite, trim_percentage: left out,
 * group.c) or verify's reads among its writes (verify_backlog: left out,
 * jobs.c), which fio's runtime of the direction holds too.
 */
static void both_dirs_note(struct table *t, const struct series *s)
{
	int both = 0, trim = 0, backlog = 0;
	const char *vb;
	size_t i;

	for (i = 0; i < s->njobs; i++) {
		const struct job *j = s->jobs[i];
		const char *h = j->d[DIR_WRITE]->present ? "W" : "R";

		if (!both && j->d[DIR_READ]->present && j->d[DIR_WRITE]->present) {
			table_note(t, "W and R: job %s (rw=%s) read and wrote at once: its W and R are one run's two directions sharing the target, not blockdev-perftest's write and read runs apart",
				   job_ref(j->name, j->host), j->conf->rw);
			both = 1;
		}
		if (!trim && j->d[DIR_TRIM]->present &&
		    (j->d[DIR_READ]->present || j->d[DIR_WRITE]->present)) {
			table_note(t, "%s: job %s (rw=%s) trimmed as it ran: fio's runtime of its %s holds its trims too (left out here; summary and dd show them), so its %s is not that of a %s run alone",
				   h, job_ref(j->name, j->host), j->conf->rw, *h == 'W' ? "writes" : "reads",
				   h, *h == 'W' ? "write" : "read");
			trim = 1;
		}
		vb = job_opt(j, "verify_backlog");
		if (!backlog && j->conf->verify && j->d[DIR_WRITE]->present && vb && strcmp(vb, "0")) {
			table_note(t, "W: job %s (verify_backlog=%s) verified among its writes: fio's runtime of its writes holds those verify reads too, so its W is not that of a write run alone",
				   job_ref(j->name, j->host), vb);
			backlog = 1;
		}
	}
}

static struct table *one_folded(const struct serieslist *sl, const struct series *s,
				const struct fold *f)
{
	struct table *t = table_new("perftest", 2);
	size_t iters[NDIR] = { 0 }, nrw, g, i, o;
	int zero[NDIR] = { 0 };	/* a W or R half the series did not run */
	struct col *c = NULL;
	double ts = 0;
	int dir, row, c0 = 0;
	char key[64], tags[64];

	t->title = series_title(s);
	ts = fold_meta(t, &s, &f, 1);
	series_tags(s, t);
	if (s->tied && *s->tied)
		table_note(t, "%s: one value per %s, changing with it", s->tied, sl->axis);
	both_dirs_note(t, s);
	t->timestamp = ts;
	for (g = 0; g < s->ng; g++)
		for (dir = 0; dir < NDIR; dir++) {
			size_t n = point_count(&s->g[g], dir, f);

			if (n > iters[dir])
				iters[dir] = n;
		}

	/* the script's W and R halves: a half it did not run has as many zeros */
	nrw = iters[DIR_WRITE] > iters[DIR_READ] ? iters[DIR_WRITE] : iters[DIR_READ];
	for (dir = DIR_READ; dir <= DIR_WRITE; dir++)
		if (nrw && !iters[dir]) {
			zero[dir] = 1;
			iters[dir] = nrw;
			table_note(t, "%s: no %s job in this series; its half prints zeros, as blockdev-perftest prints a test it did not run (no Influx or Prometheus metric)",
				   dir_letter[dir], dir_name[dir]);
		}

	axis_col(t, sl);
	for (o = 0; o < NORDER; o++) {
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
			if (!zero[dir])
				col_metric(c, "iteration_seconds", 1, it);
		}
		c = rate_cols(t, dir, zero[dir], tags);
	}
	/* the script's header lines end with the last cell, its rows with a blank */
	c->hsep = "";

	for (g = 0; g < s->ng; g++) {
		const struct bsgroup *bg = &s->g[g];

		row = table_row(t);
		axis_cell(t, sl, row, bg);
		for (o = 0; o < NORDER; o++) {
			const char *L;
			const double *rt, *io;
			double *r, *own, m;
			size_t n, k;

			dir = order[o];
			L = dir_letter[dir];
			if (iters[dir]) {
				/* the iteration columns were made one after another */
				snprintf(key, sizeof(key), "%s1_s", L);
				c0 = table_colidx(t, key);
			}
			if (zero[dir]) {
				for (i = 0; i < nrw; i++)
					table_num(t, row, c0 + (int)i, 0);
				zero_rates(t, row, L);
				continue;
			}
			n = fold_iters(bg, dir, f, &rt, &io, NULL, &own);
			for (i = 0; i < n; i++)
				table_num(t, row, c0 + (int)i, rt[i]);
			if (!n)
				continue;
			/* bsgroup_rates() of these */
			r = xmalloc(n * sizeof(*r));
			for (i = k = 0; i < n; i++)
				if (rt[i] > 0)
					r[k++] = per_s(io[i], rt[i]);
			free(own);
			n = k;
			if (n) {
				m = stat_mean(r, n);
				table_setf(t, row, m / 1048576, "%s_avg_MBps", L);
				table_setf(t, row, stat_pstd(r, n) / 1048576, "%s_std_MBps", L);
				if (bg->dbs[dir])
					table_setf(t, row, m / (double)bg->dbs[dir], "%s_IOPS", L);
			}
			free(r);
		}
	}
	return t;
}

/*
 * --no-iterations: the table above without its per-iteration time
 * columns, from the sums of each configuration class (group.h): the
 * blocksize column, then avg, std and IOPS of W, R (and M), the same
 * numbers (a point of one class sums its rates in input order, as the
 * full table does; of several, class by class).
 */
static struct table *one_summary(const struct serieslist *sl, const struct series *s,
				 const struct fold *f)
{
	struct table *t = table_new("perftest", 2);
	int has[NDIR] = { 0 }, zero[NDIR] = { 0 };
	size_t maxn = 0, g, i, o;
	struct col *c = NULL;
	double ts;
	int dir, row;
	char tags[64];

	t->title = series_title(s);
	ts = fold_meta(t, &s, &f, 1);
	for (g = 0; g < s->ng; g++)
		for (dir = 0; dir < NDIR; dir++) {
			size_t nd = point_count(&s->g[g], dir, f);

			if (nd)
				has[dir] = 1;
			if (nd > maxn)
				maxn = nd;
		}
	series_tags(s, t);
	if (s->tied && *s->tied)
		table_note(t, "%s: one value per %s, changing with it", s->tied, sl->axis);
	both_dirs_note(t, s);
	t->timestamp = ts;
	for (dir = DIR_READ; dir <= DIR_WRITE; dir++)
		if (!has[dir] && (has[DIR_READ] || has[DIR_WRITE])) {
			zero[dir] = has[dir] = 1;
			table_note(t, "%s: no %s job in this series; its half prints zeros, as blockdev-perftest prints a test it did not run (no Influx or Prometheus metric)",
				   dir_letter[dir], dir_name[dir]);
		}
	table_note(t, "--no-iterations: avg, std and IOPS over up to %zu iterations a point; their times are not shown",
		   maxn);

	axis_col(t, sl);
	for (o = 0; o < NORDER; o++) {
		dir = order[o];
		if (!has[dir])
			continue;
		snprintf(tags, sizeof(tags), "rw=%s", dir_name[dir]);
		c = rate_cols(t, dir, zero[dir], tags);
	}
	c->hsep = "";

	for (g = 0; g < s->ng; g++) {
		const struct bsgroup *bg = &s->g[g];

		row = table_row(t);
		axis_cell(t, sl, row, bg);
		for (o = 0; o < NORDER; o++) {
			const char *L;
			double sum = 0, sum2 = 0, m, var, lo = 0, hi = 0;
			size_t nr = 0, nn = 0;

			dir = order[o];
			L = dir_letter[dir];
			if (zero[dir]) {
				zero_rates(t, row, L);
				continue;
			}
			for (i = 0; i < bg->n[dir]; i++) {
				const struct foldcls *fc = fold_class(f, bg->it[dir][i].d);

				if (!fc)
					continue;	/* a kept job of a class already counted */
				if (!nn++) {
					sum = fc->s[dir];
					sum2 = fc->s2[dir];
				} else {
					sum += fc->s[dir];
					sum2 += fc->s2[dir];
				}
				if (fc->nr[dir] && (!nr || fc->rlo[dir] < lo))
					lo = fc->rlo[dir];
				if (fc->nr[dir] && (!nr || fc->rhi[dir] > hi))
					hi = fc->rhi[dir];
				nr += fc->nr[dir];
			}
			if (!nr)
				continue;
			/* stat_mean() and stat_pstd() of the rates (equal ones: std 0) */
			m = sum / (double)nr;
			var = lo == hi ? 0 : sum2 / (double)nr - (sum / (double)nr) * (sum / (double)nr);
			table_setf(t, row, m / 1048576, "%s_avg_MBps", L);
			table_setf(t, row, (var > 0 ? sqrt(var) : 0) / 1048576, "%s_std_MBps", L);
			if (bg->dbs[dir])
				table_setf(t, row, m / (double)bg->dbs[dir], "%s_IOPS", L);
		}
	}
	return t;
}

int perftest_fold_tables(const struct serieslist *sl, const struct fold *f, int no_iter,
			 struct tablist *out)
{
	size_t i;
	int any = 0;

	for (i = 0; i < sl->n; i++) {
		if (!sl->v[i].ng)
			continue;
		tablist_add(out, no_iter ? one_summary(sl, &sl->v[i], f) :
					   one_folded(sl, &sl->v[i], f));
		any = 1;
	}
	if (!any) {
		warnx_("perftest: no usable jobs (no read or write moved any data%s)",
		       sl->n ? "" : ", or none matched --series");
		return -1;
	}
	return 0;
}
