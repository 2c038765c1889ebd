/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Series and iterations: how direction records become the rows of the
 * perftest, ratio and plot tables (rules in README.md, "perftest").
 */
#ifndef FIOTAB_GROUP_H
#define FIOTAB_GROUP_H

#include "fiotab.h"

/* One iteration of a point: the direction record it ran (runtime_s, io_bytes, clat). */
struct iter {
	const struct dirstat *d;
};

/*
 * One point of the axis (a block size, an iodepth, ...): its iterations per
 * direction.  @bs is the axis value when the axis is bs (else 0); @dbs the
 * block size of each direction, for IOPS.
 */
struct bsgroup {
	uint64_t bs;
	char *xs;		/* the axis value as text ("65536", "16", "libaio") */
	double x;		/* ... as a number, NAN when it is none */
	uint64_t dbs[NDIR];
	struct iter *it[NDIR];
	size_t n[NDIR], cap[NDIR];
};

struct series {
	char *label;		/* target, or the --series label */
	char *host;
	int modeled;
	double scale;
	/*
	 * What sets this series apart from the others of its target, host and
	 * mode: the parameters that vary beside the axis, "iodepth=4, numjobs=2"
	 * ("" when none), and the same as tags (TAGSEP-separated k=v).
	 */
	char *params;
	char *ptags;
	char *tied;		/* parameters that change with the axis, one value per point */
	struct bsgroup *g;
	size_t ng;
	const struct job **jobs;	/* every job used, for the version note */
	size_t njobs, capjobs;
};

struct table;

struct serieslist {
	struct series *v;
	size_t n;
	const char *axis;	/* the parameter of the x axis: "bs", "iodepth", ... */
	int numeric;		/* every axis value is a number */
	char *varying;		/* the parameters that vary, "bs, iodepth" ("" = none) */
};

struct selector {
	char **patterns;	/* --series regexes; none = group by target */
	int npatterns;
	int match_target;	/* also try the target (ratio's selectors) */
	const char *x;		/* --x PARAM; NULL: the one that varies */
};

/*
 * Groups @js: a series per target (or --series label), host, mode and every
 * job parameter that differs, except the axis; iterations are the jobs that
 * differ in nothing but their name.  Returns -1 after saying why: a bad
 * regex, or no --x while several parameters (none of them bs) vary.
 */
int series_build(const struct jobset *js, const struct selector *sel,
		 struct serieslist *out);
void series_free(struct serieslist *l);
/* Sorts each series' points: block sizes descending (the script), others ascending. */
void series_sort(struct serieslist *l);
struct fold;
/*
 * Per-iteration rates bytes/s of one direction, leaving out t = 0, in
 * input order, in a new array (the caller frees it) of *@n entries: of the
 * point's jobs, or with @f (the jobs folded, struct fold) of its classes'
 * iterations.  On the heap: a group holds one entry per job, and a million
 * jobs do not fit on a stack.
 */
double *bsgroup_rates(const struct bsgroup *g, int dir, const struct fold *f, size_t *n);
/*
 * perftest, ratio and plot: the jobs as they are read, folded into one
 * record per configuration class (series label, host, configuration, the
 * block size and presence of each direction: everything series_build()
 * reads of a job but its name, group and values).  A class keeps the sums
 * of its iterations' rates (in input order, as stat_mean() and stat_pstd()
 * sum), its fio versions and times, and one job, its first: the
 * grouping then sees one job per class and decides series, axis and
 * points from them as it would from all the jobs (what it decides depends
 * on the set of configurations, not on how many jobs share one).  Jobs
 * that may have run side by side with another of their document (same
 * label, host, group, direction and block size) are kept too, so that
 * series_build() still refuses them; so are their direction records.
 * Everything else of a job is freed once its document is folded: memory
 * is bounded by the configurations, not by the jobs, but for what the
 * table prints of each iteration (its time: struct foldcls.rt; nothing
 * with --no-iterations).
 */
struct foldver {
	const char *version;	/* interned */
	size_t seq;		/* the job's input order, over all jobs read */
};

struct foldcls {
	const char *label, *host;
	const struct jconf *conf;
	int present[NDIR];
	uint64_t bs[NDIR];
	struct dirstat ds[NDIR];	/* the first job's records: its d[] point here */
	size_t n[NDIR];		/* iterations */
	size_t nr[NDIR];	/* ... with a time > 0 */
	double s[NDIR], s2[NDIR];	/* sums of their rates and squared rates */
	double rlo[NDIR], rhi[NDIR];	/* their lowest and highest rate (equal: std 0) */
	double ts;		/* the latest document's time */
	double tlo_ms, thi_ms;	/* the earliest and latest timestamp_ms > 0 (0: none) */
	struct foldver *vers;	/* the first job of each fio version */
	size_t nvers;
	/*
	 * Only when the table prints every iteration (perftest without
	 * --no-iterations): each one's time, bytes moved and input order,
	 * 24 bytes, where its job and direction record were 192.
	 */
	double *rt[NDIR], *io[NDIR];
	size_t *seq[NDIR];
	size_t cap[NDIR];
	/* with FOLD_LAT (plot): each one's clat p50, p99, p99.9 (µs), FOLD_NPCT a row */
	double *lat[NDIR];
};

enum {
	FOLD_TIMES = 1,		/* keep each iteration's time, bytes and order (struct foldcls) */
	FOLD_LAT = 2,		/* ... and its latency percentiles (with FOLD_TIMES) */
};
#define FOLD_NPCT 3
/*
 * @keep: what of each iteration to keep, 0 or FOLD_*; @sel2, when not NULL,
 * a second grouping the same jobs are read for (ratio's baseline and
 * candidate selectors): a class is then one label under each, and a job
 * either selects is folded
 */
struct fold *fold_new(const struct selector *sel, const struct selector *sel2, int keep);
void fold_free(struct fold *f);
/* ratio's sides: the first job both selectors took, said, or NULL */
const char *fold_both(const struct fold *f);
/* The class whose first job's direction record @d is, or NULL (a kept other job). */
const struct foldcls *fold_class(const struct fold *f, const struct dirstat *d);
/*
 * What the folded jobs on the points of @s[0..ns) (@f[i] the fold of
 * @s[i]) say beside their rates: every class's fio versions, each series'
 * in the order their first jobs came, one series after the other (a
 * version may repeat; @vers is the caller's to free), the latest document
 * time (s), and the range of their times in ms (lo > hi: none).
 */
struct fold_facts {
	const char **vers;
	size_t nvers;
	double ts, lo_ms, hi_ms;
};
void fold_facts(const struct series *const *s, const struct fold *const *f, size_t ns,
		struct fold_facts *out);
/*
 * The iterations of direction @dir on point @bg (kept with FOLD_TIMES): the
 * times and bytes of its classes in input order (and, when @lat is not
 * NULL, with FOLD_LAT their percentiles, FOLD_NPCT each; else NULL), one
 * class's own arrays or several classes' merged into *@own (the caller
 * frees it); their number.
 */
size_t fold_iters(const struct bsgroup *bg, int dir, const struct fold *f, const double **rt,
		  const double **io, const double **lat, double **own);

/* "/dev/x on host h, modeled (coop_backend=sim, time scale 10)" */
char *series_name(const struct series *s);
/* "series " + series_name() */
char *series_title(const struct series *s);
void series_tags(const struct series *s, struct table *t);
/*
 * "direct 1 / 0, bs 4096,65536 / 8192,65536": the parameters in which the
 * jobs of @a and @b differ on a point of @axis both have, compared point by
 * point (so the axis itself shows only what differs beside the point: the
 * other direction's block size), values of several jobs "1|4", and
 * "iodepth 1 / 4 at bs 4096" where not every point compared differs so;
 * "" when none; the caller frees.
 */
char *series_diff(const struct series *a, const struct series *b, const char *axis);

#endif
