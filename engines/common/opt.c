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

int pp_opt_uint_str(const char *engine, const char *name, const char *str,
		    unsigned int min, unsigned int max, unsigned int *dst)
{
	const char *digits = str ? str : "";
	unsigned long long v = 0;
	int neg = 0, hex, ok = 0;
	char *end = NULL;

	if (pp_opt_blank(engine, name, str))
		return 1;
	if (*digits == '-') {
		neg = 1;
		digits++;
	}
	hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
	digits += hex ? 2 : 0;
	/* strtoull() alone would take a sign, blanks and a "0x" with no digits */
	if (hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)) {
		errno = 0;
		v = strtoull(digits, &end, hex ? 16 : 10);
		ok = !*end;
		if (errno == ERANGE)
			v = ULLONG_MAX;
	}
	if (ok && !neg && v >= min && v <= max) {
		*dst = (unsigned int)v;
		return 0;
	}
	if (min == 0 && max == 1)
		pp_err(engine, "%s=%s: must be 0 or 1", name, str);
	else if (ok && (neg || v > UINT_MAX))
		pp_err(engine, "%s=%s: out of range (0..%u)", name, str, UINT_MAX);
	else if (ok)
		pp_err(engine, "%s=%s: must be between %u and %u", name, str, min, max);
	else
		pp_err(engine, "%s=%s: not one whole number (decimal, or hexadecimal after 0x): "
		       "fio would read a range or list as several values and keep the last", name, str);
	return 1;
}
