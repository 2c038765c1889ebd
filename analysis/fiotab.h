/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fiotab: the job model every table is computed from.
 *
 * Input files are parsed one fio JSON document at a time; each job of a
 * document becomes one flat struct job (the parsed tree is freed before the
 * next document, so memory is bounded by the largest document, not the sum).
 */
#ifndef FIOTAB_H
#define FIOTAB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum fio_dir { DIR_READ, DIR_WRITE, DIR_TRIM, NDIR };

extern const char *const dir_name[NDIR];	/* "read", "write", "trim" */
extern const char *const dir_letter[NDIR];	/* "R", "W", "T" */

struct dirstat {
	int present;		/* io_bytes > 0 */
	double io_bytes;
	double runtime_s;	/* fio's per-direction runtime, scaled if modeled */
	double iops;
	double bw_bytes;	/* bytes/s */
	double total_ios;
	double clat_mean_us;	/* NAN when absent */
	double clat_p50_us, clat_p99_us, clat_p999_us;
	uint64_t bs;		/* block size of this direction, bytes */
};

struct job {
	char *name;
	const char *host;	/* "-" for a local run (interned, like target, rw) */
	const char *target;	/* filename, else directory, else "." */
	const char *rw;
	const char *version;	/* interned "fio-3.33" */
	const char *file;	/* input file name (interned) */
	int port;
	int aggregate;		/* fio's "All clients" record */
	int modeled;		/* coop_backend=sim */
	double scale;		/* sim_time_scale, 1 for real jobs */
	int iodepth;
	int numjobs;
	uint64_t size;		/* size option, 0 if unset */
	double usr_cpu, sys_cpu;
	double timestamp;	/* unix seconds of the run */
	size_t seq;		/* input order */
	unsigned run;		/* 1-based index of its document in the input */
	struct dirstat d[NDIR];
};

struct jobset {
	struct job *v;
	size_t n, cap;
	const char **versions;	/* distinct fio versions seen, in order */
	size_t nversions;
	unsigned nskipped;	/* documents skipped by --keep-going */
	unsigned ndocs;		/* documents read */
};

/* input.c: read FILE ("-" = stdin) into @js; 0 ok, -1 error (already reported). */
int input_read(struct jobset *js, const char *file, int keep_going);
/* The same for a buffer of @len bytes (nothing after it is read). */
int input_parse(struct jobset *js, const char *name, const char *buf, size_t len,
		int keep_going);
/*
 * Members no table reads (json+'s latency "bins", slat_ns, lat_ns, the
 * iodepth_* and latency_* distributions: the list is in input.c) are
 * checked but left out of the documents jobs_from_doc() sees, unless a
 * command that reads them calls input_keep_all(1) before reading.
 */
void input_keep_all(int keep);

/* jobs.c */
struct cJSON;
int jobs_from_doc(struct jobset *js, const struct cJSON *doc, const char *file,
		  char **why);
void jobset_free(struct jobset *js);
const char *intern(const char *s);

/* fiosize.c: fio size string ("4k", "1m", "64KiB") honouring kb_base. */
int fio_parse_size(const char *s, unsigned kb_base, uint64_t *out);
/* "4k,8k,": per-direction values, defaulting to @def. */
int fio_parse_bs(const char *s, unsigned kb_base, uint64_t def, uint64_t out[NDIR]);

/* Small helpers (util.c). */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xvasprintf(const char *fmt, va_list ap);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *fmt_double(char *buf, size_t len, double v);
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
