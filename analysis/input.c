// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading fio output files as they are found in the wild: fio prints
 * warnings before the JSON in the same file, and people append several runs
 * to one file.  A document starts at a '{' that opens a line (after blanks);
 * text between documents is skipped.  Each document is parsed with cJSON,
 * turned into job records and freed before the next one.
 *
 * Errors name FILE:LINE:COL (1-based, columns in bytes) of the place cJSON
 * stopped at, and the caller prints nothing else unless --keep-going.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "fiotab.h"

static char *slurp(const char *file, size_t *len)
{
	int fd = strcmp(file, "-") ? open(file, O_RDONLY | O_CLOEXEC) : 0;
	size_t n = 0, cap;
	struct stat st;
	char *buf;
	ssize_t r;

	if (fd < 0)
		return NULL;
	cap = (!fstat(fd, &st) && S_ISREG(st.st_mode)) ? (size_t)st.st_size + 1 : 65536;
	buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (r < 0) {
		int e = errno;

		free(buf);
		if (fd)
			close(fd);
		errno = e;
		return NULL;
	}
	if (fd)
		close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void position(const char *buf, size_t off, unsigned long *line,
		     unsigned long *col)
{
	const char *p, *bol = buf;

	*line = 1;
	for (p = buf; p < buf + off; p++)
		if (*p == '\n') {
			(*line)++;
			bol = p + 1;
		}
	*col = (unsigned long)(buf + off - bol) + 1;
}

/*
 * Next '{' in column 1, or NULL.  fio starts its document there; the objects
 * nested in it are indented, so resuming after an error never mistakes a job
 * object for a document.
 */
static const char *next_doc(const char *buf, const char *p, const char *end)
{
	/* a UTF-8 byte order mark (Windows editors) does not count as a column */
	const char *bol = (end - buf >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) ? buf + 3 : buf;

	if (p <= bol && bol < end && *bol == '{')
		return bol;
	for (; p < end; p++) {
		if (*p == '{' && (p == buf || p[-1] == '\n'))
			return p;
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
	}
	return NULL;
}

static void report(const char *file, const char *buf, size_t len, size_t off,
		   const char *what, int keep_going)
{
	unsigned long line, col;
	char ctx[24];
	size_t i;

	if (off > len)
		off = len;
	position(buf, off, &line, &col);
	if (!what) {
		if (off >= len) {
			what = "unexpected end of input (truncated JSON document?)";
		} else {
			for (i = 0; i < sizeof(ctx) - 1 && off + i < len &&
				    buf[off + i] != '\n'; i++)
				ctx[i] = buf[off + i] >= ' ' ? buf[off + i] : '?';
			ctx[i] = '\0';
			fprintf(stderr, "fiotab: %s:%lu:%lu: invalid JSON at '%s'%s\n",
				file, line, col, ctx,
				keep_going ? " (document skipped)" : "");
			return;
		}
	}
	fprintf(stderr, "fiotab: %s:%lu:%lu: %s%s\n", file, line, col, what,
		keep_going ? " (document skipped)" : "");
}

int input_parse(struct jobset *js, const char *name, const char *buf, size_t len,
		int keep_going)
{
	const char *p = buf, *end = buf + len, *stop;
	int ndocs = 0, nskip = 0, rc = 0;

	arena_begin();
	while ((p = next_doc(buf, p, end))) {
		char *why = NULL;
		cJSON *doc;

		stop = NULL;
		doc = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);
		if (!doc) {
			/*
			 * cJSON reports where it stopped, but clamps a stop at the
			 * end of the buffer to its last byte: that is a truncated
			 * document, reported at the end of the input.
			 */
			if (!stop || stop < p || stop >= end - 1)
				stop = end;
			arena_reset();	/* whatever cJSON built before it stopped */
			report(name, buf, len, (size_t)(stop - buf), NULL, keep_going);
			if (!keep_going) {
				rc = -1;
				break;
			}
			nskip++;
			/* resume at the next document start after the error */
			p = stop > p ? stop : p + 1;
			continue;
		}
		if (jobs_from_doc(js, doc, name, &why)) {
			report(name, buf, len, (size_t)(p - buf), why, keep_going);
			free(why);
			arena_reset();	/* the document's nodes, all at once */
			if (!keep_going) {
				rc = -1;
				break;
			}
			nskip++;
			p = stop;
			continue;
		}
		arena_reset();
		ndocs++;
		p = stop;
	}
	arena_end();
	js->nskipped += nskip;
	if (!rc && !ndocs && !nskip) {
		fprintf(stderr, "fiotab: %s:1:1: no fio JSON document found (no '{' in column 1)%s\n",
			name, keep_going ? " (file skipped)" : "");
		if (keep_going)
			js->nskipped++;
		else
			rc = -1;
	}
	return rc;
}

int input_read(struct jobset *js, const char *file, int keep_going)
{
	const char *name = strcmp(file, "-") ? file : "<stdin>";
	size_t len;
	char *buf = slurp(file, &len);
	int rc;

	if (!buf) {
		warnx_("%s: %s", name, strerror(errno));
		if (keep_going)
			js->nskipped++;
		return keep_going ? 0 : -1;
	}
	rc = input_parse(js, name, buf, len, keep_going);
	free(buf);
	return rc;
}
