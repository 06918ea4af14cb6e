/* buffer_opts.h - the checks between fio's buffer-content options
 * (buffer_compress_percentage, dedupe_*), as fio's fixup_options makes
 * them. */
#ifndef IOCHAR_BASE_BUFFER_OPTS_H
#define IOCHAR_BASE_BUFFER_OPTS_H

#include "base/job.h"
#include "util/err.h"

/* dedupe_mode=working_set needs size= and one file, and the working set
 * plus the repeated blocks cannot pass 100 % (fio's messages). 0, or
 * -EINVAL with a one-line usage message naming the job and options. */
int buffer_opts_check(const struct job_spec *job, struct ioc_err *err);

#endif
