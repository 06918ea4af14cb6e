/* runner_int.h - the runner's parts and what they share, private to
 * core/runner*.c (core/runner.h is the API).
 *
 * runner.c is the run's sequence (runner_validate, runner_run); the
 * parts: runner_jobs.c (a target kind's jobs split, the checks before
 * anything is written), runner_targets.c (files laid out before, marked
 * and removed after), runner_crew.c (the workers made, started, joined,
 * freed), runner_watch.c (the caller's thread while they run: start
 * order, exitall, ticks, CPU samples) and runner_result.c (the result
 * made, the workers' figures merged into it).
 */
#ifndef IOCHAR_CORE_RUNNER_INT_H
#define IOCHAR_CORE_RUNNER_INT_H

#include <stdatomic.h>
#include <sys/resource.h>

#include "core/layout.h"
#include "core/runner.h"
#include "core/worker.h"
#include "stats/cpuload.h"

struct sched_worker;
struct steady_run;
struct run_status;

/* What the runner watches while the workers run (runner_watch.c), and
 * the span whose CPU use the result reports (runner_result.c). */
struct watch {
	struct worker *w;
	unsigned nr;
	uint64_t start_ns;
	atomic_bool *stop;          /* the workers' flag, owned by the run */
	atomic_bool *user_stop;     /* hooks->stop: the caller asks to stop; may be NULL */
	const struct runner_hooks *hooks;
	uint64_t ramp_ns, planned_ns;
	/* the tick's latency: each worker's last snapshot, the memory it
	 * writes the next into, and their sum; NULL until the first ask */
	struct hist *seen, *snaps, *lat;
	struct rusage ru_start, ru_end;
	struct cpuload load_start, load_end; /* the whole machine, same span */
	/* the start order: by worker, its gate and schedule state; picked
	 * has room for nr (core/schedule.h) */
	const struct job_spec *jobs;
	struct start_gate *gates;
	struct sched_worker *sched;
	unsigned *picked;
	/* exitall (core/exit_what.h): by job its group; by worker, whether
	 * its end was acted on, and the workers one end stops */
	bool exitall;
	unsigned *groups;
	bool *ended, *hit;
	struct steady_run *steady;  /* fio's steady-state windows */
	struct run_status *status;  /* --status-interval's reports; NULL: none */
};

/* ---- runner_jobs.c ---- */

/* Jobs a target kind splits become several jobs, run in parallel and
 * summed like any jobs. *out is jobs itself when nothing was split (free
 * with runner_release_expanded). 0 or -errno in err. */
int runner_expand_jobs(const struct job_spec *jobs, unsigned nr,
		       struct job_spec **out, unsigned *nr_out, struct ioc_err *err);
void runner_release_expanded(const struct job_spec *orig, struct job_spec *x,
			     unsigned nr);

/* Each job laid out (its workers numbered from 1 in job order) into
 * layouts[], then the checks across jobs: schedule, hooks, descriptors.
 * *nr_workers (may be NULL) gets the workers laid out. The caller
 * releases the layouts. 0 or -errno with err. */
int runner_check_layouts(const struct job_spec *jobs, unsigned nr_jobs,
			 struct job_layout *layouts, unsigned *nr_workers, struct ioc_err *err);

/* runner_validate over expanded jobs: layouts, schedule, hooks, fds. */
int runner_validate_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			     struct ioc_err *err);

/* The per-I/O hooks (verification) see every job before anything is
 * written; without them no job may ask to be verified. */
int runner_check_hooks(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts, struct ioc_err *err);

/* ---- runner_targets.c ---- */

/* Prepare each job's target kind and lay out the files the layouts say
 * to fill (creating their directories for create_parent). 0 or -errno. */
int runner_prepare_targets(const struct job_spec *jobs, unsigned nr_jobs,
			   const struct job_layout *layouts,
			   const struct runner_hooks *hooks, struct ioc_err *err);

/* Mark the files an engine created itself as iochar's (best effort). */
void runner_mark_fresh(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts);

/* unlink=1: remove the jobs' files; a failure sets *ret (message in
 * err) only when err is given and *ret is 0. */
void runner_remove_files(const struct job_spec *jobs, unsigned nr_jobs,
			 const struct job_layout *layouts, struct ioc_err *err,
			 int *ret);

/* ---- runner_result.c ---- */

/* Start r: the jobs (synchronous engines' depth capped at 1), room for
 * nr_workers, the start time, the targets' environment. 0 or -errno. */
int runner_init_result(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts,
		       unsigned nr_workers, struct run_result *r,
		       struct ioc_err *err);

/* Move the nr joined workers' figures into r and merge them, with the
 * run's span and CPU use from wa. The first worker's error is returned
 * (r->partial set); the figures are kept. */
int runner_collect(struct worker *w, unsigned nr, struct watch *wa,
		   struct run_result *r, struct ioc_err *err);

/* ---- runner_watch.c ---- */

/* Open the gates of the workers whose turn has come (all the rest once
 * the run stops). Returns when to look again (UINT64_MAX: all started). */
uint64_t runner_release_due(struct watch *wa, uint64_t now);

/* On the caller's thread until every worker is finished: start order,
 * exitall, stop relay, steady state, status reports, ticks, CPU samples. */
void runner_watch_workers(struct watch *wa);

/* ---- runner_crew.c ---- */

/* Make, start, watch and join the workers (numjobs per job), then
 * collect into r. t0_ns: when the runner began (status reports' clock). */
int runner_run_workers(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts, unsigned nr_workers,
		       const struct runner_hooks *hooks, struct run_result *r,
		       uint64_t t0_ns, struct ioc_err *err);

#endif
