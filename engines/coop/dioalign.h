/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The offset alignment O_DIRECT needs on an open file: what coop_split_kb's
 * parts must be multiples of with direct=1.
 */
#ifndef PERFPACK_COOP_DIOALIGN_H
#define PERFPACK_COOP_DIOALIGN_H

/*
 * Bytes: statx()'s STATX_DIOALIGN where the kernel reports it, else a
 * block device's logical block size (BLKSSZGET), else 512 (a sector: the
 * least any device takes).
 */
unsigned int coop_dio_align(int fd, int is_bdev);

#endif
