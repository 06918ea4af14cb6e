/* jobfile.c - fio's INI-style job files into job specs. See jobfile.h. */
#include "cli/jobfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

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

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

/* Cut a comment: ';' or '#' starting the line, or after whitespace. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if ((*p == ';' || *p == '#') &&
		    (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

static int add_job(struct jobfile *jf, const char *name, struct ioc_err *err)
{
	struct job_spec *job;
	int ret;

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

/* A "[name]" line: "global" or a new job. */
static int start_section(struct jobfile *jf, char *line, struct ioc_err *err)
{
	size_t len = strlen(line);
	char *name;

	if (line[len - 1] != ']')
		return err_usage(err, EINVAL,
				 "unterminated section header '%s' (expected "
				 "'[name]')",
				 line);
	line[len - 1] = '\0';
	name = trim(line + 1);
	if (name[0] == '\0')
		return err_usage(err, EINVAL,
				 "empty section name '[]' (expected [global] "
				 "or [jobname])");
	if (strcmp(name, "global") == 0) {
		jf->section = SECTION_GLOBAL;
		return 0;
	}
	jf->section = SECTION_JOB;
	return add_job(jf, name, err);
}

/* A "key=value" or bare "key" line, for the current section. */
static int apply_line(struct jobfile *jf, char *line, struct ioc_err *err)
{
	char *eq = strchr(line, '=');
	char *key = line, *value = NULL;
	struct job_spec *spec;

	if (eq) {
		*eq = '\0';
		key = trim(line);
		value = trim(eq + 1);
	}
	if (key[0] == '\0')
		return err_usage(err, EINVAL, "missing option name before '='");
	if (jf->section == SECTION_NONE)
		return err_usage(err, EINVAL,
				 "option '%s' outside a section (start one "
				 "with [global] or [jobname])",
				 key);
	spec = jf->section == SECTION_GLOBAL ? &jf->global
					     : &jf->jobs[jf->nr_jobs - 1];
	return options_apply(spec, key, value, err);
}

static int parse_stream(struct jobfile *jf, FILE *f, const char *path,
			struct ioc_err *err)
{
	char *buf = NULL, *line;
	size_t cap = 0;
	unsigned lineno = 0;
	int ret = 0;

	while (getline(&buf, &cap, f) >= 0) {
		lineno++;
		line = trim(buf);
		strip_comment(line);
		line = trim(line);
		if (line[0] == '\0')
			continue;
		if (line[0] == '[')
			ret = start_section(jf, line, err);
		else
			ret = apply_line(jf, line, err);
		if (ret) {
			err_prefix(err, "%s:%u", path, lineno);
			goto out;
		}
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		ret = err_usage(err, e, "%s: cannot read job file: %s", path,
				strerror(e));
		goto out;
	}
	if (jf->nr_jobs == 0)
		ret = err_usage(err, EINVAL,
				"%s: no jobs (a job is a [name] section with "
				"its options)",
				path);
out:
	free(buf);
	return ret;
}

int jobfile_parse(const char *path, struct job_spec **jobs, unsigned *nr_jobs,
		  struct ioc_err *err)
{
	struct jobfile jf = {.section = SECTION_NONE};
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		return err_usage(err, -ret, "%s: cannot read job file: %s",
				 path, strerror(-ret));
	}
	job_spec_init(&jf.global);
	options_set_defaults(&jf.global);
	ret = parse_stream(&jf, f, path, err);
	if (ret == 0) {
		*jobs = jf.jobs;
		*nr_jobs = jf.nr_jobs;
		jf.jobs = NULL;
		jf.nr_jobs = 0;
	}
	jobfile_free_jobs(jf.jobs, jf.nr_jobs);
	job_spec_free(&jf.global);
	fclose(f);
	return ret;
}
