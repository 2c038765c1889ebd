// SPDX-License-Identifier: GPL-2.0-only
/* Table cells -> tagged samples for the dashboard formats. */
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "metrics.h"

/* Splits "k=v" TAGSEP "k=v" in place into @s (kept while the sample lives). */
static void add_tags(struct sample *s, char *list)
{
	char *tok, *save = NULL;

	if (!list)
		return;
	for (tok = strtok_r(list, TAGSEP, &save); tok; tok = strtok_r(NULL, TAGSEP, &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || s->ntags == MAX_TAGS || !eq[1])
			continue;
		*eq = '\0';
		s->tags[s->ntags].k = tok;
		s->tags[s->ntags++].v = eq + 1;
	}
}

void metrics_row(const struct table *t, int row,
		 void (*fn)(const struct sample *s, void *arg), void *arg)
{
	char *ttags = t->tags ? xstrdup(t->tags) : NULL;
	char *ibuf[MAX_TAGS];	/* the numeric tag values, as text */
	struct sample base = { .t = t, .row = row };
	int ci, ni = 0;

	add_tags(&base, ttags);
	for (ci = 0; ci < t->ncols; ci++) {
		const struct col *c = &t->cols[ci];
		const struct cell *x = &t->cells[(size_t)row * t->ncols + ci];

		if (!c->tag || !x->set || base.ntags == MAX_TAGS)
			continue;
		if (c->kind == COL_STR) {
			if (!x->s || !*x->s)
				continue;
			base.tags[base.ntags].v = x->s;
		} else {
			if (ni == MAX_TAGS)
				continue;
			ibuf[ni] = cell_text(c, x, 0);
			base.tags[base.ntags].v = ibuf[ni++];
		}
		base.tags[base.ntags++].k = c->tag;
	}
	for (ci = 0; ci < t->ncols; ci++) {
		const struct col *c = &t->cols[ci];
		const struct cell *x = &t->cells[(size_t)row * t->ncols + ci];
		struct sample s;
		char *ft;

		if (!c->field || !x->set || c->kind == COL_STR)
			continue;
		s = base;
		s.col = c;
		s.value = x->v * (c->fscale ? c->fscale : 1);
		ft = c->ftags ? xstrdup(c->ftags) : NULL;
		add_tags(&s, ft);
		fn(&s, arg);
		free(ft);
	}
	while (ni--)
		free(ibuf[ni]);
	free(ttags);
}
