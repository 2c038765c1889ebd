// SPDX-License-Identifier: GPL-2.0-only
/*
 * Plain text: the original tools' layouts.  Each cell is printed right- (or
 * left-) aligned in its column's width followed by the column's separator,
 * exactly like the printf "%9s "/"%8.3f " of blockdev-perftest, so a table
 * and its header lines keep every byte of the original (including the
 * script's trailing blank).  Lines starting with "# " carry what the old
 * tools did not print: series, mode and fio versions.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "table.h"

static int shown(const struct col *c)
{
	return !(c->flags & COL_DATA_ONLY);
}

static int col_width(const struct table *t, int ci)
{
	const struct col *c = &t->cols[ci];
	size_t w = (size_t)c->width, l;
	char *s;
	int r, k;

	if (w)
		return (int)w;
	for (k = 0; k < t->nhdr; k++)
		if (c->hdr[k] && (l = strlen(c->hdr[k])) > w)
			w = l;
	for (r = 0; r < t->nrows; r++) {
		s = cell_text(c, &t->cells[(size_t)r * t->ncols + ci], 0);
		if ((l = strlen(s)) > w)
			w = l;
		free(s);
	}
	/* printf's field width is an int; a wider cell is printed unpadded */
	return w > INT_MAX ? INT_MAX : (int)w;
}

/*
 * A left-aligned last column is not padded: no trailing blanks of ours.  A
 * cell that would touch what is before it (a column with no separator of
 * its own, Bonnie's "%6d" K/sec after its "%5.1f" %CPU, and a cell as wide
 * as its column) gets a blank first: 10.4 and 102400 were printed
 * "10.4102400", one number to read.  *@blank: the line so far ends in one.
 */
static void put_cell(FILE *f, const struct col *c, int w, const char *s, int last,
		     const char *sep, int *blank)
{
	char *cell = (c->flags & COL_LEFT) && last ? xstrdup(s) :
		     xasprintf((c->flags & COL_LEFT) ? "%-*s" : "%*s", w, s);
	size_t n = strlen(cell);

	if (!*blank && n && cell[0] != ' ')
		fputc(' ', f);
	fputs(cell, f);
	fputs(sep ? sep : "", f);
	if (sep && *sep)
		*blank = sep[strlen(sep) - 1] == ' ';
	else if (n)
		*blank = cell[n - 1] == ' ';
	free(cell);
}

void out_text(FILE *f, const struct tablist *l)
{
	char *s;
	int i, k, r, ci, last, blank;

	for (i = 0; i < l->n; i++) {
		const struct table *t = l->v[i];
		/* a perftest table has a column per iteration: no stack array */
		int *w = xmalloc(t->ncols * sizeof(*w));

		if (i)
			fputc('\n', f);
		if (t->title)
			fprintf(f, "# %s\n", t->title);
		for (k = 0; k < t->nnotes; k++)
			fprintf(f, "# %s\n", t->notes[k]);
		for (k = 0; k < t->npre; k++)
			fprintf(f, "%s\n", t->pre[k]);
		last = -1;
		for (ci = 0; ci < t->ncols; ci++) {
			w[ci] = col_width(t, ci);
			if (shown(&t->cols[ci]))
				last = ci;
		}
		for (k = 0; k < t->nhdr; k++) {
			blank = 1;
			for (ci = 0; ci < t->ncols; ci++) {
				const struct col *c = &t->cols[ci];

				if (shown(c))
					put_cell(f, c, c->hwidth ? c->hwidth : w[ci],
						 c->hdr[k] ? c->hdr[k] : "", ci == last,
						 c->hsep ? c->hsep : c->sep, &blank);
			}
			fputc('\n', f);
		}
		for (r = 0; r < t->nrows; r++) {
			blank = 1;
			for (ci = 0; ci < t->ncols; ci++) {
				const struct col *c = &t->cols[ci];
				const struct cell *x = &t->cells[(size_t)r * t->ncols + ci];

				if (!shown(c))
					continue;
				s = cell_text(c, x, 0);
				put_cell(f, c, w[ci], x->set || c->kind == COL_STR ? s : "-",
					 ci == last, c->sep, &blank);
				free(s);
			}
			fputc('\n', f);
		}
		free(w);
	}
}
