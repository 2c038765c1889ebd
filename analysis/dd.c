// SPDX-License-Identifier: GPL-2.0-only
/*
 * dd's closing line (coreutils 6-8, as in seed 001) per job and direction:
 *
 *   1048576000 bytes (1.0 GB) copied, 12.1291 s, 86.5 MB/s
 *
 * sizes and rates in SI units as coreutils' human_readable() writes them
 * (human_dd()), seconds "%g"; and an iostat-like view (seed 004): KB/t,
 * tps, MB/s (2^20), CPU.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

/*
 * An amount n * from / to as dd writes it (coreutils' human_readable() with
 * autoscale, SI prefixes, B, rounding to nearest): the byte count has from =
 * to = 1, the rate from = 1e9 over the elapsed ns.
 * - Where from / to or to / from is whole, the amount is exact: divided by
 *   1000 while its whole part is 1000 or more; one decimal only when scaled
 *   and below 10 (20971520 bytes are "21 MB", 8388608 "8.4 MB"); rounded
 *   once, to nearest, halves to even; one that rounds up to 1000 is the next
 *   prefix's 1.0.
 * - Else a long double, scaled at least once (0.0 kB/s): "%.1Lf" unless that
 *   has more than 4 characters (86.5 MB/s, 944 MB/s).
 */
static void human_dd(uint64_t n, uint64_t from, uint64_t to, char *buf, size_t len)
{
	static const char prefix[] = "kMGTPEZY";
	int e = 0;
	char num[48];

	if (!to) {		/* no time: dd's "Infinity B/s" */
		snprintf(buf, len, "Infinity B");
		return;
	}
	if (!(from % to) || !(to % from)) {
		/* n < 2^64, from <= 1e9: the scaled divisor stays below amt * 1000 */
		unsigned __int128 amt = (unsigned __int128)n * from, div = to, q, r;
		int tenth;

		while (amt / div >= 1000 && e < 8) {
			div *= 1000;
			e++;
		}
		tenth = e && amt / div < 10;
		if (tenth)
			amt *= 10;
		q = amt / div;
		r = amt % div;
		if (2 * r > div || (2 * r == div && (q & 1)))
			q++;
		if (tenth && q == 100) {		/* 9.95 is 10 */
			tenth = 0;
			q = 10;
		} else if (!tenth && e && e < 8 && q == 1000) {	/* 999.5 k is 1.0 M */
			e++;
			tenth = 1;
			q = 10;
		}
		if (tenth)
			snprintf(num, sizeof(num), "%u.%u", (unsigned)(q / 10), (unsigned)(q % 10));
		else
			snprintf(num, sizeof(num), "%" PRIu64, (uint64_t)q);
	} else {
		long double d = (long double)n * ((long double)from / to), f = 1;

		do {
			f *= 1000;
			e++;
		} while (f * 1000 <= d && e < 8);
		snprintf(num, sizeof(num), "%.1Lf", d / f);
		if (strlen(num) > 4)
			snprintf(num, sizeof(num), "%.0Lf", d / f);
	}
	if (e)
		snprintf(buf, len, "%s %cB", num, prefix[e - 1]);
	else
		snprintf(buf, len, "%s B", num);
}

static struct table *dd_of(const struct partition *p)
{
	struct table *t = table_new("dd", 0);
	struct col *c;
	size_t i;
	int d, row, hosts = partition_hosts(p);

	t->title = titled("dd", p);
	note_versions(t, p->jobs, p->n);
	mode_tags(t, p->modeled, p->scale);
	/* dd's line has no header and no host: the host before it (text only) */
	if (hosts)
		label_col(t, "line_host", NULL, NULL, COL_TEXT_ONLY | COL_LEFT, 0, "  ");
	label_col(t, "line", NULL, NULL, COL_TEXT_ONLY | COL_LEFT, 0, "");
	label_col(t, "job", NULL, "job", COL_DATA_ONLY, 0, "");
	label_col(t, "host", NULL, "host", COL_DATA_ONLY, 0, "");
	label_col(t, "dir", NULL, "rw", COL_DATA_ONLY, 0, "");
	run_col(t, "");
	c = table_col(t, "bytes", "bytes", COL_INT, 0, 0, "");
	c->flags |= COL_DATA_ONLY;
	col_metric(c, "bytes", 1, NULL);
	c = table_col(t, "seconds", "s", COL_NUM, 0, 6, "");
	c->flags |= COL_DATA_ONLY;
	col_metric(c, "seconds", 1, NULL);
	c = table_col(t, "MBps_SI", "MB/s (10^6)", COL_NUM, 0, 3, "");
	c->flags |= COL_DATA_ONLY;
	col_metric(c, "throughput_bytes_per_second", 1e6, NULL);

	for (i = 0; i < p->n; i++) {
		const struct job *j = p->jobs[i];

		for (d = 0; d < NDIR; d++) {
			const struct dirstat *x = j->d[d];
			char size[32], rate[32], *line;

			if (!x->present || !(x->runtime_s > 0))
				continue;
			human_dd(x->io_bytes, 1, 1, size, sizeof(size));
			human_dd(x->io_bytes, 1000000000, llround(x->runtime_s * 1e9), rate, sizeof(rate));
			line = xasprintf("%.0f bytes (%s) copied, %g s, %s/s", x->io_bytes, size,
					 x->runtime_s, rate);
			row = table_row(t);
			table_sets(t, row, "line", line);
			free(line);
			if (hosts)
				table_sets(t, row, "line_host", j->host);
			table_sets(t, row, "job", j->name);
			table_sets(t, row, "host", j->host);
			table_sets(t, row, "dir", dir_name[d]);
			table_sets(t, row, "run", run_value(j));
			table_row_time(t, row, j->doc->timestamp_ms / 1000);
			table_set(t, row, "bytes", x->io_bytes);
			table_set(t, row, "seconds", x->runtime_s);
			table_set(t, row, "MBps_SI", dec_scale(per_s(x->io_bytes, x->runtime_s), 1e-6));
		}
	}
	return t;
}

static struct table *iostat_of(const struct partition *p)
{
	static const struct { const char *key, *hdr, *unit, *field; double scale; int prec; } cols[] = {
		{ "KB_per_transfer", "KB/t", "KiB", "transfer_bytes", 1024, 2 },
		{ "tps", "tps", "1/s", "transfers_per_second", 1, 0 },
		{ "MBps", "MB/s", "MiB/s", "throughput_bytes_per_second", 1048576, 2 },
		{ "us", "us", "%", "cpu_user_ratio", 0.01, 0 },
		{ "sy", "sy", "%", "cpu_system_ratio", 0.01, 0 },
	};
	struct table *t = table_new("iostat", 1);
	struct col *c;
	size_t i, k;
	int d, row;

	t->title = titled("iostat view", p);
	note_versions(t, p->jobs, p->n);
	table_note(t, "per job and direction: KB/t = bytes/ios/1024, tps = IOPS, MB/s = 2^20 bytes/s, us/sy = fio's usr/sys CPU: %s", CPU_MEANING);
	mode_tags(t, p->modeled, p->scale);
	label_col(t, "job", "job", "job", COL_LEFT, 0, " ");
	label_col(t, "dir", "dir", "rw", COL_LEFT, 5, " ");
	/* shown where several hosts' jobs would otherwise print alike */
	label_col(t, "host", "host", "host", partition_hosts(p) ? COL_LEFT : COL_DATA_ONLY, 0,
		  " ");
	run_col(t, "");
	for (k = 0; k < sizeof(cols) / sizeof(*cols); k++) {
		c = table_col(t, cols[k].key, cols[k].unit, COL_NUM, 0, cols[k].prec,
			      k + 1 < sizeof(cols) / sizeof(*cols) ? " " : "");
		col_hdr(c, cols[k].hdr, NULL, NULL);
		col_metric(c, cols[k].field, cols[k].scale, NULL);
	}
	for (i = 0; i < p->n; i++) {
		const struct job *j = p->jobs[i];

		for (d = 0; d < NDIR; d++) {
			const struct dirstat *x = j->d[d];

			if (!x->present)
				continue;
			row = table_row(t);
			table_sets(t, row, "job", j->name);
			table_sets(t, row, "dir", dir_name[d]);
			table_sets(t, row, "host", j->host);
			table_sets(t, row, "run", run_value(j));
			table_row_time(t, row, j->doc->timestamp_ms / 1000);
			if (x->total_ios > 0)
				table_set(t, row, "KB_per_transfer", x->io_bytes / x->total_ios / 1024);
			table_set(t, row, "tps", x->iops);
			if (x->runtime_s > 0)
				table_set(t, row, "MBps", per_s(x->io_bytes, x->runtime_s) / 1048576);
			table_set(t, row, "us", j->usr_cpu);
			table_set(t, row, "sy", j->sys_cpu);
		}
	}
	return t;
}

static int dd_and_iostat(const struct partition *p, struct tablist *out)
{
	if (!tablist_add_rows(out, dd_of(p)))
		return 0;
	tablist_add(out, iostat_of(p));
	return 2;
}

int dd_tables(const struct jobset *js, struct tablist *out)
{
	return per_partition(js, "dd", dd_and_iostat, out);
}
