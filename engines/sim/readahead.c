// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/readahead.c of 2.6.29 (classic) and 2.6.31 (context), and the page
 * loop of do_generic_file_read(), on the model's page cache.  The function
 * names and branches follow the kernel's so a reader can compare them.
 */
#include "engines/sim/params.h"
#include "engines/sim/readahead.h"

void ra_state_init(struct ra_state *ra, unsigned int ra_kb)
{
	ra->start = ra->size = ra->async_size = 0;
	ra->ra_pages = ra_kb / (PC_SIZE / 1024);
	ra->prev_pos = -1;
}

static uint32_t roundup_pow_of_two(uint32_t x)
{
	uint32_t r = 1;

	while (r < x)
		r <<= 1;
	return r;
}

/* get_init_ra_size(): the first window of a new stream */
static uint32_t get_init_ra_size(uint32_t size, uint32_t max)
{
	uint32_t newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/* get_next_ra_size(): ramp up x4 while small, then x2, up to max */
static uint32_t get_next_ra_size(const struct ra_state *ra, uint32_t max)
{
	uint32_t cur = ra->size, newsize;

	if (cur < max / 16)
		newsize = 4 * cur;
	else
		newsize = 2 * cur;
	return newsize < max ? newsize : max;
}

uint32_t ra_do_readahead(struct ra_ctx *rc, uint32_t offset, uint32_t nr, uint32_t lookahead)
{
	struct pagecache *pc = rc->pc;
	uint32_t i, run = 0, run_start = 0, added = 0;

	for (i = 0; i < nr; i++) {
		uint32_t p = offset + i;

		if (p >= pc->npages)		/* beyond end_index */
			break;
		if (pc->f[p] & PC_PRESENT) {
			if (run)
				rc->io(rc->ctx, run_start, run);
			run = 0;
			continue;
		}
		pc->f[p] = PC_PRESENT;
		if (lookahead && i == nr - lookahead)
			pc->f[p] |= PC_RA_MARK;
		if (!run)
			run_start = p;
		run++;
		added++;
	}
	if (run)
		rc->io(rc->ctx, run_start, run);
	rc->ra_calls++;
	rc->ra_pages_read += added;
	return added;
}

static void ra_submit(struct ra_ctx *rc, struct ra_state *ra)
{
	rc->window_reads++;
	ra_do_readahead(rc, ra->start, ra->size, ra->async_size);
}

/* 2.6.31 count_history_pages() + try_context_readahead() */
static int try_context_readahead(struct ra_ctx *rc, struct ra_state *ra,
				 uint32_t offset, uint32_t req_size, uint32_t max)
{
	int64_t head;
	uint64_t size;

	if (!offset)
		return 0;
	head = pc_prev_hole(rc->pc, offset - 1, max);
	size = (uint64_t)((int64_t)offset - 1 - head);
	if (!size)
		return 0;
	/* starts from the beginning of file: it is a strong sequential stream */
	if (size >= offset)
		size *= 2;
	ra->start = offset;
	ra->size = get_init_ra_size((uint32_t)(size + req_size), max);
	ra->async_size = ra->size;
	return 1;
}

static void ondemand_readahead(struct ra_ctx *rc, struct ra_state *ra, int hit_marker,
			       uint32_t offset, uint32_t req_size)
{
	uint32_t max = ra->ra_pages;
	int context = rc->algo == SIM_RA_CONTEXT;
	uint64_t prev_offset;

	if (context && !offset)
		goto initial_readahead;

	/* the expected callback offset: sequential, push the window forward */
	if (offset && (offset == ra->start + ra->size - ra->async_size ||
		       offset == ra->start + ra->size)) {
		ra->start += ra->size;
		ra->size = get_next_ra_size(ra, max);
		ra->async_size = ra->size;
		goto readit;
	}

	/*
	 * hit a marked page without valid state, e.g. interleaved reads;
	 * SCST's readahead-context-2.6.29.patch (as 2.6.31) scans from the
	 * next page and counts the request into the old async size
	 */
	if (hit_marker) {
		uint32_t start = context ? pc_next_hole(rc->pc, offset + 1, max)
					 : pc_next_hole(rc->pc, offset, max + 1);

		if (!start || start - offset > max)
			return;
		ra->start = start;
		ra->size = start - offset;	/* old async_size */
		if (context)
			ra->size += req_size;
		ra->size = get_next_ra_size(ra, max);
		ra->async_size = ra->size;
		goto readit;
	}

	/* prev_pos of -1 makes offset 0 look sequential, as in the kernel */
	prev_offset = (uint64_t)(ra->prev_pos >> PC_SHIFT);
	if (req_size > max || (uint64_t)offset - prev_offset <= 1 ||
	    (ra->prev_pos < 0 && offset == 0))
		goto initial_readahead;

	if (context && try_context_readahead(rc, ra, offset, req_size, max))
		goto readit;

	/* standalone, small random read: as is, state untouched */
	rc->asis_reads++;
	ra_do_readahead(rc, offset, req_size, 0);
	return;

initial_readahead:
	ra->start = offset;
	ra->size = get_init_ra_size(req_size, max);
	ra->async_size = ra->size > req_size ? ra->size - req_size : ra->size;
readit:
	/* 2.6.31: a read that would hit its own marker merges the next window */
	if (context && offset == ra->start && ra->size == ra->async_size) {
		ra->async_size = get_next_ra_size(ra, max);
		ra->size += ra->async_size;
	}
	ra_submit(rc, ra);
}

void ra_sync(struct ra_ctx *rc, struct ra_state *ra, uint32_t offset, uint32_t req)
{
	if (!ra->ra_pages || rc->algo == SIM_RA_OFF)
		return;
	ondemand_readahead(rc, ra, 0, offset, req);
}

void ra_async(struct ra_ctx *rc, struct ra_state *ra, uint32_t offset, uint32_t req)
{
	if (!ra->ra_pages || rc->algo == SIM_RA_OFF)
		return;
	if (offset < rc->pc->npages)
		rc->pc->f[offset] &= (uint8_t)~PC_RA_MARK;	/* ClearPageReadahead */
	if (rc->congested && rc->congested(rc->ctx)) {
		rc->async_skipped++;
		return;
	}
	ondemand_readahead(rc, ra, 1, offset, req);
	/*
	 * readahead-2.6.29.patch: a reader that will not sleep on this page
	 * (it is up to date) would otherwise leave the new window in a
	 * plugged queue until the unplug timer
	 */
	if (rc->run_queue && offset < rc->pc->npages && pc_uptodate(rc->pc, offset))
		rc->run_queue(rc->ctx);
}

void fread_begin(struct file_read *r, uint64_t pos, uint64_t len)
{
	r->pos = pos;
	r->end = pos + len;
	r->index = (uint32_t)(pos >> PC_SHIFT);
	r->last = (uint32_t)((pos + len + PC_SIZE - 1) >> PC_SHIFT);
	r->pace_markers = false;
}

int fread_step(struct ra_ctx *rc, struct ra_state *ra, struct file_read *r, uint32_t *wait)
{
	struct pagecache *pc = rc->pc;

	uint32_t from = r->index;

	if (r->last > pc->npages)
		r->last = pc->npages;		/* short read at EOF */
	while (r->index < r->last) {
		uint32_t i = r->index;

		if (r->pace_markers && i != from && pc_present(pc, i) && pc_marked(pc, i))
			return 2;

		if (!pc_present(pc, i)) {
			ra_sync(rc, ra, i, r->last - i);
			if (!pc_present(pc, i)) {
				/* no_cached_page: ->readpage() of this page alone */
				pc->f[i] = PC_PRESENT;
				rc->io(rc->ctx, i, 1);
			}
		}
		if (pc_marked(pc, i))
			ra_async(rc, ra, i, r->last - i);
		if (!pc_uptodate(pc, i)) {
			*wait = i;
			return 1;
		}
		r->index++;
	}
	ra->prev_pos = (int64_t)r->end;
	return 0;
}
