/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Phase tables (iozone, Bonnie): jobs named "<prefix>-<phase>[-<reclen>]" are
 * collected into rows, one table per mode, host and target.
 */
#ifndef FIOTAB_PHASE_H
#define FIOTAB_PHASE_H

#include "tables.h"

struct phase_row {
	uint64_t kb, reclen;		/* iozone row key */
	const struct job *ph[8];	/* by phase index */
};

struct phase_table {
	int modeled;
	double scale;
	const char *host, *target;
	struct phase_row *rows;
	size_t nrows;
	const struct job **jobs;
	size_t njobs;
};

struct phase_set {
	struct phase_table *v;
	size_t n;
};

/* The table of @j's mode/host/target, created on first use. */
struct phase_table *phase_table_of(struct phase_set *s, const struct job *j);
/* The row (kb, reclen) of @t, created on first use. */
struct phase_row *phase_row_of(struct phase_table *t, uint64_t kb, uint64_t reclen);
void phase_set_free(struct phase_set *s);
/* Index of @name in @names (NULL-terminated), or -1. */
int phase_index(const char *const *names, const char *name, size_t len);
/* Title, notes and tags common to the phase tables. */
void phase_table_header(struct table *t, const struct phase_table *pt, const char *what);

#endif
