// SPDX-License-Identifier: GPL-2.0-only
/*
 * GitHub-flavoured Markdown: a heading per table, notes as a list, header
 * cells are the text header lines joined, numbers right-aligned.  '|' and
 * '\' in a cell are escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/*
 * GFM splits a row at every '|' a backslash does not escape, a backslash
 * escaping the next byte whatever it is: so '\' is escaped too, else a
 * job named 'x\|y' ('x\\|y' written) ended its cell at the '|' and every
 * cell after it moved one column right (MB/s under IOPS, the last dropped).
 */
static void md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

void out_markdown(FILE *f, const struct tablist *l)
{
	char buf[256], *s;	/* buf: a header, our own short words */
	int i, k, r, ci;

	for (i = 0; i < l->n; i++) {
		const struct table *t = l->v[i];

		if (i)
			fputc('\n', f);
		fprintf(f, "### %s: %s\n\n", t->name, t->title ? t->title : "");
		for (k = 0; k < t->nnotes; k++)
			fprintf(f, "- %s\n", t->notes[k]);
		if (t->nnotes)
			fputc('\n', f);
		fputc('|', f);
		for (ci = 0; ci < t->ncols; ci++) {
			const struct col *c = &t->cols[ci];

			if (c->flags & COL_DATA_ONLY)
				continue;
			buf[0] = '\0';
			for (k = 0; k < t->nhdr; k++)
				if (c->hdr[k] && *c->hdr[k])
					snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
						 "%s%s", *buf ? " " : "", c->hdr[k]);
			md_cell(f, *buf ? buf : c->key);
		}
		fputs("\n|", f);
		for (ci = 0; ci < t->ncols; ci++)
			if (!(t->cols[ci].flags & COL_DATA_ONLY))
				fputs(t->cols[ci].kind == COL_STR ? " --- |" : " ---: |", f);
		fputc('\n', f);
		for (r = 0; r < t->nrows; r++) {
			fputc('|', f);
			for (ci = 0; ci < t->ncols; ci++) {
				const struct col *c = &t->cols[ci];

				if (c->flags & COL_DATA_ONLY)
					continue;
				s = cell_text(c, table_cell((struct table *)t, r, ci), 0);
				md_cell(f, s);
				free(s);
			}
			fputc('\n', f);
		}
	}
}
