// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sector-sorted request lists (see rqlist.h).
 */
#include <stdlib.h>

#include "engines/sim/rqlist.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

uint32_t rql_lower(const struct rqlist *l, uint64_t off)
{
	uint32_t lo = 0, hi = l->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (l->v[mid]->off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void rql_insert(struct rqlist *l, struct sim_req *r)
{
	uint32_t i = rql_lower(l, r->off), k;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	for (k = l->n; k > i; k--)
		l->v[k] = l->v[k - 1];
	l->v[i] = r;
	l->n++;
}

void rql_remove(struct rqlist *l, struct sim_req *r)
{
	uint32_t i = rql_lower(l, r->off);

	while (i < l->n && l->v[i] != r)
		i++;
	if (i == l->n)
		abort();	/* not queued: a model bug, not an input error */
	for (; i + 1 < l->n; i++)
		l->v[i] = l->v[i + 1];
	l->n--;
}

struct sim_req *rql_oldest(const struct rqlist *l)
{
	struct sim_req *o = NULL;
	uint32_t i;

	for (i = 0; i < l->n; i++)
		if (!o || l->v[i]->seq < o->seq)
			o = l->v[i];
	return o;
}

struct sim_req *rql_merge(struct rqlist *l, const struct sim_req *r, uint64_t max)
{
	uint32_t i = rql_lower(l, r->off);

	if (i > 0) {			/* back merge: r continues v[i-1] */
		struct sim_req *p = l->v[i - 1];

		if (p->off + p->len == r->off && p->len + r->len <= max) {
			p->len += r->len;
			return p;
		}
	}
	if (i < l->n) {			/* front merge: r precedes v[i] */
		struct sim_req *s = l->v[i];

		if (r->off + r->len == s->off && s->len + r->len <= max) {
			s->off = r->off;
			s->len += r->len;
			return s;
		}
	}
	return NULL;
}

void rql_free(struct rqlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

