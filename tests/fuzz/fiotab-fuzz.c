// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: arbitrary bytes as a fio output file, through the
 * reader (both with and without --keep-going, skipping what no table reads
 * and keeping all), every table, every output format and the SVG plot.
 * Output goes to a memory stream that is thrown away; the point is that
 * nothing crashes, leaks or trips ASan/UBSan.
 *
 * And the two JSON readers agree: whatever simdjson's fast path
 * (sjread.cpp) takes, jsonread.c takes too, ending at the same byte, with
 * the same tree (types, names, strings, numbers to the bit); anything else
 * aborts.  (jsonread.c may take more: invalid UTF-8, raw control bytes,
 * numbers beyond 64-bit integers or double's range.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/arena.h"
#include "analysis/jsonread.h"
#include "analysis/sjread.h"
#include "analysis/tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void all_formats(struct tablist *tl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	out_text(f, tl);
	out_csv(f, tl);
	out_json(f, tl);
	out_markdown(f, tl);
	out_influx(f, tl);	/* may refuse (too many labels): nothing written */
	out_prom(f, tl);
	fclose(f);
	free(buf);
	tablist_free(tl);
}

/* Same trees, and each list's first prev is its last node, as cJSON keeps them. */
static int same(const cJSON *a, const cJSON *b, int children)
{
	const cJSON *fa = a, *fb = b;

	for (; a && b; a = a->next, b = b->next) {
		if (a->type != b->type || !a->string != !b->string ||
		    (a->string && strcmp(a->string, b->string)))
			return 0;
		if (a->type == cJSON_Number &&
		    (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) ||
		     a->valueint != b->valueint))
			return 0;
		if (a->type == cJSON_String && strcmp(a->valuestring, b->valuestring))
			return 0;
		if ((a->type == cJSON_Array || a->type == cJSON_Object) && !same(a->child, b->child, 1))
			return 0;
		if (children && !a->next && ((fa->prev != a) || (fb->prev != b)))
			return 0;
	}
	return !a && !b;
}

static void readers_agree(const char *buf, size_t size)
{
	static const char *const skip[] = { "bins", "lat_ns", NULL };
	int k;

	arena_begin();
	for (k = 0; k < 2; k++) {
		cJSON *fast = sj_read(buf, size, 0, k ? skip : NULL), *slow;
		struct jsonread jr = { .skip = k ? skip : NULL };
		size_t end = size;

		if (!fast)
			continue;
		while (end && strchr(" \t\r\n", buf[end - 1]))
			end--;
		slow = json_read(buf, size, 0, &jr);
		if (!slow || jr.end != end || !same(fast, slow, 0))
			abort();
		arena_reset();
	}
	arena_end();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *wr[] = { "-w-", "^(.*)-r-" };
	struct selector all = { 0 }, qd = { .x = "iodepth" }, b = { wr, 1, 1 }, c = { wr + 1, 1, 1 };
	const struct selector *axes[] = { &all, &qd };
	struct ratio_opts ro = { .alpha = 0.05 };
	struct serieslist sl = { 0 }, bs = { 0 }, cs = { 0 };
	struct jobset js = { 0 };
	struct tablist tl = { 0 };
	char *buf = malloc(size + 1), *svg = NULL;
	size_t svglen = 0;
	FILE *f;
	int kg, ax;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	readers_agree(buf, size);
	for (kg = 0; kg < 2; kg++) {
		input_keep_all(kg);
		if (input_parse(&js, "fuzz", buf, size, kg) && !kg) {
			jobset_free(&js);
			continue;
		}
		summary_tables(&js, &tl);
		dd_tables(&js, &tl);
		iozone_tables(&js, &tl);
		bonnie_tables(&js, &tl);
		for (ax = 0; ax < 2; ax++) {
			if (series_build(&js, axes[ax], &sl))
				continue;
			series_sort(&sl);
			f = open_memstream(&svg, &svglen);
			if (f) {
				svg_plot(f, &sl, NULL);
				fclose(f);
				free(svg);
				svg = NULL;
			}
			series_free(&sl);
		}
		all_formats(&tl);
		jobset_free(&js);
	}
	/* ratio: one read folded for both selectors */
	input_keep_all(0);
	js.fold = fold_new(&b, &c, FOLD_TIMES);
	if (!input_parse(&js, "fuzz", buf, size, 1) && !series_build(&js, &b, &bs) &&
	    !series_build(&js, &c, &cs)) {
		series_sort(&bs);
		series_sort(&cs);
		if (bs.n && cs.n)
			ratio_table(&bs, &bs.v[0], js.fold, &cs.v[0], js.fold, &ro, &tl);
		all_formats(&tl);
	}
	series_free(&bs);
	series_free(&cs);
	fold_free(js.fold);
	jobset_free(&js);
	/* perftest: the jobs folded as they are read (and --no-iterations) */
	for (ax = 0; ax < 4; ax++) {
		input_keep_all(0);
		js.fold = fold_new(axes[ax / 2], NULL, ax % 2 ? FOLD_TIMES : 0);
		if (!input_parse(&js, "fuzz", buf, size, 1) && !series_build(&js, axes[ax / 2], &sl)) {
			series_sort(&sl);
			perftest_fold_tables(&sl, js.fold, !(ax % 2), &tl);
			all_formats(&tl);
			series_free(&sl);
		}
		fold_free(js.fold);
		jobset_free(&js);
	}
	free(buf);
	return 0;
}
