// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD shim for coop-fd-identity.sh: the first open() of $SWAP_PATH
 * that succeeds (fio's own open of the job's file) is followed at once by
 * rename($SWAP_WITH, $SWAP_PATH), so every later open of the name (coop's
 * per-thread opens) finds another file than fio's descriptor holds.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
static int done;

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);
static int hook(const char *path, int fd)
{
	const char *p = getenv("SWAP_PATH"), *w = getenv("SWAP_WITH");
	if (fd >= 0 && !done && p && w && !strcmp(path, p)) {
		done = 1;
		rename(w, p);
	}
	return fd;
}
int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	if (!real) real = dlsym(RTLD_NEXT, "open64");
	if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
	return hook(path, real(path, flags, mode));
}
int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	if (!real) real = dlsym(RTLD_NEXT, "open");
	if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
	return hook(path, real(path, flags, mode));
}
