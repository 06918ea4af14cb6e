/* jobfile.h - fio-style job files.
 *
 *     ; comment            # comment too
 *     [global]             options for the jobs that follow it
 *     ioengine=libaio
 *     [randread-4k]        a job: the global values so far, then its own
 *     rw = randread
 *     time_based           a bare key is a boolean set to 1
 *
 * Keys and values are those of the option table (cli/options.h). A later
 * [global] changes only the jobs after it. `name=` in a job renames it.
 * A job file is UTF-8 text without control characters (cli/ini.h) and
 * holds at most 1024 jobs.
 */
#ifndef IOCHAR_CLI_JOBFILE_H
#define IOCHAR_CLI_JOBFILE_H

#include "core/job.h"
#include <stddef.h>

#include "util/err.h"

/* Parse the job file at path. On success returns 0 and *jobs holds
 * *nr_jobs (>= 1) specs, owned by the caller: release them with
 * jobfile_free_jobs. On failure returns -errno, *jobs and *nr_jobs are
 * untouched and err holds one line, as a usage error: "PATH:LINE: ..." for
 * a bad line (unknown option, bad value, option outside a section,
 * unterminated [section), a NUL, control or non-UTF-8 byte (named by
 * value, never echoed), more than 1024 jobs), "PATH: ..." for an
 * unreadable file or one with no jobs. */
int jobfile_parse(const char *path, struct job_spec **jobs, unsigned *nr_jobs,
		  struct ioc_err *err);

/* Parse job-file text (NUL-terminated; not modified) as jobfile_parse
 * parses a file's contents, with origin in place of the path in messages
 * ("ORIGIN:LINE: ...", "ORIGIN: no jobs"). Same results and ownership. */
int jobfile_parse_text(const char *text, const char *origin,
		       struct job_spec **jobs, unsigned *nr_jobs,
		       struct ioc_err *err);

/* The same for len bytes of text, which may hold NUL bytes (refused). */
int jobfile_parse_text_n(const char *text, size_t len, const char *origin,
			 struct job_spec **jobs, unsigned *nr_jobs,
			 struct ioc_err *err);

/* Release nr_jobs specs and the array; jobs may be NULL. */
void jobfile_free_jobs(struct job_spec *jobs, unsigned nr_jobs);

#endif
