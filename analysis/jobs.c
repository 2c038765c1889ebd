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
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fiotab.h"
#include "strmap.h"

const char *const dir_name[NDIR] = { "read", "write", "trim" };
const char *const dir_letter[NDIR] = { "R", "W", "T" };

/*
 * Interned strings (versions, file names, hosts, targets, rw) live until
 * exit: thousands of jobs share a handful of them.
 */
const char *intern(const char *s)
{
	static struct strmap map;

	map_get(&map, s, 0);
	return map_key(&map, s);
}

struct opts {
	const cJSON *job, *global;
};

static const char *opt(const struct opts *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o->job, name);

	if (!cJSON_IsString(v))
		v = cJSON_GetObjectItemCaseSensitive(o->global, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static double num0(const cJSON *obj, const char *name)
{
	double v = num(obj, name);

	return isnan(v) ? 0 : v;
}

static double percentile_us(const cJSON *pct, const char *key, double to_us)
{
	return pct ? num(pct, key) * to_us : NAN;
}

static void read_dir(struct dirstat *d, const cJSON *o, double scale)
{
	const cJSON *clat, *pct;
	double to_us = 1e-3;

	d->io_bytes = num0(o, "io_bytes");
	if (!d->io_bytes)
		d->io_bytes = num0(o, "io_kbytes") * 1024;
	d->present = d->io_bytes > 0;
	d->runtime_s = num0(o, "runtime") / 1000.0 * scale;
	d->iops = num0(o, "iops") / scale;
	d->bw_bytes = num(o, "bw_bytes");
	if (isnan(d->bw_bytes))
		d->bw_bytes = num0(o, "bw") * 1024;
	d->bw_bytes /= scale;
	d->total_ios = num0(o, "total_ios");
	clat = cJSON_GetObjectItemCaseSensitive(o, "clat_ns");
	if (!clat) {	/* fio 2.x reported microseconds */
		clat = cJSON_GetObjectItemCaseSensitive(o, "clat");
		to_us = 1;
	}
	pct = cJSON_GetObjectItemCaseSensitive(clat, "percentile");
	if (!cJSON_IsObject(pct))
		pct = NULL;
	d->clat_mean_us = num(clat, "mean") * to_us * scale;
	d->clat_p50_us = percentile_us(pct, "50.000000", to_us) * scale;
	d->clat_p99_us = percentile_us(pct, "99.000000", to_us) * scale;
	d->clat_p999_us = percentile_us(pct, "99.900000", to_us) * scale;
}

static int job_from(struct job *j, const cJSON *jo, const cJSON *global,
		    const char **why)
{
	struct opts o = { cJSON_GetObjectItemCaseSensitive(jo, "job options"), global };
	const cJSON *v;
	const char *s;
	unsigned kb_base = 1024;
	uint64_t bs[NDIR];
	double port;
	int i, mean_bs;

	v = cJSON_GetObjectItemCaseSensitive(jo, "jobname");
	if (!cJSON_IsString(v)) {
		*why = "job without a \"jobname\"";
		return -1;
	}
	j->name = xstrdup(v->valuestring);
	j->aggregate = !strcmp(j->name, "All clients");
	/* several fio servers may share a hostname (one per port) */
	v = cJSON_GetObjectItemCaseSensitive(jo, "hostname");
	/* A TCP port or nothing: a double outside int's range must not be cast. */
	port = num0(jo, "port");
	j->port = port >= 1 && port <= 65535 ? (int)port : 0;
	if (j->aggregate || !cJSON_IsString(v) || j->port <= 0) {
		j->host = intern(j->aggregate ? "All clients" :
				 cJSON_IsString(v) ? v->valuestring : "-");
	} else {
		char *hp = xasprintf("%s:%d", v->valuestring, j->port);

		j->host = intern(hp);
		free(hp);
	}

	s = opt(&o, "kb_base");
	if (s && !strcmp(s, "1000"))
		kb_base = 1000;
	s = opt(&o, "filename");
	if (!s)
		s = opt(&o, "directory");
	/* fio puts its default files in the current directory */
	j->target = intern(s ? s : ".");
	s = opt(&o, "rw");
	if (!s)
		s = opt(&o, "readwrite");
	j->rw = intern(s ? s : "read");
	s = opt(&o, "bs");
	if (!s)
		s = opt(&o, "blocksize");
	/*
	 * bsrange/bssplit, or a bs fio took but we cannot read: the mean
	 * transfer size of each direction stands for the block size.
	 */
	mean_bs = (!s && (opt(&o, "bsrange") || opt(&o, "bssplit"))) ||
		  fio_parse_bs(s ? s : "4096", kb_base, 4096, bs);
	s = opt(&o, "size");
	if (!s || fio_parse_size(s, kb_base, &j->size))
		j->size = 0;
	s = opt(&o, "iodepth");
	j->iodepth = s ? atoi(s) : 1;
	s = opt(&o, "numjobs");
	j->numjobs = s ? atoi(s) : 1;

	s = opt(&o, "coop_backend");
	j->modeled = s && !strcmp(s, "sim");
	j->scale = 1;
	if (j->modeled) {
		s = opt(&o, "sim_time_scale");
		if (s) {
			char *end;

			j->scale = strtod(s, &end);
			if (end == s || *end || !(j->scale > 0) || isinf(j->scale)) {
				*why = "bad sim_time_scale";
				return -1;
			}
		}
	}
	j->usr_cpu = num0(jo, "usr_cpu");
	j->sys_cpu = num0(jo, "sys_cpu");
	for (i = 0; i < NDIR; i++) {
		struct dirstat *d = &j->d[i];

		read_dir(d, cJSON_GetObjectItemCaseSensitive(jo, dir_name[i]), j->scale);
		d->bs = bs[i];
		if (mean_bs)
			d->bs = d->total_ios > 0 ? (uint64_t)llround(d->io_bytes / d->total_ios) : 0;
	}
	return 0;
}

static void job_free(struct job *j)
{
	free(j->name);
}

void jobset_free(struct jobset *js)
{
	size_t i;

	for (i = 0; i < js->n; i++)
		job_free(&js->v[i]);
	free(js->v);
	free(js->versions);
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

/*
 * Append the jobs of @doc.  Returns -1 with *why set when the document is not
 * fio output; jobs that failed (error != 0) are reported and left out.
 */
int jobs_from_doc(struct jobset *js, const cJSON *doc, const char *file,
		  const char **why)
{
	const cJSON *jobs, *jo, *global, *v;
	const char *ver;
	double ts;
	size_t first = js->n;

	if (!cJSON_IsObject(doc)) {
		*why = "not a fio JSON object";
		return -1;
	}
	jobs = cJSON_GetObjectItemCaseSensitive(doc, "client_stats");
	if (!jobs)
		jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!cJSON_IsArray(jobs)) {
		*why = "no \"jobs\" or \"client_stats\" array (not fio JSON output?)";
		return -1;
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "fio version");
	ver = intern(cJSON_IsString(v) ? v->valuestring : "fio-unknown");
	global = cJSON_GetObjectItemCaseSensitive(doc, "global options");
	js->ndocs++;
	ts = num0(doc, "timestamp");
	cJSON_ArrayForEach(jo, jobs) {
		struct job *j;
		double err;

		if (!cJSON_IsObject(jo)) {
			*why = "job entry is not an object";
			goto bad;
		}
		err = num0(jo, "error");
		if (err != 0) {
			v = cJSON_GetObjectItemCaseSensitive(jo, "jobname");
			warnx_("%s: job '%s' failed (error %.0f), left out", file,
			       cJSON_IsString(v) ? v->valuestring : "?", err);
			continue;
		}
		if (js->n == js->cap) {
			js->cap = js->cap ? 2 * js->cap : 64;
			js->v = xrealloc(js->v, js->cap * sizeof(*js->v));
		}
		j = &js->v[js->n];
		memset(j, 0, sizeof(*j));
		j->version = ver;
		j->file = intern(file);
		j->timestamp = ts;
		j->seq = js->n;
		j->run = js->ndocs;
		js->n++;
		if (job_from(j, jo, global, why))
			goto bad;
	}
	note_version(js, ver);
	return 0;
bad:
	while (js->n > first)
		job_free(&js->v[--js->n]);
	return -1;
}
