/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Series and iterations: how direction records become the rows of the
 * perftest, ratio and plot tables (rules in README.md, "perftest").
 */
#ifndef FIOTAB_GROUP_H
#define FIOTAB_GROUP_H

#include "fiotab.h"

struct iter {
	const struct job *j;
	double t;		/* seconds */
	double bytes;
};

struct bsgroup {
	uint64_t bs;
	struct iter *it[NDIR];
	size_t n[NDIR], cap[NDIR];
};

struct series {
	char *label;		/* target, or the --series label */
	char *host;
	int modeled;
	double scale;
	struct bsgroup *g;
	size_t ng;
	const struct job **jobs;	/* every job used, for the version note */
	size_t njobs, capjobs;
};

struct table;

struct serieslist {
	struct series *v;
	size_t n;
};

struct selector {
	char **patterns;	/* --series regexes; none = group by target */
	int npatterns;
	int match_target;	/* also try the target (ratio's selectors) */
};

/* Groups @js; returns -1 after reporting a bad regex. */
int series_build(const struct jobset *js, const struct selector *sel,
		 struct serieslist *out);
void series_free(struct serieslist *l);
/* Sorts each series' block sizes descending. */
void series_sort(struct serieslist *l);
/*
 * Per-iteration rates bytes/s of one direction, leaving out t = 0, in a
 * new array (the caller frees it) of *@n entries.  On the heap: a group
 * holds one entry per job, and a million jobs do not fit on a stack.
 */
double *bsgroup_rates(const struct bsgroup *g, int dir, size_t *n);
/* "/dev/x on host h, modeled (coop_backend=sim, time scale 10)" */
char *series_name(const struct series *s);
/* "series " + series_name() */
char *series_title(const struct series *s);
void series_tags(const struct series *s, struct table *t);

#endif
