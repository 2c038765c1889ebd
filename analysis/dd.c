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
 * coreutils' human_readable(n, human_autoscale | human_round_to_nearest |
 * human_SI | human_B | human_space_before_unit, from, to), the amount
 * n * from / to, as dd calls it: the byte count with from = to = 1, the
 * rate with from = 1e9 and to = the elapsed ns.  Two paths, as there:
 * where from / to or to / from is whole, integer arithmetic keeping the
 * tenths and how what was divided away rounds, one decimal only below 10
 * (20971520 bytes are "21 MB", 8388608 "8.4 MB"), halves to even; else
 * long double, scaled at least once (0.0 kB/s), "%.1Lf" unless that is
 * over 4 characters (86.5 MB/s, 944 MB/s).
 */
static void human_dd(uint64_t n, uint64_t from, uint64_t to, char *buf, size_t len)
{
	static const char prefix[] = "kMGTPEZY";
	unsigned tenths = 0, rounding = 0, r10, r2;
	int e = 0;
	uint64_t amt, k;
	char num[48] = "";

	if (!to) {		/* no time: dd's "Infinity B/s" */
		snprintf(buf, len, "Infinity B");
		return;
	}
	if (to <= from && !(from % to) && (k = from / to, !n || n * k / k == n)) {
		amt = n * k;
	} else if (to > from && !(to % from)) {
		uint64_t q10, q2;

		k = to / from;
		q10 = n % k * 10;
		q2 = q10 % k * 2;
		amt = n / k;
		tenths = q10 / k;
		rounding = q2 < k ? q2 > 0 : 2 + (k < q2);
	} else {
		long double d = (long double)n * ((long double)from / to), f = 1;

		do {
			f *= 1000;
			e++;
		} while (f * 1000 <= d && e < 8);
		snprintf(num, sizeof(num), "%.1Lf", d / f);
		if (strlen(num) > 4)
			snprintf(num, sizeof(num), "%.0Lf", d / f);
		snprintf(buf, len, "%s %cB", num, prefix[e - 1]);
		return;
	}
	if (amt >= 1000) {
		do {
			r10 = (amt % 1000) * 10 + tenths;
			r2 = (r10 % 1000) * 2 + (rounding >> 1);
			amt /= 1000;
			tenths = r10 / 1000;
			rounding = r2 < 1000 ? (r2 + rounding) != 0 : 2 + (1000 < r2 + rounding);
			e++;
		} while (amt >= 1000 && e < 8);
		if (amt < 10) {
			if (2 < rounding + (tenths & 1)) {
				tenths++;
				rounding = 0;
				if (tenths == 10) {
					amt++;
					tenths = 0;
				}
			}
			if (amt < 10) {
				snprintf(num, sizeof(num), ".%u", tenths);
				tenths = rounding = 0;
			}
		}
	}
	if (5 < tenths + (0 < rounding + (amt & 1))) {
		amt++;
		if (e && amt == 1000 && e < 8) {
			e++;
			amt = 1;
			snprintf(num, sizeof(num), ".0");
		}
	}
	if (e)
		snprintf(buf, len, "%" PRIu64 "%s %cB", amt, num, prefix[e - 1]);
	else
		snprintf(buf, len, "%" PRIu64 "%s B", amt, num);
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
