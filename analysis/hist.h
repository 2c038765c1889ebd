/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fiotab hist: json+ latency bins (hist.c).  fio keys each non-empty bucket
 * by plat_idx_to_val() of its index (stat.c): the value itself below 128 ns,
 * else the middle of a bucket 2^k ns wide.  hist_bucket() inverts that to
 * the bucket's exact integer bounds.
 */
#ifndef FIOTAB_HIST_H
#define FIOTAB_HIST_H

#include <stdio.h>

#include "fiotab.h"
#include "table.h"

/* fio 3.33's stat.h: FIO_IO_U_PLAT_BITS 6, FIO_IO_U_PLAT_GROUP_NR 29 */
#define PLAT_BITS 6
#define PLAT_VAL (1u << PLAT_BITS)
#define PLAT_NR (29u * PLAT_VAL)

/*
 * Bucket of fio key @v: every sample s (whole ns) in it has lo <= s <= hi;
 * hi = UINT64_MAX for fio's last bucket, which holds everything above.
 * -1 when no fio bucket has key @v.
 */
int hist_bucket(uint64_t v, uint64_t *lo, uint64_t *hi);

/* Each returns 0, or -1 after saying why. */
int hist_tables(const struct jobset *js, struct tablist *out);
int hist_prom(FILE *f, const struct jobset *js);
int hist_plot(FILE *f, const struct jobset *js);

#endif
