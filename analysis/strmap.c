// SPDX-License-Identifier: GPL-2.0-only
/*
 * A string -> index hash map (open addressing, FNV-1a), so grouping and
 * interning stay linear in the number of jobs on 1,000-file inputs.
 */
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"
#include "strmap.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t *map_slot(struct strmap *m, const char *key, int *found)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct strmap nm = { 0 };
		size_t k;

		nm.cap = m->cap ? 2 * m->cap : 64;
		nm.keys = xmalloc(nm.cap * sizeof(char *));
		nm.vals = xmalloc(nm.cap * sizeof(size_t));
		memset(nm.keys, 0, nm.cap * sizeof(char *));
		for (k = 0; k < m->cap; k++)
			if (m->keys[k]) {
				int f;
				size_t *v = map_slot(&nm, m->keys[k], &f);

				nm.keys[v - nm.vals] = m->keys[k];
				nm.n++;
				*v = m->vals[k];
			}
		free(m->keys);
		free(m->vals);
		*m = nm;
	}
	for (i = hash(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key)) {
			*found = 1;
			return &m->vals[i];
		}
	*found = 0;
	return &m->vals[i];
}

size_t map_get(struct strmap *m, const char *key, size_t newval)
{
	int found;
	size_t *v = map_slot(m, key, &found);

	if (!found) {
		m->keys[v - m->vals] = xstrdup(key);
		m->n++;
		*v = newval;
	}
	return *v;
}

void map_free(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
}

const char *map_key(const struct strmap *m, const char *key)
{
	int found;
	size_t *v = map_slot((struct strmap *)m, key, &found);

	return found ? m->keys[v - m->vals] : NULL;
}

const char *map_intern(struct strmap *m, const char *key, size_t newval, size_t *val)
{
	int found;
	size_t *v = map_slot(m, key, &found);

	if (!found) {
		m->keys[v - m->vals] = xstrdup(key);
		m->n++;
		*v = newval;
	}
	if (val)
		*val = *v;
	return m->keys[v - m->vals];
}
