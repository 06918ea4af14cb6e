/* runner.h - "run these job specs, give me the result".
 *
 * The one library call everything above it (the run command, plans,
 * searches, curves) uses. It validates the jobs against their targets,
 * prepares the targets (creating and filling scratch files), starts
 * numjobs worker threads per job, sets every one up, lets each go when its
 * turn comes (stonewall, wait_for, startdelay, as fio: core/schedule.h),
 * stops them on time, size, signal or error, and merges what they measured. It reaches RAID virtual drives,
 * verification and the environment only through the seams the program
 * installed (core/seams.h).
 */
#ifndef IOCHAR_CORE_RUNNER_H
#define IOCHAR_CORE_RUNNER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "base/job.h"
#include "stats/result.h"
#include "stats/hist.h"
#include "util/err.h"

/* The first tick comes this long into a run, so even a one-second run
 * shows its figures; the next ones on each whole second. */
#define RUNNER_FIRST_TICK_NS 500000000ull

struct runner_hooks {
	/* Called from the runner's thread while workers run, at
	 * RUNNER_FIRST_TICK_NS and then about once a second, with the live totals so far and lat, the latency histogram
	 * of the run so far (every worker and direction, each as of its
	 * last answer, up to a second old; empty at first, NULL when out of
	 * memory; the runner's, valid during the call). May be NULL. */
	void (*tick)(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		     const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		     uint64_t lat_sum_ns, const struct hist *lat);
	/* Called from the runner's thread each time it looks at the workers
	 * (every few tens of milliseconds) while they run: something quick,
	 * such as redrawing the live line when the terminal was resized.
	 * arg is the hooks' arg. May be NULL. */
	void (*poll)(void *arg);
	/* Called while a file is being filled before the run; may be NULL. */
	void (*fill_progress)(void *arg, const char *path, uint64_t done,
			      uint64_t total);
	void *arg;
	/* When set by anyone (e.g. a signal handler), workers stop soon and
	 * the result is marked partial. May be NULL. */
	atomic_bool *stop;
	/* Jobs of another target kind (core/seams.h): called with what the
	 * job's workers share (a RAID VD job: its running struct vd, vd/vd.h)
	 * before they start, and after they are joined, before it goes away
	 * (e.g. `iochar vd rebuild` runs its rebuilder between the two).
	 * May be NULL. */
	void (*target_start)(void *arg, unsigned job, void *shared);
	void (*target_stop)(void *arg, unsigned job, void *shared);
	/* Called once every worker is set up and waiting to start, right
	 * before they are let go (a run over many hosts holds them here until
	 * every host is ready). Nonzero (-errno, message in err) stops the run
	 * before any I/O. May be NULL. */
	int (*before_start)(void *start_arg, struct ioc_err *err);
	void *start_arg;
	/* fio's --status-interval: every status_every_ns while workers run
	 * (0: never), called from the runner's thread with the run so far,
	 * cumulative from its start (each worker as of its last answer, a
	 * fraction of a second old; the disks' counts so far), only valid
	 * during the call. arg is the hooks' arg. May be NULL. */
	void (*status)(void *arg, const struct run_result *so_far);
	uint64_t status_every_ns;
};

/* Check jobs against their targets without writing anything: paths exist
 * (or can be created), sizes fit, block sizes suit O_DIRECT, the engine is
 * available. Returns 0, or -errno with a one-line message in err (err->usage
 * set for input errors). */
int runner_validate(const struct job_spec *jobs, unsigned nr_jobs,
		    struct ioc_err *err);

/* Whether job runs at depth 1 whatever its iodepth: a synchronous engine
 * (ENGINE_SYNC) on files, fio's rule; a target kind's engine is its own.
 * runner_run caps such a job's depth and says so once; a search varies
 * numjobs only on it. */
bool runner_depth_is_one(const struct job_spec *job);

/* Validate, prepare targets, run, merge. On success (0) *out holds the
 * result, to be released with run_result_free; out->partial is set when the
 * run was stopped early. On failure returns -errno with a message in err and
 * *out is empty. */
int runner_run(const struct job_spec *jobs, unsigned nr_jobs,
	       const struct runner_hooks *hooks, struct run_result *out,
	       struct ioc_err *err);

#endif
