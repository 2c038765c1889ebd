// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stream detector and doubling window of coop_ra=context; see ctxra.h.
 */
#include "engines/coop/ctxra.h"

#define COOP_RA_MIN_WINDOW	(16u << 10)

void coop_ra_init(struct coop_ra *ra, uint64_t max_bytes)
{
	*ra = (struct coop_ra){ .max = max_bytes ? max_bytes : 1 };
}

uint64_t coop_ra_init_window(uint64_t req_bytes, uint64_t max_bytes)
{
	uint64_t w = COOP_RA_MIN_WINDOW;

	/* Like the kernel's get_init_ra_size(): a few reads' worth. */
	while (w < 4 * req_bytes && w < max_bytes)
		w <<= 1;
	return w < max_bytes ? w : max_bytes;
}

bool coop_ra_access(struct coop_ra *ra, uint64_t off, uint64_t len,
		    uint64_t *ra_off, uint64_t *ra_len)
{
	uint64_t end = off + len;
	bool in_stream;
	uint64_t w;

	/*
	 * In stream: exactly where the last read ended, or anywhere in what
	 * was read ahead (an initiator's commands can overtake each other).
	 */
	in_stream = ra->seq && (off == ra->next ||
				(off >= ra->ra_start && off < ra->ra_end));
	if (!in_stream) {
		ra->seq = 1;
		ra->win = 0;
		ra->ra_start = ra->ra_end = end;
		ra->next = end;
		return false;
	}
	ra->seq++;
	if (end > ra->next)
		ra->next = end;
	if (ra->ra_end < ra->next)
		ra->ra_start = ra->ra_end = ra->next;	/* reader overtook us */

	/* Keep at least one window ahead of the reader. */
	if (ra->win && ra->ra_end - ra->next >= ra->win)
		return false;
	if (!ra->win)
		w = coop_ra_init_window(len, ra->max);
	else
		w = ra->win * 2 < ra->max ? ra->win * 2 : ra->max;
	*ra_off = ra->ra_end;
	*ra_len = w;
	ra->ra_start = ra->ra_end;
	ra->ra_end += w;
	ra->win = w;
	ra->windows++;
	ra->ra_bytes += w;
	return true;
}
