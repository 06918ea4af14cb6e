/* runner.h - "run these job specs, give me the result".
 *
 * The one library call everything above it (the run command, plans,
 * searches, curves) uses. It validates the jobs against their targets,
 * prepares the targets (creating and filling scratch files), starts
 * numjobs worker threads per job, stops them on time, size, signal or error,
 * and merges what they measured.
 */
#ifndef IOCHAR_CORE_RUNNER_H
#define IOCHAR_CORE_RUNNER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/job.h"
#include "core/result.h"
#include "util/err.h"

struct vd;

struct runner_hooks {
	/* Called about once a second from the runner's thread while workers
	 * run, with the live totals so far; may be NULL. */
	void (*tick)(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		     const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		     uint64_t lat_sum_ns);
	/* Called while a file is being filled before the run; may be NULL. */
	void (*fill_progress)(void *arg, const char *path, uint64_t done,
			      uint64_t total);
	void *arg;
	/* When set by anyone (e.g. a signal handler), workers stop soon and
	 * the result is marked partial. May be NULL. */
	atomic_bool *stop;
	/* VD jobs: called with the job's running VD (vd/vd.h) before its
	 * workers start, and after they are joined, before the VD goes away
	 * (e.g. `iochar vd rebuild` runs its rebuilder between the two).
	 * May be NULL. */
	void (*vd_start)(void *arg, unsigned job, struct vd *vd);
	void (*vd_stop)(void *arg, unsigned job, struct vd *vd);
	/* Called once every worker is set up and waiting to start, right
	 * before they are let go (a run over many hosts holds them here until
	 * every host is ready). Nonzero (-errno, message in err) stops the run
	 * before any I/O. May be NULL. */
	int (*before_start)(void *start_arg, struct ioc_err *err);
	void *start_arg;
};

/* Check jobs against their targets without writing anything: paths exist
 * (or can be created), sizes fit, block sizes suit O_DIRECT, the engine is
 * available. Returns 0, or -errno with a one-line message in err (err->usage
 * set for input errors). */
int runner_validate(const struct job_spec *jobs, unsigned nr_jobs,
		    struct ioc_err *err);

/* Validate, prepare targets, run, merge. On success (0) *out holds the
 * result, to be released with run_result_free; out->partial is set when the
 * run was stopped early. On failure returns -errno with a message in err and
 * *out is empty. */
int runner_run(const struct job_spec *jobs, unsigned nr_jobs,
	       const struct runner_hooks *hooks, struct run_result *out,
	       struct ioc_err *err);

#endif
