/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's fio options (sim_*), kept with the engine: engines/sim/ has
 * no fio header.  They live in the coop engine's option
 * struct as member 'sim' and are listed in coop's option table by
 * SIM_FIO_OPTIONS(struct coop_options, sim), so `fio --enghelp` shows them
 * with coop's.  Include after "fio.h", "optgroup.h" and
 * "engines/common/pp.h".
 *
 * Options that coop already has keep their coop_ name and meaning in the
 * model: coop_threads (SCST threads), coop_dispatch, coop_fd (per-thread
 * struct file = per-thread readahead state), coop_ioctx (the io_context
 * patch: one CFQ queue), coop_ra (kernel = sim_kernel_ra, off, context).
 */
#ifndef PERFPACK_SIM_OPTS_H
#define PERFPACK_SIM_OPTS_H

#include <limits.h>

#include "engines/common/enumtab.h"
#include "engines/sim/params.h"

/*
 * A slot per option whose being set matters beyond "some sim_* option":
 * the numeric parameters (SIM_UPARAMS' order) and sim_kernel_ra.
 * backend_sim.c names those that do nothing in the job's mix.
 */
#define SIM_FIO_IDX(a, b, f, dv, hlp) SIM_OPT_##f,
#define SIM_FIO_NAME(a, b, f, dv, hlp) "sim_" #f,
enum sim_opt_idx { SIM_UPARAMS(SIM_FIO_IDX, 0, 0) SIM_OPT_kernel_ra, SIM_OPT_N };

struct sim_options {
	unsigned int time_scale;
	unsigned int lag_warn_ms;
	char *report;
	unsigned int kernel_ra;		/* enum sim_ra for coop_ra=kernel */
	const char *given;		/* "sim_NAME": the first one the job set (coop.h) */
	unsigned char set[SIM_OPT_N];	/* which of those the job set (enum sim_opt_idx) */
	struct sim_params p;		/* numeric + sched/order; coop fills the rest */
	/* the enum options as written (fio stores and frees them; see PP_ENUM_OPT_CB) */
	char *kernel_ra_str, *order_str, *sched_str, *client_sched_str;
	/* the numbers as written (PP_UINT_STR_OPT_CB; the parameters by enum sim_opt_idx) */
	char *num_str[SIM_OPT_N], *time_scale_str, *lag_warn_ms_str;
};

/*
 * The option callbacks (PP_UINT_STR_OPT_CB(): the value parsed whole, so
 * ranges, lists, signs and values past 32 bits are refused, not split or
 * wrapped).
 * The enum options are PP_ENUM_OPT_CB()'s, matched against @opts, the
 * engine's option table.  Each one, wrapped by SIM_FIO_GIVEN_CB(), also
 * records in M.given the name of the first sim_* option the job set
 * itself (T's COOP_OPT_GIVEN()): with another coop_backend it has no
 * effect, which the engine says; and, for those with a slot (@idx, -1
 * for none), M.set[@idx].  SIM_FIO_OPTION_CBS(T, M, opts) goes
 * before the option table that holds SIM_FIO_OPTIONS(T, M).
 */
#define SIM_FIO_GIVEN_CB(fn, argtype, T, M, optname, idx)		\
static int fn(void *data, argtype v)					\
{									\
	T *o_ = data;							\
	int i_ = (idx);							\
									\
	if (COOP_OPT_GIVEN(o_)) {					\
		if (!o_->M.given)					\
			o_->M.given = (optname);			\
		if (i_ >= 0)						\
			o_->M.set[i_] = 1;				\
	}								\
	return fn##_parse(data, v);					\
}

#define SIM_FIO_UINT_CB(T, M, fn, optname, member, idx)			\
	PP_UINT_STR_OPT_CB(fn##_parse, "coop", optname, T, member, 0, UINT_MAX) \
	SIM_FIO_GIVEN_CB(fn, const char *, T, M, optname, idx)

/* The same with bounds, refused with the engine's name (pp.h). */
#define SIM_FIO_URANGE_CB(T, M, fn, optname, member, idx, min, max)	\
	PP_UINT_STR_OPT_CB(fn##_parse, "coop", optname, T, member, min, max) \
	SIM_FIO_GIVEN_CB(fn, const char *, T, M, optname, idx)

#define SIM_FIO_ENUM_CB(T, M, opts, fn, optname, member, idx)		\
	PP_ENUM_OPT_CB(fn##_parse, "coop", opts, optname, T, member)	\
	SIM_FIO_GIVEN_CB(fn, const char *, T, M, optname, idx)

#define SIM_FIO_UCB(T, M, f, dv, hlp)					\
	SIM_FIO_UINT_CB(T, M, sim_opt_##f##_cb, "sim_" #f, M.p.f, SIM_OPT_##f)

/*
 * sim_report is stored by fio; its callback records it, and refuses a
 * value fio mangled (pp_opt_blank(): "sim_report = r.txt" in a job file
 * arrives as " r.txtt", a file the job did not name).
 */
#define SIM_FIO_REPORT_CB(T, M)						\
static int sim_opt_report_cb_parse(void *data, const char *v)		\
{									\
	(void)data;							\
	return pp_opt_blank("coop", "sim_report", v);			\
}									\
SIM_FIO_GIVEN_CB(sim_opt_report_cb, const char *, T, M, "sim_report", -1)

#define SIM_FIO_OPTION_CBS(T, M, opts)					\
	SIM_UPARAMS(SIM_FIO_UCB, T, M)					\
	SIM_FIO_ENUM_CB(T, M, opts, sim_opt_kernel_ra_cb, "sim_kernel_ra", M.kernel_ra, \
			SIM_OPT_kernel_ra)				\
	SIM_FIO_ENUM_CB(T, M, opts, sim_opt_order_cb, "sim_order", M.p.order, -1) \
	SIM_FIO_ENUM_CB(T, M, opts, sim_opt_sched_cb, "sim_sched", M.p.sched, -1) \
	SIM_FIO_ENUM_CB(T, M, opts, sim_opt_client_sched_cb, "sim_client_sched", \
			M.p.client_sched, -1)				\
	SIM_FIO_URANGE_CB(T, M, sim_opt_time_scale_cb, "sim_time_scale", M.time_scale, -1, \
			  1, UINT_MAX)					\
	SIM_FIO_UINT_CB(T, M, sim_opt_lag_warn_ms_cb, "sim_lag_warn_ms", M.lag_warn_ms, -1) \
	SIM_FIO_REPORT_CB(T, M)

/* Every sim_* option's help says what it configures: nothing else reads it. */
#define SIM_FIO_HELP(hlp) "coop_backend=sim's model: " hlp

#define SIM_FIO_UOPT(T, M, f, dv, hlp)					\
	{								\
		.name = "sim_" #f,					\
		.lname = "Model " #f,					\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.num_str[SIM_OPT_##f]),		\
		.cb = sim_opt_##f##_cb,					\
		.help = SIM_FIO_HELP(hlp),						\
		.def = PP_STR(dv),				\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},

#define SIM_FIO_SCHED_OPT(T, M, f, nm, hlp)				\
	{								\
		.name = nm,						\
		.lname = nm,						\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.f##_str),				\
		.cb = sim_opt_##f##_cb,					\
		.help = SIM_FIO_HELP(hlp),						\
		.def = PP_ENUM_DEFAULT(SIM_SCHEDS),			\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = { SIM_SCHEDS(PP_POSVAL) },		\
	}

#define SIM_FIO_OPTIONS(T, M)						\
	SIM_UPARAMS(SIM_FIO_UOPT, T, M)					\
	{								\
		.name = "sim_time_scale",				\
		.lname = "Model time scale",				\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.time_scale_str),			\
		.cb = sim_opt_time_scale_cb,				\
		.help = SIM_FIO_HELP("Run the model this many times faster than modeled time (fiotab divides rates by it)"), \
		.def = "1",						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},								\
	{								\
		.name = "sim_lag_warn_ms",				\
		.lname = "Model lag warning",				\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.lag_warn_ms_str),			\
		.cb = sim_opt_lag_warn_ms_cb,				\
		.help = SIM_FIO_HELP("Warn when real time falls this far (ms) behind the paced schedule"), \
		.def = "100",						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},								\
	{								\
		.name = "sim_report",					\
		.lname = "Model report file",				\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.report),			\
		.cb = sim_opt_report_cb,				\
		.help = SIM_FIO_HELP("Append the per-job model report (modeled time, MB/s, counters) to this file"), \
		.def = "",						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},								\
	{								\
		.name = "sim_kernel_ra",				\
		.lname = "Model kernel readahead",			\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.kernel_ra_str),			\
		.cb = sim_opt_kernel_ra_cb,				\
		.help = SIM_FIO_HELP("Target readahead when coop_ra=kernel (classic: 2.6.29 mm/readahead.c ondemand_readahead(); context: SCST readahead-context-2.6.29.patch)"),		\
		.def = PP_ENUM_DEFAULT(SIM_KERNEL_RAS),		\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = { SIM_KERNEL_RAS(PP_POSVAL) },		\
	},								\
	{								\
		.name = "sim_order",					\
		.lname = "Model command order",				\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.order_str),			\
		.cb = sim_opt_order_cb,					\
		.help = SIM_FIO_HELP("SCST command execution: simple (concurrent: 2.6.26 libiscsi.c sends ISCSI_ATTR_SIMPLE) or ordered (one at a time, in order: the later test the thread asked for)"), \
		.def = PP_ENUM_DEFAULT(SIM_ORDERS),			\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = { SIM_ORDERS(PP_POSVAL) },			\
	},								\
	SIM_FIO_SCHED_OPT(T, M, sched, "sim_sched",			\
			  "I/O scheduler of the target disk (the thread: CFQ)"),		\
	SIM_FIO_SCHED_OPT(T, M, client_sched, "sim_client_sched",	\
			  "I/O scheduler of the initiator's iSCSI disk (CONFIG_DEFAULT_IOSCHED of Debian lenny's kernel: cfq; not in the sources)")

#endif
