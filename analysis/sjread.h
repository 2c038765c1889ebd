/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fast path of fiotab's JSON reading (sjread.cpp, simdjson's SIMD
 * stage 1 and a walk of its tokens): one whole JSON value into the same
 * cJSON tree jsonread.c builds, from the document arena.
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
 * it is not JSON or not taken here (invalid UTF-8, a raw control byte in a
 * string, nesting as deep as cJSON's limit): the caller reads it with
 * jsonread.c then, which accepts or names the error.  The tree lives until
 * the next arena_reset(); its strings are in the arena.
 */
struct cJSON *sj_read(const char *buf, size_t len, int padded, const char *const *skip);

/* Readable bytes after the value that let sj_read() parse it in place (@padded). */
#define SJ_PADDING 64

#ifdef __cplusplus
}
#endif

#endif
