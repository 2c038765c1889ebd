// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiotab: fio JSON -> the tables of the block-vs-file threads.
 *
 *   fiotab COMMAND [OPTIONS] [FILE...]     (no FILE or "-": stdin)
 *
 * Everything is read and checked before anything is printed: a malformed
 * input makes fiotab exit 2 with "fiotab: FILE:LINE:COL: ..." and print no
 * table, unless --keep-going, which skips the bad document, says so on
 * stderr and in a note of every table.  Exit 1: usage, no usable jobs, I/O
 * error on output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "hist.h"
#include "identity.h"
#include "metrics.h"
#include "outfile.h"
#include "series.h"
#include "tables.h"

#define FIOTAB_VERSION "1.0"

enum fmt { F_TEXT, F_CSV, F_JSON, F_MARKDOWN, F_INFLUX, F_PROM };

static const char *const fmt_names[] = { "text", "csv", "json", "markdown", "influx",
					 "prom" };

/* The options a command reads (struct cli.given, takes[]). */
enum {
	G_FORMAT = 1, G_KEEP = 2, G_SERIES = 4, G_SIDES = 8, G_ALPHA = 16, G_OUT = 32,
	G_TAG = 64, G_HOST = 128, G_TIME = 256, G_NOITER = 512, G_X = 1024,
};

struct cli {
	const char *cmd;
	unsigned given;		/* G_* of the options given */
	enum fmt fmt;
	int keep_going;
	int no_iter;		/* perftest --no-iterations */
	const char *out;	/* plot */
	struct selector series, base, cand;
	struct ratio_opts ratio;
	struct series_opts logs;
};

static void usage(FILE *f)
{
	fputs("usage: fiotab COMMAND [OPTIONS] [FILE...]\n"
	      "commands:\n"
	      "  perftest [--series REGEX]...   blockdev-perftest table (avg/std/IOPS)\n"
	      "  perftest --no-iterations       ... without the per-iteration times\n"
	      "  ratio BASE CAND                candidate/baseline with a noise test\n"
	      "  ratio --baseline-series RE --candidate-series RE FILE...\n"
	      "  iozone                         iozone auto-mode table\n"
	      "  bonnie                         Bonnie table\n"
	      "  dd                             dd lines and an iostat-like view\n"
	      "  summary                        one row per job\n"
	      "  plot -o OUT.svg [--series RE]  MB/s, IOPS and clat against the axis (--x)\n"
	      "  hist [-o OUT.svg]              json+ latency histograms (prom: a histogram)\n"
	      "  series [-o OUT.svg] LOG...     fio bw/iops/lat/clat/slat logs over time\n"
	      "options:\n"
	      "  -f, --format=text|csv|json|markdown|influx|prom\n"
	      "  -k, --keep-going     skip malformed documents (and say so)\n"
	      "  -s, --series=REGEX   series by job name (first capture = label)\n"
	      "  --baseline-series=REGEX, --candidate-series=REGEX (job name or target)\n"
	      "  --alpha=P            noise-test significance level (default 0.05)\n"
	      "  -x, --x=PARAM        the axis: bs, iodepth, numjobs, any job option\n"
	      "                       (default: the one that varies; the others make series)\n"
	      "  -o, --output=FILE    plot output\n"
	      "  --tag NAME=VALUE     a label on every output row/sample (repeatable)\n"
	      "  --host NAME          host label of local runs (default: gethostname)\n"
	      "  --start=UNIX_MS      series: the job's start time (fio 3.33 records none)\n"
	      "  --unix-epoch         series: the logs' times are unix ms (log_unix_epoch=1)\n"
	      "  -h, --help, -V, --version\n", f);
}

static void add_pat(struct selector *s, const char *p)
{
	s->patterns = xrealloc(s->patterns, (s->npatterns + 1) * sizeof(char *));
	s->patterns[s->npatterns++] = (char *)p;
}

/* The outputs that name each job's series by run, job, host and target. */
static int dashboard(enum fmt f)
{
	return f == F_INFLUX || f == F_PROM;
}

static int parse_args(int argc, char **argv, struct cli *c)
{
	enum { O_BASE = 256, O_CAND, O_ALPHA, O_TAG, O_HOST, O_START, O_EPOCH, O_NOITER };
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "keep-going", no_argument, NULL, 'k' },
		{ "series", required_argument, NULL, 's' },
		{ "baseline-series", required_argument, NULL, O_BASE },
		{ "candidate-series", required_argument, NULL, O_CAND },
		{ "alpha", required_argument, NULL, O_ALPHA },
		{ "output", required_argument, NULL, 'o' },
		{ "tag", required_argument, NULL, O_TAG },
		{ "host", required_argument, NULL, O_HOST },
		{ "start", required_argument, NULL, O_START },
		{ "unix-epoch", no_argument, NULL, O_EPOCH },
		{ "no-iterations", no_argument, NULL, O_NOITER },
		{ "x", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	/* one-valued options: given twice with two values is refused (getopt kept the last) */
	static const struct { int opt; const char *name; } once[] = {
		{ 'f', "--format" }, { 'o', "-o" }, { 'x', "--x" }, { O_ALPHA, "--alpha" },
		{ O_HOST, "--host" }, { O_START, "--start" },
	};
	const char *first[sizeof(once) / sizeof(*once)] = { NULL };
	int o;
	size_t i;
	char *end;

	while ((o = getopt_long(argc, argv, "f:ks:o:x:hV", lo, NULL)) != -1) {
		for (i = 0; i < sizeof(once) / sizeof(*once); i++) {
			if (once[i].opt != o)
				continue;
			if (first[i] && strcmp(first[i], optarg)) {
				warnx_("%s given twice ('%s', then '%s'): give it once", once[i].name, first[i], optarg);
				return -1;
			}
			first[i] = optarg;
		}
		c->given |= o == 'f' ? G_FORMAT : o == 'k' ? G_KEEP : o == 's' ? G_SERIES :
			    o == O_BASE || o == O_CAND ? G_SIDES : o == O_ALPHA ? G_ALPHA :
			    o == 'o' ? G_OUT : o == O_TAG ? G_TAG : o == O_HOST ? G_HOST :
			    o == O_START || o == O_EPOCH ? G_TIME : o == O_NOITER ? G_NOITER :
			    o == 'x' ? G_X : 0;
		switch (o) {
		case 'f':
			for (i = 0; i < sizeof(fmt_names) / sizeof(*fmt_names); i++)
				if (!strcmp(optarg, fmt_names[i]))
					break;
			if (i == sizeof(fmt_names) / sizeof(*fmt_names)) {
				warnx_("unknown format '%s' (text, csv, json, markdown, influx, prom)",
				       optarg);
				return -1;
			}
			c->fmt = (enum fmt)i;
			break;
		case 'k':
			c->keep_going = 1;
			break;
		case 's':
			add_pat(&c->series, optarg);
			break;
		case O_BASE:
			add_pat(&c->base, optarg);
			c->base.match_target = 1;
			break;
		case O_CAND:
			add_pat(&c->cand, optarg);
			c->cand.match_target = 1;
			break;
		case O_ALPHA:
			c->ratio.alpha = strtod(optarg, &end);
			if (*end || !(c->ratio.alpha > 0 && c->ratio.alpha < 1)) {
				warnx_("--alpha must be in (0, 1)");
				return -1;
			}
			break;
		case 'o':
			c->out = optarg;
			break;
		case O_TAG:
			if (user_tag_add(optarg))
				return -1;
			break;
		case O_HOST:
			if (!*optarg || control_byte(optarg)) {
				if (*optarg)
					warnx_("--host: %s in the name (no table, label or plot can show one)",
					       text_fault(control_byte(optarg)));
				else
					warnx_("--host: empty name");
				return -1;
			}
			local_host_opt = optarg;
			break;
		case O_START:
			c->logs.start_ms = strtod(optarg, &end);
			if (*end || end == optarg || !(c->logs.start_ms >= 0) ||
			    c->logs.start_ms != floor(c->logs.start_ms) ||
			    c->logs.start_ms > 9007199254740992.0) {
				warnx_("--start: '%s' is not a time in unix milliseconds", optarg);
				return -1;
			}
			/*
			 * fio ran after 2000 and before 2100: a start outside
			 * is in other units, its points decades away (date
			 * +%s's seconds: January 1970; microseconds: past
			 * the year 50000, beyond Influx's int64 nanoseconds)
			 */
			if (c->logs.start_ms < 946684800000.0 || c->logs.start_ms >= 4102444800000.0) {
				warnx_("--start: %s ms since 1970 is %s, no time fio ran: --start takes unix milliseconds (date +%%s%%3N), %s",
				       optarg, c->logs.start_ms < 946684800000.0 ? "before 2000" : "after 2100",
				       c->logs.start_ms < 946684800000.0 ?
				       "not seconds (date +%s: append 000)" : "not micro- or nanoseconds");
				return -1;
			}
			break;
		case O_EPOCH:
			c->logs.unix_epoch = 1;
			break;
		case O_NOITER:
			c->no_iter = 1;
			break;
		case 'x':
			/* fio's aliases: the name the job records use (jobs.c) */
			c->series.x = c->base.x = c->cand.x =
				!strcmp(optarg, "blocksize") ? "bs" :
				!strcmp(optarg, "readwrite") ? "rw" : optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("fiotab %s\n", FIOTAB_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	return 0;
}

/*
 * An option the command does not read is refused, not ignored: summary -o
 * FILE printed to standard output and wrote no FILE, summary --series RE
 * tabled every job, plot --format=csv wrote an SVG.  1 after saying so.
 */
static int options_taken(const struct cli *c)
{
	static const struct { const char *cmd; unsigned opts; } takes[] = {
		{ "perftest", G_FORMAT | G_KEEP | G_SERIES | G_TAG | G_HOST | G_NOITER | G_X },
		{ "ratio", G_FORMAT | G_KEEP | G_SERIES | G_SIDES | G_ALPHA | G_TAG | G_HOST | G_X },
		/* --tag beside -o: the runner names every output so; an SVG shows none */
		{ "plot", G_KEEP | G_SERIES | G_TAG | G_HOST | G_X | G_OUT },
		{ "iozone", G_FORMAT | G_KEEP | G_TAG | G_HOST },
		{ "bonnie", G_FORMAT | G_KEEP | G_TAG | G_HOST },
		{ "dd", G_FORMAT | G_KEEP | G_TAG | G_HOST },
		{ "summary", G_FORMAT | G_KEEP | G_TAG | G_HOST },
		{ "hist", G_FORMAT | G_KEEP | G_TAG | G_HOST | G_OUT },
		{ "series", G_FORMAT | G_TAG | G_TIME | G_OUT },
	};
	static const char *const names[] = { "--format", "--keep-going", "--series",
		"--baseline-series/--candidate-series", "--alpha", "-o", "--tag", "--host",
		"--start/--unix-epoch", "--no-iterations", "--x" };
	unsigned bad;
	size_t i, k;

	for (i = 0; i < sizeof(takes) / sizeof(*takes) && strcmp(takes[i].cmd, c->cmd); i++)
		;
	if (i == sizeof(takes) / sizeof(*takes))
		return 0;	/* an unknown command: said by main() */
	bad = c->given & ~takes[i].opts;
	/* -o writes an SVG: no table format */
	if (c->given & G_OUT)
		bad |= c->given & G_FORMAT;
	for (k = 0; k < sizeof(names) / sizeof(*names); k++)
		if (bad & 1u << k) {
			warnx_("%s: %s is not an option of this command%s", c->cmd, names[k],
			       (c->given & G_OUT) && 1u << k == G_FORMAT ?
			       " with -o (it writes an SVG)" : " (see fiotab(1), OPTIONS)");
			return 1;
		}
	return 0;
}

/* Reads every file; 0, or 2 when an input is malformed (already reported). */
static int read_all(struct jobset *js, char **files, int n, int keep_going)
{
	static char *stdin_only[] = { "-" };
	int i;

	if (!n) {
		files = stdin_only;
		n = 1;
	}
	for (i = 0; i < n; i++)
		if (input_read(js, files[i], keep_going))
			return 2;
	return 0;
}

static void note_skipped(struct tablist *l, unsigned n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < l->n; i++)
		table_note(l->v[i], "INCOMPLETE: %u input document(s) skipped (--keep-going), see stderr",
			   n);
}

/* The one series of a side of ratio, or NULL after saying why. */
static const struct series *one_side(const struct serieslist *sl, const char *what)
{
	char *a, *b;

	if (sl->n == 1)
		return &sl->v[0];
	if (!sl->n) {
		warnx_("ratio: no usable jobs for the %s", what);
		return NULL;
	}
	a = series_name(&sl->v[0]);
	b = series_name(&sl->v[1]);
	warnx_("ratio: the %s holds %zu series (first '%s', then '%s'%s%s%s); select one with --%s-series%s",
	       what, sl->n, a, b, *sl->varying ? "; the jobs differ in " : "", sl->varying,
	       *sl->varying ? ", never averaged together" : "",
	       strcmp(what, "baseline") ? "candidate" : "baseline",
	       *sl->varying ? " or choose the axis with --x" : "");
	free(a);
	free(b);
	return NULL;
}

static int cmd_ratio(struct cli *c, char **files, int n, struct tablist *tl)
{
	struct jobset bj = { 0 }, cj = { 0 };
	struct serieslist bs = { 0 }, cs = { 0 };
	const struct series *b, *k;
	int rc = 1;

	if (c->base.npatterns || c->cand.npatterns) {
		if (!c->base.npatterns || !c->cand.npatterns) {
			warnx_("ratio: give both --baseline-series and --candidate-series");
			return 1;
		}
		/* one read folded for both sides (group.h): every iteration's time kept */
		bj.fold = fold_new(&c->base, &c->cand, FOLD_TIMES);
		bj.drop_aggregate = dashboard(c->fmt);
		if (read_all(&bj, files, n, c->keep_going)) {
			rc = 2;
			goto out;
		}
		/* a job on both sides would be compared with itself */
		if (fold_both(bj.fold)) {
			warnx_("ratio: %s: a job is one side's, never both (make the two patterns exclusive)",
			       fold_both(bj.fold));
			goto out;
		}
		if (series_build(&bj, &c->base, &bs) || series_build(&bj, &c->cand, &cs))
			goto out;
		cj.nskipped = 0;
	} else {
		if (n != 2) {
			warnx_("ratio: expected BASELINE and CANDIDATE files (or --baseline-series/--candidate-series)");
			return 1;
		}
		bj.fold = fold_new(&c->series, NULL, FOLD_TIMES);
		cj.fold = fold_new(&c->series, NULL, FOLD_TIMES);
		bj.drop_aggregate = cj.drop_aggregate = dashboard(c->fmt);
		if (read_all(&bj, files, 1, c->keep_going)) {
			rc = 2;
			goto out;
		}
		/*
		 * One fio run is read once across both sides too (samerun.c):
		 * BASE given again as CAND, or a copy of it, would be a run
		 * compared with itself (ratio 1.00, p 1.000), no comparison.
		 */
		cj.runs = bj.runs;
		bj.runs = NULL;
		if (read_all(&cj, files + 1, 1, c->keep_going)) {
			rc = 2;
			goto out;
		}
		if (series_build(&bj, &c->series, &bs) || series_build(&cj, &c->series, &cs))
			goto out;
	}
	b = one_side(&bs, "baseline");
	k = one_side(&cs, "candidate");
	if (!b || !k)
		goto out;
	if (strcmp(bs.axis, cs.axis)) {
		warnx_("ratio: the baseline's axis is %s, the candidate's %s: choose one with --x",
		       bs.axis, cs.axis);
		goto out;
	}
	series_sort(&bs);
	series_sort(&cs);
	if (ratio_table(&bs, b, bj.fold, k, cj.fold ? cj.fold : bj.fold, &c->ratio, tl))
		goto out;
	note_skipped(tl, bj.nskipped + cj.nskipped);
	rc = 0;
out:
	series_free(&bs);
	series_free(&cs);
	fold_free(bj.fold);
	fold_free(cj.fold);
	jobset_free(&bj);
	jobset_free(&cj);
	return rc;
}

enum plot_kind { PLOT_SWEEP, PLOT_HIST, PLOT_SERIES };

static int write_plot(struct cli *c, enum plot_kind kind, const struct serieslist *sl,
		      const struct jobset *js, char **files, int n)
{
	char *svg = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!c->out) {
		warnx_("plot: -o OUT.svg is required");
		return 1;
	}
	/*
	 * The whole SVG first, in memory: without anything to plot, OUT is
	 * not touched at all (not even a fifo opened), and outfile_write()
	 * gets one buffer whose write errors it can name precisely.
	 */
	f = open_memstream(&svg, &len);
	if (!f)
		die("out of memory");
	rc = kind == PLOT_SWEEP ? svg_plot(f, sl, js ? js->fold : NULL) :
	     kind == PLOT_HIST ? hist_plot(f, js) : series_plot(f, files, n, &c->logs);
	if (fclose(f))
		die("out of memory");
	if (!rc)
		rc = outfile_write(c->out, svg, len);
	free(svg);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct cli c = { .ratio.alpha = 0.05, .logs.start_ms = NAN };
	struct jobset js = { 0 };
	struct serieslist sl = { 0 };
	struct tablist tl = { 0 };
	int rc = 1, nfiles;
	char **files;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("fiotab %s\n", FIOTAB_VERSION);
		return 0;
	}
	c.cmd = argv[1];
	if (parse_args(argc - 1, argv + 1, &c))
		return 1;
	files = argv + 1 + optind;
	nfiles = argc - 1 - optind;
	if (options_taken(&c))
		return 1;

	if (!strcmp(c.cmd, "ratio")) {
		rc = cmd_ratio(&c, files, nfiles, &tl);
		goto print;
	}
	if (!strcmp(c.cmd, "series")) {
		if (!isnan(c.logs.start_ms) && c.logs.unix_epoch) {
			warnx_("series: --start and --unix-epoch exclude each other");
			goto out;
		}
		if (c.out) {
			rc = write_plot(&c, PLOT_SERIES, NULL, NULL, files, nfiles);
			goto out;
		}
		if (c.fmt == F_PROM) {
			warnx_("series: Prometheus scrapes current values, not a run's past; use --format=influx (or csv, json)");
			goto out;
		}
		if (c.fmt == F_INFLUX) {
			if (isnan(c.logs.start_ms) && !c.logs.unix_epoch) {
				warnx_("series: --format=influx needs real times: --start=UNIX_MS (the job's start; fio 3.33's JSON does not record it) or --unix-epoch (fio ran with log_unix_epoch=1)");
				goto out;
			}
			c.logs.unique_times = 1;
		}
		rc = series_tables(files, nfiles, &c.logs, &tl) ? 1 : 0;
		if (rc)
			goto out;
		goto print;
	}
	if (strcmp(c.cmd, "perftest") && strcmp(c.cmd, "plot") && strcmp(c.cmd, "iozone") &&
	    strcmp(c.cmd, "bonnie") && strcmp(c.cmd, "dd") && strcmp(c.cmd, "summary") &&
	    strcmp(c.cmd, "hist")) {
		warnx_("unknown command '%s'", c.cmd);
		usage(stderr);
		return 1;
	}
	/*
	 * perftest: the jobs folded as they are read (group.h), only what the
	 * table prints of each iteration kept (with --no-iterations, nothing)
	 */
	if (!strcmp(c.cmd, "perftest"))
		js.fold = fold_new(&c.series, NULL, c.no_iter ? 0 : FOLD_TIMES);
	else if (!strcmp(c.cmd, "plot"))	/* ... and each iteration's latency */
		js.fold = fold_new(&c.series, NULL, FOLD_TIMES | FOLD_LAT);
	js.want_bins = !strcmp(c.cmd, "hist");
	js.drop_aggregate = dashboard(c.fmt) && !js.want_bins;	/* hist: its own (hist.c) */
	input_keep_all(js.want_bins);	/* else the readers leave json+ "bins" out */
	if (read_all(&js, files, nfiles, c.keep_going)) {
		rc = 2;
		goto out;
	}
	if (!strcmp(c.cmd, "hist")) {
		if (c.out) {
			rc = write_plot(&c, PLOT_HIST, NULL, &js, NULL, 0);
			goto out;
		}
		if (c.fmt == F_PROM) {
			char *buf = NULL;
			size_t blen = 0;
			FILE *m = open_memstream(&buf, &blen);

			if (!m)
				die("out of memory");
			rc = hist_prom(m, &js) ? 1 : 0;
			if (fclose(m))
				die("out of memory");
			if (!rc && (fwrite(buf, 1, blen, stdout) != blen || fflush(stdout))) {
				warnx_("writing output: %s", strerror(errno));
				rc = 1;
			}
			free(buf);
			goto out;
		}
		rc = hist_tables(&js, &tl) ? 1 : 0;
	} else if (!strcmp(c.cmd, "perftest") || !strcmp(c.cmd, "plot")) {
		if (series_build(&js, &c.series, &sl))
			goto out;
		series_sort(&sl);
		if (!strcmp(c.cmd, "plot")) {
			rc = write_plot(&c, PLOT_SWEEP, &sl, &js, NULL, 0);
			goto out;
		}
		rc = perftest_fold_tables(&sl, js.fold, c.no_iter, &tl) ? 1 : 0;
	} else if (!strcmp(c.cmd, "iozone")) {
		rc = iozone_tables(&js, &tl) ? 1 : 0;
	} else if (!strcmp(c.cmd, "bonnie")) {
		rc = bonnie_tables(&js, &tl) ? 1 : 0;
	} else if (dashboard(c.fmt) &&
		   identity_check(c.cmd, "series in the InfluxDB and Prometheus outputs", &js)) {
		rc = 1;
	} else if (!strcmp(c.cmd, "dd")) {
		rc = dd_tables(&js, &tl) ? 1 : 0;
	} else {
		rc = summary_tables(&js, &tl) ? 1 : 0;
	}
	if (!rc)
		note_skipped(&tl, js.nskipped);
print:
	/* text and markdown show no labels a --tag could replace */
	if (!rc && c.fmt != F_TEXT && c.fmt != F_MARKDOWN && user_tags_check(&tl))
		rc = 1;
	if (!rc && c.fmt == F_CSV && csv_tags_check(&tl))
		rc = 1;
	if (!rc) {
		switch (c.fmt) {
		case F_TEXT:
			out_text(stdout, &tl);
			break;
		case F_CSV:
			out_csv(stdout, &tl);
			break;
		case F_JSON:
			out_json(stdout, &tl);
			break;
		case F_MARKDOWN:
			out_markdown(stdout, &tl);
			break;
		case F_INFLUX:
			rc = out_influx(stdout, &tl) ? 1 : 0;
			break;
		case F_PROM:
			rc = out_prom(stdout, &tl) ? 1 : 0;
			break;
		}
		if (fflush(stdout) || ferror(stdout)) {
			warnx_("writing output: %s", strerror(errno));
			rc = 1;
		}
	}
out:
	tablist_free(&tl);
	series_free(&sl);
	fold_free(js.fold);
	jobset_free(&js);
	free(c.series.patterns);
	free(c.base.patterns);
	free(c.cand.patterns);
	return rc;
}
