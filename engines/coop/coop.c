// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio-coop.so: a pool of cooperating I/O threads serving one stream.
 *
 * fio's side of the engine: the coop_* options, the ABI guard, opening and
 * closing files, and handing queue/getevents/event/cleanup to the backend
 * chosen by coop_backend= (the real pool, psync or uring, in pool_fio.c;
 * the 2009 testbed model in backend_sim.c).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fio.h"
#include "optgroup.h"
#include "engines/common/pp.h"
#include "engines/coop/backend.h"
#include "engines/coop/coop.h"

struct coop_data {
	const struct coop_backend_ops *be;
	void *priv;
};

static struct fio_option options[];

/* Enum options: engines/common/pp.h's PP_ENUM_OPT_CB idiom. */
#define COOP_ENUM_CB(field)						\
	PP_ENUM_OPT_CB(str_##field##_cb, "coop", options, "coop_" #field, \
		       struct coop_options, field)
COOP_ENUM_CB(dispatch)
COOP_ENUM_CB(fd)
COOP_ENUM_CB(ioctx)
COOP_ENUM_CB(ra)
COOP_ENUM_CB(backend)
/* Numbers and booleans parsed whole (pp.h, PP_UINT_STR_OPT_CB: fio splits "2-3"). */
PP_UINT_STR_OPT_CB(threads_cb, "coop", "coop_threads", struct coop_options, threads,
		   COOP_MIN_THREADS, COOP_MAX_THREADS)
PP_UINT_STR_OPT_CB(ra_kb_parse, "coop", "coop_ra_kb", struct coop_options, ra_kb, 0, UINT_MAX)
PP_UINT_STR_OPT_CB(split_kb_cb, "coop", "coop_split_kb", struct coop_options, split_kb, 0, UINT_MAX)
SIM_FIO_OPTION_CBS(struct coop_options, sim, options)

/* Note that the job set @bit's option itself (coop.h, COOP_OPT_GIVEN). */
static void note_given(struct coop_options *o, unsigned int bit)
{
	if (COOP_OPT_GIVEN(o))
		o->given |= bit;
}

static int ra_kb_cb(void *data, const char *v)
{
	note_given(data, COOP_GIVEN_RA_KB);
	return ra_kb_parse(data, v);
}

/* A boolean: "0" or "1" parsed whole (pp_opt_uint_str()), and noted as given. */
#define COOP_BOOL_CB(field, bit, optname)				\
static int field##_cb(void *data, const char *v)			\
{									\
	struct coop_options *o_ = data;					\
									\
	if (pp_opt_uint_str("coop", (optname), v, 0, 1, &o_->field))	\
		return 1;						\
	note_given(o_, bit);						\
	return 0;							\
}
COOP_BOOL_CB(stats, COOP_GIVEN_STATS, "coop_stats")
COOP_BOOL_CB(coalesce, COOP_GIVEN_COALESCE, "coop_coalesce")
COOP_BOOL_CB(inline_cmds, COOP_GIVEN_INLINE, "coop_inline")

static struct fio_option options[] = {
	{
		.name	= "coop_threads",
		.lname	= "coop worker threads",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, threads_str),
		.cb	= threads_cb,
		.help	= "Worker threads in each job's pool, " PP_STR(COOP_MIN_THREADS)
			  ".." PP_STR(COOP_MAX_THREADS),
		.def	= PP_STR(COOP_DEFAULT_THREADS),
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_dispatch",
		.lname	= "coop dispatch policy",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, dispatch_str),
		.cb	= str_dispatch_cb,
		.help	= "How commands reach workers",
		.def	= PP_ENUM_DEFAULT(COOP_DISPATCHES),
		.posval	= {
			COOP_DISPATCHES(PP_POSVAL)
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_fd",
		.lname	= "coop file descriptors",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, fd_str),
		.cb	= str_fd_cb,
		.help	= "Whether workers share one open file",
		.def	= PP_ENUM_DEFAULT(COOP_FDS),
		.posval	= {
			COOP_FDS(PP_POSVAL)
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_ioctx",
		.lname	= "coop io_context",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, ioctx_str),
		.cb	= str_ioctx_cb,
		.help	= "Whether workers share one kernel io_context",
		.def	= PP_ENUM_DEFAULT(COOP_IOCTXS),
		.posval	= {
			COOP_IOCTXS(PP_POSVAL)
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_ra",
		.lname	= "coop readahead",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, ra_str),
		.cb	= str_ra_cb,
		.help	= "Who reads ahead for the stream",
		.def	= PP_ENUM_DEFAULT(COOP_RAS),
		.posval	= {
			COOP_RAS(PP_POSVAL)
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_ra_kb",
		.lname	= "coop readahead window",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, ra_kb_str),
		.cb	= ra_kb_cb,
		.help	= "Largest coop_ra=context window in KiB (windows double up to it; psync and uring only)",
		.def	= "512",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_split_kb",
		.lname	= "coop split size",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, split_kb_str),
		.cb	= split_kb_cb,
		.help	= "Cut each I/O into commands of at most this many KiB (0: no split; sim: initiator max_sectors_kb)",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_backend",
		.lname	= "coop backend",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, backend_str),
		.cb	= str_backend_cb,
		.help	= "How workers do I/O",
		.def	= PP_ENUM_DEFAULT(COOP_BACKENDS),
		.posval	= {
			COOP_BACKENDS(PP_POSVAL)
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_stats",
		.lname	= "coop statistics",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, stats_str),
		.cb	= stats_cb,
		.help	= "Per-worker and per-device statistics at the job's end (psync, uring; the model has its own report)",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_coalesce",
		.lname	= "coop completion coalescing",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, coalesce_str),
		.cb	= coalesce_cb,
		.help	= "Wake the job's thread when half the iodepth is done, not for every completion (psync, uring)",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "coop_inline",
		.lname	= "coop caller-runs",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct coop_options, inline_cmds_str),
		.cb	= inline_cmds_cb,
		.help	= "Caller-runs (psync): the job's thread runs commands itself where no worker could differ (README)",
		.def	= "1",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	SIM_FIO_OPTIONS(struct coop_options, sim),
	{
		.name	= NULL,
	},
};

/*
 * Options the job set that do nothing in its mix.  One job file may serve
 * both the model and the real pool (profiles/scst-coop: coop_backend=
 * ${BACKEND} beside its sim_* options), so they are not refused; each is
 * named, once per job, so that nobody believes it shaped what was measured.
 */
static void note_no_effect(struct thread_data *td, const struct coop_options *o)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} model_ignores[] = {
		{ COOP_GIVEN_RA_KB, "coop_ra_kb" },
		{ COOP_GIVEN_STATS, "coop_stats" },
		{ COOP_GIVEN_COALESCE, "coop_coalesce" },
		{ COOP_GIVEN_INLINE, "coop_inline" },
	};
	unsigned int i;

	if (o->backend != COOP_BACKEND_SIM) {
		if (o->sim.given)
			pp_err("coop", "%s: %s (as every sim_* option) configures coop_backend=sim's "
			       "model: no effect with coop_backend=%s", td->o.name, o->sim.given,
			       o->backend_str);
		if ((o->given & COOP_GIVEN_RA_KB) && o->ra != COOP_RA_CONTEXT)
			pp_err("coop", "%s: coop_ra_kb has no effect with coop_ra=%s (only with context)",
			       td->o.name, o->ra_str);
		return;
	}
	for (i = 0; i < sizeof(model_ignores) / sizeof(model_ignores[0]); i++)
		if (o->given & model_ignores[i].bit)
			pp_err("coop", "%s: %s has no effect with coop_backend=sim (the model "
			       "does not read it)", td->o.name, model_ignores[i].name);
}

static int fio_coop_init(struct thread_data *td)
{
	struct coop_options *o = td->eo;
	struct coop_data *cd;
	int ret;

	if (pp_abi_check(td, "coop"))
		return 1;
	note_no_effect(td, o);
	cd = calloc(1, sizeof(*cd));
	if (!cd) {
		td_verror(td, ENOMEM, "coop init");
		return 1;
	}
	cd->be = o->backend == COOP_BACKEND_SIM ? &coop_sim_backend :
						  &coop_pool_backend;
	ret = cd->be->init(td, o, &cd->priv);
	if (ret) {
		if (!td->error)
			td_verror(td, ret, "coop init");
		free(cd);
		return 1;
	}
	td->io_ops_data = cd;
	return 0;
}

static void fio_coop_cleanup(struct thread_data *td)
{
	struct coop_data *cd = td->io_ops_data;

	if (!cd)
		return;
	if (cd->be->cleanup)
		cd->be->cleanup(td, cd->priv);
	free(cd);
	td->io_ops_data = NULL;
}

/*
 * fio 3.33 frees the io_us and their buffers (cleanup_io_u()) before the
 * engine's cleanup, and a replayed read_iolog at iodepth > 1 ends with its
 * last I/O still queued, never reaped: the workers then read into freed
 * memory, and fio died at exit ('free(): corrupted unsorted chunks',
 * SIGSEGV), a third of the runs.  Every command finishes before the first
 * io_u goes.
 */
static void fio_coop_io_u_free(struct thread_data *td, struct io_u *io_u)
{
	struct coop_data *cd = td->io_ops_data;

	(void)io_u;
	if (cd && cd->be->quiesce)
		cd->be->quiesce(td, cd->priv);
}

static enum fio_q_status fio_coop_queue(struct thread_data *td, struct io_u *io_u)
{
	struct coop_data *cd = td->io_ops_data;

	fio_ro_check(td, io_u);
	return cd->be->queue(td, cd->priv, io_u);
}

static int fio_coop_getevents(struct thread_data *td, unsigned int min,
			      unsigned int max, const struct timespec *t)
{
	struct coop_data *cd = td->io_ops_data;

	return cd->be->getevents(td, cd->priv, min, max, t);
}

static struct io_u *fio_coop_event(struct thread_data *td, int ev)
{
	struct coop_data *cd = td->io_ops_data;

	return cd->be->event(td, cd->priv, ev);
}

static int fio_coop_open_file(struct thread_data *td, struct fio_file *f)
{
	struct coop_data *cd = td->io_ops_data;
	int ret;

	ret = generic_open_file(td, f);
	/* fio opens block devices to size them before the engine's init. */
	if (ret || !cd || !cd->be->open_file)
		return ret;
	ret = cd->be->open_file(td, cd->priv, f);
	if (ret && generic_close_file(td, f))
		pp_err("coop", "%s: close after a failed open also failed", f->file_name);
	return ret;
}

static int fio_coop_close_file(struct thread_data *td, struct fio_file *f)
{
	struct coop_data *cd = td->io_ops_data;

	if (cd && cd->be->close_file)
		cd->be->close_file(td, cd->priv, f);
	return generic_close_file(td, f);
}

PP_EXPORT struct ioengine_ops ioengine = {
	.name			= "coop",
	.version		= FIO_IOOPS_VERSION,
	/* queue() is the pool's single producer: no io_submit_mode=offload. */
	.flags			= FIO_NO_OFFLOAD,
	.init			= fio_coop_init,
	.cleanup		= fio_coop_cleanup,
	.io_u_free		= fio_coop_io_u_free,
	.queue			= fio_coop_queue,
	.getevents		= fio_coop_getevents,
	.event			= fio_coop_event,
	.open_file		= fio_coop_open_file,
	.close_file		= fio_coop_close_file,
	.get_file_size		= generic_get_file_size,
	.options		= options,
	.option_struct_size	= sizeof(struct coop_options),
};
