// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fast path of fiotab's JSON reading, on simdjson (Debian's
 * libsimdjson-dev): its stage 1 finds every structural byte and token start
 * of a document with SIMD, and checks the UTF-8, the strings' ends and that
 * no raw control byte is in a string; then the tokens are walked here, each
 * checked to the JSON grammar, and what is not skipped built into cJSON
 * nodes from the document arena, so that jobs.c reads documents through one
 * API whichever reader read them.  The values of the @skip names are
 * checked but not built: their numbers are not converted (simdjson's own
 * stage 2 converted every number and wrote every string of the document,
 * which was most of fiotab's time).  Numbers and escaped strings are read by
 * jsonread.c's own code (json_number(), json_string()), so both readers take
 * and build the same.
 *
 * It is only the fast path: it gives no error positions, and it is stricter
 * than jsonread.c in places (invalid UTF-8, raw control bytes in strings,
 * nesting as deep as cJSON's limit, a NUL in a string).  So a document it
 * does not take is read again by jsonread.c, which accepts it or names the
 * first byte that is not JSON; and the trees of both are the same (the
 * fuzz target compares them on every input both accept).
 *
 * One parser lives until exit: its buffers grow to the largest document.
 */
#include <simdjson.h>

#include <climits>
#include <cstdint>
#include <cstring>

extern "C" {
#include <cjson/cJSON.h>

#include "analysis/arena.h"
#include "analysis/jsonread.h"
}
#include "analysis/sjread.h"

namespace {

struct walker {
	const char *buf, *end;
	const uint32_t *idx;	/* token starts (stage 1) */
	uint32_t n, t;		/* tokens, the next one */
	int nskip;
	int depth;
	bool esc;		/* a backslash somewhere in the document */

	/*
	 * Nodes and strings are bumped from 64 KiB blocks of the arena: one
	 * call into arena.c per block, not per node.
	 */
	char *cur = nullptr, *lim = nullptr;

	void *alloc(size_t n)
	{
		n = (n + 7) & ~(size_t)7;
		if ((size_t)(lim - cur) < n) {
			size_t block = n > 65536 ? n : 65536;

			cur = static_cast<char *>(arena_alloc(block));
			lim = cur + block;
		}
		void *p = cur;

		cur += n;
		return p;
	}

	cJSON *node(int type)
	{
		cJSON *n = static_cast<cJSON *>(alloc(sizeof(cJSON)));

		std::memset(n, 0, sizeof(*n));
		n->type = type;
		return n;
	}

	/*
	 * The skipped names by a hash of length, first and last byte, which
	 * sets them apart (chained where two share it): a member name costs
	 * that hash, one table load and, mostly for names that are skipped, one
	 * length and byte compare ("99.000000" is read, "99.500000" is not).
	 * Hashing every byte of every name was most of the copy's time.
	 */
	static constexpr unsigned NSLOT = 1024;
	static constexpr int MAXSKIP = 64;
	std::string_view name[MAXSKIP];
	unsigned char head[NSLOT];		/* 1 + first name's index, 0: none */
	unsigned char chain[MAXSKIP];		/* 1 + next name's index with its slot */
	size_t maxlen;

	/*
	 * Equal bytes, for names mostly 3 to 16 bytes long: two overlapping
	 * loads from each side cover 4 to 16 bytes, all inside both names.
	 */
	static uint64_t ld8(const char *p)
	{
		uint64_t v;

		std::memcpy(&v, p, 8);
		return v;
	}

	static uint32_t ld4(const char *p)
	{
		uint32_t v;

		std::memcpy(&v, p, 4);
		return v;
	}

	static bool same(const char *a, const char *b, size_t n)
	{
		if (n >= 8 && n <= 16)
			return ld8(a) == ld8(b) && ld8(a + n - 8) == ld8(b + n - 8);
		if (n >= 4 && n < 8)
			return ld4(a) == ld4(b) && ld4(a + n - 4) == ld4(b + n - 4);
		if (n < 4)
			return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
		return !std::memcmp(a, b, n);
	}

	static unsigned slot_of(const char *k, size_t n)
	{
		return (unsigned)(n * 31 + (unsigned char)k[0] * 7 +
				  (unsigned char)k[n - 1]) & (NSLOT - 1);
	}

	void add_skip(const char *s)
	{
		std::string_view k(s);

		if (k.empty())
			return;		/* no member name is skipped by "" */
		unsigned i = slot_of(k.data(), k.size());

		name[nskip] = k;
		chain[nskip] = head[i];
		head[i] = (unsigned char)(nskip + 1);
		if (k.size() > maxlen)
			maxlen = k.size();
		nskip++;
	}

	bool skipped(std::string_view k) const
	{
		size_t n = k.size();

		if (!n || n > maxlen)
			return false;
		for (unsigned i = head[slot_of(k.data(), n)]; i; i = chain[i - 1])
			if (name[i - 1].size() == n && same(name[i - 1].data(), k.data(), n))
				return true;
		return false;
	}

	/* a child list as cJSON keeps it: the first one's prev is the last one */
	struct list {
		cJSON *first = nullptr, *last = nullptr;

		void add(cJSON *c)
		{
			if (!first) {
				first = c;
			} else {
				last->next = c;
				c->prev = last;
			}
			last = c;
		}

		cJSON *done()
		{
			if (first)
				first->prev = last;
			return first;
		}
	};

	/*
	 * The byte token @t starts with; past the last one, the byte at the
	 * end (stage 1's idx[n] is the length): a blank or padding, which no
	 * check below takes for a token.
	 */
	char tok() const
	{
		return buf[idx[t]];
	}

	/*
	 * The string token at @t: [*@s, *@s + *@len) when it has no escape
	 * (the bytes in the buffer), else decoded into the arena by
	 * jsonread.c (*@dec, NULL when not @build), which refuses what it
	 * refuses ("\u0000", lone surrogates, unknown escapes).  Stage 1
	 * found its closing quote, only blanks between it and the next token,
	 * and no NUL or control byte in it: without a backslash in the
	 * document, the quote is found from the next token back.
	 */
	static constexpr uint64_t ONES = 0x0101010101010101ull, HIGHS = 0x8080808080808080ull;

	bool string(bool build, const char **s, size_t *len, char **dec)
	{
		const char *q = buf + idx[t] + 1, *stop;

		*dec = nullptr;
		if (!esc) {
			/* the last byte before the next token but blanks */
			const char *e = buf + idx[t + 1] - 1;

			while (*e != '"')
				e--;
			*s = q;
			*len = (size_t)(e - q);
			t++;
			return true;
		}
		for (;;) {
			uint64_t w, a, b, m;

			std::memcpy(&w, q, 8);	/* padded: stage 1 saw the quote before the end */
			a = w ^ (ONES * '"');
			b = w ^ (ONES * '\\');
			m = (((a - ONES) & ~a) | ((b - ONES) & ~b)) & HIGHS;
			if (m) {
				q += __builtin_ctzll(m) >> 3;
				break;
			}
			q += 8;
		}
		if (*q == '"') {
			*s = buf + idx[t] + 1;
			*len = (size_t)(q - *s);
			t++;
			return true;
		}
		/* an escape: jsonread.c's reading of it, so both readers agree */
		char *o = nullptr;

		if (json_string(buf + idx[t], end, build ? &o : nullptr, &stop))
			return false;
		if (o) {
			*len = std::strlen(o);
			*s = o;
			*dec = o;
		} else {
			*s = nullptr;
			*len = 0;
		}
		t++;
		return true;
	}

	/* a NUL-terminated copy of [s, s + len) (bytes up to 16 past it are readable) */
	char *copy_str(const char *s, size_t len)
	{
		char *o = static_cast<char *>(alloc(len + 17));

		std::memcpy(o, s, 16);
		if (len > 16)
			std::memcpy(o + 16, s + 16, len - 16);
		o[len] = '\0';
		return o;
	}

	/*
	 * A scalar ends at a blank or a structural byte (what follows is the
	 * grammar's), not at a quote: stage 1 takes "1\"c\"" as one token.
	 */
	static bool ends(char c)
	{
		return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' || c == '}' ||
		       c == ']' || c == ':' || c == '{' || c == '[';
	}

	/* ... or at the end of the document (a NUL before it is no end) */
	bool ends_at(const char *p) const
	{
		return p == end || ends(*p);
	}

	static bool digit(char c)
	{
		return (unsigned char)(c - '0') < 10;
	}

	/*
	 * A number checked, not converted: jsonread.c's grammar (RFC 8259),
	 * which needs no bounds here (the bytes after the end are no digits).
	 */
	bool number_ok(const char *p) const
	{
		if (*p == '-')
			p++;
		if (*p == '0') {
			p++;
		} else if (digit(*p)) {
			while (digit(*++p))
				;
		} else {
			return false;
		}
		if (*p == '.') {
			if (!digit(*++p))
				return false;
			while (digit(*++p))
				;
		}
		if (*p == 'e' || *p == 'E') {
			p++;
			if (*p == '+' || *p == '-')
				p++;
			if (!digit(*p))
				return false;
			while (digit(*++p))
				;
		}
		return ends_at(p);
	}

	/*
	 * The value of a number without exponent of up to 19 digits, as
	 * jsonread.c's number() computes it (its Clinger fast path, its zeros)
	 * but without bounds (see number_ok()): 1, or 2 when that takes
	 * number() itself, or 0 when it is not a number.
	 */
	int number_val(const char *s, double *v) const
	{
		static const double pow10[] = {
			1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
			1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
		};
		const char *p = s;
		bool neg = false;
		uint64_t m = 0;
		int nd = 0, e10 = 0;

		if (*p == '-') {
			neg = true;
			p++;
		}
		if (*p == '0') {
			p++;
		} else if (digit(*p)) {
			do {
				if (nd == 19)
					return 2;
				m = m * 10 + (uint64_t)(*p - '0');
				nd++;
			} while (digit(*++p));
		} else {
			return 0;
		}
		if (*p == '.') {
			if (!digit(*++p))
				return 0;
			do {
				if (!nd && *p == '0') {
					e10--;	/* leading zeros of 0.000x */
				} else {
					if (nd == 19)
						return 2;
					m = m * 10 + (uint64_t)(*p - '0');
					nd++;
					e10--;
				}
			} while (digit(*++p));
		}
		if (*p == 'e' || *p == 'E')
			return 2;
		if (!ends_at(p))
			return 0;
		if (!m) {
			*v = neg && p - s > 2 ? -0.0 : 0;
		} else {
			if (m > (1ull << 53) || e10 < -22)
				return 2;
			*v = !e10 ? (double)m : (double)m / pow10[-e10];
			if (neg)
				*v = -*v;
		}
		return 1;
	}

	bool literal(const char *w, size_t len)
	{
		const char *p = buf + idx[t];

		if ((size_t)(end - p) < len || std::memcmp(p, w, len) || !ends_at(p + len))
			return false;
		t++;
		return true;
	}

	/*
	 * The value at token @t checked, not built (the skipped ones, most of
	 * the tokens): one loop over the tokens, the open containers on a bit
	 * stack, strings not looked at unless the document has a backslash.
	 */
	bool skip()
	{
		static constexpr int MAXD = CJSON_NESTING_LIMIT;
		uint64_t obj[(MAXD + 63) / 64];	/* bit d: the container at d is an object */
		int d = 0;
		const char *stop;
		char c;

value:
		switch (tok()) {
		case '{':
		case '[':
			if (depth + d + 1 >= MAXD)
				return false;	/* jsonread.c says whether that is too deep */
			c = tok();
			if (c == '{')
				obj[d >> 6] |= 1ull << (d & 63);
			else
				obj[d >> 6] &= ~(1ull << (d & 63));
			d++;
			t++;
			if (tok() == (c == '{' ? '}' : ']')) {
				t++;
				d--;
				goto after;
			}
			if (c == '{')
				goto key;
			goto value;
		case '"':
			if (esc && json_string(buf + idx[t], end, nullptr, &stop))
				return false;
			t++;
			goto after;
		case 't':
			if (!literal("true", 4))
				return false;
			goto after;
		case 'f':
			if (!literal("false", 5))
				return false;
			goto after;
		case 'n':
			if (!literal("null", 4))
				return false;
			goto after;
		default:
			if (!number_ok(buf + idx[t]))
				return false;
			t++;
			goto after;
		}
key:
		if (tok() != '"' || (esc && json_string(buf + idx[t], end, nullptr, &stop)))
			return false;
		t++;
		if (tok() != ':')
			return false;
		t++;
		goto value;
after:
		if (!d)
			return true;
		{
			bool o = obj[(d - 1) >> 6] >> ((d - 1) & 63) & 1;

			c = tok();
			if (c == ',') {
				t++;
				if (o)
					goto key;
				goto value;
			}
			if (c == (o ? '}' : ']')) {
				t++;
				d--;
				goto after;
			}
		}
		return false;
	}

	/*
	 * The value at token @t, built when @build (else checked only): false
	 * when it is not JSON or not taken here.
	 */
	bool value(bool build, cJSON **out)
	{
		const char *s, *stop;
		size_t len;
		char *dec;
		double d;

		if (!build)
			return skip();
		switch (tok()) {
		case '{':
			return object(build, out);
		case '[':
			return array(build, out);
		case '"':
			if (!string(build, &s, &len, &dec))
				return false;
			if (build) {
				*out = node(cJSON_String);
				(*out)->valuestring = dec ? dec : copy_str(s, len);
			}
			return true;
		case 't':
			if (!literal("true", 4))
				return false;
			if (build)
				*out = node(cJSON_True);
			return true;
		case 'f':
			if (!literal("false", 5))
				return false;
			if (build)
				*out = node(cJSON_False);
			return true;
		case 'n':
			if (!literal("null", 4))
				return false;
			if (build)
				*out = node(cJSON_NULL);
			return true;
		case 0:
			return false;
		default:
			s = buf + idx[t];
			if (!build) {
				if (!number_ok(s))
					return false;
				t++;
				return true;
			}
			switch (number_val(s, &d)) {
			case 0:
				return false;
			case 2:	/* an exponent, many digits: jsonread.c's code */
				if (json_number(s, end, &d, &stop) || !ends_at(stop))
					return false;
			}
			t++;
			{
				cJSON *c = node(cJSON_Number | (json_whole(s, end) ? JSON_WHOLE : 0));

				c->valuedouble = d;
				/* as cJSON sets it */
				c->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
				*out = c;
			}
			return true;
		}
	}

	bool object(bool build, cJSON **out)
	{
		list l;

		if (++depth >= CJSON_NESTING_LIMIT)
			return false;	/* jsonread.c says whether that is too deep */
		t++;
		if (tok() != '}') {
			for (;;) {
				const char *k;
				size_t klen;
				char *dec;
				cJSON *c = nullptr;

				if (tok() != '"' || !string(build, &k, &klen, &dec) || tok() != ':')
					return false;
				t++;
				bool keep = build && !skipped(std::string_view(k, klen));

				if (!value(keep, &c))
					return false;
				if (keep) {
					c->string = dec ? dec : copy_str(k, klen);
					l.add(c);
				}
				if (tok() == ',') {
					t++;
					continue;
				}
				if (tok() == '}')
					break;
				return false;
			}
		}
		t++;
		depth--;
		if (build) {
			*out = node(cJSON_Object);
			(*out)->child = l.done();
		}
		return true;
	}

	bool array(bool build, cJSON **out)
	{
		list l;

		if (++depth >= CJSON_NESTING_LIMIT)
			return false;
		t++;
		if (tok() != ']') {
			for (;;) {
				cJSON *c = nullptr;

				if (!value(build, &c))
					return false;
				if (build)
					l.add(c);
				if (tok() == ',') {
					t++;
					continue;
				}
				if (tok() == ']')
					break;
				return false;
			}
		}
		t++;
		depth--;
		if (build) {
			*out = node(cJSON_Array);
			(*out)->child = l.done();
		}
		return true;
	}
};

simdjson::dom::parser *parser;

} // namespace

static_assert(SJ_PADDING >= simdjson::SIMDJSON_PADDING, "SJ_PADDING too small for simdjson");

extern "C" cJSON *sj_read(const char *buf, size_t len, int padded, const char *const *skip)
{
	static char *copy;
	static size_t copycap;

	if (!parser) {
		parser = new (std::nothrow) simdjson::dom::parser;
		if (!parser)
			return nullptr;
	}
	if (!len || len > simdjson::SIMDJSON_MAXSIZE_BYTES)
		return nullptr;
	/*
	 * The walk stops at the byte after the value (no digit, letter or
	 * structural byte may follow it there): else it is read from a copy.
	 */
	if (padded && buf[len] && buf[len] != ' ' && buf[len] != '\n' && buf[len] != '\r' &&
	    buf[len] != '\t')
		padded = 0;
	if (!padded) {
		if (copycap < len + SJ_PADDING) {
			delete[] copy;
			copycap = len + SJ_PADDING;
			copy = new (std::nothrow) char[copycap];
			if (!copy) {
				copycap = 0;
				return nullptr;
			}
		}
		std::memcpy(copy, buf, len);
		std::memset(copy + len, 0, SJ_PADDING);
		buf = copy;
	}
	if (parser->capacity() < len && parser->allocate(len < 65536 ? 65536 : len + len / 8))
		return nullptr;
	/* stage 1 only: the token starts, the UTF-8 and the strings checked */
	if (parser->implementation->stage1(reinterpret_cast<const uint8_t *>(buf), len,
					   simdjson::stage1_mode::regular))
		return nullptr;
	walker w{};

	w.esc = std::memchr(buf, '\\', len);
	w.buf = buf;
	w.end = buf + len;
	w.idx = parser->implementation->structural_indexes.get();
	w.n = parser->implementation->n_structural_indexes;
	if (w.idx[w.n] != len)
		return nullptr;	/* stage 1's end mark, which tok() relies on */
	for (const char *const *s = skip; s && *s; s++) {
		if (w.nskip == walker::MAXSKIP)
			return nullptr;	/* jsonread.c takes any number */
		w.add_skip(*s);
	}
	cJSON *tree = nullptr;

	if (!w.value(true, &tree) || w.t != w.n)
		return nullptr;	/* not JSON, or more after the value */
	return tree;
}
