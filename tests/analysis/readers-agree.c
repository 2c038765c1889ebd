// SPDX-License-Identifier: GPL-2.0-only
/*
 * fiotab's two JSON readers agree: whatever the fast reader (sjread.cpp,
 * simdjson's stage 1 and its own token walk) accepts, the full reader
 * (jsonread.c, which writes every error message) accepts too, with the
 * same tree and the same end offset.  Inputs: the grammar's edges (numbers,
 * escapes, literals, separators, NUL and control bytes, nesting), each
 * with and without skipped members, unpadded and padded with bytes that
 * could continue the value.  Each of these inputs once made the fast reader
 * accept what the full one refuses (a NUL after a number, `1"c"` read as 1,
 * a root scalar running on into the padding).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "analysis/arena.h"
#include "analysis/jsonread.h"
#include "analysis/sjread.h"

#define S(lit) { lit, sizeof(lit) - 1 }	/* keeps embedded NUL bytes */

struct input {
	const char *p;
	size_t n;
};

static const struct input inputs[] = {
	S("{}"), S("[]"), S("{\"a\":1"), S("{\"a\":[1"), S("{\"a\":1}"),
	S("{\"a\" :1 , \"b\":[1,2 ,3]}"), S("{\"a\":\"b\"x}"), S("{\"a\" x:1}"), S("{\"a\":1,}"),
	S("{\"a\":[1,]}"), S("{,}"), S("{\"a\"}"), S("{\"a\":}"), S("{\"a\":tru}"), S("{\"a\":truex}"),
	S("{\"a\":true,\"b\":false,\"c\":null}"), S("{\"a\":nul}"), S("{\"a\":-}"), S("{\"a\":-0}"),
	S("{\"a\":-0.0}"), S("{\"a\":01}"), S("{\"a\":1.}"), S("{\"a\":.5}"), S("{\"a\":1e}"),
	S("{\"a\":1e5}"), S("{\"a\":1E+5}"), S("{\"a\":1e-400}"), S("{\"a\":1e400}"),
	S("{\"a\":123456789012345678901234567890}"), S("{\"a\":0.1}"), S("{\"a\":9007199254740993}"),
	S("{\"a\":1.7976931348623157e308}"), S("{\"a\":\"\\u0000\"}"), S("{\"a\":\"\\ud800\"}"),
	S("{\"a\":\"\\udc00\"}"), S("{\"a\":\"\\ud83d\\ude00\"}"), S("{\"a\":\"\\q\"}"),
	S("{\"a\":\"x\\\"y\"}"), S("{\"a\\\"b\":1}"), S("{\"bins\":{\"1\":x}}"), S("{\"bins\":{\"1\":01}}"),
	S("{\"bins\":{\"1\":\"\\u0000\"}}"), S("{\"bins\":[1,,2]}"), S("{\"bins\":1e}"), S("{\"bins\":tru}"),
	S("{\"a\":1}{\"b\":2}"), S("{\"a\":1} x"), S("{\"a\":1 2}"), S("{\"a\":[1 2]}"),
	S("{\"a\":{\"b\":{}}}"), S("{\"a\":\"\x01\"}"), S("{\"a\":\"\xff\"}"), S("{\"a\":1\x0b}"),
	S("{\"a\":1\x0c}"), S("{\"a\":[true false]}"), S("{\"a\":1}}"), S("{\"a\":[}"), S("{\"a\":]}"),
	S("{\"a\":1:2}"), S("{\"a\"::1}"), S("{1:2}"), S("{\"a\":\"b\",\"a\":\"c\"}"), S("{\"\":1}"),
	S("{\"a\":[-1.5e3,2E-2,0e0,-0e-0,1e3,12.0,-12,0,7]}"), S("{\"a\":-01}"), S("{\"a\":--1}"), S("{\"a\":+1}"),
	S("{\"a\":0x10}"), S("{\"a\":Infinity}"), S("{\"a\":NaN}"), S("{\"a\":\"b\"\"c\"}"),
	S("{\"a\":1\"c\"}"), S("{\"a\":[\"x\"1]}"), S("{\"a\":{}\"x\"}"),
	S("{\"lat_ns\":{\"min\":1,\"x\":[1,{\"y\":\"\\ud800\"}]}}"), S("{\"a\":123.456e-2}"),
	S("{\"a\":0.000000}"), S("{\"a\":-0.000000}"), S("{\"a\":12345678901234567890}"),
	S("{\"a\":1234567890123456789}"), S("{\"a\":0.00000000000000000000001}"),
	S("{\"a\":1.23456789012345678901}"), S("{\"a\":2147483648}"), S("{\"a\":-2147483649}"),
	S(" {\"a\":1} "), S("\n{\"a\":1}\n"), S("{\"a\":1\0}"), S("{\"a\":true\0}"), S("{\"a\":\"x\0\"}"),
	S("{\"a\":1}\0"), S("{\"a\":1,\0\"b\":2}"), S("{\"bins\":[1\0]}"), S("{\"a\":1 \0}"),
	S("{\"a\":\"x\"\0}"), S("{\"a\"\0:1}"), S("{\"a\":\"x\"\f}"), S("{\"a\":\"x\"\x0b}"),
	S("{\"a\":[\"x\"\v]}"), S("{\"a\":\"x\"\xc3\xa9}"), S("{\"a\":\"\xc3\xa9\"}"), S("1"), S("-0"),
	S("\"x\""), S("true"), S("[1,2]"), S("1 2"), S("tru"), S("01"),
	/* duplicate names: both readers keep both members (input.c refuses different ones) */
	S("{\"o\":{\"a\":1,\"a\":1.0}}"), S("{\"o\":[{\"a\":{\"x\":1},\"a\":{\"x\":2}}]}"),
	S("{\"bins\":{\"1\":1,\"1\":2},\"a\":1,\"a\":1}"),
};

static const char *const skip[] = { "bins", "lat_ns", "min", "1.000000", NULL };

/* @c printed, in malloc'd memory (cJSON's own allocations are the arena's) */
static char *dump(cJSON *c)
{
	char *p = c ? cJSON_PrintUnformatted(c) : NULL;

	return p ? strdup(p) : NULL;
}

/*
 * @c's number nodes in order, 'w' for each one written whole (JSON_WHOLE),
 * 'n' for the others, into @out (@n bytes): the dump does not show it.
 */
static size_t wholes(const cJSON *c, char *out, size_t at, size_t n)
{
	for (; c; c = c->next) {
		if (cJSON_IsNumber(c) && at + 1 < n)
			out[at++] = c->type & JSON_WHOLE ? 'w' : 'n';
		at = wholes(c->child, out, at, n);
	}
	out[at < n ? at : n - 1] = '\0';
	return at;
}

/* 0 if the readers agree on @s (@k: with skipped members, @pad: padding kind) */
static int agree(const char *s, size_t n, int k, int pad)
{
	char *b = calloc(n + SJ_PADDING + 1, 1), *fast, *full, wf[64], wj[64];
	struct jsonread jr = { .skip = k ? skip : NULL };
	size_t end = n;
	cJSON *f, *f2;
	int bad = 0;

	memcpy(b, s, n);
	if (pad == 2)
		memcpy(b + n, "}2", 2);
	else if (pad == 3)
		memcpy(b + n, "2}", 2);
	f = sj_read(b, n, pad != 0, k ? skip : NULL);
	fast = dump(f);
	wholes(f, wf, 0, sizeof(wf));
	arena_reset();
	f2 = json_read(b, n, 0, &jr);
	full = dump(f2);
	wholes(f2, wj, 0, sizeof(wj));
	while (end && strchr(" \t\r\n", s[end - 1]))
		end--;
	if (f && (!full || strcmp(fast, full) || strcmp(wf, wj) || jr.end != end)) {
		printf("readers differ (skip %d, padding %d) on %.60s: fast %.80s, full %.80s (end %zu, %zu; whole numbers %s, %s)\n",
		       k, pad, s, fast, full ? full : "refused", jr.end, end, wf, wj);
		bad = 1;
	}
	arena_reset();
	free(fast);
	free(full);
	free(b);
	return bad;
}

/* {"a":[[[...]]]} nested @depth deep under member @name */
static char *nested(const char *name, int depth)
{
	size_t n = strlen(name) + 2 * (size_t)depth + 8;
	char *s = malloc(n), *p = s;

	p += sprintf(p, "{\"%s\":", name);
	memset(p, '[', depth);
	memset(p + depth, ']', depth);
	strcpy(p + 2 * depth, "}");
	return s;
}

int main(void)
{
	static const struct { const char *name; int depth; } deep[] = {
		{ "a", 1100 }, { "bins", 1100 }, { "a", 999 },
	};
	size_t i, ntests = 0;
	int k, pad, bad = 0;

	arena_begin();
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		for (k = 0; k < 2; k++)
			for (pad = 0; pad < 4; pad++, ntests++)
				bad += agree(inputs[i].p, inputs[i].n, k, pad);
	for (i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
		char *s = nested(deep[i].name, deep[i].depth);

		for (k = 0; k < 2; k++)
			for (pad = 0; pad < 4; pad++, ntests++)
				bad += agree(s, strlen(s), k, pad);
		free(s);
	}
	printf("%zu cases, %d where the readers differ\n", ntests, bad);
	return bad != 0;
}
