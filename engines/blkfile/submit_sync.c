// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkfile_submit=sync: one pread/pwrite per piece, completed before
 * ->queue returns, like fio's psync.  via=file and whole-device targets
 * take a single call on fio's own fd, so the two engines run the same
 * syscalls; via=bdev loops over the extents the request covers.
 */
#include <errno.h>
#include <unistd.h>

#include "fio.h"
#include "engines/blkfile/blkfile.h"

static int sync_init(struct thread_data *td, struct blkfile_options *o, void **priv)
{
	(void)td;
	(void)o;
	*priv = NULL;		/* no state of its own */
	return 0;
}

static void sync_cleanup(struct thread_data *td, void *priv)
{
	(void)td;
	(void)priv;
}

static ssize_t xfer(const struct io_u *io_u, int fd, void *buf, size_t len,
		    uint64_t dev_off)
{
	if (io_u->ddir == DDIR_READ)
		return pread(fd, buf, len, dev_off);
	return pwrite(fd, buf, len, dev_off);
}

static enum fio_q_status sync_queue(struct thread_data *td, void *priv,
				    struct io_u *io_u)
{
	struct fio_file *f = io_u->file;
	struct bf_file *bf = FILE_ENG_DATA(f);
	uint64_t off = io_u->offset, left = io_u->xfer_buflen, dev_off, n;
	char *buf = io_u->xfer_buf;
	long long done = 0;

	(void)priv;
	ssize_t ret;
	int err = 0;

	io_u_mark_submit(td, 1);
	io_u_mark_complete(td, 1);

	if (!ddir_rw(io_u->ddir)) {
		/* fsync/fdatasync of f->fd: the device itself in via=bdev. */
		if (bf_do_sync(td, io_u) < 0 && !io_u->error)
			io_u->error = errno;
		goto out;
	}

	while (left) {
		n = bf_piece(bf, off, left, &dev_off);
		if (!n) {
			err = EIO;
			break;
		}
		ret = xfer(io_u, f->fd, buf, n, dev_off);
		if (ret < 0) {
			err = errno;
			break;
		}
		done += ret;
		if ((uint64_t)ret < n)
			break;	/* short: report the residue like psync */
		off += n;
		buf += n;
		left -= n;
	}
	bf_io_u_result(io_u, done, err);
	if (io_u->resid && !bf->identity)
		bf_short_dev_io(io_u);
out:
	if (io_u->error) {
		io_u_log_error(td, io_u);
		td_verror(td, io_u->error, "xfer");
	}
	return FIO_Q_COMPLETED;
}

const struct bf_submit_ops bf_submit_sync = {
	.init		= sync_init,
	.queue		= sync_queue,
	.cleanup	= sync_cleanup,
	.flags		= FIO_SYNCIO,
};
