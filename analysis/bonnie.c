// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bonnie 1.2's table (seed 002):
 *
 *               ---Sequential Output (nosync)--- ---Sequential Input-- --Rnd Seek-
 *               -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --04k (03)-
 * Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU   /sec %CPU
 * elm3b9 1* 500   469  4.3  1777  0.4  1533  0.4  8595 84.5 26318  3.9  137.9  0.0
 *
 * K/sec "%6d", %CPU "%5.1f", seeks "%7.1f".  Phases come from job names
 * "bonnie-<phase>": putc, write, rewrite, getc, read, seeks.  K = 1024 bytes;
 * rewrite (fio rw=rw) counts (read + written bytes) / 2 per second, like
 * Bonnie's file size / time; seeks/s = read + write IOPS; %CPU = usr + sys.
 * Machine = host, else the target's basename ("fio" for fio's default
 * files), cut to 9 characters.
 */
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "identity.h"
#include "phase.h"

enum { B_PUTC, B_WRITE, B_REWRITE, B_GETC, B_READ, B_SEEKS, NPHASE };

static const char *const phases[] = { "putc", "write", "rewrite", "getc", "read", "seeks",
				      NULL };

static double kps(const struct job *j, int ph)
{
	const struct dirstat *r = j->d[DIR_READ], *w = j->d[DIR_WRITE];
	double t;

	switch (ph) {
	case B_REWRITE:
		t = fmax(r->runtime_s, w->runtime_s);
		return t > 0 ? per_s((r->io_bytes + w->io_bytes) / 2, t) / 1024 : NAN;
	case B_PUTC:
	case B_WRITE:
		return w->runtime_s > 0 ? per_s(w->io_bytes, w->runtime_s) / 1024 : NAN;
	case B_SEEKS:
		return r->iops + w->iops;
	default:
		return r->runtime_s > 0 ? per_s(r->io_bytes, r->runtime_s) / 1024 : NAN;
	}
}

static struct table *render(const struct phase_table *pt)
{
	static const char *const keys[] = { "putc", "write", "rewrite", "getc", "read",
					    "seeks" };
	const struct phase_row *r = &pt->rows[0];
	struct table *t = table_new("bonnie", 1);
	const struct job *sk = r->ph[B_SEEKS];
	char line[128], machine[16], *tmp;
	uint64_t size = 0;
	struct col *c;
	int k, row;

	phase_table_header(t, pt, "bonnie");
	table_note(t, "K = 1024 bytes; %%CPU = usr + sys of the fio job: %s", CPU_MEANING);
	table_pre(t, "              ---Sequential Output (nosync)--- ---Sequential Input-- --Rnd Seek-");
	snprintf(line, sizeof(line),
		 "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --%02uk (%02d)-",
		 sk ? (unsigned)(sk->d[DIR_READ]->bs / 1024) : 4, sk ? sk->conf->numjobs : 1);
	table_pre(t, line);

	c = table_col(t, "machine", NULL, COL_STR, 10, 0, "");
	col_hdr(c, "Machine", NULL, NULL);
	c->flags |= COL_LEFT;
	c = table_col(t, "MB", "MiB", COL_INT, 3, 0, "");
	col_hdr(c, "MB", NULL, NULL);
	for (k = 0; k < NPHASE; k++) {
		char key[32], tags[32];

		snprintf(tags, sizeof(tags), "phase=%s", keys[k]);
		snprintf(key, sizeof(key), "%s_%s", keys[k], k == B_SEEKS ? "per_s" : "KBps");
		c = table_col(t, key, k == B_SEEKS ? "1/s" : "KiB/s", k == B_SEEKS ? COL_NUM : COL_INT,
			      k == B_SEEKS ? 7 : 6, 1, "");
		col_hdr(c, k == B_SEEKS ? "/sec" : "K/sec", NULL, NULL);
		if (k == B_SEEKS)
			col_metric(c, "seeks_per_second", 1, tags);
		else
			col_metric(c, "throughput_bytes_per_second", 1024, tags);
		snprintf(key, sizeof(key), "%s_cpu_pct", keys[k]);
		c = table_col(t, key, "%", COL_NUM, 5, 1, "");
		col_hdr(c, "%CPU", NULL, NULL);
		col_metric(c, "cpu_ratio", 0.01, tags);
	}

	/* one file size: phase_refused() saw every phase's */
	for (k = 0; k < NPHASE; k++)
		if (r->ph[k])
			size = r->ph[k]->conf->file_size;
	if (strcmp(pt->host, "-")) {
		snprintf(machine, sizeof(machine), "%.9s", pt->host);
	} else if (strcmp(pt->target, ".")) {
		tmp = xstrdup(pt->target);
		snprintf(machine, sizeof(machine), "%.9s", basename(tmp));
		free(tmp);
	} else {
		snprintf(machine, sizeof(machine), "fio");
	}
	row = table_row(t);
	table_sets(t, row, "machine", machine);
	table_set(t, row, "MB", round((double)size / 1048576));
	for (k = 0; k < NPHASE; k++) {
		const struct job *j = r->ph[k];
		double v;

		if (!j)
			continue;
		v = kps(j, k);
		table_setf(t, row, k == B_SEEKS ? v : round(v), "%s_%s", keys[k],
			   k == B_SEEKS ? "per_s" : "KBps");
		table_setf(t, row, dec_sum(j->usr_cpu, j->sys_cpu), "%s_cpu_pct", keys[k]);
	}
	return t;
}

/*
 * A phase is what its job moved: bytes in the phase's direction (writes for
 * putc and write, reads for getc and read, both for rewrite, either for
 * seeks), else its rate cell would be empty beside its job's %CPU.  Bonnie
 * has one file size (MB): phases that set size must agree.  1 after saying
 * why the table is refused.
 */
static int phase_refused(const struct job *j, int ph, const struct phase_row *r)
{
	int rd = j->d[DIR_READ]->present, wr = j->d[DIR_WRITE]->present, k, ok;

	ok = ph == B_PUTC || ph == B_WRITE ? wr : ph == B_GETC || ph == B_READ ? rd :
	     ph == B_REWRITE ? rd && wr : rd || wr;
	if (!ok) {
		warnx_("bonnie: job %s (%s, run %u) refused: its phase %s moved no %s bytes (rw=%s)",
		       job_ref(j->name, j->host), j->doc->file, j->doc->run, phases[ph],
		       ph == B_PUTC || ph == B_WRITE ? "write" : ph == B_REWRITE ? "read and write" : "read",
		       j->conf->rw);
		return 1;
	}
	/* one process a phase, as Bonnie's; only its seeks run several (the header's count) */
	if (ph != B_SEEKS && j->conf->numjobs > 1) {
		warnx_("bonnie: job %s (%s, run %u) refused: numjobs=%d, so its phase %s is %d jobs' (each on a file of MB), where Bonnie runs it in one process (only seeks in several); give it numjobs=1",
		       job_ref(j->name, j->host), j->doc->file, j->doc->run, j->conf->numjobs,
		       phases[ph], j->conf->numjobs);
		return 1;
	}
	/* MB is the file size, not the bytes moved (io_size=, loops=, time_based) */
	if (!j->conf->file_size) {
		warnx_("bonnie: job %s (%s, run %u) refused: MB is the file size, and %s",
		       job_ref(j->name, j->host), j->doc->file, j->doc->run, j->conf->file_size_from);
		return 1;
	}
	/* Bonnie's MB is whole MiB (its -s): a rest would be rounded away unseen */
	if (j->conf->file_size % 1048576) {
		warnx_("bonnie: job %s (%s, run %u) refused: its file size %llu bytes is not a whole number of MiB, Bonnie's MB",
		       job_ref(j->name, j->host), j->doc->file, j->doc->run, (unsigned long long)j->conf->file_size);
		return 1;
	}
	for (k = 0; k < NPHASE; k++)
		if (r->ph[k] && r->ph[k]->conf->file_size != j->conf->file_size) {
			warnx_("bonnie: jobs %s and %s (%s) ran with different file sizes (%llu and %llu bytes): a Bonnie table has one file size",
			       job_ref(r->ph[k]->name, r->ph[k]->host), job_ref(j->name, j->host), j->doc->file,
			       (unsigned long long)r->ph[k]->conf->file_size,
			       (unsigned long long)j->conf->file_size);
			return 1;
		}
	return 0;
}

int bonnie_tables(const struct jobset *js, struct tablist *out)
{
	struct phase_set set = { 0 };
	size_t i;
	int used = 0;

	for (i = 0; i < js->n; i++) {
		const struct job *j = &js->v[i];
		struct phase_row *r;
		int ph;

		if (strncasecmp(j->name, "bonnie-", 7)) {
			warnx_("bonnie: job %s (%s, run %u) left out (not named bonnie-<phase>)",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run);
			continue;
		}
		ph = strncmp(j->name, "bonnie-", 7) ? -1 :
		     phase_index(phases, j->name + 7, strlen(j->name + 7));
		if (ph < 0) {
			warnx_("bonnie: job %s (%s, run %u) refused: not bonnie-<phase> with a phase of putc, write, rewrite, getc, read, seeks",
			       job_ref(j->name, j->host), j->doc->file, j->doc->run);
			phase_set_free(&set);
			return -1;
		}
		r = phase_row_of(phase_table_of(&set, j), 0, 0);
		if (r->ph[ph] && r->ph[ph]->doc == j->doc && r->ph[ph]->groupid == j->groupid &&
		    j->conf->numjobs > 1) {
			/* numjobs clones of one run, a record each: not two runs */
			if (ph == B_SEEKS)
				warnx_("bonnie: job %s (%s, run %u) refused: numjobs=%d without group_reporting writes a record a job, where Bonnie's seeks/sec is its %d seekers' together; give it group_reporting",
				       job_ref(j->name, j->host), j->doc->file, j->doc->run, j->conf->numjobs,
				       j->conf->numjobs);
			else
				phase_refused(j, ph, r);
			phase_set_free(&set);
			return -1;
		}
		if (r->ph[ph]) {
			/* two runs of one phase: taking either would hide the other */
			warnx_("bonnie: job %s appears twice for target %s (%s run %u, %s run %u): a bonnie table holds one run; give it one run's results",
			       job_ref(j->name, j->host), j->conf->target, r->ph[ph]->doc->file, r->ph[ph]->doc->run, j->doc->file, j->doc->run);
			phase_set_free(&set);
			return -1;
		}
		if (phase_refused(j, ph, r)) {
			phase_set_free(&set);
			return -1;
		}
		r->ph[ph] = j;
		used = 1;
	}
	for (i = 0; i < set.n; i++)
		tablist_add(out, render(&set.v[i]));
	phase_set_free(&set);
	if (!used) {
		warnx_("bonnie: no jobs named bonnie-<phase> (putc, write, rewrite, getc, read, seeks)");
		return -1;
	}
	return 0;
}
