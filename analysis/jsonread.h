/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fiotab's JSON reader (jsonread.c): one JSON value from a buffer into a
 * cJSON tree allocated from the document arena (arena.h), strictly checked
 * (RFC 8259), with the values of some member names checked but not built.
 */
#ifndef FIOTAB_JSONREAD_H
#define FIOTAB_JSONREAD_H

#include <stddef.h>

struct cJSON;

/*
 * Set in a number node's type (beside cJSON_Number, which cJSON_IsNumber()
 * masks it from) when the number is written as a whole number: digits
 * after an optional '-', without fraction or exponent, as fio prints its
 * integer fields (%llu).  12.0 and 1e3 are whole in value, not as written.
 */
#define JSON_WHOLE 0x1000

struct jsonread {
	/*
	 * Member names whose values are checked like the rest but left out of
	 * the tree (NULL-terminated, or NULL for none): fio json+'s latency
	 * "bins" are most of the file and no table but a histogram reads them.
	 */
	const char *const *skip;
	/* out: on failure, the offset of the first byte that is not JSON (len at the end) */
	size_t err;
	/* out: on success, the offset just past the value */
	size_t end;
};

/*
 * Parses the value starting at @buf[@start] (leading blanks allowed) up to
 * @len; NULL on malformed JSON with @r->err set.  The tree lives until the
 * next arena_reset().
 */
struct cJSON *json_read(const char *buf, size_t len, size_t start, struct jsonread *r);

/*
 * For sjread.cpp, so that both readers take the same numbers and strings:
 * the number at @p (its value in *@v when @v is set), and the string at @p
 * (a '"'; decoded into a new arena string in *@out when @out is set), up to
 * @end.  0 with *@stop just past it, or -1 with *@stop at the first byte
 * that is not JSON.
 */
int json_number(const char *p, const char *end, double *v, const char **stop);
/* Whether the valid number at @p (up to @end) is written as JSON_WHOLE says. */
int json_whole(const char *p, const char *end);
int json_string(const char *p, const char *end, char **out, const char **stop);

#endif
