// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every dashboard output names a job's series by run, job name, host and
 * target (Prometheus labels, Influx tags).  Two jobs of one run with the
 * same of those (numjobs clones without group_reporting, two sections of
 * one name) would be one series: Prometheus adds them, InfluxDB keeps one.
 * hist refuses them in every output, summary and dd in --format=influx and
 * prom; one rule, here.
 */
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "metrics.h"

const char *identity_host(const struct job *j)
{
	return strcmp(j->host, "-") ? j->host : local_host();
}

const char *job_ref(const char *name, const char *host)
{
	char *s = host && strcmp(host, "-") ? xasprintf("'%s' on host %s", name, host)
					    : xasprintf("'%s'", name);
	const char *r = intern(s);

	free(s);
	return r;
}

int identity_cmp(const struct job *a, const struct job *b)
{
	int c;

	if ((c = strcmp(a->doc->runid, b->doc->runid)) || (c = strcmp(a->name, b->name)) ||
	    (c = strcmp(identity_host(a), identity_host(b))))
		return c;
	return strcmp(a->conf->target, b->conf->target);
}

/* "iodepth 1 / 4, bs 4k / 8k": the options in which @a and @b differ, "" if none. */
static char *opts_diff(const struct job *a, const struct job *b)
{
	char *out = xstrdup(""), *t;
	size_t i = 0, k = 0;

	while (i < a->conf->nopts || k < b->conf->nopts) {
		int c = i == a->conf->nopts ? 1 : k == b->conf->nopts ? -1 : strcmp(a->conf->opts[2 * i], b->conf->opts[2 * k]);
		const char *key = c <= 0 ? a->conf->opts[2 * i] : b->conf->opts[2 * k];
		const char *va = c <= 0 ? a->conf->opts[2 * i + 1] : "(unset)";
		const char *vb = c >= 0 ? b->conf->opts[2 * k + 1] : "(unset)";

		if (strcmp(va, vb)) {
			t = xasprintf("%s%s%s %s / %s", out, *out ? ", " : "", key, va, vb);
			free(out);
			out = t;
		}
		i += c <= 0;
		k += c >= 0;
	}
	return out;
}

int identity_refuse(const char *cmd, const char *what, const struct job *a, const struct job *b)
{
	char *d = opts_diff(a, b);

	warnx_("%s: %s: two jobs named '%s' in one run on host %s, target %s, would be one %s; they differ in %s: give them distinct names%s",
	       cmd, a->doc->file, a->name, identity_host(a), a->conf->target, what,
	       *d ? d : "nothing but being separate jobs (numjobs clones?)",
	       *d ? "" : ", or report them as one with group_reporting=1");
	free(d);
	return -1;
}

static int by_identity(const void *pa, const void *pb)
{
	const struct job *a = *(const struct job *const *)pa, *b = *(const struct job *const *)pb;
	int c = identity_cmp(a, b);

	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A direction both moved bytes in (their rows' series differ by direction). */
static int share_dir(const struct job *a, const struct job *b)
{
	int d;

	for (d = 0; d < NDIR; d++)
		if (a->d[d]->present && b->d[d]->present)
			return 1;
	return 0;
}

int identity_check(const char *cmd, const char *what, const struct jobset *js)
{
	const struct job **v = xmalloc((js->n ? js->n : 1) * sizeof(*v));
	size_t i, k, end;
	int ret = 0;

	for (i = 0; i < js->n; i++)
		v[i] = &js->v[i];
	qsort(v, js->n, sizeof(*v), by_identity);
	for (i = 0; i < js->n && !ret; i = end) {
		for (end = i + 1; end < js->n && !identity_cmp(v[i], v[end]); end++)
			;
		for (k = i; k < end && !ret; k++) {
			size_t m;

			for (m = k + 1; m < end && !ret; m++)
				if (share_dir(v[k], v[m]))
					ret = identity_refuse(cmd, what, v[k], v[m]);
		}
	}
	free(v);
	return ret;
}
