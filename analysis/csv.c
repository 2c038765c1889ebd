// SPDX-License-Identifier: GPL-2.0-only
/*
 * CSV per RFC 4180: one header row, CRLF line ends, fields quoted when they
 * hold a comma, quote or line break.  Several tables become one CSV: the
 * first two columns name the table and its series, the rest is the union of
 * all tables' columns (empty where a table has no such column).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "metrics.h"
#include "strmap.h"
#include "table.h"

static void field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The --tag value replacing column @key's cells, or NULL. */
static const char *tag_of(const char *key, const int *tagcol)
{
	int k;

	for (k = 0; k < nuser_tags; k++)
		if (tagcol[k] && !strcmp(user_tags[k].k, key))
			return user_tags[k].v;
	return NULL;
}

/*
 * A --tag named like a column replaces its cells in out_csv(): refused, -1
 * after saying so, when the column holds figures (--tag IOPS=1 wrote 1 where
 * fio measured 128000) or more than one value (--tag dir=x made a job's read
 * and write rows one), as user_tags_check() refuses a label's; and one named
 * table or series, which was a second column of that name in the header.
 */
int csv_tags_check(const struct tablist *l)
{
	int i, k, ci, r, rc = 0;

	for (k = 0; k < nuser_tags && !rc; k++) {
		char *first = NULL;

		if (!strcmp(user_tags[k].k, "table") || !strcmp(user_tags[k].k, "series")) {
			warnx_("--tag %s=%s would be a second CSV column %s beside the one naming each row's table and series; give the tag another name",
			       user_tags[k].k, user_tags[k].v, user_tags[k].k);
			return -1;
		}
		for (i = 0; i < l->n && !rc; i++) {
			struct table *t = l->v[i];
			const struct col *c;

			if (!t->colidx || !map_key(t->colidx, user_tags[k].k))
				continue;
			ci = table_colidx(t, user_tags[k].k);
			if ((c = &t->cols[ci])->flags & COL_TEXT_ONLY)
				continue;
			if (c->kind != COL_STR && !c->tag) {
				warnx_("--tag %s=%s would replace the CSV column %s of table %s, whose cells are figures, not a label; give the tag another name",
				       user_tags[k].k, user_tags[k].v, c->key, t->name);
				rc = -1;
				break;
			}
			for (r = 0; r < t->nrows && !rc; r++) {
				char *v;

				if (!table_cell(t, r, ci)->set)
					continue;
				v = cell_text(c, table_cell(t, r, ci), 1);
				if (!first) {
					first = v;
					continue;
				}
				if (strcmp(first, v)) {
					warnx_("--tag %s=%s would replace the CSV column %s, which takes more than one value here ('%s', '%s'): their rows would read as one; give the tag another name",
					       user_tags[k].k, user_tags[k].v, c->key, first, v);
					rc = -1;
				}
				free(v);
			}
		}
		free(first);
	}
	return rc;
}

void out_csv(FILE *f, const struct tablist *l)
{
	int tagcol[MAX_TAGS] = { 0 };
	struct strmap keymap = { 0 };
	const char **keys = NULL;
	size_t nkeys = 0, capkeys = 0, k;
	int i, ci, r, *map;

	/*
	 * The union of the keys in order of appearance.  A perftest table has
	 * a column per iteration, so keys are looked up in a hash map: a
	 * search of the list per column would be quadratic in the iterations.
	 */
	for (i = 0; i < l->n; i++)
		for (ci = 0; ci < l->v[i]->ncols; ci++) {
			const struct col *c = &l->v[i]->cols[ci];

			if (c->flags & COL_TEXT_ONLY)
				continue;
			if (map_get(&keymap, c->key, nkeys) < nkeys)
				continue;
			if (nkeys == capkeys) {
				capkeys = capkeys ? 2 * capkeys : 16;
				keys = xrealloc(keys, capkeys * sizeof(*keys));
			}
			keys[nkeys++] = c->key;
		}
	field(f, "table", 1);
	field(f, "series", 0);
	/* a --tag named like a column replaces its cells, else it is a column */
	for (k = 0; k < (size_t)nuser_tags; k++) {
		tagcol[k] = map_key(&keymap, user_tags[k].k) != NULL;
		if (!tagcol[k])
			field(f, user_tags[k].k, 0);
	}
	for (k = 0; k < nkeys; k++)
		field(f, keys[k], 0);
	fputs("\r\n", f);
	/* map[k]: the column of the table holding keys[k], or -1 */
	map = xmalloc(nkeys * sizeof(*map));
	for (i = 0; i < l->n; i++) {
		const struct table *t = l->v[i];

		for (k = 0; k < nkeys; k++)
			map[k] = -1;
		for (ci = 0; ci < t->ncols; ci++)
			if (!(t->cols[ci].flags & COL_TEXT_ONLY))
				map[map_get(&keymap, t->cols[ci].key, 0)] = ci;
		for (r = 0; r < t->nrows; r++) {
			field(f, t->name, 1);
			field(f, t->title ? t->title : "", 0);
			for (k = 0; k < (size_t)nuser_tags; k++)
				if (!tagcol[k])
					field(f, user_tags[k].v, 0);
			for (k = 0; k < nkeys; k++) {
				const char *tv;
				char *s;

				if (map[k] < 0) {
					field(f, "", 0);
					continue;
				}
				if ((tv = tag_of(keys[k], tagcol))) {
					field(f, tv, 0);
					continue;
				}
				s = cell_text(&t->cols[map[k]],
					      table_cell((struct table *)t, r, map[k]), 1);
				field(f, s, 0);
				free(s);
			}
			fputs("\r\n", f);
		}
	}
	free(map);
	free(keys);
	map_free(&keymap);
}
