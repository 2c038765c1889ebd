/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dashboard view of a table: every numeric cell of a column with a field
 * name is one sample, tagged with the table's tags, the row's tag columns and
 * the column's own tags.  influx.c and prom.c only differ in spelling.
 */
#ifndef FIOTAB_METRICS_H
#define FIOTAB_METRICS_H

#include "table.h"

#define MAX_TAGS 24

struct tagkv {
	const char *k, *v;
};

struct sample {
	const struct table *t;
	int row;
	const struct col *col;
	struct tagkv tags[MAX_TAGS];
	int ntags;
	double value;		/* cell * fscale */
};

/*
 * Labels every dashboard sample, CSV row and JSON table carries: the
 * --tag k=v options (a key the table already has is replaced, e.g.
 * --tag target=md4-xfs for a scratch path), in order.
 */
extern struct tagkv user_tags[MAX_TAGS];
extern int nuser_tags;
/* Parses "k=v" into user_tags; -1 after saying why (bad label name, full). */
int user_tag_add(const char *kv);
/*
 * The host label of a local run (fio writes no hostname then): --host
 * NAME, else this machine's gethostname(), said once on stderr.
 */
extern const char *local_host_opt;
const char *local_host(void);
/* The same without the note (plots say it in their subtitle). */
const char *local_host_quiet(void);

/*
 * Calls @fn (if set) for each sample of row @row of @t, in column order;
 * -1, after saying why, when a sample would hold more than MAX_TAGS labels.
 */
int metrics_row(const struct table *t, int row,
		void (*fn)(const struct sample *s, void *arg), void *arg);
/* Whether every sample of every table fits (0), checked before any output. */
int metrics_check(const struct tablist *l);
/*
 * 0, or -1 after saying why, when a --tag replaces a label that takes more
 * than one value among the output's samples (two hosts, read and write):
 * their series would be one.
 */
int user_tags_check(const struct tablist *l);

#endif
