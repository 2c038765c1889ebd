// SPDX-License-Identifier: GPL-2.0-only
/*
 * GitHub-flavoured Markdown: a heading per table, notes as a list, header
 * cells are the text header lines joined, numbers right-aligned.  Text is
 * escaped (md_text()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/*
 * Text as written, whatever it holds.  GFM splits a row at every '|' a
 * backslash does not escape, a backslash escaping the next byte whatever
 * it is: so '\' is escaped too, else a job named 'x\|y' ('x\\|y' written)
 * ended its cell at the '|' and every cell after it moved one column right
 * (MB/s under IOPS, the last dropped).  And a backslash before any ASCII
 * punctuation makes it literal (CommonMark), so every byte with a meaning
 * inline is escaped: emphasis, links, HTML, code spans, entities and
 * strikethrough (a job named 'a_b_c' showed 'b' in italics, '<b>' not at
 * all, 'x&amp;y' as 'x&y').
 */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\*_[]<>`&~", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	md_text(f, s);
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
		fputs("### ", f);
		md_text(f, t->name);
		fputs(": ", f);
		md_text(f, t->title ? t->title : "");
		fputs("\n\n", f);
		for (k = 0; k < t->nnotes; k++) {
			fputs("- ", f);
			md_text(f, t->notes[k]);
			fputc('\n', f);
		}
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
