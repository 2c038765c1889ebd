// SPDX-License-Identifier: GPL-2.0-only
/*
 * The same fio run read twice: fio --status-interval writes one run as
 * several cumulative snapshot documents, and a file given twice (or copied)
 * repeats its documents.  Taken as iterations they double n in Welch's test
 * and fill perftest's columns with one run.  A job record starts at its
 * document's timestamp_ms less its runtime (jobs.c's job_runtime()); two
 * records of one host and job name from different documents whose starts
 * are closer than half the earlier one's runtime are the same run (a
 * genuine repeat starts at least one whole runtime later), and the later
 * document is refused.
 *
 * What is kept is 8 bytes a job (its document and runtime; per document
 * its time and place), not the job: perftest's folding frees the jobs.
 * Each host and name keeps its records sorted by start, so a new record is
 * compared with its neighbours only: a record within an earlier one's half
 * runtime would have been refused with it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "identity.h"
#include "strmap.h"

struct rec {
	uint32_t doc;		/* index into samerun.docs */
	uint32_t rt;		/* job_runtime, ms */
};

struct runs_of {		/* one host and job name */
	struct rec *v;		/* by start */
	size_t n, cap;
	uint32_t maxrt;
};

struct rdoc {
	double ts_ms;
	uint32_t file;		/* index into samerun.files */
	uint32_t idx;		/* 1-based index of the document in its file */
};

struct samerun {
	struct strmap map;	/* "host\x1fname" -> index into k */
	struct runs_of *k;
	size_t nk;
	struct rdoc *docs;
	size_t ndocs;
	char **files;
	size_t nfiles;
};

static double start(const struct samerun *s, const struct rec *r)
{
	return s->docs[r->doc].ts_ms - r->rt;
}

static struct runs_of *runs_of(struct samerun *s, const struct job *j)
{
	char *key = xasprintf("%s\x1f%s", j->host, j->name);
	size_t i = map_get(&s->map, key, s->nk);

	free(key);
	if (i == s->nk) {
		s->k = xrealloc(s->k, (s->nk + 1) * sizeof(*s->k));
		memset(&s->k[s->nk++], 0, sizeof(*s->k));
	}
	return &s->k[i];
}

/* First record of @k starting at or after @t. */
static size_t lower(const struct samerun *s, const struct runs_of *k, double t)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (start(s, &k->v[mid]) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* @a starts at or before @b: are they one run? */
static int one_run(double a, uint32_t rt_a, double b)
{
	return b == a || (b - a) * 2 < rt_a;
}

/* A record of @k that is the run starting at @t for @rt ms, or NULL. */
static const struct rec *clash(const struct samerun *s, const struct runs_of *k, double t,
			       uint32_t rt)
{
	size_t i = lower(s, k, t), b;

	for (b = i; b-- > 0 && (t - start(s, &k->v[b])) * 2 < k->maxrt;)
		if (one_run(start(s, &k->v[b]), k->v[b].rt, t))
			return &k->v[b];
	return i < k->n && one_run(t, rt, start(s, &k->v[i])) ? &k->v[i] : NULL;
}

static void insert(struct samerun *s, struct runs_of *k, uint32_t doc, uint32_t rt)
{
	double t = s->docs[doc].ts_ms - rt;
	size_t i = k->n && start(s, &k->v[k->n - 1]) <= t ? k->n : lower(s, k, t);

	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 4;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	memmove(&k->v[i + 1], &k->v[i], (k->n - i) * sizeof(*k->v));
	k->v[i].doc = doc;
	k->v[i].rt = rt;
	k->n++;
	if (rt > k->maxrt)
		k->maxrt = rt;
}

static uint32_t add_doc(struct samerun *s, const struct jobdoc *jd, const char *file,
			unsigned idx)
{
	if (!s->nfiles || strcmp(s->files[s->nfiles - 1], file)) {
		s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof(*s->files));
		s->files[s->nfiles++] = xstrdup(file);
	}
	s->docs = xrealloc(s->docs, (s->ndocs + 1) * sizeof(*s->docs));
	s->docs[s->ndocs].ts_ms = jd->timestamp_ms;
	s->docs[s->ndocs].file = (uint32_t)(s->nfiles - 1);
	s->docs[s->ndocs].idx = idx;
	return (uint32_t)s->ndocs++;
}

int samerun_doc(struct jobset *js, size_t first, const uint32_t *rt, const char *file,
		unsigned idx, char **why)
{
	struct samerun *s = js->runs;
	size_t i;
	uint32_t doc;

	if (first == js->n)
		return 0;
	if (!s)
		s = js->runs = xcalloc(1, sizeof(*s));
	for (i = first; i < js->n; i++) {
		const struct job *j = &js->v[i];
		double t = j->doc->timestamp_ms - rt[i - first];
		const struct rec *r = clash(s, runs_of(s, j), t, rt[i - first]);
		const struct rdoc *d;

		if (!r)
			continue;
		d = &s->docs[r->doc];
		*why = xasprintf("job %s: %s document %u and %s document %u are the same fio run (their starts, timestamp_ms less runtime, are %.0f ms apart, under half the earlier one's runtime of %u ms): a --status-interval snapshot or the same output given twice; keep fio's final output once",
				 job_ref(j->name, j->host), s->files[d->file], d->idx,
				 file, idx, fabs(t - start(s, r)),
				 start(s, r) <= t ? r->rt : rt[i - first]);
		return -1;
	}
	doc = add_doc(s, js->v[first].doc, file, idx);
	for (i = first; i < js->n; i++)
		insert(s, runs_of(s, &js->v[i]), doc, rt[i - first]);
	return 0;
}

void samerun_free(struct samerun *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nk; i++)
		free(s->k[i].v);
	free(s->k);
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->docs);
	map_free(&s->map);
	free(s);
}
