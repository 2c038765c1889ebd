/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How coop.c (the fio-facing ops) hands a job's I/O to a backend.
 *
 * The thread pool (coop_backend=psync|uring) and the 2009 testbed model
 * (coop_backend=sim) sit behind the same five hooks, so option parsing,
 * the ABI guard and fio bookkeeping are written once in coop.c.
 */
#ifndef PERFPACK_COOP_BACKEND_H
#define PERFPACK_COOP_BACKEND_H

struct thread_data;
struct io_u;
struct timespec;
struct fio_file;
struct coop_options;

struct coop_backend_ops {
	const char *name;
	/* Allocate per-job state in *priv; 0 or an errno (after pp_err()). */
	int (*init)(struct thread_data *td, struct coop_options *o, void **priv);
	/* Same contract as ioengine_ops.queue for an asynchronous engine. */
	int (*queue)(struct thread_data *td, void *priv, struct io_u *io_u);
	int (*getevents)(struct thread_data *td, void *priv, unsigned int min,
			 unsigned int max, const struct timespec *t);
	struct io_u *(*event)(struct thread_data *td, void *priv, int ev);
	void (*cleanup)(struct thread_data *td, void *priv);
	/*
	 * Optional: called after fio's generic_open_file() succeeded and
	 * before generic_close_file(); 0 or an errno (after pp_err()).
	 */
	int (*open_file)(struct thread_data *td, void *priv, struct fio_file *f);
	void (*close_file)(struct thread_data *td, void *priv, struct fio_file *f);
	/* Optional: finish every command in flight (fio frees the io_us next). */
	void (*quiesce)(struct thread_data *td, void *priv);
};

extern const struct coop_backend_ops coop_pool_backend;	/* pool_fio.c: psync, uring */
extern const struct coop_backend_ops coop_sim_backend;	/* backend_sim.c */

#endif
