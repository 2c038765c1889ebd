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

#include "engines/sim/params.h"

struct sim_options {
	unsigned int time_scale;
	unsigned int lag_warn_ms;
	char *report;
	unsigned int kernel_ra;		/* enum sim_ra for coop_ra=kernel */
	struct sim_params p;		/* numeric + sched/order; coop fills the rest */
};

/*
 * The option callbacks (PP_UINT_OPT_CB(): values that do not fit an
 * unsigned int are refused, not wrapped, and set T's opt_refused).
 * SIM_FIO_OPTION_CBS(T, M) goes before the option table that holds
 * SIM_FIO_OPTIONS(T, M).
 */
#define SIM_FIO_UCB(T, M, f, dv, hlp)					\
	PP_UINT_OPT_CB(sim_opt_##f##_cb, "coop", "sim_" #f, T, M.p.f, opt_refused)

#define SIM_FIO_OPTION_CBS(T, M)					\
	SIM_UPARAMS(SIM_FIO_UCB, T, M)					\
	PP_UINT_OPT_CB(sim_opt_time_scale_cb, "coop", "sim_time_scale",	\
		       T, M.time_scale, opt_refused)			\
	PP_UINT_OPT_CB(sim_opt_lag_warn_ms_cb, "coop", "sim_lag_warn_ms", \
		       T, M.lag_warn_ms, opt_refused)

#define SIM_FIO_UOPT(T, M, f, dv, hlp)					\
	{								\
		.name = "sim_" #f,					\
		.lname = "Model " #f,					\
		.type = FIO_OPT_INT,					\
		.off1 = offsetof(T, M.p.f),				\
		.cb = sim_opt_##f##_cb,					\
		.help = hlp,						\
		.def = PP_STR(dv),				\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},

#define SIM_FIO_POSVAL(id, nm, hlp) { .ival = nm, .oval = id, .help = hlp },

#define SIM_FIO_SCHED_OPT(T, M, f, nm, hlp)				\
	{								\
		.name = nm,						\
		.lname = nm,						\
		.type = FIO_OPT_STR,					\
		.off1 = offsetof(T, M.p.f),				\
		.help = hlp,						\
		.def = SIM_SCHED_DEFAULT_NAME,				\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = { SIM_SCHEDS(SIM_FIO_POSVAL) },		\
	}

#define SIM_FIO_OPTIONS(T, M)						\
	SIM_UPARAMS(SIM_FIO_UOPT, T, M)					\
	{								\
		.name = "sim_time_scale",				\
		.lname = "Model time scale",				\
		.type = FIO_OPT_INT,					\
		.off1 = offsetof(T, M.time_scale),			\
		.cb = sim_opt_time_scale_cb,				\
		.help = "Run the model this many times faster than modeled time (fiotab divides rates by it)", \
		.def = "1",						\
		.minval = 1,						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},								\
	{								\
		.name = "sim_lag_warn_ms",				\
		.lname = "Model lag warning",				\
		.type = FIO_OPT_INT,					\
		.off1 = offsetof(T, M.lag_warn_ms),			\
		.cb = sim_opt_lag_warn_ms_cb,				\
		.help = "Warn when real time falls this far (ms) behind the paced schedule", \
		.def = "100",						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},								\
	{								\
		.name = "sim_report",					\
		.lname = "Model report file",				\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.report),			\
		.help = "Append the per-job model report (modeled time, MB/s, counters) to this file", \
		.def = "",						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	},								\
	{								\
		.name = "sim_kernel_ra",				\
		.lname = "Model kernel readahead",			\
		.type = FIO_OPT_STR,					\
		.off1 = offsetof(T, M.kernel_ra),			\
		.help = "Target readahead when coop_ra=kernel",		\
		.def = "classic",					\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = {						\
			{ .ival = "classic", .oval = SIM_RA_CLASSIC,	\
			  .help = "2.6.29: per-struct-file sequential detection" }, \
			{ .ival = "context", .oval = SIM_RA_CONTEXT,	\
			  .help = "2.6.31: context readahead from cached history" }, \
		},							\
	},								\
	{								\
		.name = "sim_order",					\
		.lname = "Model command order",				\
		.type = FIO_OPT_STR,					\
		.off1 = offsetof(T, M.p.order),			\
		.help = "SCST command execution: simple (concurrent) or ordered (one at a time, in order)", \
		.def = "simple",					\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = {						\
			{ .ival = "simple", .oval = SIM_ORDER_SIMPLE,	\
			  .help = "SIMPLE task attribute: threads run commands concurrently" }, \
			{ .ival = "ordered", .oval = SIM_ORDER_ORDERED,	\
			  .help = "forced in-order execution: next command starts when the previous ends" }, \
		},							\
	},								\
	SIM_FIO_SCHED_OPT(T, M, sched, "sim_sched",			\
			  "I/O scheduler of the target disk"),		\
	SIM_FIO_SCHED_OPT(T, M, client_sched, "sim_client_sched",	\
			  "I/O scheduler of the initiator's iSCSI disk")

#endif
