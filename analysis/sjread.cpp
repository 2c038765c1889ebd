// SPDX-License-Identifier: GPL-2.0-only
/*
 * simdjson (Debian's libsimdjson-dev) behind a C interface: its DOM parser
 * checks a whole document (structure, strings, UTF-8, numbers) at GB/s with
 * SIMD, and the tree it leaves is copied into cJSON nodes from the document
 * arena, leaving out the values of the @skip names, so that jobs.c reads
 * documents through one API whichever parser read them.
 *
 * It is only the fast path: it gives no error positions, and it is stricter
 * than cJSON and jsonread.c in places (invalid UTF-8, raw control bytes in
 * strings, integers beyond 64 bits, numbers beyond double's range).  So a
 * document it does not take is read again by jsonread.c, which accepts it
 * or names the first byte that is not JSON; and the trees of both are the
 * same (the fuzz target compares them on every input both accept).
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
}
#include "analysis/sjread.h"

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

struct copier {
	int nskip;
	int depth;
	bool ok;

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
	 * simdjson's DOM keeps each string NUL-terminated in its string buffer,
	 * which lives until the next parse: the tree points there (it is read
	 * and reset before the next document is parsed), and copies only a
	 * string that would not be terminated.
	 */
	char *str(std::string_view s)
	{
		if (!s.data()[s.size()])
			return const_cast<char *>(s.data());
		return copy_str(s);
	}

	char *copy_str(std::string_view s)
	{
		char *o = static_cast<char *>(alloc(s.size() + 1));

		std::memcpy(o, s.data(), s.size());
		o[s.size()] = '\0';
		return o;
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

	cJSON *copy(element e)
	{
		simdjson::dom::object obj;
		simdjson::dom::array arr;
		std::string_view sv;
		cJSON *n;
		double d;
		bool b;

		if (!ok)
			return nullptr;
		switch (e.type()) {
		case element_type::OBJECT:
			if (++depth > CJSON_NESTING_LIMIT) {
				ok = false;
				return nullptr;
			}
			if (e.get(obj)) {
				ok = false;
				return nullptr;
			}
			n = node(cJSON_Object);
			{
				list l;

				for (auto field : obj) {
					if (skipped(field.key))
						continue;
					cJSON *c = copy(field.value);

					if (!c)
						return nullptr;
					c->string = str(field.key);
					l.add(c);
				}
				n->child = l.done();
			}
			depth--;
			return n;
		case element_type::ARRAY:
			if (++depth > CJSON_NESTING_LIMIT) {
				ok = false;
				return nullptr;
			}
			if (e.get(arr)) {
				ok = false;
				return nullptr;
			}
			n = node(cJSON_Array);
			{
				list l;

				for (element c : arr) {
					cJSON *cc = copy(c);

					if (!cc)
						return nullptr;
					l.add(cc);
				}
				n->child = l.done();
			}
			depth--;
			return n;
		case element_type::STRING:
			if (e.get(sv)) {
				ok = false;
				return nullptr;
			}
			n = node(cJSON_String);
			n->valuestring = str(sv);
			return n;
		case element_type::INT64:
		case element_type::UINT64:
		case element_type::DOUBLE:
			if (e.get(d)) {
				ok = false;
				return nullptr;
			}
			n = node(cJSON_Number);
			n->valuedouble = d;
			n->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
			return n;
		case element_type::BOOL:
			if (e.get(b)) {
				ok = false;
				return nullptr;
			}
			return node(b ? cJSON_True : cJSON_False);
		case element_type::NULL_VALUE:
			return node(cJSON_NULL);
		}
		ok = false;
		return nullptr;
	}
};

simdjson::dom::parser *parser;

/*
 * "\u0000" would put a NUL in a string, which jsonread.c refuses (a C string
 * cannot hold it).  fio writes few backslashes, and memchr() finds them fast.
 */
bool nul_escape(const char *p, size_t n)
{
	const char *e = p + n;

	while (p < e && (p = static_cast<const char *>(std::memchr(p, '\\', (size_t)(e - p))))) {
		if (e - p >= 6 && !std::memcmp(p, "\\u0000", 6))
			return true;
		p += 2;		/* the escaped byte, "\\\\" included */
	}
	return false;
}

} // namespace

static_assert(SJ_PADDING >= simdjson::SIMDJSON_PADDING, "SJ_PADDING too small for simdjson");

extern "C" cJSON *sj_read(const char *buf, size_t len, int padded, const char *const *skip)
{
	element root;

	if (!parser) {
		parser = new (std::nothrow) simdjson::dom::parser;
		if (!parser)
			return nullptr;
	}
	if (nul_escape(buf, len))
		return nullptr;
	if (parser->parse(buf, len, !padded).get(root))
		return nullptr;
	copier c{};

	c.ok = true;
	for (const char *const *s = skip; s && *s; s++) {
		if (c.nskip == copier::MAXSKIP)
			return nullptr;	/* jsonread.c takes any number */
		c.add_skip(*s);
	}
	cJSON *tree = c.copy(root);

	return c.ok ? tree : nullptr;
}
