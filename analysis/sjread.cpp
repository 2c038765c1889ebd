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
	 * The skipped names in an open-addressed hash table (FNV-1a of the
	 * whole name): one hash and mostly one compare per member name, however
	 * many names are skipped and however alike they are ("99.000000" is
	 * read, "99.500000" is not).
	 */
	static constexpr unsigned NSLOT = 256;	/* > 2 x the 64 names at most */
	std::string_view slot[NSLOT];
	bool used[NSLOT];

	/* short names: compared inline, not by a call to memcmp() */
	static bool same(const char *a, const char *b, size_t n)
	{
		while (n && *a == *b)
			a++, b++, n--;
		return !n;
	}

	static unsigned hash(std::string_view k)
	{
		uint32_t h = 2166136261u;

		for (unsigned char c : k)
			h = (h ^ c) * 16777619u;
		return h & (NSLOT - 1);
	}

	/* bit (length, first and last byte) of a skipped name: most names miss here */
	uint64_t filter[16];

	static unsigned fbit(std::string_view k)
	{
		return (unsigned)(k.size() * 31 + (unsigned char)k[0] * 7 +
				  (unsigned char)k[k.size() - 1]) & 1023;
	}

	void add_skip(const char *name)
	{
		std::string_view k(name);
		unsigned i = hash(k);

		if (!k.empty())
			filter[fbit(k) >> 6] |= 1ull << (fbit(k) & 63);

		while (used[i] && slot[i] != k)
			i = (i + 1) & (NSLOT - 1);
		slot[i] = k;
		used[i] = true;
		nskip++;
	}

	bool skipped(std::string_view k) const
	{
		if (!nskip || k.empty() || !(filter[fbit(k) >> 6] >> (fbit(k) & 63) & 1))
			return false;
		for (unsigned i = hash(k); used[i]; i = (i + 1) & (NSLOT - 1))
			if (slot[i].size() == k.size() && same(slot[i].data(), k.data(), k.size()))
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
		if (c.nskip == 64)
			return nullptr;	/* jsonread.c takes any number */
		c.add_skip(*s);
	}
	cJSON *tree = c.copy(root);

	return c.ok ? tree : nullptr;
}
