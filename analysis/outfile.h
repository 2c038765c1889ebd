/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a file the user named with -o (outfile.c): "-" is stdout, devices,
 * fifos and a process' open files (/dev/stdout) are written in place, and a
 * regular file, new or not, is replaced at once by a complete one.
 */
#ifndef FIOTAB_OUTFILE_H
#define FIOTAB_OUTFILE_H

#include <stddef.h>

/* Writes @buf[@len] to @path; 0, or -1 after saying why, naming @path. */
int outfile_write(const char *path, const char *buf, size_t len);

#endif
