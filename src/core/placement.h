/* placement.h - where a worker thread runs and allocates: fio's
 * cpus_allowed (+ cpus_allowed_policy), numa_cpu_nodes and
 * numa_mem_policy, applied to the calling thread in fio's order (CPU set,
 * then NUMA nodes, then memory policy: backend.c's thread_main). */
#ifndef IOCHAR_CORE_PLACEMENT_H
#define IOCHAR_CORE_PLACEMENT_H

#include "base/job.h"
#include "util/err.h"

/* Place the calling thread for job, as worker number `index` of the run
 * (0-based over all jobs' workers: fio's thread_number - 1, which split
 * uses). Does nothing for what the job leaves unset. 0, or an error
 * naming the job and the option. */
int placement_apply(const struct job_spec *job, unsigned index, struct ioc_err *err);

#endif
