// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading fio output files as they are found in the wild: fio prints
 * warnings before the JSON in the same file, and people append several runs
 * to one file, or concatenate documents with nothing between them ("}{", as
 * Python's json.dump() writes them one after another).  The first document
 * starts at the first '{' in column 1 (what comes before is fio's warnings;
 * fio's lines about a job named "{..." are not documents, fio_job_line());
 * each next one right after the previous (blanks allowed).  Other text
 * between or after documents is a warning naming FILE:LINE:COL, and reading
 * goes on at the next '{' in column 1.  Each document is parsed by simdjson
 * (sjread.cpp) when it is the rest of the file, else (or when simdjson does
 * not take it) by jsonread.c, what no table reads (json+'s latency bins...)
 * checked but not built unless input_keep_all(); it is turned into job records and freed before
 * the next one.
 *
 * Errors name FILE:LINE:COL (1-based, columns in bytes) of the first byte
 * that is not JSON, and the caller prints nothing else unless --keep-going,
 * which resumes at the next '{' in column 1 after the error.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "fiotab.h"
#include "jsonread.h"
#include "sjread.h"

/*
 * The whole file, in one buffer kept from file to file (it grows to the
 * largest input and no further), with SJ_PADDING readable bytes after it
 * for simdjson.  NULL with errno set on error.
 */
static char *slurp(const char *file, size_t *len)
{
	static char *buf;
	static size_t cap;
	int fd = strcmp(file, "-") ? open(file, O_RDONLY | O_CLOEXEC) : 0;
	size_t n = 0, whole = 0;
	struct stat st;
	ssize_t r = 0;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX / 2) {
		/* a regular file: its size is known, one read() takes it */
		whole = (size_t)st.st_size;
		if (whole + 1 + SJ_PADDING > cap) {
			cap = whole + 1 + SJ_PADDING;
			buf = xrealloc(buf, cap);
		}
	}
	if (!buf) {
		cap = 65536;
		buf = xmalloc(cap);
	}
	for (;;) {
		if (whole && n == whole)
			break;	/* no second read() to see the end */
		if (n + 1 + SJ_PADDING >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1 - SJ_PADDING);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (r < 0) {
		int e = errno;

		if (fd)
			close(fd);
		errno = e;
		return NULL;
	}
	if (fd)
		close(fd);
	memset(buf + n, 0, 1 + SJ_PADDING);
	*len = n;
	return buf;
}

/*
 * Line and column of offsets, counted forward from the last one asked for:
 * messages come in input order, so a file with 300,000 broken documents is
 * read in linear time (counting from the start for each was quadratic).
 */
struct lines {
	const char *buf, *at, *bol;
	unsigned long line;
};

static void position(struct lines *l, size_t off, unsigned long *line, unsigned long *col)
{
	const char *to = l->buf + off, *nl;

	if (to < l->at) {	/* backwards: count again from the start */
		l->at = l->bol = l->buf;
		l->line = 1;
	}
	while ((nl = memchr(l->at, '\n', (size_t)(to - l->at)))) {
		l->line++;
		l->at = l->bol = nl + 1;
	}
	l->at = to;
	*line = l->line;
	*col = (unsigned long)(to - l->bol) + 1;
}

/* @s (digits) then @tail at @p, before @end: the end of the match, or NULL */
static const char *digits_then(const char *p, const char *end, const char *tail)
{
	const char *d = p;
	size_t n = strlen(tail);

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == d || (size_t)(end - p) < n || memcmp(p, tail, n))
		return NULL;
	return p + n;
}

/*
 * Whether the line at @p ('{' in column 1) is fio's own text about a job whose
 * name starts with '{' (--output-format=normal,json writes "NAME: (g=0): rw=
 * ..." before the JSON and "NAME: (groupid=0, jobs=1): err= ..." after it),
 * not a document: a '{' that no JSON can follow ("{x") and fio's shape.  A
 * line that could start JSON ("{ ", "{\"") is always taken as a document.
 */
static bool fio_job_line(const char *p, const char *end)
{
	const char *eol = memchr(p, '\n', (size_t)(end - p)), *q;

	if (!eol)
		eol = end;
	if (eol - p < 2 || strchr(" \t\r\"}", p[1]))
		return false;
	for (q = p + 1; q + 4 < eol; q++) {
		const char *r;

		if (memcmp(q, ": (", 3))
			continue;
		if (eol - q > 5 && !memcmp(q + 3, "g=", 2) &&
		    digits_then(q + 5, eol, "): "))
			return true;
		if (eol - q > 11 && !memcmp(q + 3, "groupid=", 8) &&
		    (r = digits_then(q + 11, eol, ", jobs=")) && digits_then(r, eol, "): "))
			return true;
	}
	return false;
}

/*
 * Next '{' in column 1, or NULL.  fio starts its document there; the objects
 * nested in it are indented, so resuming after an error never mistakes a job
 * object for a document.  fio's lines about a job named "{..." are skipped
 * (fio_job_line()).
 */
static const char *next_doc(const char *buf, const char *p, const char *end)
{
	/* a UTF-8 byte order mark (Windows editors) does not count as a column */
	const char *bol = (end - buf >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) ? buf + 3 : buf;

	if (p <= bol && bol < end && *bol == '{' && !fio_job_line(bol, end))
		return bol;
	for (; p < end; p++) {
		if (*p == '{' && (p == buf || p[-1] == '\n') && !fio_job_line(p, end))
			return p;
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
	}
	return NULL;
}

/* Up to 23 bytes of context at @off, on one line, control bytes as '?'. */
static void context(const char *buf, size_t len, size_t off, char ctx[24])
{
	size_t i;

	for (i = 0; i < 23 && off + i < len && buf[off + i] != '\n'; i++)
		ctx[i] = (unsigned char)buf[off + i] >= ' ' ? buf[off + i] : '?';
	ctx[i] = '\0';
}

static void report(const char *file, struct lines *lt, size_t len, size_t off,
		   const char *what, int keep_going)
{
	unsigned long line, col;
	char ctx[24];

	if (off > len)
		off = len;
	position(lt, off, &line, &col);
	if (!what) {
		if (off >= len) {
			what = "unexpected end of input (truncated JSON document?)";
		} else {
			context(lt->buf, len, off, ctx);
			fprintf(stderr, "fiotab: %s:%lu:%lu: invalid JSON at '%s'%s\n",
				file, line, col, ctx,
				keep_going ? " (document skipped)" : "");
			return;
		}
	}
	fprintf(stderr, "fiotab: %s:%lu:%lu: %s%s\n", file, line, col, what,
		keep_going ? " (document skipped)" : "");
}

/*
 * After a document ends at @q: blanks, then the next document ('{' right
 * away, as json.dump() and "}{" concatenations write them, or after
 * blanks), or text that is not JSON.  That text is never silently dropped:
 * it is a warning naming its line, and reading goes on at the next '{' in
 * column 1 (fio's warnings before an appended run, for instance).
 */
static const char *after_doc(const char *file, struct lines *lt, size_t len, const char *q)
{
	const char *end = lt->buf + len;
	unsigned long line, col;
	char ctx[24];

	while (q < end && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
		q++;
	if (q >= end || (*q == '{' && !fio_job_line(q, end)))
		return q < end ? q : NULL;
	position(lt, (size_t)(q - lt->buf), &line, &col);
	context(lt->buf, len, (size_t)(q - lt->buf), ctx);
	fprintf(stderr, "fiotab: %s:%lu:%lu: warning: text after a JSON document is not JSON, ignored up to the next '{' in column 1: '%s'\n",
		file, line, col, ctx);
	return next_doc(lt->buf, q, end);
}

/*
 * What no table reads: json+'s latency "bins" (most of a json+ file), the
 * submission and total latencies (fiotab reads clat_ns), the iodepth and
 * latency distributions.  Checked as JSON like the rest, but not built into
 * the tree, unless a command asks for everything with input_keep_all()
 * before reading (a reader of one of these names must).  One list, here.
 */
static const char *const skip_names[] = {
	"bins", "slat_ns", "lat_ns", "iodepth_level", "iodepth_submit", "iodepth_complete",
	"latency_ns", "latency_us", "latency_ms",
	/*
	 * ... and every other statistic fio writes that no table reads: not
	 * built means not copied, not searched by the lookups after it.  None
	 * of these is a fio option name or alias (fio 3.33 options.c), so no
	 * "job options" member is ever left out; fio's "sync" and "disk_util"
	 * are options, so they stay.
	 */
	"min", "max", "stddev", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev",
	"bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
	"short_ios", "drop_ios", "ctx", "majf", "minf", "eta",
	"latency_depth",
	/* the percentiles but the 50th, 99th and 99.9th (fio's default list) */
	"1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000",
	"60.000000", "70.000000", "80.000000", "90.000000", "95.000000", "99.500000",
	"99.950000", "99.990000", NULL
};
static int keep_all;

void input_keep_all(int keep)
{
	keep_all = keep;
}

/*
 * The fast path (sjread.cpp, simdjson): a document that runs from @p to the
 * last '}' of the buffer (blanks after it), as most fio output files are
 * one.  NULL when it is not that (several documents, text after it) or
 * simdjson does not take it: jsonread.c reads it then.  Tried for the first
 * few documents of a file only, so a file of many documents costs a bounded
 * number of failed tries, not one per document.
 */
static cJSON *fast_doc(const char *buf, size_t len, int padded, const char *p,
		       struct jsonread *jr)
{
	const char *q = buf + len;
	cJSON *doc;

	while (q > p && (q[-1] == ' ' || q[-1] == '\n' || q[-1] == '\r' || q[-1] == '\t'))
		q--;
	if (q <= p || q[-1] != '}')
		return NULL;
	doc = sj_read(p, (size_t)(q - p), padded, jr->skip);
	if (!doc) {
		arena_reset();
		return NULL;
	}
	jr->end = (size_t)(q - buf);
	return doc;
}

/*
 * Duplicate member names.  JSON leaves their meaning open (jq and Python
 * keep the last, cJSON's lookup the first), and fio writes them: an option
 * given twice ("bs" : "8k", "bs" : "64k": fio used the last), a job file's
 * several [global] sections in one "global options" object (each applied to
 * the jobs after it: the JSON no longer says which), fio --client every
 * server's global options in one object.  Equal values say one
 * thing and are accepted; different ones make the document malformed,
 * naming the object's path and the key.  Checked on the tree, after
 * either reader, so both behave the same.
 */
struct path {
	struct {
		const char *key;	/* a member's name, else NULL: */
		int idx;		/* an array element's index */
	} f[64];
	unsigned int depth;	/* frames in use; deeper ones are not kept */
	const char *job;	/* the name of the job record inside, else NULL */
};

/*
 * Enters a member @key (NULL: array element @idx).  Only pointers are kept:
 * the path is written out for a message alone (path_str()), since most
 * documents have none and this runs for every object of every document.
 */
static void path_push(struct path *p, const char *key, int idx)
{
	if (p->depth < sizeof(p->f) / sizeof(*p->f)) {
		p->f[p->depth].key = key;
		p->f[p->depth].idx = idx;
	}
	p->depth++;
}

/* @p as written in a message: names (quoted unless a plain word), [index]. */
static void path_str(const struct path *p, char *buf, size_t size)
{
	unsigned int i, n = p->depth < sizeof(p->f) / sizeof(*p->f) ? p->depth :
			    (unsigned int)(sizeof(p->f) / sizeof(*p->f));
	size_t len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len < size - 1; i++) {
		const char *key = p->f[i].key;
		int plain = key && *key && strspn(key, "abcdefghijklmnopqrstuvwxyz"
						   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(key);
		int w;

		if (!key)
			w = snprintf(buf + len, size - len, "[%d]", p->f[i].idx);
		else
			w = snprintf(buf + len, size - len, plain ? "%s%s" : "%s\"%.40s\"",
				     len ? "." : "", key);
		len = w < 0 || (size_t)w >= size - len ? size - 1 : len + (size_t)w;
	}
}

/* A value for the message: a string or number as written, else its type. */
static char *show(const cJSON *v)
{
	if (cJSON_IsString(v))
		return xasprintf("\"%.60s\"", v->valuestring);
	if (cJSON_IsNumber(v))
		return xasprintf("%.17g", v->valuedouble);
	return xstrdup(cJSON_IsObject(v) ? "an object" : cJSON_IsArray(v) ? "an array" : "a literal");
}

static int dup_found(const struct path *p, const cJSON *a, const cJSON *b, char **why)
{
	char *x = show(a), *y = show(b), where[256];

	path_str(p, where, sizeof(where));
	*why = xasprintf("%s%s%s%s: key \"%s\" twice with different values (%s, then %s): JSON does not say which one holds (fio writes so an option given twice, the [global] sections of a job file that has several, and under --client every server's global options)",
			 p->job ? "job '" : "", p->job ? p->job : "", p->job ? "': " : "",
			 p->depth ? where : "document", a->string, x, y);
	free(x);
	free(y);
	return -1;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* Duplicate names among @o's members: pairwise when few, sorted when many. */
static int dup_members(const struct path *p, const cJSON *o, char **why)
{
	const cJSON *a, *b, **v;
	size_t n = 0, i;
	int rc = 0;

	for (a = o->child; a; a = a->next)
		n++;
	if (n <= 16) {
		for (a = o->child; a; a = a->next)
			for (b = a->next; b; b = b->next)
				if (!strcmp(a->string, b->string) && !cJSON_Compare(a, b, 1))
					return dup_found(p, a, b, why);
		return 0;
	}
	v = xmalloc(n * sizeof(*v));
	for (i = 0, a = o->child; a; a = a->next)
		v[i++] = a;
	qsort(v, n, sizeof(*v), key_cmp);
	for (i = 1; i < n && !rc; i++)
		if (!strcmp(v[i - 1]->string, v[i]->string) && !cJSON_Compare(v[i - 1], v[i], 1))
			rc = dup_found(p, v[i - 1], v[i], why);
	free(v);
	return rc;
}

static int dup_keys(struct path *p, const cJSON *v, char **why)
{
	const char *job = p->job;
	int in_jobs = cJSON_IsArray(v) && p->depth == 1 && p->f[0].key &&
		      (!strcmp(p->f[0].key, "jobs") || !strcmp(p->f[0].key, "client_stats"));
	const cJSON *c;
	int idx = 0;

	if (cJSON_IsObject(v) && dup_members(p, v, why))
		return -1;
	for (c = v->child; c; c = c->next, idx++) {
		if (!cJSON_IsObject(c) && !cJSON_IsArray(c))
			continue;
		path_push(p, cJSON_IsObject(v) ? c->string : NULL, idx);
		if (in_jobs) {
			const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "jobname");

			p->job = cJSON_IsString(n) ? n->valuestring : NULL;
		}
		if (dup_keys(p, c, why))
			return -1;
		p->depth--;
		p->job = job;
	}
	return 0;
}

/* The document's checks before its jobs are read; -1 with *@why set. */
static int doc_checks(const cJSON *doc, char **why)
{
	struct path p = { .depth = 0, .job = NULL };

	return dup_keys(&p, doc, why);
}

/* @l (@n bytes) starts with the string literal @lit */
#define STARTS(l, n, lit) ((n) >= sizeof(lit) - 1 && !memcmp(l, lit, sizeof(lit) - 1))
#define ENDS(l, n, lit) ((n) >= sizeof(lit) - 1 && !memcmp((l) + (n) - (sizeof(lit) - 1), lit, sizeof(lit) - 1))

/*
 * What fio says before a document about the run it describes, when that
 * run is not the one its jobs' options ask for and nothing in the document
 * tells: -1 with *@why set, naming the line, else 0.  The text is what fio
 * wrote before the document (@from .. @to: since the file's start or the
 * previous document's end).
 *
 * - "fio: terminating on signal N" (backend.c; a server's through its
 *   client, after "<host> "): fio stopped by SIGINT or SIGTERM (a ^C, a
 *   timeout, a killed runner) stops every job where it is and still writes
 *   its whole JSON, error 0: a size-based job that moved a quarter of its
 *   size reads as a complete run.
 * - "fio: failed to connect to HOST" and "fio: client HOST timed out"
 *   (client.c): fio --client went on without that server and exits 0; the
 *   document has no record of it (nor an "All clients" one, which would
 *   say how many hosts fio summed).
 */
static int fio_said(struct lines *lt, const char *from, const char *to, char **why)
{
	static const char sig[] = "fio: terminating on signal ", conn[] = "fio: failed to connect to ",
			  cl[] = "fio: client ", tout[] = " timed out";
	const char *l, *nl, *m;
	unsigned long line, col;
	size_t n;

	for (l = from; l < to; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(to - l));
		if (!nl)
			nl = to;
		n = (size_t)(nl - l);
		if (n && l[n - 1] == '\r')
			n--;
		m = memmem(l, n, sig, sizeof(sig) - 1);
		if (!m && !STARTS(l, n, conn) && !(STARTS(l, n, cl) && ENDS(l, n, tout)))
			continue;
		position(lt, (size_t)(l - lt->buf), &line, &col);
		if (m)
			*why = xasprintf("fio was stopped by signal %d before it wrote this document ('fio: terminating on signal %d' at line %lu): its jobs ended where the signal found them, so their bytes and times are not the runs their options describe (run them again)",
					 atoi(m + sizeof(sig) - 1), atoi(m + sizeof(sig) - 1), line);
		else if (STARTS(l, n, conn))
			*why = xasprintf("fio --client could not reach server %.*s ('%.*s' at line %lu) and went on without it: this document has no record of that host (run again with every server up)",
					 (int)(n - (sizeof(conn) - 1)), l + sizeof(conn) - 1, (int)n, l, line);
		else
			*why = xasprintf("fio --client lost server %.*s during the run ('%.*s' at line %lu): this document has no record of that host (run again with every server up)",
					 (int)(n - (sizeof(cl) - 1) - (sizeof(tout) - 1)), l + sizeof(cl) - 1, (int)n, l, line);
		return -1;
	}
	return 0;
}

/*
 * Where fio starts a document, "{", blanks, "\"fio version\"", in @from ..
 * @to (the "fio version" may pass @to by the blanks), the '{' in column 1
 * (@buf: the file) if @col1; or NULL.
 */
static const char *fio_start(const char *buf, const char *from, const char *to,
			     const char *end, int col1)
{
	static const char ver[] = "\"fio version\"";
	const char *v, *q, *lim = end - to > 256 ? to + 256 : end;

	for (; (v = memmem(from, (size_t)(lim - from), ver, sizeof(ver) - 1)); from = v + 1) {
		for (q = v; q > from && q[-1] && strchr(" \t\r\n", q[-1]); q--)
			;
		if (q > from && q - 1 <= to && q[-1] == '{' &&
		    (!col1 || q - 1 == buf || q[-2] == '\n'))
			return q - 1;
	}
	return NULL;
}

/*
 * A fio document whose '{' is not in column 1, in text fiotab skips (@from ..
 * @to): text before fio's '{' on its line (a message written without its
 * newline, 2>&1 into one file) hides it from next_doc(), which would drop
 * the run with a warning about text that is not JSON.  A '{' in column 1
 * there is never one: next_doc() takes it.  The '{', or NULL.
 */
static const char *glued_doc(const char *buf, const char *from, const char *to)
{
	return fio_start(buf, from, to, to, 0);
}

/* Each glued_doc() in @from .. @to refused: -1, or 0 with --keep-going (counted in *@nskip) */
static int glued_docs(const char *file, struct lines *lt, size_t len, const char *from,
		      const char *to, int keep_going, int *nskip)
{
	const char *g;
	char ctx[24], *why;
	size_t bol;

	for (; (g = glued_doc(lt->buf, from, to)); from = g + 1) {
		for (bol = (size_t)(g - lt->buf); bol && lt->buf[bol - 1] != '\n'; bol--)
			;
		context(lt->buf, len, bol, ctx);
		if ((size_t)(g - lt->buf) - bol < sizeof(ctx))
			ctx[(size_t)(g - lt->buf) - bol] = '\0';	/* the text alone */
		why = xasprintf("a fio JSON document starts here, after other text on its line ('%s'): fiotab reads a document from a '{' in column 1, and would have dropped this one; put the '{' on a line of its own (the text is likely a message written without its newline) and read the file again",
				ctx);
		report(file, lt, len, (size_t)(g - lt->buf), why, keep_going);
		free(why);
		if (!keep_going)
			return -1;
		(*nskip)++;
	}
	return 0;
}

/* @padded: SJ_PADDING bytes after @buf[len] are readable (simdjson reads them) */
static int parse(struct jobset *js, const char *name, const char *buf, size_t len,
		 int padded, int keep_going)
{
	const char *p, *end = buf + len, *from = buf;	/* @from: the text before the document */
	struct lines lt = { buf, buf, buf, 1 };
	struct jsonread jr = { .skip = keep_all ? NULL : skip_names };
	int ndocs = 0, nskip = 0, rc = 0, fast_tries = 4;

	/*
	 * Both readers take their nodes from the arena themselves (no cJSON
	 * hooks): it is reset after each document and kept from file to file,
	 * as big as the largest document.
	 */
	p = next_doc(buf, buf, end);
	for (;;) {
		char *why = NULL;
		cJSON *doc = NULL;

		if (glued_docs(name, &lt, len, from, p ? p : end, keep_going, &nskip)) {
			rc = -1;
			break;
		}
		if (!p)
			break;
		if (fast_tries) {
			fast_tries--;
			doc = fast_doc(buf, len, padded, p, &jr);
		}
		if (!doc)
			doc = json_read(buf, len, (size_t)(p - buf), &jr);

		if (!doc) {
			const char *stop = buf + jr.err, *next = fio_start(buf, p + 1, stop, end, 1);

			arena_reset();	/* whatever was built before the error */
			if (next) {
				/*
				 * fio's document starts in column 1 before the
				 * error: this one was cut short (a run killed
				 * while writing it, another appended), and the
				 * error is the next one's, read as part of it
				 * (a job, a string holding its first lines)
				 */
				unsigned long line, col;

				position(&lt, (size_t)(p - buf), &line, &col);
				why = xasprintf("the JSON document from line %lu ends unfinished before this line, where another fio document starts (a fio run killed while writing its output, and another run's output after it?)",
						line);
				report(name, &lt, len, (size_t)(next - buf), why, keep_going);
				free(why);
				stop = next;
			} else {
				report(name, &lt, len, jr.err, NULL, keep_going);
			}
			if (!keep_going) {
				rc = -1;
				break;
			}
			nskip++;
			/* resume at the next document start after the error */
			from = stop > p ? stop : p + 1;
			p = next_doc(buf, from, end);
			continue;
		}
		js->docidx = (unsigned)(ndocs + nskip + 1);
		if (fio_said(&lt, from, p, &why) || doc_checks(doc, &why) ||
		    jobs_from_doc(js, doc, name, &why)) {
			report(name, &lt, len, (size_t)(p - buf), why, keep_going);
			free(why);
			arena_reset();	/* the document's nodes, all at once */
			if (!keep_going) {
				rc = -1;
				break;
			}
			nskip++;
		} else {
			arena_reset();
			ndocs++;
		}
		from = buf + jr.end;
		p = after_doc(name, &lt, len, from);
	}
	js->nskipped += nskip;
	if (!rc && !ndocs && !nskip) {
		/* UTF-16's byte order mark (Windows PowerShell 5's > writes UTF-16) */
		int u16 = len >= 2 && (!memcmp(buf, "\xff\xfe", 2) || !memcmp(buf, "\xfe\xff", 2));

		fprintf(stderr, "fiotab: %s:1:1: %s%s\n", name,
			u16 ? "the file is UTF-16 text (its byte order mark, as Windows PowerShell 5's > writes it), and fiotab reads UTF-8 only: convert it (iconv -f UTF-16 -t UTF-8)"
			    : "no fio JSON document found (no '{' in column 1)",
			keep_going ? " (file skipped)" : "");
		if (keep_going)
			js->nskipped++;
		else
			rc = -1;
	}
	return rc;
}

int input_parse(struct jobset *js, const char *name, const char *buf, size_t len,
		int keep_going)
{
	return parse(js, name, buf, len, 0, keep_going);
}

int input_read(struct jobset *js, const char *file, int keep_going)
{
	const char *name = strcmp(file, "-") ? file : "<stdin>";
	size_t len;
	char *buf = slurp(file, &len);

	if (!buf) {
		warnx_("%s: %s", name, strerror(errno));
		if (keep_going)
			js->nskipped++;
		return keep_going ? 0 : -1;
	}
	return parse(js, name, buf, len, 1, keep_going);
}
