/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every perfpack engine shares: the one exported symbol, the logging
 * prefix and the ABI guard.  Include after "fio.h".
 */
#ifndef PERFPACK_ENGINES_COMMON_PP_H
#define PERFPACK_ENGINES_COMMON_PP_H

/*
 * Engines are built with -fvisibility=hidden; fio finds an external engine
 * by dlsym(handle, "ioengine"), so that is the only symbol we export.
 */
#define PP_EXPORT __attribute__((visibility("default")))

/* Errors always carry the engine's name so a multi-engine job log is readable. */
#define pp_err(eng, fmt, ...) log_err("%s: " fmt "\n", (eng), ##__VA_ARGS__)
#define pp_info(eng, fmt, ...) log_info("%s: " fmt "\n", (eng), ##__VA_ARGS__)

struct thread_data;

/*
 * Refuse to run inside a fio whose version differs from the tree we were
 * compiled against: struct thread_data and struct io_u are not versioned, so
 * a mismatch would corrupt memory instead of failing.  Returns 0 when the
 * versions match, 1 after logging the reason and setting a job error.
 */
int pp_abi_check(struct thread_data *td, const char *engine);

/*
 * The one enum-option idiom of perfpack's engines.  fio's own posval
 * matching (FIO_OPT_STR) cannot carry the engine's name: on a bad value it
 * lists the valid ones on stdout and says "fio: failed parsing", and it
 * accepts any string that merely starts with a valid name.  So an enum
 * option is an FIO_OPT_STR_STORE whose .posval lists the values (for
 * --enghelp, and as the table matched here) and whose .cb is made by
 * PP_ENUM_OPT_CB(): an exact match stores the value's .oval in @member of
 * the engine's option struct @T, anything else is refused as
 * "ENGINE: NAME=VALUE: unknown value (valid: a, b)".  .off1 must name a
 * char * field of @T that fio fills and frees (the string as written):
 * with .off1 = 0 fio would strdup() over offset 0, the pointer fio keeps
 * there.  Build .posval from the enum's X-macro table with PP_POSVAL.
 */
int pp_opt_enum(const char *engine, const struct fio_option *opts, const char *name,
		const char *str, unsigned int *out);

/*
 * fio 3.33 mangles an engine's option written "NAME = VALUE" in a job
 * file: parse_option() trims the blank off the name, finds no such option
 * in fio's own table and moves " VALUE" back after "NAME=" without its
 * terminating NUL, so the engine's parse sees " VALUEE" (coop_threads = 2
 * ran 22 workers).  A value starting with a blank is refused, naming
 * the cause (1; 0 otherwise): the enum and number parsers here check it,
 * a string option's .cb calls it.  "NAME =VALUE" arrives as "VALUEE" with
 * nothing to tell it from a value written so.
 */
int pp_opt_blank(const char *engine, const char *name, const char *str);

#define PP_ENUM_OPT_CB(fn, engine, opts, optname, T, member)		\
static int fn(void *data, const char *str)				\
{									\
	unsigned int v_;						\
									\
	if (pp_opt_enum((engine), (opts), (optname), str, &v_))		\
		return 1;						\
	((T *)data)->member = v_;					\
	return 0;							\
}

/* One posval entry from an enum table row X(id, name, help). */
#define PP_POSVAL(id, nm, hlp) { .ival = nm, .oval = id, .help = hlp },

/*
 * A number option whose value is parsed whole: fio splits the value of an
 * FIO_OPT_INT or FIO_OPT_BOOL at ',', ':' and '-' and hands each piece to
 * the option in turn, the last one winning and a failing piece hidden by a
 * later one (blkfile_allow_bdev_write=-1 is an empty piece, then 1: device
 * writes allowed; =0-1 the same; blkfile_recheck_msec=4294967396 arrived
 * as 100).  A string option is not split, so such an option is an
 * FIO_OPT_STR_STORE (.off1 a char * field fio fills and frees, as for
 * PP_ENUM_OPT_CB) whose .cb, made by PP_UINT_STR_OPT_CB(), parses the
 * whole value: decimal, or hexadecimal after 0x, nothing else, within
 * @min..@max (0..1 for a boolean), stored in @member of @T; anything else
 * is refused as "ENGINE: NAME=VALUE: must be ...", and fio's parse fails
 * (a leading blank: pp_opt_blank()).
 */
int pp_opt_uint_str(const char *engine, const char *name, const char *str,
		    unsigned int min, unsigned int max, unsigned int *dst);

#define PP_UINT_STR_OPT_CB(fn, engine, optname, T, member, min, max)	\
static int fn(void *data, const char *str)				\
{									\
	return pp_opt_uint_str((engine), (optname), str, (min), (max),	\
			       &((T *)data)->member);			\
}

/* A macro's value as a string literal, for help texts: PP_STR(COOP_MAX_THREADS). */
#define PP_STR_(s) #s
#define PP_STR(s) PP_STR_(s)

#endif
