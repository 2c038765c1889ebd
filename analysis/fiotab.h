/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fiotab: the job model every table is computed from.
 *
 * Input files are parsed one fio JSON document at a time; each job of a
 * document becomes one struct job (the parsed tree is freed before the next
 * document: the reading is bounded by the largest document).  What the jobs
 * keep grows with their number, so a job is small: interned strings, one
 * pointer to its configuration (shared by every job of that configuration),
 * and pointers to its direction records, one per direction it ran (those of
 * the directions it did not run are shared), 120 + 72 bytes.  perftest,
 * ratio and plot do not keep them: they fold each document's jobs as it is
 * read (struct fold, group.h).
 */
#ifndef FIOTAB_H
#define FIOTAB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * DIR_MIXED is fio's "mixed" record (unified_rw_reporting=1: the only one;
 * =2 "both": beside read, write and trim, their sum).
 */
enum fio_dir { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_MIXED, NDIR };
#define NRWT 3		/* the directions of bs=R,W,T */

/* The latencies fio histograms in json+ ("clat_ns", "slat_ns", "lat_ns"). */
enum fio_lat { LAT_CLAT, LAT_SLAT, LAT_LAT, NLAT };
extern const char *const lat_name[NLAT];	/* "clat", "slat", "lat" */

/*
 * One json+ "bins" object: fio's key of each non-empty bucket (the value
 * plat_idx_to_val() gives, ns) and its count, ascending by key.  hist.c
 * turns keys into exact bucket bounds.
 */
struct latbins {
	size_t n;
	uint64_t *key, *count;
	double mean_ns;		/* fio's mean over all samples, for _sum */
	double samples;		/* fio's "N" */
};

extern const char *const dir_name[NDIR];	/* "read", "write", "trim", "mixed" */
extern const char *const dir_letter[NDIR];	/* "R", "W", "T", "M" */

struct dirstat {
	int present;		/* io_bytes > 0 */
	double io_bytes;
	double runtime_s;	/* fio's per-direction runtime, scaled if modeled */
	double iops;
	double total_ios;
	double clat_p50_us, clat_p99_us, clat_p999_us;
	uint64_t bs;		/* block size of this direction, bytes */
};

/*
 * What the jobs of one document share: its fio version, input file, time
 * and identity (jobs.c keeps one per document read).
 */
struct jobdoc {
	const char *version;	/* interned "fio-3.33" */
	const char *file;	/* input file name (interned) */
	double timestamp;	/* unix seconds of the run */
	double timestamp_ms;	/* "timestamp_ms" of the document, else timestamp*1000 */
	unsigned run;		/* 1-based index of the document in the input */
	const char *runid;	/* hash of the document's content (interned hex); NULL folded */
	/*
	 * > 0 when its groups ran side by side (jobs.c groups_overlap()):
	 * their longest runtimes added (ms), more than fio's "elapsed" (s)
	 */
	double groups_ms, elapsed_s;
	/*
	 * a fio --client run with jobs in more than one group: its JSON has
	 * no "elapsed", so whether they overlapped is unknown (groupids merged)
	 */
	int groups_unknown;
};

/*
 * What a job's options make of it, shared by every job with the same
 * "job options" and "global options" (jobs.c works it out once per pair).
 */
struct jconf {
	const char *target;	/* filename, else directory, else "." (interned) */
	const char *rw;		/* interned */
	int modeled;		/* coop_backend=sim */
	int iodepth;
	int numjobs;
	int mean_bs;		/* no bs: the mean transfer size stands for it */
	int verify;		/* writes with verify: fio counts its verify reads as reads */
	double scale;		/* sim_time_scale, 1 for real jobs */
	/*
	 * The size of each file the job laid out (filesize, else size /
	 * nrfiles), 0 when the options do not tell it; then file_size_from
	 * says why (interned).
	 */
	uint64_t file_size;
	const char *file_size_from;
	double max_bytes;	/* the most a record can move (jobs.c max_bytes()), 0: unbounded */
	uint64_t bs[NRWT];
	/*
	 * Where bs[] comes from, for the messages: 'bs "64k" (job options),
	 * kb_base 1024' or "no bs: fio's default 4096" (interned).
	 */
	const char *bs_from;
	/*
	 * The configuration: every option fio recorded ("job options" over
	 * "global options"; for fio's "All clients" aggregate those of the
	 * per-host jobs it sums), as interned key, value pairs sorted by key,
	 * aliases under one name (readwrite -> rw, blocksize -> bs), without
	 * "name".  Two jobs with the same pairs differ only in their name:
	 * iterations of one configuration (group.c).
	 */
	const char **opts;	/* [2k] key, [2k+1] value */
	size_t nopts;
};

/*
 * A job: what is its own (name, host, CPU, direction records), and
 * pointers to what it shares with the other jobs of its document and of
 * its configuration.
 */
/*
 * What fio's usr_cpu and sys_cpu are (stat.c: usr_time over total_run_time),
 * said beside every output that shows them: a group_reporting record's
 * total_run_time is its jobs' runtimes added, so its CPU is the mean job's
 * share of one CPU, not the group's (four jobs each keeping a CPU busy: 100 %).
 */
#define CPU_MEANING "the job's CPU time over its runtime; a group_reporting record's is its jobs' CPU time over their runtimes added, the mean job's share of one CPU, not the group's"

struct job {
	const char *name;	/* interned */
	const char *host;	/* "-" for a local run (interned) */
	const char *hostname;	/* fio's "hostname", NULL for a local run */
	const struct jobdoc *doc;
	const struct jconf *conf;
	int port;
	int aggregate;		/* fio's "All clients" record */
	int groupid;		/* fio's reporting group, -1 when not recorded; one for a
				 * document whose groups overlapped (groups_ms) or may
				 * have (groups_unknown) */
	double usr_cpu, sys_cpu;	/* fio's, %: see CPU_MEANING */
	size_t seq;		/* input order */
	/* per direction; shared, read-only (jobs.c keeps them, see dir_store()) */
	const struct dirstat *d[NDIR];
	/*
	 * json+ bins per direction and latency, only when jobset.want_bins
	 * (fiotab hist), else NULL: every other command keeps no pointer for
	 * them in each of its jobs.
	 */
	struct latbins *(*bins)[NLAT];	/* [NDIR][NLAT] */
};

struct jobset {
	struct job *v;
	size_t n, cap;
	const char **versions;	/* distinct fio versions seen, in order */
	size_t nversions;
	unsigned nskipped;	/* documents skipped by --keep-going */
	unsigned ndocs;		/* documents read */
	int want_bins;		/* keep json+ latency bins (fiotab hist) */
	/*
	 * influx/prom: fio's "All clients" record left out (said), the hosts'
	 * kept: beside them, with host="All clients", a sum over the host
	 * label would count every byte twice (as hist does for its buckets).
	 */
	int drop_aggregate;
	struct runids *runids;	/* run identities seen (jobs.c) */
	struct dirpool *dirs;	/* the jobs' direction records (jobs.c) */
	struct jobdoc **docv;	/* the documents the jobs came from */
	size_t ndocv;
	/*
	 * When set (perftest, ratio, plot; group.c), each document's jobs are
	 * folded into per-configuration sums (and iteration times) as soon as
	 * it is read, and only the few jobs the grouping still needs stay
	 * (fold_doc()).
	 */
	struct fold *fold;
	struct samerun *runs;	/* the runs seen (samerun.c) */
	unsigned docidx;	/* 1-based index of the document being read in its file */
};

/* A position in the jobset's direction records (jobs.c). */
struct dirmark {
	void *blk;
	size_t used;
};
void dirpool_mark(const struct jobset *js, struct dirmark *m);
/* Frees the direction records stored after @m: no job may point to them. */
void dirpool_rewind(struct jobset *js, const struct dirmark *m);
/*
 * group.c: folds the jobs @first.. of the document just read (see struct
 * fold); 1 when none of them stays (nothing points to their document).
 */
int fold_doc(struct jobset *js, size_t first, const struct dirmark *mark);

/*
 * samerun.c: refuses (-1, *@why set) the jobs @first.. of the document just
 * read when one is the same fio run as a job of an earlier document (same
 * host and name, starts closer than half the earlier runtime), else
 * remembers them.  @rt_ms: their job_runtime, @file and @idx: the document.
 */
int samerun_doc(struct jobset *js, size_t first, const uint32_t *rt_ms, const char *file,
		unsigned idx, char **why);
void samerun_free(struct samerun *s);

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
/* The value of option @key (canonical name) in @j's configuration, or NULL. */
const char *job_opt(const struct job *j, const char *key);

/* fiosize.c: fio size string ("4k", "1m", "64KiB") honouring kb_base. */
int fio_parse_size(const char *s, unsigned kb_base, uint64_t *out);
/* "4k,8k,": per-direction values, defaulting to @def. */
int fio_parse_bs(const char *s, unsigned kb_base, uint64_t def, uint64_t out[NRWT]);

/* Small helpers (util.c). */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
char *xvasprintf(const char *fmt, va_list ap);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *fmt_double(char *buf, size_t len, double v);
/*
 * Decimal arithmetic on the numbers fio writes and fiotab converts (ns to
 * us and s, % to a ratio, usr + sys, a modeled job's times and rates by
 * sim_time_scale, ratio's quotient of two mean rates):
 * the double nearest the decimal result,
 * so that fmt_double() prints it without binary noise (util.c).
 */
double dec_scale(double v, double f);
double dec_sum(double a, double b);
double dec_mul(double a, double b);
double dec_quot(double a, double b);
double per_s(double n, double runtime_s);
/* The second string of the pair in @tab whose first is @key, else @key. */
const char *pair_lookup(const char *const (*tab)[2], size_t n, const char *key);
#define PAIR_LOOKUP(tab, key) pair_lookup(tab, sizeof(tab) / sizeof(*(tab)), key)
/*
 * The first byte of @s no output can show as it is, else NULL: a control
 * byte (< 0x20, 0x7f) or one not in a UTF-8 sequence; text_fault() says which.
 */
const char *control_byte(const char *s);
const char *text_fault(const char *c);
/* The length of the valid UTF-8 sequence at @s (first byte >= 0x80), else 0. */
size_t utf8_seq(const char *s);
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
