/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A read lease (F_SETLEASE F_RDLCK) on a file whose blocks a job writes
 * through the device.  Another process that opens the file for writing or
 * truncates it must first break the lease: the kernel signals us and makes
 * that process wait (up to /proc/sys/fs/lease-break-time seconds, 45 by
 * default) until we let go, which we do only when the job closes the file.
 * So the engine learns of the change before it happens and stops its
 * device writes.  No fio dependency.
 */
#ifndef PERFPACK_BLKFILE_LEASE_H
#define PERFPACK_BLKFILE_LEASE_H

#include <stddef.h>

/*
 * Take a read lease on @fd (opened O_RDONLY), its break signalled to this
 * process.  0, or -errno with the reason in @why (-EAGAIN: the file is
 * open for writing somewhere).
 */
int bf_lease_take(int fd, char *why, size_t whylen);

/*
 * Has the lease on @fd started to break?  Cheap while no lease of this
 * process was broken (one atomic load); @seen is the caller's per-file
 * copy of the break count.
 */
int bf_lease_broken(int fd, unsigned int *seen);

/* Give the lease up (closing @fd does too). */
void bf_lease_drop(int fd);

#endif
