/* dist.h - one run over many hosts: every MPI rank runs the same job or
 * plan on its own targets, all start each run together and stop together,
 * and rank 0 merges what they measured into one result.
 *
 * Only this folder knows about MPI, and only comm_mpi.c includes mpi.h.
 * Commands use it in this order:
 *
 *     dist_start           launched by mpirun? (NULL handle: run as usual)
 *     dist_expand_files    %h / %r in target names, per rank
 *     dist_agree           same job and version everywhere, every rank
 *                          validated (guard included): before any I/O
 *     dist_run ...         runner_run on every rank at once (collective)
 *     dist_share ...       rank 0's figures to every rank (searches)
 *     dist_finish          the exit status everyone returns; leaves MPI
 *
 * A rank that fails, stops or dies ends the run on every rank in order:
 * see dist_run. A build without MPI (comm_none.c) refuses a launch of more
 * than one rank in dist_start. Timeouts: IOCHAR_DIST_TIMEOUT_MS (default
 * 10000) of silence from a rank declares it lost.
 */
#ifndef IOCHAR_DIST_DIST_H
#define IOCHAR_DIST_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/runner.h"
#include "inventory/environment.h"
#include "util/err.h"

struct dist;

/* Was this process started by an MPI launcher (Open MPI's mpirun, or a PMI
 * one), and with how many ranks (0 when the launcher does not say)? */
bool dist_launched(unsigned *size);

/* Join the run when launched by mpirun: *out is the handle, to be passed
 * to dist_finish. When not launched by a launcher, *out is NULL, MPI is
 * not touched and the command runs as on one host. A build without MPI
 * refuses a launch of more than one rank (err->usage, -ENOTSUP; the
 * message is set on rank 0 only, so that it is printed once). Also
 * measures each rank's clock offset from rank 0 (a ping-pong). */
int dist_start(struct dist **out, struct ioc_err *err);

int dist_rank(const struct dist *d);
int dist_size(const struct dist *d);
bool dist_is_root(const struct dist *d);  /* d NULL (one host) counts as root */
const char *dist_host(const struct dist *d, int rank); /* hostname of rank */

/* Expand "%h" (this host's name), "%r" (this rank) and "%%" in the file
 * list of job (its filename as given), so each host may use its own
 * targets. Without d, %h and %r stay as they are only if absent; a list
 * with them is expanded for rank 0. 0 or -errno with a message. */
/* Name this rank's fio logs apart from the other ranks' (job->log_suffix
 * ".HOST.RANK", fio's client naming NAME.HOST with the rank added, as
 * ranks may share a host); nothing without d or with one rank. */
void dist_log_suffix(const struct dist *d, struct job_spec *job);

int dist_expand_files(const struct dist *d, struct job_spec *job,
		      struct ioc_err *err);

/* Every rank: `what` describes the effective job or plan (any text that
 * must be equal everywhere), local_ret/local_err the outcome of this
 * rank's validation. Compared with every other rank's before any I/O:
 * returns 0 when every rank validated and all agree with rank 0 on `what`
 * and on the iochar version; otherwise the same error on every rank,
 * naming the first rank and host that refused (its own message) or
 * differs. A collective. */
int dist_agree(struct dist *d, const char *what, int local_ret,
	       const struct ioc_err *local_err, struct ioc_err *err);

/* runner_run(jobs) on every rank at once. The runner's start is held at a
 * barrier until every rank has prepared its targets, then all start
 * together; the wall clock of each rank's start is gathered (offsets
 * corrected) into out->start_skew_ns. While they run, a watcher thread
 * exchanges heartbeats: a rank that fails (its error), is stopped by a
 * signal, or stays silent past the timeout stops every other rank, which
 * then report what they measured.
 *
 * On rank 0, *out is the cluster's result: every rank's workers
 * (worker_result.host), totals with histograms merged exactly, and
 * out->hosts one entry per rank. On other ranks *out is the rank's own.
 * Returns 0, or the same -errno on every surviving rank with a message
 * naming the rank and host at fault; *out then holds whatever was
 * measured (out->partial), as runner_run does. */
int dist_run(struct dist *d, const struct job_spec *jobs, unsigned nr_jobs,
	     const struct runner_hooks *hooks, struct run_result *out,
	     struct ioc_err *err);

/* Copy rank 0's len bytes at buf to every rank's buf (after a successful
 * dist_run, so that searches take the same decisions everywhere). 0 or
 * -errno with a message. */
int dist_share(struct dist *d, void *buf, size_t len, struct ioc_err *err);

/* Net mesh support (pairs.c). A callback run on one pair of ranks at a
 * time: `peer` is the other rank, client is true on the pair's first rank
 * and false on its second (the server, which should listen before it
 * tells the client where, with dist_send). Returns 0 or -errno with a
 * message in err. */
typedef int (*dist_pair_fn)(void *arg, int peer, bool client, struct ioc_err *err);

/* Every ordered pair (a, b), a != b, in order (a major), or with ring
 * only (r, r + 1 mod size): both ranks of the pair call fn, the others
 * wait; then all meet (through rank 0, with deadlines: pair_ns, the
 * longest a pair may take, plus the timeout) and go on together, so one
 * pair's traffic never overlaps another's. The first failure ends the
 * sweep on every rank with the same error, naming the rank. A collective.
 * Returns 0 or -errno with a message. */
int dist_pairs(struct dist *d, bool ring, uint64_t pair_ns, dist_pair_fn fn,
	       void *arg, struct ioc_err *err);

/* Every rank meets the others and learns the first failing rank's status
 * (local_ret, local_err), named: a barrier with an outcome and a deadline
 * (wait_ns plus the timeout). 0 or the same -errno on every rank. */
int dist_sync(struct dist *d, uint64_t wait_ns, int local_ret,
	      const struct ioc_err *local_err, struct ioc_err *err);

/* Bytes between two ranks (inside a pair's callback): dist_recv waits up
 * to the timeout for exactly len bytes from `from`. 0 or -errno + message. */
int dist_send(struct dist *d, int to, const void *buf, size_t len,
	      struct ioc_err *err);
int dist_recv(struct dist *d, int from, void *buf, size_t len,
	      struct ioc_err *err);

/* Every rank's len bytes at mine, in rank order, into rank 0's all (size
 * * len bytes; other ranks' all is untouched and may be NULL), with a
 * deadline: e.g. the mesh's matrix rows. 0 or -errno + message. */
int dist_gather(struct dist *d, const void *mine, size_t len, void *all,
		struct ioc_err *err);

/* Every rank's environment (env: its own, collected before the measured
 * window) to rank 0, as JSON text (json_environment_text): on rank 0 *out
 * is a malloc'd array of dist_size entries, by rank, each NUL-terminated
 * text or NULL for a rank that is lost or sent nothing in time (marked
 * lost); elsewhere, and without d, *out is NULL. Lost ranks are not an
 * error. A collective (all surviving ranks, in the same order as the
 * other collectives). 0 or -ENOMEM with a message. */
int dist_gather_env(struct dist *d, const struct environment *env, char ***out,
		    struct ioc_err *err);

/* After dist_run, whatever it returned: every rank's r->env into rank 0's
 * r->hosts[].env_json (by rank). Without d, nothing. 0 or -ENOMEM. */
int dist_gather_env_run(struct dist *d, struct run_result *r, struct ioc_err *err);

/* Free dist_gather_env's array (NULL is fine). */
void dist_env_free(char **all, int size);

/* End the run: rank 0 passes its exit status to every rank once its
 * output is written (so no rank exits, and mpirun ends the job, before
 * that), and every rank returns that status. Leaves MPI and frees d.
 * d may be NULL (returns status). */
int dist_finish(struct dist *d, int status);

#endif
