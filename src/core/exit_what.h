/* exit_what.h - exitall: which workers one worker's end stops, as fio
 * 3.33 decides it (libfio.c fio_terminate_threads, called as each thread
 * ends once any job has set exitall). A pure decision over the schedule's
 * view of the workers; the runner stops the ones it names.
 */
#ifndef IOCHAR_CORE_EXIT_WHAT_H
#define IOCHAR_CORE_EXIT_WHAT_H

#include <stdbool.h>

#include "base/job.h"
#include "core/schedule.h"

/* Does a worker's end stop others in this run? fio's exitall is global:
 * set by any job, it holds for all of them. */
bool exit_what_armed(const struct job_spec *jobs, unsigned nr_jobs);

/* Worker `ended` of w[0..nr) has ended: set stop[i] (room for nr, not
 * cleared) for each worker its job's exit_what stops: group, the workers
 * whose job is in its reporting group (groups: by job, schedule_groups),
 * started or not; stonewall, every worker started and not finished (the
 * ones not started run when their turn comes); all, every worker. A
 * worker stopped before it started never runs. */
void exit_what_pick(const struct job_spec *jobs, const unsigned *groups,
		    const struct sched_worker *w, unsigned nr, unsigned ended,
		    bool *stop);

#endif
