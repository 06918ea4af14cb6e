/* buffer_opts.c - see buffer_opts.h. */
#include "base/buffer_opts.h"

#include <errno.h>

int buffer_opts_check(const struct job_spec *job, struct ioc_err *err)
{
	if (!job->dedupe_pct || job->dedupe_mode != DEDUPE_WORKING_SET)
		return 0;
	if (!job->size && !job->size_pct)
		return err_usage(err, EINVAL, "job %s: dedupe_mode=working_set "
				 "needs size= (the working set is a share of it)",
				 job->name);
	if (job->nr_files > 1 || job->nrfiles > 1)
		return err_usage(err, EINVAL, "job %s: dedupe_mode=working_set "
				 "takes one file per job, as fio's", job->name);
	if (job->dedupe_ws_pct + job->dedupe_pct > 100)
		return err_usage(err, EINVAL, "job %s: dedupe_percentage=%u "
				 "cannot be met with dedupe_working_set_percentage=%u "
				 "of size kept unique (at most 100 together)",
				 job->name, job->dedupe_pct, job->dedupe_ws_pct);
	return 0;
}
