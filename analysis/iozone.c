// SPDX-License-Identifier: GPL-2.0-only
/*
 * iozone's auto-mode table (seed 003), with iozone's printf widths:
 * header "%16s%8s%8s%8s%8s%10s%8s%8s", rows "%16ld%8ld%8ld%8ld%9ld%9ld%8ld%8ld"
 * (the blog in seed 003 shows the same lines with the first 9 columns cut).
 * KB is the file size in KiB, rates are KiB/s rounded to integers.
 *
 * Phases come from job names "iozone-<phase>-<reclen>" (when any job is named
 * so, the others are ignored); without such names jobs get theirs from order within (target, reclen): first sequential write
 * = write, second = rewrite, likewise read/reread, then randread/randwrite.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "identity.h"
#include "phase.h"

enum { P_WRITE, P_REWRITE, P_READ, P_REREAD, P_RANDREAD, P_RANDWRITE, NPHASE };

static const char *const phases[] = { "write", "rewrite", "read", "reread", "randread",
				      "randwrite", NULL };
static const char *const keys[] = { "write", "rewrite", "read", "reread", "random_read",
				    "random_write" };

/* A name iozone's tables claim: "iozone-" in any case. */
static int iozone_name(const struct job *j)
{
	return !strncasecmp(j->name, "iozone-", 7);
}

/* Phase and reclen from "iozone-<phase>-<reclen>", or -1. */
static int named_phase(const struct job *j, uint64_t *reclen)
{
	const char *p, *dash;
	int ph;

	if (strncmp(j->name, "iozone-", 7))
		return -1;
	p = j->name + 7;
	dash = strchr(p, '-');
	if (!dash)
		return -1;
	ph = phase_index(phases, p, (size_t)(dash - p));
	if (ph < 0 || fio_parse_size(dash + 1, 1024, reclen))
		return -1;
	return ph;
}

static int dir_of(int ph)
{
	return (ph == P_WRITE || ph == P_REWRITE || ph == P_RANDWRITE) ? DIR_WRITE : DIR_READ;
}

static int by_order(const struct job *j, struct phase_row *r)
{
	int rnd = !strncmp(j->conf->rw, "rand", 4);

	if (j->d[DIR_WRITE]->present && !j->d[DIR_READ]->present) {
		if (rnd)
			return P_RANDWRITE;
		return r->ph[P_WRITE] ? P_REWRITE : P_WRITE;
	}
	if (j->d[DIR_READ]->present && !j->d[DIR_WRITE]->present) {
		if (rnd)
			return P_RANDREAD;
		return r->ph[P_READ] ? P_REREAD : P_READ;
	}
	return -1;
}

static struct table *render(const struct phase_table *pt)
{
	static const char *const h0[] = { "", "", "", "", "random", "random" };
	static const char *const h1[] = { "write", "rewrite", "read", "reread", "read", "write" };
	static const int w[] = { 8, 8, 9, 9, 8, 8 }, hw[] = { 8, 8, 8, 10, 8, 8 };
	struct table *t = table_new("iozone", 2);
	struct col *c;
	size_t i;
	int k, row;

	phase_table_header(t, pt, "iozone");
	table_note(t, "KB = file size in KiB, rates in KiB/s");
	c = table_col(t, "KB", "KiB", COL_INT, 16, 0, "");
	col_hdr(c, "", "KB", NULL);
	col_tag(c, "file_kb");
	c = table_col(t, "reclen", "KiB", COL_INT, 8, 0, "");
	col_hdr(c, "", "reclen", NULL);
	col_tag(c, "reclen_kb");
	for (k = 0; k < NPHASE; k++) {
		char tags[32];

		c = table_col(t, keys[k], "KiB/s", COL_INT, w[k], 0, "");
		c->hwidth = hw[k];
		col_hdr(c, h0[k], h1[k], NULL);
		snprintf(tags, sizeof(tags), "phase=%s", keys[k]);
		col_metric(c, "throughput_bytes_per_second", 1024, tags);
	}
	for (i = 0; i < pt->nrows; i++) {
		const struct phase_row *r = &pt->rows[i];

		row = table_row(t);
		table_set(t, row, "KB", (double)r->kb);
		table_set(t, row, "reclen", (double)r->reclen / 1024);
		for (k = 0; k < NPHASE; k++) {
			const struct dirstat *d;

			if (!r->ph[k])
				continue;
			d = r->ph[k]->d[dir_of(k)];
			if (d->runtime_s > 0)
				table_set(t, row, keys[k], round(d->io_bytes / 1024 / d->runtime_s));
		}
	}
	return t;
}

static int row_cmp(const void *a, const void *b)
{
	const struct phase_row *x = a, *y = b;

	if (x->kb != y->kb)
		return x->kb < y->kb ? -1 : 1;
	return (x->reclen > y->reclen) - (x->reclen < y->reclen);
}

/* A job named for the table that the table cannot take: refused (@why is freed). */
static int named_refused(struct phase_set *set, const struct job *j, char *why)
{
	warnx_("iozone: job %s (%s, run %u) refused: %s", job_ref(j->name, j->host), j->doc->file, j->doc->run, why);
	free(why);
	phase_set_free(set);
	return -1;
}

int iozone_tables(const struct jobset *js, struct tablist *out)
{
	struct phase_set set = { 0 };
	size_t i;
	int used = 0, named = 0;
	uint64_t rl;

	/* named jobs, when there are any, are the whole profile */
	for (i = 0; i < js->n && !named; i++)
		named = named_phase(&js->v[i], &rl) >= 0;
	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];
		uint64_t reclen = 0, kb;
		struct phase_table *pt;
		struct phase_row *r;
		int ph = named_phase(j, &reclen), d;

		if (named && ph < 0) {
			if (iozone_name(j))
				return named_refused(&set, j, xstrdup("its name is not iozone-<phase>-<reclen> (phases write, rewrite, read, reread, randread, randwrite; reclen a fio size such as 4k)"));
			warnx_("iozone: job %s (%s, run %u) left out (not named iozone-<phase>-<reclen>, and other jobs are)",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run);
			continue;
		}
		if (ph < 0)
			reclen = j->d[j->d[DIR_WRITE]->present ? DIR_WRITE : DIR_READ]->bs;
		d = ph >= 0 ? dir_of(ph) : (j->d[DIR_WRITE]->present ? DIR_WRITE : DIR_READ);
		if (!j->d[d]->present) {
			if (ph >= 0)
				return named_refused(&set, j, xasprintf("its phase %s moved no %s bytes", phases[ph], dir_name[d]));
			continue;
		}
		if (ph >= 0 && reclen != j->d[d]->bs)
			return named_refused(&set, j, xasprintf("reclen %llu bytes from its name, but it moved %llu bytes an I/O (%s): a record length is the measured transfer size (iozone's reclen is in KiB: name it -<N>k)",
								 (unsigned long long)reclen, (unsigned long long)j->d[d]->bs,
								 j->conf->mean_bs ? "fio's mean transfer size" : j->conf->bs_from));
		/* KB is the file's size, not the bytes moved (io_size=, loops=, time_based) */
		if (!j->conf->file_size) {
			warnx_("iozone: job %s (%s, run %u) refused: KB is the file size, and %s",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run, j->conf->file_size_from);
			phase_set_free(&set);
			return -1;
		}
		/* iozone's KB and reclen are whole KiB: a rest would be cut off unseen */
		if (j->conf->file_size % 1024 || reclen % 1024) {
			warnx_("iozone: job %s (%s, run %u) refused: %s %llu bytes is not a whole number of KiB, iozone's unit (kb_base=1000?)",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run,
			       reclen % 1024 ? "its record length" : "its file size",
			       (unsigned long long)(reclen % 1024 ? reclen : j->conf->file_size));
			phase_set_free(&set);
			return -1;
		}
		/*
		 * iozone's auto table is one process on one file of KB: clones'
		 * records (one each, or their sum with group_reporting) are not
		 */
		if (j->conf->numjobs > 1) {
			warnx_("iozone: job %s (%s, run %u) refused: numjobs=%d, so its rate is %d jobs' (each on a file of KB), where iozone's auto table is one process; give it numjobs=1 (the summary table shows the group)",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run, j->conf->numjobs,
			       j->conf->numjobs);
			phase_set_free(&set);
			return -1;
		}
		kb = j->conf->file_size / 1024;
		pt = phase_table_of(&set, j);
		r = phase_row_of(pt, kb, reclen);
		if (ph < 0)
			ph = by_order(j, r);
		if (ph < 0) {
			warnx_("iozone: job %s (%s, run %u) left out (mixed read/write: no iozone phase)",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run);
			continue;
		}
		if (r->ph[ph]) {
			/* two runs of one phase: taking either would hide the other */
			warnx_("iozone: job %s (%s, run %u) and job %s (%s, run %u) are the same phase of target %s: an iozone table holds one run; give it one run's results",
			       job_ref(r->ph[ph]->name, r->ph[ph]->host), r->ph[ph]->doc->file, r->ph[ph]->doc->run,
			       job_ref(j->name, j->host), j->doc->file,
			       j->doc->run, j->conf->target);
			phase_set_free(&set);
			return -1;
		}
		r->ph[ph] = j;
		used = 1;
	}
	for (i = 0; i < set.n; i++) {
		if (set.v[i].nrows)
			qsort(set.v[i].rows, set.v[i].nrows, sizeof(struct phase_row), row_cmp);
		tablist_add(out, render(&set.v[i]));
	}
	phase_set_free(&set);
	if (!used) {
		warnx_("iozone: no usable jobs");
		return -1;
	}
	return 0;
}
