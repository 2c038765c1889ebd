// SPDX-License-Identifier: GPL-2.0-only
/*
 * Real and modeled jobs never share a table: the per-job tables (summary,
 * dd, iozone, bonnie) first split the jobs by mode and time scale.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

size_t partition_jobs(const struct jobset *js, struct partition **out)
{
	struct partition *p = NULL;
	size_t n = 0, i, k;

	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];

		for (k = 0; k < n; k++)
			if (p[k].modeled == j->conf->modeled && p[k].scale == j->conf->scale)
				break;
		if (k == n) {
			p = xrealloc(p, (n + 1) * sizeof(*p));
			memset(&p[n], 0, sizeof(*p));
			p[n].modeled = j->conf->modeled;
			p[n].scale = j->conf->scale;
			n++;
		}
		if (p[k].n == p[k].cap) {
			p[k].cap = p[k].cap ? 2 * p[k].cap : 64;
			p[k].jobs = xrealloc(p[k].jobs, p[k].cap * sizeof(*p[k].jobs));
		}
		p[k].jobs[p[k].n++] = j;
	}
	*out = p;
	return n;
}

void partition_free(struct partition *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].jobs);
	free(p);
}

int partition_hosts(const struct partition *p)
{
	size_t i;

	for (i = 1; i < p->n; i++)
		if (strcmp(p->jobs[i]->host, p->jobs[0]->host))
			return 1;
	return 0;
}

char *mode_label(int modeled, double scale)
{
	return modeled ? xasprintf("modeled (coop_backend=sim, time scale %g)", scale)
		       : xstrdup("real");
}

void mode_tags(struct table *t, int modeled, double scale)
{
	char buf[32];

	table_tag(t, "mode", modeled ? "modeled" : "real");
	if (modeled) {
		snprintf(buf, sizeof(buf), "%g", scale);
		table_tag(t, "sim_time_scale", buf);
	}
}

char *titled(const char *what, const struct partition *p)
{
	char *m = mode_label(p->modeled, p->scale), *s = xasprintf("%s, %s", what, m);

	free(m);
	return s;
}

int per_partition(const struct jobset *js, const char *what,
		  int (*build)(const struct partition *p, struct tablist *out),
		  struct tablist *out)
{
	struct partition *p;
	size_t n = partition_jobs(js, &p), i;
	int any = 0;

	for (i = 0; i < n; i++)
		any |= build(&p[i], out) > 0;
	partition_free(p, n);
	if (!any) {
		warnx_("%s: no usable jobs (no job moved data in a measurable time)", what);
		return -1;
	}
	return 0;
}
