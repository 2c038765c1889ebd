// SPDX-License-Identifier: GPL-2.0-only
/*
 * One row per job and direction, for any fio JSON: name, host, rw, bs, MB/s
 * (2^20), IOPS, completion latency percentiles (µs) and CPU (usr + sys, %).
 * fio's "All clients" aggregate stays a row of its own (host "All clients").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

static struct table *summary_of(const struct partition *p)
{
	struct table *t = table_new("summary", 1);
	struct col *c;
	size_t i;
	int d, row;
	double ts = 0;

	t->title = titled("summary", p);
	note_versions(t, p->jobs, p->n);
	table_note(t, "MB/s = 2^20 bytes/s (fio's MiB/s; its MB/s is 10^6 bytes/s)");
	table_note(t, "CPU%% = usr + sys: %s", CPU_MEANING);
	mode_tags(t, p->modeled, p->scale);

	label_col(t, "job", "job", "job", COL_LEFT, 0, "  ");
	label_col(t, "host", "host", "host", COL_LEFT, 0, "  ");
	label_col(t, "target", NULL, "target", COL_DATA_ONLY, 0, "  ");
	run_col(t, "  ");
	label_col(t, "rw", "rw", NULL, COL_LEFT, 0, "  ");
	label_col(t, "dir", "dir", "rw", COL_LEFT, 0, "  ");
	c = table_col(t, "bs", "bytes", COL_INT, 0, 0, "  ");
	col_hdr(c, "bs", NULL, NULL);
	col_tag(c, "bs");
	c = table_col(t, "iodepth", NULL, COL_INT, 0, 0, "  ");
	c->flags |= COL_DATA_ONLY;
	col_tag(c, "iodepth");
	c = table_col(t, "MBps", "MB/s", COL_NUM, 0, 3, "  ");
	col_hdr(c, "MB/s", NULL, NULL);
	col_metric(c, "throughput_bytes_per_second", 1048576, NULL);
	c = table_col(t, "IOPS", NULL, COL_NUM, 0, 1, "  ");
	col_hdr(c, "IOPS", NULL, NULL);
	col_metric(c, "iops", 1, NULL);
	c = table_col(t, "clat_p50_us", "us", COL_NUM, 0, 1, "  ");
	col_hdr(c, "p50(us)", NULL, NULL);
	col_metric(c, "clat_p50_seconds", 1e-6, NULL);
	c = table_col(t, "clat_p99_us", "us", COL_NUM, 0, 1, "  ");
	col_hdr(c, "p99(us)", NULL, NULL);
	col_metric(c, "clat_p99_seconds", 1e-6, NULL);
	c = table_col(t, "clat_p99.9_us", "us", COL_NUM, 0, 1, "  ");
	col_hdr(c, "p99.9(us)", NULL, NULL);
	col_metric(c, "clat_p99_9_seconds", 1e-6, NULL);
	c = table_col(t, "cpu_pct", "%", COL_NUM, 0, 1, "");
	col_hdr(c, "CPU%", NULL, NULL);
	col_metric(c, "cpu_ratio", 0.01, NULL);

	for (i = 0; i < p->n; i++) {
		const struct job *j = p->jobs[i];

		if (j->doc->timestamp > ts)
			ts = j->doc->timestamp;
		for (d = 0; d < NDIR; d++) {
			const struct dirstat *x = j->d[d];

			if (!x->present)
				continue;
			row = table_row(t);
			table_sets(t, row, "job", j->name);
			table_sets(t, row, "host", j->host);
			table_sets(t, row, "target", j->conf->target);
			table_sets(t, row, "run", run_value(j));
			table_row_time(t, row, j->doc->timestamp_ms / 1000);
			table_sets(t, row, "rw", j->conf->rw);
			table_sets(t, row, "dir", dir_name[d]);
			table_set(t, row, "bs", (double)x->bs);
			table_set(t, row, "iodepth", j->conf->iodepth);
			if (x->runtime_s > 0)
				table_set(t, row, "MBps", per_s(x->io_bytes, x->runtime_s) / 1048576);
			table_set(t, row, "IOPS", x->iops);
			table_set(t, row, "clat_p50_us", x->clat_p50_us);
			table_set(t, row, "clat_p99_us", x->clat_p99_us);
			table_set(t, row, "clat_p99.9_us", x->clat_p999_us);
			table_set(t, row, "cpu_pct", dec_sum(j->usr_cpu, j->sys_cpu));
		}
	}
	t->timestamp = ts;
	return t;
}

static int summary_of_partition(const struct partition *p, struct tablist *out)
{
	return tablist_add_rows(out, summary_of(p));
}

int summary_tables(const struct jobset *js, struct tablist *out)
{
	return per_partition(js, "summary", summary_of_partition, out);
}
