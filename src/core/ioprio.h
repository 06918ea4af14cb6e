/* ioprio.h - a job's I/O priority (prio, prioclass) on its worker thread,
 * as fio 3.33's thread_main: ioprio_set(IOPRIO_WHO_PROCESS, 0, ...) when
 * either option is set, before the engine starts.
 */
#ifndef IOCHAR_CORE_IOPRIO_H
#define IOCHAR_CORE_IOPRIO_H

#include "base/job.h"
#include "util/err.h"

/* Set the calling thread's I/O priority to job j's (job_ioprio), if it
 * names one.
 * 0, or -errno with a message naming the job (fio fails the job too). */
int ioprio_apply(const struct job_spec *j, struct ioc_err *err);

#endif
