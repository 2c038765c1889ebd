// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: arbitrary bytes as a fio output file, through the
 * reader (both with and without --keep-going), every table, every output
 * format and the SVG plot.  Output goes to a memory stream that is thrown
 * away; the point is that nothing crashes, leaks or trips ASan/UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	out_influx(f, tl);
	out_prom(f, tl);
	fclose(f);
	free(buf);
	tablist_free(tl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *wr[] = { "-w-", "^(.*)-r-" };
	struct selector all = { 0 }, qd = { .x = "iodepth" }, b = { wr, 1, 1 }, c = { wr + 1, 1, 1 };
	const struct selector *axes[] = { &all, &qd };
	struct ratio_opts ro = { .alpha = 0.05 };
	struct serieslist sl, bs, cs;
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
	for (kg = 0; kg < 2; kg++) {
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
			perftest_tables(&sl, &tl);
			f = open_memstream(&svg, &svglen);
			if (f) {
				svg_plot(f, &sl);
				fclose(f);
				free(svg);
				svg = NULL;
			}
			series_free(&sl);
		}
		if (!series_build(&js, &b, &bs) && !series_build(&js, &c, &cs)) {
			series_sort(&bs);
			series_sort(&cs);
			if (bs.n && cs.n)
				ratio_table(&bs, &bs.v[0], &cs.v[0], &ro, &tl);
		}
		series_free(&bs);
		series_free(&cs);
		all_formats(&tl);
		jobset_free(&js);
	}
	free(buf);
	return 0;
}
