/* measure.h - the real measure_fn: run a job on a set of targets at once
 * (one job per target, all in parallel) through the runner, and keep what
 * the results need beyond the point itself: each target's figures and the
 * per-second series of every call.
 */
#ifndef IOCHAR_CHARZ_MEASURE_H
#define IOCHAR_CHARZ_MEASURE_H

#include "charz/point.h"
#include "charz/workloads.h"
#include "core/runner.h"
#include "dist/dist.h"

/* What one measure call left beside its point. */
struct measure_call {
	struct dir_summary *per_target; /* nr_targets entries (each target's total); owned */
	/* A step on VDs (vd=, no targets): one entry per VD, labelled with its
	 * definition; NULL for a step on targets (labelled by the set's). */
	char **vd_labels;               /* nr_vds entries; owned */
	unsigned nr_vds;
	/* the VDs' figures as `iochar run` gives them (output/vd_out.h): the
	 * "vd" array's JSON, the text lines, member I/Os per host I/O over
	 * all and by VD (nr_vds entries); NULL, NULL, 0, NULL for a step on
	 * plain targets. Owned. */
	char *vd_json, *vd_text;
	double vd_amp, *vd_amps;
	double *iv_iops;                /* per-second total IOPS; owned */
	double *iv_lat_mean_ns;         /* per-second mean latency; owned */
	unsigned nr_iv;
	/* a run over many hosts (MPI): each host's total; NULL on one host */
	struct dir_summary *per_host;   /* nr_hosts entries; owned */
	char (*host_names)[64];         /* owned */
	unsigned nr_hosts;
	uint64_t start_skew_ns;
	/* a multi-workload step: each workload's figures (nr_wl entries,
	 * in the step's order); NULL, 0 otherwise. Owned. */
	struct wl_figures *per_wl;
	unsigned nr_wl;
};

struct disc_choice;

struct measure_ctx {
	/* in */
	char *const *targets;           /* the target set of this run */
	unsigned nr_targets;
	const struct runner_hooks *hooks; /* stop flag, progress; may be NULL */
	void (*on_point)(void *arg, const struct job_spec *job); /* before each run; may be NULL */
	void *on_point_arg;
	struct dist *dist;              /* run on every MPI rank at once; NULL = here only */
	/* a multi-workload step: its workloads (borrowed; the job measured
	 * stands for wl[0]), run together on each target; NULL, 0 otherwise */
	const struct step_workload *wl;
	unsigned nr_wl;
	/* the set's submission discipline, set on every job it runs
	 * (charz/discipline.h); NULL: the job's own. Borrowed. */
	const struct disc_choice *disc;

	/* out: one entry per call, in call order */
	struct measure_call *calls;
	unsigned nr_calls, cap;
	/* of the first run, owned: released with env_free; NULL before it */
	struct environment *env;
	void (*env_free)(struct environment *env);
};

/* measure_fn over ctx (arg is a struct measure_ctx *). The job's files are
 * replaced by one target each; its rate_iops is the total for all targets
 * (and, with ctx->dist, all ranks) and is split evenly between them. With
 * ctx->dist every rank runs the point at once and gets the cluster's
 * merged point (the same on every rank, so searches decide alike).
 * ctx->disc, when set, is applied to every job. Returns -EINTR with a message when
 * the run was stopped by the user. */
int measure_run(void *arg, const struct job_spec *job, struct point *out,
		struct ioc_err *err);

/* Each target's IOPS in ctx's (arg's) last call, out[0..max): how many
 * it wrote (the precondition's target_iops_fn). 0 before any call and on
 * a VD step, whose entries are VDs. */
unsigned measure_target_iops(void *arg, double *out, unsigned max);

/* Forget the calls (keeps targets and hooks); ctx may be NULL. */
void measure_ctx_reset(struct measure_ctx *ctx);

#endif
