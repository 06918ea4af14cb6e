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
 * [global] changes only the jobs after it (fio: any section whose name
 * starts with "global"). `name=` in a job renames it. `include FILE` in
 * a section reads FILE's options there (FILE as given when it exists, else
 * beside the including file; nested; no sections in it; a loop is
 * refused). Values get fio's ${VAR}, $pagesize, $mb_memory, $ncpus and
 * their arithmetic (cli/jobfile_expand.h), all the file's values together
 * at most 16 MiB after it (E2BIG at the line that passes). A job file is UTF-8 text
 * without control characters (util/ini.h) and holds at most 1024 jobs.
 *
 * Every bad option of a file is named at once, one "PATH:LINE: ..." line
 * each, in one message; a long value is quoted by its first bytes.
 */
#ifndef IOCHAR_CLI_JOBFILE_H
#define IOCHAR_CLI_JOBFILE_H

#include "base/job.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/err.h"

/* What a job file is read with; NULL = nothing of it. */
struct jobfile_opts {
	/* What the file's jobs start from before its [global]: the command
	 * line's global options, as fio gives them (NULL: the rows'
	 * defaults). Borrowed. */
	const struct job_spec *base;
	/* --section: read only these job sections (and every global one);
	 * nr_sections 0 = all. Borrowed. */
	const char *const *sections;
	unsigned nr_sections;
	/* --showcmd: the file as fio's command line is written here, as
	 * fio writes it ("fio --global_opt=v --name=job --opt=v \n", fio's
	 * option names, values after substitution). NULL: not written. */
	FILE *showcmd;
};

/* Is [name] read under o (--section)? Global sections always are. */
bool jobfile_section_wanted(const struct jobfile_opts *o, const char *name);

/* jobfile_parse with opts; with --section a file may yield no job (0,
 * *nr_jobs 0, *jobs NULL). */
int jobfile_parse_opts(const char *path, const struct jobfile_opts *opts,
		       struct job_spec **jobs, unsigned *nr_jobs,
		       struct ioc_err *err);

/* Parse the job file at path. On success returns 0 and *jobs holds
 * *nr_jobs (>= 1) specs, owned by the caller: release them with
 * jobfile_free_jobs. On failure returns -errno, *jobs and *nr_jobs are
 * untouched and err holds one line per bad line, as a usage error:
 * "PATH:LINE: ..." for a bad line (unknown option, bad value, option outside a section,
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
