// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output, schema "fiotab/1" (documented in fiotab.1 and README.md):
 *
 *   { "schema": "fiotab/1",
 *     "tables": [ { "table": "perftest", "title": "...", "notes": ["..."],
 *                   "tags": {"target": "..."}, "timestamp": 1795980457,
 *                   "columns": [ {"key": "W_avg_MBps", "unit": "MB/s"} ],
 *                   "rows": [ {"blocksize": 4096, "W_avg_MBps": 54.8} ] } ] }
 *
 * Numbers are full precision, written by fmt_double() as in every other
 * format (cJSON's own %.17g would write 0.7999999999999999 as
 * 0.79999999999999993); a cell with no value is null.  cJSON does the
 * escaping.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fiotab.h"
#include "metrics.h"
#include "table.h"

static cJSON *tags_obj(const char *tags)
{
	cJSON *o = cJSON_CreateObject();
	char *dup, *p, *tok, *save = NULL;
	int i;

	dup = xstrdup(tags ? tags : "");
	for (p = dup; (tok = strtok_r(p, TAGSEP, &save)); p = NULL) {
		char *eq = strchr(tok, '=');

		if (eq) {
			*eq = '\0';
			cJSON_AddStringToObject(o, tok, eq + 1);
		}
	}
	free(dup);
	for (i = 0; i < nuser_tags; i++) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, user_tags[i].k);
		cJSON_AddStringToObject(o, user_tags[i].k, user_tags[i].v);
	}
	return o;
}

static cJSON *num_item(double v)
{
	char num[32];

	if (!isfinite(v))
		return cJSON_CreateNull();
	return cJSON_CreateRaw(fmt_double(num, sizeof(num), v));
}

void out_json(FILE *f, const struct tablist *l)
{
	cJSON *root = cJSON_CreateObject(), *tabs;
	char *s;
	int i, k, r, ci;

	cJSON_AddStringToObject(root, "schema", "fiotab/1");
	tabs = cJSON_AddArrayToObject(root, "tables");
	for (i = 0; i < l->n; i++) {
		const struct table *t = l->v[i];
		cJSON *to = cJSON_CreateObject(), *a;

		cJSON_AddStringToObject(to, "table", t->name);
		cJSON_AddStringToObject(to, "title", t->title ? t->title : "");
		a = cJSON_AddArrayToObject(to, "notes");
		for (k = 0; k < t->nnotes; k++)
			cJSON_AddItemToArray(a, cJSON_CreateString(t->notes[k]));
		cJSON_AddItemToObject(to, "tags", tags_obj(t->tags));
		if (t->timestamp)
			cJSON_AddItemToObject(to, "timestamp", num_item(t->timestamp));
		a = cJSON_AddArrayToObject(to, "columns");
		for (ci = 0; ci < t->ncols; ci++) {
			const struct col *c = &t->cols[ci];
			cJSON *co;

			if (c->flags & COL_TEXT_ONLY)
				continue;
			co = cJSON_CreateObject();
			cJSON_AddStringToObject(co, "key", c->key);
			if (c->unit)
				cJSON_AddStringToObject(co, "unit", c->unit);
			cJSON_AddItemToArray(a, co);
		}
		a = cJSON_AddArrayToObject(to, "rows");
		for (r = 0; r < t->nrows; r++) {
			cJSON *ro = cJSON_CreateObject();

			for (ci = 0; ci < t->ncols; ci++) {
				const struct col *c = &t->cols[ci];
				const struct cell *x = table_cell((struct table *)t, r, ci);

				if (c->flags & COL_TEXT_ONLY)
					continue;
				if (!x->set)
					cJSON_AddNullToObject(ro, c->key);
				else if (c->kind == COL_STR)
					cJSON_AddStringToObject(ro, c->key, x->s);
				else
					cJSON_AddItemToObject(ro, c->key, num_item(x->v));
			}
			cJSON_AddItemToArray(a, ro);
		}
		cJSON_AddItemToArray(tabs, to);
	}
	s = cJSON_Print(root);
	if (!s)
		die("out of memory");
	fprintf(f, "%s\n", s);
	cJSON_free(s);
	cJSON_Delete(root);
}
