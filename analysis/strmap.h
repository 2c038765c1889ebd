/* SPDX-License-Identifier: GPL-2.0-only */
/* String -> index hash map (strmap.c). */
#ifndef FIOTAB_STRMAP_H
#define FIOTAB_STRMAP_H

#include <stddef.h>

struct strmap {
	char **keys;
	size_t *vals;
	size_t cap, n;
};

/* The value of @key, inserting @newval (and a copy of @key) when absent. */
size_t map_get(struct strmap *m, const char *key, size_t newval);
/* The map's own copy of @key, or NULL. */
const char *map_key(const struct strmap *m, const char *key);
/* The map's own copy of @key, inserted (with @newval) when absent: one lookup. */
const char *map_intern(struct strmap *m, const char *key, size_t newval, size_t *val);
void map_free(struct strmap *m);

#endif
