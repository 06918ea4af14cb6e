/* core_opts.c - the hooks of the job's own custom rows (core_opts.h). */
#define _GNU_SOURCE /* CPU_ISSET, CPU_SETSIZE */
#include "base/core_opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/job.h"
#include "base/units.h"

int core_opts_parse_filename(void *obj, const struct option_def *o,
			     const char *v, struct ioc_err *err)
{
	int ret;

	if (v[strspn(v, ":")] == '\0')
		return err_usage(err, EINVAL,
				 "%s=%s: no path; accepted: a path, or paths "
				 "separated by ':'",
				 o->name, v);
	ret = job_spec_set_files(obj, v);
	if (ret == -E2BIG)
		return err_usage(err, E2BIG, "%s=%s: more than %d files",
				 o->name, v, JOB_MAX_FILES);
	if (ret)
		return err_set(err, ret, "%s=%s: %s", o->name, v,
			       strerror(-ret));
	return 0;
}

int core_opts_show_filename(const void *obj, const struct option_def *o,
			    FILE *f)
{
	(void)o;
	return options_show_str(f, ((const struct job_spec *)obj)->filename,
				SIZE_MAX);
}

/* A char array field, as OPT_STRING shows it (vd, ioengine). */
int core_opts_show_chars(const void *obj, const struct option_def *o, FILE *f)
{
	return options_show_str(f, (const char *)obj + o->off, o->size);
}

/* "filename" as given (null: none), then "files", the list it names. */
void core_opts_emit_filename(const void *obj, const struct option_def *o,
			     struct jw *w)
{
	const struct job_spec *j = obj;

	(void)o;
	jw_kv_string(w, "filename", j->filename);
	jw_key(w, "files");
	jw_array_begin(w);
	for (unsigned i = 0; i < j->nr_files && i < JOB_MAX_FILES; i++)
		jw_string(w, j->files[i]);
	jw_array_end(w);
}

/* A char array field (vd, ioengine): here only its length. What the value
 * must name (a VD definition, an engine) is checked by cli/ before it is
 * parsed (cli/options_checks.c): that knowledge sits above base/. */
int core_opts_parse_chars(void *obj, const struct option_def *o, const char *v,
			  struct ioc_err *err)
{
	size_t len = strlen(v);

	if (len >= o->size)
		return err_usage(err, E2BIG, "%s: longer than %zu characters",
				 o->name, o->size - 1);
	memcpy((char *)obj + o->off, v, len + 1);
	return 0;
}

/* "0-3,8" (null when not set: all of them). */
void core_opts_emit_cpus(const void *obj, const struct option_def *o,
			 struct jw *w)
{
	const struct job_spec *spec = obj;
	char buf[4096];

	if (spec->cpus_set)
		units_format_cpus(buf, sizeof(buf), &spec->cpus_allowed);
	jw_kv_string(w, o->name, spec->cpus_set ? buf : NULL);
}

/* The CPUs, one number each ("" when not set: all of them). */
int core_opts_show_cpus(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *spec = obj;

	(void)o;
	for (int cpu = 0; spec->cpus_set && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &spec->cpus_allowed) &&
		    fprintf(f, "%d,", cpu) < 0)
			return -EIO;
	return 0;
}

int core_opts_parse_cpus(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err)
{
	struct job_spec *spec = obj;
	cpu_set_t set;
	int ret;

	ret = units_parse_cpus(o->name, v, &set, err);
	if (ret)
		return ret;
	spec->cpus_allowed = set;
	spec->cpus_set = true;
	return 0;
}

/* groups (issue 14): startdelay=T or fio's range form startdelay=LO-HI */
int core_opts_parse_startdelay(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err)
{
	struct job_spec *spec = obj;
	char lo_text[64];
	const char *dash = strchr(v, '-');
	uint64_t lo, hi;
	int ret;

	if (!dash)
		ret = units_parse_time(o->name, v, &lo, err);
	else if ((size_t)(dash - v) >= sizeof(lo_text) || dash == v)
		return err_usage(err, EINVAL,
				 "%s=%s: not a time or a range LO-HI of times, "
				 "e.g. 2 or 1s-5s",
				 o->name, v);
	else {
		memcpy(lo_text, v, (size_t)(dash - v));
		lo_text[dash - v] = '\0';
		ret = units_parse_time(o->name, lo_text, &lo, err);
	}
	if (ret)
		return ret;
	hi = lo;
	if (dash && (ret = units_parse_time(o->name, dash + 1, &hi, err)))
		return ret;
	if (hi < lo)
		return err_usage(err, ERANGE,
				 "%s=%s: the range ends before it "
				 "starts",
				 o->name, v);
	spec->startdelay_ns = lo;
	spec->startdelay_max_ns = hi;
	return 0;
}

int core_opts_show_startdelay(const void *obj, const struct option_def *o,
			      FILE *f)
{
	const struct job_spec *spec = obj;

	(void)o;
	return fprintf(f, "%llu-%llu", (unsigned long long)spec->startdelay_ns,
		       (unsigned long long)spec->startdelay_max_ns) < 0
		   ? -EIO
		   : 0;
}

void core_opts_emit_startdelay(const void *obj, const struct option_def *o,
			       struct jw *w)
{
	const struct job_spec *spec = obj;

	(void)o;
	jw_kv_uint(w, "startdelay_ns", spec->startdelay_ns);
	if (spec->startdelay_max_ns > spec->startdelay_ns)
		jw_kv_uint(w, "startdelay_max_ns", spec->startdelay_max_ns);
}
