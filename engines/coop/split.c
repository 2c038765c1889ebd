// SPDX-License-Identifier: GPL-2.0-only
/*
 * Split an I/O into parts of at most coop_split_kb and gather the parts'
 * results; see split.h.
 */
#include "engines/coop/split.h"

unsigned int coop_split_count(uint64_t len, uint64_t split)
{
	if (!split || len <= split)
		return 1;
	return (unsigned int)((len + split - 1) / split);
}

void coop_split_part(uint64_t off, uint64_t len, uint64_t split, unsigned int i,
		     uint64_t *part_off, uint64_t *part_len)
{
	uint64_t start;

	if (!split || len <= split) {
		*part_off = off;
		*part_len = len;
		return;
	}
	start = (uint64_t)i * split;
	*part_off = off + start;
	*part_len = len - start < split ? len - start : split;
}

void coop_split_begin(struct coop_split_state *s, unsigned int nparts)
{
	atomic_store_explicit(&s->error, 0, memory_order_relaxed);
	atomic_store_explicit(&s->moved, COOP_SPLIT_WHOLE, memory_order_relaxed);
	/* Release: whoever sees the count also sees the reset fields. */
	atomic_store_explicit(&s->left, nparts, memory_order_release);
}

bool coop_split_done(struct coop_split_state *s, int error, uint64_t short_at)
{
	if (error) {
		int zero = 0;

		/* Only the first error sticks; later ones are consequences. */
		atomic_compare_exchange_strong_explicit(&s->error, &zero, error,
							memory_order_relaxed,
							memory_order_relaxed);
	}
	if (short_at != COOP_SPLIT_WHOLE) {
		uint64_t cur = atomic_load_explicit(&s->moved, memory_order_relaxed);

		/* The lowest such byte: the I/O moved everything before it. */
		while (short_at < cur &&
		       !atomic_compare_exchange_weak_explicit(&s->moved, &cur, short_at,
							      memory_order_relaxed,
							      memory_order_relaxed))
			;
	}
	/*
	 * acq_rel: the last part's thread must see every other part's error,
	 * residual and data before it completes the I/O.
	 */
	return atomic_fetch_sub_explicit(&s->left, 1, memory_order_acq_rel) == 1;
}

int coop_split_error(struct coop_split_state *s)
{
	return atomic_load_explicit(&s->error, memory_order_relaxed);
}

uint64_t coop_split_resid(struct coop_split_state *s, uint64_t len)
{
	uint64_t moved = atomic_load_explicit(&s->moved, memory_order_relaxed);

	return moved >= len ? 0 : len - moved;
}
