/* SPDX-License-Identifier: GPL-2.0-only */
/* The name of a job's series in the dashboard outputs (identity.c). */
#ifndef FIOTAB_IDENTITY_H
#define FIOTAB_IDENTITY_H

#include "fiotab.h"

/* The host label of @j: fio's, or this machine's for a local run. */
const char *identity_host(const struct job *j);
/*
 * How a message names a job: "'NAME'", with " on host HOST" when it came
 * from fio --client (@host not "-" nor NULL): several servers' jobs share
 * a name.  Interned: for messages only.
 */
const char *job_ref(const char *name, const char *host);
/* Orders jobs by what names their series: run, job name, host, target. */
int identity_cmp(const struct job *a, const struct job *b);
/* Says that @a and @b (equal identity_cmp()) would be one @what, and how they differ; -1. */
int identity_refuse(const char *cmd, const char *what, const struct job *a, const struct job *b);
/* -1 after identity_refuse() when two jobs of @js would be one series in a direction. */
int identity_check(const char *cmd, const char *what, const struct jobset *js);

#endif
