/* SPDX-License-Identifier: GPL-2.0-only */
/* The table builders, one per subcommand. */
#ifndef FIOTAB_TABLES_H
#define FIOTAB_TABLES_H

#include "fiotab.h"
#include "group.h"
#include "table.h"

struct ratio_opts {
	double alpha;		/* significance level of the noise test */
};

/* The axis column (perftest's "blocksize", or --x's parameter) and its cell. */
struct col *axis_col(struct table *t, const struct serieslist *sl);
void axis_cell(struct table *t, const struct serieslist *sl, int row, const struct bsgroup *g);

/* Each returns 0, or -1 after saying why on stderr (e.g. no usable jobs). */
/*
 * blockdev-perftest's tables from perftest's fold (group.h), @sl built
 * from its jobs; with @no_iter (--no-iterations) without the iteration
 * columns.
 */
int perftest_fold_tables(const struct serieslist *sl, const struct fold *f, int no_iter,
			 struct tablist *out);
/*
 * seed 000's ratio table of @cand over @base; @bf and @cf the folds their
 * jobs were read into (one for both when one read served both selectors)
 */
int ratio_table(const struct serieslist *sl, const struct series *base, const struct fold *bf,
		const struct series *cand, const struct fold *cf, const struct ratio_opts *o,
		struct tablist *out);
/*
 * From folded jobs (group.h): the fio versions note of the classes on the
 * points of @s[0..ns) (@f[i] the fold of @s[i]), each series' in the order
 * their first jobs came, one after the other; returns the latest time.
 */
double fold_meta(struct table *t, const struct series *const *s, const struct fold *const *f,
		 size_t ns);
int iozone_tables(const struct jobset *js, struct tablist *out);
int bonnie_tables(const struct jobset *js, struct tablist *out);
int dd_tables(const struct jobset *js, struct tablist *out);
int summary_tables(const struct jobset *js, struct tablist *out);
/* plot: SVG of the perftest series to @f; @fold the jobs were folded into (FOLD_LAT), or NULL */
int svg_plot(FILE *f, const struct serieslist *sl, const struct fold *fold);

/* Splits @js's jobs into real / modeled-per-scale partitions (summary, dd...). */
struct partition {
	int modeled;
	double scale;
	const struct job **jobs;
	size_t n, cap;
};
size_t partition_jobs(const struct jobset *js, struct partition **out);
void partition_free(struct partition *p, size_t n);
/*
 * 1 when @p's jobs ran on more than one host: a text layout then shows the
 * host, or two hosts' jobs of one name print alike but for their figures.
 */
int partition_hosts(const struct partition *p);
/* "real" or "modeled (coop_backend=sim, time scale N)" */
char *mode_label(int modeled, double scale);
/*
 * Runs @build on the real and each modeled partition of @js; @build returns
 * the number of tables it added.  -1 (said on stderr) when none was.
 */
int per_partition(const struct jobset *js, const char *what,
		  int (*build)(const struct partition *p, struct tablist *out),
		  struct tablist *out);
/* "WHAT, real" / "WHAT, modeled (...)" */
char *titled(const char *what, const struct partition *p);
void mode_tags(struct table *t, int modeled, double scale);

#endif
