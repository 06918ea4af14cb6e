/* ioprio.c - a job's I/O priority on its worker. See ioprio.h. */
#include "core/ioprio.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/job_options.h"

#define IOPRIO_WHO_PROCESS 1 /* with who 0: the calling thread */

int ioprio_apply(const struct job_spec *j, struct ioc_err *err)
{
	unsigned v = job_ioprio(j);

	if (!v)
		return 0; /* neither prio nor prioclass (v is never 0 then) */
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)v) < 0)
		return err_set(err, errno, "job %s: ioprio_set (prioclass=%u, "
			       "prio=%u): %s", j->name, j->prioclass, j->prio,
			       strerror(errno));
	return 0;
}
