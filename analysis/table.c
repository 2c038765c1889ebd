// SPDX-License-Identifier: GPL-2.0-only
/* Building tables: columns, rows, cells, notes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "strmap.h"
#include "table.h"

struct table *table_new(const char *name, int nhdr)
{
	struct table *t = xmalloc(sizeof(*t));

	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->nhdr = nhdr;
	return t;
}

struct col *table_col(struct table *t, const char *key, const char *unit, int kind,
		      int width, int prec, const char *sep)
{
	struct col *c;

	if (t->nrows)
		die("internal: column added after rows");
	/* geometric growth: perftest adds a column per iteration */
	if (t->ncols == t->capcols) {
		t->capcols = t->capcols ? 2 * t->capcols : 16;
		t->cols = xrealloc(t->cols, (size_t)t->capcols * sizeof(*c));
	}
	c = &t->cols[t->ncols++];
	memset(c, 0, sizeof(*c));
	c->key = xstrdup(key);
	if (!t->colidx)
		t->colidx = xcalloc(1, sizeof(*t->colidx));
	/* a key names one column (perftest renames its "" keys at once) */
	if (*key && map_get(t->colidx, key, (size_t)t->ncols - 1) != (size_t)t->ncols - 1)
		die("internal: column '%s' twice in table %s", key, t->name);
	c->unit = unit ? (char *)intern(unit) : NULL;
	c->kind = kind;
	c->width = width;
	c->prec = prec;
	c->sep = sep;
	return c;
}

struct col *label_col(struct table *t, const char *key, const char *hdr, const char *tag,
		      int flags, int width, const char *sep)
{
	struct col *c = table_col(t, key, NULL, COL_STR, width, 0, sep);

	if (hdr)
		col_hdr(c, hdr, NULL, NULL);
	if (tag)
		col_tag(c, tag);
	c->flags |= flags;
	return c;
}

void col_hdr(struct col *c, const char *h0, const char *h1, const char *h2)
{
	c->hdr[0] = h0 ? (char *)intern(h0) : NULL;
	c->hdr[1] = h1 ? (char *)intern(h1) : NULL;
	c->hdr[2] = h2 ? (char *)intern(h2) : NULL;
}

void col_metric(struct col *c, const char *field, double scale, const char *ftags)
{
	c->field = (char *)intern(field);
	c->fscale = scale;
	c->ftags = ftags ? xstrdup(ftags) : NULL;
}

void col_tag(struct col *c, const char *tag)
{
	c->tag = (char *)intern(tag);
}

struct col *run_col(struct table *t, const char *sep)
{
	return label_col(t, "run", NULL, "run", COL_DATA_ONLY, 0, sep);
}

void table_row_time(struct table *t, int row, double ts)
{
	if (row >= t->caprowts) {
		int i, from = t->caprowts;

		t->caprowts = t->caprows;
		t->rowts = xrealloc(t->rowts, (size_t)t->caprowts * sizeof(*t->rowts));
		for (i = from; i < t->caprowts; i++)
			t->rowts[i] = 0;
	}
	t->rowts[row] = ts;
}

double table_time(const struct table *t, int row)
{
	return row < t->caprowts && t->rowts[row] ? t->rowts[row] : t->timestamp;
}

void table_tag(struct table *t, const char *key, const char *value)
{
	char *s = xasprintf("%s%s%s=%s", t->tags ? t->tags : "", t->tags ? TAGSEP : "",
			    key, value);

	free(t->tags);
	t->tags = s;
}

void table_note(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	t->notes = xrealloc(t->notes, (t->nnotes + 1) * sizeof(char *));
	t->notes[t->nnotes++] = s;
}

void table_pre(struct table *t, const char *line)
{
	t->pre = xrealloc(t->pre, (t->npre + 1) * sizeof(char *));
	t->pre[t->npre++] = xstrdup(line);
}

int table_row(struct table *t)
{
	if (t->nrows == t->caprows) {
		/* from 1: a perftest table is a few rows of thousands of columns */
		t->caprows = t->caprows ? 2 * t->caprows : 1;
		t->cells = xrealloc(t->cells,
				    (size_t)t->caprows * t->ncols * sizeof(struct cell));
	}
	memset(&t->cells[(size_t)t->nrows * t->ncols], 0, t->ncols * sizeof(struct cell));
	return t->nrows++;
}

struct cell *table_cell(struct table *t, int row, int col)
{
	return &t->cells[(size_t)row * t->ncols + col];
}

int table_colidx(struct table *t, const char *key)
{
	const char *k = t->colidx ? map_key(t->colidx, key) : NULL;

	if (!k)
		die("internal: table %s has no column '%s'", t->name, key);
	return (int)map_get(t->colidx, key, 0);
}

void table_set(struct table *t, int row, const char *key, double v)
{
	table_num(t, row, table_colidx(t, key), v);
}

void table_sets(struct table *t, int row, const char *key, const char *s)
{
	table_str(t, row, table_colidx(t, key), s);
}

/* table_set() on the column named by a format ("W3_s") */
void table_setf(struct table *t, int row, double v, const char *fmt, ...)
{
	va_list ap;
	char *key;

	va_start(ap, fmt);
	key = xvasprintf(fmt, ap);
	va_end(ap);
	table_set(t, row, key, v);
	free(key);
}

void table_num(struct table *t, int row, int col, double v)
{
	struct cell *x = table_cell(t, row, col);

	if (isnan(v))
		return;
	x->set = 1;
	x->v = v;
}

void table_str(struct table *t, int row, int col, const char *s)
{
	struct cell *x = table_cell(t, row, col);

	free(x->s);
	x->set = 1;
	x->s = xstrdup(s);
}

char *cell_text(const struct col *c, const struct cell *x, int exact)
{
	char num[32];	/* fmt_double(): at most %.17g, 24 bytes */

	if (!x->set)
		return xstrdup("");
	if (c->kind == COL_STR)
		return xstrdup(x->s);
	if (c->kind == COL_INT)
		return xasprintf("%.0f", x->v);
	if (exact)
		return xstrdup(fmt_double(num, sizeof(num), x->v));
	return xasprintf("%.*f", c->prec, x->v);
}

void note_versions(struct table *t, const struct job *const *jobs, size_t n)
{
	const char **seen = NULL;
	size_t i, k, ns = 0, cap = 0;
	char *list = xstrdup(""), *s;

	/* every distinct version, however many (interned: one pointer each) */
	for (i = 0; i < n; i++) {
		for (k = 0; k < ns && seen[k] != jobs[i]->doc->version; k++)
			;
		if (k < ns)
			continue;
		if (ns == cap) {
			cap = cap ? 2 * cap : 4;
			seen = xrealloc(seen, cap * sizeof(*seen));
		}
		seen[ns++] = jobs[i]->doc->version;
	}
	/* the version strings come from the input: no fixed buffer */
	for (k = 0; k < ns; k++) {
		s = xasprintf("%s%s%s", list, k ? ", " : "", seen[k]);
		free(list);
		list = s;
	}
	table_note(t, "fio version%s: %s", ns > 1 ? "s" : "", ns ? list : "none");
	free(list);
	free(seen);
}

void table_free(struct table *t)
{
	int i;

	for (i = 0; i < t->ncols; i++) {
		struct col *c = &t->cols[i];

		/* unit, headers, field and tag are interned: a few for thousands of columns */
		free(c->key);
		free(c->ftags);
	}
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].s);
	for (i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	for (i = 0; i < t->npre; i++)
		free(t->pre[i]);
	free(t->notes);
	free(t->pre);
	free(t->rowts);
	free(t->cols);
	free(t->cells);
	free(t->name);
	free(t->title);
	free(t->tags);
	if (t->colidx)
		map_free(t->colidx);
	free(t->colidx);
	free(t);
}

void tablist_add(struct tablist *l, struct table *t)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = t;
}

int tablist_add_rows(struct tablist *l, struct table *t)
{
	if (!t->nrows) {
		table_free(t);
		return 0;
	}
	tablist_add(l, t);
	return 1;
}

void tablist_free(struct tablist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		table_free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
