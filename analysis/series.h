/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fiotab series: fio's per-interval logs (write_bw_log, write_iops_log,
 * write_lat_log; series.c) as rows with real times, and a time plot.
 */
#ifndef FIOTAB_SERIES_H
#define FIOTAB_SERIES_H

#include <stdio.h>

#include "table.h"

struct series_opts {
	double start_ms;	/* --start: unix ms of the job's start, NAN if not given */
	int unix_epoch;		/* --unix-epoch: fio ran with log_unix_epoch=1 */
	int unique_times;	/* Influx: refuse two samples at one time */
};

/* Each returns 0, or -1 after saying why (file:line for bad input). */
int series_tables(char **files, int n, const struct series_opts *o, struct tablist *out);
int series_plot(FILE *f, char **files, int n, const struct series_opts *o);

#endif
