// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkfile_submit=uring: io_uring through liburing.  ->queue prepares one
 * SQE per piece (a via=bdev request crossing extents becomes several, all
 * tagged with the same io_u), ->commit submits (entering the kernel as
 * fio's io_uring engine does), ->getevents reaps the ring in bulk and
 * hands an io_u back to fio once all of its pieces have completed.  Optional registered
 * buffers (blkfile_fixedbufs) and files (blkfile_registerfiles), as in
 * fio's own io_uring engine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <liburing.h>

#include "fio.h"
#include "engines/common/pp.h"
#include "engines/common/uring.h"
#include "engines/blkfile/blkfile.h"

/* Completion state of one io_u, indexed by io_u->index. */
struct ur_iou {
	unsigned int parts_left;
	int err;
	long long done;
};

struct ur_data {
	struct io_uring ring;
	int ring_ok;
	unsigned int ring_flags;	/* setup flags the kernel took */
	unsigned int depth;
	struct ur_iou *st;
	struct io_u **io_us;	/* by index, for registering buffers */
	struct io_u **queued;	/* queued since the last commit */
	unsigned int nr_queued;
	struct io_u **events;	/* completed by the last getevents */
	unsigned int nr_events;
	int fixedbufs, files;
	int zero_logged;	/* zero_xfer() said why, once per job */
};

static int uring_init(struct thread_data *td, struct blkfile_options *o, void **priv)
{
	struct ur_data *ur;
	unsigned int depth = td->o.iodepth ? td->o.iodepth : 1, entries;
	int ret;

	ur = calloc(1, sizeof(*ur));
	if (!ur)
		goto nomem;
	ur->depth = depth;
	ur->fixedbufs = o->fixedbufs;
	ur->files = o->registerfiles;
	ur->st = calloc(depth, sizeof(*ur->st));
	ur->io_us = calloc(depth, sizeof(*ur->io_us));
	ur->queued = calloc(depth, sizeof(*ur->queued));
	ur->events = calloc(depth, sizeof(*ur->events));
	*priv = ur;
	if (!ur->st || !ur->io_us || !ur->queued || !ur->events)
		goto nomem;

	/*
	 * Twice the depth: a via=bdev request crossing an extent takes one
	 * SQE per piece.  More pieces than that are submitted early (get_sqe()),
	 * so the ring is capped at the kernel's largest: 2 x iodepth=16385
	 * and up was refused at setup, 'io_uring_queue_init: Invalid
	 * argument', where fio's own io_uring runs up to 32768.  fio's
	 * own engine's setup flags (engines/common/uring.h): this is fio's
	 * job thread (->init), the same task that submits in ->commit and
	 * reaps in ->getevents (both enter with GETEVENTS), as
	 * SINGLE_ISSUER and DEFER_TASKRUN require; kernels without them get
	 * fewer.
	 */
	entries = 2 * depth < 8 ? 8 : 2 * depth;
	if (entries > PP_URING_MAX_ENTRIES)
		entries = PP_URING_MAX_ENTRIES;
	ret = pp_uring_setup(entries, &ur->ring, PP_URING_FAST, &ur->ring_flags);
	if (ret < 0) {
		pp_err(BF_ENGINE, "io_uring_queue_init: %s%s", strerror(-ret),
		       ret == -ENOSYS ? " (no io_uring in this kernel)" : "");
		td_verror(td, -ret, "io_uring_queue_init");
		return 1;
	}
	ur->ring_ok = 1;
	return 0;
nomem:
	td_verror(td, ENOMEM, "blkfile uring init");
	return 1;
}

static void uring_cleanup(struct thread_data *td, void *priv)
{
	struct ur_data *ur = priv;

	if (!ur)
		return;
	if (ur->ring_ok && !(td->flags & TD_F_CHILD))
		io_uring_queue_exit(&ur->ring);
	free(ur->st);
	free(ur->io_us);
	free(ur->queued);
	free(ur->events);
	free(ur);
}

static int uring_io_u_init(struct thread_data *td, void *priv, struct io_u *io_u)
{
	struct ur_data *ur = priv;

	if (io_u->index >= ur->depth) {
		td_verror(td, EINVAL, "blkfile: io_u index beyond iodepth");
		return 1;
	}
	ur->io_us[io_u->index] = io_u;
	return 0;
}

static int uring_post_init(struct thread_data *td, void *priv)
{
	struct ur_data *ur = priv;
	unsigned int i, nfiles = td->o.nr_files ? td->o.nr_files : 1;
	int ret;

	if (ur->fixedbufs) {
		struct iovec *iov = calloc(ur->depth, sizeof(*iov));

		if (!iov) {
			td_verror(td, ENOMEM, "blkfile fixedbufs");
			return 1;
		}
		for (i = 0; i < ur->depth; i++) {
			iov[i].iov_base = ur->io_us[i] ? ur->io_us[i]->buf : NULL;
			iov[i].iov_len = ur->io_us[i] ? td_max_bs(td) : 0;
		}
		ret = io_uring_register_buffers(&ur->ring, iov, ur->depth);
		free(iov);
		if (ret < 0) {
			pp_err(BF_ENGINE, "registering %u buffers of %llu bytes: %s",
			       ur->depth, (unsigned long long)td_max_bs(td), strerror(-ret));
			td_verror(td, -ret, "io_uring_register_buffers");
			return 1;
		}
	}
	if (ur->files) {
		/* A table of empty slots; each file fills slot f->fileno when opened. */
		int *fds = malloc(nfiles * sizeof(*fds));

		if (!fds) {
			td_verror(td, ENOMEM, "blkfile registerfiles");
			return 1;
		}
		for (i = 0; i < nfiles; i++)
			fds[i] = -1;
		ret = io_uring_register_files(&ur->ring, fds, nfiles);
		free(fds);
		if (ret < 0) {
			pp_err(BF_ENGINE, "io_uring_register_files: %s", strerror(-ret));
			td_verror(td, -ret, "io_uring_register_files");
			return 1;
		}
	}
	return 0;
}

static int uring_file_opened(struct thread_data *td, void *priv, struct fio_file *f)
{
	struct ur_data *ur = priv;
	int ret;

	if (!ur->files)
		return 0;
	ret = io_uring_register_files_update(&ur->ring, f->fileno, &f->fd, 1);
	if (ret < 0) {
		pp_err(BF_ENGINE, "%s: registering fd: %s", f->file_name, strerror(-ret));
		td_verror(td, -ret, "io_uring_register_files_update");
		return 1;
	}
	return 0;
}

static void uring_file_closing(struct thread_data *td, void *priv, struct fio_file *f)
{
	struct ur_data *ur = priv;
	int none = -1;

	(void)td;
	if (ur && ur->files)
		io_uring_register_files_update(&ur->ring, f->fileno, &none, 1);
}

/* An SQE, submitting what is prepared to make room if the ring is full. */
static struct io_uring_sqe *get_sqe(struct ur_data *ur)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ur->ring);

	if (!sqe && io_uring_submit(&ur->ring) >= 0)
		sqe = io_uring_get_sqe(&ur->ring);
	return sqe;
}

static void prep_piece(struct ur_data *ur, struct io_uring_sqe *sqe,
		       struct io_u *io_u, void *buf, unsigned int len,
		       uint64_t dev_off)
{
	struct fio_file *f = io_u->file;
	int fd = ur->files ? (int)f->fileno : f->fd;

	if (ur->fixedbufs) {
		if (io_u->ddir == DDIR_READ)
			io_uring_prep_read_fixed(sqe, fd, buf, len, dev_off, io_u->index);
		else
			io_uring_prep_write_fixed(sqe, fd, buf, len, dev_off, io_u->index);
	} else if (io_u->ddir == DDIR_READ) {
		io_uring_prep_read(sqe, fd, buf, len, dev_off);
	} else {
		io_uring_prep_write(sqe, fd, buf, len, dev_off);
	}
	if (ur->files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io_u);
}

static enum fio_q_status uring_queue(struct thread_data *td, void *priv,
				     struct io_u *io_u)
{
	struct ur_data *ur = priv;
	struct bf_file *bf = FILE_ENG_DATA(io_u->file);
	struct ur_iou *st = &ur->st[io_u->index];
	uint64_t off = io_u->offset, left = io_u->xfer_buflen, dev_off, n;
	char *buf = io_u->xfer_buf;
	struct io_uring_sqe *sqe;
	unsigned int parts = 0;

	if (!ddir_rw(io_u->ddir)) {
		/* fsync/fdatasync: done in place, once what is queued is out. */
		if (ur->nr_queued)
			return FIO_Q_BUSY;
		if (bf_do_sync(td, io_u) < 0 && !io_u->error)
			io_u->error = errno;
		/*
		 * Named here, as submit=sync and psync name it: fio names a
		 * failed I/O where it reaps one, and returns first for a sync.
		 */
		if (io_u->error)
			io_u_log_error(td, io_u);
		io_u_mark_submit(td, 1);
		io_u_mark_complete(td, 1);
		return FIO_Q_COMPLETED;
	}
	if (ur->nr_queued == ur->depth)
		return FIO_Q_BUSY;

	st->err = 0;
	st->done = 0;
	while (left) {
		n = bf_piece(bf, off, left, &dev_off);
		sqe = n ? get_sqe(ur) : NULL;
		if (!sqe) {
			st->err = n ? EBUSY : EIO;
			break;
		}
		prep_piece(ur, sqe, io_u, buf, n, dev_off);
		parts++;
		off += n;
		buf += n;
		left -= n;
	}
	if (!parts) {
		io_u->error = st->err;
		return FIO_Q_COMPLETED;
	}
	st->parts_left = parts;
	ur->queued[ur->nr_queued++] = io_u;
	return FIO_Q_QUEUED;
}

/*
 * Submit what is queued as fio's own engine does: entering with
 * IORING_ENTER_GETEVENTS, so that on a DEFER_TASKRUN ring the completions
 * that arrived meanwhile are posted now and ->getevents finds them in the
 * ring without a second system call.  Issue times are stamped once per
 * batch, after the submit (FIO_ASYNCIO_SETS_ISSUE_TIME).
 */
static int uring_commit(struct thread_data *td, void *priv)
{
	struct ur_data *ur = priv;
	struct timespec now;
	unsigned int i;
	int ret;

	if (!ur->nr_queued)
		return 0;
	while (io_uring_sq_ready(&ur->ring)) {
		ret = io_uring_submit_and_get_events(&ur->ring);
		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0) {
			td_verror(td, -ret, "io_uring_submit");
			return ret;
		}
	}
	if (fio_fill_issue_time(td)) {
		fio_gettime(&now, NULL);
		for (i = 0; i < ur->nr_queued; i++) {
			memcpy(&ur->queued[i]->issue_time, &now, sizeof(now));
			io_u_queued(td, ur->queued[i]);
		}
	}
	io_u_mark_submit(td, ur->nr_queued);
	ur->nr_queued = 0;
	return 0;
}

/*
 * @io_u, a read or write, completed short by io_u->resid bytes without an
 * error (bf_io_u_result()).  A partial transfer stays as it is: fio 3.33's
 * io_completed() (io_u.c) requeues the residual of a short async I/O, as
 * psync's io_queue_event() does.  One that moved nothing (a read at or past
 * the end of the file, e.g. one truncated under the job) would be counted
 * as a completed I/O of 0 bytes, where psync and blkfile_submit=sync fail
 * the job with EIO ("full resid"): fail it alike.  Cold: only short I/O
 * gets here.
 */
static void __attribute__((cold, noinline))
zero_xfer(struct thread_data *td, struct ur_data *ur, struct io_u *io_u)
{
	if (io_u->error || io_u->resid < io_u->xfer_buflen)
		return;
	if (!ur->zero_logged) {
		ur->zero_logged = 1;
		pp_err(BF_ENGINE, "%s: %s of %llu bytes at offset %llu of %s moved 0 bytes "
		       "(past the end of the file?): EIO, as fio's psync",
		       td->o.name, io_ddir_name(io_u->ddir),
		       (unsigned long long)io_u->xfer_buflen,
		       (unsigned long long)io_u->offset, io_u->file->file_name);
	}
	io_u->error = EIO;
}

/*
 * Take every completion the ring holds (up to @max io_us: one CQE finishes
 * at most one), releasing the CQEs to the kernel in one store; wait in the
 * kernel only when that is fewer than @min, for as many CQEs as io_us are
 * still missing (each needs at least one more).
 */
static int uring_getevents(struct thread_data *td, void *priv, unsigned int min,
			   unsigned int max, const struct timespec *t)
{
	struct ur_data *ur = priv;
	struct io_uring_cq *cq = &ur->ring.cq;
	unsigned int shift = io_uring_cqe_shift(&ur->ring);
	unsigned int head, tail, nr = 0;
	struct io_uring_cqe *cqe;
	struct io_u *io_u;
	struct ur_iou *st;
	int ret;

	(void)t;
	for (;;) {
		/* What io_uring_for_each_cqe() and io_uring_cq_advance() do, the tail read once. */
		head = *cq->khead;
		tail = io_uring_smp_load_acquire(cq->ktail);
		for (; head != tail && nr < max; head++) {
			cqe = &cq->cqes[(head & cq->ring_mask) << shift];
			io_u = io_uring_cqe_get_data(cqe);
			st = &ur->st[io_u->index];
			if (cqe->res < 0) {
				if (!st->err)
					st->err = -cqe->res;
			} else {
				st->done += cqe->res;
			}
			if (--st->parts_left)
				continue;
			bf_io_u_result(io_u, st->done, st->err);
			if (__builtin_expect(io_u->resid != 0, 0)) {
				const struct bf_file *bf = FILE_ENG_DATA(io_u->file);

				if (!bf->identity)
					bf_short_dev_io(io_u);
				else
					zero_xfer(td, ur, io_u);
			}
			ur->events[nr++] = io_u;
		}
		io_uring_smp_store_release(cq->khead, head);
		if (nr >= min || nr == max)
			break;
		ret = io_uring_wait_cqe_nr(&ur->ring, &cqe, min - nr);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -ETIME) {
			td_verror(td, -ret, "io_uring_wait_cqe");
			return ret;
		}
	}
	ur->nr_events = nr;
	return nr;
}

static struct io_u *uring_event(struct thread_data *td, void *priv, int ev)
{
	struct ur_data *ur = priv;

	(void)td;
	return ur->events[ev];
}

const struct bf_submit_ops bf_submit_uring = {
	.init		= uring_init,
	.post_init	= uring_post_init,
	.io_u_init	= uring_io_u_init,
	.queue		= uring_queue,
	.commit		= uring_commit,
	.getevents	= uring_getevents,
	.event		= uring_event,
	.file_opened	= uring_file_opened,
	.file_closing	= uring_file_closing,
	.cleanup	= uring_cleanup,
	.flags		= FIO_ASYNCIO_SETS_ISSUE_TIME | FIO_NO_OFFLOAD,
};
