/* workloads.h - a multi-workload step (plan key workloads=): several
 * workloads run at once on the same targets (an OLTP database's data
 * files and its redo log), each figured apart and all in total, the
 * step's latency limit judged on the directions each one's
 * latency_judge names (docs/workloads.md).
 *
 * measure.c calls these when its ctx has workloads; the runner sees one
 * job per workload per target, workload-major: workload k on target t is
 * job k * nr_targets + t.
 */
#ifndef IOCHAR_CHARZ_WORKLOADS_H
#define IOCHAR_CHARZ_WORKLOADS_H

#include "charz/plan.h"
#include "charz/point.h"
#include "stats/result.h"

/* One workload's figures in one measure call. */
struct wl_figures {
	const char *name;          /* its section; borrowed from the plan */
	const struct job_spec *job; /* as the plan gives it (wl[0]: before the search's depth); borrowed */
	enum wl_judge judge;
	struct stats_summary s;    /* read, write and total, over its targets */
	/* its flushes (fsync=/fdatasync=, fio's "sync"): how many, their
	 * latency's mean and p99, ns */
	uint64_t sync_ios;
	double sync_mean_ns, sync_p99_ns, sync_p99_9_ns;
	/* its latency_judge names a direction that did I/O; a write with a
	 * flush after it is judged as a commit: the write's latency plus the
	 * flush's (the same statistic of each: for a percentile, a bound) */
	bool judged;
	double judged_ns[3];       /* the worst judged direction's, by enum lat_stat */
};

/* The runner's jobs (*out, *nr; owned by the caller, job_spec_free each
 * and free) for workloads wl[0..nr_wl) on targets (none: each workload's
 * own files): wl[0] is replaced by first (what a search or curve set:
 * iodepth, numjobs, rate_iops, the last split over the targets).
 * 0 or -ENOMEM. */
int wl_make_jobs(const struct step_workload *wl, unsigned nr_wl,
		 const struct job_spec *first, char *const *targets,
		 unsigned nr_targets, struct job_spec **out, unsigned *nr);

/* Check st's workloads together on targets (none: their own files) as
 * the runner will get them, writing nothing. 0 or -errno with a message
 * naming the workload's section. */
int wl_validate(const struct plan_step *st, char *const *targets,
		unsigned nr_targets, struct ioc_err *err);

/* Each workload's figures of run r (jobs made by wl_make_jobs) into
 * out[0..nr_wl), and p's judged latency: the worst over the workloads
 * judged (p->judged false when none is). 0 or -ENOMEM. */
int wl_figures(const struct run_result *r, const struct step_workload *wl,
	       unsigned nr_wl, unsigned nr_targets, struct wl_figures *out,
	       struct point *p);

/* Each target's total over all workloads into per_target[0..nr_targets)
 * (one entry when there are no targets). 0 or -ENOMEM. */
int wl_target_totals(const struct run_result *r, unsigned nr_wl,
		     unsigned nr_targets, struct dir_summary *per_target);

/* "each", "read", "write", "none". */
const char *wl_judge_name(enum wl_judge j);

#endif
