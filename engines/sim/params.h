/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every knob of the 2009 SCST testbed model, in plain C (no fio).  The
 * defaults describe the setup of seed 001 and say where they come from; the
 * coop engine's fio options (engines/coop/sim_opts.h) fill this struct.
 */
#ifndef PERFPACK_SIM_PARAMS_H
#define PERFPACK_SIM_PARAMS_H

#include <stddef.h>

#include "engines/common/enumtab.h"
#include "engines/sim/params_list.h"

/*
 * The I/O schedulers (id, sysfs name, one-line description), once.  The
 * default of both disks is CFQ (Debian lenny's elevator, the thread's
 * target), the table's first row (PP_ENUM_DEFAULT gives the options' .def).
 */
#define SIM_SCHED_DEFAULT	SIM_SCHED_CFQ
#define SIM_SCHEDS(X)							\
	X(SIM_SCHED_CFQ, "cfq", "CFQ of 2.6.29: a queue per io_context, idling")	\
	X(SIM_SCHED_DEADLINE, "deadline", "deadline: sorted batches + FIFO expiry")	\
	X(SIM_SCHED_NOOP, "noop", "noop: FIFO with merging")
enum sim_sched { SIM_SCHEDS(PP_ENUM_ID) };
/*
 * The model's readahead (sim_kernel_ra= offers the kernel ones; the
 * parameter "ra" all three) and command order (sim_order=, "order"):
 * X(id, name, help), the one table of their names.
 */
#define SIM_KERNEL_RAS(X)						\
	X(SIM_RA_CLASSIC, "classic", "2.6.29: per-struct-file sequential detection") \
	X(SIM_RA_CONTEXT, "context", "2.6.31: context readahead from cached history")
#define SIM_RAS(X)							\
	SIM_KERNEL_RAS(X)						\
	X(SIM_RA_OFF, "off", "no readahead (coop_ra=off)")
#define SIM_ORDERS(X)							\
	X(SIM_ORDER_SIMPLE, "simple",					\
	  "SIMPLE task attribute: threads run commands concurrently")	\
	X(SIM_ORDER_ORDERED, "ordered",					\
	  "forced in-order execution: next command starts when the previous ends")
enum sim_ra { SIM_RAS(PP_ENUM_ID) };
enum sim_order { SIM_ORDERS(PP_ENUM_ID) };

/* value names, index = enum value, NULL-terminated */
extern const char *const sim_sched_names[];
extern const char *const sim_ra_names[];

/*
 * Every knob of the model: the numeric parameters of params_list.h (one
 * unsigned int each, default and provenance there), then what the coop
 * options and the enum options set.
 */
struct sim_params {
#define SIM_PARAM_FIELD(a, b, f, dv, help) unsigned int f;
	SIM_UPARAMS(SIM_PARAM_FIELD, 0, 0)
#undef SIM_PARAM_FIELD
	unsigned int threads;			/* coop_threads: SCST I/O threads */
	int dispatch_rr;			/* coop_dispatch: 0 shared list (SCST), 1 cmd k -> thread k%N */
	int fd_shared;				/* coop_fd: 1 = one struct file for all threads */
	int ioctx_shared;			/* coop_ioctx: 1 = the io_context patch */
	int server_ra;				/* coop_ra / sim_kernel_ra: enum sim_ra */
	int order;				/* sim_order: enum sim_order */
	int sched;				/* sim_sched: target disk, enum sim_sched */
	int client_sched;			/* sim_client_sched: initiator, enum sim_sched */
};

void sim_params_default(struct sim_params *p);
/* 0, or -1 with a message naming the culprit in err. */
int sim_params_check(const struct sim_params *p, char *err, size_t errlen);
const char *sim_sched_name(int s);
const char *sim_ra_name(int r);



/*
 * Set one parameter by its option name without the "sim_"/"coop_" prefix
 * (e.g. "client_ra_kb", "sched", "ioctx"); for host tools.  0 or -1 + err.
 */
int sim_params_set(struct sim_params *p, const char *name, const char *val,
		   char *err, size_t errlen);
#endif
