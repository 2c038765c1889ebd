// SPDX-License-Identifier: GPL-2.0-only
/* Table cells -> tagged samples for the dashboard formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiotab.h"
#include "metrics.h"

/*
 * A label more than a sample holds is refused, never dropped (series would
 * merge): -1 after saying so.
 */
static int tag_room(const struct sample *s, const char *key)
{
	if (s->ntags < MAX_TAGS)
		return 0;
	warnx_("%s: more than %d labels on one sample (at '%s'): too many parameters vary; select fewer jobs or --tag less",
	       s->t->name, MAX_TAGS, key);
	return -1;
}

/* Splits "k=v" TAGSEP "k=v" in place into @s (kept while the sample lives). */
static int add_tags(struct sample *s, char *list)
{
	char *tok, *save = NULL;

	if (!list)
		return 0;
	for (tok = strtok_r(list, TAGSEP, &save); tok; tok = strtok_r(NULL, TAGSEP, &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || !eq[1])
			continue;
		*eq = '\0';
		if (tag_room(s, tok))
			return -1;
		s->tags[s->ntags].k = tok;
		s->tags[s->ntags++].v = eq + 1;
	}
	return 0;
}

struct tagkv user_tags[MAX_TAGS];
int nuser_tags;
const char *local_host_opt;

static int label_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9') || (n >= 2 && s[0] == '_' && s[1] == '_'))
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

int user_tag_add(const char *kv)
{
	const char *eq = strchr(kv, '=');
	int i;

	if (!eq || !eq[1] || !label_name_ok(kv, (size_t)(eq - kv)) || control_byte(kv)) {
		warnx_("--tag '%s': expected NAME=VALUE, NAME of letters, digits and '_' (not starting with a digit or '__'), VALUE not empty, UTF-8 and without control characters",
		       kv);
		return -1;
	}
	{
		/*
		 * Prometheus sets job and instance itself (a scrape renames ours
		 * to exported_*); le and quantile are its bucket/quantile labels;
		 * fio_job is the job name fiotab writes under job's place; InfluxDB
		 * refuses a whole write with a tag named time (400, "invalid tag
		 * key"), and 2.x keeps _measurement and _field for itself.
		 */
		static const char *const reserved[] = { "job", "instance", "le", "quantile",
							"fio_job", "time", "_measurement", "_field" };
		size_t r;

		for (r = 0; r < sizeof(reserved) / sizeof(*reserved); r++)
			if ((size_t)(eq - kv) == strlen(reserved[r]) &&
			    !strncmp(kv, reserved[r], (size_t)(eq - kv))) {
				warnx_("--tag '%s': '%s' is a label fiotab, Prometheus or InfluxDB keeps for itself; pick another name",
				       kv, reserved[r]);
				return -1;
			}
	}
	for (i = 0; i < nuser_tags; i++)
		if (strlen(user_tags[i].k) == (size_t)(eq - kv) &&
		    !strncmp(user_tags[i].k, kv, (size_t)(eq - kv))) {
			warnx_("--tag '%s': '%s' is given twice", kv, user_tags[i].k);
			return -1;
		}
	if (nuser_tags == MAX_TAGS / 2) {
		warnx_("--tag: at most %d tags", MAX_TAGS / 2);
		return -1;
	}
	user_tags[nuser_tags].k = xasprintf("%.*s", (int)(eq - kv), kv);
	user_tags[nuser_tags++].v = eq + 1;
	return 0;
}

const char *local_host_quiet(void)
{
	static char name[256];

	if (local_host_opt)
		return local_host_opt;
	if (!name[0] && (gethostname(name, sizeof(name) - 1) || !name[0]))
		die("gethostname failed: give the host of the local runs with --host NAME");
	return name;
}

const char *local_host(void)
{
	static int said;

	if (!said && !local_host_opt)
		warnx_("note: local fio runs carry no hostname; labelled host=\"%s\" (this machine's gethostname(), --host NAME to name another)",
		       local_host_quiet());
	said = 1;
	return local_host_quiet();
}

/* --tag values replace a tag of the same key, or come last. */
static int apply_user_tags(struct sample *s)
{
	int i, k;

	for (i = 0; i < nuser_tags; i++) {
		for (k = 0; k < s->ntags; k++)
			if (!strcmp(s->tags[k].k, user_tags[i].k))
				break;
		if (k == s->ntags) {
			if (tag_room(s, user_tags[i].k))
				return -1;
			s->ntags++;
		}
		s->tags[k] = user_tags[i];
	}
	return 0;
}

/* user_tags_check(): the value each --tag replaced first (NULL: none yet) */
static char **replaced;

static int note_replaced(const struct sample *s)
{
	int i, k;

	for (i = 0; i < nuser_tags; i++)
		for (k = 0; k < s->ntags; k++) {
			if (strcmp(s->tags[k].k, user_tags[i].k))
				continue;
			if (!replaced[i]) {
				replaced[i] = xstrdup(s->tags[k].v);
			} else if (strcmp(replaced[i], s->tags[k].v)) {
				warnx_("--tag %s=%s replaces the label %s, which takes more than one value here ('%s', '%s'): their series would be one; give the tag another name",
				       user_tags[i].k, user_tags[i].v, user_tags[i].k, replaced[i], s->tags[k].v);
				return -1;
			}
			break;
		}
	return 0;
}

int user_tags_check(const struct tablist *l)
{
	int i, r, rc = 0;

	if (!nuser_tags)
		return 0;
	replaced = xcalloc(MAX_TAGS, sizeof(*replaced));
	for (i = 0; i < l->n && !rc; i++)
		for (r = 0; r < l->v[i]->nrows && !rc; r++)
			rc = metrics_row(l->v[i], r, NULL, NULL);
	for (i = 0; i < MAX_TAGS; i++)
		free(replaced[i]);
	free(replaced);
	replaced = NULL;
	return rc;
}

int metrics_row(const struct table *t, int row,
		void (*fn)(const struct sample *s, void *arg), void *arg)
{
	char *ttags = t->tags ? xstrdup(t->tags) : NULL;
	char *ibuf[MAX_TAGS];	/* the numeric tag values, as text */
	struct sample base = { .t = t, .row = row };
	int ci, ni = 0, k, rc;

	rc = add_tags(&base, ttags);
	for (ci = 0; !rc && ci < t->ncols; ci++) {
		const struct col *c = &t->cols[ci];
		const struct cell *x = &t->cells[(size_t)row * t->ncols + ci];

		if (!c->tag || !x->set)
			continue;
		if ((rc = tag_room(&base, c->tag)))
			break;
		if (c->kind == COL_STR) {
			if (!x->s || !*x->s)
				continue;
			base.tags[base.ntags].v = x->s;
		} else {
			ibuf[ni] = cell_text(c, x, 0);
			base.tags[base.ntags].v = ibuf[ni++];
		}
		base.tags[base.ntags++].k = c->tag;
	}
	for (ci = 0; !rc && ci < t->ncols; ci++) {
		const struct col *c = &t->cols[ci];
		const struct cell *x = &t->cells[(size_t)row * t->ncols + ci];
		struct sample s;
		char *ft;

		if (!c->field || !x->set || c->kind == COL_STR)
			continue;
		s = base;
		s.col = c;
		for (k = 0; k < s.ntags; k++)
			if (!strcmp(s.tags[k].k, "host") && !strcmp(s.tags[k].v, "-"))
				s.tags[k].v = local_host();
		s.value = dec_scale(x->v, c->fscale ? c->fscale : 1);
		ft = c->ftags ? xstrdup(c->ftags) : NULL;
		rc = add_tags(&s, ft);
		if (!rc && replaced)
			rc = note_replaced(&s);
		if (!rc)
			rc = apply_user_tags(&s);
		if (!rc && fn)
			fn(&s, arg);
		free(ft);
	}
	while (ni--)
		free(ibuf[ni]);
	free(ttags);
	return rc;
}

int metrics_check(const struct tablist *l)
{
	int i, r;

	for (i = 0; i < l->n; i++)
		for (r = 0; r < l->v[i]->nrows; r++)
			if (metrics_row(l->v[i], r, NULL, NULL))
				return -1;
	return 0;
}
