// SPDX-License-Identifier: GPL-2.0-only
/*
 * One fio JSON document -> flat job records.
 *
 * Options are fio strings in "job options", falling back to the document's
 * "global options".  client/server documents keep their jobs in
 * "client_stats" with hostname/port; fio adds an "All clients" record there
 * when several servers ran, which is flagged as an aggregate so no table adds
 * it to the per-host jobs.  Jobs of the sim backend (coop_backend=sim) ran on
 * a virtual clock sim_time_scale times faster than modeled: their times are
 * multiplied and their rates divided by that scale here, once.
 *
 * The numbers and integer options fio writes are checked here, where they
 * enter: a value no fio writes (1e300 bytes, an iodepth of 1e10) makes the
 * document malformed, named with its job and field, instead of reaching a
 * conversion whose result is undefined.
 */
#include <errno.h>
#include <limits.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fiotab.h"
#include "identity.h"
#include "jsonread.h"
#include "strmap.h"

const char *const dir_name[NDIR] = { "read", "write", "trim", "mixed" };
const char *const dir_letter[NDIR] = { "R", "W", "T", "M" };
const char *const lat_name[NLAT] = { "clat", "slat", "lat" };

/*
 * Interned strings (versions, file names, hosts, targets, rw) live until
 * exit: thousands of jobs share a handful of them.
 */
const char *intern(const char *s)
{
	static struct strmap map;

	return map_intern(&map, s, 0, NULL);
}

struct runids {
	struct strmap map;	/* id -> index into seen */
	size_t *seen, n;
};

struct opts {
	const cJSON *job, *global;
};

/*
 * cJSON_GetObjectItemCaseSensitive(), the first member named @name,
 * compared inline: names are short, and a job is a few hundred lookups.
 */
static const cJSON *member(const cJSON *o, const char *name)
{
	const cJSON *c;

	if (!o)
		return NULL;
	for (c = o->child; c; c = c->next) {
		const char *a = c->string, *b = name;

		if (!a)
			continue;
		while (*a && *a == *b)	/* short names: no call to strcmp() */
			a++, b++;
		if (*a == *b)
			return c;
	}
	return NULL;
}
#define cJSON_GetObjectItemCaseSensitive(o, n) member((o), (n))

/* What is being read, for the messages. */
struct reader {
	const char *job;	/* name of the job being read, NULL for the document */
	const char *host;	/* ... its host (job_ref()), NULL while not known */
	char *why;		/* the first problem found (allocated), or NULL */
};

/*
 * The host of a job record: "NAME:PORT" (several fio servers may share a
 * hostname, one per port), "All clients" for fio's aggregate, "-" for a
 * local run; its port in *@port (0: none).
 */
static const char *host_of(const cJSON *hostname, const cJSON *portv, int aggregate, int *port)
{
	/* A TCP port or nothing: a double outside int's range must not be cast. */
	double p = cJSON_IsNumber(portv) ? portv->valuedouble : 0;
	const char *h;
	char *hp;

	*port = p >= 1 && p <= 65535 ? (int)p : 0;
	if (aggregate || !cJSON_IsString(hostname) || *port <= 0)
		return intern(aggregate ? "All clients" :
			      cJSON_IsString(hostname) ? hostname->valuestring : "-");
	hp = xasprintf("%s:%d", hostname->valuestring, *port);
	h = intern(hp);
	free(hp);
	return h;
}

/* job_ref() of a job record not read yet (fio's aggregate: "All clients"). */
static const char *json_job_ref(const cJSON *jo)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(jo, "jobname");
	int port;

	return job_ref(cJSON_IsString(n) ? n->valuestring : "?",
		       host_of(cJSON_GetObjectItemCaseSensitive(jo, "hostname"),
			       cJSON_GetObjectItemCaseSensitive(jo, "port"), 0, &port));
}

static void bad(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bad(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	char *what;

	if (r->why)
		return;		/* the first problem is the one reported */
	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	r->why = r->job ? xasprintf("job %s: %s", job_ref(r->job, r->host), what) : xstrdup(what);
	free(what);
}

const char *pair_lookup(const char *const (*tab)[2], size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, tab[i][0]))
			return tab[i][1];
	return key;
}

/* fio's aliases of the options the tables read, under one name */
static const char *canon(const char *k)
{
	static const char *const alias[][2] = {
		{ "readwrite", "rw" }, { "blocksize", "bs" },
	};

	return PAIR_LOOKUP(alias, k);
}

static int pair_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Configurations are interned whole: thousands of jobs (iterations, the
 * same profile run again) share a handful, so a job holds one pointer to
 * its sorted pairs, not a copy of them, and the pairs are interned once
 * per distinct configuration, not once per job.  The key of a
 * configuration is its pairs length-prefixed ("4:name3:val..."), which no
 * two different configurations share.
 */
struct optset {
	const char **kv;
	size_t n;
};

static char *put_len(char *o, const char *s)
{
	size_t n = strlen(s);
	char digits[24];
	int k = 0;

	do
		digits[k++] = (char)('0' + n % 10);
	while ((n /= 10));
	while (k)
		*o++ = digits[--k];
	*o++ = ':';
	n = strlen(s);
	memcpy(o, s, n);
	return o + n;
}

static const char **intern_opts(const char **kv, size_t n)
{
	static struct strmap sets;
	static struct optset *setv;
	static size_t nsets;
	static char *key;
	static size_t keycap;
	size_t need = 1, i, idx;
	char *o;

	for (i = 0; i < 2 * n; i++)
		need += strlen(kv[i]) + 24;
	if (need > keycap) {
		keycap = need * 2;
		key = xrealloc(key, keycap);
	}
	o = key;
	for (i = 0; i < 2 * n; i++)
		o = put_len(o, kv[i]);
	*o = '\0';
	map_intern(&sets, key, nsets, &idx);
	if (idx == nsets) {
		const char **v = xmalloc((2 * n + 1) * sizeof(*v));

		for (i = 0; i < 2 * n; i++)
			v[i] = intern(kv[i]);
		setv = xrealloc(setv, (nsets + 1) * sizeof(*setv));
		setv[nsets].kv = v;
		setv[nsets++].n = n;
	}
	return setv[idx].kv;
}

/*
 * The configuration of a job: global options, then job options over them.
 * A flag option (stonewall) may come with an empty or null value.
 */
static void read_opts(struct jconf *c, const struct opts *o)
{
	static const char **kv;	/* scratch pairs, reused from job to job */
	static size_t cap;
	const cJSON *src[2] = { o->global, o->job }, *v;
	size_t n = 0, i;
	int k;

	for (k = 0; k < 2; k++)
		cJSON_ArrayForEach(v, src[k]) {
			const char *key, *val;

			if (!v->string || !strcmp(v->string, "name"))
				continue;
			key = canon(v->string);
			val = cJSON_IsString(v) ? v->valuestring : "";
			for (i = 0; i < n; i++)
				if (!strcmp(kv[2 * i], key))
					break;
			if (i < n) {
				kv[2 * i + 1] = val;	/* the later one wins, as in fio */
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 32;
				kv = xrealloc(kv, 2 * cap * sizeof(*kv));
			}
			kv[2 * n] = key;
			kv[2 * n + 1] = val;
			n++;
		}
	if (n)
		qsort(kv, n, 2 * sizeof(*kv), pair_cmp);
	c->nopts = n;
	c->opts = n ? intern_opts(kv, n) : NULL;
}

const char *job_opt(const struct job *j, const char *key)
{
	size_t lo = 0, hi = j->conf->nopts;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(key, j->conf->opts[2 * mid]);

		if (!c)
			return j->conf->opts[2 * mid + 1];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const char *opt(const struct opts *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o->job, name);

	if (!cJSON_IsString(v))
		v = cJSON_GetObjectItemCaseSensitive(o->global, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Which options object opt() took @name from, for the messages. */
static const char *opt_where(const struct opts *o, const char *name)
{
	return cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o->job, name)) ?
	       "job options" : "global options";
}

/* 2^53: up to here a double holds every integer exactly */
#define EXACT_MAX 9007199254740992.0

/*
 * A number fio writes as a count, size, rate, time or percentage, NAN when
 * absent.  It must be finite (cJSON reads 1e999 as inf), not negative and
 * below 2^53, or it is recorded as the document's problem and read as NAN:
 * beyond, a conversion to an integer type (the sizes of iozone and Bonnie)
 * would be undefined.  @path names the object holding it ("write.").
 */
/* "a string \"5\"", "an object", ... for the messages. */
static const char *json_type_name(const cJSON *v)
{
	static char buf[64];

	if (cJSON_IsString(v)) {
		snprintf(buf, sizeof(buf), "a string \"%.40s\"", v->valuestring);
		return buf;
	}
	return cJSON_IsObject(v) ? "an object" : cJSON_IsArray(v) ? "an array" :
	       cJSON_IsBool(v) ? "a boolean" : cJSON_IsNull(v) ? "null" : "not a number";
}

/*
 * A number fio writes, NAN when the member is absent.  A member of another
 * type is refused, not read as absent: "error": "5" or "io_bytes": "4096"
 * is not fio's (it writes these as numbers), and taken as missing it would
 * keep a failed job or drop a direction's bytes.
 */
static double numv(struct reader *r, const cJSON *v, const char *path, const char *name)
{
	if (!v)
		return NAN;
	if (!cJSON_IsNumber(v)) {
		bad(r, "\"%s%s\" is %s, not a number (fio writes a number there)", path, name,
		    json_type_name(v));
		return NAN;
	}
	if (!(v->valuedouble >= 0 && v->valuedouble < EXACT_MAX)) {
		bad(r, "\"%s%s\" is %g, out of range (fio writes finite values from 0 up to 2^53)",
		    path, name, v->valuedouble);
		return NAN;
	}
	return v->valuedouble;
}

static double num(struct reader *r, const cJSON *obj, const char *path, const char *name)
{
	return numv(r, cJSON_GetObjectItemCaseSensitive(obj, name), path, name);
}

static double num0v(struct reader *r, const cJSON *v, const char *path, const char *name)
{
	double x = numv(r, v, path, name);

	return isnan(x) ? 0 : x;
}

/*
 * A count, size or time fio writes as an integer (json_object_add_value_int():
 * digits alone), NAN when absent: numv(), and written so (JSON_WHOLE).  A
 * hand-edited 12.5 I/Os is none fio counted, and 1e3 or 12.0 none it
 * wrote: the document is malformed, as with every such field alike.
 */
static double wholev(struct reader *r, const cJSON *v, const char *path, const char *name)
{
	double x = numv(r, v, path, name);

	if (isnan(x) || v->type & JSON_WHOLE)
		return x;
	if (x != floor(x))
		bad(r, "\"%s%s\" is %.17g, not a whole number (fio writes an integer there)",
		    path, name, x);
	else
		bad(r, "\"%s%s\" is %.17g written with a fraction or an exponent (12.0, 1e3): fio writes this integer in digits alone, so it is not fio's",
		    path, name, x);
	return NAN;
}

static double whole(struct reader *r, const cJSON *obj, const char *path, const char *name)
{
	return wholev(r, cJSON_GetObjectItemCaseSensitive(obj, name), path, name);
}

static double whole0v(struct reader *r, const cJSON *v, const char *path, const char *name)
{
	double x = wholev(r, v, path, name);

	return isnan(x) ? 0 : x;
}

static double whole0(struct reader *r, const cJSON *obj, const char *path, const char *name)
{
	return whole0v(r, cJSON_GetObjectItemCaseSensitive(obj, name), path, name);
}

/*
 * The first member of @o named each of @names[0..@n), in one pass over @o
 * (what a lookup per name returns, for the fields read together).  Each
 * member is compared first with the name after the one the previous
 * member matched: the names are listed in the order fio writes them, so
 * that is mostly the first compare.
 */
static void members(const cJSON *o, const char *const *names, int n, const cJSON **out)
{
	const cJSON *c;
	int k, t, at = 0, left = n;

	for (k = 0; k < n; k++)
		out[k] = NULL;
	for (c = o ? o->child : NULL; c && left; c = c->next) {
		const char *a = c->string;

		if (!a)
			continue;
		for (t = 0, k = at; t < n; t++, k = k + 1 == n ? 0 : k + 1) {
			const char *x = a, *y = names[k];

			if (out[k] || *x != *y)
				continue;
			while (*x && *x == *y)
				x++, y++;
			if (*x == *y) {
				out[k] = c;
				left--;
				at = k + 1 == n ? 0 : k + 1;
				break;
			}
		}
	}
}

/*
 * An integer option of fio ("iodepth"), @def when unset.  Job options are
 * strings as the job file gave them, which fio reads as sizes ("1k" is
 * 1024), so they are read the same way (fiosize.c) and checked: atoi()
 * of one out of int's range was undefined.
 */
static int opt_int(struct reader *r, const char *name, const char *s, unsigned kb_base,
		   int def)
{
	uint64_t v;

	if (!s)
		return def;
	if (fio_parse_size(s, kb_base, &v) || v < 1 || v > INT_MAX) {
		bad(r, "%s \"%s\" is not a whole number from 1 to %d", name, s, INT_MAX);
		return def;
	}
	return (int)v;
}

/*
 * json+ "bins" of one latency object: {"VALUE_NS": COUNT, ...}.  Keys and
 * counts must be whole numbers (fio prints them with %llu), or the document
 * is malformed; NULL when the object has no bins.
 */
static struct latbins *read_bins(struct reader *r, const cJSON *lat, const char *path)
{
	const cJSON *bins = cJSON_GetObjectItemCaseSensitive(lat, "bins"), *b;
	struct latbins *lb;
	size_t cap = 0;

	if (!cJSON_IsObject(bins))
		return NULL;
	lb = xmalloc(sizeof(*lb));
	memset(lb, 0, sizeof(*lb));
	lb->mean_ns = num(r, lat, path, "mean");
	lb->samples = whole(r, lat, path, "N");
	cJSON_ArrayForEach(b, bins) {
		char *end;
		unsigned long long k;

		errno = 0;
		k = strtoull(b->string, &end, 10);
		if (errno || end == b->string || *end || !isdigit((unsigned char)b->string[0]) ||
		    !cJSON_IsNumber(b) || !(b->type & JSON_WHOLE) ||
		    !(b->valuedouble >= 0 && b->valuedouble < EXACT_MAX)) {
			bad(r, "\"%sbins\": entry \"%s\" is not a bucket value and a count", path,
			    b->string);
			break;
		}
		if (lb->n && k <= lb->key[lb->n - 1]) {
			bad(r, "\"%sbins\": bucket \"%s\" out of order (fio writes them ascending)",
			    path, b->string);
			break;
		}
		if (lb->n == cap) {
			cap = cap ? 2 * cap : 64;
			lb->key = xrealloc(lb->key, cap * sizeof(*lb->key));
			lb->count = xrealloc(lb->count, cap * sizeof(*lb->count));
		}
		lb->key[lb->n] = k;
		lb->count[lb->n++] = (uint64_t)b->valuedouble;
	}
	return lb;
}

static void latbins_free(struct latbins *lb)
{
	if (!lb)
		return;
	free(lb->key);
	free(lb->count);
	free(lb);
}

static void read_dir_bins(struct reader *r, struct latbins **out, const cJSON *o, const char *dir)
{
	static const char *const key[NLAT] = { "clat_ns", "slat_ns", "lat_ns" };
	char path[64];
	int l;

	for (l = 0; l < NLAT; l++) {
		snprintf(path, sizeof(path), "%s.%s.", dir, key[l]);
		out[l] = read_bins(r, cJSON_GetObjectItemCaseSensitive(o, key[l]), path);
	}
}

/* "@a@b" into @path (64 bytes; @a is a direction name, @b a short literal) */
static void path2(char path[64], const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	if (na + nb >= 64)
		nb = 0;	/* never: the names are fiotab's own */
	memcpy(path, a, na);
	memcpy(path + na, b, nb);
	path[na + nb] = '\0';
}

/*
 * A modeled job's (coop_backend=sim) rate is fio's paced one: its runtime
 * is the model's time divided by sim_time_scale, counted in whole ms
 * rounded up, so a run paced to a few ms reads up to 1 ms long (16 ms: 6 %
 * slow).  From this many ms on, that is under 1 %.
 */
#define MODELED_MIN_MS 100

static void read_dir(struct reader *r, struct dirstat *d, const cJSON *o, const char *dir,
		     int modeled, double scale)
{
	const cJSON *clat, *pct;
	const double to_us = 1e-3;	/* fio 3.x: ns (fio_version_known()) */
	char path[64];
	double rt_ms, kib;

	/* in the order fio writes them (members()) */
	enum { IO_BYTES, IO_KBYTES, BW_BYTES, BW, IOPS, RUNTIME, TOTAL_IOS, CLAT_NS, NF };
	static const char *const names[NF] = { "io_bytes", "io_kbytes", "bw_bytes", "bw", "iops",
					       "runtime", "total_ios", "clat_ns" };
	const cJSON *f[NF];

	members(o, names, NF, f);
	path2(path, dir, ".");
	d->io_bytes = whole0v(r, f[IO_BYTES], path, "io_bytes");
	kib = whole0v(r, f[IO_KBYTES], path, "io_kbytes");
	if (!d->io_bytes) {
		d->io_bytes = kib * 1024;
		if (d->io_bytes >= EXACT_MAX) {
			bad(r, "\"%sio_kbytes\" is %g, out of range (fio writes byte counts up to 2^53, 2^43 KiB)",
			    path, d->io_bytes / 1024);
			d->io_bytes = 0;
		}
	}
	d->present = d->io_bytes > 0;
	rt_ms = whole0v(r, f[RUNTIME], path, "runtime");
	/* a runtime under 1 ms, real or modeled: check_short() */
	if (modeled && d->present && rt_ms >= 1 && rt_ms < MODELED_MIN_MS) {
		/* the run took at least rt_ms - 1 ms: the scale that gives 100 */
		double fit = floor(scale * (rt_ms - 1) / MODELED_MIN_MS);
		char *fix = fit >= 1 ? xasprintf("sim_time_scale at most %g", fit)
				     : xasprintf("more bytes (size=): it models under %d ms", MODELED_MIN_MS);

		bad(r, "\"%sruntime\" is %g ms: a modeled job paced that short (sim_time_scale %g) reads up to 1 ms (%.0f %%) slow, as fio counts whole ms rounded up; rerun with %s, so that it runs at least %d ms, or read the model's own figures (sim_report=)",
		    path, rt_ms, scale, 100.0 / rt_ms, fix, MODELED_MIN_MS);
		free(fix);
	}
	d->runtime_s = dec_mul(dec_scale(rt_ms, 1e-3), scale);
	d->iops = dec_quot(num0v(r, f[IOPS], path, "iops"), scale);
	/*
	 * No table reads fio's bandwidth or mean latency (they come from
	 * io_bytes / runtime and the percentiles): checked, not kept.
	 */
	(void)wholev(r, f[BW_BYTES], path, "bw_bytes");
	(void)wholev(r, f[BW], path, "bw");
	d->total_ios = whole0v(r, f[TOTAL_IOS], path, "total_ios");
	clat = f[CLAT_NS];
	path2(path, dir, ".clat_ns.");
	(void)num(r, clat, path, "mean");
	pct = cJSON_GetObjectItemCaseSensitive(clat, "percentile");
	if (cJSON_IsObject(pct)) {
		strcat(path, "percentile.");
		d->clat_p50_us = dec_mul(dec_scale(whole(r, pct, path, "50.000000"), to_us), scale);
		d->clat_p99_us = dec_mul(dec_scale(whole(r, pct, path, "99.000000"), to_us), scale);
		d->clat_p999_us = dec_mul(dec_scale(whole(r, pct, path, "99.900000"), to_us), scale);
	} else {
		d->clat_p50_us = d->clat_p99_us = d->clat_p999_us = NAN;
	}
}

/*
 * A job's direction records live in the jobset's blocks, not in the job
 * (freed with the jobset): most jobs run one direction of four, and the
 * records of the others (no bytes moved) are alike from job to job, so
 * such a record equal to one of the last few stored is shared.  A job then
 * costs one record per direction it ran.
 */
enum { DIRBLOCK = 1024, DIRRECENT = 8 };

struct dirblk {
	struct dirblk *prev;
	struct dirstat v[DIRBLOCK];
};

struct dirpool {
	struct dirblk *blk;	/* the newest block, the others behind it */
	size_t used;		/* records used in blk */
	const struct dirstat *recent[DIRRECENT];
	unsigned next;
};

static const struct dirstat *dir_store(struct jobset *js, const struct dirstat *d)
{
	struct dirpool *p = js->dirs;
	struct dirstat *n;
	unsigned k;

	if (!p)
		p = js->dirs = xcalloc(1, sizeof(*p));
	if (!d->present)
		for (k = 0; k < DIRRECENT; k++)
			if (p->recent[k] && !memcmp(p->recent[k], d, sizeof(*d)))
				return p->recent[k];
	if (!p->blk || p->used == DIRBLOCK) {
		struct dirblk *b = xmalloc(sizeof(*b));

		b->prev = p->blk;
		p->blk = b;
		p->used = 0;
	}
	n = &p->blk->v[p->used++];
	memcpy(n, d, sizeof(*d));
	if (!d->present) {
		p->recent[p->next] = n;
		p->next = (p->next + 1) % DIRRECENT;
	}
	return n;
}

void dirpool_mark(const struct jobset *js, struct dirmark *m)
{
	m->blk = js->dirs ? js->dirs->blk : NULL;
	m->used = js->dirs ? js->dirs->used : 0;
}

void dirpool_rewind(struct jobset *js, const struct dirmark *m)
{
	struct dirpool *p = js->dirs;

	if (!p)
		return;
	while (p->blk && p->blk != m->blk) {
		struct dirblk *b = p->blk;

		p->blk = b->prev;
		free(b);
	}
	p->used = p->blk ? m->used : 0;
	/* the shared records may have been among the freed ones */
	memset(p->recent, 0, sizeof(p->recent));
	p->next = 0;
}

static void dirpool_free(struct dirpool *p)
{
	while (p && p->blk) {
		struct dirblk *b = p->blk;

		p->blk = b->prev;
		free(b);
	}
	free(p);
}

/*
 * What a job's options make of it (configuration, target, rw, block and
 * file sizes, iodepth, numjobs, mode), which depends on its "job options"
 * and the document's "global options" alone.  Thousands of jobs (the
 * iterations, the same profile run again) have the same two, so it is
 * worked out once per distinct pair, found again by their content (each
 * member's name, type and string, length-prefixed), and only when it
 * raised no complaint (a complaint names its job, so it is made for each).
 */

static char *put_member(char *o, const cJSON *v)
{
	/* what read_opts() and opt() tell apart: a string (its value) or not */
	*o++ = cJSON_IsString(v) ? 's' : 'n';
	o = put_len(o, v->string ? v->string : "");
	if (cJSON_IsString(v))
		o = put_len(o, v->valuestring);
	return o;
}

static size_t member_need(const cJSON *v)
{
	return 1 + (v->string ? strlen(v->string) : 0) + 24 +
	       (cJSON_IsString(v) ? strlen(v->valuestring) + 24 : 0);
}

/* The directions (bit per enum fio_dir) of fio's rw pattern @rw, 0 if unknown. */
static unsigned rw_pattern(const char *rw)
{
	static const struct { const char *rw; unsigned dirs; } pat[] = {
		{ "read", 1u << DIR_READ }, { "randread", 1u << DIR_READ },
		{ "write", 1u << DIR_WRITE }, { "randwrite", 1u << DIR_WRITE },
		{ "trim", 1u << DIR_TRIM }, { "randtrim", 1u << DIR_TRIM },
		{ "rw", 1u << DIR_READ | 1u << DIR_WRITE }, { "readwrite", 1u << DIR_READ | 1u << DIR_WRITE },
		{ "randrw", 1u << DIR_READ | 1u << DIR_WRITE },
		{ "trimwrite", 1u << DIR_TRIM | 1u << DIR_WRITE },
		{ "randtrimwrite", 1u << DIR_TRIM | 1u << DIR_WRITE },
	};
	size_t n = strcspn(rw, ":"), i;

	for (i = 0; i < sizeof(pat) / sizeof(*pat); i++)
		if (strlen(pat[i].rw) == n && !strncmp(pat[i].rw, rw, n))
			return pat[i].dirs;
	return 0;
}

/*
 * A write job that reads back what it wrote (verify set, do_verify not 0),
 * in its write blocks.
 */
static int verify_reads(const struct opts *o, const char *rw)
{
	const char *v = opt(o, "verify"), *dv = opt(o, "do_verify");

	return (rw_pattern(rw) & 1u << DIR_WRITE) && v && strcmp(v, "0") && strcmp(v, "none") &&
	       !(dv && !strcmp(dv, "0"));
}

/*
 * The directions a job moves bytes in (bit per enum fio_dir), or 0 for a
 * pattern fiotab does not know: its rw's, verify reads, and the trims of
 * trim_percentage.  "mixed" is every direction's.
 */
static unsigned rw_dirs(const struct opts *o, const char *rw)
{
	unsigned dirs = rw_pattern(rw);

	if (!dirs)
		return 0;
	if (verify_reads(o, rw))
		dirs |= 1u << DIR_READ;
	if ((dirs & 1u << DIR_WRITE) && opt(o, "trim_percentage"))
		dirs |= 1u << DIR_TRIM;
	return dirs | 1u << DIR_MIXED;
}

/* Where a fixed block size comes from: the option, its object and kb_base. */
static const char *bs_source(const struct opts *o, const char *bs_opt, const char *s,
			     unsigned kb_base)
{
	const char *kb = opt(o, "kb_base");
	char *t;
	const char *ret;

	if (!s)
		return intern("no bs option: fio's default 4096");
	t = xasprintf("%s \"%s\" (%s) read with kb_base %u (%s)", bs_opt, s,
		      opt_where(o, bs_opt), kb_base, kb ? opt_where(o, "kb_base") : "fio's default");
	ret = intern(t);
	free(t);
	return ret;
}

/*
 * The size of each file the job laid out (iozone's KB, Bonnie's MB):
 * filesize, else size over nrfiles.  Unknown when fio took it from the
 * file or device (no size, size=N%) or drew it from a range: the bytes
 * moved are no file size (io_size=, loops=, time_based, number_ios=).
 */
static void file_size(const struct opts *o, unsigned kb_base, struct jconf *c)
{
	const char *fs = opt(o, "filesize"), *s = opt(o, "size"), *nf = opt(o, "nrfiles");
	uint64_t v, n = 1;
	char *t;

	c->file_size = 0;
	if (fs) {
		if (!fio_parse_size(fs, kb_base, &v) && v) {
			c->file_size = v;
			return;
		}
		t = xasprintf("filesize \"%s\" is no single size", fs);
	} else if (!s) {
		t = xstrdup("no size option: fio took the size of the existing file or device, which its JSON does not record");
	} else if (fio_parse_size(s, kb_base, &v) || !v) {
		t = xasprintf("size \"%s\" is not a size in bytes (a percentage of a file or device fio's JSON does not record?)", s);
	} else if (nf && (fio_parse_size(nf, 1024, &n) || !n)) {
		t = xasprintf("nrfiles \"%s\" is not a number", nf);
	} else {
		/* fio splits size evenly over the files */
		c->file_size = v / n;
		return;
	}
	c->file_size_from = intern(t);
	free(t);
}

/*
 * @s for a message: control bytes as \n, \t or \xHH, so are bytes not in a
 * UTF-8 sequence; at most 60 bytes of it.
 */
static const char *shown(const char *s)
{
	static char buf[256];
	size_t n = 0, u;

	for (; *s && n < 60; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 0x80) {
			u = utf8_seq(s);
			if (u) {
				memcpy(buf + n, s, u);
				n += u;
				s += u - 1;
			} else {
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\x%02x", ch);
			}
			continue;
		}
		n += ch == '\n' ? (size_t)snprintf(buf + n, sizeof(buf) - n, "\\n") :
		     ch == '\t' ? (size_t)snprintf(buf + n, sizeof(buf) - n, "\\t") :
		     ch < 0x20 || ch == 0x7f ? (size_t)snprintf(buf + n, sizeof(buf) - n, "\\x%02x", ch) :
		     (size_t)snprintf(buf + n, sizeof(buf) - n, "%c", ch);
	}
	return buf;
}

/*
 * Names and option values become table cells, labels, tags and SVG text:
 * one with a control byte cannot be written as the user named it (a text
 * row would break in two, InfluxDB has no escape for a newline, XML
 * allows none of them): refused, named.
 */
static void check_text(struct reader *r, const char *what, const char *s)
{
	const char *c = control_byte(s);

	if (c)
		bad(r, "%s \"%s\" holds %s (0x%02x), which no table, label or plot can show as it is: give it without one%s",
		    what, shown(s), text_fault(c), (unsigned char)*c,
		    (unsigned char)*c >= 0x80 ? " (a job file in another encoding than UTF-8?)" : "");
}

/*
 * The most bytes a size-based job's record can hold: io_size (else size)
 * times loops times numjobs (a group_reporting record sums its clones),
 * 0 when the options do not bound it (time_based, a size fiotab cannot
 * read such as N%).  fio moves at most that: less with runtime=,
 * number_ios=, offsets, a smaller file.
 */
/*
 * The largest transfer a job's options let it make: its bs (each direction's),
 * else the largest size in bsrange or bssplit (their percentages read as
 * sizes too, which only makes it larger); 0 when none reads.
 */
static uint64_t largest_bs(const struct opts *o, const struct jconf *c, unsigned kb_base)
{
	static const char *const names[] = { "bsrange", "blocksize_range", "bssplit" };
	uint64_t m = 0, v;
	size_t i;

	for (i = 0; i < NRWT; i++)
		if (!c->mean_bs && c->bs[i] > m)
			m = c->bs[i];
	for (i = 0; c->mean_bs && i < sizeof(names) / sizeof(*names); i++) {
		const char *s = opt(o, names[i]);
		char *t, *tok, *save = NULL;

		if (!s)
			continue;
		t = xstrdup(s);
		for (tok = strtok_r(t, "-,:/", &save); tok; tok = strtok_r(NULL, "-,:/", &save))
			if (!fio_parse_size(tok, kb_base, &v) && v > m)
				m = v;
		free(t);
	}
	return m;
}

/*
 * ... and each pass over io_size (else size) ends with the I/O that reaches
 * it, which may go past it: fio moved 263 I/Os of bs=4000 (kb_base=1024's
 * "4KiB") for size=1m, 1052000 bytes.  So each loop of each job may move up
 * to @maxbs - 1 bytes more.
 */
static double max_bytes(const struct opts *o, unsigned kb_base, int numjobs, uint64_t maxbs)
{
	const char *tb = opt(o, "time_based"), *lp = opt(o, "loops");
	const char *io = opt(o, "io_size") ? opt(o, "io_size") : opt(o, "io_limit");
	uint64_t v, loops = 1;

	if (tb && strcmp(tb, "0"))
		return 0;
	if (!io)
		io = opt(o, "size");
	if (!io || fio_parse_size(io, kb_base, &v) || !v ||
	    (lp && (fio_parse_size(lp, 1024, &loops) || !loops)))
		return 0;
	return ((double)v + (double)(maxbs ? maxbs - 1 : 0)) * (double)loops * numjobs;
}

static void conf_derive(struct reader *r, const struct opts *o, struct jconf *c)
{
	unsigned kb_base = 1024;
	const char *s, *bs_opt;
	size_t i;

	memset(c, 0, sizeof(*c));
	read_opts(c, o);
	for (i = 0; i < c->nopts; i++) {
		char *what = xasprintf("option %s", shown(c->opts[2 * i]));

		check_text(r, what, c->opts[2 * i]);
		check_text(r, what, c->opts[2 * i + 1]);
		free(what);
	}
	s = opt(o, "kb_base");
	if (s && !strcmp(s, "1000"))
		kb_base = 1000;
	s = opt(o, "filename");
	if (!s)
		s = opt(o, "directory");
	/* fio puts its default files in the current directory */
	c->target = intern(s ? s : ".");
	s = opt(o, "rw");
	if (!s)
		s = opt(o, "readwrite");
	c->rw = intern(s ? s : "read");
	bs_opt = opt(o, "bs") ? "bs" : "blocksize";
	s = opt(o, bs_opt);
	/*
	 * bsrange/bssplit, or a bs fio took but we cannot read: the mean
	 * transfer size of each direction stands for the block size.
	 */
	c->mean_bs = (!s && (opt(o, "bsrange") || opt(o, "bssplit"))) ||
		     fio_parse_bs(s ? s : "4096", kb_base, 4096, c->bs);
	c->bs_from = bs_source(o, bs_opt, s, kb_base);
	c->verify = verify_reads(o, c->rw);
	file_size(o, kb_base, c);
	c->iodepth = opt_int(r, "iodepth", opt(o, "iodepth"), kb_base, 1);
	c->numjobs = opt_int(r, "numjobs", opt(o, "numjobs"), kb_base, 1);
	c->max_bytes = max_bytes(o, kb_base, c->numjobs, largest_bs(o, c, kb_base));

	s = opt(o, "coop_backend");
	c->modeled = s && !strcmp(s, "sim");
	c->scale = 1;
	if (c->modeled) {
		s = opt(o, "sim_time_scale");
		if (s) {
			char *end;

			c->scale = strtod(s, &end);
			if (end == s || *end || !(c->scale > 0) || isinf(c->scale)) {
				bad(r, "bad sim_time_scale \"%s\"", s);
				c->scale = 1;
			}
		}
	}
}

/*
 * The job's configuration, NULL after a complaint (in r->why: the document
 * is refused).  Each distinct one is allocated once and kept until exit
 * (there are as many as distinct option pairs, not as jobs).
 */
static const struct jconf *read_conf(struct reader *r, const struct opts *o)
{
	static struct strmap map;
	static struct jconf **confs;
	static size_t nconfs;
	static char *key;
	static size_t keycap;
	const cJSON *src[2] = { o->global, o->job }, *v;
	size_t need = 8, idx;
	struct jconf c;
	char *k;
	int i;

	for (i = 0; i < 2; i++)
		cJSON_ArrayForEach(v, src[i])
			need += member_need(v);
	if (need > keycap) {
		keycap = need * 2;
		key = xrealloc(key, keycap);
	}
	k = key;
	for (i = 0; i < 2; i++) {
		*k++ = src[i] ? (cJSON_IsObject(src[i]) ? 'o' : 'x') : '-';
		cJSON_ArrayForEach(v, src[i])
			k = put_member(k, v);
		*k++ = ';';
	}
	*k = '\0';
	idx = map_get(&map, key, nconfs);
	if (idx < nconfs && confs[idx])
		return confs[idx];
	/* new, or one that raised a complaint: the next job with it complains too */
	conf_derive(r, o, &c);
	if (idx == nconfs) {
		confs = xrealloc(confs, (nconfs + 1) * sizeof(*confs));
		confs[nconfs++] = NULL;
	}
	if (r->why)
		return NULL;
	confs[idx] = xmalloc(sizeof(c));
	memcpy(confs[idx], &c, sizeof(c));
	return confs[idx];
}

/*
 * A fixed block size (not bsrange/bssplit, which use the measured mean) is
 * what fiotab derived from the options; fio's own counts must agree with
 * it, or the options were not what fio ran (group_reporting over different
 * sections, an option given twice, kb_base where fio did not apply it, a
 * size fio reads otherwise).  fio never moves more than bs in one I/O, and
 * moves less only in short transfers, each followed by a requeue of the
 * residual: a few of them (at most 1 in 64 I/Os, or one).
 */
static void check_bs(struct reader *r, const struct dirstat *d, const char *dir,
		     const char *from)
{
	double ios = d->total_ios, bs = (double)d->bs;

	if (!d->present || !d->bs)
		return;
	if (d->io_bytes <= ios * bs && d->io_bytes >= (ios - fmax(1, floor(ios / 64))) * bs)
		return;
	bad(r, "%s: block size %llu from %s, but fio moved io_bytes %.0f in total_ios %.0f (%.1f bytes an I/O): fio ran another block size than its options say here (group_reporting over different jobs, an option given twice, kb_base, a size written otherwise)",
	    dir, (unsigned long long)d->bs, from, d->io_bytes, ios,
	    ios > 0 ? d->io_bytes / ios : d->io_bytes);
}

/*
 * A size-based record with more reads and writes than its options let one
 * job move is not that job's alone: group_reporting over job sections of
 * one rw and bs (the record has the first one's name and the last one's
 * options, and every section's bytes), or a size fio read otherwise
 * (kb_base where fio did not apply it).  Refused.
 */
static void check_volume(struct reader *r, const struct opts *o, const struct job *j)
{
	double moved = j->d[DIR_READ]->io_bytes + j->d[DIR_WRITE]->io_bytes;

	if (j->d[DIR_MIXED]->io_bytes > moved)
		moved = j->d[DIR_MIXED]->io_bytes;
	/*
	 * fio's JSON leaves out an option given without a value: a job
	 * file's bare "time_based" (not time_based=1) is in no "job options"
	 * nor "global options", and the job reads as size-based.
	 */
	if (j->conf->max_bytes > 0 && moved > j->conf->max_bytes)
		bad(r, "moved %.0f bytes, more than its options let it (%.0f: io_size or size and the I/O that reaches it, times loops and numjobs): the record is not this job's alone (group_reporting over several job sections?), or fio read a size otherwise (kb_base)%s",
		    moved, j->conf->max_bytes,
		    opt(o, "runtime") ? ", or it ran time_based written bare ('time_based' without =1: fio's JSON then records no time_based; write time_based=1, or add \"time_based\" : \"1\" to this job's \"job options\")" : "");
}

/*
 * A time value as fio reads runtime= (parse.c, get_mult_time()): digits,
 * then us/usec, ms/msec, s, m, h or d, any case, seconds without; in ms,
 * or -1 when it is not one of those.
 */
static double fio_time_ms(const char *s)
{
	static const struct { const char *unit; size_t prefix; double ms; } units[] = {
		{ "us", 2, 0.001 }, { "ms", 2, 1 }, { "s", 0, 1000 }, { "m", 0, 60000 },
		{ "h", 0, 3600000 }, { "d", 0, 86400000 },
	};
	const char *p = s;
	char low[8];
	size_t i;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s || p - s > 15)
		return -1;
	if (!*p)
		return strtod(s, NULL) * 1000;
	for (i = 0; p[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)p[i]);
	low[i] = '\0';
	if (p[i])
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (units[i].prefix ? !strncmp(low, units[i].unit, units[i].prefix) : !strcmp(low, units[i].unit))
			return strtod(s, NULL) * units[i].ms;
	return -1;
}

/*
 * A time_based job runs its runtime= to the ms (fio's job_runtime is the
 * runtime, ramp_time and startdelay apart).  One that ran less was stopped
 * by something its record does not show: another job's exitall (a bare
 * flag, which fio's JSON leaves out), exit_what, a signal to a job process:
 * its figures are of a shorter run than its options say, error 0.  Refused,
 * unless steadystate= may have ended it (then fio ends it early on purpose).
 * A --status-interval snapshot of a job still running reads so too, and is
 * named (samerun.c would name it later, but this refuses it first).
 */
static uint32_t job_runtime(struct reader *r, const cJSON *jo, const struct job *j);

static void check_timed(struct reader *r, const struct opts *o, const struct job *j, const cJSON *jo)
{
	const char *tb = opt(o, "time_based"), *rt = opt(o, "runtime") ? opt(o, "runtime") : opt(o, "timeout");
	double want, ran;

	if (!tb || !strcmp(tb, "0") || !rt || opt(o, "steadystate") || opt(o, "ss") || j->conf->modeled)
		return;
	want = fio_time_ms(rt);
	ran = job_runtime(r, jo, j);
	if (want <= 0 || ran >= want - fmax(5, want / 100))
		return;
	bad(r, "time_based with runtime \"%s\" (%.0f ms), but it ran %.0f ms (job_runtime, or a group's longest direction runtime), error 0: something stopped it that its record does not show (another job's exitall, which fio's JSON leaves out when given bare; exit_what; a signal to its process), or it is a --status-interval snapshot, written while it ran (keep fio's final output), so its figures are of a shorter run than its options say",
	    rt, want, ran);
}

/*
 * fio counts a direction's runtime in whole ms rounded up (backend.c,
 * update_runtime()), a group_reporting record has its longest job's: 1 ms
 * is any run of up to 1 ms (fio 3.33 writes 1 for a 256 KiB write that
 * took 0.1 ms), so bytes over 1 ms are not their rate but a floor of it,
 * and bytes in 0 ms have none a table could print (left out of a mean, or
 * infinite).  fio's job_runtime is the job's time rounded down
 * (mtime_since_now(&td->epoch)), a group's the sum of its jobs': 0 with
 * bytes moved is a run under 1 ms too.  Refused; a modeled job's 1 ms and
 * up is read_dir()'s (it must run 100 ms).  Checked once verify's reads,
 * which no table reads, are left out.
 */
static void check_short(struct reader *r, const cJSON *jo, const struct job *j)
{
	double ms = whole(r, jo, "", "job_runtime"), moved = 0;
	int d;

	for (d = 0; d < NDIR; d++) {
		const struct dirstat *ds = j->d[d];
		double rt_ms = ds->runtime_s * 1000 / j->conf->scale;

		moved += ds->io_bytes;
		if (ds->present && (rt_ms < 1 || (rt_ms <= 1 && !j->conf->modeled)))
			bad(r, "\"%s.runtime\" is %g ms for %.0f bytes: fio rounds a direction's runtime up to whole ms, so the run took up to 1 ms, how much less is unknown, and so is its rate (bytes over 1 ms only bound it); run it longer (a larger size=, or time_based with runtime=)",
			    dir_name[d], rt_ms, ds->io_bytes);
	}
	if (ms == 0 && moved > 0)
		bad(r, "\"job_runtime\" is 0 ms with %.0f bytes moved: fio writes 0 for a job that ran under 1 ms (it counts whole ms, rounded down), so its rate is unknown; run it longer (a larger size=, or time_based with runtime=)",
		    moved);
}

/*
 * A group_reporting record sums its jobs' job_runtime (sum_thread_stats()
 * adds total_run_time) and keeps the longest job's direction runtimes, and
 * a job runs (total_run_time) as long as its directions do, verify's reads
 * after its writes (job_runtime()'s sum).  So a record whose job_runtime is
 * more than numjobs times that holds more jobs than its numjobs clones:
 * group_reporting over several job sections of one group (no stonewall or
 * new_group between them), which fio names after the first one and gives
 * the last one's options, whatever the others' targets, depths or engines
 * were (with group_reporting=1 or a bare group_reporting alike: the record
 * does not say how many jobs it holds).  Refused.
 */
static void check_members(struct reader *r, const cJSON *jo, const struct job *j)
{
	double ms = whole0(r, jo, "", "job_runtime"), dir = 0, n = j->conf->numjobs;
	int d;

	if (j->conf->modeled)
		return;
	for (d = 0; d < NDIR; d++)
		if (j->conf->verify && d != DIR_MIXED)
			dir += whole0(r, cJSON_GetObjectItemCaseSensitive(jo, dir_name[d]), "", "runtime");
		else if (j->d[d]->present)
			dir = fmax(dir, j->d[d]->runtime_s * 1000);
	if (!(dir > 0) || ms <= n * dir * 1.25 + n * 10)
		return;
	bad(r, "\"job_runtime\" is %.0f ms, more than numjobs (%.0f) times its runtime (%.0f ms): the record sums the runs of more jobs than its numjobs clones (group_reporting over several job sections in one group: fio names the record after the first one and gives it the last one's options, whatever the others ran); put new_group (or stonewall) before each section, or leave group_reporting to numjobs clones",
	    ms, n, dir);
}

/*
 * fio's synchronous engines (FIO_SYNCIO in fio 3.33's engines/) run one I/O
 * at a time: with iodepth > 1 fio says "queue depth will be capped at 1"
 * (backend.c, in the job's process: on its stdout, not in the JSON) and
 * runs depth 1, while the record keeps the iodepth asked for, which every
 * table, label and axis shows (a psync "sweep" over iodepth 1..32 is one
 * configuration run five times).  Refused.  Only an ioengine the options
 * name: without one fio takes its platform's default, which the JSON does
 * not say.  (null is synchronous only at iodepth 1.)
 */
static void check_depth(struct reader *r, const struct opts *o, const struct job *j)
{
	static const char *const sync_engines[] = {
		"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "splice", "e4defrag",
		"falloc", "ftruncate", "filecreate", "filestat", "filedelete", "cpuio", "exec",
		"dev-dax", "libpmem", "pmemblk", "mtd", "net", "netsplice",
	};
	const char *e = opt(o, "ioengine"), *lt = opt(o, "latency_target");
	size_t i;

	/*
	 * latency_target: fio searches the depth from 1 up to iodepth for the
	 * target (lat_target_init() in io_u.c), so the run is a mix of depths
	 * its record's iodepth does not tell (its latency_depth is only where
	 * the search ended).
	 */
	if (lt && fio_time_ms(lt) != 0 && j->conf->iodepth > 1)
		bad(r, "iodepth %d with latency_target=%s: fio searched the queue depth from 1 up to %d for that target, so the job ran at depths its record's iodepth does not say (its latency_depth is where the search ended): for a depth the tables can show, leave latency_target out",
		    j->conf->iodepth, lt, j->conf->iodepth);
	if (!e || j->conf->iodepth <= 1)
		return;
	for (i = 0; i < sizeof(sync_engines) / sizeof(*sync_engines); i++)
		if (!strcmp(e, sync_engines[i]))
			bad(r, "iodepth %d with ioengine=%s, a synchronous engine: fio caps its queue depth at 1 ('queue depth will be capped at 1'), so it ran another iodepth than its record says: give iodepth=1, or an asynchronous ioengine (libaio, io_uring)",
			    j->conf->iodepth, e);
}

/*
 * A record with bytes in a direction its rw does not move is not one job's
 * (group_reporting over jobs of different rw): refused.
 */
static void check_dirs(struct reader *r, const struct opts *o, const struct job *j)
{
	unsigned dirs = rw_dirs(o, j->conf->rw);
	int d;

	for (d = 0; d < NDIR && dirs; d++)
		if (j->d[d]->present && !(dirs & 1u << d)) {
			bad(r, "%s: %.0f bytes, but rw=%s moves none there%s: the record is not this job's alone (group_reporting over jobs of different rw?)",
			    dir_name[d], j->d[d]->io_bytes, j->conf->rw,
			    d == DIR_READ ? " (no verify)" : d == DIR_TRIM ? " (no trim_percentage)" : "");
			return;
		}
}

/*
 * fio counts verify's reads (after the writes, or with verify_backlog
 * among them) as the job's reads: its read record, and its mixed one,
 * hold reads the user did not measure, alone (rw=write) or summed with
 * the measured ones (rw=randrw), over a runtime that covers both.  No
 * table can take them: left out, said, the write record kept (fio times
 * the writes apart, but with verify_backlog the verify reads ran among the
 * writes, inside their runtime: said, and in perftest's notes).
 */
static void verify_leave_out(struct job *j, int dir, const struct opts *o, struct dirstat *d)
{
	const char *vb = opt(o, "verify_backlog");
	int l;

	if (vb && !strcmp(vb, "0"))
		vb = NULL;
	/* the aggregate sums the hosts' records, each said as it was read */
	if (j->aggregate)
		warnx_("%s: fio's 'All clients' record: its %s record (%.0f bytes) sums the hosts' verify reads (verify=%s), left out as theirs are",
		       j->doc->file, dir_name[dir], d->io_bytes, opt(o, "verify"));
	else
		warnx_("%s: job %s: its %s record (%.0f bytes) counts verify's reads (verify=%s): not reads rw=%s measured, left out (%s)",
		       j->doc->file, job_ref(j->name, j->host), dir_name[dir], d->io_bytes, opt(o, "verify"), j->conf->rw,
		       dir == DIR_MIXED ? "it sums them with the writes: without unified_rw_reporting the write record stands alone" :
		       vb ? "the write record stands, but with verify_backlog fio verified among the writes: their runtime holds the verify reads too" :
		       "the write record stands: fio times the writes apart");
	memset(d, 0, sizeof(*d));
	if (j->bins)
		for (l = 0; l < NLAT; l++) {
			latbins_free(j->bins[dir][l]);
			j->bins[dir][l] = NULL;
		}
}

/*
 * unified_rw_reporting=both: fio writes the read, write and trim records
 * and beside them "mixed", their sum.  Tabled or exported beside them it
 * would count every byte twice (a dd line, a perftest M column, an
 * rw="mixed" series a dashboard sums over rw with read and write): left
 * out, said; the directions stand.  =1 (mixed) writes the sum alone: kept.
 */
static void both_leave_out(struct job *j, struct dirstat *d)
{
	int l;

	if (j->aggregate)
		warnx_("%s: fio's 'All clients' record: its mixed record (%.0f bytes, unified_rw_reporting=both) is the sum of its read, write and trim records, shown apart: left out, so no output counts a byte twice",
		       j->doc->file, d->io_bytes);
	else
		warnx_("%s: job %s: its mixed record (%.0f bytes, unified_rw_reporting=both) is the sum of its read, write and trim records, shown apart: left out, so no output counts a byte twice",
		       j->doc->file, job_ref(j->name, j->host), d->io_bytes);
	memset(d, 0, sizeof(*d));
	if (j->bins)
		for (l = 0; l < NLAT; l++) {
			latbins_free(j->bins[DIR_MIXED][l]);
			j->bins[DIR_MIXED][l] = NULL;
		}
}

/*
 * @jopts: the "job options" the job ran with: its own, or for fio's "All
 * clients" aggregate (which has none) those of the per-host jobs it sums.
 */
static int job_from(struct jobset *js, struct job *j, const cJSON *jo, const cJSON *jopts,
		    const cJSON *global, int want_bins, char **why)
{
	struct opts o = { jopts, global };
	struct reader r = { 0 };
	const struct jconf *conf;
	const cJSON *v;
	uint64_t bs[NRWT] = { 0 };
	int i, mean_bs;

	/* in the order fio writes them (members()) */
	enum { F_JOBNAME, F_GROUPID, F_ELAPSED, F_DIR, F_USR = F_DIR + NDIR, F_SYS, F_HOSTNAME,
	       F_PORT, NF };
	static const char *const names[NF] = { "jobname", "groupid", "elapsed", "read", "write",
					       "trim", "mixed", "usr_cpu", "sys_cpu", "hostname",
					       "port" };
	double gid;
	const cJSON *f[NF];

	/* the members read here, in one pass over the job (dir_name[] order) */
	members(jo, names, NF, f);
	v = f[F_JOBNAME];
	if (!cJSON_IsString(v)) {
		*why = xstrdup("job without a \"jobname\"");
		return -1;
	}
	j->name = intern(v->valuestring);	/* iterations of a sweep share names */
	check_text(&r, "job name", j->name);
	/* (shown() reuses its buffer: the messages keep their own copy) */
	r.job = control_byte(j->name) ? intern(shown(j->name)) : j->name;
	/* checked as what they are, whole numbers (host_of() takes a port or none) */
	(void)wholev(&r, f[F_PORT], "", "port");
	(void)wholev(&r, f[F_ELAPSED], "", "elapsed");
	j->host = host_of(f[F_HOSTNAME], f[F_PORT], j->aggregate, &j->port);
	r.host = j->host;
	v = f[F_HOSTNAME];
	if (!j->aggregate && cJSON_IsString(v)) {
		j->hostname = intern(v->valuestring);
		check_text(&r, "hostname", j->hostname);
	}

	gid = wholev(&r, f[F_GROUPID], "", "groupid");
	j->groupid = gid <= INT_MAX ? (int)gid : -1;
	conf = read_conf(&r, &o);
	if (!conf) {
		*why = r.why;
		return -1;
	}
	j->conf = conf;
	memcpy(bs, conf->bs, sizeof(bs));
	mean_bs = conf->mean_bs;
	j->usr_cpu = num0v(&r, f[F_USR], "", "usr_cpu");
	j->sys_cpu = num0v(&r, f[F_SYS], "", "sys_cpu");
	for (i = 0; i < NDIR; i++) {
		struct dirstat tmp, *d = &tmp;

		memset(&tmp, 0, sizeof(tmp));	/* the padding too: dir_store() compares bytes */

		read_dir(&r, d, f[F_DIR + i], dir_name[i], conf->modeled, conf->scale);
		if (want_bins) {
			if (!j->bins)
				j->bins = xcalloc(NDIR, sizeof(*j->bins));
			read_dir_bins(&r, j->bins[i], f[F_DIR + i],
				      dir_name[i]);
		}
		if (conf->verify && (i == DIR_READ || i == DIR_MIXED) && d->present)
			verify_leave_out(j, i, &o, d);
		if (i == DIR_MIXED && d->present && (f[F_DIR + DIR_READ] || f[F_DIR + DIR_WRITE] || f[F_DIR + DIR_TRIM]))
			both_leave_out(j, d);
		/* mixed: the block size when reads and writes share one */
		d->bs = i < NRWT ? bs[i] : bs[DIR_READ] == bs[DIR_WRITE] ? bs[DIR_READ] : 0;
		/* the aggregate is checked as the sum of the checked host records */
		if (!mean_bs && !j->aggregate)
			check_bs(&r, d, dir_name[i], conf->bs_from);
		/* total_ios >= 1 keeps the mean below io_bytes, i.e. below 2^53 */
		if (mean_bs || !d->bs)
			d->bs = d->total_ios >= 1 ? (uint64_t)llround(d->io_bytes / d->total_ios) : 0;
		j->d[i] = dir_store(js, d);
	}
	check_dirs(&r, &o, j);
	check_short(&r, jo, j);
	if (!j->aggregate) {
		check_volume(&r, &o, j);
		check_timed(&r, &o, j, jo);
		check_members(&r, jo, j);
		check_depth(&r, &o, j);
	}
	if (r.why) {
		*why = r.why;
		return -1;
	}
	return 0;
}

static void job_free(struct job *j)
{
	int d, l;

	if (j->bins) {
		for (d = 0; d < NDIR; d++)
			for (l = 0; l < NLAT; l++)
				latbins_free(j->bins[d][l]);
		free(j->bins);
	}
}

void jobset_free(struct jobset *js)
{
	size_t i;

	for (i = 0; i < js->n; i++)
		job_free(&js->v[i]);
	free(js->v);
	for (i = 0; i < js->ndocv; i++)
		free(js->docv[i]);
	free(js->docv);
	free(js->versions);
	dirpool_free(js->dirs);
	samerun_free(js->runs);
	if (js->runids) {
		map_free(&js->runids->map);
		free(js->runids->seen);
		free(js->runids);
	}
	memset(js, 0, sizeof(*js));
}

static void note_version(struct jobset *js, const char *ver)
{
	size_t i;

	for (i = 0; i < js->nversions; i++)
		if (js->versions[i] == ver)
			return;
	js->versions = xrealloc(js->versions, (js->nversions + 1) * sizeof(char *));
	js->versions[js->nversions++] = ver;
}

/* FNV-1a, 64 bits, over everything that tells one fio run from another. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static uint64_t hash_tree(uint64_t h, const cJSON *v)
{
	const cJSON *c;
	int type;

	for (; v; v = v->next) {
		if (v->string)
			h = fnv(h, v->string, strlen(v->string) + 1);
		/* cJSON's type alone: JSON_WHOLE is how a number is written */
		type = v->type & 0xff;
		h = fnv(h, &type, sizeof(type));
		if (cJSON_IsString(v))
			h = fnv(h, v->valuestring, strlen(v->valuestring) + 1);
		else if (cJSON_IsNumber(v))
			h = fnv(h, &v->valuedouble, sizeof(v->valuedouble));
		c = v->child;
		if (c)
			h = hash_tree(h, c);
	}
	return h;
}

/* The name, then member @name of @o alone (not its siblings), when it is there. */
static uint64_t hash_member(uint64_t h, const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	h = fnv(h, name, strlen(name) + 1);
	if (v) {
		const cJSON one = { .type = v->type, .valuestring = v->valuestring,
				    .valuedouble = v->valuedouble, .child = v->child };

		h = hash_tree(h, &one);
	}
	return h;
}

/*
 * A run's identity from its content, not its place in the input: the
 * document's timestamps, fio version and global options, and each job's
 * name, host and options.  Re-reading the same file gives the same ids
 * (and so the same dashboard series); a document repeated within one input
 * gets "-2", "-3"... so that its samples stay distinct, as before.
 */
static const char *run_identity(struct jobset *js, const cJSON *doc)
{
	static const char *const top[] = { "fio version", "timestamp", "timestamp_ms",
					   "global options" };
	static const char *const per_job[] = { "jobname", "hostname", "port", "job options" };
	const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "client_stats"), *jo;
	uint64_t h = 0xcbf29ce484222325ULL;
	struct runids *ri;
	char buf[40];
	size_t k, seen;

	if (!jobs)
		jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	for (k = 0; k < sizeof(top) / sizeof(*top); k++)
		h = hash_member(h, doc, top[k]);
	cJSON_ArrayForEach(jo, jobs)
		for (k = 0; k < sizeof(per_job) / sizeof(*per_job); k++)
			h = hash_member(h, jo, per_job[k]);
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)h);
	if (!js->runids) {
		js->runids = xmalloc(sizeof(*js->runids));
		memset(js->runids, 0, sizeof(*js->runids));
	}
	ri = js->runids;
	k = map_get(&ri->map, buf, ri->map.n);
	if (k == ri->n) {
		ri->seen = xrealloc(ri->seen, (ri->n + 1) * sizeof(*ri->seen));
		ri->seen[ri->n++] = 0;
	}
	seen = ++ri->seen[k];
	if (seen > 1)
		snprintf(buf + 16, sizeof(buf) - 16, "-%zu", seen);
	return intern(buf);
}

static int is_aggregate(const cJSON *jo)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(jo, "jobname");

	return cJSON_IsString(v) && !strcmp(v->valuestring, "All clients");
}

/* Equal "job options", but for "name" (the iteration marker). */
static int same_opts(const cJSON *a, const cJSON *b)
{
	const cJSON *v, *w;
	int na = 0, nb = 0;

	cJSON_ArrayForEach(v, a) {
		if (!v->string || !strcmp(v->string, "name"))
			continue;
		na++;
		w = cJSON_GetObjectItemCaseSensitive(b, v->string);
		if (!w || !cJSON_Compare(v, w, 1))
			return 0;
	}
	cJSON_ArrayForEach(w, b)
		if (w->string && strcmp(w->string, "name"))
			nb++;
	return na == nb;
}

/*
 * fio's "All clients" record (client.c) sums every job every server
 * reported in the run, and carries no options.  It describes one
 * configuration only when the per-host jobs it sums are one configuration
 * in one reporting group (they ran side by side); their options are then
 * its options (*@opts, NULL when they have none beside the global ones).
 * -1 with *@why set when it is not so.
 */
static int aggregate_opts(const cJSON *jobs, const cJSON **opts, char **why)
{
	const cJSON *jo, *first = NULL, *fo = NULL, *v;
	double gid = 0, g;
	int n = 0;

	cJSON_ArrayForEach(jo, jobs) {
		if (!cJSON_IsObject(jo) || is_aggregate(jo))
			continue;
		v = cJSON_GetObjectItemCaseSensitive(jo, "groupid");
		g = cJSON_IsNumber(v) ? v->valuedouble : 0;
		n++;
		if (!first) {
			first = jo;
			fo = cJSON_GetObjectItemCaseSensitive(jo, "job options");
			gid = g;
			continue;
		}
		if (g != gid) {
			*why = xasprintf("the per-host jobs it sums ran in different groups (%s and %s)",
					 json_job_ref(first), json_job_ref(jo));
			return -1;
		}
		if (!same_opts(fo, cJSON_GetObjectItemCaseSensitive(jo, "job options"))) {
			*why = xasprintf("the per-host jobs it sums differ in their options (%s and %s)",
					 json_job_ref(first), json_job_ref(jo));
			return -1;
		}
	}
	if (!n) {
		*why = xstrdup("no per-host job beside it");
		return -1;
	}
	*opts = fo;
	return 0;
}

/*
 * The aggregate must be the sum of the hosts' jobs read from the same
 * document: bytes per direction exactly (a host job left out as failed, or
 * a record of another run, shows here).  0 when it is.
 */
static int aggregate_checks(const struct jobset *js, size_t first, size_t agg, char **why)
{
	double sum[NDIR] = { 0 }, ios[NDIR] = { 0 };
	size_t i;
	int d;

	for (i = first; i < js->n; i++)
		if (i != agg)
			for (d = 0; d < NDIR; d++) {
				sum[d] += js->v[i].d[d]->io_bytes;
				ios[d] += js->v[i].d[d]->total_ios;
			}
	for (d = 0; d < NDIR; d++) {
		if (sum[d] != js->v[agg].d[d]->io_bytes) {
			*why = xasprintf("its %s bytes (%.0f) are not the sum of the hosts' (%.0f)",
					 dir_name[d], js->v[agg].d[d]->io_bytes, sum[d]);
			return -1;
		}
		if (ios[d] != js->v[agg].d[d]->total_ios) {
			*why = xasprintf("its %s total_ios (%.0f) are not the sum of the hosts' (%.0f)",
					 dir_name[d], js->v[agg].d[d]->total_ios, ios[d]);
			return -1;
		}
	}
	return 0;
}

/*
 * Append the jobs of @doc.  Returns -1 with *why set (allocated, the caller
 * frees it) when the document is not fio output or holds a value fio does
 * not write; jobs that failed (error != 0) are reported and left out.
 */
/*
 * fiotab reads fio 3.x JSON, whose fields and units it knows (latencies in
 * ns as clat_ns, io_bytes in bytes).  fio 2.x wrote latencies in us under
 * other names and its byte counts otherwise: a document of another
 * version, or of none, is refused naming it.  0 with *@why set then.
 */
static int fio_version_known(const cJSON *v, char **why)
{
	const char *s = cJSON_IsString(v) ? v->valuestring : NULL;

	if (s && !strncmp(s, "fio-3.", 6) && s[6] >= '0' && s[6] <= '9')
		return 1;
	if (s)
		*why = xasprintf("\"fio version\" is \"%.60s\": fiotab reads fio 3.x JSON only, whose fields and units it knows (fio 2.x wrote latencies in us, and other counts in other units)", s);
	else
		*why = xstrdup("no \"fio version\" (fiotab reads fio 3.x JSON only, and fio writes its version there)");
	return 0;
}

/*
 * A job's runtime in ms: fio's job_runtime, else (older or hand-made
 * records) its longest direction's runtime, unscaled; below 2^32 ms.
 * A group_reporting record of several jobs (numjobs=4) has the sum of
 * their job_runtimes (fio's sum_thread_stats() adds total_run_time), and
 * each direction's runtime the longest job's: so the longest direction
 * that moved bytes, where it is shorter, is the time the jobs ran (a
 * group of four 1 s jobs has job_runtime 4000, its read runtime 1000).
 * A write job with verify writes, then reads back (its read record, left
 * out, holds verify's reads): its time is its directions' runtimes added,
 * the read one taken from the document (a group of four write+verify jobs
 * of 500 ms has job_runtime 2000, its write and read runtimes 400 and 100).
 */
static uint32_t job_runtime(struct reader *r, const cJSON *jo, const struct job *j)
{
	double ms = whole(r, jo, "", "job_runtime"), dir = 0;
	int d;

	for (d = 0; d < NDIR; d++)
		if (j->conf->verify && d != DIR_MIXED)
			dir += whole0(r, cJSON_GetObjectItemCaseSensitive(jo, dir_name[d]), "", "runtime");
		else if (j->d[d]->present)
			dir = fmax(dir, j->d[d]->runtime_s * 1000 / j->conf->scale);
	if (isnan(ms) || (dir > 0 && dir < ms))
		ms = dir;
	return ms < 4294967295.0 ? (uint32_t)ms : UINT32_MAX;
}

struct gidrt {
	int gid;
	uint32_t rt;
};

static int gidrt_cmp(const void *a, const void *b)
{
	const struct gidrt *x = a, *y = b;

	return (x->gid > y->gid) - (x->gid < y->gid);
}

/*
 * The groups of one fio run that ran one after another (stonewall) take,
 * each its longest job's runtime, no longer than the run: fio's "elapsed"
 * (s since fio started at the report, rounded up; in each job record of a
 * local run).  When they add up to more (plus 1 ms a group: runtimes round
 * up), groups ran side by side (new_group without stonewall, both written
 * bare: no record says so), and their records are not iterations: the
 * document's jobs get one group, so that perftest, ratio and plot refuse
 * them as they do one group's (group.c), the sums said.  @rt: the jobs'
 * runtimes (job_runtime()).
 */
static void groups_overlap(struct jobset *js, size_t first, const uint32_t *rt,
			   const cJSON *jobs, struct jobdoc *jd)
{
	const cJSON *jo = cJSON_GetArrayItem(jobs, 0);
	const cJSON *e = jo ? cJSON_GetObjectItemCaseSensitive(jo, "elapsed") : NULL;
	size_t n = js->n - first, i, ng = 0;
	struct gidrt *v;
	double sum = 0;
	int gid = -1;

	if (n < 2 || !cJSON_IsNumber(e) || !(e->valuedouble > 0))
		return;
	v = xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = (struct gidrt){ js->v[first + i].groupid, rt[i] };
	qsort(v, n, sizeof(*v), gidrt_cmp);
	for (i = 0; i < n; i++) {
		uint32_t m = v[i].rt;

		if (v[i].gid < 0)
			continue;
		while (i + 1 < n && v[i + 1].gid == v[i].gid)
			m = v[++i].rt > m ? v[i].rt : m;
		if (gid < 0)
			gid = v[i].gid;
		sum += m;
		ng++;
	}
	free(v);
	if (ng < 2 || sum <= e->valuedouble * 1000 + (double)ng)
		return;
	jd->groups_ms = sum;
	jd->elapsed_s = e->valuedouble;
	for (i = first; i < js->n; i++)
		if (js->v[i].groupid >= 0)
			js->v[i].groupid = gid;
}

/*
 * fio --client's JSON has no "elapsed" (the client runs no job of its own,
 * so its records get none; nor do they say when a server's job started):
 * whether a server's groups ran one after another (stonewall) or side by
 * side (new_group without stonewall) cannot be told.  The document's jobs
 * in more than one group get one group, so that perftest, ratio and plot
 * refuse their records as iterations, as they do one group's (group.c);
 * one record a point per group and run (a sweep in one run) stays.
 */
static void groups_unknown(struct jobset *js, size_t first, struct jobdoc *jd)
{
	size_t i;
	int gid = -1;

	for (i = first; i < js->n; i++) {
		if (js->v[i].groupid < 0)
			continue;
		if (gid < 0)
			gid = js->v[i].groupid;
		else if (js->v[i].groupid != gid)
			jd->groups_unknown = 1;
	}
	if (jd->groups_unknown)
		for (i = first; i < js->n; i++)
			if (js->v[i].groupid >= 0)
				js->v[i].groupid = gid;
}

int jobs_from_doc(struct jobset *js, const cJSON *doc, const char *file, char **why)
{
	static uint32_t *rt;	/* the jobs' runtimes, ms (scratch, kept) */
	static size_t rtcap;

	const cJSON *jobs, *jo, *global, *v;
	struct reader r = { 0 };
	const char *ver, *ifile;
	struct jobdoc *jd;
	double ts, ts_ms;
	size_t first = js->n, agg = SIZE_MAX;
	struct dirmark mark;
	int client, naggs = 0;

	if (!cJSON_IsObject(doc)) {
		*why = xstrdup("not a fio JSON object");
		return -1;
	}
	jobs = cJSON_GetObjectItemCaseSensitive(doc, "client_stats");
	/* fio's "All clients" sum is in client_stats alone: elsewhere a job may have that name */
	client = jobs != NULL;
	if (!jobs)
		jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!cJSON_IsArray(jobs)) {
		*why = xstrdup("no \"jobs\" or \"client_stats\" array (not fio JSON output?)");
		return -1;
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "fio version");
	if (!fio_version_known(v, why))
		return -1;
	ver = intern(v->valuestring);
	/*
	 * Once per document, not per job; folded (perftest --no-iterations),
	 * the document's own copy, freed with it when none of its jobs stays.
	 */
	ifile = js->fold ? NULL : intern(file);
	global = cJSON_GetObjectItemCaseSensitive(doc, "global options");
	ts = whole0(&r, doc, "", "timestamp");
	ts_ms = whole(&r, doc, "", "timestamp_ms");
	if (isnan(ts_ms))
		ts_ms = ts * 1000;
	if (r.why) {
		*why = r.why;
		return -1;
	}
	if (client) {
		cJSON_ArrayForEach(jo, jobs)
			naggs += is_aggregate(jo);
		if (naggs > 1) {
			*why = xstrdup("two records named 'All clients' in \"client_stats\": fio writes one, its sum of the hosts' jobs, and a job of that name cannot be told from it (rename the job)");
			return -1;
		}
	}
	js->ndocs++;
	dirpool_mark(js, &mark);
	jd = xmalloc(sizeof(*jd) + (ifile ? 0 : strlen(file) + 1));
	jd->version = ver;
	jd->file = ifile ? ifile : strcpy((char *)(jd + 1), file);
	jd->timestamp = ts;
	jd->timestamp_ms = ts_ms;
	jd->run = js->ndocs;
	jd->runid = NULL;
	jd->groups_ms = jd->elapsed_s = 0;
	jd->groups_unknown = 0;
	cJSON_ArrayForEach(jo, jobs) {
		const cJSON *jopts = cJSON_GetObjectItemCaseSensitive(jo, "job options");
		struct job *j;
		double err;
		char *aggwhy = NULL;

		if (!cJSON_IsObject(jo)) {
			*why = xstrdup("job entry is not an object");
			goto bad;
		}
		v = cJSON_GetObjectItemCaseSensitive(jo, "jobname");
		r.job = cJSON_IsString(v) ? v->valuestring : "?";
		r.host = NULL;
		err = whole0(&r, jo, "", "error");
		if (r.why) {
			*why = r.why;
			goto bad;
		}
		r.job = NULL;
		if (err != 0) {
			warnx_("%s: job %s failed (error %.0f), left out", file, json_job_ref(jo), err);
			continue;
		}
		if (client && is_aggregate(jo)) {
			if (aggregate_opts(jobs, &jopts, &aggwhy)) {
				warnx_("%s: fio's 'All clients' record left out: %s, so it is no one configuration's aggregate (the per-host tables are exact)",
				       file, aggwhy);
				free(aggwhy);
				continue;
			}
			agg = js->n;
		}
		if (js->n == js->cap) {
			js->cap = js->cap ? 2 * js->cap : 64;
			js->v = xrealloc(js->v, js->cap * sizeof(*js->v));
		}
		j = &js->v[js->n];
		memset(j, 0, sizeof(*j));
		j->doc = jd;
		j->seq = js->n;
		j->aggregate = agg == js->n;
		js->n++;
		if (job_from(js, j, jo, jopts, global, js->want_bins, why))
			goto bad;
		if (js->n - first > rtcap) {
			rtcap = 2 * (js->n - first);
			rt = xrealloc(rt, rtcap * sizeof(*rt));
		}
		r.job = j->name;
		r.host = j->host;
		rt[js->n - first - 1] = job_runtime(&r, jo, j);
		r.job = NULL;
		if (r.why) {
			*why = r.why;
			goto bad;
		}
	}
	if (agg != SIZE_MAX) {
		char *aggwhy = NULL;
		int bad_agg = aggregate_checks(js, first, agg, &aggwhy);

		if (bad_agg || js->drop_aggregate) {
			if (bad_agg)
				warnx_("%s: fio's 'All clients' record left out: %s", file, aggwhy);
			else
				warnx_("%s: fio's 'All clients' record left out: it is the sum of the hosts' records, written with their host labels; beside them (host=\"All clients\") a sum over host would count every byte twice (the hosts' series sum to it)",
				       file);
			free(aggwhy);
			job_free(&js->v[agg]);
			memmove(&js->v[agg], &js->v[agg + 1], (js->n - agg - 1) * sizeof(*js->v));
			js->n--;
			memmove(&rt[agg - first], &rt[agg - first + 1], (js->n - agg) * sizeof(*rt));
			for (; agg < js->n; agg++)
				js->v[agg].seq = agg;
		}
	}
	if (!client)
		groups_overlap(js, first, rt, jobs, jd);
	else
		groups_unknown(js, first, jd);
	if (samerun_doc(js, first, rt, file, js->docidx, why))
		goto bad;
	note_version(js, ver);
	if (js->fold) {
		/* perftest reads no run identity; the document goes with its last job */
		if (fold_doc(js, first, &mark)) {
			free(jd);
			return 0;
		}
	} else {
		jd->runid = run_identity(js, doc);
	}
	js->docv = xrealloc(js->docv, (js->ndocv + 1) * sizeof(*js->docv));
	js->docv[js->ndocv++] = jd;
	return 0;
bad:
	while (js->n > first)
		job_free(&js->v[--js->n]);
	free(jd);
	return -1;
}
