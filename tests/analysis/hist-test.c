// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist_bucket() against fio's bucketing, written here from its definition
 * (stat.h's comment): a value's bucket index is the value itself when it
 * has at most PLAT_BITS+1 significant bits; else the top PLAT_BITS bits
 * below its most significant one pick a bucket in the group of its power
 * of two, and the last bucket takes everything beyond.  For every bucket,
 * the key json+ prints (the bucket's middle) must give bounds lo..hi whose
 * values all land in that bucket, with lo - 1 and hi + 1 in its
 * neighbours; a number no bucket prints must be refused.
 */
#include <stdio.h>

#include "analysis/hist.h"

static uint64_t idx_of(uint64_t v)
{
	unsigned msb, eb;
	uint64_t idx;

	if (v < 2 * PLAT_VAL)
		return v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	eb = msb - PLAT_BITS;
	idx = (uint64_t)(eb + 1) * PLAT_VAL + ((v >> eb) & (PLAT_VAL - 1));
	return idx < PLAT_NR - 1 ? idx : PLAT_NR - 1;
}

/* The key json+ prints for bucket @idx: its middle (rounded down). */
static uint64_t key_of(uint64_t idx)
{
	uint64_t eb, base;

	if (idx < 2 * PLAT_VAL)
		return idx;
	eb = (idx >> PLAT_BITS) - 1;
	base = 1ULL << (eb + PLAT_BITS);
	return base + (idx % PLAT_VAL) * (1ULL << eb) + (1ULL << eb) / 2;
}

int main(void)
{
	uint64_t idx, lo, hi, v;
	int fails = 0, refused = 0;

	for (idx = 0; idx < PLAT_NR; idx++) {
		v = key_of(idx);
		if (hist_bucket(v, &lo, &hi)) {
			printf("FAIL key %llu of bucket %llu refused\n", (unsigned long long)v,
			       (unsigned long long)idx);
			fails++;
			continue;
		}
		if (idx_of(lo) != idx || (hi != UINT64_MAX && idx_of(hi) != idx) ||
		    (lo && idx_of(lo - 1) != idx - 1) ||
		    (hi != UINT64_MAX && idx_of(hi + 1) != idx + 1) ||
		    (hi == UINT64_MAX) != (idx == PLAT_NR - 1) || v < lo || v > hi) {
			printf("FAIL bucket %llu key %llu: bounds %llu..%llu\n",
			       (unsigned long long)idx, (unsigned long long)v,
			       (unsigned long long)lo, (unsigned long long)hi);
			fails++;
		}
	}
	/* the first bucket 2 ns wide is 128..129, key 129: 128 and 130 are no keys */
	for (v = 2 * PLAT_VAL; v < 5000; v++)
		if (hist_bucket(v, &lo, &hi))
			refused++;
		else if (key_of(idx_of(v)) != v) {
			printf("FAIL %llu is no fio key but was taken\n", (unsigned long long)v);
			fails++;
		}
	if (!refused) {
		printf("FAIL no value refused\n");
		fails++;
	}
	if (!fails)
		printf("ok: %u buckets, %d non-keys refused\n", PLAT_NR, refused);
	return fails ? 1 : 0;
}
