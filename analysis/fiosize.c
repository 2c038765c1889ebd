// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio size strings, as fio's parse.c reads them (get_mult_bytes): a decimal
 * integer and an optional unit.  With kb_base=1024 (the default) "k", "kb",
 * "m"... are powers of 1024 and the IEC spellings "kib", "mib"... are powers of
 * 1000 (fio's "compatibility mode"); kb_base=1000 swaps the two.  "0x"
 * prefixes a hexadecimal integer (str_to_decimal()), which fio gives no
 * unit: one with anything after its digits ("0x10k", which fio reads as 16)
 * is refused.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fiotab.h"

int fio_parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	static const char units[] = "kmgtpe";
	unsigned long long v, mult = 1, base = kb_base == 1000 ? 1000 : 1024;
	const char *u;
	char *end;
	int pow = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -1;
		errno = 0;
		v = strtoull(s + 2, &end, 16);
		while (isspace((unsigned char)*end))
			end++;
		if (errno || *end)
			return -1;
		*out = v;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end) {
		u = strchr(units, tolower((unsigned char)*end));
		if (!u)
			return -1;
		pow = (int)(u - units) + 1;
		end++;
		if (tolower((unsigned char)end[0]) == 'i' &&
		    tolower((unsigned char)end[1]) == 'b') {
			base = base == 1000 ? 1024 : 1000;
			end += 2;
		} else if (tolower((unsigned char)*end) == 'b') {
			end++;
		}
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			return -1;
	}
	while (pow--) {
		if (mult > UINT64_MAX / base)
			return -1;
		mult *= base;
	}
	if (v && mult > UINT64_MAX / v)
		return -1;
	*out = v * mult;
	return 0;
}

/*
 * bs=R[,W[,T]]: one value applies to all directions; "8k,32k" gives writes
 * and trims 32k; an empty field keeps the default ("8k,32k," or ",8k").
 */
int fio_parse_bs(const char *s, unsigned kb_base, uint64_t def, uint64_t out[NRWT])
{
	char buf[128], *fields[NRWT], *p;
	int n = 0, i;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	p = buf;
	for (;;) {
		if (n == NRWT)
			return -1;
		fields[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	for (i = 0; i < NRWT; i++) {
		const char *f = fields[i < n ? i : n - 1];

		out[i] = def;
		if (*f && fio_parse_size(f, kb_base, &out[i]))
			return -1;
	}
	return 0;
}
