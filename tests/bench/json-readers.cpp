// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON readers fiotab could use, on one fio output file, in one process,
 * each a number of times in turn: MB/s of parsing into each one's tree (and
 * freeing it).  Built and run by fiotab-vs-jq.sh on its json and json+
 * templates; yajl only when libyajl-dev is installed (HAVE_YAJL).
 *
 *   json-readers FILE ROUNDS
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>

extern "C" {
#include <cjson/cJSON.h>

#include "analysis/arena.h"
#include "analysis/jsonread.h"
#include "analysis/sjread.h"
#ifdef HAVE_YAJL
#include <yajl/yajl_tree.h>
#endif
}

static const char *const skip[] = { "bins", "slat_ns", "lat_ns", "iodepth_level",
	"iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms", nullptr };

int main(int argc, char **argv)
{
	if (argc != 3) {
		std::fprintf(stderr, "usage: json-readers FILE ROUNDS\n");
		return 1;
	}
	FILE *f = std::fopen(argv[1], "rb");
	if (!f)
		return 1;
	std::string s;
	char chunk[65536];
	size_t n;
	while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0)
		s.append(chunk, n);
	std::fclose(f);
	int rounds = std::atoi(argv[2]);
	std::vector<char> padded(s.size() + SJ_PADDING + 1, 0);
	std::memcpy(padded.data(), s.data(), s.size());
	const char *buf = padded.data();
	size_t len = s.size();
	simdjson::dom::parser dp;

	struct reader {
		const char *name;
		bool (*run)(const char *, size_t, simdjson::dom::parser &);
	};
	static const reader readers[] = {
		{ "cJSON 1.7 (full tree, malloc)", [](const char *b, size_t l, simdjson::dom::parser &) {
			cJSON *d = cJSON_ParseWithLength(b, l);
			cJSON_Delete(d);
			return d != nullptr;
		} },
#ifdef HAVE_YAJL
		{ "yajl 2.1 tree", [](const char *b, size_t, simdjson::dom::parser &) {
			char err[128];
			yajl_val v = yajl_tree_parse(b, err, sizeof(err));
			yajl_tree_free(v);
			return v != nullptr;
		} },
#endif
		{ "jsonread.c (cJSON tree, arena, skips)", [](const char *b, size_t l, simdjson::dom::parser &) {
			struct jsonread jr = {};
			jr.skip = skip;
			bool ok = json_read(b, l, 0, &jr) != nullptr;
			arena_reset();
			return ok;
		} },
		{ "simdjson 3.0 DOM (its tape only)", [](const char *b, size_t l, simdjson::dom::parser &p) {
			simdjson::dom::element e;
			return !p.parse(b, l, false).get(e);
		} },
		{ "sjread.cpp (simdjson DOM -> cJSON, skips)", [](const char *b, size_t l, simdjson::dom::parser &) {
			bool ok = sj_read(b, l, 1, skip) != nullptr;
			arena_reset();
			return ok;
		} },
	};
	arena_begin();
	for (const reader &r : readers) {
		double best = 0;
		for (int k = 0; k < 3; k++) {	/* best of 3 batches */
			auto t0 = std::chrono::steady_clock::now();
			for (int i = 0; i < rounds; i++)
				if (!r.run(buf, len, dp)) {
					std::fprintf(stderr, "%s rejected %s\n", r.name, argv[1]);
					return 1;
				}
			double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
			double mbs = (double)len * rounds / t / 1e6;
			if (mbs > best)
				best = mbs;
		}
		std::printf("%s\t%.0f\n", r.name, best);
	}
	arena_end();
	return 0;
}
