// SPDX-License-Identifier: GPL-2.0-only
/* Collecting named phase jobs (iozone, Bonnie) into per-target rows. */
#include <stdlib.h>
#include <string.h>

#include "phase.h"

struct phase_table *phase_table_of(struct phase_set *s, const struct job *j)
{
	struct phase_table *t;
	size_t i;

	for (i = 0; i < s->n; i++) {
		t = &s->v[i];
		if (t->modeled == j->conf->modeled && t->scale == j->conf->scale &&
		    !strcmp(t->host, j->host) && !strcmp(t->target, j->conf->target))
			goto found;
	}
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	t = &s->v[s->n++];
	memset(t, 0, sizeof(*t));
	t->modeled = j->conf->modeled;
	t->scale = j->conf->scale;
	t->host = j->host;
	t->target = j->conf->target;
found:
	t->jobs = xrealloc(t->jobs, (t->njobs + 1) * sizeof(*t->jobs));
	t->jobs[t->njobs++] = j;
	return t;
}

struct phase_row *phase_row_of(struct phase_table *t, uint64_t kb, uint64_t reclen)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].kb == kb && t->rows[i].reclen == reclen)
			return &t->rows[i];
	t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
	memset(&t->rows[t->nrows], 0, sizeof(*t->rows));
	t->rows[t->nrows].kb = kb;
	t->rows[t->nrows].reclen = reclen;
	return &t->rows[t->nrows++];
}

void phase_set_free(struct phase_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].rows);
		free(s->v[i].jobs);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int phase_index(const char *const *names, const char *name, size_t len)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}

void phase_table_header(struct table *t, const struct phase_table *pt, const char *what)
{
	char *mode = mode_label(pt->modeled, pt->scale);
	size_t i;

	t->title = xasprintf("%s %s%s%s, %s", what, pt->target,
			     strcmp(pt->host, "-") ? " on host " : "",
			     strcmp(pt->host, "-") ? pt->host : "", mode);
	free(mode);
	note_versions(t, pt->jobs, pt->njobs);
	table_tag(t, "target", pt->target);
	if (strcmp(pt->host, "-"))
		table_tag(t, "host", pt->host);
	mode_tags(t, pt->modeled, pt->scale);
	for (i = 0; i < pt->njobs; i++)
		if (pt->jobs[i]->doc->timestamp > t->timestamp)
			t->timestamp = pt->jobs[i]->doc->timestamp;
}
