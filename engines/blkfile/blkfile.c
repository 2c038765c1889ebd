// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkfile: the same bytes through the file or through the block device
 * under it, at the very sectors the file occupies.
 *
 * blkfile_via=file does the job's I/O on the file, like fio's psync or
 * io_uring engines.  blkfile_via=bdev opens the device under the file
 * (found from st_dev via /sys/dev/block, or blkfile_dev=), maps the file
 * with FIEMAP after syncing it, and does each I/O at the device offsets of
 * the file's extents, splitting those that cross extents.  So a comparison
 * of the two differs only in the kernel path (page cache of the file vs of
 * the device, filesystem vs raw block layer), never in which disk blocks
 * were read.  fio's direct=1 gives O_DIRECT on either path: O_DIRECT on a
 * block device is what "raw" I/O meant before /dev/raw went away (5.14).
 *
 * This file: options, opening files (and every refusal), cache
 * invalidation; submission is in submit_sync.c and submit_uring.c.
 */
/* fio is built with its debug log (--debug=file); ours joins it. */
#define FIO_INC_DEBUG

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/magic.h>

#include "fio.h"
#include "optgroup.h"
#include "engines/common/pp.h"
#include "engines/blkfile/bdev.h"
#include "engines/blkfile/blkfile.h"
#include "engines/blkfile/btrfs.h"
#include "engines/blkfile/lease.h"

static struct fio_option options[];

/* Enum options: engines/common/pp.h's PP_ENUM_OPT_CB idiom. */
PP_ENUM_OPT_CB(via_cb, BF_ENGINE, options, "blkfile_via", struct blkfile_options, via)
PP_ENUM_OPT_CB(submit_cb, BF_ENGINE, options, "blkfile_submit", struct blkfile_options, submit)
/* fio stores blkfile_dev= itself: only a mangled value is refused here. */
static int dev_cb(void *data, const char *str)
{
	(void)data;
	return pp_opt_blank(BF_ENGINE, "blkfile_dev", str);
}

/* Booleans and numbers parsed whole (pp.h, PP_UINT_STR_OPT_CB: fio splits "0-1"). */
PP_UINT_STR_OPT_CB(allow_bdev_write_cb, BF_ENGINE, "blkfile_allow_bdev_write",
		   struct blkfile_options, allow_bdev_write, 0, 1)
PP_UINT_STR_OPT_CB(fixedbufs_cb, BF_ENGINE, "blkfile_fixedbufs", struct blkfile_options, fixedbufs, 0, 1)
PP_UINT_STR_OPT_CB(registerfiles_cb, BF_ENGINE, "blkfile_registerfiles", struct blkfile_options,
		   registerfiles, 0, 1)
PP_UINT_STR_OPT_CB(recheck_msec_cb, BF_ENGINE, "blkfile_recheck_msec", struct blkfile_options,
		   recheck_msec, BF_RECHECK_MIN, BF_RECHECK_MAX)

static struct fio_option options[] = {
	{
		.name	= "blkfile_via",
		.lname	= "blkfile path",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, via_str),
		.cb	= via_cb,
		.help	= "I/O on the file, or on the block device at the file's sectors (bdev: ext2/3/4, XFS, btrfs files)",
		.def	= BF_DEFAULT(BF_VIAS),
		.posval	= { BF_VIAS(BF_POSVAL) },
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "blkfile_submit",
		.lname	= "blkfile submission",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, submit_str),
		.cb	= submit_cb,
		.help	= "How I/O is submitted",
		.def	= BF_DEFAULT(BF_SUBMITS),
		.posval	= { BF_SUBMITS(BF_POSVAL) },
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "blkfile_dev",
		.lname	= "blkfile device",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, dev),
		.cb	= dev_cb,
		.help	= "Block device for blkfile_via=bdev (default: the one holding the file)",
		.def	= "",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "blkfile_allow_bdev_write",
		.lname	= "blkfile device writes",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, allow_bdev_write_str),
		.cb	= allow_bdev_write_cb,
		.help	= "Allow writes through the device (only ever inside the file's extents)",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "blkfile_fixedbufs",
		.lname	= "blkfile registered buffers",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, fixedbufs_str),
		.cb	= fixedbufs_cb,
		.help	= "blkfile_submit=uring: register the I/O buffers with the ring",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "blkfile_registerfiles",
		.lname	= "blkfile registered files",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, registerfiles_str),
		.cb	= registerfiles_cb,
		.help	= "blkfile_submit=uring: register the file descriptors with the ring",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "blkfile_recheck_msec",
		.lname	= "blkfile re-verification interval",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct blkfile_options, recheck_msec_str),
		.cb	= recheck_msec_cb,
		/*
		 * Re-verified: extents, inode, generation, size, the name, the
		 * device's size, and for writes a writable filesystem
		 * (authority.c).
		 */
		.help	= "blkfile_via=bdev: re-verify the file's map at least this often (ms, " PP_STR(BF_RECHECK_MIN) ".." PP_STR(BF_RECHECK_MAX) ")",
		.def	= "100",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= NULL,
	},
};

/* Does this job write through its files (a verify_only pass only reads)? */
static int bf_job_writes(struct thread_data *td)
{
	return td_write(td) && !td->o.verify_only;
}

/*
 * The flags that differ between the paths (a synchronous ->queue, or issue
 * times set at commit), set as fio's own engines do when their flags depend
 * on options (engines/null.c: td->io_ops->flags, then
 * td_set_ioengine_flags()).  td->io_ops is the one table every blkfile job
 * shares, so this path's bits are assigned, not or-ed (an io_uring job
 * must not inherit FIO_SYNCIO from a sync job before it), and the copy
 * into this job's td->flags happens under a lock so that two jobs'
 * inits in --thread mode cannot swap their flags.
 */
static void bf_set_engine_flags(struct thread_data *td, unsigned int flags)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&lock);
	td->io_ops->flags = (td->io_ops->flags & ~BF_SUBMIT_FLAGS) | flags;
	td_set_ioengine_flags(td);
	pthread_mutex_unlock(&lock);
}

/* The job's first regular file (what a refusal of the job names), or NULL. */
static struct fio_file *bf_first_file(struct thread_data *td)
{
	struct fio_file *f;
	unsigned int i;

	for_each_file(td, f, i)
		if (f->filetype == FIO_TYPE_FILE)
			return f;
	return NULL;
}

static int fio_blkfile_init(struct thread_data *td)
{
	struct blkfile_options *o = td->eo;
	struct fio_file *f;
	struct bf_data *bd;
	int ret;

	if (pp_abi_check(td, BF_ENGINE))
		return 1;
	/* verify's trim_percentage= trims what it verified, in a write job */
	if (td_trim(td) || td->o.trim_percentage) {
		pp_err(BF_ENGINE, "trim is not supported (rw=trim/randtrim/trimwrite, or trim_percentage=%u: "
		       "it would discard device blocks under the filesystem)", td->o.trim_percentage);
		td_verror(td, EINVAL, "blkfile trim");
		return 1;
	}
	/*
	 * io_submit_mode=offload: fio's submit threads take references on the
	 * file they never put (IO_U_F_NO_FILE_PUT), so fio never calls
	 * ->close_file: the device writes were not synced, the map not
	 * re-verified at the end, the file's stale page cache not dropped
	 * (a read through the file after the job saw the old bytes, err= 0).
	 * Refused here, before fio starts its submit threads: refused at
	 * open, a job process was once left waiting in them.
	 */
	if (o->via == BF_VIA_BDEV && td->o.io_submit_mode == IO_MODE_OFFLOAD && (f = bf_first_file(td))) {
		pp_err(BF_ENGINE, "%s: io_submit_mode=offload with blkfile_via=bdev: fio never closes the file "
		       "then, so the close that syncs the device writes, re-verifies the file's map and drops "
		       "its stale page cache would not run; refused", f->file_name);
		td_verror(td, EOPNOTSUPP, "blkfile open");
		return 1;
	}
	/*
	 * A replayed read_iolog at iodepth > 1 on an asynchronous engine:
	 * fio 3.33 keeps a reference on the file for replayed I/O in flight
	 * and never drops it ('close files ... put file, ref=3' in
	 * --debug=file; its own io_uring and libaio never close the file
	 * either), so, as with offload above, the close that syncs the device
	 * writes, re-verifies the map and drops the file's stale page cache
	 * would not run: the file read back its old bytes after such a job
	 * ended err= 0.  submit=sync is synchronous, so fio replays at depth 1.
	 */
	if (o->via == BF_VIA_BDEV && o->submit == BF_SUBMIT_URING && td->o.read_iolog_file &&
	    td->o.iodepth > 1 && (f = bf_first_file(td))) {
		pp_err(BF_ENGINE, "%s: read_iolog=%s with blkfile_via=bdev, blkfile_submit=uring and iodepth=%u: "
		       "fio never closes a replayed file then, so the close that syncs the device writes, "
		       "re-verifies the file's map and drops its stale page cache would not run; refused "
		       "(iodepth=1 or blkfile_submit=sync replay it)", f->file_name, td->o.read_iolog_file,
		       td->o.iodepth);
		td_verror(td, EOPNOTSUPP, "blkfile open");
		return 1;
	}
	if ((o->fixedbufs || o->registerfiles) && o->submit != BF_SUBMIT_URING) {
		pp_err(BF_ENGINE, "blkfile_fixedbufs/blkfile_registerfiles need blkfile_submit=uring");
		td_verror(td, EINVAL, "blkfile options");
		return 1;
	}

	bd = calloc(1, sizeof(*bd));
	if (!bd) {
		td_verror(td, ENOMEM, "blkfile init");
		return 1;
	}
	bd->sub = o->submit == BF_SUBMIT_URING ? &bf_submit_uring : &bf_submit_sync;
	td->io_ops_data = bd;

	bf_set_engine_flags(td, bd->sub->flags);

	ret = bd->sub->init(td, o, &bd->priv);
	if (ret) {
		/* a failed init may have set up part of its state */
		bd->sub->cleanup(td, bd->priv);
		td->io_ops_data = NULL;
		free(bd);
		return 1;
	}
	return 0;
}

/*
 * unlink_each_loop=1: fio unlinks the job's files before each pass after
 * the first (loops=, time_based, io_size= past size=; backend.c,
 * unlink_all_files()), and the next pass opens a file the device holds
 * no bytes of: none for a read, a new and empty one for a write.  The
 * second pass failed with a bare "No such file or directory".  Refused
 * before fio looks at the file, whatever the job's loops (one pass never
 * unlinks, so there the option does nothing).
 */
static int refuse_unlink_each_loop(struct thread_data *td)
{
	struct fio_file *f = bf_first_file(td);

	if (!f)
		return 0;
	pp_err(BF_ENGINE, "%s: unlink_each_loop=1 with blkfile_via=bdev: fio unlinks the file before "
	       "each pass after the first, and the device holds none of the bytes of the file a next "
	       "pass would open (none for a read, a new, empty one for a write); refused before any I/O",
	       f->file_name);
	td_verror(td, EOPNOTSUPP, "blkfile setup");
	return 1;
}

/*
 * fill_device=1 in a job that writes: fio writes until the filesystem is
 * full, past the file's end (its range for I/O is 0..2^64-1), where the
 * device holds none of the file's bytes.  With overwrite=1 or reads, fio
 * first replaced the user's file with one laid out to fill the
 * filesystem, and the job was refused at open after that, 'the job range
 * 0..18446744073709551615 ends past the end of the file', naming no
 * option.  A read-only job runs: fio sizes it to the file it laid out.
 */
static int refuse_fill_device(struct thread_data *td)
{
	struct fio_file *f = bf_first_file(td);

	if (!f)
		return 0;
	pp_err(BF_ENGINE, "%s: fill_device=1 with blkfile_via=bdev in a job that writes: fio writes until "
	       "the filesystem is full, past the file's end, where the device holds none of its bytes; "
	       "refused before fio lays out or touches the file", f->file_name);
	td_verror(td, EOPNOTSUPP, "blkfile setup");
	return 1;
}

/*
 * ->setup: fio's setup_files() calls it in place of its get_file_sizes(),
 * in the parent process, before it works out each file's range and lays
 * out the files the job needs larger (extend_file()).  A via=bdev job
 * that writes and does not read, without overwrite=1 or with
 * file_append=1, cannot run on a file fio lays out: fio unlinks the
 * user's file and fallocates a new one (unwritten extents, or none with
 * fallocate=none), or grows it by fallocate (file_append), and the
 * device holds none of those bytes.  The job was refused at open, after
 * the user's file was gone (a write job on a file smaller than its size)
 * or grown (file_append).  So file_append is refused here, before fio
 * looks at the file, and such jobs take create_on_open's path, on which
 * fio lays nothing out: a file smaller than the job's range is refused
 * at open as it is ("ends past the end of the file").
 */
static int fio_blkfile_setup(struct thread_data *td)
{
	struct blkfile_options *o = td->eo;
	struct fio_file *f;
	unsigned int i;

	/* What fio's get_file_sizes() does, which ->setup replaces. */
	for_each_file(td, f, i) {
		if (td_io_get_file_size(td, f)) {
			if (td->error != ENOENT) {
				log_err("%s\n", td->verror);
				return 1;
			}
			td->error = 0;
			td->verror[0] = '\0';
		}
		if (f->real_file_size == -1ULL && td->o.size)
			f->real_file_size = td->o.size / td->o.nr_files;
	}
	if (o && o->via == BF_VIA_BDEV && td->o.unlink_each_loop && refuse_unlink_each_loop(td))
		return 1;
	if (o && o->via == BF_VIA_BDEV && td_write(td) && td->o.fill_device && refuse_fill_device(td))
		return 1;
	if (!o || o->via != BF_VIA_BDEV || !td_write(td) || td_read(td) ||
	    (td->o.overwrite && !td->o.file_append))
		return 0;
	for_each_file(td, f, i) {
		if (f->filetype != FIO_TYPE_FILE)
			continue;
		if (td->o.file_append) {
			pp_err(BF_ENGINE, "%s: file_append=1 with blkfile_via=bdev: the job writes past the "
			       "file's end, where the device holds none of its bytes; refused before fio "
			       "grows the file", f->file_name);
			td_verror(td, EOPNOTSUPP, "blkfile setup");
			return 1;
		}
		/*
		 * create_only=1 asks fio for its layout and no I/O; on
		 * create_on_open's path fio lays nothing out, so the job
		 * ended with exit 0 and a missing file not created.
		 */
		if (td->o.create_only) {
			pp_err(BF_ENGINE, "%s: create_only=1 with blkfile_via=bdev in a job that only writes: "
			       "fio's layout of such a file is an unlinked and fallocated one whose bytes the "
			       "device does not hold, so the engine does not let fio lay it out; lay it out with "
			       "another engine (psync); refused", f->file_name);
			td_verror(td, EOPNOTSUPP, "blkfile setup");
			return 1;
		}
	}
	td->o.create_on_open = 1;
	return 0;
}

static int fio_blkfile_post_init(struct thread_data *td)
{
	struct bf_data *bd = td->io_ops_data;

	return bd->sub->post_init ? bd->sub->post_init(td, bd->priv) : 0;
}

static void fio_blkfile_cleanup(struct thread_data *td)
{
	struct bf_data *bd = td->io_ops_data;

	if (!bd)
		return;
	bd->sub->cleanup(td, bd->priv);
	free(bd);
	td->io_ops_data = NULL;
}

static int fio_blkfile_io_u_init(struct thread_data *td, struct io_u *io_u)
{
	struct bf_data *bd = td->io_ops_data;

	return bd->sub->io_u_init ? bd->sub->io_u_init(td, bd->priv, io_u) : 0;
}

static void fio_blkfile_io_u_free(struct thread_data *td, struct io_u *io_u)
{
	struct bf_data *bd = td->io_ops_data;

	if (bd && bd->sub->io_u_free)
		bd->sub->io_u_free(td, bd->priv, io_u);
}

static int bf_authorize(struct thread_data *td, struct io_u *io_u);

static enum fio_q_status fio_blkfile_queue(struct thread_data *td,
					   struct io_u *io_u)
{
	struct bf_data *bd = td->io_ops_data;
	struct bf_file *bf;

	fio_ro_check(td, io_u);
	bf = FILE_ENG_DATA(io_u->file);
	if (ddir_rw(io_u->ddir) && bf && !bf->identity) {
		int err = bf_authorize(td, io_u);

		if (err) {
			io_u->error = err;
			return FIO_Q_COMPLETED;
		}
	}
	return bd->sub->queue(td, bd->priv, io_u);
}

static int fio_blkfile_commit(struct thread_data *td)
{
	struct bf_data *bd = td->io_ops_data;

	return bd->sub->commit ? bd->sub->commit(td, bd->priv) : 0;
}

static int fio_blkfile_getevents(struct thread_data *td, unsigned int min,
				 unsigned int max, const struct timespec *t)
{
	struct bf_data *bd = td->io_ops_data;

	return bd->sub->getevents ? bd->sub->getevents(td, bd->priv, min, max, t) : 0;
}

static struct io_u *fio_blkfile_event(struct thread_data *td, int ev)
{
	struct bf_data *bd = td->io_ops_data;

	return bd->sub->event ? bd->sub->event(td, bd->priv, ev) : NULL;
}

/* Log "blkfile: FILE: WHY" and fail the job with @err. */
static int refuse(struct thread_data *td, struct fio_file *f, int err,
		  const char *why)
{
	pp_err(BF_ENGINE, "%s: %s", f->file_name, why);
	td_verror(td, err, "blkfile open");
	return 1;
}

static int dev_open_flags(struct thread_data *td)
{
	int flags = bf_job_writes(td) ? O_RDWR : O_RDONLY;

	if (td->o.odirect)
		flags |= O_DIRECT;
	return flags | td->o.sync_io;
}

/* Nanoseconds of CLOCK_MONOTONIC_COARSE: cheap enough for every I/O. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t job_max_bs(struct thread_data *td)
{
	uint64_t m = 0;
	int d;

	for (d = DDIR_READ; d <= DDIR_WRITE; d++)
		if (td->o.max_bs[d] > m)
			m = td->o.max_bs[d];
	return m;
}

/*
 * The first byte offset in [@off, @end) (@off page-aligned) of a page of
 * @fd resident in the page cache (mincore(2) over a mapping that faults
 * nothing in), or -1 when none is.
 */
static int64_t resident_at(int fd, uint64_t off, uint64_t end)
{
	const uint64_t win = 1ULL << 30;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), len, i;
	unsigned char *vec;
	int64_t stays = -1;
	void *m;

	vec = malloc(win / page);
	if (!vec)
		return -1;
	for (; off < end && stays < 0; off += win) {
		len = end - off < win ? end - off : win;
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (m == MAP_FAILED)
			break;
		if (mincore(m, len, vec) == 0)
			for (i = 0; i < (len + page - 1) / page; i++)
				if (vec[i] & 1) {
					stays = (int64_t)(off + i * page);
					break;
				}
		munmap(m, len);
	}
	free(vec);
	return stays;
}

/*
 * Drop the file's own cached pages and say where one stayed: the first
 * byte offset of a page still resident, or -1 when none did.  A page
 * another process has mapped cannot be dropped: after device writes it
 * would go on showing the file's old bytes, and a later write-back of it
 * would undo them.
 */
static int64_t file_pages_stay(int fd, uint64_t size)
{
	int64_t stays;
	int tries;

	/*
	 * A few tries, 1 to 8 ms apart: a folio another job is dropping at
	 * the same moment is locked, and skipped, while it goes (two
	 * via=bdev writers of one file opened together: 'its page at
	 * offset 1048576 stays'); one that is mapped stays through them.
	 */
	for (tries = 0; ; tries++) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		stays = resident_at(fd, 0, size);
		if (stays < 0 || tries == 3)
			return stays;
		usleep(1000U << tries);
	}
}

/*
 * Drop the device's cached pages under file bytes [@off, @end), every page
 * any of them is in: POSIX_FADV_DONTNEED drops only the pages wholly inside
 * the range it is given, and a page left half-covered may hold what the
 * device had before the file was last written through the filesystem (the
 * two caches know nothing of each other).  A buffered device write into
 * such a page would read the stale rest and write it back over the file;
 * a buffered read would return it.  A page that stays (mapped by another
 * process, or holding the filesystem's dirty metadata, which a syncfs
 * writes back first) is as bad: 0, or -EBUSY with its device offset in
 * *@stays, or another -errno.
 */
static int drop_dev_pages(struct fio_file *f, struct bf_file *bf,
			  uint64_t off, uint64_t end, int64_t *stays)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t dev_off, lo, hi, n;
	int ret, tries;

	while (off < end) {
		n = bf_piece(bf, off, end - off, &dev_off);
		if (!n)
			break;
		lo = dev_off / page * page;
		hi = (dev_off + n + page - 1) / page * page;
		for (tries = 0; ; tries++) {
			/*
			 * The device's page cache holds large folios (a
			 * buffered read of the device, by dd, blkid or an
			 * earlier job, reads ahead into them), and DONTNEED
			 * drops no folio that begins before the range: one
			 * across an extent's start stayed, and the job was
			 * refused.  The second try covers every folio of up
			 * to a PMD (512 pages: 2 MiB here, the page cache's
			 * largest) that holds a byte of the range; what it
			 * drops besides is the device's clean cache.
			 */
			uint64_t span = tries ? page * 512 : page;
			uint64_t dlo = lo / span * span;
			uint64_t dhi = (hi + span - 1) / span * span;

			ret = posix_fadvise(f->fd, dlo, dhi - dlo, POSIX_FADV_DONTNEED);
			if (ret)
				return -ret;
			*stays = resident_at(f->fd, lo, hi);
			if (*stays < 0)
				break;
			if (tries)
				return -EBUSY;
			syncfs(bf->file_fd);
		}
		off += n;
	}
	return 0;
}

/*
 * Every via=bdev job holds a read lock (F_OFD_SETLK) on one byte of the
 * file far past any file's end, from its open to its close, on
 * bf->file_fd: no other program locks that byte, so a lock there that
 * another open file holds is another blkfile via=bdev job of the file, in
 * this fio or another.  Taken before this job drops anything.
 */
#define BF_JOB_LOCK_AT (1LL << 62)

static void take_job_lock(int fd)
{
	struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET,
			   .l_start = BF_JOB_LOCK_AT, .l_len = 1 };

	fcntl(fd, F_OFD_SETLK, &l);
}

/*
 * True if another via=bdev job of the file holds its lock.  Its device
 * I/O keeps re-filling the device's cache under the file (its reads, in
 * flight while this job drops, come back cached; its buffered writes are
 * dirty), so pages this job drops seem to stay.  They are that job's,
 * read from the disk or written by it after it dropped the stale ones at
 * its own open (a page that stayed there refused it): the cache is as
 * true for this job as for that one, and refusing it refused every
 * numjobs=2 buffered device job of a file (readers with invalidate=1
 * too), with a mapping by another process, which did not exist, as the
 * reason.
 */
static __attribute__((cold)) bool other_bdev_job(const struct bf_file *bf)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			   .l_start = BF_JOB_LOCK_AT, .l_len = 1 };

	if (bf->file_fd < 0 || fcntl(bf->file_fd, F_OFD_GETLK, &l) < 0)
		return false;
	return l.l_type != F_UNLCK;
}

#define BF_OTHER_JOB "another blkfile_via=bdev job (of this fio or another) is doing I/O on this file " \
	"through the device"

/* Why drop_dev_pages() failed with @err, into @why. */
static void dev_pages_why(const struct bf_file *bf, int err, int64_t stays,
			  char *why, size_t whylen)
{
	if (err == -EBUSY)
		snprintf(why, whylen, "%s: its page at device offset %lld, under the file, stays in the page cache "
			 "when dropped (mapped by another process, or busy filesystem metadata): a buffered device "
			 "write would read its bytes, older than the file's, and write them back over the file, "
			 "and a buffered read would return them", bf->dev_path, (long long)stays);
	else
		snprintf(why, whylen, "%s: dropping its cached pages under the file: %s",
			 bf->dev_path, strerror(-err));
}

/*
 * via=bdev on a regular file: prove the device holds the file, take a
 * lease (device writes), map the file, record the write authority (every
 * byte fio may touch checked), open the device.  Leaves f->fd on the
 * device.
 */
static int open_bdev_of_file(struct thread_data *td, struct fio_file *f,
			     struct bf_file *bf)
{
	struct blkfile_options *o = td->eo;
	struct bf_authority *a = &bf->auth;
	char why[PATH_MAX + 1024] = "";	/* every refusal prints it */
	struct statfs sfs;
	struct stat st;
	uint64_t dev_size, lo, io_end, reach;
	uint32_t lbs;
	int is_bdev, ret, fd;

	a->use = bf_job_writes(td) ? BF_USE_WRITE : BF_USE_READ;
	/* fio's pre_read reads f->fd itself: here the device, at the file's offsets. */
	if (td->o.pre_read)
		return refuse(td, f, EOPNOTSUPP,
			      "pre_read=1 with blkfile_via=bdev: fio would read the device at the file's "
			      "offsets, not at its extents (other data); refused");
#ifdef FIO_HAVE_WRITE_HINT
	/*
	 * fio's write_hint= is an fcntl() on f->fd after the open, here the
	 * device's: F_SET_RW_HINT would set it on the device's inode, for
	 * every writer of the device and past the job, and never on the file's.
	 */
	if (fio_option_is_set(&td->o, write_hint))
		return refuse(td, f, EOPNOTSUPP,
			      "write_hint= with blkfile_via=bdev: fio would set the hint on the block device's "
			      "inode (every writer of the device, kept after the job), not on the file's; refused");
#endif
	ret = bf_dev_find(f->file_name, o->dev, &a->dev, &is_bdev, a->how,
			  sizeof(a->how), why, sizeof(why));
	if (ret)
		return refuse(td, f, -ret, why);
	if (a->use == BF_USE_WRITE && !o->allow_bdev_write)
		return refuse(td, f, EPERM,
			      "blkfile_via=bdev would write the block device under a mounted filesystem: "
			      "refused unless blkfile_allow_bdev_write=1 (writes then stay inside the range checked at open)");

	bf->file_fd = open(f->file_name, O_RDONLY | O_CLOEXEC | O_NOATIME);
	if (bf->file_fd < 0)
		bf->file_fd = open(f->file_name, O_RDONLY | O_CLOEXEC);
	if (bf->file_fd < 0) {
		ret = errno;
		snprintf(why, sizeof(why), "open: %s", strerror(ret));
		return refuse(td, f, ret, why);
	}
	take_job_lock(bf->file_fd);
	/* Before the lease: an active swap file would fail it for another reason. */
	ret = bf_file_attrs_allow(bf->file_fd, a->use == BF_USE_WRITE, why, sizeof(why));
	if (ret)
		return refuse(td, f, -ret, why);
	if (a->use == BF_USE_WRITE) {
		ret = bf_fs_readonly(bf->file_fd, why, sizeof(why));
		/* Leased before mapping: a change after the map is then signalled. */
		if (!ret)
			ret = bf_lease_take(bf->file_fd, why, sizeof(why));
		if (ret)
			return refuse(td, f, -ret, why);
		bf->leased = 1;
	}
	a->btrfs = fstatfs(bf->file_fd, &sfs) == 0 && sfs.f_type == BTRFS_SUPER_MAGIC;
	/* The device was proven by name: the file opened must be on it too. */
	if (!a->btrfs && (fstat(bf->file_fd, &st) < 0 || st.st_dev != a->dev))
		return refuse(td, f, EXDEV, "the file opened is not on the device proven to hold its name "
			      "(renamed or replaced meanwhile?)");
	ret = bf_file_data_on_dev(bf->file_fd, why, sizeof(why));
	if (!ret)
		ret = bf_auth_map(bf->file_fd, a->btrfs, a->use, FIEMAP_FLAG_SYNC,
				  &a->map, why, sizeof(why));
	if (ret)
		return refuse(td, f, -ret, why);

	fd = bf_dev_open(a->dev, dev_open_flags(td), bf->dev_path, sizeof(bf->dev_path),
			 why, sizeof(why));
	if (fd < 0)
		return refuse(td, f, -fd, why);
	f->fd = fd;
	ret = bf_dev_geometry(fd, &dev_size, &lbs);
	if (ret) {
		snprintf(why, sizeof(why), "%s: size/block size: %s", bf->dev_path, strerror(-ret));
		return refuse(td, f, -ret, why);
	}
	if (td->o.odirect && (td->o.min_bs[DDIR_READ] % lbs || td->o.min_bs[DDIR_WRITE] % lbs)) {
		snprintf(why, sizeof(why), "direct=1 on %s needs block sizes that are multiples of its %u-byte logical blocks (bs=%llu)",
			 bf->dev_path, lbs, td->o.min_bs[td_write(td) ? DDIR_WRITE : DDIR_READ]);
		/* not EINVAL: fio would add "destination does not support O_DIRECT" */
		return refuse(td, f, EOPNOTSUPP, why);
	}
	if (td->o.read_iolog_file) {
		/*
		 * A replayed log: fio leaves file_offset and io_size at 0
		 * (filesetup.c skips sizing) and the I/O goes where the log
		 * says, so the whole file is the range checked.
		 */
		lo = 0;
		io_end = reach = a->map.file_size;
	} else if (td->o.zone_mode == ZONE_MODE_STRIDED) {
		/*
		 * zonemode=strided: fio moves the file's offset on by
		 * zonerange (+ zoneskip) after each zone and wraps only at
		 * the file's end (io_u.c, __fill_io_u_zone()), so the I/O
		 * goes from the job's offset to the end of the file, not
		 * to offset + size.
		 */
		lo = f->file_offset;
		io_end = reach = a->map.file_size > lo ? a->map.file_size : lo;
	} else {
		lo = f->file_offset;
		io_end = f->file_offset + f->io_size;
		reach = bf_auth_reach(f->file_offset, f->io_size, job_max_bs(td), a->map.file_size);
	}
	ret = bf_auth_take(a, bf->file_fd, lo, io_end, reach,
			   td->o.odirect ? lbs : 512, dev_size, why, sizeof(why));
	if (ret)
		return refuse(td, f, -ret, why);
	/*
	 * Buffered device writes, whatever invalidate= says: no page of the
	 * device's cache under the file may be older than the file (see
	 * drop_dev_pages()); what the job writes then starts from the disk,
	 * which FIEMAP_FLAG_SYNC brought up to date.
	 */
	if (a->use == BF_USE_WRITE) {
		int64_t stays = file_pages_stay(bf->file_fd, a->map.file_size);

		if (stays >= 0 && other_bdev_job(bf)) {
			snprintf(why, sizeof(why), "its page at offset %lld stays in the page cache when dropped, "
				 "while " BF_OTHER_JOB ": device writes would not show through the file; run "
				 "such jobs one after the other (stonewall)", (long long)stays);
			return refuse(td, f, EBUSY, why);
		}
		if (stays >= 0) {
			snprintf(why, sizeof(why), "its page at offset %lld stays in the page cache when dropped "
				 "(mapped by another process?): device writes would not show through the file, "
				 "and a later write-back of that page would undo them",
				 (long long)stays);
			return refuse(td, f, EBUSY, why);
		}
	}
	if (a->use == BF_USE_WRITE && !td->o.odirect) {
		int64_t stays;

		ret = drop_dev_pages(f, bf, a->lo, a->hi, &stays);
		if (ret == -EBUSY && other_bdev_job(bf))
			ret = 0;	/* that job's pages: see other_bdev_job() */
		if (ret) {
			dev_pages_why(bf, ret, stays, why, sizeof(why));
			return refuse(td, f, -ret, why);
		}
	}
	bf->wrote = a->use == BF_USE_WRITE;
	bf->next_check_ns = now_ns() + o->recheck_msec * 1000000ULL;
	dprint(FD_FILE, "blkfile: %s on %s (%s), %zu extents, permitted %llu..%llu%s%s\n",
	       f->file_name, bf->dev_path, a->how, a->map.n,
	       (unsigned long long)a->lo, (unsigned long long)a->hi,
	       a->tail_why[0] ? "; tail refused: " : "", a->tail_why);
	return 0;
}

/* The authority of @f is lost: say so once, and every further I/O fails. */
static void lose_authority(struct thread_data *td, struct fio_file *f,
			   struct bf_file *bf, int err, const char *why)
{
	if (!bf->failed)
		pp_err(BF_ENGINE, "%s: %s", f->file_name, why);
	bf->failed = err;
	td_verror(td, err, "blkfile authority");
}

/*
 * The name a re-verification checks still leads to the file, or NULL not to
 * check it: a job with unlink=1 whose name is already gone.  Another job of
 * the file with unlink=1 (a second section, numjobs=2) removes it when it
 * ends, while this one still runs: that failed this job, err=116, 'the
 * file's name no longer leads to the file that was checked', where psync's
 * passes.  This job asked for the name to go too, and its open file keeps
 * the inode and its blocks until it closes; a name that leads to another
 * file is still refused.
 */
static const char *name_to_recheck(struct thread_data *td, struct fio_file *f)
{
	struct stat st;

	if (td->o.unlink && stat(f->file_name, &st) < 0 && errno == ENOENT)
		return NULL;
	return f->file_name;
}

/*
 * The cold halves of bf_authorize, out of line so that the check of every
 * I/O carries no message buffer: the periodic re-verification, and the
 * refusal of an I/O (the same check run again, this time for its reason).
 */
static __attribute__((noinline, cold)) int bf_recheck(struct thread_data *td,
						       struct fio_file *f,
						       struct bf_file *bf)
{
	char why[PATH_MAX + 1024];
	int ret;

	ret = bf_auth_recheck(&bf->auth, bf->file_fd, f->fd, name_to_recheck(td, f), why, sizeof(why));
	if (ret)
		lose_authority(td, f, bf, -ret, why);
	return -ret;
}

static __attribute__((noinline, cold)) int bf_refuse_io(struct thread_data *td,
							 struct io_u *io_u,
							 struct bf_file *bf)
{
	char why[PATH_MAX + 1024];
	size_t first = bf->auth.map.n;
	int ret;

	ret = bf_auth_io_at(&bf->auth, io_u->offset, io_u->xfer_buflen, &first,
			    why, sizeof(why));
	if (!ret) {
		/* bf_auth_io_at is a pure function of the authority: cannot happen */
		ret = -EPERM;
		snprintf(why, sizeof(why), "the check refused it once and then passed it");
	}
	pp_err(BF_ENGINE, "%s: %s at offset %llu (%llu bytes) refused: %s%s%s", io_u->file->file_name,
	       io_ddir_name(io_u->ddir), io_u->offset, io_u->xfer_buflen, why,
	       td->o.read_iolog_file ? "; the I/O is replayed from read_iolog=" : "",
	       td->o.read_iolog_file ? td->o.read_iolog_file : "");
	td_verror(td, -ret, "blkfile authority");
	return -ret;
}

/*
 * Before any piece of @io_u is submitted: is the file still what was
 * verified (lease unbroken; re-verified when a pass over the range or the
 * interval is done), and is every byte of the I/O inside the checked range
 * and in extents that allow it?  0, or the errno the I/O fails with (the
 * reason logged, naming the offset).
 */
static int bf_authorize(struct thread_data *td, struct io_u *io_u)
{
	struct blkfile_options *o = td->eo;
	struct fio_file *f = io_u->file;
	struct bf_file *bf = FILE_ENG_DATA(f);
	struct bf_authority *a = &bf->auth;
	uint64_t now;
	int ret;

	if (bf->failed)
		return bf->failed;
	if (bf->leased && bf_lease_broken(bf->file_fd, &bf->lease_seen)) {
		lose_authority(td, f, bf, EPERM,
			       "another process is truncating the file or opening it for writing (its read lease is "
			       "breaking): its blocks may be reused, so the job's device writes stop here; "
			       "that process waits until the job lets go of the file");
		return EPERM;
	}
	bf->bytes_since_check += io_u->xfer_buflen;
	now = now_ns();
	if (now >= bf->next_check_ns || bf->bytes_since_check >= a->hi - a->lo) {
		bf->next_check_ns = now + o->recheck_msec * 1000000ULL;
		bf->bytes_since_check = 0;
		ret = bf_recheck(td, f, bf);
		if (ret)
			return ret;
	}
	/* No reason wanted here: a refusal is checked again for it. */
	if (bf_auth_io_fast(a, io_u->offset, io_u->xfer_buflen, &bf->piece_hint, NULL, 0))
		return bf_refuse_io(td, io_u, bf);
	return 0;
}

/*
 * sync_file_range= names the file bytes the job wrote,
 * first_write..last_write (fio's do_sync_file_range()); on the device
 * they are at the extents' offsets, piece by piece.  0 or -1 with errno.
 */
static int sync_dev_range(struct thread_data *td, struct fio_file *f,
			  struct bf_file *bf)
{
	uint64_t off = f->first_write, end = f->last_write, dev_off, n;

	if (off == -1ULL || end == -1ULL)
		return 0;
	if (off < bf->auth.lo)
		off = bf->auth.lo;
	if (end > bf->auth.hi)
		end = bf->auth.hi;
	while (off < end) {
		n = bf_piece(bf, off, end - off, &dev_off);
		if (!n) {
			errno = EIO;
			return -1;
		}
		if (sync_file_range(f->fd, dev_off, n, td->o.sync_file_range) < 0)
			return -1;
		off += n;
	}
	return 0;
}

int bf_do_sync(struct thread_data *td, struct io_u *io_u)
{
	struct bf_file *bf = FILE_ENG_DATA(io_u->file);

	if (io_u->ddir != DDIR_SYNC_FILE_RANGE || !bf || bf->identity)
		return do_io_u_sync(td, io_u);
	if (sync_dev_range(td, io_u->file, bf) < 0) {
		io_u->error = errno;
		return -1;
	}
	return 0;
}

void bf_short_dev_io(struct io_u *io_u)
{
	struct bf_file *bf = FILE_ENG_DATA(io_u->file);

	if (!bf->short_logged) {
		bf->short_logged = 1;
		pp_err(BF_ENGINE, "%s: %s of %llu bytes at offset %llu moved %llu bytes on %s, inside the "
		       "file's extents (did the device shrink?): EIO", io_u->file->file_name,
		       io_ddir_name(io_u->ddir), io_u->xfer_buflen, io_u->offset,
		       io_u->xfer_buflen - io_u->resid, bf->dev_path);
	}
	io_u->resid = 0;
	io_u->error = EIO;
}

/*
 * Close what open_file opened: fio's own open (hashed, maybe shadowed) goes
 * back through fio's close; the device fd of via=bdev is ours.
 */
static int bf_file_free(struct thread_data *td, struct fio_file *f,
			struct bf_file *bf)
{
	int ret = 0;

	if (bf->identity && f->fd >= 0) {
		ret = generic_close_file(td, f);
	} else if (f->fd >= 0) {
		if (close(f->fd) < 0)
			ret = errno;
		f->fd = -1;
	}
	if (bf->file_fd >= 0) {
		/* Closing the file lets go of its lease too. */
		if (bf->leased)
			bf_lease_drop(bf->file_fd);
		close(bf->file_fd);
	}
	bf_auth_free(&bf->auth);
	free(bf);
	FILE_SET_ENG_DATA(f, NULL);
	return ret;
}

static int fio_blkfile_open_file(struct thread_data *td, struct fio_file *f)
{
	struct blkfile_options *o = td->eo;
	struct bf_data *bd = td->io_ops_data;
	struct bf_file *bf;
	int ret;

	bf = calloc(1, sizeof(*bf));
	if (!bf) {
		td_verror(td, ENOMEM, "blkfile open");
		return 1;
	}
	bf->file_fd = -1;
	FILE_SET_ENG_DATA(f, bf);

	if (o->via == BF_VIA_FILE || f->filetype != FIO_TYPE_FILE || !bd) {
		/*
		 * The file itself, or a whole device named as the target:
		 * fio's own open, so via=file is exactly what psync does.
		 * (fio also opens a device target before ->init, from the
		 * parent process, just to read its size.)
		 */
		bf->identity = 1;
		ret = generic_open_file(td, f);
		/*
		 * blkfile reads and writes at offsets.  On a file that cannot
		 * seek (a terminal, a socket, a pipe) psync's pread() fails
		 * with ESPIPE before a byte moved, while an io_uring read
		 * there ignores the offset and waits for input, which SIGINT
		 * does not end: refused here, as psync would fail it.
		 */
		if (!ret && bd && lseek(f->fd, 0, SEEK_CUR) < 0 && errno == ESPIPE)
			ret = refuse(td, f, ESPIPE, "not seekable (a terminal, socket or pipe): blkfile reads "
				     "and writes at offsets, which psync fails there with ESPIPE; refused "
				     "before any I/O");
	} else {
		ret = open_bdev_of_file(td, f, bf);
	}
	if (!ret && bd && bd->sub->file_opened)
		ret = bd->sub->file_opened(td, bd->priv, f);
	if (ret) {
		bf_file_free(td, f, bf);
		return 1;
	}
	return 0;
}

/*
 * The last re-verification, once per file (at close, or before fio's
 * unlink=1 removes the name): the job fails if the map did not hold to
 * the end.
 */
static void last_check(struct thread_data *td, struct fio_file *f, struct bf_file *bf)
{
	char why[PATH_MAX + 1024];
	int err;

	if (bf->identity || bf->failed || bf->unlinked)
		return;
	err = bf_auth_recheck(&bf->auth, bf->file_fd, f->fd, name_to_recheck(td, f), why, sizeof(why));
	if (err)
		lose_authority(td, f, bf, -err, why);
}

static int fio_blkfile_close_file(struct thread_data *td, struct fio_file *f)
{
	struct bf_data *bd = td->io_ops_data;
	struct bf_file *bf = FILE_ENG_DATA(f);
	int64_t stays;
	int ret = 0;

	if (!bf)
		return generic_close_file(td, f);
	if (bd && bd->sub->file_closing)
		bd->sub->file_closing(td, bd->priv, f);
	last_check(td, f, bf);
	if (bf->wrote) {
		/*
		 * The file's page cache knows nothing of what we wrote under
		 * it: get our writes to the disk, then drop its stale pages
		 * so the next read through the file sees them.
		 */
		if (fsync(f->fd) < 0) {
			/* fio 3.33 ignores what close_file returns: fail the job here. */
			ret = errno;
			pp_err(BF_ENGINE, "%s: the job's writes to %s did not reach the disk: fsync at close: %s",
			       f->file_name, bf->dev_path, strerror(ret));
			td_verror(td, ret, "blkfile close");
		}
		stays = file_pages_stay(bf->file_fd, bf->auth.map.file_size);
		if (stays >= 0) {
			ret = ret ?: EBUSY;
			pp_err(BF_ENGINE, "%s: its page at offset %lld stayed in the page cache after the job's device "
			       "writes (mapped by another process?): reads through the file show the old bytes there, "
			       "and a write-back of that page would undo the job's", f->file_name, (long long)stays);
			td_verror(td, EBUSY, "blkfile close");
		}
	}
	return bf_file_free(td, f, bf) ?: ret;
}

/*
 * fio's unlink=1 removes the name before it closes the file
 * (close_and_free_files()), after the job's last I/O: the last
 * re-verification, which checks that the name still leads to the file the
 * device I/O went to, is run here, before the name goes, not at close.
 */
static int fio_blkfile_unlink_file(struct thread_data *td, struct fio_file *f)
{
	struct bf_file *bf = fio_file_open(f) ? FILE_ENG_DATA(f) : NULL;

	if (bf) {
		last_check(td, f, bf);
		bf->unlinked = 1;
	}
	if (unlink(f->file_name) < 0)
		return errno;
	return 0;
}

/*
 * fio's invalidate=1: drop the cached pages of the bytes the job will
 * touch, on the path it will touch them (the device's page cache at the
 * file's extents for via=bdev, rounded out to whole pages; the file's own
 * cache too, so neither side of a comparison starts warm).  For via=bdev
 * that is the range checked at open, auth.lo..auth.hi, not fio's
 * file_offset..+io_size: a replayed read_iolog (io_size 0), the zones of
 * zonemode=strided past offset + size and the last I/O's overrun go
 * there too, and a device page left there may be older than the file.
 */
static int fio_blkfile_invalidate(struct thread_data *td, struct fio_file *f)
{
	struct bf_file *bf = FILE_ENG_DATA(f);
	char why[PATH_MAX + 512];
	int64_t stays;
	int ret;

	/*
	 * The file itself, or a whole device: what fio's own invalidation
	 * (filesetup.c, __file_invalidate_cache(), which this hook replaces)
	 * does there, as psync.  A device is flushed and dropped whole
	 * (BLKFLSBUF: its dirty pages written first, so none stays), where
	 * POSIX_FADV_DONTNEED skipped the pages still under write-back: a
	 * read job after a buffered write of the device read them from the
	 * cache (up to 9 MiB of 64 here) where psync read the disk.
	 */
	if ((!bf || bf->identity) && f->filetype == FIO_TYPE_BLOCK)
		return blockdev_invalidate_cache(f) < 0 ? -errno : 0;
	if (!bf || bf->identity)
		return -posix_fadvise(f->fd, f->file_offset, f->io_size,
				      POSIX_FADV_DONTNEED);
	posix_fadvise(bf->file_fd, bf->auth.lo, bf->auth.hi - bf->auth.lo, POSIX_FADV_DONTNEED);
	ret = drop_dev_pages(f, bf, bf->auth.lo, bf->auth.hi, &stays);
	/* direct=1 reads and writes the disk: a page that stays is not read */
	if (ret == -EBUSY && (td->o.odirect || other_bdev_job(bf)))
		ret = 0;	/* or another job's page: see other_bdev_job() */
	if (ret) {
		/* fio only warns when invalidation fails: the job must fail. */
		dev_pages_why(bf, ret, stays, why, sizeof(why));
		pp_err(BF_ENGINE, "%s: invalidate=1: %s", f->file_name, why);
		td_verror(td, -ret, "blkfile invalidate");
	}
	return ret;
}

PP_EXPORT struct ioengine_ops ioengine = {
	.name			= BF_ENGINE,
	.version		= FIO_IOOPS_VERSION,
	.setup			= fio_blkfile_setup,
	.init			= fio_blkfile_init,
	.post_init		= fio_blkfile_post_init,
	.io_u_init		= fio_blkfile_io_u_init,
	.io_u_free		= fio_blkfile_io_u_free,
	.queue			= fio_blkfile_queue,
	.commit			= fio_blkfile_commit,
	.getevents		= fio_blkfile_getevents,
	.event			= fio_blkfile_event,
	.cleanup		= fio_blkfile_cleanup,
	.open_file		= fio_blkfile_open_file,
	.close_file		= fio_blkfile_close_file,
	.invalidate		= fio_blkfile_invalidate,
	.unlink_file		= fio_blkfile_unlink_file,
	.get_file_size		= generic_get_file_size,
	.options		= options,
	.option_struct_size	= sizeof(struct blkfile_options),
};
