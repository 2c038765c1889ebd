/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Cutting one I/O into sub-requests of at most coop_split_kb, the way an
 * initiator with a small max_sectors_kb turns one application read into
 * several SCSI commands, and tracking when all of them are done.
 *
 * No fio and no threads here: the pool (engines/coop/pool.c) and the model
 * (engines/sim/) both use it.  Completion tracking uses C11 atomics so
 * parts may finish on different threads; in a single-threaded model the
 * atomics are merely cheap.
 */
#ifndef PERFPACK_COOP_SPLIT_H
#define PERFPACK_COOP_SPLIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Number of parts an I/O of @len bytes is cut into when parts are at most
 * @split bytes (0 = never split).  A zero-length I/O (fsync, ...) is one part.
 */
unsigned int coop_split_count(uint64_t len, uint64_t split);

/*
 * Part @i (0-based, < coop_split_count()) of the I/O [@off, @off + @len):
 * every part is @split bytes long except possibly the last.
 */
void coop_split_part(uint64_t off, uint64_t len, uint64_t split, unsigned int i,
		     uint64_t *part_off, uint64_t *part_len);

/* Completion state of one split I/O. */
struct coop_split_state {
	atomic_uint left;	/* parts not yet completed */
	atomic_int error;	/* first nonzero errno reported by a part */
	atomic_uint_least64_t moved;	/* bytes from the I/O's start up to the first a part did not move */
};

/* coop_split_done()'s @short_at for a part that moved all of its bytes. */
#define COOP_SPLIT_WHOLE UINT64_MAX

/* Arm @s for an I/O of @nparts parts. */
void coop_split_begin(struct coop_split_state *s, unsigned int nparts);

/*
 * Report one part done with @error (0 or a positive errno); a part that
 * came back short gives @short_at, the first byte it did not move counted
 * from the start of the whole I/O, one that moved all its bytes
 * COOP_SPLIT_WHOLE.  Returns true for exactly one caller: the one that
 * completed the last part.  Then coop_split_error()/coop_split_resid()
 * give the result: the first error any part reported wins.
 */
bool coop_split_done(struct coop_split_state *s, int error, uint64_t short_at);

int coop_split_error(struct coop_split_state *s);

/*
 * The residual of the whole I/O of @len bytes: everything from the first
 * byte a part did not move on, not the parts' shortfalls summed.  fio
 * requeues the residual as the I/O's tail, so a short part in the middle
 * (a write that ran out of space while a later part overwrote allocated
 * blocks) must put the whole tail after it back, later parts included:
 * counted as done, its missing bytes were never written (err= 0) where
 * psync's requeue hits the error.
 */
uint64_t coop_split_resid(struct coop_split_state *s, uint64_t len);

#endif
