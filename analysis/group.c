// SPDX-License-Identifier: GPL-2.0-only
/*
 * Grouping direction records into series (one table each) and, within a
 * series, into block-size groups whose members are the iterations.
 *
 * The series key is label + host + mode: a modeled (coop_backend=sim) job
 * never lands in the same series as a real one, nor two time scales together,
 * and fio's "All clients" aggregate (host "All clients") never joins a host.
 * A hash of the keys keeps 1,000-file inputs linear.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "tables.h"
#include "strmap.h"
#include "table.h"

/* The series label of @j, or NULL when --series patterns exclude it. */
static char *label_of(const struct job *j, const struct selector *sel, regex_t *re)
{
	regmatch_t m[2];
	int i;

	if (!sel->npatterns)
		return xstrdup(j->target);
	for (i = 0; i < sel->npatterns; i++) {
		const char *subj[2] = { j->name, sel->match_target ? j->target : NULL };
		int s;

		for (s = 0; s < 2 && subj[s]; s++) {
			if (regexec(&re[i], subj[s], 2, m, 0))
				continue;
			if (re[i].re_nsub >= 1 && m[1].rm_so >= 0)
				return strndup(subj[s] + m[1].rm_so,
					       (size_t)(m[1].rm_eo - m[1].rm_so));
			return xstrdup(sel->patterns[i]);
		}
	}
	return NULL;
}

static void add_iter(struct series *s, const struct job *j, int dir)
{
	const struct dirstat *d = &j->d[dir];
	struct bsgroup *g = NULL;
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (s->g[i].bs == d->bs) {
			g = &s->g[i];
			break;
		}
	if (!g) {
		s->g = xrealloc(s->g, (s->ng + 1) * sizeof(*s->g));
		g = &s->g[s->ng++];
		memset(g, 0, sizeof(*g));
		g->bs = d->bs;
	}
	if (g->n[dir] == g->cap[dir]) {
		g->cap[dir] = g->cap[dir] ? 2 * g->cap[dir] : 4;
		g->it[dir] = xrealloc(g->it[dir], g->cap[dir] * sizeof(struct iter));
	}
	g->it[dir][g->n[dir]++] = (struct iter){ j, d->runtime_s, d->io_bytes };
}

int series_build(const struct jobset *js, const struct selector *sel,
		 struct serieslist *out)
{
	regex_t *re = xmalloc(sel->npatterns * sizeof(*re));
	struct strmap map = { 0 };
	size_t i, cap = 0;
	int k, err;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < sel->npatterns; k++) {
		err = regcomp(&re[k], sel->patterns[k], REG_EXTENDED);
		if (err) {
			char msg[128];

			regerror(err, &re[k], msg, sizeof(msg));
			warnx_("bad --series regex '%s': %s", sel->patterns[k], msg);
			while (k--)
				regfree(&re[k]);
			free(re);
			return -1;
		}
	}
	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];
		char *label = label_of(j, sel, re), *key;
		struct series *s;
		size_t idx;
		int dir, used = 0;

		if (!label)
			continue;
		key = xasprintf("%s\x1f%s\x1f%d\x1f%.17g", label, j->host, j->modeled,
				j->scale);
		idx = map_get(&map, key, out->n);
		free(key);
		if (idx == out->n) {
			if (out->n == cap) {
				cap = cap ? 2 * cap : 16;
				out->v = xrealloc(out->v, cap * sizeof(*out->v));
			}
			s = &out->v[out->n++];
			memset(s, 0, sizeof(*s));
			s->label = label;
			s->host = xstrdup(j->host);
			s->modeled = j->modeled;
			s->scale = j->scale;
		} else {
			free(label);
		}
		s = &out->v[idx];
		/* the thread's tables have W and R; trims show in summary and dd */
		for (dir = DIR_READ; dir <= DIR_WRITE; dir++)
			if (j->d[dir].present) {
				add_iter(s, j, dir);
				used = 1;
			}
		if (used) {
			if (s->njobs == s->capjobs) {
				s->capjobs = s->capjobs ? 2 * s->capjobs : 16;
				s->jobs = xrealloc(s->jobs, s->capjobs * sizeof(*s->jobs));
			}
			s->jobs[s->njobs++] = j;
		}
	}
	map_free(&map);
	for (k = 0; k < sel->npatterns; k++)
		regfree(&re[k]);
	free(re);
	return 0;
}

static int bs_desc(const void *a, const void *b)
{
	const struct bsgroup *x = a, *y = b;

	return (x->bs < y->bs) - (x->bs > y->bs);
}

void series_sort(struct serieslist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].ng)
			qsort(l->v[i].g, l->v[i].ng, sizeof(struct bsgroup), bs_desc);
}

void series_free(struct serieslist *l)
{
	size_t i, g;
	int d;

	for (i = 0; i < l->n; i++) {
		struct series *s = &l->v[i];

		for (g = 0; g < s->ng; g++)
			for (d = 0; d < NDIR; d++)
				free(s->g[g].it[d]);
		free(s->g);
		free(s->jobs);
		free(s->label);
		free(s->host);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

double *bsgroup_rates(const struct bsgroup *g, int dir, size_t *n)
{
	double *out = xmalloc(g->n[dir] * sizeof(*out));
	size_t i;

	*n = 0;
	for (i = 0; i < g->n[dir]; i++)
		if (g->it[dir][i].t > 0)
			out[(*n)++] = g->it[dir][i].bytes / g->it[dir][i].t;
	return out;
}

char *series_name(const struct series *s)
{
	char *host = strcmp(s->host, "-") ? xasprintf(" on host %s", s->host) : xstrdup("");
	char *mode = mode_label(s->modeled, s->scale);
	char *r = xasprintf("%s%s%s%s", s->label, host, s->modeled ? ", " : "",
			    s->modeled ? mode : "");

	free(host);
	free(mode);
	return r;
}

char *series_title(const struct series *s)
{
	char *name = series_name(s), *r = xasprintf("series %s", name);

	free(name);
	return r;
}

void series_tags(const struct series *s, struct table *t)
{
	table_tag(t, "target", s->label);
	/* "-" (a local run) becomes the local hostname in the dashboards */
	table_tag(t, "host", s->host);
	mode_tags(t, s->modeled, s->scale);
}
