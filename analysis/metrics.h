/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dashboard view of a table: every numeric cell of a column with a field
 * name is one sample, tagged with the table's tags, the row's tag columns and
 * the column's own tags.  influx.c and prom.c only differ in spelling.
 */
#ifndef FIOTAB_METRICS_H
#define FIOTAB_METRICS_H

#include "table.h"

#define MAX_TAGS 16

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

/* Calls @fn for each sample of row @row of @t, in column order. */
void metrics_row(const struct table *t, int row,
		 void (*fn)(const struct sample *s, void *arg), void *arg);

#endif
