/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 2009 SCST testbed model, top level: an application on the initiator
 * reads a file exported by an SCST target over iSCSI.  Reads are submitted
 * with sim_submit() and reaped with sim_reap(), which runs the model's
 * virtual clock until one completes.  No fio, no real time: the same
 * parameters and the same sequence of calls give the same results bit for bit.
 */
#ifndef PERFPACK_SIM_SIM_H
#define PERFPACK_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/sim/clock.h"
#include "engines/sim/params.h"

struct sim;

/* NULL with a message in err on bad parameters or no memory. */
struct sim *sim_new(const struct sim_params *p, uint64_t file_size, char *err, size_t errlen);
void sim_free(struct sim *s);
/* The application reads [off, off+len) now (modeled time). */
void sim_submit(struct sim *s, uint64_t off, uint64_t len, void *cookie);
/*
 * Run until a read completes: its cookie and modeled completion time.
 * false when no read is outstanding.
 */
bool sim_reap(struct sim *s, void **cookie, sim_ns *t);
sim_ns sim_now(const struct sim *s);
/* Reads/bytes completed and modeled time from first submit to last completion. */
void sim_totals(const struct sim *s, uint64_t *reads, uint64_t *bytes, sim_ns *elapsed);
uint64_t sim_events(const struct sim *s);
/* One line "key=value ..." describing the run (deterministic). */
void sim_report(const struct sim *s, FILE *f);
/* Internals, for unit tests and the report. */
struct target *sim_target(struct sim *s);
struct client *sim_client(struct sim *s);

#endif
