// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option helpers shared by the engines' fio option tables.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fio.h"
#include "optgroup.h"
#include "engines/common/pp.h"

int pp_opt_blank(const char *engine, const char *name, const char *str)
{
	if (!str || !isspace((unsigned char)str[0]))
		return 0;
	pp_err(engine, "%s=%s: the value starts with a blank: fio 3.33 hands an engine's option written "
	       "'%s = VALUE' in a job file over mangled (the value's last character doubled); write %s=VALUE",
	       name, str, name, name);
	return 1;
}

int pp_opt_enum(const char *engine, const struct fio_option *opts, const char *name,
		const char *str, unsigned int *out)
{
	const struct fio_option *o;
	char valid[256] = "";
	int i;

	for (o = opts; o->name; o++)
		if (!strcmp(o->name, name))
			break;
	if (!o->name) {
		pp_err(engine, "%s: no such option in the engine's table", name);
		return 1;
	}
	if (pp_opt_blank(engine, name, str))
		return 1;
	for (i = 0; i < PARSE_MAX_VP && o->posval[i].ival; i++) {
		if (!strcmp(o->posval[i].ival, str)) {
			*out = (unsigned int)o->posval[i].oval;
			return 0;
		}
		if (i)
			strncat(valid, ", ", sizeof(valid) - strlen(valid) - 1);
		strncat(valid, o->posval[i].ival, sizeof(valid) - strlen(valid) - 1);
	}
	pp_err(engine, "%s=%s: unknown value (valid: %s)", name, str, valid);
	return 1;
}

int pp_opt_uint(const char *engine, const char *name, unsigned long long v,
		unsigned int *dst, unsigned int *refused)
{
	/*
	 * fio parses into 64 bits and hands us that value; "-1" arrives as
	 * 2^64 - 1, so one upper bound also refuses negative numbers.
	 */
	if (v > UINT_MAX) {
		pp_err(engine, "%s=%lld: out of range (0..%u)", name, (long long)v, UINT_MAX);
		*refused = 1;
		return 1;
	}
	*dst = (unsigned int)v;
	return 0;
}

int pp_opt_uint_range(const char *engine, const char *name, unsigned long long v,
		      unsigned int min, unsigned int max, unsigned int *dst,
		      unsigned int *refused)
{
	unsigned int u;

	/* beyond 32 bits (or negative): pp_opt_uint()'s "out of range" */
	if (pp_opt_uint(engine, name, v, &u, refused))
		return 1;
	if (u < min || u > max) {
		pp_err(engine, "%s=%u: must be between %u and %u", name, u, min, max);
		*refused = 1;
		return 1;
	}
	*dst = u;
	return 0;
}

int pp_opt_uint_str(const char *engine, const char *name, const char *str,
		    unsigned int min, unsigned int max, unsigned int *dst)
{
	unsigned long long v = 0;
	int hex = str && str[0] == '0' && (str[1] == 'x' || str[1] == 'X');
	const char *digits = str ? str + (hex ? 2 : 0) : NULL;
	char *end = NULL;

	if (pp_opt_blank(engine, name, str))
		return 1;
	/* strtoull() alone would take a sign, blanks and a "0x" with no digits */
	if (digits && (hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits))) {
		errno = 0;
		v = strtoull(digits, &end, hex ? 16 : 10);
		if (errno)
			end = NULL;
	}
	if (!end || *end || v < min || v > max) {
		if (min == 0 && max == 1)
			pp_err(engine, "%s=%s: must be 0 or 1", name, str ? str : "");
		else
			pp_err(engine, "%s=%s: must be a whole number between %u and %u", name,
			       str ? str : "", min, max);
		return 1;
	}
	*dst = (unsigned int)v;
	return 0;
}
