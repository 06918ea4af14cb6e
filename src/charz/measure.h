/* measure.h - the real measure_fn: run a job on a set of targets at once
 * (one job per target, all in parallel) through the runner, and keep what
 * the results need beyond the point itself: each target's figures and the
 * per-second series of every call.
 */
#ifndef IOCHAR_CHARZ_MEASURE_H
#define IOCHAR_CHARZ_MEASURE_H

#include "charz/point.h"
#include "core/runner.h"
#include "dist/dist.h"

/* What one measure call left beside its point. */
struct measure_call {
	struct dir_summary *per_target; /* nr_targets entries (each target's total); owned */
	double *iv_iops;                /* per-second total IOPS; owned */
	double *iv_lat_mean_ns;         /* per-second mean latency; owned */
	unsigned nr_iv;
	/* a run over many hosts (MPI): each host's total; NULL on one host */
	struct dir_summary *per_host;   /* nr_hosts entries; owned */
	char (*host_names)[64];         /* owned */
	unsigned nr_hosts;
	uint64_t start_skew_ns;
};

struct measure_ctx {
	/* in */
	char *const *targets;           /* the target set of this run */
	unsigned nr_targets;
	const struct runner_hooks *hooks; /* stop flag, progress; may be NULL */
	void (*on_point)(void *arg, const struct job_spec *job); /* before each run; may be NULL */
	void *on_point_arg;
	struct dist *dist;              /* run on every MPI rank at once; NULL = here only */

	/* out: one entry per call, in call order */
	struct measure_call *calls;
	unsigned nr_calls, cap;
	bool have_env;
	struct environment env;         /* of the first run */
};

/* measure_fn over ctx (arg is a struct measure_ctx *). The job's files are
 * replaced by one target each; its rate_iops is the total for all targets
 * (and, with ctx->dist, all ranks) and is split evenly between them. With
 * ctx->dist every rank runs the point at once and gets the cluster's
 * merged point (the same on every rank, so searches decide alike). Returns -EINTR with a message when
 * the run was stopped by the user. */
int measure_run(void *arg, const struct job_spec *job, struct point *out,
		struct ioc_err *err);

/* Forget the calls (keeps targets and hooks); ctx may be NULL. */
void measure_ctx_reset(struct measure_ctx *ctx);

#endif
