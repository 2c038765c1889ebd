// SPDX-License-Identifier: GPL-2.0-only
/*
 * io_uring setup with fio's flags and a fallback; see uring.h.
 */
#include <errno.h>
#include <string.h>

#include "engines/common/uring.h"

/* The flags to try after @flags was refused, or @flags if none are left. */
static unsigned int weaker(unsigned int flags)
{
	if (flags & (IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER))
		return flags & ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
				 IORING_SETUP_R_DISABLED);
	if (flags & IORING_SETUP_COOP_TASKRUN)
		return flags & ~IORING_SETUP_COOP_TASKRUN;
	return flags;
}

int pp_uring_setup_with(pp_uring_setup_fn setup, unsigned int entries,
			struct io_uring *ring, unsigned int flags,
			unsigned int *used)
{
	struct io_uring_params p;
	unsigned int next;
	int ret;

	for (;;) {
		memset(&p, 0, sizeof(p));
		p.flags = flags;
		ret = setup(entries, ring, &p);
		if (ret >= 0) {
			*used = flags;
			return 0;
		}
		next = weaker(flags);
		if (ret != -EINVAL || next == flags)
			return ret;
		flags = next;
	}
}

int pp_uring_setup(unsigned int entries, struct io_uring *ring,
		   unsigned int flags, unsigned int *used)
{
	return pp_uring_setup_with(io_uring_queue_init_params, entries, ring,
				   flags, used);
}
