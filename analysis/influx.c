// SPDX-License-Identifier: GPL-2.0-only
/*
 * InfluxDB line protocol: measurement "fiotab_<table>", tags (host, target,
 * rw, bs, iodepth, job, ... as the table provides), one line per row and tag
 * set, timestamp = the row's fio document's "timestamp_ms" (else the
 * table's latest "timestamp") in nanoseconds.  Escaping per
 * the line protocol reference: commas, spaces and '=' in tags/keys,
 * commas and spaces in the measurement.  Values are floats.
 *
 * A backslash is written as it is: InfluxDB's reader unescapes only "\,",
 * "\=" and "\ " in a tag, keeping "\\" as two bytes (the reference's
 * other readers take one), so "\\" would be read as two backslashes or
 * one.  A backslash before another, before ',', '=' or ' ', or at the end
 * of a value has no spelling all of them read back: refused (unspellable()).
 * So is a tag named like a field of its line (--tag iops=1): influxd keeps
 * both, and SELECT * names the tag iops_1.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fiotab.h"
#include "metrics.h"

static void esc(FILE *f, const char *s, const char *special)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r') {
			fputs("\\ ", f);
			continue;
		}
		if (strchr(special, *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* NULL, or the backslash of @s that no line protocol reader reads back */
static const char *unspellable(const char *s)
{
	const char *b;

	for (b = strchr(s, '\\'); b; b = strchr(b + 1, '\\'))
		if (!b[1] || strchr("\\,= ", b[1]))
			return b;
	return NULL;
}

static void check_one(const struct sample *s, void *arg)
{
	int *bad = arg, i;

	for (i = 0; i < s->ntags && !*bad; i++) {
		const char *b = unspellable(s->tags[i].v);

		if (!strcmp(s->tags[i].k, s->col->field)) {
			warnx_("%s --format=influx: label %s='%s' is named like the field %s of fiotab_%s: InfluxDB would keep a tag and a field of one name, which a query reads as either (SELECT * calls the tag %s_1); give the tag another name",
			       s->t->name, s->tags[i].k, s->tags[i].v, s->col->field, s->t->name,
			       s->tags[i].k);
			*bad = 1;
			break;
		}
		if (!b)
			continue;
		warnx_("%s --format=influx: label %s='%s' has a backslash %s: InfluxDB keeps \"\\\\\" in a tag as two backslashes (other line protocol readers as one) and reads \"\\,\", \"\\=\", \"\\ \" as escapes, so no spelling of it is read back as it is; rename it, or use another --format",
		       s->t->name, s->tags[i].k, s->tags[i].v,
		       b[1] ? (b[1] == '\\' ? "before another" : b[1] == ' ' ? "before a space" : "before ',' or '='")
			    : "at its end");
		*bad = 1;
	}
}

struct line {
	FILE *f;
	const char *ftags;	/* the tag set of the line being written */
	int open;
};

static void end_line(struct line *ln, double ts)
{
	if (!ln->open)
		return;
	/* ms resolution is what fio records; %.0f of a double ns would not be exact */
	if (ts > 0)
		fprintf(ln->f, " %.0f000000", round(ts * 1e3));
	fputc('\n', ln->f);
	ln->open = 0;
}

static void one(const struct sample *s, void *arg)
{
	struct line *ln = arg;
	const char *ft = s->col->ftags ? s->col->ftags : "";
	char num[40];
	int i;

	if (!isfinite(s->value))
		return;
	if (ln->open && strcmp(ln->ftags, ft))
		end_line(ln, table_time(s->t, s->row));
	if (!ln->open) {
		fputs("fiotab_", ln->f);
		esc(ln->f, s->t->name, ", ");
		for (i = 0; i < s->ntags; i++) {
			fputc(',', ln->f);
			esc(ln->f, s->tags[i].k, ",= ");
			fputc('=', ln->f);
			esc(ln->f, s->tags[i].v, ",= ");
		}
		fputc(' ', ln->f);
		ln->open = 1;
		ln->ftags = ft;
	} else {
		fputc(',', ln->f);
	}
	esc(ln->f, s->col->field, ",= ");
	fprintf(ln->f, "=%s", fmt_double(num, sizeof(num), s->value));
}

int out_influx(FILE *f, const struct tablist *l)
{
	struct line ln = { .f = f };
	int i, r, bad = 0;

	/* a refusal before the first line, never half the lines */
	if (metrics_check(l))
		return -1;
	for (i = 0; i < l->n && !bad; i++)
		for (r = 0; r < l->v[i]->nrows && !bad; r++)
			metrics_row(l->v[i], r, check_one, &bad);
	if (bad)
		return -1;
	for (i = 0; i < l->n; i++)
		for (r = 0; r < l->v[i]->nrows; r++) {
			metrics_row(l->v[i], r, one, &ln);
			end_line(&ln, table_time(l->v[i], r));
		}
	return 0;
}
