/* schedule.h - which workers of a run start when, and the jobs' reporting
 * groups, as fio 3.33 decides them (init.c add_job for the group ids,
 * backend.c run_threads for the start order): stonewall, new_group,
 * wait_for and startdelay. Pure decisions over plain arrays; the runner
 * holds the workers back and lets them go when this says so.
 */
#ifndef IOCHAR_CORE_SCHEDULE_H
#define IOCHAR_CORE_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "util/err.h"

/* fio's group ids into groups[0..nr): a job with stonewall or new_group
 * opens the next group, unless the current one has no job yet (so the
 * first job's stonewall changes nothing). Returns the number of groups. */
unsigned schedule_groups(const struct job_spec *jobs, unsigned nr,
			 unsigned *groups);

/* Is each job's wait_for the name of an earlier job (fio refuses a job
 * waiting for itself or for a job not defined before it)? 0, or -EINVAL
 * with a usage message naming the job. */
int schedule_check(const struct job_spec *jobs, unsigned nr,
		   struct ioc_err *err);

/* How long the run is planned to take, for the live view: the stretches
 * between stonewalls one after the other, each as long as its longest job
 * (startdelay's top + ramp_time + runtime; a size-bounded job counts 0).
 * wait_for chains are not followed: an estimate, never a limit. */
uint64_t schedule_planned_ns(const struct job_spec *jobs, unsigned nr);

/* One worker, as the schedule sees it; the runner keeps started and
 * finished up to date. */
struct sched_worker {
	unsigned job;          /* index into the jobs */
	bool first;            /* the job's first clone (fio's stonewall is its) */
	uint64_t delay_ns;     /* startdelay drawn for this worker */
	bool started, finished;
};

/* The startdelay of a job's worker: startdelay_ns, or with a range a value
 * drawn from [startdelay_ns, startdelay_max_ns] by *seed (advanced). */
uint64_t schedule_delay(const struct job_spec *job, uint64_t *seed);

/* fio's start pass: in order over the workers not started, skip one whose
 * delay (since the run's start) is not over, stop at a stonewall while any
 * started worker has not finished, skip one whose wait_for job still has
 * a worker not finished; the rest may start. Marks them started and
 * writes their indexes to out (room for nr). *next_ns is set to the
 * earliest pending delay still ahead (UINT64_MAX: none). Returns how many
 * were picked. */
unsigned schedule_pick(const struct job_spec *jobs, struct sched_worker *w,
		       unsigned nr, uint64_t since_start_ns, unsigned *out,
		       uint64_t *next_ns);

/* Has every worker started? */
bool schedule_all_started(const struct sched_worker *w, unsigned nr);

#endif
