// SPDX-License-Identifier: GPL-2.0-only
/*
 * Read leases on the files a blkfile job writes through the device.  The
 * break arrives as a real-time signal (F_SETSIG), whose handler only counts
 * it; the I/O path compares the count with what it saw last and asks the
 * kernel (F_GETLEASE) only when it moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "engines/blkfile/why.h"
#include "engines/blkfile/lease.h"

static atomic_uint lease_breaks;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static int handler_err;

/* SIGRTMIN itself and the two after it are used by some libcs and runtimes. */
static int lease_signal(void)
{
	return SIGRTMIN + 5;
}

static void on_break(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	(void)ctx;
	atomic_fetch_add_explicit(&lease_breaks, 1, memory_order_relaxed);
}

static void install_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_break;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(lease_signal(), &sa, NULL) < 0)
		handler_err = errno;
}

int bf_lease_take(int fd, char *why, size_t whylen)
{
	int err;

	pthread_once(&handler_once, install_handler);
	if (handler_err) {
		bf_say(why, whylen, "cannot hold a lease on it: sigaction: %s", strerror(handler_err));
		return -handler_err;
	}
	if (fcntl(fd, F_SETSIG, lease_signal()) < 0 || fcntl(fd, F_SETLEASE, F_RDLCK) < 0) {
		err = errno;
		if (err == EAGAIN)
			bf_say(why, whylen, "is open for writing elsewhere (another process or job; F_SETLEASE: %s): "
			    "its blocks could move while the device is written under it", strerror(err));
		else
			bf_say(why, whylen, "cannot hold a read lease on it (F_SETLEASE: %s%s), so a truncate or "
			    "writer during the job could not be stopped before it reuses the blocks",
			    strerror(err), err == EINVAL ? "; is fs.leases-enable 0?" : "");
		return -err;
	}
	return 0;
}

int bf_lease_broken(int fd, unsigned int *seen)
{
	unsigned int now = atomic_load_explicit(&lease_breaks, memory_order_relaxed);

	if (now == *seen)
		return 0;
	/* Some lease of this process is breaking: is it ours? */
	if (fcntl(fd, F_GETLEASE) == F_RDLCK) {
		*seen = now;
		return 0;
	}
	return 1;
}

void bf_lease_drop(int fd)
{
	fcntl(fd, F_SETLEASE, F_UNLCK);
}
