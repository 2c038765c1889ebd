// SPDX-License-Identifier: GPL-2.0-only
/*
 * simrun: replay blockdev-perftest's read test in the model without fio.
 *
 *   simrun [--size-mb N] [--iters N] [--bs BYTES[,BYTES...]] [--report] [param=value ...]
 *
 * For every block size (default 64 MiB ... 16 KiB), @iters dd-like runs
 * (fresh caches each, as blockdev-perftest drops them) of buffered
 * sequential reads over the file; prints blockdev-perftest's table from the
 * modeled times.  Parameters are the sim_* option names without the prefix
 * (see engines/sim/params.c), e.g. ioctx=shared client_ra_kb=2048.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/sim/sim.h"
#include "engines/sim/trace.h"

static double run_once(const struct sim_params *p, uint64_t size, uint64_t bs,
		       int report, uint64_t *events)
{
	char err[256];
	struct sim *s = sim_new(p, size, err, sizeof(err));
	uint64_t off, reads, bytes;
	sim_ns t, el;
	void *ck;

	if (!s) {
		fprintf(stderr, "simrun: %s\n", err);
		exit(2);
	}
	for (off = 0; off < size; off += bs) {
		sim_submit(s, off, bs < size - off ? bs : size - off, NULL);
		if (!sim_reap(s, &ck, &t)) {
			fprintf(stderr, "simrun: model lost a read at %" PRIu64 "\n", off);
			exit(1);
		}
	}
	sim_totals(s, &reads, &bytes, &el);
	if (report)
		sim_report(s, stdout);
	*events += sim_events(s);
	sim_free(s);
	return (double)el / SIM_S;
}

#define SIMRUN_MAX_ITERS 64	/* the times kept for the std */
#define SIMRUN_MAX_BS 32
#define SIMRUN_SHOWN_ITERS 3	/* time columns, as blockdev-perftest prints */

static const char usage[] =
	"usage: simrun [--size-mb N] [--iters N] [--bs BYTES[,BYTES...]] [--report] [param=value ...]\n";

/* One decimal number, whole, in min..max: else exit 2 naming the option. */
static uint64_t num_arg(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max) {
		fprintf(stderr, "simrun: %s '%s': not a decimal number from %" PRIu64 " to %" PRIu64 "\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "size-mb", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'i' },
		{ "bs", required_argument, NULL, 'b' },
		{ "report", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t size = 1024ULL << 20, bss[SIMRUN_MAX_BS], events = 0;
	int nbs = 0, iters = 3, report = 0, shown, c, i, k;
	struct sim_params p;
	char err[256];
	struct timespec t0, t1;
	double sum_mbs = 0;

	sim_params_default(&p);
	if (getenv("SIM_TRACE")) {
		sim_tracef = stderr;
		sim_trace_until = (sim_ns)(atof(getenv("SIM_TRACE")) * SIM_MS);
	}
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		char *tok, *save = NULL;

		switch (c) {
		case 's':
			size = num_arg("--size-mb", optarg, 1, 1 << 20) << 20;
			break;
		case 'i':
			iters = num_arg("--iters", optarg, 1, SIMRUN_MAX_ITERS);
			break;
		case 'b':
			if (!*optarg || optarg[0] == ',' || optarg[strlen(optarg) - 1] == ',' ||
			    strstr(optarg, ",,")) {
				fprintf(stderr, "simrun: --bs '%s': an empty block size\n", optarg);
				return 2;
			}
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (nbs == SIMRUN_MAX_BS) {
					fprintf(stderr, "simrun: --bs: more than %d block sizes\n",
						SIMRUN_MAX_BS);
					return 2;
				}
				bss[nbs++] = num_arg("--bs", tok, 512, UINT32_MAX);
			}
			break;
		case 'r':
			report = 1;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	for (i = optind; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			fprintf(stderr, "simrun: expected param=value, got '%s'\n", argv[i]);
			return 2;
		}
		*eq = 0;
		if (sim_params_set(&p, argv[i], eq + 1, err, sizeof(err))) {
			fprintf(stderr, "simrun: %s\n", err);
			return 2;
		}
	}
	if (!nbs)
		for (uint64_t b = 64ULL << 20; b >= 16384; b /= 2)
			bss[nbs++] = b;
	if (sim_params_check(&p, err, sizeof(err))) {	/* before the table's header */
		fprintf(stderr, "simrun: %s\n", err);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	shown = iters < SIMRUN_SHOWN_ITERS ? iters : SIMRUN_SHOWN_ITERS;
	printf("blocksize");
	for (i = 0; i < shown; i++)
		printf("        R");
	printf("   R(avg,   R(std        R\n  (bytes)");
	for (i = 0; i < shown; i++)
		printf("      (s)");
	printf("    MB/s)   ,MB/s)   (IOPS)\n");
	for (k = 0; k < nbs; k++) {
		double secs[SIMRUN_MAX_ITERS], mbs[SIMRUN_MAX_ITERS], avg = 0, sd = 0;

		printf("%9" PRIu64, bss[k]);
		for (i = 0; i < iters; i++) {
			secs[i] = run_once(&p, size, bss[k], report, &events);
			mbs[i] = (double)size / 1048576.0 / secs[i];
			avg += mbs[i] / iters;
			if (i < shown)
				printf(" %8.3f", secs[i]);
		}
		for (i = 0; i < iters; i++)
			sd += (mbs[i] - avg) * (mbs[i] - avg) / iters;
		printf(" %8.3f %8.3f %8.3f\n", avg, sqrt(sd), avg * 1048576.0 / bss[k]);
		sum_mbs += avg;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# mean MB/s %.3f; %" PRIu64 " events, %.3f s CPU-ish, %.1f ns/event\n",
	       sum_mbs / nbs, events,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double)events);
	return 0;
}
