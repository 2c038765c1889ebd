// SPDX-License-Identifier: GPL-2.0-only
/*
 * coop_backend=sim: placeholder until the model (engines/sim/) is wired in.
 * It refuses at init with a clear message, so a job never runs half a model.
 */
#include <errno.h>

#include "fio.h"
#include "engines/common/pp.h"
#include "engines/coop/backend.h"

static int coop_sim_init(struct thread_data *td, struct coop_options *o,
			 void **priv)
{
	(void)o;
	(void)priv;
	pp_err("coop", "coop_backend=sim: the model is not built into this engine");
	td_verror(td, ENOSYS, "coop_backend=sim");
	return ENOSYS;
}

const struct coop_backend_ops coop_sim_backend = {
	.name	= "sim",
	.init	= coop_sim_init,
};
