// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing a file the user named with -o.
 *
 * What OUT names decides how it is written:
 *
 *   "-"                 stdout
 *   a symlink           what it points to (a chain is followed to its end),
 *                       never the link itself
 *   /dev/stdout,        an open file of ours (a link in /proc/PID/fd): that
 *   /dev/fd/N           descriptor, with the offset and flags the shell gave
 *   a device, a fifo,   written in place: a rename would put a regular file
 *   other /proc links   where the device node was (and -o /dev/null would
 *                       need root to work at all)
 *   a regular file,     a temporary file beside it (mkstemp: an unpredictable
 *   or nothing yet      name, created with O_EXCL, so a planted symlink is
 *                       never followed) gets the old file's mode and owner
 *                       (or 0666 & ~umask), the data, fsync(), and is
 *                       renamed over it: readers see the old file or the
 *                       whole new one, never a half-written one
 *
 * Every error names OUT as the user wrote it, and leaves no temporary file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fiotab.h"
#include "outfile.h"

/* Links followed before giving up with ELOOP, as the kernel does. */
#define MAX_HOPS 40

/* The directory part of @path ("." for a bare name), allocated. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	dir = xstrdup(path);
	dir[slash - path] = '\0';
	return dir;
}

/* The target of the symlink @path, allocated, or NULL with errno set. */
static char *read_link(const char *path)
{
	size_t cap = 256;
	char *buf = NULL;
	ssize_t n;

	for (;;) {
		buf = xrealloc(buf, cap);
		n = readlink(path, buf, cap);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			return buf;
		}
		cap *= 2;	/* maybe cut: try again with more room */
	}
}

static int on_procfs(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && sfs.f_type == PROC_SUPER_MAGIC;
}

/* N when @link (in a procfs directory @dir) is /proc/<our pid>/fd/N, else -1. */
static int our_fd(const char *dir, const char *link)
{
	const char *base = strrchr(link, '/');
	char *real = realpath(dir, NULL), *ours = xasprintf("/proc/%ld/fd", (long)getpid());
	char *end;
	long n = -1;

	base = base ? base + 1 : link;
	if (real && !strcmp(real, ours) && *base) {
		n = strtol(base, &end, 10);
		if (*end || n < 0 || n > INT_MAX)
			n = -1;
	}
	free(real);
	free(ours);
	return (int)n;
}

/*
 * Where a write to @path lands: the name at the end of its chain of
 * symlinks (allocated; it need not exist yet), or NULL with errno set.
 * When a link on the way lives in /proc (/dev/stdout, /dev/fd/N), that
 * link is the answer and *proc is set: it names an open file, not a
 * directory entry that could be replaced.  *fd is then the descriptor
 * when it is one of ours, else -1.
 */
static char *follow(const char *path, int *proc, int *fd)
{
	char *cur = xstrdup(path), *dir, *link, *next;
	struct stat st;
	int hops;

	*proc = 0;
	*fd = -1;
	for (hops = 0; hops < MAX_HOPS; hops++) {
		/* absent, unreachable (stat says why later) or no link: this name */
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		dir = dir_of(cur);
		if (on_procfs(dir)) {
			*proc = 1;
			*fd = our_fd(dir, cur);
			free(dir);
			return cur;
		}
		link = read_link(cur);
		if (!link) {
			free(dir);
			free(cur);
			return NULL;
		}
		next = link[0] == '/' ? xstrdup(link) : xasprintf("%s/%s", dir, link);
		free(link);
		free(dir);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * In place: devices, fifos, /proc links (@proc).  @path was no symlink a
 * moment ago; O_NOFOLLOW keeps one planted since from being followed (but
 * /proc's links must be).  A regular file found there after all (through
 * /proc, or planted) is truncated first, like the shell's '>' does.
 */
static int write_in_place(const char *path, int proc, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (proc ? 0 : O_NOFOLLOW)), e;
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (S_ISREG(st.st_mode) && ftruncate(fd, 0)) ||
	    write_all(fd, buf, len)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/*
 * @dst replaced by a new file of mode @old's (or 0666 & ~umask when @old
 * is NULL) holding @buf[@len].
 */
static int replace(const char *dst, const struct stat *old, const char *buf, size_t len)
{
	char *dir = dir_of(dst), *tmp = xasprintf("%s/.fiotab-XXXXXX", dir);
	mode_t mode;
	int fd, e;

	free(dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	if (old) {
		mode = old->st_mode & 07777;
		/*
		 * Root replacing someone's file keeps it theirs.  Others may
		 * not give files away (EPERM): the file is then ours, as any
		 * file we create is.
		 */
		if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
		    fchown(fd, old->st_uid, old->st_gid) && errno != EPERM)
			goto fail;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	/* after fchown(), which clears set-id bits */
	if (fchmod(fd, mode) || write_all(fd, buf, len) || fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dst))
		goto fail;
	free(tmp);
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}

static int write_path(const char *path, const char *buf, size_t len)
{
	struct stat st;
	int proc, fd, rc, e;
	char *dst, *real;

	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	dst = follow(path, &proc, &fd);
	if (!dst)
		return -1;
	if (fd >= 0) {
		if (fd == STDOUT_FILENO)
			fflush(stdout);	/* nothing of ours ahead of it */
		rc = write_all(fd, buf, len);
	} else if (!stat(dst, &st)) {
		if (proc || !S_ISREG(st.st_mode)) {
			rc = write_in_place(dst, proc, buf, len);
		} else if (faccessat(AT_FDCWD, dst, W_OK, AT_EACCESS)) {
			rc = -1;	/* a file we may not write is not replaced either */
		} else {
			/* the file itself, whatever directory links led to it */
			real = realpath(dst, NULL);
			rc = real ? replace(real, &st, buf, len) : -1;
			free(real);
		}
	} else if (errno == ENOENT && !proc) {
		rc = replace(dst, NULL, buf, len);
	} else {
		rc = -1;	/* e.g. /dev/fd/N of a descriptor not open */
	}
	e = errno;
	free(dst);
	errno = e;
	return rc;
}

int outfile_write(const char *path, const char *buf, size_t len)
{
	if (!strcmp(path, "-")) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
			warnx_("<stdout>: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (write_path(path, buf, len)) {
		warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
