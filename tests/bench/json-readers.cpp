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

/* what fiotab's readers leave out of the tree: input.c's skip_names, the same list */
static const char *const skip[] = { "bins", "slat_ns", "lat_ns", "iodepth_level",
	"iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms",
	"min", "max", "stddev", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev",
	"bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
	"short_ios", "drop_ios", "ctx", "majf", "minf", "eta", "elapsed", "job_runtime",
	"latency_depth", "1.000000", "5.000000", "10.000000", "20.000000", "30.000000",
	"40.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
	"99.500000", "99.950000", "99.990000", nullptr };

/*
 * simdjson's On-Demand API reading only what perftest reads (job names,
 * options, read/write bytes and runtime): the fastest, but what it does not
 * read it does not check either (a malformed number in a skipped value goes
 * unseen), so fiotab could not refuse malformed input as it does.
 */
static bool ondemand_fields(const char *b, size_t l)
{
	static simdjson::ondemand::parser op;
	simdjson::ondemand::document doc;
	simdjson::ondemand::array jobs;
	double sum = 0;

	if (op.iterate(simdjson::padded_string_view(b, l, l + SJ_PADDING)).get(doc) ||
	    doc["jobs"].get_array().get(jobs))
		return false;
	for (auto jv : jobs) {
		simdjson::ondemand::object job;

		if (jv.get_object().get(job))
			return false;
		for (auto field : job) {
			std::string_view k;

			if (field.unescaped_key().get(k))
				return false;
			if (k == "jobname") {
				std::string_view v;

				if (field.value().get_string().get(v))
					return false;
				sum += (double)v.size();
			} else if (k == "job options") {
				simdjson::ondemand::object o;

				if (field.value().get_object().get(o))
					return false;
				for (auto opt : o) {
					std::string_view kk, vv;

					if (opt.unescaped_key().get(kk) || opt.value().get_string().get(vv))
						return false;
					sum += (double)vv.size();
				}
			} else if (k == "read" || k == "write") {
				simdjson::ondemand::object d;
				uint64_t io, rt;

				if (field.value().get_object().get(d) || d["io_bytes"].get_uint64().get(io) ||
				    d["runtime"].get_uint64().get(rt))
					return false;
				sum += (double)(io + rt);
			}
		}
	}
	return sum > 0;
}

/*
 * simdjson's On-Demand API reading every value (every number parsed, every
 * string unescaped, every literal checked), as refusing malformed input
 * anywhere in a document takes, building nothing: the least a reader on it
 * would cost fiotab, against its DOM parser and sjread.cpp (simdjson's
 * stage 1, then the tokens checked and what is kept built).
 */
static bool ondemand_all(simdjson::ondemand::value v, int depth)
{
	simdjson::ondemand::json_type t;
	std::string_view sv;
	bool b;

	if (depth > 1000 || v.type().get(t))
		return false;
	switch (t) {
	case simdjson::ondemand::json_type::object: {
		simdjson::ondemand::object o;

		if (v.get_object().get(o))
			return false;
		for (auto fr : o) {
			simdjson::ondemand::field f;

			if (std::move(fr).get(f) || f.unescaped_key().get(sv) ||
			    !ondemand_all(f.value(), depth + 1))
				return false;
		}
		return true;
	}
	case simdjson::ondemand::json_type::array: {
		simdjson::ondemand::array a;

		if (v.get_array().get(a))
			return false;
		for (auto cr : a) {
			simdjson::ondemand::value c;

			if (std::move(cr).get(c) || !ondemand_all(c, depth + 1))
				return false;
		}
		return true;
	}
	case simdjson::ondemand::json_type::string:
		return !v.get_string().get(sv);
	case simdjson::ondemand::json_type::number: {
		simdjson::ondemand::number n;

		return !v.get_number().get(n);
	}
	case simdjson::ondemand::json_type::boolean:
		return !v.get_bool().get(b);
	case simdjson::ondemand::json_type::null:
		return !v.is_null().get(b) && b;
	}
	return false;
}

static bool ondemand_checked(const char *b, size_t l)
{
	static simdjson::ondemand::parser op;
	simdjson::ondemand::document doc;
	simdjson::ondemand::value root;

	if (op.iterate(simdjson::padded_string_view(b, l, l + SJ_PADDING)).get(doc) ||
	    doc.get_value().get(root))
		return false;
	return ondemand_all(root, 0);
}

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
		{ "simdjson 3.0 On-Demand (perftest's fields only, the rest unchecked)",
		  [](const char *b, size_t l, simdjson::dom::parser &) { return ondemand_fields(b, l); } },
		{ "simdjson 3.0 On-Demand (every value read and checked, nothing built)",
		  [](const char *b, size_t l, simdjson::dom::parser &) { return ondemand_checked(b, l); } },
		{ "sjread.cpp (simdjson stage 1, its tokens checked -> cJSON, skips)", [](const char *b, size_t l, simdjson::dom::parser &) {
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
