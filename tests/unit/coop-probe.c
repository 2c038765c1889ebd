// SPDX-License-Identifier: GPL-2.0-only
/*
 * Small probes for the coop engine's tests.
 *
 *   coop-probe kcmp PID FD1 FD2   exit 0 if both descriptors of PID are the
 *                                 same open file (struct file), 1 if not
 *   coop-probe nouring CMD ARGS   run CMD with io_uring_setup() failing with
 *                                 ENOSYS (a seccomp filter), as on a kernel
 *                                 built or configured without io_uring
 *   coop-probe badenter CMD ARGS  run CMD with io_uring_enter() failing with
 *                                 EINVAL: rings set up, but every submit and
 *                                 wait refused for good
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/kcmp.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int do_kcmp(int argc, char **argv)
{
	long r;

	if (argc != 5) {
		fprintf(stderr, "usage: coop-probe kcmp PID FD1 FD2\n");
		return 2;
	}
	r = syscall(SYS_kcmp, atoi(argv[2]), atoi(argv[2]), KCMP_FILE,
		    atol(argv[3]), atol(argv[4]));
	if (r < 0) {
		fprintf(stderr, "coop-probe: kcmp: %s\n", strerror(errno));
		return 2;
	}
	return r == 0 ? 0 : 1;
}

/* Run argv[2...] with system call @nr failing with @err. */
static int run_failing(int argc, char **argv, long nr, int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned int)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (argc < 3) {
		fprintf(stderr, "usage: coop-probe %s CMD [ARGS...]\n", argv[1]);
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "coop-probe: seccomp: %s\n", strerror(errno));
		return 2;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "coop-probe: %s: %s\n", argv[2], strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "kcmp"))
		return do_kcmp(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "nouring"))
		return run_failing(argc, argv, SYS_io_uring_setup, ENOSYS);
	if (argc > 1 && !strcmp(argv[1], "badenter"))
		return run_failing(argc, argv, SYS_io_uring_enter, EINVAL);
	fprintf(stderr, "usage: coop-probe kcmp|nouring|badenter ...\n");
	return 2;
}
