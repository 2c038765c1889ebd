// SPDX-License-Identifier: GPL-2.0-only
/*
 * ABI guard shared by all perfpack engines.
 *
 * fio itself only compares FIO_IOOPS_VERSION when it loads an external
 * engine.  That number does not change when fields move inside
 * struct thread_data or struct io_u, which every engine dereferences, so a
 * version mismatch shows up as a crash deep inside a job.  Compare the full
 * version string instead and fail the job cleanly.
 */
#include <string.h>

#include "fio.h"
#include "engines/common/pp.h"

#ifndef PERFPACK_FIO_VERSION
#error "PERFPACK_FIO_VERSION must be set by the build (see config.mk)"
#endif

int pp_abi_check(struct thread_data *td, const char *engine)
{
	if (!strcmp(fio_version_string, PERFPACK_FIO_VERSION))
		return 0;

	pp_err(engine, "built for %s, loaded by %s: rebuild with ./configure --fio-src=<%s tree>",
	       PERFPACK_FIO_VERSION, fio_version_string, fio_version_string);
	td_verror(td, EPROTO, "fio version mismatch");
	return 1;
}
