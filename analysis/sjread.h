/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fast path of fiotab's JSON reading (sjread.cpp, a C++ shim over
 * simdjson's DOM parser): one whole JSON value into the same cJSON tree
 * jsonread.c builds, from the document arena.
 */
#ifndef FIOTAB_SJREAD_H
#define FIOTAB_SJREAD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

/*
 * [@buf, @buf + @len) parsed as exactly one JSON value (copied first unless
 * @padded: SJ_PADDING bytes after it are readable), with the values of
 * the member names in @skip (NULL-terminated, or NULL) left out.  NULL when
 * simdjson rejects it or when its tree could differ from jsonread.c's (a NUL
 * in a string, nesting deeper than cJSON's limit): the caller reads it with
 * jsonread.c then, which accepts or names the error.  The tree's strings
 * point into the parser's buffers: it lives until the next sj_read() (and
 * the next arena_reset()).
 */
struct cJSON *sj_read(const char *buf, size_t len, int padded, const char *const *skip);

/* Readable bytes after the value that let sj_read() parse it in place (@padded). */
#define SJ_PADDING 64

#ifdef __cplusplus
}
#endif

#endif
