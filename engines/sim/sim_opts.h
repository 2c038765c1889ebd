/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's engine options (sim_*).  They live in the coop engine's option
 * struct as member 'sim' and are listed in coop's option table by
 * SIM_FIO_OPTIONS(struct coop_options, sim), so `fio --enghelp` shows them
 * with coop's.  Include after "fio.h" and "optgroup.h".
 *
 * (Initial version: the model's owner extends this with every parameter.)
 */
#ifndef PERFPACK_SIM_OPTS_H
#define PERFPACK_SIM_OPTS_H

struct sim_options {
	unsigned int time_scale;
};

#define SIM_FIO_OPTIONS(type, m)						\
	{								\
		.name = "sim_time_scale",				\
		.lname = "Model time scale",				\
		.type = FIO_OPT_INT,					\
		.off1 = offsetof(type, m.time_scale),			\
		.help = "Run the model this many times faster than modeled time", \
		.def = "1",						\
		.minval = 1,						\
		.category = FIO_OPT_C_ENGINE,				\
		.group = FIO_OPT_G_INVALID,				\
	}

#endif
