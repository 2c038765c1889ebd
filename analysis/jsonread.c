// SPDX-License-Identifier: GPL-2.0-only
/*
 * A strict one-pass JSON reader that builds cJSON trees (so jobs.c and the
 * rest read documents through cJSON's API as before) but builds only what
 * fiotab reads:
 *
 * - values of the member names in @skip (json+'s latency "bins", most of a
 *   json+ file) are checked to the same grammar and not built at all;
 * - nodes and strings come from the document arena (arena.c), one bump
 *   each, and go all at once after the document;
 * - numbers are converted exactly without strtod() when that is possible
 *   (integers up to 2^53, and up to 15 significant digits with a power of
 *   ten up to 22: one correctly rounded multiplication or division, Clinger's
 *   fast path), else by strtod() on a copy, so every value is the double
 *   strtod() gives, as with cJSON.
 *
 * It is stricter than cJSON: numbers follow RFC 8259 (no "01", "1.", "+1",
 * "0x10", which cJSON let strtod() read), a "\u0000" escape or a NUL byte
 * in a string is an error instead of a silently cut string, and lone UTF-16
 * surrogates are errors as in cJSON.  Raw control characters in strings are
 * accepted, as cJSON does: fio escapes only '"' and '\\'.  Nesting is
 * limited like cJSON's (CJSON_NESTING_LIMIT).  An error is the offset of the
 * first byte that cannot continue a JSON value (the end of the buffer when
 * it ends inside one).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "fiotab.h"
#include "jsonread.h"

struct rd {
	const char *p, *end;
	const char *err;	/* the first byte that is not JSON */
	const char *const *skip;
	/* bit (length, first and last byte) of each skipped name: most names miss here */
	uint64_t filter[16];
	int depth;
};

static unsigned fbit(const char *k, size_t n)
{
	return (unsigned)(n * 31 + (unsigned char)k[0] * 7 + (unsigned char)k[n - 1]) & 1023;
}

static inline int fail(struct rd *r, const char *at)
{
	r->err = at < r->end ? at : r->end;
	return -1;
}

/*
 * Blanks.  fio indents its JSON by nesting depth and writes " : " between
 * names and values, so most of a file is runs of spaces: those are skipped
 * 8 bytes at a time (the first byte that is not a space found from the
 * lowest set bit of the word XOR 8 spaces; little or big endian alike, as
 * the bytes are compared in memory order).
 */
static inline const char *spaces(const char *p, const char *end)
{
	while (end - p >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ull;
		if (w) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return p + (__builtin_ctzll(w) >> 3);
#else
			return p + (__builtin_clzll(w) >> 3);
#endif
		}
		p += 8;
	}
	while (p < end && *p == ' ')
		p++;
	return p;
}

static inline void blanks(struct rd *r)
{
	const char *p = r->p, *end = r->end;

	if (p < end && (unsigned char)*p > ' ')
		return;		/* the common case: no blank at all */
	for (;;) {
		p = spaces(p, end);
		if (p < end && (*p == '\n' || *p == '\r' || *p == '\t')) {
			p++;
			continue;
		}
		break;
	}
	r->p = p;
}

static cJSON *node(int type)
{
	cJSON *n = arena_alloc(sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->type = type;
	return n;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Decodes the escapes of [p, q) (already checked) into @o; returns the end. */
static char *unescape(const char *p, const char *q, char *o)
{
	while (p < q) {
		unsigned u, lo;

		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		p++;
		switch (*p++) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			hex4(p, &u);
			p += 4;
			if (u >= 0xd800 && u < 0xdc00) {
				hex4(p + 2, &lo);
				p += 6;
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (u < 0x80) {
				*o++ = (char)u;
			} else if (u < 0x800) {
				*o++ = (char)(0xc0 | (u >> 6));
				*o++ = (char)(0x80 | (u & 0x3f));
			} else if (u < 0x10000) {
				*o++ = (char)(0xe0 | (u >> 12));
				*o++ = (char)(0x80 | ((u >> 6) & 0x3f));
				*o++ = (char)(0x80 | (u & 0x3f));
			} else {
				*o++ = (char)(0xf0 | (u >> 18));
				*o++ = (char)(0x80 | ((u >> 12) & 0x3f));
				*o++ = (char)(0x80 | ((u >> 6) & 0x3f));
				*o++ = (char)(0x80 | (u & 0x3f));
			}
			break;
		default:	/* '"', '\\', '/' */
			*o++ = p[-1];
			break;
		}
	}
	return o;
}

/* The bytes that end a run of plain string bytes: '"', '\\' and NUL. */
static const unsigned char stops[256] = { [0] = 1, ['"'] = 1, ['\\'] = 1 };

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/*
 * The first byte from @p that ends a run of plain string bytes, 8 bytes at a
 * time: a byte of w is zero where the lowest set bit of
 * (w - ONES) & ~w & HIGHS is (the lowest one is exact; higher ones may be
 * false, and are not looked at).
 */
static inline const char *plain(const char *p, const char *end)
{
	while (end - p >= 8) {
		uint64_t w, q, b, m;

		memcpy(&w, p, 8);
		q = w ^ (ONES * '"');
		b = w ^ (ONES * '\\');
		m = ((q - ONES) & ~q) | ((b - ONES) & ~b) | ((w - ONES) & ~w);
		m &= HIGHS;
		if (m) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return p + (__builtin_ctzll(m) >> 3);
#else
			break;	/* bytes one by one below */
#endif
		}
		p += 8;
	}
	while (p < end && !stops[(unsigned char)*p])
		p++;
	return p;
}

/*
 * The string at r->p (a '"'): checked, and when @out is set, decoded into a
 * new NUL-terminated arena string.
 */
static int string(struct rd *r, char **out, size_t *outlen)
{
	const char *s = r->p + 1, *p = s, *end = r->end;
	int esc = 0;
	char *o;

	for (;;) {
		p = plain(p, end);
		if (p >= end)
			return fail(r, end);
		if (*p == '"')
			break;
		if (!*p)
			return fail(r, p);	/* a NUL would cut the string */
		/* a backslash */
		esc = 1;
		if (p + 1 >= end)
			return fail(r, end);
		switch (p[1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			p += 2;
			break;
		case 'u': {
			unsigned u, lo;

			if (end - p < 6)
				return fail(r, end);
			if (hex4(p + 2, &u) || !u)
				return fail(r, p);
			if (u >= 0xdc00 && u < 0xe000)
				return fail(r, p);	/* a low surrogate first */
			if (u >= 0xd800 && u < 0xdc00) {
				if (end - p < 12)
					return fail(r, end);
				if (p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &lo) ||
				    lo < 0xdc00 || lo >= 0xe000)
					return fail(r, p);
				p += 6;
			}
			p += 6;
			break;
		}
		default:
			return fail(r, p);
		}
	}
	r->p = p + 1;
	if (!out)
		return 0;
	o = arena_alloc((size_t)(p - s) + 1);
	*out = o;
	if (esc) {
		o = unescape(s, p, o);
	} else {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
	}
	*o = '\0';
	if (outlen)
		*outlen = (size_t)(o - *out);
	return 0;
}

static const double pow10tab[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* The number at r->p; its value in *@v when @v is set. */
static int number(struct rd *r, double *v)
{
	const char *s = r->p, *p = s, *end = r->end;
	uint64_t m = 0;
	int nd = 0, slow = 0, neg = 0;
	long e10 = 0, ex = 0;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p >= end)
		return fail(r, end);
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (nd < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				nd++;
			} else {
				slow = 1;
			}
		}
	} else {
		return fail(r, p);
	}
	if (p < end && *p == '.') {
		const char *f = ++p;

		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (!nd && *p == '0') {
				e10--;	/* leading zeros of 0.000x */
			} else if (nd < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				nd++;
				e10--;
			} else {
				slow = 1;
			}
		}
		if (p == f)
			return fail(r, p);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0;
		const char *f;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		f = p;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
		if (p == f)
			return fail(r, p);
		e10 += eneg ? -ex : ex;
	}
	r->p = p;
	if (!v)
		return 0;
	if (!m && !slow) {
		/* "0.000000": fio writes many; "-0" is 0 like in simdjson (sjread.cpp) */
		*v = neg && p - s > 2 ? -0.0 : 0;
	} else if (!slow && m <= (1ull << 53) && e10 >= -22 && e10 <= 22) {
		*v = !e10 ? (double)m : e10 > 0 ? (double)m * pow10tab[e10] :
		     (double)m / pow10tab[-e10];
		if (neg)
			*v = -*v;
	} else {
		/* strtod() on a copy: the buffer is not cut after the number */
		size_t n = (size_t)(p - s);
		char small[128], *c = n < sizeof(small) ? small : xmalloc(n + 1);

		memcpy(c, s, n);
		c[n] = '\0';
		*v = strtod(c, NULL);
		if (c != small)
			free(c);
	}
	return 0;
}

static int literal(struct rd *r, const char *word, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (r->p + i >= r->end)
			return fail(r, r->end);
		if (r->p[i] != word[i])
			return fail(r, r->p);
	}
	r->p += n;
	return 0;
}

static int skipped(const struct rd *r, const char *key, size_t n)
{
	const char *const *s;
	unsigned b;

	if (!n || !r->skip)
		return 0;
	b = fbit(key, n);
	if (!(r->filter[b >> 6] >> (b & 63) & 1))
		return 0;
	for (s = r->skip; *s; s++)
		if ((*s)[0] == key[0] && !strncmp(*s, key, n) && !(*s)[n])
			return 1;
	return 0;
}

static int value(struct rd *r, cJSON **out);

/* Appends @c to @parent's children (cJSON: the first child's prev is the last). */
static void link_child(cJSON *parent, cJSON *c)
{
	if (!parent->child) {
		parent->child = c;
	} else {
		parent->child->prev->next = c;
		c->prev = parent->child->prev;
	}
	parent->child->prev = c;
}

static int object(struct rd *r, cJSON **out)
{
	cJSON *o = out ? node(cJSON_Object) : NULL;

	r->p++;
	blanks(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		goto done;
	}
	for (;;) {
		char *key = NULL;
		size_t klen = 0;
		cJSON *c = NULL;
		int skip;

		if (r->p >= r->end || *r->p != '"')
			return fail(r, r->p);
		if (string(r, out ? &key : NULL, &klen))
			return -1;
		blanks(r);
		if (r->p >= r->end || *r->p != ':')
			return fail(r, r->p);
		r->p++;
		blanks(r);
		skip = out && skipped(r, key, klen);
		if (value(r, out && !skip ? &c : NULL))
			return -1;
		if (c) {
			c->string = key;
			link_child(o, c);
		}
		blanks(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			blanks(r);
			continue;
		}
		if (r->p < r->end && *r->p == '}') {
			r->p++;
			break;
		}
		return fail(r, r->p);
	}
done:
	if (out)
		*out = o;
	return 0;
}

static int array(struct rd *r, cJSON **out)
{
	cJSON *a = out ? node(cJSON_Array) : NULL;

	r->p++;
	blanks(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		goto done;
	}
	for (;;) {
		cJSON *c = NULL;

		if (value(r, out ? &c : NULL))
			return -1;
		if (c)
			link_child(a, c);
		blanks(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			blanks(r);
			continue;
		}
		if (r->p < r->end && *r->p == ']') {
			r->p++;
			break;
		}
		return fail(r, r->p);
	}
done:
	if (out)
		*out = a;
	return 0;
}

/* The value at r->p (no blanks before it); built into *@out when @out is set. */
static int value(struct rd *r, cJSON **out)
{
	const char *s;
	cJSON *n;
	double d;
	int rc;

	if (r->p >= r->end)
		return fail(r, r->end);
	switch (*r->p) {
	case '{':
	case '[':
		if (r->depth >= CJSON_NESTING_LIMIT)
			return fail(r, r->p);
		r->depth++;
		rc = *r->p == '{' ? object(r, out) : array(r, out);
		r->depth--;
		return rc;
	case '"':
		if (!out)
			return string(r, NULL, NULL);
		n = node(cJSON_String);
		if (string(r, &n->valuestring, NULL))
			return -1;
		*out = n;
		return 0;
	case 't':
		if (literal(r, "true", 4))
			return -1;
		if (out)
			*out = node(cJSON_True);
		return 0;
	case 'f':
		if (literal(r, "false", 5))
			return -1;
		if (out)
			*out = node(cJSON_False);
		return 0;
	case 'n':
		if (literal(r, "null", 4))
			return -1;
		if (out)
			*out = node(cJSON_NULL);
		return 0;
	default:
		s = r->p;
		if (number(r, out ? &d : NULL))
			return -1;
		if (out) {
			n = node(cJSON_Number | (json_whole(s, r->p) ? JSON_WHOLE : 0));
			n->valuedouble = d;
			/* as cJSON sets it */
			n->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
			*out = n;
		}
		return 0;
	}
}

int json_number(const char *p, const char *end, double *v, const char **stop)
{
	struct rd r = { .p = p, .end = end };
	int rc = number(&r, v);

	*stop = rc ? r.err : r.p;
	return rc;
}

int json_whole(const char *p, const char *end)
{
	if (p < end && *p == '-')
		p++;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p == end || (*p != '.' && *p != 'e' && *p != 'E');
}

int json_string(const char *p, const char *end, char **out, const char **stop)
{
	struct rd r = { .p = p, .end = end };
	int rc = string(&r, out, NULL);

	*stop = rc ? r.err : r.p;
	return rc;
}

cJSON *json_read(const char *buf, size_t len, size_t start, struct jsonread *jr)
{
	struct rd r = { .p = buf + start, .end = buf + len, .skip = jr->skip };
	const char *const *s;
	cJSON *root = NULL;

	for (s = r.skip; s && *s; s++)
		if (**s) {
			unsigned b = fbit(*s, strlen(*s));

			r.filter[b >> 6] |= 1ull << (b & 63);
		}

	blanks(&r);
	if (value(&r, &root)) {
		jr->err = (size_t)(r.err - buf);
		return NULL;
	}
	jr->end = (size_t)(r.p - buf);
	return root;
}
