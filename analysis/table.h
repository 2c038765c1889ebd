/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table every subcommand produces and every output format renders.
 *
 * A column carries both its text layout (the header lines and printf widths
 * of the original tool, so the text renderer can reproduce blockdev-perftest,
 * iozone or Bonnie byte for byte) and its machine identity (key, unit, and
 * for the dashboard formats a field name plus extra tags such as rw=write).
 */
#ifndef FIOTAB_TABLE_H
#define FIOTAB_TABLE_H

#include <stdio.h>

struct strmap;

enum col_kind { COL_NUM, COL_INT, COL_STR };

#define COL_TEXT_ONLY	1	/* shown in text/markdown only */
#define COL_DATA_ONLY	2	/* csv/json/dashboards only */
#define COL_LEFT	4	/* left-aligned in text */

#define MAX_HDR 3
/* Separates "key=value" pairs in tag lists (values may hold commas). */
#define TAGSEP "\x1f"


struct col {
	char *key;		/* csv/json name, e.g. "W_avg_MBps" */
	char *unit;		/* "s", "MB/s", "bytes", ... or NULL */
	char *hdr[MAX_HDR];	/* text header lines, bottom-aligned */
	int width;		/* text width; 0 = as wide as the content */
	int hwidth;		/* header width when it differs (iozone), else 0 */
	int prec;		/* digits after the point for COL_NUM */
	const char *sep;	/* text after the cell ("" or " ") */
	const char *hsep;	/* after the header cell instead, when set */
	int flags;
	enum col_kind kind;
	char *tag;		/* string column used as a dashboard tag */
	char *field;		/* numeric column exported as this field */
	char *ftags;		/* extra tags of that field, "rw=write" TAGSEP "stat=avg" */
	double fscale;		/* field = cell * fscale (dashboards use base units) */
};

struct cell {
	int set;
	double v;
	char *s;
};

struct table {
	char *name;		/* "perftest", ... (measurement / metric prefix) */
	char *title;		/* one line naming series, host, mode */
	char **notes;		/* further "# ..." lines: fio versions, legend */
	int nnotes;
	char **pre;		/* verbatim text lines before the header (Bonnie) */
	int npre;
	int nhdr;		/* header lines in text */
	struct col *cols;
	int ncols, capcols;
	struct cell *cells;	/* nrows x ncols */
	int nrows, caprows;
	char *tags;		/* table-wide tags "host=a" TAGSEP "target=b" */
	double timestamp;	/* unix seconds, 0 = none */
	double *rowts;		/* per-row unix seconds (0 = the table's), or NULL */
	int caprowts;
	struct strmap *colidx;	/* column key -> index */
};

struct tablist {
	struct table **v;
	int n;
};

struct table *table_new(const char *name, int nhdr);
struct col *table_col(struct table *t, const char *key, const char *unit, int kind,
		      int width, int prec, const char *sep);
/* A string column: header (or NULL), dashboard tag (or NULL), COL_* flags. */
struct col *label_col(struct table *t, const char *key, const char *hdr, const char *tag,
		      int flags, int width, const char *sep);
void col_hdr(struct col *c, const char *h0, const char *h1, const char *h2);
void col_metric(struct col *c, const char *field, double scale, const char *ftags);
void col_tag(struct col *c, const char *tag);
/*
 * The data-only "run" column, tagged "run": which fio run of a job file a
 * row comes from, so the same job file run twice gives two series.
 */
struct col *run_col(struct table *t, const char *sep);
/* The run column's value of @j: its document's identity (jobs.c). */
#define run_value(j) ((j)->doc->runid)
void table_tag(struct table *t, const char *key, const char *value);
void table_note(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void table_pre(struct table *t, const char *line);
int table_row(struct table *t);
void table_num(struct table *t, int row, int col, double v);
void table_str(struct table *t, int row, int col, const char *s);
struct cell *table_cell(struct table *t, int row, int col);
/* The time of row @row's measurement (its fio document), unix seconds. */
void table_row_time(struct table *t, int row, double ts);
/* That time, else the table's timestamp (0 = none). */
double table_time(const struct table *t, int row);
/*
 * Cells by column key: builders name the column they fill, so adding a
 * column (or an axis) does not move the others.  An unknown key is a bug
 * of fiotab and dies.
 */
int table_colidx(struct table *t, const char *key);
void table_set(struct table *t, int row, const char *key, double v);
void table_sets(struct table *t, int row, const char *key, const char *s);
void table_setf(struct table *t, int row, double v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void table_free(struct table *t);
void tablist_add(struct tablist *l, struct table *t);
/* Adds @t when it has rows (returns 1), else frees it (returns 0). */
int tablist_add_rows(struct tablist *l, struct table *t);
void tablist_free(struct tablist *l);
/*
 * A cell as text, in a new string the caller frees: "" when unset, COL_INT
 * as an integer, COL_NUM with the column's precision or, when @exact, the
 * shortest text that reads back as the same double (CSV).  Allocated: job
 * names have no length limit and "%.3f" of 1e300 is 304 bytes.
 */
char *cell_text(const struct col *c, const struct cell *x, int exact);
/* "fio-3.33" or "fio-3.33, fio-3.35" for a note line */
struct jobset;
struct job;
void note_versions(struct table *t, const struct job *const *jobs, size_t n);

/* output formats */
void out_text(FILE *f, const struct tablist *l);
void out_csv(FILE *f, const struct tablist *l);
int csv_tags_check(const struct tablist *l);
void out_json(FILE *f, const struct tablist *l);
void out_markdown(FILE *f, const struct tablist *l);
/* -1 (nothing written) when a sample would hold more labels than MAX_TAGS */
int out_influx(FILE *f, const struct tablist *l);
int out_prom(FILE *f, const struct tablist *l);

#endif
