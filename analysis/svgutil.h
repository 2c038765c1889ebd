/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pieces the time-series and histogram plots share (svgutil.c): XML
 * escaping, the palette, "nice" axis steps, a document head with a title
 * and a subtitle, and a legend entry.
 */
#ifndef FIOTAB_SVGUTIL_H
#define FIOTAB_SVGUTIL_H

#include <stdio.h>

#include "fiotab.h"

extern const char *const svg_palette[];
extern const size_t svg_npalette;

void svg_esc(FILE *f, const char *s);
/* A round step (1, 2, 5 x 10^k) giving about 5 ticks up to @max. */
double svg_nice_step(double max);
void svg_head(FILE *f, int w, int h, const char *title, const char *subtitle);
/*
 * What a subtitle takes from folded jobs (group.h) instead of @jobs: every
 * version in the order the jobs came, and the range of their times (ms,
 * lo > hi: none).
 */
struct subtitle_fold {
	const char *const *versions;
	size_t nversions;
	double lo_ms, hi_ms;
};
/*
 * "host h · fio-3.33 · 2026-12-01 09:00 UTC · /dev/md4", NULL when no jobs;
 * with @sf the versions and times are @sf's.
 */
char *svg_subtitle(const struct job *const *jobs, size_t n, const struct subtitle_fold *sf);
void svg_legend(FILE *f, int x, int y, const char *colour, const char *label);

#endif
