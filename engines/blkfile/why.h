/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The "why" buffers of blkfile's checks: each refusal is one sentence the
 * engine prints after "blkfile: FILE: ".
 */
#ifndef PERFPACK_BLKFILE_WHY_H
#define PERFPACK_BLKFILE_WHY_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static inline void bf_say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void bf_say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

#endif
