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

#include "engines/common/enumtab.h"
#include "engines/sim/params.h"

struct sim_options {
	unsigned int time_scale;
	unsigned int lag_warn_ms;
	char *report;
	unsigned int kernel_ra;		/* enum sim_ra for coop_ra=kernel */
	struct sim_params p;		/* numeric + sched/order; coop fills the rest */
	/* the enum options as written (fio stores and frees them; see PP_ENUM_OPT_CB) */
	char *kernel_ra_str, *order_str, *sched_str, *client_sched_str;
};

/*
 * The option callbacks (PP_UINT_OPT_CB(): values that do not fit an
 * unsigned int are refused, not wrapped, and set T's opt_refused).
 * The enum options are PP_ENUM_OPT_CB()'s, matched against @opts, the
 * engine's option table.  SIM_FIO_OPTION_CBS(T, M, opts) goes before the
 * option table that holds SIM_FIO_OPTIONS(T, M).
 */
#define SIM_FIO_UCB(T, M, f, dv, hlp)					\
	PP_UINT_OPT_CB(sim_opt_##f##_cb, "coop", "sim_" #f, T, M.p.f, opt_refused)

#define SIM_FIO_OPTION_CBS(T, M, opts)					\
	SIM_UPARAMS(SIM_FIO_UCB, T, M)					\
	PP_ENUM_OPT_CB(sim_opt_kernel_ra_cb, "coop", opts, "sim_kernel_ra", \
		       T, M.kernel_ra)					\
	PP_ENUM_OPT_CB(sim_opt_order_cb, "coop", opts, "sim_order", T, M.p.order) \
	PP_ENUM_OPT_CB(sim_opt_sched_cb, "coop", opts, "sim_sched", T, M.p.sched) \
	PP_ENUM_OPT_CB(sim_opt_client_sched_cb, "coop", opts, "sim_client_sched", \
		       T, M.p.client_sched)				\
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

#define SIM_FIO_SCHED_OPT(T, M, f, nm, hlp)				\
	{								\
		.name = nm,						\
		.lname = nm,						\
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.f##_str),				\
		.cb = sim_opt_##f##_cb,					\
		.help = hlp,						\
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
		.type = FIO_OPT_STR_STORE,				\
		.off1 = offsetof(T, M.kernel_ra_str),			\
		.cb = sim_opt_kernel_ra_cb,				\
		.help = "Target readahead when coop_ra=kernel",		\
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
		.help = "SCST command execution: simple (concurrent) or ordered (one at a time, in order)", \
		.def = PP_ENUM_DEFAULT(SIM_ORDERS),			\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
		.posval = { SIM_ORDERS(PP_POSVAL) },			\
	},								\
	SIM_FIO_SCHED_OPT(T, M, sched, "sim_sched",			\
			  "I/O scheduler of the target disk"),		\
	SIM_FIO_SCHED_OPT(T, M, client_sched, "sim_client_sched",	\
			  "I/O scheduler of the initiator's iSCSI disk")

#endif
