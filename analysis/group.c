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
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "identity.h"
#include "tables.h"
#include "strmap.h"
#include "table.h"

/*
 * A map from fixed-size binary keys (structs of interned pointers and
 * numbers, zeroed padding included) to indexes: the per-job lookups of
 * series_build() without formatting a string key for each job.
 */
struct bmap {
	unsigned char *keys;
	size_t *vals;
	unsigned char *used;
	size_t cap, n, ksz;
};

static uint64_t bhash(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; n; p++, n--)
		h = (h ^ *p) * 0x100000001b3ULL;
	return h ^ (h >> 32);
}

/* The value of @key, inserting @newval when absent. */
static size_t bmap_get(struct bmap *m, const void *key, size_t ksz, size_t newval)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct bmap nm = { 0 };

		nm.cap = m->cap ? 2 * m->cap : 64;
		nm.ksz = ksz;
		nm.keys = xmalloc(nm.cap * ksz);
		nm.vals = xmalloc(nm.cap * sizeof(size_t));
		nm.used = xcalloc(nm.cap, 1);
		for (i = 0; i < m->cap; i++)
			if (m->used[i])
				bmap_get(&nm, m->keys + i * ksz, ksz, m->vals[i]);
		free(m->keys);
		free(m->vals);
		free(m->used);
		*m = nm;
	}
	for (i = bhash(key, ksz) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (!memcmp(m->keys + i * ksz, key, ksz))
			return m->vals[i];
	memcpy(m->keys + i * ksz, key, ksz);
	m->used[i] = 1;
	m->vals[i] = newval;
	m->n++;
	return newval;
}

/* Sets the value of @key, which is in @m. */
static void bmap_set(struct bmap *m, const void *key, size_t ksz, size_t val)
{
	size_t i;

	for (i = bhash(key, ksz) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (!memcmp(m->keys + i * ksz, key, ksz)) {
			m->vals[i] = val;
			return;
		}
	bmap_get(m, key, ksz, val);
}

static void bmap_free(struct bmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/*
 * Each label and the --series pattern that gave it, per selector: two
 * patterns giving one label ('^old-(.*)-[0-9]+$' and '^new-(.*)-[0-9]+$'
 * on old-x-1 and new-x-1) would merge two series into one.  The first such
 * pair is kept (labels are given as documents are read, when folded) and
 * series_build() refuses it.
 */
static struct {
	struct strmap seen;		/* "SELECTOR\x1fLABEL" -> pattern index */
	const struct selector *sel;	/* of the first clash, or NULL */
	int a, b;
	const char *label;
} labels_seen;

static void label_given(const struct selector *sel, int pat, const char *label)
{
	char *key = xasprintf("%p\x1f%s", (const void *)sel, label);
	size_t k = map_get(&labels_seen.seen, key, (size_t)pat);

	free(key);
	if (k != (size_t)pat && !labels_seen.sel) {
		labels_seen.sel = sel;
		labels_seen.a = (int)k;
		labels_seen.b = pat;
		labels_seen.label = label;
	}
}

/*
 * A job two of one selector's patterns take (--series '(-w-)' --series
 * '(4096)' on perftest-w-4096-1): it would go to the first one's series,
 * and the second's would lack it without a word.  The first such job is
 * kept, as a clash of labels is.
 */
static struct {
	const struct selector *sel;
	int a, b;
	char *job;
} taken_twice;

static void taken_by(const struct job *j, const struct selector *sel, regex_t *re, int first)
{
	int k, s;

	if (taken_twice.sel)
		return;
	for (k = first + 1; k < sel->npatterns; k++) {
		const char *subj[2] = { j->name, sel->match_target ? j->conf->target : NULL };

		for (s = 0; s < 2 && subj[s]; s++) {
			if (regexec(&re[k], subj[s], 0, NULL, 0))
				continue;
			taken_twice.sel = sel;
			taken_twice.a = first;
			taken_twice.b = k;
			taken_twice.job = xasprintf("%s (%s, run %u)", job_ref(j->name, j->host),
						    j->doc->file, j->doc->run);
			return;
		}
	}
}

/* -1 after saying so when two of @sel's patterns gave one label, or took one job. */
static int label_clash(const struct selector *sel)
{
	if (taken_twice.sel == sel) {
		warnx_("%s '%s' and '%s' both take job %s: a job is in one series, and the second's would lack it; make the patterns exclusive",
		       sel->match_target ? "the patterns of one ratio side" : "--series",
		       sel->patterns[taken_twice.a], sel->patterns[taken_twice.b], taken_twice.job);
		return -1;
	}
	if (labels_seen.sel != sel)
		return 0;
	warnx_("--series '%s' and --series '%s' both label series '%s': their jobs would be one series; make the labels differ (e.g. keep the prefix in the capture group)",
	       sel->patterns[labels_seen.a], sel->patterns[labels_seen.b], labels_seen.label);
	return -1;
}

/* The series label of @j (interned), or NULL when --series patterns exclude it. */
static char *label_of(const struct job *j, const struct selector *sel, regex_t *re)
{
	regmatch_t m[2];
	int i;

	if (!sel->npatterns)
		return (char *)j->conf->target;	/* interned, like every label */
	for (i = 0; i < sel->npatterns; i++) {
		const char *subj[2] = { j->name, sel->match_target ? j->conf->target : NULL };
		int s;

		for (s = 0; s < 2 && subj[s]; s++) {
			if (regexec(&re[i], subj[s], 2, m, 0))
				continue;
			if (re[i].re_nsub >= 1 && m[1].rm_so >= 0) {
				char *l = strndup(subj[s] + m[1].rm_so,
						  (size_t)(m[1].rm_eo - m[1].rm_so));
				const char *il = intern(l);

				free(l);
				label_given(sel, i, il);
				taken_by(j, sel, re, i);
				return (char *)il;
			}
			label_given(sel, i, intern(sel->patterns[i]));
			taken_by(j, sel, re, i);
			return (char *)intern(sel->patterns[i]);
		}
	}
	return NULL;
}

/*
 * Options that name things rather than configure them: two runs that
 * differ only here are iterations of one configuration.
 */
static int ignored_opt(const char *k)
{
	static const char *const ign[] = { "description", "write_bw_log", "write_iops_log",
					   "write_lat_log", "write_hist_log", "output" };
	size_t i;

	for (i = 0; i < sizeof(ign) / sizeof(*ign); i++)
		if (!strcmp(k, ign[i]))
			return 1;
	return 0;
}

/* rw as a pattern: a write and a read job of one sweep are one series */
static const char *rw_class(const char *rw)
{
	static const char *const cls[][2] = {
		{ "read", "read/write" }, { "write", "read/write" },
		{ "randread", "randread/randwrite" }, { "randwrite", "randread/randwrite" },
		{ "readwrite", "rw" }, { "rw", "rw" },
	};

	return PAIR_LOOKUP(cls, rw);
}

/* A job's parameters: interned name, value pairs sorted by name. */
struct params {
	size_t fam;		/* index of its target/host/mode family */
	const char **kv;
	size_t n;
};

static int has_rw(const struct job *j)
{
	return j->d[DIR_READ]->present || j->d[DIR_WRITE]->present || j->d[DIR_MIXED]->present;
}

/*
 * bsrange/bssplit (or a bs fiotab cannot read), or the mixed record of
 * reads and writes of different bs (unified_rw_reporting, randrw
 * bs=4k,64k): the transfer size varies from I/O to I/O, and each run's
 * mean is another number (4k/50:64k/50: 23831 bytes in one run, 18641 in
 * its repeat).  Points and series of
 * block sizes would split one configuration's repeats, and IOPS = rate /
 * bs mix runs: refused (1 after saying so); summary and dd show such jobs.
 */
static int varying_bs(const struct job *j)
{
	const char *how = job_opt(j, "bssplit"), *what = "bssplit";
	int d;

	const struct dirstat *m = j->d[DIR_MIXED];

	if (!j->conf->mean_bs && !(m->present && m->bs != j->conf->bs[DIR_READ] &&
				   m->bs != j->conf->bs[DIR_WRITE]))
		return 0;
	if (!j->conf->mean_bs) {
		warnx_("%s: job %s: its mixed record (unified_rw_reporting) sums reads and writes of block sizes %llu and %llu (this run's mean: %llu bytes), and perftest, ratio and plot go by block size (points, series, IOPS = rate / bs), which would split its repeats: refused; summary and dd show it",
		       j->doc->file, job_ref(j->name, j->host), (unsigned long long)j->conf->bs[DIR_READ],
		       (unsigned long long)j->conf->bs[DIR_WRITE], (unsigned long long)m->bs);
		return 1;
	}
	if (!how) {
		how = job_opt(j, "bsrange");
		what = "bsrange";
	}
	if (!how) {
		how = job_opt(j, "bs");
		what = "bs (not a size fiotab reads)";
	}
	for (d = 0; d < NDIR && !j->d[d]->present; d++)
		;
	warnx_("%s: job %s ran %s=%s: its transfer size varies from I/O to I/O (this run's mean: %llu bytes), and perftest, ratio and plot go by block size (points, series, IOPS = rate / bs), which would split its repeats: refused; summary and dd show it",
	       j->doc->file, job_ref(j->name, j->host), what, how ? how : "?", d < NDIR ? (unsigned long long)j->d[d]->bs : 0ULL);
	return 1;
}

static void push(struct params *p, const char *k, const char *v)
{
	p->kv = xrealloc(p->kv, (p->n + 1) * 2 * sizeof(*p->kv));
	p->kv[2 * p->n] = intern(k);
	p->kv[2 * p->n + 1] = intern(v);
	p->n++;
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Every option of the job, with the four the tables read as values fio
 * means: bs as the block size in bytes of its directions (from the mean
 * transfer size with bsrange/bssplit), rw as its pattern, iodepth and numjobs
 * with fio's default 1 (unset and 1 are the same configuration).
 */
static void job_params(const struct job *j, struct params *p)
{
	uint64_t b[NDIR];
	char buf[64];
	size_t i, nb = 0;
	int d;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < j->conf->nopts; i++) {
		const char *k = j->conf->opts[2 * i];

		if (ignored_opt(k) || !strcmp(k, "rw") || !strcmp(k, "bs") ||
		    !strcmp(k, "iodepth") || !strcmp(k, "numjobs"))
			continue;
		push(p, k, j->conf->opts[2 * i + 1]);
	}
	/*
	 * A read and a write job of one sweep are one series: their R and W
	 * columns keep them apart.  Their mixed records (unified_rw_reporting=1)
	 * share the M column: rw as it ran, or they would average as repeats.
	 */
	push(p, "rw", j->d[DIR_MIXED]->present ? j->conf->rw : rw_class(j->conf->rw));
	snprintf(buf, sizeof(buf), "%d", j->conf->iodepth);
	push(p, "iodepth", buf);
	snprintf(buf, sizeof(buf), "%d", j->conf->numjobs);
	push(p, "numjobs", buf);
	buf[0] = '\0';
	for (d = 0; d < NDIR; d++) {
		if (d == DIR_TRIM || !j->d[d]->present)
			continue;
		for (i = 0; i < nb && b[i] != j->d[d]->bs; i++)
			;
		if (i == nb) {
			b[nb++] = j->d[d]->bs;
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%llu",
				 nb > 1 ? "," : "", (unsigned long long)j->d[d]->bs);
		}
	}
	push(p, "bs", buf);
	qsort(p->kv, p->n, 2 * sizeof(*p->kv), kv_cmp);
}

/*
 * job_params() once per configuration, not per job: iterations and repeated
 * runs share their pairs (@cache maps the configuration to its index in
 * *@uniq, which owns the pairs).
 */
struct params_cache {
	struct bmap map;
	struct params *v;
	size_t n;
};

static void job_params_cached(const struct job *j, struct params *p, struct params_cache *c)
{
	struct {
		const void *opts, *rw;
		size_t nopts;
		int iodepth, numjobs;
		uint64_t bs[NDIR];
		int present[NDIR];
	} k;
	size_t idx;
	int d;

	memset(&k, 0, sizeof(k));	/* the padding too: the bytes are the key */
	k.opts = j->conf->opts;
	k.rw = j->conf->rw;
	k.nopts = j->conf->nopts;
	k.iodepth = j->conf->iodepth;
	k.numjobs = j->conf->numjobs;
	for (d = 0; d < NDIR; d++) {
		k.bs[d] = j->d[d]->bs;
		k.present[d] = j->d[d]->present;
	}
	idx = bmap_get(&c->map, &k, sizeof(k), c->n);
	if (idx == c->n) {
		c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
		job_params(j, &c->v[c->n++]);
	}
	*p = c->v[idx];
}

static void params_cache_free(struct params_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].kv);
	free(c->v);
	bmap_free(&c->map);
}

/* The value of @k in @p, NULL when the job has no such option. */
static const char *param(const struct params *p, const char *k)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->kv[2 * i], k))
			return p->kv[2 * i + 1];
	return NULL;
}

/* The point direction @dir of @j is on: its block size, else its @axis value. */
static const char *point_of(const struct job *j, const struct params *jp, const char *axis,
			    int dir, char *buf, size_t len)
{
	const char *xs = param(jp, axis);

	if (!strcmp(axis, "bs")) {
		snprintf(buf, len, "%llu", (unsigned long long)j->d[dir]->bs);
		return buf;
	}
	return xs ? xs : "(unset)";
}

/* Adds to @vary the names whose values differ between @a and @b (both sorted). */
static void diff_params(const struct params *a, const struct params *b, struct strmap *vary)
{
	size_t i = 0, k = 0;

	while (i < a->n || k < b->n) {
		int c = i == a->n ? 1 : k == b->n ? -1 : strcmp(a->kv[2 * i], b->kv[2 * k]);

		if (c < 0) {
			map_get(vary, a->kv[2 * i++], 0);
		} else if (c > 0) {
			map_get(vary, b->kv[2 * k++], 0);
		} else {
			if (a->kv[2 * i + 1] != b->kv[2 * k + 1])	/* interned */
				map_get(vary, a->kv[2 * i], 0);
			i++;
			k++;
		}
	}
}

static int name_rank(const char *k)
{
	static const char *const pref[] = { "bs", "iodepth", "numjobs", "rw", "rwmixread" };
	int i;

	for (i = 0; i < (int)(sizeof(pref) / sizeof(*pref)); i++)
		if (!strcmp(k, pref[i]))
			return i;
	return i;
}

static int name_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = name_rank(x), ry = name_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

/* The keys of @m in a new sorted array (bs, iodepth, numjobs, rw first). */
static const char **map_names(const struct strmap *m, size_t *n)
{
	const char **v = xmalloc((m->n + 1) * sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < m->cap; i++)
		if (m->keys[i])
			v[(*n)++] = m->keys[i];
	qsort(v, *n, sizeof(*v), name_cmp);
	return v;
}

/* A number when the whole value reads as one the way fio reads sizes */
static double as_number(const char *v)
{
	uint64_t n;

	return *v && !fio_parse_size(v, 1024, &n) && n < (1ULL << 53) ? (double)n : NAN;
}

static void add_iter(struct series *s, const struct job *j, int dir, const char *xs,
		     double x, int is_bs)
{
	const struct dirstat *d = j->d[dir];
	struct bsgroup *g = NULL;
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].xs, xs)) {
			g = &s->g[i];
			break;
		}
	if (!g) {
		s->g = xrealloc(s->g, (s->ng + 1) * sizeof(*s->g));
		g = &s->g[s->ng++];
		memset(g, 0, sizeof(*g));
		g->xs = xstrdup(xs);
		g->x = x;
		g->bs = is_bs ? d->bs : 0;
	}
	if (!g->n[dir])
		g->dbs[dir] = d->bs;
	if (g->n[dir] == g->cap[dir]) {
		g->cap[dir] = g->cap[dir] ? 2 * g->cap[dir] : 4;
		g->it[dir] = xrealloc(g->it[dir], g->cap[dir] * sizeof(struct iter));
	}
	g->it[dir][g->n[dir]++] = (struct iter){ d };
}

/* Appends "k=v" to *@s with @sep, and to *@t as a tag. */
static void add_param(char **s, char **t, const char *k, const char *v)
{
	char *n = xasprintf("%s%s%s=%s", *s, **s ? ", " : "", k, v);
	/* rw's pattern is not a direction: the dashboards' rw tag is */
	char *m = xasprintf("%s%s%s=%s", *t, **t ? TAGSEP : "",
			    strcmp(k, "rw") ? k : "rw_pattern", v);

	free(*s);
	free(*t);
	*s = n;
	*t = m;
}

/*
 * In family @f, does @pk take one value per value of @axis (and more than
 * one in all)?  Then it changes with the axis and sets no series apart.
 */
static int is_tied(const struct params *jp, char *const *labels, size_t n, size_t f,
		   const char *axis, const char *pk)
{
	struct strmap fn = { 0 };
	const char **seen = NULL;
	size_t nseen = 0, idx, i;
	int ok = 1;

	for (i = 0; i < n && ok; i++) {
		const char *xv, *pv;

		if (!labels[i] || jp[i].fam != f)
			continue;
		xv = param(&jp[i], axis);
		pv = param(&jp[i], pk);
		idx = map_get(&fn, xv ? xv : "", nseen);
		if (idx == nseen) {
			seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
			seen[nseen++] = pv ? pv : "";
		} else if (seen[idx] != (pv ? pv : "")) {
			ok = 0;
		}
	}
	map_free(&fn);
	free(seen);
	return ok && nseen > 1;
}

static double as_number(const char *v);

/* Is @k a number in every job that has a label? */
static int numeric_param(const struct params *jp, char *const *labels, size_t n, const char *k)
{
	size_t i;
	const char *v;

	for (i = 0; i < n; i++)
		if (labels[i] && (!(v = param(&jp[i], k)) || isnan(as_number(v))))
			return 0;
	return 1;
}

/*
 * With bs the axis, a point is one direction's block size; a job that
 * moves several directions has one block size each, and the others are
 * part of what this direction measured (randrw's writes of bs=4k,64k
 * share the device with 4k reads, those of bs=8k,64k with 8k ones).  The
 * jobs on one point of series @idx must then have the same block sizes
 * in every direction they move (jp's "bs", interned): else two
 * configurations would be averaged, refused (1 after saying so).  Jobs of
 * one direction (rw=write with bs=4k,64k and bs=8k,64k) have one "bs"
 * and pool.  @pts remembers each point's first job.
 */
static int one_bs_per_point(struct bmap *pts, size_t idx, int dir, const struct job *j,
			    size_t i, const struct params *jp, const struct jobset *js)
{
	struct { size_t idx; uint64_t bs; int dir; } k;
	size_t first;

	memset(&k, 0, sizeof(k));
	k.idx = idx;
	k.bs = j->d[dir]->bs;
	k.dir = dir;
	first = bmap_get(pts, &k, sizeof(k), i);
	if (first == i || param(&jp[first], "bs") == param(&jp[i], "bs"))
		return 0;
	warnx_("jobs %s (%s, bs %s) and %s (%s, bs %s) would be one %s point at block size %llu: the block size of their other direction differs, and it ran beside this one (rw=%s): configurations are never averaged; give each its own --series",
	       job_ref(js->v[first].name, js->v[first].host), js->v[first].doc->file,
	       param(&jp[first], "bs"), job_ref(j->name, j->host), j->doc->file, param(&jp[i], "bs"),
	       dir_name[dir],
	       (unsigned long long)k.bs, j->conf->rw);
	return 1;
}

/*
 * The default axis: bs when it varies (the threads' axis; the others then
 * set series apart), else the first numeric varying parameter (iodepth,
 * numjobs, rwmixread, then by name) every other numeric one changes with
 * (words, ioengine=libaio/psync, set series apart); bs when only words vary.
 */
static const char *default_axis(const char **names, size_t nn, const struct params *jp,
				char *const *labels, size_t n, const struct strmap *vary,
				size_t nfam)
{
	size_t c, o, f;

	if (!nn || !strcmp(names[0], "bs"))
		return nn ? names[0] : "bs";
	for (c = 0; c < nn; c++) {
		int ok = numeric_param(jp, labels, n, names[c]);

		/* words (ioengine=...) set series apart; numbers must follow c */
		for (o = 0; o < nn && ok; o++) {
			if (o == c || !numeric_param(jp, labels, n, names[o]))
				continue;
			for (f = 0; f < nfam && ok; f++)
				if (map_key(&vary[f], names[o]) &&
				    !is_tied(jp, labels, n, f, names[c], names[o]))
					ok = 0;
		}
		if (ok)
			return names[c];
	}
	for (c = 0; c < nn; c++)
		if (numeric_param(jp, labels, n, names[c]))
			return NULL;	/* several numbers vary independently */
	return "bs";
}

int series_build(const struct jobset *js, const struct selector *sel,
		 struct serieslist *out)
{
	regex_t *re = xmalloc(sel->npatterns * sizeof(*re));
	struct strmap map = { 0 }, all = { 0 };
	struct bmap fams = { 0 }, side = { 0 }, sidept = { 0 }, memo = { 0 }, pts = { 0 };
	struct params_cache pc = { 0 };
	unsigned side_run = 0;
	struct strmap *vary = NULL, *tied = NULL;
	struct params *jp = xcalloc(js->n ? js->n : 1, sizeof(*jp));
	struct params *ref = NULL;
	char **labels = xcalloc(js->n ? js->n : 1, sizeof(*labels));
	const char **names;
	size_t i, cap = 0, nfam = 0, nn, f, k2;
	int k, err, rc = -1, is_bs;
	const char *axis;

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
			free(jp);
			free(labels);
			return -1;
		}
	}
	/* 0: the labels (folded jobs were labelled as they were read) */
	for (i = 0; i < js->n; i++)
		(void)label_of(&js->v[i], sel, re);
	if (label_clash(sel)) {
		for (k = 0; k < sel->npatterns; k++)
			regfree(&re[k]);
		free(re);
		free(jp);
		free(labels);
		return -1;
	}
	/* 1: each job's family (label, host, mode) and parameters; what varies */
	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];

		if (!has_rw(j) || !(labels[i] = label_of(j, sel, re)))
			continue;
		if (varying_bs(j))
			goto out;
		{
			/* label and host are interned: their addresses name them */
			struct { const void *l, *h; double sc; int m; } fk;

			memset(&fk, 0, sizeof(fk));
			fk.l = labels[i];
			fk.h = j->host;
			fk.sc = j->conf->scale;
			fk.m = j->conf->modeled;
			f = bmap_get(&fams, &fk, sizeof(fk), nfam);
		}
		job_params_cached(j, &jp[i], &pc);
		jp[i].fam = f;
		if (f == nfam) {
			nfam++;
			vary = xrealloc(vary, nfam * sizeof(*vary));
			ref = xrealloc(ref, nfam * sizeof(*ref));
			memset(&vary[f], 0, sizeof(*vary));
			ref[f] = jp[i];
		} else {
			diff_params(&ref[f], &jp[i], &vary[f]);
		}
	}
	for (f = 0; f < nfam; f++)
		for (i = 0; i < vary[f].cap; i++)
			if (vary[f].keys[i])
				map_get(&all, vary[f].keys[i], 0);
	names = map_names(&all, &nn);
	out->varying = xstrdup("");
	for (i = 0; i < nn; i++) {
		char *v = xasprintf("%s%s%s", out->varying, i ? ", " : "", names[i]);

		free(out->varying);
		out->varying = v;
	}
	/* 2: the axis */
	axis = sel->x ? sel->x : default_axis(names, nn, jp, labels, js->n, vary, nfam);
	if (!axis) {
		warnx_("the jobs differ in %s: configurations are never averaged together; choose the axis with --x PARAM (the other parameters then make separate series)",
		       out->varying);
		free(names);
		goto out;
	}
	free(names);
	if (sel->x) {
		for (i = 0; i < js->n; i++)
			if (labels[i] && param(&jp[i], axis))
				break;
		if (i == js->n && nfam) {
			warnx_("--x %s: no job has that option (the parameters that vary: %s)", axis,
			       *out->varying ? out->varying : "none");
			goto out;
		}
	}
	if (!strcmp(axis, "rw")) {
		warnx_("--x rw: the directions are the tables' columns; rw's pattern (read/write, randread/randwrite, ...) sets series apart");
		goto out;
	}
	out->axis = intern(axis);
	is_bs = !strcmp(axis, "bs");
	out->numeric = 1;
	/*
	 * A parameter that changes with the axis, one value per axis value in
	 * its family (rate_iops scaled with iodepth), keys no series of its
	 * own: each row is still one configuration.  The tables say which.
	 */
	tied = xcalloc(nfam ? nfam : 1, sizeof(*tied));
	for (f = 0; f < nfam; f++)
		for (k2 = 0; k2 < vary[f].cap; k2++) {
			const char *pk = vary[f].keys[k2];

			if (pk && strcmp(pk, axis) && is_tied(jp, labels, js->n, f, axis, pk))
				map_get(&tied[f], pk, 0);
		}
	/* 3: series = family + the varying parameters but the axis */
	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];
		char *key, *params, *ptags;
		struct series *s;
		size_t idx, p;
		int dir, used = 0;

		if (!labels[i])
			continue;
		f = jp[i].fam;
		/* the same family and configuration: the same series */
		{
			struct { size_t f; const void *kv; } mkv = { f, jp[i].kv };

			idx = bmap_get(&memo, &mkv, sizeof(mkv), SIZE_MAX);
			if (idx != SIZE_MAX)
				goto have_series;
		}
		key = xasprintf("%zu", f);
		params = xstrdup("");
		ptags = xstrdup("");
		for (p = 0; p < jp[i].n; p++) {
			const char *pk = jp[i].kv[2 * p], *pv = jp[i].kv[2 * p + 1];
			char *nk;

			if (!map_key(&vary[f], pk) || !strcmp(pk, axis) || map_key(&tied[f], pk))
				continue;
			nk = xasprintf("%s\x1f%s=%s", key, pk, pv);
			free(key);
			key = nk;
			add_param(&params, &ptags, pk, pv);
		}
		/* an option some jobs of the family lack: unset is a value too */
		for (p = 0; p < vary[f].cap; p++) {
			const char *pk = vary[f].keys[p];
			char *nk;

			if (!pk || !strcmp(pk, axis) || param(&jp[i], pk) || map_key(&tied[f], pk))
				continue;
			nk = xasprintf("%s\x1f%s unset", key, pk);
			free(key);
			key = nk;
			add_param(&params, &ptags, pk, "(unset)");
		}
		idx = map_get(&map, key, out->n);
		free(key);
		if (idx == out->n) {
			if (out->n == cap) {
				cap = cap ? 2 * cap : 16;
				out->v = xrealloc(out->v, cap * sizeof(*out->v));
			}
			s = &out->v[out->n++];
			memset(s, 0, sizeof(*s));
			s->label = xstrdup(labels[i]);
			s->host = xstrdup(j->host);
			s->modeled = j->conf->modeled;
			s->scale = j->conf->scale;
			s->params = params;
			s->ptags = ptags;
			names = map_names(&tied[f], &nn);
			s->tied = xstrdup("");
			for (p = 0; p < nn; p++) {
				char *v = xasprintf("%s%s%s", s->tied, p ? ", " : "", names[p]);

				free(s->tied);
				s->tied = v;
			}
			free(names);
		} else {
			free(params);
			free(ptags);
		}
		{
			/* (SIZE_MAX above reserved the slot: set it) */
			struct { size_t f; const void *kv; } mkv = { f, jp[i].kv };

			bmap_set(&memo, &mkv, sizeof(mkv), idx);
		}
have_series:
		s = &out->v[idx];
		/* the thread's tables have W and R; trims show in summary and dd */
		for (dir = 0; dir < NDIR; dir++) {
			const char *xs;
			char buf[32], buf2[32];
			double x;

			if (dir == DIR_TRIM || !j->d[dir]->present)
				continue;
			xs = point_of(j, &jp[i], axis, dir, buf, sizeof(buf));
			x = as_number(xs);
			if (isnan(x))
				out->numeric = 0;
			if (is_bs && one_bs_per_point(&pts, idx, dir, j, i, jp, js))
				goto out;
			/*
			 * Two records of one point from one group of one run ran
			 * side by side (numjobs clones without group_reporting, or
			 * no stonewall between them): not iterations.
			 */
			if (j->groupid >= 0) {
				struct { size_t idx; const void *xp; uint64_t bsv; int dir, gid; } sk;
				size_t first;

				/* one run's jobs are contiguous: remember one run at a time */
				if (j->doc->run != side_run) {
					bmap_free(&side);
					bmap_free(&sidept);
					side_run = j->doc->run;
				}
				/* the point: its block size, else its (interned) axis value */
				memset(&sk, 0, sizeof(sk));
				sk.idx = idx;
				if (is_bs)
					sk.bsv = j->d[dir]->bs;
				else
					sk.xp = intern(xs);
				sk.dir = dir;
				sk.gid = j->groupid;
				first = bmap_get(&side, &sk, sizeof(sk), i);
				if (first != i) {
					if (j->doc->groups_unknown)
						warnx_("%s: jobs %s and %s are in groups of one fio --client run, one configuration: its JSON records no elapsed time, so whether they ran one after the other (stonewall) or side by side (new_group without stonewall) is unknown, and they are not taken as iterations; run each iteration as its own fio --client run (as perfpack's runner does), or fio on the server itself",
						       j->doc->file, job_ref(js->v[first].name, js->v[first].host),
						       job_ref(j->name, j->host));
					else if (j->doc->groups_ms > 0)
						warnx_("%s: jobs %s and %s ran side by side (groups of one fio run that overlapped: their longest runtimes add up to %.0f ms, more than the run's elapsed %.0f s; new_group without stonewall), one configuration: they are not iterations; put stonewall between iterations",
						       j->doc->file, job_ref(js->v[first].name, js->v[first].host),
						       job_ref(j->name, j->host), j->doc->groups_ms, j->doc->elapsed_s);
					else
						warnx_("%s: jobs %s and %s ran side by side (one group of one fio run, one configuration): they are not iterations; use group_reporting for numjobs clones, stonewall between iterations",
						       j->doc->file, job_ref(js->v[first].name, js->v[first].host),
						       job_ref(j->name, j->host));
					goto out;
				}
				/*
				 * Two points of one series (a bs sweep) from one group
				 * ran at once: each rate is the job's share of what
				 * they did together, not its point's alone.  Under
				 * fio --client (groups_unknown) a sweep in one run is
				 * read: its JSON cannot tell.
				 */
				sk.bsv = 0;
				sk.xp = NULL;
				first = j->doc->groups_unknown ? i : bmap_get(&sidept, &sk, sizeof(sk), i);
				if (first != i) {
					warnx_("%s: jobs %s and %s ran side by side (%s), two points of one series (%s %s and %s): each rate is the job's share of what they did at once, not its point's alone; put stonewall between the points",
					       j->doc->file, job_ref(js->v[first].name, js->v[first].host),
					       job_ref(j->name, j->host),
					       j->doc->groups_ms > 0 ? "groups of one fio run that overlapped, new_group without stonewall" :
					       "one group of one fio run", axis,
					       point_of(&js->v[first], &jp[first], axis, dir, buf2, sizeof(buf2)), xs);
					goto out;
				}
			}
			add_iter(s, j, dir, xs, x, is_bs);
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
	rc = 0;
out:
	map_free(&map);
	bmap_free(&side);
	bmap_free(&sidept);
	bmap_free(&pts);
	bmap_free(&fams);
	map_free(&all);
	for (f = 0; f < nfam; f++) {
		map_free(&vary[f]);
		if (tied)
			map_free(&tied[f]);
	}
	free(vary);
	free(tied);
	free(ref);
	bmap_free(&memo);
	params_cache_free(&pc);
	free(jp);
	free(labels);
	for (k = 0; k < sel->npatterns; k++)
		regfree(&re[k]);
	free(re);
	if (rc)
		series_free(out);
	return rc;
}

/* Is @name one of the ", "-separated @list? */
/* Whether @j has a record (not a trim) on point @xs. */
static int job_on(const struct job *j, const struct params *jp, const char *axis, const char *xs)
{
	char buf[32];
	int dir;

	for (dir = 0; dir < NDIR; dir++)
		if (dir != DIR_TRIM && j->d[dir]->present &&
		    !strcmp(point_of(j, jp, axis, dir, buf, sizeof(buf)), xs))
			return 1;
	return 0;
}

/* "4|8": the values of @name in the jobs of @jp[0..n) on point @xs, sorted. */
static char *values_at(const struct job *const *jobs, const struct params *jp, size_t n,
		       const char *axis, const char *xs, const char *name)
{
	const char **v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t nv = 0, i, k;
	char *out = xstrdup(""), *t;

	for (i = 0; i < n; i++) {
		const char *x;

		if (!job_on(jobs[i], &jp[i], axis, xs))
			continue;
		x = param(&jp[i], name);
		x = x ? x : "(unset)";
		for (k = 0; k < nv && strcmp(v[k], x); k++)
			;
		if (k == nv)
			v[nv++] = x;
	}
	qsort(v, nv, sizeof(*v), kv_cmp);
	for (k = 0; k < nv; k++) {
		t = xasprintf("%s%s%s", out, k ? "|" : "", v[k]);
		free(out);
		out = t;
	}
	free(v);
	return out;
}

static void append(char **s, const char *sep, const char *what)
{
	char *t = xasprintf("%s%s%s", *s, **s ? sep : "", what);

	free(*s);
	*s = t;
}

/*
 * @name's difference between the sides, point by point: "1 / 4" where
 * every point compared differs so, else "1 / 4 at 4096, 8192; 2 / 4 at
 * 65536"; "" when none.
 */
static char *name_diff(const struct series *a, const struct params *pa, const struct series *b,
		       const struct params *pb, const char *axis, const char *name)
{
	char **va = NULL, **vb = NULL, *out = xstrdup("");
	const char **at = NULL;
	size_t n = 0, npts = 0, i, k;

	for (i = 0; i < a->ng; i++) {
		const char *xs = a->g[i].xs;
		char *x, *y;

		for (k = 0; k < b->ng && strcmp(b->g[k].xs, xs); k++)
			;
		if (k == b->ng)
			continue;
		npts++;
		x = values_at(a->jobs, pa, a->njobs, axis, xs, name);
		y = values_at(b->jobs, pb, b->njobs, axis, xs, name);
		if (!strcmp(x, y)) {
			free(x);
			free(y);
			continue;
		}
		va = xrealloc(va, (n + 1) * sizeof(*va));
		vb = xrealloc(vb, (n + 1) * sizeof(*vb));
		at = xrealloc(at, (n + 1) * sizeof(*at));
		va[n] = x;
		vb[n] = y;
		at[n++] = xs;
	}
	/* the points with one and the same difference together */
	for (i = 0; i < n; i++) {
		char *g, *pts;
		size_t m = 0;

		if (!va[i])
			continue;
		pts = xstrdup("");
		for (k = i; k < n; k++) {
			if (!va[k] || strcmp(va[k], va[i]) || strcmp(vb[k], vb[i]))
				continue;
			append(&pts, ", ", at[k]);
			m++;
			if (k > i) {
				free(va[k]);
				free(vb[k]);
				va[k] = vb[k] = NULL;
			}
		}
		g = m == npts ? xasprintf("%s / %s", va[i], vb[i])
			      : xasprintf("%s / %s at %s %s", va[i], vb[i], axis, pts);
		append(&out, "; ", g);
		free(g);
		free(pts);
		free(va[i]);
		free(vb[i]);
	}
	free(va);
	free(vb);
	free(at);
	return out;
}

static struct params *all_params(const struct series *s)
{
	struct params *p = xmalloc((s->njobs ? s->njobs : 1) * sizeof(*p));
	size_t i;

	for (i = 0; i < s->njobs; i++)
		job_params(s->jobs[i], &p[i]);
	return p;
}

char *series_diff(const struct series *a, const struct series *b, const char *axis)
{
	struct params *pa = all_params(a), *pb = all_params(b);
	struct strmap all = { 0 };
	const char **names;
	char *out = xstrdup("");
	size_t n, i, k;

	for (i = 0; i < a->njobs; i++)
		for (k = 0; k < pa[i].n; k++)
			map_get(&all, pa[i].kv[2 * k], 0);
	for (i = 0; i < b->njobs; i++)
		for (k = 0; k < pb[i].n; k++)
			map_get(&all, pb[i].kv[2 * k], 0);
	names = map_names(&all, &n);
	for (i = 0; i < n; i++) {
		char *d = name_diff(a, pa, b, pb, axis, names[i]), *t;

		if (*d) {
			t = xasprintf("%s %s", names[i], d);
			append(&out, ", ", t);
			free(t);
		}
		free(d);
	}
	free(names);
	map_free(&all);
	for (i = 0; i < a->njobs; i++)
		free(pa[i].kv);
	for (i = 0; i < b->njobs; i++)
		free(pb[i].kv);
	free(pa);
	free(pb);
	return out;
}

static int bs_desc(const void *a, const void *b)
{
	const struct bsgroup *x = a, *y = b;

	return (x->bs < y->bs) - (x->bs > y->bs);
}

static int x_asc(const void *a, const void *b)
{
	const struct bsgroup *x = a, *y = b;

	return (x->x > y->x) - (x->x < y->x);
}

void series_sort(struct serieslist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (!l->v[i].ng)
			continue;
		if (l->axis && strcmp(l->axis, "bs") && l->numeric)
			qsort(l->v[i].g, l->v[i].ng, sizeof(struct bsgroup), x_asc);
		else if (!l->axis || !strcmp(l->axis, "bs"))
			qsort(l->v[i].g, l->v[i].ng, sizeof(struct bsgroup), bs_desc);
	}
}

void series_free(struct serieslist *l)
{
	size_t i, g;
	int d;

	for (i = 0; i < l->n; i++) {
		struct series *s = &l->v[i];

		for (g = 0; g < s->ng; g++) {
			for (d = 0; d < NDIR; d++)
				free(s->g[g].it[d]);
			free(s->g[g].xs);
		}
		free(s->g);
		free(s->params);
		free(s->ptags);
		free(s->tied);
		free(s->jobs);
		free(s->label);
		free(s->host);
	}
	free(l->v);
	free(l->varying);
	memset(l, 0, sizeof(*l));
}

size_t fold_iters(const struct bsgroup *bg, int dir, const struct fold *f, const double **rt,
		  const double **io, const double **lat, double **own)
{
	const struct foldcls **cl = xcalloc(bg->n[dir] ? bg->n[dir] : 1, sizeof(*cl));
	size_t *pos, ncl = 0, n = 0, i, k, best;

	for (i = 0; i < bg->n[dir]; i++) {
		const struct foldcls *fc = fold_class(f, bg->it[dir][i].d);

		if (fc) {
			cl[ncl++] = fc;
			n += fc->n[dir];
		}
	}
	*own = NULL;
	*rt = *io = NULL;
	if (lat)
		*lat = NULL;
	if (ncl == 1) {
		*rt = cl[0]->rt[dir];
		*io = cl[0]->io[dir];
		if (lat)
			*lat = cl[0]->lat[dir];
	} else if (ncl > 1) {
		double *m = xmalloc((2 + FOLD_NPCT) * n * sizeof(*m));

		pos = xcalloc(ncl, sizeof(*pos));
		for (i = 0; i < n; i++) {
			for (k = 0, best = ncl; k < ncl; k++)
				if (pos[k] < cl[k]->n[dir] &&
				    (best == ncl || cl[k]->seq[dir][pos[k]] < cl[best]->seq[dir][pos[best]]))
					best = k;
			m[i] = cl[best]->rt[dir][pos[best]];
			m[n + i] = cl[best]->io[dir][pos[best]];
			if (lat && cl[best]->lat[dir])
				memcpy(m + 2 * n + FOLD_NPCT * i, cl[best]->lat[dir] + FOLD_NPCT * pos[best],
				       FOLD_NPCT * sizeof(*m));
			pos[best]++;
		}
		free(pos);
		*own = m;
		*rt = m;
		*io = m + n;
		if (lat && cl[0]->lat[dir])	/* one fold: all kept them or none */
			*lat = m + 2 * n;
	}
	free(cl);
	return n;
}

static int ver_seq(const void *a, const void *b)
{
	const struct foldver *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

void fold_facts(const struct series *const *sv, const struct fold *const *fv, size_t ns,
		struct fold_facts *out)
{
	struct foldver *vers = NULL;
	size_t nv = 0, from, g, i, m;
	int dir;

	out->ts = 0;
	out->lo_ms = INFINITY;
	out->hi_ms = -INFINITY;
	for (m = 0; m < ns; m++) {
		const struct series *s = sv[m];

		from = nv;
		for (g = 0; g < s->ng; g++)
			for (dir = 0; dir < NDIR; dir++)
				for (i = 0; i < s->g[g].n[dir]; i++) {
					const struct foldcls *fc = fold_class(fv[m], s->g[g].it[dir][i].d);

					if (!fc)
						continue;
					if (fc->ts > out->ts)
						out->ts = fc->ts;
					if (fc->tlo_ms > 0) {
						out->lo_ms = fmin(out->lo_ms, fc->tlo_ms);
						out->hi_ms = fmax(out->hi_ms, fc->thi_ms);
					}
					vers = xrealloc(vers, (nv + fc->nvers) * sizeof(*vers));
					memcpy(vers + nv, fc->vers, fc->nvers * sizeof(*vers));
					nv += fc->nvers;
				}
		/* each series' versions in the order their first jobs came */
		qsort(vers + from, nv - from, sizeof(*vers), ver_seq);
	}
	out->vers = xmalloc((nv ? nv : 1) * sizeof(*out->vers));
	for (i = 0; i < nv; i++)
		out->vers[i] = vers[i].version;
	out->nvers = nv;
	free(vers);
}

double *bsgroup_rates(const struct bsgroup *g, int dir, const struct fold *f, size_t *n)
{
	double *out, *own;
	const double *rt, *io;
	size_t i, k;

	*n = 0;
	if (f) {
		k = fold_iters(g, dir, f, &rt, &io, NULL, &own);
		out = xmalloc((k ? k : 1) * sizeof(*out));
		for (i = 0; i < k; i++)
			if (rt[i] > 0)
				out[(*n)++] = per_s(io[i], rt[i]);
		free(own);
		return out;
	}
	out = xmalloc((g->n[dir] ? g->n[dir] : 1) * sizeof(*out));
	for (i = 0; i < g->n[dir]; i++)
		if (g->it[dir][i].d->runtime_s > 0)
			out[(*n)++] = per_s(g->it[dir][i].d->io_bytes, g->it[dir][i].d->runtime_s);
	return out;
}

char *series_name(const struct series *s)
{
	char *host = strcmp(s->host, "-") ? xasprintf(" on host %s", s->host) : xstrdup("");
	char *mode = mode_label(s->modeled, s->scale);
	char *r = xasprintf("%s%s%s%s%s%s", s->label, s->params && *s->params ? ", " : "",
			    s->params ? s->params : "", host, s->modeled ? ", " : "",
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
	if (s->ptags && *s->ptags) {
		char *tags = xasprintf("%s%s%s", t->tags ? t->tags : "", t->tags ? TAGSEP : "",
				       s->ptags);

		free(t->tags);
		t->tags = tags;
	}
	/* "-" (a local run) becomes the local hostname in the dashboards */
	table_tag(t, "host", s->host);
	mode_tags(t, s->modeled, s->scale);
}

/* perftest's, ratio's and plot's jobs folded as they are read (group.h, struct foldcls) */
struct fold {
	const struct selector *sel[2];	/* the second NULL but for ratio's two */
	regex_t *re[2];
	int nre[2];
	int bad;		/* a regex did not compile: series_build() says so */
	int keep;		/* FOLD_TIMES, FOLD_LAT */
	struct bmap cls;	/* class key -> index in v */
	struct foldcls **v;
	size_t n;
	struct bmap byds;	/* address of a class's direction record -> index */
	struct dirstat **own;	/* the records of the other kept jobs, NDIR each */
	size_t nown;
	size_t seq;		/* jobs folded so far */
	char *both;		/* the first job both of ratio's selectors take: said by fold_both() */
	/*
	 * A job's parameters as series_build() sees them (job_params()), one
	 * id per distinct content: jobs whose options differ only where the
	 * grouping does not look (their name, a description, iodepth unset
	 * or 1) are one class, so a point sums its rates in input order.
	 */
	struct params_cache pc;
	struct bmap pcanon;	/* a cached pairs array's address -> content id */
	struct strmap canon;	/* content -> id */
};

struct fold *fold_new(const struct selector *sel, const struct selector *sel2, int keep)
{
	struct fold *f = xcalloc(1, sizeof(*f));
	int k, s;

	f->sel[0] = sel;
	f->sel[1] = sel2;
	f->keep = keep;
	for (s = 0; s < 2 && f->sel[s]; s++) {
		const struct selector *x = f->sel[s];

		f->re[s] = xmalloc((x->npatterns ? x->npatterns : 1) * sizeof(*f->re[s]));
		for (k = 0; k < x->npatterns && !f->bad; k++) {
			if (regcomp(&f->re[s][k], x->patterns[k], REG_EXTENDED)) {
				f->bad = 1;
				break;
			}
			f->nre[s]++;
		}
	}
	return f;
}

const char *fold_both(const struct fold *f)
{
	return f ? f->both : NULL;
}

void fold_free(struct fold *f)
{
	size_t i;
	int k;

	if (!f)
		return;
	free(f->both);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < f->nre[i]; k++)
			regfree(&f->re[i][k]);
		free(f->re[i]);
	}
	for (i = 0; i < f->n; i++) {
		for (k = 0; k < NDIR; k++) {
			free(f->v[i]->rt[k]);
			free(f->v[i]->io[k]);
			free(f->v[i]->seq[k]);
			free(f->v[i]->lat[k]);
		}
		free(f->v[i]->vers);
		free(f->v[i]);
	}
	free(f->v);
	for (i = 0; i < f->nown; i++)
		free(f->own[i]);
	free(f->own);
	bmap_free(&f->cls);
	bmap_free(&f->byds);
	bmap_free(&f->pcanon);
	map_free(&f->canon);
	params_cache_free(&f->pc);
	free(f);
}

const struct foldcls *fold_class(const struct fold *f, const struct dirstat *d)
{
	struct bmap *m = (struct bmap *)&f->byds;	/* a lookup only */
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = bhash((const unsigned char *)&d, sizeof(d)) & (m->cap - 1); m->used[i];
	     i = (i + 1) & (m->cap - 1))
		if (!memcmp(m->keys + i * m->ksz, &d, sizeof(d)))
			return f->v[m->vals[i]];
	return NULL;
}

/* The content id of @j's parameters (struct fold). */
static size_t fold_params(struct fold *f, const struct job *j)
{
	struct params p;
	const void *kv;
	size_t id, i;
	char *key;

	job_params_cached(j, &p, &f->pc);
	kv = p.kv;
	id = bmap_get(&f->pcanon, &kv, sizeof(kv), SIZE_MAX);
	if (id != SIZE_MAX)
		return id;
	/* the names and values are interned: their addresses are the content */
	key = xmalloc(p.n * 2 * 17 + 1);
	key[0] = '\0';
	for (i = 0; i < 2 * p.n; i++)
		sprintf(key + strlen(key), "%016llx", (unsigned long long)(uintptr_t)p.kv[i]);
	id = map_get(&f->canon, key, f->canon.n);
	free(key);
	bmap_set(&f->pcanon, &kv, sizeof(kv), id);
	return id;
}

static size_t fold_class_of(struct fold *f, const struct job *j, const char *const *label,
			    int *isnew)
{
	struct {
		const void *label[2], *host;
		size_t params;
		double scale;
		int modeled;
		uint64_t bs[NDIR];
		int present[NDIR];
	} k;
	struct foldcls *c;
	size_t idx;
	int d;

	/* what series_build() reads of a job but its name, group and values */
	memset(&k, 0, sizeof(k));	/* the padding too: the bytes are the key */
	k.label[0] = label[0];
	k.label[1] = label[1];
	k.host = j->host;
	k.params = fold_params(f, j);
	k.scale = j->conf->scale;
	k.modeled = j->conf->modeled;
	for (d = 0; d < NDIR; d++) {
		k.bs[d] = j->d[d]->bs;
		k.present[d] = j->d[d]->present;
	}
	idx = bmap_get(&f->cls, &k, sizeof(k), f->n);
	*isnew = idx == f->n;
	if (!*isnew)
		return idx;
	c = xcalloc(1, sizeof(*c));
	c->label = label[0] ? label[0] : label[1];
	c->host = j->host;
	c->conf = j->conf;
	for (d = 0; d < NDIR; d++) {
		const struct dirstat *p = &c->ds[d];

		c->present[d] = j->d[d]->present;
		c->bs[d] = j->d[d]->bs;
		c->ds[d] = *j->d[d];
		bmap_get(&f->byds, &p, sizeof(p), f->n);
	}
	f->v = xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
	f->v[f->n++] = c;
	return idx;
}

int fold_doc(struct jobset *js, size_t first, const struct dirmark *mark)
{
	struct fold *f = js->fold;
	size_t n = js->n - first, i, w, v;
	const char **labels = xcalloc(n ? 2 * n : 1, sizeof(*labels));	/* per selector */
	size_t *cls = xcalloc(n ? n : 1, sizeof(*cls));
	char *keep = xcalloc(n ? n : 1, 1), *isrep = xcalloc(n ? n : 1, 1);
	struct bmap side = { 0 };
	int d, pass, s;

	for (i = 0; i < n; i++) {
		const struct job *j = &js->v[first + i];
		size_t seq = f->seq++;
		struct foldcls *c;
		int isnew;

		/* trims: no column of these tables (summary and dd show them) */
		if (!f->bad && j->d[DIR_TRIM]->present)
			warnx_("%s: job %s: its trim record (%.0f bytes) left out: perftest, ratio and plot table reads and writes (summary and dd show trims)",
			       j->doc->file, job_ref(j->name, j->host), j->d[DIR_TRIM]->io_bytes);
		if (f->bad || !has_rw(j))
			continue;
		for (s = 0; s < 2 && f->sel[s]; s++)
			labels[2 * i + s] = label_of(j, f->sel[s], f->re[s]);
		if (!labels[2 * i] && !labels[2 * i + 1])
			continue;
		if (labels[2 * i] && labels[2 * i + 1] && !f->both)
			f->both = xasprintf("job %s (%s, run %u) is taken by --baseline-series (as '%s') and by --candidate-series (as '%s')",
					    job_ref(j->name, j->host), j->doc->file, j->doc->run,
					    labels[2 * i], labels[2 * i + 1]);
		cls[i] = fold_class_of(f, j, &labels[2 * i], &isnew);
		keep[i] = isrep[i] = (char)isnew;
		c = f->v[cls[i]];
		for (d = 0; d < NDIR; d++) {
			const struct dirstat *x = j->d[d];

			if (d == DIR_TRIM || !x->present)
				continue;
			if (f->keep) {
				if (c->n[d] == c->cap[d]) {
					c->cap[d] = c->cap[d] ? 2 * c->cap[d] : 4;
					c->rt[d] = xrealloc(c->rt[d], c->cap[d] * sizeof(double));
					c->io[d] = xrealloc(c->io[d], c->cap[d] * sizeof(double));
					c->seq[d] = xrealloc(c->seq[d], c->cap[d] * sizeof(size_t));
					if (f->keep & FOLD_LAT)
						c->lat[d] = xrealloc(c->lat[d], c->cap[d] * FOLD_NPCT *
								     sizeof(double));
				}
				c->rt[d][c->n[d]] = x->runtime_s;
				c->io[d][c->n[d]] = x->io_bytes;
				c->seq[d][c->n[d]] = seq;
				if (f->keep & FOLD_LAT) {
					double *l = c->lat[d] + FOLD_NPCT * c->n[d];

					l[0] = x->clat_p50_us;
					l[1] = x->clat_p99_us;
					l[2] = x->clat_p999_us;
				}
			}
			c->n[d]++;
			/* as bsgroup_rates(), stat_mean() and stat_pstd(): in input order */
			if (x->runtime_s > 0) {
				double r = per_s(x->io_bytes, x->runtime_s);

				if (!c->nr[d]++ || r < c->rlo[d])
					c->rlo[d] = r;
				if (c->nr[d] == 1 || r > c->rhi[d])
					c->rhi[d] = r;
				c->s[d] += r;
				c->s2[d] += r * r;
			}
		}
		if (j->doc->timestamp > c->ts)
			c->ts = j->doc->timestamp;
		if (j->doc->timestamp_ms > 0) {
			if (!(c->tlo_ms > 0) || j->doc->timestamp_ms < c->tlo_ms)
				c->tlo_ms = j->doc->timestamp_ms;
			if (j->doc->timestamp_ms > c->thi_ms)
				c->thi_ms = j->doc->timestamp_ms;
		}
		for (v = 0; v < c->nvers && c->vers[v].version != j->doc->version; v++)
			;
		if (v == c->nvers) {
			c->vers = xrealloc(c->vers, (c->nvers + 1) * sizeof(*c->vers));
			c->vers[c->nvers++] = (struct foldver){ j->doc->version, seq };
		}
	}
	/*
	 * Jobs of this document that may be on one series in one group
	 * (series_build() refuses those, on one point or two): the label (under
	 * one selector), host, group and direction alike (and the block size,
	 * under fio --client, whose sweeps in one run are read).  Counted, then
	 * kept.
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < 2 * n; i++) {
			const struct job *j = &js->v[first + i / 2];

			if (!labels[i] || j->groupid < 0)
				continue;
			for (d = 0; d < NDIR; d++) {
				struct { const void *l, *h; uint64_t bs; int dir, gid, sel; } k;
				size_t cnt;

				if (d == DIR_TRIM || !j->d[d]->present)
					continue;
				memset(&k, 0, sizeof(k));
				k.sel = (int)(i % 2);
				k.l = labels[i];
				k.h = j->host;
				/* points of one series too (series_build()), but a fio --client run's */
				k.bs = j->doc->groups_unknown ? j->d[d]->bs : 0;
				k.dir = d;
				k.gid = j->groupid;
				cnt = bmap_get(&side, &k, sizeof(k), 0);
				if (!pass)
					bmap_set(&side, &k, sizeof(k), cnt + 1);
				else if (cnt > 1)
					keep[i / 2] = 1;
			}
		}
	bmap_free(&side);
	for (i = 0, w = first; i < n; i++) {
		struct job *j = &js->v[first + i];

		if (!keep[i])
			continue;	/* perftest reads no bins: nothing else to free */
		if (isrep[i]) {
			for (d = 0; d < NDIR; d++)
				j->d[d] = &f->v[cls[i]]->ds[d];
		} else {
			struct dirstat *o = xmalloc(NDIR * sizeof(*o));

			for (d = 0; d < NDIR; d++) {
				o[d] = *j->d[d];
				j->d[d] = &o[d];
			}
			f->own = xrealloc(f->own, (f->nown + 1) * sizeof(*f->own));
			f->own[f->nown++] = o;
		}
		js->v[w++] = *j;
	}
	js->n = w;
	/* no job points to this document's records any more */
	dirpool_rewind(js, mark);
	free(labels);
	free(cls);
	free(keep);
	free(isrep);
	return w == first;
}
