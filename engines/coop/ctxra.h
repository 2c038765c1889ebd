/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * coop_ra=context: readahead for a stream as a whole, whichever worker
 * serves each command (what 2.6.31's context readahead gave SCST).
 *
 * The detector sees every read of the stream in the order the initiator
 * issued it (fio's queue order), not in the order workers execute it, so
 * reordering inside the pool cannot break it.  A read that starts where the
 * previous one ended, or inside the window already read ahead, continues
 * the stream.  From the second read of a stream on, the engine keeps at
 * least one window ahead of the reader; windows start at
 * coop_ra_init_window() and double up to the maximum (coop_ra_kb).  A read
 * elsewhere restarts detection.
 *
 * Pure logic (no fio, no threads, no syscalls): the pool issues the
 * windows with readahead(2)/POSIX_FADV_WILLNEED, the model (engines/sim/)
 * feeds them to its page-cache model.
 */
#ifndef PERFPACK_COOP_CTXRA_H
#define PERFPACK_COOP_CTXRA_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/common/enumtab.h"

/*
 * coop_ra= values: X(id, name, help), the one table of their names, the
 * first the default (engines/common/enumtab.h; the model's own readahead
 * names are SIM_RAS, engines/sim/params.h).  context does nothing with
 * direct=1 (no page cache to fill).
 */
#define COOP_RAS(X)							\
	X(COOP_RA_KERNEL, "kernel", "The kernel, per open file")	\
	X(COOP_RA_OFF, "off", "Nobody: POSIX_FADV_RANDOM on every descriptor") \
	X(COOP_RA_CONTEXT, "context",					\
	  "The engine, for the stream as a whole: doubling readahead(2) windows")
enum coop_ra_mode { COOP_RAS(PP_ENUM_ID) };

struct coop_ra {
	uint64_t max;		/* largest window, bytes (coop_ra_kb) */
	uint64_t next;		/* where a sequential read would start */
	uint64_t ra_start;	/* [ra_start, ra_end): read ahead already */
	uint64_t ra_end;
	uint64_t win;		/* size of the last window issued, 0 = none */
	unsigned int seq;	/* consecutive sequential reads seen */
	/* Counters for coop_stats. */
	uint64_t windows;	/* windows issued */
	uint64_t ra_bytes;	/* bytes asked for by those windows */
};

/* Start with no stream; @max_bytes is the window cap (> 0). */
void coop_ra_init(struct coop_ra *ra, uint64_t max_bytes);

/* First window for a stream of @req_bytes reads: 4 reads, rounded up to a
 * power of two, at least 16 KiB, at most @max_bytes. */
uint64_t coop_ra_init_window(uint64_t req_bytes, uint64_t max_bytes);

/*
 * Feed the stream's next read [@off, @off + @len).  Returns true when a
 * window should be read ahead now, in [*ra_off, *ra_off + *ra_len).
 */
bool coop_ra_access(struct coop_ra *ra, uint64_t off, uint64_t len,
		    uint64_t *ra_off, uint64_t *ra_len);

#endif
