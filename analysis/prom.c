// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prometheus text exposition format 0.0.4: gauges named
 * fiotab_<table>_<field> in base units (bytes_per_second, seconds, ratio),
 * labels from the table/row/column tags.  All samples of a family must be
 * contiguous under one HELP/TYPE, so samples are collected and sorted by
 * family first (stable: input order within a family).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "metrics.h"

struct psample {
	char *family;
	char *line;
	const char *help, *key;
	size_t seq;
};

struct pcoll {
	struct psample *v;
	size_t n, cap;
};

static void name_part(char *out, size_t len, const char *s)
{
	size_t n = strlen(out);

	for (; *s && n + 1 < len; s++, n++)
		out[n] = ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			  (*s >= '0' && *s <= '9')) ? *s : '_';
	out[n] = '\0';
}

/*
 * HELP per field, for a person reading the exposition (or Grafana's
 * metric browser); the table and column keys are in the labels and names.
 */
static const struct {
	const char *field, *help;
} helps[] = {
	{ "throughput_bytes_per_second", "Throughput in bytes per second (fio io_bytes / runtime; mean over iterations in perftest)" },
	{ "throughput_std_bytes_per_second", "Standard deviation of the throughput over the iterations, bytes per second" },
	{ "iteration_seconds", "Run time of one iteration (fio runtime), seconds" },
	{ "iops", "I/O operations per second as fio reports them" },
	{ "clat_p50_seconds", "Median completion latency (fio clat 50th percentile), seconds" },
	{ "clat_p99_seconds", "99th percentile completion latency (fio clat), seconds" },
	{ "clat_p99_9_seconds", "99.9th percentile completion latency (fio clat), seconds" },
	{ "cpu_ratio", "CPU used by the fio job (usr + sys), as a fraction of one CPU" },
	{ "seeks_per_second", "Random seeks per second (Bonnie's seek phase, from fio randread)" },
	{ "seconds", "Elapsed time of the transfer, seconds" },
	{ "bytes", "Bytes transferred" },
	{ "ratio", "Candidate / baseline throughput (1 = equal)" },
	{ "welch_p", "Two-sided p-value of Welch's t-test, candidate against baseline (per cell)" },
};

static const char *help_of(const struct sample *s)
{
	size_t i;

	for (i = 0; i < sizeof(helps) / sizeof(*helps); i++)
		if (!strcmp(helps[i].field, s->col->field))
			return helps[i].help;
	return NULL;
}

static void add(const struct sample *s, void *arg)
{
	struct pcoll *pc = arg;
	char fam[256] = "fiotab_", lbl[64], num[40];
	char *buf = NULL;
	size_t blen = 0;
	FILE *m = open_memstream(&buf, &blen);
	int i;

	if (!m)
		die("out of memory");
	/* promlint rejects type names in metric names: "summary" rows are jobs */
	name_part(fam, sizeof(fam), strcmp(s->t->name, "summary") ? s->t->name : "job");
	strcat(fam, "_");
	name_part(fam, sizeof(fam), s->col->field);
	fputs(fam, m);
	for (i = 0; i < s->ntags; i++) {
		const char *v;

		lbl[0] = '\0';
		/*
		 * "job" is the scrape job of Prometheus, which renames ours to
		 * exported_job; fio's job name is "fio_job".
		 */
		name_part(lbl, sizeof(lbl), strcmp(s->tags[i].k, "job") ? s->tags[i].k : "fio_job");
		fprintf(m, "%s%s=\"", i ? "," : "{", lbl);
		for (v = s->tags[i].v; *v; v++) {
			if (*v == '\\' || *v == '"')
				fputc('\\', m);
			if (*v == '\n')
				fputs("\\n", m);
			else
				fputc(*v, m);
		}
		fputc('"', m);
	}
	if (s->ntags)
		fputc('}', m);
	if (isnan(s->value))
		fputs(" NaN", m);
	else if (isinf(s->value))
		fputs(s->value > 0 ? " +Inf" : " -Inf", m);
	else
		fprintf(m, " %s", fmt_double(num, sizeof(num), s->value));
	fclose(m);
	if (pc->n == pc->cap) {
		pc->cap = pc->cap ? 2 * pc->cap : 64;
		pc->v = xrealloc(pc->v, pc->cap * sizeof(*pc->v));
	}
	pc->v[pc->n].family = xstrdup(fam);
	pc->v[pc->n].line = buf;
	pc->v[pc->n].help = help_of(s);
	pc->v[pc->n].key = s->col->key;
	pc->v[pc->n].seq = pc->n;
	pc->n++;
}

static int cmp(const void *a, const void *b)
{
	const struct psample *x = a, *y = b;
	int c = strcmp(x->family, y->family);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

void out_prom(FILE *f, const struct tablist *l)
{
	struct pcoll pc = { 0 };
	size_t i;
	int t, r;

	for (t = 0; t < l->n; t++)
		for (r = 0; r < l->v[t]->nrows; r++)
			metrics_row(l->v[t], r, add, &pc);
	if (pc.n)
		qsort(pc.v, pc.n, sizeof(*pc.v), cmp);
	for (i = 0; i < pc.n; i++) {
		if (!i || strcmp(pc.v[i].family, pc.v[i - 1].family)) {
			if (pc.v[i].help)
				fprintf(f, "# HELP %s %s\n", pc.v[i].family, pc.v[i].help);
			else
				fprintf(f, "# HELP %s fiotab column %s\n", pc.v[i].family,
					pc.v[i].key);
			fprintf(f, "# TYPE %s gauge\n", pc.v[i].family);
		}
		fprintf(f, "%s\n", pc.v[i].line);
	}
	for (i = 0; i < pc.n; i++) {
		free(pc.v[i].family);
		free(pc.v[i].line);
	}
	free(pc.v);
}
