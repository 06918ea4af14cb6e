/* jobfile.c - fio's INI-style job files into job specs. See jobfile.h. */
#include "cli/jobfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ini.h"
#include "cli/options.h"

/* Sections a job file may hold: a stated limit, so a huge file is one
 * error at its line instead of thousands of threads and files later. */
#define JOBFILE_MAX_JOBS 1024

enum section {
	SECTION_NONE, /* before the first [header] */
	SECTION_GLOBAL,
	SECTION_JOB,
};

struct jobfile {
	struct job_spec global; /* what the next [job] starts from */
	struct job_spec *jobs;
	unsigned nr_jobs, cap;
	enum section section;
};

void jobfile_free_jobs(struct job_spec *jobs, unsigned nr_jobs)
{
	if (!jobs)
		return;
	for (unsigned i = 0; i < nr_jobs; i++)
		job_spec_free(&jobs[i]);
	free(jobs);
}

static int add_job(struct jobfile *jf, const char *name, struct ioc_err *err)
{
	struct job_spec *job;
	int ret;

	if (jf->nr_jobs == JOBFILE_MAX_JOBS)
		return err_usage(err, E2BIG,
				 "more than %d jobs; iochar runs at most %d "
				 "from one job file",
				 JOBFILE_MAX_JOBS, JOBFILE_MAX_JOBS);
	if (jf->nr_jobs == jf->cap) {
		unsigned cap = jf->cap ? 2 * jf->cap : 4;
		struct job_spec *grown =
		    realloc(jf->jobs, cap * sizeof(*grown));

		if (!grown)
			return err_set(err, ENOMEM, "out of memory");
		jf->jobs = grown;
		jf->cap = cap;
	}
	job = &jf->jobs[jf->nr_jobs];
	ret = job_spec_copy(job, &jf->global);
	if (ret)
		return err_set(err, ret, "out of memory");
	jf->nr_jobs++;
	return options_apply(job, "name", name, err);
}

/* A "[name]" header: "global" or a new job. */
static int on_section(void *arg, const char *name, unsigned line,
		      struct ioc_err *err)
{
	struct jobfile *jf = arg;

	(void)line;
	if (strcmp(name, "global") == 0) {
		jf->section = SECTION_GLOBAL;
		return 0;
	}
	jf->section = SECTION_JOB;
	return add_job(jf, name, err);
}

/* A "key=value" or bare "key" line, for the current section. */
static int on_key(void *arg, const char *key, const char *value, unsigned line,
		  struct ioc_err *err)
{
	struct jobfile *jf = arg;
	struct job_spec *spec;

	(void)line;
	if (jf->section == SECTION_NONE)
		return err_usage(err, EINVAL,
				 "option '%s' outside a section (start one "
				 "with [global] or [jobname])",
				 key);
	spec = jf->section == SECTION_GLOBAL ? &jf->global
					     : &jf->jobs[jf->nr_jobs - 1];
	return options_apply(spec, key, value, err);
}

static const struct ini_ops jobfile_ini = {
    .section = on_section,
    .key = on_key,
};

int jobfile_parse_text_n(const char *text, size_t len, const char *origin,
			 struct job_spec **jobs, unsigned *nr_jobs,
			 struct ioc_err *err)
{
	struct jobfile jf = {.section = SECTION_NONE};
	int ret;

	job_spec_init(&jf.global);
	options_set_defaults(&jf.global);
	ret = ini_parse_n(text, len, origin, &jobfile_ini, &jf, err);
	if (ret == 0 && jf.nr_jobs == 0)
		ret = err_usage(err, EINVAL,
				"%s: no jobs (a job is a [name] section with "
				"its options)",
				origin);
	if (ret == 0) {
		*jobs = jf.jobs;
		*nr_jobs = jf.nr_jobs;
		jf.jobs = NULL;
		jf.nr_jobs = 0;
	}
	jobfile_free_jobs(jf.jobs, jf.nr_jobs);
	job_spec_free(&jf.global);
	return ret;
}

int jobfile_parse_text(const char *text, const char *origin,
		       struct job_spec **jobs, unsigned *nr_jobs,
		       struct ioc_err *err)
{
	return jobfile_parse_text_n(text, strlen(text), origin, jobs, nr_jobs,
				    err);
}

int jobfile_parse(const char *path, struct job_spec **jobs, unsigned *nr_jobs,
		  struct ioc_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	ret = ini_read_file_n(path, &text, &len);
	if (ret)
		return err_usage(err, -ret, "%s: cannot read job file: %s",
				 path, strerror(-ret));
	ret = jobfile_parse_text_n(text, len, path, jobs, nr_jobs, err);
	free(text);
	return ret;
}
