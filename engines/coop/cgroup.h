/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fio's cgroup= puts the job's thread alone in the group (cgroup v1's
 * per-thread "tasks" file), after the engine's init started the workers:
 * the threads that do the job's I/O stay where they were.
 */
#ifndef PERFPACK_COOP_CGROUP_H
#define PERFPACK_COOP_CGROUP_H

#include <stddef.h>

/*
 * Move task @tid of this process into the group of each cgroup v1
 * hierarchy that the calling thread is in, where it is elsewhere
 * (cgroup v2 groups whole processes: nothing to do).  0, or -errno with
 * a one-line reason in @err.
 */
int coop_cgroup_follow(int tid, char *err, size_t errlen);

#endif
