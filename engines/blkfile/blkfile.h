/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What blkfile.c (options, files, safety) shares with the two submission
 * paths, submit_sync.c and submit_uring.c.  Include after "fio.h".
 */
#ifndef PERFPACK_BLKFILE_H
#define PERFPACK_BLKFILE_H

#include <limits.h>
#include <stdint.h>

#include "engines/common/enumtab.h"
#include "engines/blkfile/authority.h"
#include "engines/blkfile/fiemap.h"

#define BF_ENGINE "blkfile"
/* blkfile_recheck_msec's range */
#define BF_RECHECK_MIN 10
#define BF_RECHECK_MAX 60000

/*
 * blkfile_via= and blkfile_submit= values: X(id, value, name, help), the
 * one table of their names; the first row is the default (BF_DEFAULT).
 * Values start at 1 (0 is no choice made).
 */
#define BF_VIAS(X)							\
	X(BF_VIA_FILE, 1, "file", "Through the file and its filesystem")	\
	X(BF_VIA_BDEV, 2, "bdev",					\
	  "Through the block device, at the file's extents (FIEMAP; files on ext2/3/4, XFS, btrfs)")
#define BF_SUBMITS(X)							\
	X(BF_SUBMIT_SYNC, 1, "sync", "pread/pwrite, one I/O at a time (like psync)") \
	X(BF_SUBMIT_URING, 2, "uring", "io_uring via liburing, up to iodepth in flight")
#define BF_ENUM_ID(id, v, name, help) id = v,
#define BF_POSVAL(id, v, name, help) PP_POSVAL(id, name, help)
#define BF_NAME_(id, v, name, help) name,
#define BF_DEFAULT(TABLE) PP_FIRST(TABLE(BF_NAME_))
enum bf_via { BF_VIAS(BF_ENUM_ID) };
enum bf_submit { BF_SUBMITS(BF_ENUM_ID) };

struct blkfile_options {
	void *pad;
	unsigned int via;
	unsigned int submit;
	char *dev;
	unsigned int allow_bdev_write;
	unsigned int fixedbufs;
	unsigned int registerfiles;
	unsigned int recheck_msec;
	/*
	 * the enum and number options as written (fio stores and frees them;
	 * see PP_ENUM_OPT_CB, PP_UINT_STR_OPT_CB)
	 */
	char *via_str, *submit_str;
	char *allow_bdev_write_str, *fixedbufs_str, *registerfiles_str, *recheck_msec_str;
};

/* Per fio file (f->engine_data): where its I/O goes. */
struct bf_file {
	int file_fd;		/* via=bdev: the file, kept for FIEMAP; else -1 */
	int identity;		/* offsets pass through (via=file, or a device target) */
	int wrote;		/* device writes: flush and drop the file's cache at close */
	struct bf_authority auth; /* via=bdev on a file: what was verified, the map */
	int leased;		/* holds a read lease on file_fd (device writes) */
	unsigned int lease_seen; /* lease breaks of the process seen so far */
	int failed;		/* the authority was lost: every further I/O fails */
	int unlinked;		/* fio's unlink=1 removed the name, after the last re-verification */
	uint64_t next_check_ns;	/* CLOCK_MONOTONIC time of the next re-verification */
	uint64_t bytes_since_check; /* a pass over [lo, hi) done: re-verify */
	size_t piece_hint;	/* extent last authorized or resolved: search hint */
	int short_logged;	/* bf_short_dev_io() said why */
	char dev_path[PATH_MAX];
};

/*
 * One piece of an I/O: file offsets [off, off + len) are device offsets
 * [*dev_off, ...).  Returns the length of the contiguous piece starting at
 * @off (at most @len), 0 when @off is not mapped (a bug once the map was
 * checked at open; callers fail the I/O with EIO).  The extent search
 * starts from bf->piece_hint: the extent bf_authorize found for this I/O,
 * then that of the previous piece (the next piece is in it or the next).
 */
static inline uint64_t bf_piece(struct bf_file *bf, uint64_t off,
				uint64_t len, uint64_t *dev_off)
{
	if (bf->identity) {
		*dev_off = off;
		return len;
	}
	return bf_map_resolve_at(&bf->auth.map, &bf->piece_hint, off, len, dev_off);
}

/*
 * The submission paths, behind hooks of the same convention as coop's
 * backends (engines/coop/backend.h): init() allocates the path's per-job
 * state in *priv, every other hook gets it back as @priv.  init() may
 * leave part of its state in *priv when it fails; cleanup() frees it.
 */
struct bf_submit_ops {
	/* 0, or 1 after td_verror() */
	int (*init)(struct thread_data *td, struct blkfile_options *o, void **priv);
	int (*post_init)(struct thread_data *td, void *priv);
	int (*io_u_init)(struct thread_data *td, void *priv, struct io_u *io_u);
	void (*io_u_free)(struct thread_data *td, void *priv, struct io_u *io_u);
	enum fio_q_status (*queue)(struct thread_data *td, void *priv, struct io_u *io_u);
	int (*commit)(struct thread_data *td, void *priv);
	int (*getevents)(struct thread_data *td, void *priv, unsigned int min,
			 unsigned int max, const struct timespec *t);
	struct io_u *(*event)(struct thread_data *td, void *priv, int ev);
	int (*file_opened)(struct thread_data *td, void *priv, struct fio_file *f);
	void (*file_closing)(struct thread_data *td, void *priv, struct fio_file *f);
	void (*cleanup)(struct thread_data *td, void *priv);
	/* fio engine flags this path needs (FIO_SYNCIO, ...; see BF_SUBMIT_FLAGS) */
	unsigned int flags;
};

/* Every flag a path's .flags may hold: blkfile.c sets these per job. */
#define BF_SUBMIT_FLAGS	(FIO_SYNCIO | FIO_ASYNCIO_SETS_ISSUE_TIME | FIO_NO_OFFLOAD)

extern const struct bf_submit_ops bf_submit_sync;	/* submit_sync.c */
extern const struct bf_submit_ops bf_submit_uring;	/* submit_uring.c */

/* Per job (td->io_ops_data). */
struct bf_data {
	const struct bf_submit_ops *sub;
	void *priv;		/* the path's own state (sub->init) */
};

/* Record a completed piece-wise transfer of @done bytes (or -errno) in @io_u. */
static inline void bf_io_u_result(struct io_u *io_u, long long done, int err)
{
	if (err) {
		io_u->error = err;
		return;
	}
	if ((unsigned long long)done != io_u->xfer_buflen)
		io_u->resid = io_u->xfer_buflen - done;
}

/*
 * A via=bdev read or write that completed short without an error: fail it
 * (blkfile.c).  Pieces never go past the file's size, so inside its
 * extents the device is short only where it ends (it shrank under the
 * job); and the bytes missing may be in the middle of the request, where
 * fio's requeue of the residual (its tail) would not go.
 */
void bf_short_dev_io(struct io_u *io_u);

/*
 * fio's do_io_u_sync() for @io_u (fsync=, fdatasync=, sync_file_range=)
 * on the file's descriptor, the device for via=bdev: fsync and fdatasync
 * of the device cover the job's writes as they are; sync_file_range
 * goes to the device bytes under the file's range, not to the device
 * bytes at the file's offsets (blkfile.c).  0, or -1 with io_u->error.
 */
int bf_do_sync(struct thread_data *td, struct io_u *io_u);

#endif
