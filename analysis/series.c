// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiotab series: fio 3.33's bw/iops/lat/clat/slat logs.
 *
 * A log line is what flush_samples() (iolog.c) prints:
 *
 *   time, value, ddir, bs, prio             log_offset=0 (5 columns)
 *   time, value, ddir, bs, offset, prio     log_offset=1 (6 columns)
 *
 * time: ms since the job started (since the epoch with log_unix_epoch=1);
 * value: KiB/s (bw), I/Os per second (iops), ns (lat, clat, slat); ddir 0
 * read, 1 write, 2 trim; prio: 0/1 (real-time class or not), or 0xNNNN with
 * log_prio=1.  With log_avg_msec each line is one interval of one
 * direction: the mean of the window rounded (or its maximum with
 * log_max_value=1) and bs, offset and prio 0 (__add_stat_to_log in stat.c).
 * Which kind a log is comes from its name, as fio makes it:
 * PREFIX_KIND.N.log (per_job_logs=1, N the job's number) or PREFIX_KIND.log;
 * fio --client appends the server's host as given to --client
 * (fio_client_handle_iolog(): PREFIX_KIND.N.log.HOST), the host label.
 * Two logs of one kind, prefix, N and host are refused: one series of two
 * runs (fio --client writes two servers of one host to one name, the later
 * one's log replacing the earlier one's, which no file tells).
 *
 * fio 3.33's JSON has no job start time, so real times need --start=MS
 * (the job's start, unix ms) or --unix-epoch (the log's times already are).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics.h"
#include "series.h"
#include "svgutil.h"

enum kind { K_BW, K_IOPS, K_LAT, K_CLAT, K_SLAT, NKIND };

static const struct {
	const char *name, *unit, *field, *ylabel;
	double scale;		/* value -> field, base units */
	double plot;		/* value -> plot units */
} kinds[NKIND] = {
	{ "bw", "KiB/s", "throughput_bytes_per_second", "MB/s (2^20 bytes/s)", 1024, 1.0 / 1024 },
	{ "iops", "IO/s", "iops", "IOPS", 1, 1 },
	{ "lat", "ns", "lat_seconds", "lat (\u00b5s)", 1e-9, 1e-3 },
	{ "clat", "ns", "clat_seconds", "clat (\u00b5s)", 1e-9, 1e-3 },
	{ "slat", "ns", "slat_seconds", "slat (\u00b5s)", 1e-9, 1e-3 },
};

struct lsample {
	uint64_t t, bs, off;
	int64_t v;
	unsigned prio;
	int dir;
	unsigned long line;
};

struct flog {
	const char *file;
	char *prefix;		/* the write_*_log name */
	long jobnum;		/* N of PREFIX_KIND.N.log, 0 without */
	char *host;		/* HOST of fio --client's PREFIX_KIND[.N].log.HOST, or NULL */
	enum kind kind;
	int offsets;		/* 6 columns */
	struct lsample *s;
	size_t n, cap;
};

/* The length of the first @len bytes of @base without a ".N" job number. */
static size_t without_jobnum(const char *base, size_t len)
{
	const char *dot = memrchr(base, '.', len);

	if (dot && dot[1] && strspn(dot + 1, "0123456789") == (size_t)(base + len - dot - 1))
		return (size_t)(dot - base);
	return len;
}

/*
 * PREFIX_KIND (the first @len bytes of @base) -> kind, and in *@us the '_'
 * before it; NKIND if not (*@us NULL without a '_').
 */
static int kind_at(const char *base, size_t len, const char **us)
{
	size_t n;
	int k;

	*us = memrchr(base, '_', len);
	if (!*us)
		return NKIND;
	n = (size_t)(base + len - *us - 1);
	for (k = 0; k < NKIND; k++)
		if (strlen(kinds[k].name) == n && !strncmp(*us + 1, kinds[k].name, n))
			break;
	return k;
}

/* PREFIX_KIND[.N] (the first @len bytes of @base) -> kind; NKIND if not. */
static int kind_of(const char *base, size_t len)
{
	const char *us;

	return kind_at(base, without_jobnum(base, len), &us);
}

/* PREFIX_KIND[.N].log[.HOST] -> kind, prefix, N, host; -1 after saying why. */
static int name_kind(struct flog *l)
{
	const char *base = strrchr(l->file, '/'), *us, *h;
	size_t len, n;
	int k;

	base = base ? base + 1 : l->file;
	len = strlen(base);
	l->host = NULL;
	if (len < 5 || strcmp(base + len - 4, ".log")) {
		/* fio --client's: the rightmost ".log." after a log's name */
		size_t end = len;

		while ((h = memrchr(base, '.', end))) {
			if (h - base >= 4 && !strncmp(h - 4, ".log", 4) && h[1] &&
			    kind_of(base, (size_t)(h - 4 - base)) < NKIND)
				break;
			end = (size_t)(h - base);
		}
		if (!h)
			goto bad;
		l->host = xstrdup(h + 1);
		if (control_byte(l->host)) {
			warnx_("series: a log's host (fio --client's name suffix) holds %s (0x%02x), which no table, label or plot can show as it is: rename the file",
			       text_fault(control_byte(l->host)), (unsigned char)*control_byte(l->host));
			return -1;
		}
		len = (size_t)(h - base);
	}
	len -= 4;
	n = without_jobnum(base, len);
	l->jobnum = n < len ? strtol(base + n + 1, NULL, 10) : 0;
	len = n;
	k = kind_at(base, len, &us);
	if (k == NKIND) {
		if (len >= 5 && !strncmp(base + len - 5, "_hist", 5)) {
			warnx_("series: %s: a log_hist_msec histogram log; fiotab reads bw, iops, lat, clat and slat logs",
			       l->file);
			return -1;
		}
		goto bad;
	}
	l->kind = (enum kind)k;
	l->prefix = xasprintf("%.*s", (int)(us - base), base);
	/* the prefix is the job's label: as for job names (jobs.c check_text()) */
	if (control_byte(l->prefix)) {
		warnx_("series: a log's name holds %s (0x%02x), which no table, label or plot can show as it is: rename the file",
		       text_fault(control_byte(l->prefix)), (unsigned char)*control_byte(l->prefix));
		return -1;
	}
	return 0;
bad:
	warnx_("series: %s: not named as fio names its logs (PREFIX_bw.N.log, _iops, _lat, _clat, _slat; N optional; fio --client's PREFIX_bw.N.log.HOST)",
	       l->file);
	return -1;
}

static int field_u64(const char **p, uint64_t *v, int hex_ok)
{
	char *end;
	int base = 10;

	while (**p == ' ')
		(*p)++;
	if (**p < '0' || **p > '9')
		return -1;
	if (hex_ok && (*p)[0] == '0' && (*p)[1] == 'x')
		base = 16;
	errno = 0;
	*v = strtoull(*p, &end, base);
	if (errno || end == *p)
		return -1;
	*p = end;
	return 0;
}

static int read_log(struct flog *l)
{
	FILE *f = fopen(l->file, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long ln = 0;
	int ncols = 0, rc = -1;

	if (!f) {
		warnx_("series: %s: %s", l->file, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		const char *p = line;
		uint64_t v[6];
		int n = 0, neg = 0, hex = -1;

		ln++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		/* a log copied through DOS line ends: the same numbers, as CRLF JSON is */
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len) {
			warnx_("series: %s:%lu: empty line", l->file, ln);
			goto out;
		}
		for (;;) {
			if (n == 6) {
				warnx_("series: %s:%lu: more than 6 columns (fio 3.33: time, value, ddir, bs, [offset,] prio)",
				       l->file, ln);
				goto out;
			}
			while (*p == ' ')
				p++;
			if (n == 1 && *p == '-') {
				neg = 1;
				break;
			}
			if (p[0] == '0' && p[1] == 'x')
				hex = n;
			if (field_u64(&p, &v[n], 1)) {
				/* a zlib stream's header: CMF 0x78, CMF.FLG a multiple of 31 */
				if (ln == 1 && len > 1 && (unsigned char)line[0] == 0x78 &&
				    ((unsigned char)line[0] * 256 + (unsigned char)line[1]) % 31 == 0)
					warnx_("series: %s: zlib data, not a log's text: fio stored it compressed (log_store_compressed=1, a .fz file); fio --inflate-log=FILE writes its text, but fio logs bw and iops so each I/O's own value (per_unit_log()), not the job's rate: run without log_store_compressed and log_compression",
					       l->file);
				else
					warnx_("series: %s:%lu: column %d is not a whole number",
					       l->file, ln, n + 1);
				goto out;
			}
			n++;
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			if (*p++ != ',') {
				warnx_("series: %s:%lu: column %d: '%c' after the number", l->file,
				       ln, n, p[-1]);
				goto out;
			}
		}
		if (neg) {
			warnx_("series: %s:%lu: negative value", l->file, ln);
			goto out;
		}
		if (n < 5) {
			warnx_("series: %s:%lu: %d columns; fio 3.33 writes 5 (time, value, ddir, bs, prio) or 6 (with log_offset=1: ..., offset, prio)",
			       l->file, ln, n);
			goto out;
		}
		if (hex >= 0 && hex != n - 1) {
			warnx_("series: %s:%lu: column %d is hexadecimal (fio writes only prio so, the last)",
			       l->file, ln, hex + 1);
			goto out;
		}
		if (!ncols)
			ncols = n;
		if (n != ncols) {
			warnx_("series: %s:%lu: %d columns after %d on line 1", l->file, ln, n, ncols);
			goto out;
		}
		/*
		 * fio 3.33 writes prio decimal only as 0/1 (real-time class or
		 * not), else 0xNNNN; fio before the prio column (3.1x) wrote
		 * log_offset=1's offset last, as 5 columns: read as prio, it
		 * would put the offset in the prio column.
		 */
		if (hex != n - 1 && v[n - 1] > 1) {
			warnx_("series: %s:%lu: column %d is %llu: fio 3.33 writes prio there, decimal only as 0 or 1 (0xNNNN with log_prio=1); a log of an older fio, whose log_offset=1 wrote the offset last (time, value, ddir, bs, offset), is not read",
			       l->file, ln, n, (unsigned long long)v[n - 1]);
			goto out;
		}
		if (hex == n - 1 && v[n - 1] > 0xffff) {
			warnx_("series: %s:%lu: prio 0x%llx is more than fio's 16 bits (0xNNNN)",
			       l->file, ln, (unsigned long long)v[n - 1]);
			goto out;
		}
		if (v[2] > 2) {
			warnx_("series: %s:%lu: ddir %llu (fio logs 0 read, 1 write, 2 trim)", l->file,
			       ln, (unsigned long long)v[2]);
			goto out;
		}
		if (v[1] > INT64_MAX || v[0] > (1ULL << 53)) {
			warnx_("series: %s:%lu: out of range", l->file, ln);
			goto out;
		}
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 1024;
			l->s = xrealloc(l->s, l->cap * sizeof(*l->s));
		}
		l->s[l->n++] = (struct lsample){ .t = v[0], .v = (int64_t)v[1], .dir = (int)v[2],
						 .bs = v[3], .off = n == 6 ? v[4] : 0,
						 .prio = (unsigned)v[n - 1], .line = ln };
	}
	if (ferror(f)) {
		warnx_("series: %s: %s", l->file, strerror(errno));
		goto out;
	}
	if (!l->n)	/* fio writes none e.g. for slat of a sync engine */
		warnx_("series: %s: no samples (fio logged none), left out", l->file);
	l->offsets = ncols == 6;
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* 2000-01-01 in unix ms: no job's own clock reaches it (30 years) */
#define EPOCH_2000_MS 946684800000ULL

/*
 * A log timed from its job's start (td->epoch) starts within its first
 * window or I/O: its first sample comes no later than the log's samples
 * come one after another (log_avg_msec's window: the largest gap between
 * one direction's samples) or, in a latency log, than its first I/O took.
 * log_unix_epoch=1 or log_alternate_epoch=1 with another
 * log_alternate_epoch_clock_id than 0 (CLOCK_REALTIME) writes ms since that
 * clock's zero: CLOCK_MONOTONIC's and CLOCK_BOOTTIME's boot (a few hours
 * in), which no option here places in time.  0 when the log starts as a job's
 * does (or has too few samples to tell), else the allowance it exceeds.
 */
static uint64_t not_from_start(const struct flog *l)
{
	uint64_t t0 = UINT64_MAX, last[NRWT], gap = 0, allow;
	int seen[NRWT] = { 0 }, pairs = 0;
	int64_t v0 = 0;
	size_t k;

	for (k = 0; k < l->n; k++) {
		const struct lsample *x = &l->s[k];

		if (x->t < t0) {
			t0 = x->t;
			v0 = x->v;
		}
		if (seen[x->dir] && x->t > last[x->dir]) {
			if (x->t - last[x->dir] > gap)
				gap = x->t - last[x->dir];
			pairs = 1;
		}
		seen[x->dir] = 1;
		last[x->dir] = x->t;
	}
	if (!pairs)
		return 0;
	allow = 2 * gap + 1000;
	if (l->kind != K_BW && l->kind != K_IOPS)
		allow += 2 * ((uint64_t)v0 / 1000000);
	return t0 > allow ? allow : 0;
}

static void logs_free(struct flog *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].prefix);
		free(v[i].host);
		free(v[i].s);
	}
	free(v);
}

static struct flog *logs_read(char **files, int n, const struct series_opts *o)
{
	struct flog *v;
	uint64_t allow;	/* not_from_start()'s */
	int i;
	size_t k;

	if (!n) {
		warnx_("series: give fio log files (write_bw_log=NAME writes NAME_bw.1.log)");
		return NULL;
	}
	v = xmalloc((size_t)n * sizeof(*v));
	memset(v, 0, (size_t)n * sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].file = files[i];
		if (name_kind(&v[i]) || read_log(&v[i]))
			goto bad;
		/*
		 * The time base: a unix time (log_unix_epoch=1) is after 2000
		 * in ms, a job's own clock 30 years short of it.  Read with the
		 * other base, --start would put every sample decades late
		 * (start + a unix time) or --unix-epoch in 1970.
		 */
		allow = v[i].n && v[i].s[0].t < EPOCH_2000_MS ? not_from_start(&v[i]) : 0;
		if (allow) {
			warnx_("series: %s:%lu: the log's first sample is at %llu ms, later than a log timed from its job's start begins (%llu ms at most here: twice its largest gap between samples and its first latency, and 1 s): its times count from another clock's zero (log_alternate_epoch_clock_id=1, CLOCK_MONOTONIC, or 7, CLOCK_BOOTTIME, with log_unix_epoch=1 or log_alternate_epoch=1: ms since boot), which fiotab cannot place in time: run fio with log_unix_epoch=1 and log_alternate_epoch_clock_id=0 (CLOCK_REALTIME) and give --unix-epoch",
			       v[i].file, v[i].s[0].line, (unsigned long long)v[i].s[0].t,
			       (unsigned long long)allow);
			goto bad;
		}
		for (k = 0; k < v[i].n; k++) {
			const struct lsample *x = &v[i].s[k];
			int unix_t = x->t >= EPOCH_2000_MS;

			if (unix_t == !!o->unix_epoch)
				continue;
			if (unix_t)
				warnx_("series: %s:%lu: time %llu ms is a unix time (fio ran with log_unix_epoch=1), not ms since the job's start: give --unix-epoch",
				       v[i].file, x->line, (unsigned long long)x->t);
			else
				warnx_("series: %s:%lu: time %llu ms is no unix time (before 2000): the log counts from the job's start (log_unix_epoch=0), but --unix-epoch reads it as unix ms; give --start=UNIX_MS instead",
				       v[i].file, x->line, (unsigned long long)x->t);
			goto bad;
		}
		/*
		 * Without log_avg_msec fio logs each I/O, with its bs (a
		 * window's line has bs 0): in a bw log that I/O's bytes over
		 * its own latency, in bytes/ms (add_bw_sample()), in an iops
		 * log 1.  Neither is a rate of the job, which the tables, the
		 * Influx field and the plot would show them as.
		 */
		for (k = 0; (v[i].kind == K_BW || v[i].kind == K_IOPS) && k < v[i].n; k++)
			if (v[i].s[k].bs) {
				warnx_("series: %s:%lu: a %s log of each I/O (bs %llu: fio ran without log_avg_msec), whose values are each I/O's own (%s), not the job's rate: give log_avg_msec=MS",
				       v[i].file, v[i].s[k].line, kinds[v[i].kind].name,
				       (unsigned long long)v[i].s[k].bs,
				       v[i].kind == K_BW ? "its bytes over its latency, in bytes/ms" : "1 an I/O");
				goto bad;
			}
		/*
		 * fio's windows of a direction are log_avg_msec apart.  With
		 * log_compression or log_store_compressed, fio 3.33 logs bw
		 * and iops per I/O (per_unit_log()) and averages those values,
		 * each I/O's own, over the windows: lines of bs 0 that are no
		 * rate of the job (80 GB/s for a 20 MiB/s job), which show as
		 * several lines of one direction at one ms, the I/Os of the
		 * window's last ms each logging one (LOG_MSEC_SLACK).
		 */
		if (v[i].kind == K_BW || v[i].kind == K_IOPS) {
			size_t last[NRWT] = { (size_t)-1, (size_t)-1, (size_t)-1 };

			for (k = 0; k < v[i].n; k++) {
				const struct lsample *x = &v[i].s[k];
				size_t p = last[x->dir];

				if (p != (size_t)-1 && v[i].s[p].t == x->t) {
					warnx_("series: %s:%lu: a second %s window at %llu ms (line %lu's time): fio logs a direction's windows log_avg_msec apart, except with log_compression or log_store_compressed, where its %s log holds each I/O's own value (%s) averaged, not the job's rate: run without them to log %s",
					       v[i].file, x->line, dir_name[x->dir],
					       (unsigned long long)x->t, v[i].s[p].line,
					       kinds[v[i].kind].name,
					       v[i].kind == K_BW ? "its bytes over its latency" : "1 an I/O",
					       kinds[v[i].kind].name);
					goto bad;
				}
				last[x->dir] = k;
			}
		}
		/*
		 * One job's clock only goes forward (fio logs each sample at
		 * mtime_since_now(&td->epoch), and flushes a job's log in
		 * order): a sample before the previous one of its direction is
		 * another job's (per_job_logs=0 writes every job's samples to
		 * PREFIX_KIND.log, one after the other) or a restarted clock,
		 * and one series of them would draw and list two runs as one.
		 * A dashboard point is (tags, time): there two samples at one
		 * time would be one, too.
		 */
		{
			size_t last[NRWT] = { (size_t)-1, (size_t)-1, (size_t)-1 };

			for (k = 0; k < v[i].n; k++) {
				const struct lsample *x = &v[i].s[k];
				size_t p = last[x->dir];

				if (p != (size_t)-1 && v[i].s[p].t > x->t) {
					warnx_("series: %s:%lu: a %s sample at %llu ms, before line %lu's (%llu ms): one job's log goes forward in time, so this one holds more than one job's samples (per_job_logs=0 with numjobs, or jobs sharing a write_*_log name; logs joined) or a clock fio restarted (latency_target's final run), which one series would show as one: give per_job_logs=1 logs (PREFIX_KIND.N.log)",
					       v[i].file, x->line, dir_name[x->dir],
					       (unsigned long long)x->t, v[i].s[p].line,
					       (unsigned long long)v[i].s[p].t);
					goto bad;
				}
				if (o->unique_times && p != (size_t)-1 && v[i].s[p].t == x->t) {
					warnx_("series: %s:%lu: a %s sample at %llu ms, not after line %lu's (%llu ms); InfluxDB keeps one point per series and time, so writing this log (log_avg_msec=0?) would lose samples",
					       v[i].file, x->line, dir_name[x->dir],
					       (unsigned long long)x->t, v[i].s[p].line,
					       (unsigned long long)v[i].s[p].t);
					goto bad;
				}
				last[x->dir] = k;
			}
		}
		for (k = 0; k < (size_t)i; k++)
			if (v[k].kind == v[i].kind && v[k].jobnum == v[i].jobnum &&
			    !strcmp(v[k].prefix, v[i].prefix) &&
			    !strcmp(v[k].host ? v[k].host : "", v[i].host ? v[i].host : "")) {
				char num[32] = "";

				if (v[i].jobnum)
					snprintf(num, sizeof(num), " #%ld", v[i].jobnum);
				warnx_("series: %s and %s are both the %s log of job %s%s%s%s: one series of two runs (two runs' logs, or fio --client's two servers on one host, which write one file name): give one",
				       v[k].file, v[i].file, kinds[v[i].kind].name, v[i].prefix, num,
				       v[i].host ? " on host " : "", v[i].host ? v[i].host : "");
				goto bad;
			}
		/*
		 * Each log counts from its own job's start (td->epoch), and
		 * --start is one time: right for one job's logs (and one job on
		 * several --client hosts), wrong for jobs that ran one after
		 * another (stonewall, the runner's one run a job), which a log
		 * does not tell from numjobs clones started together.
		 */
		for (k = 0; k < (size_t)i && !isnan(o->start_ms); k++)
			if (v[k].jobnum != v[i].jobnum || strcmp(v[k].prefix, v[i].prefix)) {
				warnx_("series: --start with %s and %s, the logs of two jobs (%s #%ld, %s #%ld): fio counts each log's times from its own job's start, and --start is one time, which puts a job that started later (stonewall, another fio run) at the first one's start: give each job's logs with its own --start, or run fio with log_unix_epoch=1 and give --unix-epoch",
				       v[k].file, v[i].file, v[k].prefix, v[k].jobnum, v[i].prefix, v[i].jobnum);
				goto bad;
			}
	}
	return v;
bad:
	logs_free(v, n);
	return NULL;
}

static double when_ms(const struct series_opts *o, uint64_t t)
{
	if (o->unix_epoch)
		return (double)t;
	return isnan(o->start_ms) ? NAN : o->start_ms + (double)t;
}

int series_tables(char **files, int n, const struct series_opts *o, struct tablist *out)
{
	struct flog *v = logs_read(files, n, o);
	struct table *t[NKIND] = { 0 };
	int i, k, hosts = 0;
	size_t s;

	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		hosts |= v[i].host != NULL;
	for (i = 0; i < n; i++) {
		struct table *tb;
		const struct flog *l = &v[i];

		k = l->kind;
		if (!t[k]) {
			struct col *c;
			char name[32];

			snprintf(name, sizeof(name), "series_%s", kinds[k].name);
			tb = t[k] = table_new(name, 1);
			tb->title = xasprintf("fio %s log%s", kinds[k].name,
					      o->unix_epoch ? ", times from the log (log_unix_epoch=1)" :
					      isnan(o->start_ms) ? ", times since the job's start" :
					      ", times from --start");
			label_col(tb, "file", NULL, NULL, COL_DATA_ONLY, 0, "  ");
			label_col(tb, "job", "job", "job", COL_LEFT, 0, "  ");
			c = table_col(tb, "jobnum", NULL, COL_INT, 0, 0, "  ");
			col_hdr(c, "N", NULL, NULL);
			col_tag(c, "jobnum");
			label_col(tb, "dir", "dir", "rw", COL_LEFT, 0, "  ");
			c = table_col(tb, "time_ms", "ms", COL_INT, 0, 0, "  ");
			col_hdr(c, "time(ms)", NULL, NULL);
			c = table_col(tb, "timestamp", "s", COL_NUM, 0, 3, "  ");
			col_hdr(c, "unix time", NULL, NULL);
			c = table_col(tb, "value", kinds[k].unit, COL_INT, 0, 0, "  ");
			col_hdr(c, kinds[k].unit, NULL, NULL);
			col_metric(c, kinds[k].field, kinds[k].scale, NULL);
			c = table_col(tb, "bs", "bytes", COL_INT, 0, 0, "  ");
			col_hdr(c, "bs", NULL, NULL);
			c = table_col(tb, "offset", "bytes", COL_INT, 0, 0, "  ");
			col_hdr(c, "offset", NULL, NULL);
			c = table_col(tb, "prio", NULL, COL_INT, 0, 0, hosts ? "  " : "");
			col_hdr(c, "prio", NULL, NULL);
			/* fio --client's logs: the server (a local log's is unset: no tag) */
			if (hosts)
				label_col(tb, "host", "host", "host", COL_LEFT, 0, "");
			if (!o->unix_epoch && isnan(o->start_ms))
				table_note(tb, "no real times: give --start=UNIX_MS (the job's start) or --unix-epoch (log_unix_epoch=1)");
		}
		tb = t[k];
		for (s = 0; s < l->n; s++) {
			const struct lsample *x = &l->s[s];
			int row = table_row(tb);
			double ms = when_ms(o, x->t);

			table_str(tb, row, 0, l->file);
			table_str(tb, row, 1, l->prefix);
			if (l->jobnum)
				table_num(tb, row, 2, (double)l->jobnum);
			table_str(tb, row, 3, dir_name[x->dir]);
			table_num(tb, row, 4, (double)x->t);
			table_num(tb, row, 5, ms / 1000);
			table_num(tb, row, 6, (double)x->v);
			table_num(tb, row, 7, (double)x->bs);
			if (l->offsets)
				table_num(tb, row, 8, (double)x->off);
			table_num(tb, row, 9, x->prio);
			if (l->host)
				table_str(tb, row, 10, l->host);
			if (!isnan(ms))
				table_row_time(tb, row, ms / 1000);
		}
	}
	for (k = 0; k < NKIND; k++)
		if (t[k])
			tablist_add_rows(out, t[k]);
	logs_free(v, n);
	if (!out->n) {
		warnx_("series: the logs hold no samples");
		return -1;
	}
	return 0;
}

/*
 * The time plot: one panel per log kind, x = seconds since the start (the
 * earliest sample with --unix-epoch), a line per log and direction.  A
 * line with more samples than pixels is drawn as each pixel column's
 * minimum and maximum, so no spike is lost.
 */
#define TW 960
#define TML 80
#define TMR 260
#define TPH 260
#define TGAP 66
#define TTOP 60

static void tpanel(FILE *f, int top, int k, const struct flog *v, int n, double t0,
		   double xmax)
{
	double ymax = 0, step, y, x;
	int pw = TW - TML - TMR, leg = 0, i, d;
	size_t s;

	for (i = 0; i < n; i++)
		if ((int)v[i].kind == k)
			for (s = 0; s < v[i].n; s++) {
				ymax = fmax(ymax, (double)v[i].s[s].v * kinds[k].plot);
			}
	if (!(xmax > 0))
		xmax = 1;
	step = svg_nice_step(ymax > 0 ? ymax : 1);
	ymax = ceil((ymax > 0 ? ymax : 1) / step) * step;
#define TX(x) (TML + (x) / xmax * pw)
#define TY(y) (top + TPH - (y) / ymax * TPH)
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
		TML, top, pw, TPH);
	for (y = 0; y <= ymax + step / 2; y += step) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			TML, TY(y), TML + pw, TY(y));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%.10g</text>\n",
			TML - 6, TY(y) + 4, y);
	}
	step = svg_nice_step(xmax);
	for (x = 0; x <= xmax + step / 100; x += step) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n",
			TX(x), top, TX(x), top + TPH);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%g</text>\n",
			TX(x), top + TPH + 16, x);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">seconds since the job's start</text>\n",
		TML + pw / 2, top + TPH + 34);
	fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %d)\">",
		top + TPH / 2, top + TPH / 2);
	svg_esc(f, kinds[k].ylabel);
	fputs("</text>\n", f);
	for (i = 0; i < n; i++) {
		if ((int)v[i].kind != k)
			continue;
		for (d = 0; d < NDIR; d++) {
			const char *col = svg_palette[leg % svg_npalette];
			int px = -1, first = 1;
			double lo = 0, hi = 0;
			char *name;

			for (s = 0; s < v[i].n && v[i].s[s].dir != d; s++)
				;
			if (s == v[i].n)
				continue;
			name = v[i].jobnum ? xasprintf("%s #%ld %s%s%s", v[i].prefix, v[i].jobnum, dir_name[d],
							v[i].host ? " on " : "", v[i].host ? v[i].host : "") :
					     xasprintf("%s %s%s%s", v[i].prefix, dir_name[d],
						       v[i].host ? " on " : "", v[i].host ? v[i].host : "");
			fprintf(f, "<g stroke=\"%s\" fill=\"none\"><title>", col);
			svg_esc(f, v[i].file);
			fputs("</title><polyline stroke-width=\"1.5\" points=\"", f);
			for (; s <= v[i].n; s++) {
				const struct lsample *p = s < v[i].n ? &v[i].s[s] : NULL;
				int cx;

				if (p && p->dir != d)
					continue;
				cx = p ? (int)TX(((double)p->t - t0) / 1000) : -2;
				if (cx != px && px >= 0) {
					fprintf(f, "%s%d,%.1f", first ? "" : " ", px, TY(lo));
					if (hi != lo)
						fprintf(f, " %d,%.1f", px, TY(hi));
					first = 0;
				}
				if (!p)
					break;
				y = (double)p->v * kinds[k].plot;
				if (cx != px) {
					lo = hi = y;
					px = cx;
				} else {
					lo = fmin(lo, y);
					hi = fmax(hi, y);
				}
			}
			fputs("\"/></g>\n", f);
			svg_legend(f, TW - TMR + 16, top + 10 + leg * 18, col, name);
			free(name);
			leg++;
		}
	}
#undef TX
#undef TY
}

int series_plot(FILE *f, char **files, int n, const struct series_opts *o)
{
	struct flog *v = logs_read(files, n, o);
	int has[NKIND] = { 0 }, np = 0, i, k;
	double t0 = INFINITY, xmax = 0;
	char *sub = NULL;
	size_t s;

	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i].n)
			has[v[i].kind] = 1;
		for (s = 0; s < v[i].n; s++)
			t0 = fmin(t0, (double)v[i].s[s].t);
	}
	if (!o->unix_epoch)
		t0 = 0;
	for (i = 0; i < n; i++)
		for (s = 0; s < v[i].n; s++)
			xmax = fmax(xmax, ((double)v[i].s[s].t - t0) / 1000);
	for (k = 0; k < NKIND; k++)
		np += has[k];
	if (!np) {
		warnx_("series: the logs hold no samples");
		logs_free(v, n);
		return -1;
	}
	if (!isnan(when_ms(o, 0)) || o->unix_epoch) {
		double ms = o->unix_epoch ? t0 : o->start_ms;
		time_t tt = (time_t)(ms / 1000);
		struct tm tm;
		char date[40];

		strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&tt, &tm));
		sub = xasprintf("job started %s", date);
	} else {
		sub = xstrdup("times: ms since each job's start, as fio logs them (--start for dates)");
	}
	for (k = 0; k < nuser_tags; k++) {
		char *t = xasprintf("%s%s%s=%s", sub, k ? ", " : " \u00b7 ", user_tags[k].k,
				    user_tags[k].v);

		free(sub);
		sub = t;
	}
	svg_head(f, TW, TTOP + np * (TPH + TGAP) + 10, "fiotab: fio logs over time", sub);
	for (k = np = 0; k < NKIND; k++)
		if (has[k])
			tpanel(f, TTOP + np++ * (TPH + TGAP), k, v, n, t0, xmax);
	fputs("</svg>\n", f);
	free(sub);
	logs_free(v, n);
	return ferror(f) ? -1 : 0;
}
