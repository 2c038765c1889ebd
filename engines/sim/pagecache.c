// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page state array of one file (see pagecache.h).
 */
#include <stdlib.h>

#include "engines/sim/pagecache.h"

int pc_init(struct pagecache *pc, uint64_t file_size)
{
	uint64_t n = (file_size + PC_SIZE - 1) >> PC_SHIFT;

	if (!n || n > UINT32_MAX - 1)
		return -1;
	pc->npages = (uint32_t)n;
	pc->f = calloc(n, 1);
	return pc->f ? 0 : -1;
}

void pc_free(struct pagecache *pc)
{
	free(pc->f);
	pc->f = NULL;
	pc->npages = 0;
}

uint32_t pc_next_hole(const struct pagecache *pc, uint32_t i, uint32_t max)
{
	uint32_t k;

	for (k = 0; k < max; k++, i++)
		if (!pc_present(pc, i))
			return i;
	return i;
}

int64_t pc_prev_hole(const struct pagecache *pc, uint32_t i, uint32_t max)
{
	int64_t j = i;
	uint32_t k;

	for (k = 0; k < max && j >= 0; k++, j--)
		if (!pc_present(pc, (uint32_t)j))
			return j;
	return j;
}

void pc_complete(struct pagecache *pc, uint32_t first, uint32_t n)
{
	uint32_t i;

	for (i = first; i < first + n && i < pc->npages; i++)
		pc->f[i] |= PC_UPTODATE;
}
