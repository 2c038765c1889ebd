// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's latency buckets (stat.h, stat.c of fio 3.x): values below
 * 2^(PLAT_BITS+1) ns have a bucket each; above, each power of two is split
 * into 2^PLAT_BITS buckets, and json+ names a bucket by its middle.  Here
 * on its own so that the unit test links nothing else.
 */
#include "hist.h"

int hist_bucket(uint64_t v, uint64_t *lo, uint64_t *hi)
{
	unsigned msb, eb;
	uint64_t base, k, idx;

	if (v < 2 * PLAT_VAL) {		/* one bucket per value */
		*lo = *hi = v;
		return 0;
	}
	msb = 63u - (unsigned)__builtin_clzll(v);
	eb = msb - PLAT_BITS;		/* log2 of the bucket width */
	base = 1ULL << msb;
	k = (v - base) >> eb;
	idx = (uint64_t)(eb + 1) * PLAT_VAL + k;
	if (base + (k << eb) + (1ULL << (eb - 1)) != v || idx >= PLAT_NR)
		return -1;
	*lo = base + (k << eb);
	*hi = idx == PLAT_NR - 1 ? UINT64_MAX : *lo + (1ULL << eb) - 1;
	return 0;
}

