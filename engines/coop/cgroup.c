// SPDX-License-Identifier: GPL-2.0-only
/*
 * Task @tid follows the calling thread's cgroup v1 groups; see cgroup.h.
 * What a task's groups are: /proc/.../cgroup ("ID:controllers:path", v2
 * with no controllers); where a hierarchy is mounted: /proc/self/mountinfo
 * (fstype "cgroup", its controllers among the super options).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/coop/cgroup.h"

/* The path of hierarchy @id in @file (a /proc/.../cgroup), into @path. */
static int group_of(const char *file, const char *id, char *path, size_t len)
{
	char line[PATH_MAX + 128];
	size_t n = strlen(id);
	FILE *f = fopen(file, "re");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, id, n) || line[n] != ':' || !(p = strchr(line + n + 1, ':')))
			continue;
		p[strcspn(p, "\n")] = 0;
		snprintf(path, len, "%s", p + 1);
		found = 1;
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* Is every comma-separated word of @want among those of @have? */
static int has_all(const char *want, const char *have)
{
	char w[256], *tok, *save;
	size_t n;

	snprintf(w, sizeof(w), "%s", want);
	for (tok = strtok_r(w, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *h = have;

		n = strlen(tok);
		while (h && (strncmp(h, tok, n) || (h[n] && h[n] != ',')))
			h = (h = strchr(h, ',')) ? h + 1 : NULL;
		if (!h)
			return 0;
	}
	return 1;
}

/* The directory of group @path of the v1 hierarchy of @ctrls, into @dir. */
static int group_dir(const char *ctrls, const char *path, char *dir, size_t len)
{
	char line[2 * PATH_MAX + 512], *f[6], *sep, *fstype, *super, *save;
	FILE *mi = fopen("/proc/self/mountinfo", "re");
	int i, ret = -ENOENT;

	if (!mi)
		return -errno;
	while (ret && fgets(line, sizeof(line), mi)) {
		line[strcspn(line, "\n")] = 0;
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = 0;
		fstype = strtok_r(sep + 3, " ", &save);
		strtok_r(NULL, " ", &save);		/* source */
		super = strtok_r(NULL, " ", &save);
		if (!fstype || !super || strcmp(fstype, "cgroup") || !has_all(ctrls, super))
			continue;
		f[0] = strtok_r(line, " ", &save);
		for (i = 1; i < 6 && f[i - 1]; i++)
			f[i] = strtok_r(NULL, " ", &save);
		if (!f[4])
			continue;
		/* f[3]: the mount's root within the hierarchy; f[4]: where. */
		if (!strcmp(f[3], "/"))
			snprintf(dir, len, "%s%s", f[4], path);
		else if (!strncmp(path, f[3], strlen(f[3])))
			snprintf(dir, len, "%s%s", f[4], path + strlen(f[3]));
		else
			continue;
		ret = 0;
	}
	fclose(mi);
	return ret;
}

int coop_cgroup_follow(int tid, char *err, size_t errlen)
{
	char line[PATH_MAX + 128], task[64], theirs[PATH_MAX], dir[2 * PATH_MAX], file[2 * PATH_MAX + 16];
	FILE *mine = fopen("/proc/thread-self/cgroup", "re"), *t;
	int ret = 0;

	if (!mine)
		return 0;	/* no cgroups here */
	snprintf(task, sizeof(task), "/proc/self/task/%d/cgroup", tid);
	while (!ret && fgets(line, sizeof(line), mine)) {
		char *ctrls = strchr(line, ':'), *path;

		if (!ctrls || !(path = strchr(ctrls + 1, ':')))
			continue;
		*ctrls++ = 0;
		*path++ = 0;
		path[strcspn(path, "\n")] = 0;
		/* v2 (no controllers) moves whole processes: fio's cgroup.procs did. */
		if (!*ctrls || (group_of(task, line, theirs, sizeof(theirs)) == 0 &&
				!strcmp(theirs, path)))
			continue;
		ret = group_dir(ctrls, path, dir, sizeof(dir));
		if (ret) {
			snprintf(err, errlen, "cgroup %s:%s: no mount of that hierarchy found", ctrls, path);
			break;
		}
		snprintf(file, sizeof(file), "%s/tasks", dir);
		/* The write happens at fclose(): its error is the kernel's answer. */
		errno = 0;
		t = fopen(file, "we");
		if (t) {
			int bad = fprintf(t, "%d\n", tid) < 0;

			if (fclose(t) || bad)
				t = NULL;
		}
		if (!t) {
			ret = errno ? -errno : -EIO;
			snprintf(err, errlen, "writing %d to %s: %s", tid, file, strerror(-ret));
		}
	}
	fclose(mine);
	return ret;
}
