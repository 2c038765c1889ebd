/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * System calls that never touch libc's per-thread state.
 *
 * Workers of coop_ioctx=shared are created with a raw clone(CLONE_IO):
 * they have no TLS of their own, so errno, malloc's caches and pthread
 * objects would be the creating thread's.  Everything a worker does goes
 * through coop_sys() (returns -errno instead of setting errno) and the
 * futex-based primitives of sync.h.  On architectures without an inline
 * syscall here, COOP_HAVE_RAW_SYSCALL is 0 and coop_ioctx=shared is refused.
 */
#ifndef PERFPACK_COOP_SYS_H
#define PERFPACK_COOP_SYS_H

#include <sys/syscall.h>

#if defined(__x86_64__)
#define COOP_HAVE_RAW_SYSCALL 1
static inline long coop_sys6(long n, long a1, long a2, long a3, long a4,
			     long a5, long a6)
{
	unsigned long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10),
			       "r"(r8), "r"(r9)
			     : "rcx", "r11", "memory");
	return (long)ret;
}
#elif defined(__aarch64__)
#define COOP_HAVE_RAW_SYSCALL 1
static inline long coop_sys6(long n, long a1, long a2, long a3, long a4,
			     long a5, long a6)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a1;
	register long x1 __asm__("x1") = a2;
	register long x2 __asm__("x2") = a3;
	register long x3 __asm__("x3") = a4;
	register long x4 __asm__("x4") = a5;
	register long x5 __asm__("x5") = a6;

	__asm__ __volatile__("svc 0"
			     : "+r"(x0)
			     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			     : "memory", "cc");
	return x0;
}
#else
#include <errno.h>
#include <unistd.h>
#define COOP_HAVE_RAW_SYSCALL 0
static inline long coop_sys6(long n, long a1, long a2, long a3, long a4,
			     long a5, long a6)
{
	long r = syscall(n, a1, a2, a3, a4, a5, a6);

	return r < 0 ? -errno : r;
}
#endif

/* coop_sys(SYS_x, args...): up to six long-sized arguments, -errno on error. */
#define COOP_SYS_ARGS(n, a, b, c, d, e, f, ...)				\
	coop_sys6((long)(n), (long)(a), (long)(b), (long)(c), (long)(d),	\
		  (long)(e), (long)(f))
#define coop_sys(...) COOP_SYS_ARGS(__VA_ARGS__, 0, 0, 0, 0, 0, 0)

#endif
