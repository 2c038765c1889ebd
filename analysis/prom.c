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
	const char *table, *field, *help;
} helps[] = {
	{ "perftest", "throughput_bytes_per_second", "Mean throughput over the iterations (blockdev-perftest avg), bytes per second" },
	{ "perftest", "throughput_std_bytes_per_second", "Population standard deviation of the throughput over the iterations (blockdev-perftest std), bytes per second" },
	{ "perftest", "iops", "I/Os per second of the mean throughput at this block size (blockdev-perftest IOPS)" },
	{ "perftest", "iteration_seconds", "Run time of one iteration (fio runtime), seconds" },
	{ "ratio", "ratio", "Candidate / baseline mean throughput (1 = equal)" },
	{ "ratio", "welch_p", "Two-sided p-value of Welch's t-test on the per-run rates, candidate against baseline" },
	{ "ratio", "welch_p_holm", "Welch's p-value after Holm's adjustment over every cell of the ratio table" },
	{ "iozone", "throughput_bytes_per_second", "Throughput of the iozone phase (from fio), bytes per second" },
	{ "bonnie", "throughput_bytes_per_second", "Throughput of the Bonnie phase (from fio), bytes per second" },
	{ "bonnie", "seeks_per_second", "Random seeks per second (Bonnie's seek phase, from fio randread IOPS)" },
	{ "bonnie", "cpu_ratio", "CPU of the Bonnie phase (fio usr + sys), fraction of one CPU: " CPU_MEANING },
	{ "dd", "bytes", "Bytes transferred (fio io_bytes)" },
	{ "dd", "seconds", "Transfer time (fio runtime), seconds" },
	{ "dd", "throughput_bytes_per_second", "Throughput of the transfer (io_bytes / runtime), bytes per second" },
	{ "iostat", "transfer_bytes", "Mean bytes per I/O (io_bytes / total_ios)" },
	{ "iostat", "transfers_per_second", "I/Os per second (fio iops)" },
	{ "iostat", "throughput_bytes_per_second", "Throughput (fio io_bytes / runtime), bytes per second" },
	{ "iostat", "cpu_user_ratio", "User CPU of the fio job (usr), fraction of one CPU: " CPU_MEANING },
	{ "iostat", "cpu_system_ratio", "System CPU of the fio job (sys), fraction of one CPU: " CPU_MEANING },
	{ "summary", "throughput_bytes_per_second", "Throughput of the fio job (io_bytes / runtime), bytes per second" },
	{ "summary", "iops", "I/Os per second of the fio job (fio iops)" },
	{ "summary", "clat_p50_seconds", "Median completion latency (fio clat 50th percentile), seconds" },
	{ "summary", "clat_p99_seconds", "99th percentile completion latency (fio clat), seconds" },
	{ "summary", "clat_p99_9_seconds", "99.9th percentile completion latency (fio clat), seconds" },
	{ "summary", "cpu_ratio", "CPU of the fio job (usr + sys), fraction of one CPU: " CPU_MEANING },
	{ "histogram", "count", "I/Os in the fio latency bucket" },
	{ "histogram", "cumulative_count", "I/Os up to and including the fio latency bucket" },
};

static const char *help_of(const struct sample *s)
{
	size_t i;

	for (i = 0; i < sizeof(helps) / sizeof(*helps); i++)
		if (!strcmp(helps[i].field, s->col->field) && !strcmp(helps[i].table, s->t->name))
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

int out_prom(FILE *f, const struct tablist *l)
{
	struct pcoll pc = { 0 };
	size_t i;
	int t, r;

	/* a refusal before the first line, never half the lines */
	if (metrics_check(l))
		return -1;
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
	return 0;
}
