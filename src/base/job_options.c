/* job_options.c - what the job's rows drive below cli/: the checks of a
 * job's values and its JSON members. See job_options.h. */
#include "base/job_options.h"
#include "base/logz_opts.h"
#include "base/iolog.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buffer_opts.h"
#include "base/json_writer.h"
#include "base/pace_opts.h"
#include "base/units.h"

bool job_option_stored(const struct option_def *o)
{
	return o->scope == OPT_SCOPE_JOB && o->type != OPT_IGNORED &&
	       (!(o->flags & OPT_F_INVERT) || (o->flags & OPT_F_OWN_FIELD));
}

void job_options_set_defaults(struct job_spec *spec)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);

	option_set_defaults(rows, nr, OPT_SCOPE_JOB, spec);
}

static int check_time_based(const struct job_spec *job, struct ioc_err *err)
{
	if (job->time_based && job->runtime_ns == 0)
		return err_usage(err, EINVAL,
				 "job %s: time_based needs runtime= (e.g. "
				 "runtime=30s)",
				 job->name);
	return 0;
}

static int check_size_bs(const struct job_spec *job, struct ioc_err *err)
{
	char a[32], b[32];

	if (job->size && job->size < job->bs)
		return err_usage(err, EINVAL,
				 "job '%s': size=%s is smaller than bs=%s",
				 job->name, units_format_size(a, 32, job->size),
				 units_format_size(b, 32, job->bs));
	/* ramp_time comes before runtime, as in fio: no ordering to check */
	return 0;
}

/* The furthest byte a job's region may reach: a file offset is an off_t.
 * offset=2^64-32k with size=64k wrapped to 0 and wrote at 8k-24k. */
#define JOB_REGION_END_MAX ((uint64_t)INT64_MAX)

/* offset + the last clone's offset_increment + size (or filesize) must
 * end inside JOB_REGION_END_MAX; without either, the target's size
 * bounds the region and the layout checks it. */
static int check_region_end(const struct job_spec *job, struct ioc_err *err)
{
	uint64_t span = 0, len, end;
	bool wraps;

	wraps = __builtin_mul_overflow(job->offset_increment,
				       (uint64_t)(job->numjobs ? job->numjobs - 1 : 0),
				       &span);
	if (job->filesize) /* the region is filesize - offset */
		wraps |= __builtin_add_overflow(
		    job->filesize_high > job->filesize ? job->filesize_high
						       : job->filesize,
		    span, &end);
	else
		wraps |= __builtin_add_overflow(job->offset, span, &end) ||
			 __builtin_add_overflow(end, job->size, &len) ||
			 ((end = len), false);
	if (!wraps && end <= JOB_REGION_END_MAX)
		return 0;
	char inc[64] = "";

	if (job->offset_increment)
		snprintf(inc, sizeof(inc), " + offset_increment=%llu x %u",
			 (unsigned long long)job->offset_increment,
			 job->numjobs - 1);
	return err_usage(err, EINVAL,
			 "job '%s': offset=%llu%s + %s=%llu ends past %llu "
			 "bytes (2^63-1), the most a file or device may hold",
			 job->name, (unsigned long long)job->offset, inc,
			 job->filesize ? "filesize" : "size",
			 (unsigned long long)(job->filesize ? job->filesize
							    : job->size),
			 (unsigned long long)JOB_REGION_END_MAX);
}

/* zonemode and zonesize go together, as fio 3.33 checks them */
static int check_zones(const struct job_spec *job, struct ioc_err *err)
{
	if (job->zonemode == ZONE_MODE_NONE && job->zonesize)
		return err_usage(err, EINVAL,
				 "job %s: zonesize= needs zonemode=strided (fio: "
				 "zonemode=none and zonesize are not compatible)",
				 job->name);
	if (job->zonemode == ZONE_MODE_STRIDED && !job->zonesize)
		return err_usage(err, EINVAL,
				 "job %s: zonemode=strided needs zonesize=",
				 job->name);
	return 0;
}

/* The checks between options of one job, after each row's own; parse:
 * one a parsed command line must pass already. */
static const struct {
	int (*fn)(const struct job_spec *, struct ioc_err *);
	bool parse;
} job_checks[] = {
	{check_size_bs, true},
	{check_region_end, true},
	{check_time_based, false},
	{pace_opts_check, true},
	{check_zones, true},
	{buffer_opts_check, true},
	{iolog_opts_check, true},
	{logz_opts_check_job, true},
};

int job_options_check(const struct job_spec *job, enum job_check_when when,
		      struct ioc_err *err)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);
	int ret = 0;

	/* parsed values were range-checked as they were parsed */
	for (size_t i = 0; i < nr && !ret && when == JOB_CHECK_RUN; i++)
		if (job_option_stored(&rows[i]) &&
		    (ret = option_check(&rows[i], job, err)))
			err_prefix(err, "job %s", job->name);
	for (size_t i = 0; !ret && i < sizeof(job_checks) / sizeof(job_checks[0]);
	     i++)
		if (when == JOB_CHECK_RUN || job_checks[i].parse)
			ret = job_checks[i].fn(job, err);
	return ret;
}

/* The row whose json_seq is seq, or NULL. */
static const struct option_def *row_at(const struct option_def *rows,
				       size_t nr, unsigned seq)
{
	for (size_t i = 0; i < nr; i++)
		if (rows[i].json_seq == seq && job_option_stored(&rows[i]))
			return &rows[i];
	return NULL;
}

void job_options_emit_json(struct jw *w, const struct job_spec *job)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);
	const struct option_def *o;

	for (unsigned seq = 1; (o = row_at(rows, nr, seq)); seq++)
		option_emit_json(o, job, w);
	for (size_t i = 0; i < nr; i++)
		if (rows[i].json_seq == 0 && job_option_stored(&rows[i]))
			option_emit_json(&rows[i], job, w);
}

bool job_row_was_set(const struct job_spec *j, size_t i)
{
	return (j->set_mask[i / 64] >> (i % 64)) & 1;
}

void job_row_mark_set(struct job_spec *j, size_t i)
{
	j->set_mask[i / 64] |= 1ull << (i % 64);
}

bool job_option_was_set(const struct job_spec *j, const char *name)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);

	for (size_t i = 0; i < nr; i++)
		if (option_matches(&rows[i], name))
			return job_row_was_set(j, i);
	return false;
}

unsigned job_ioprio(const struct job_spec *j)
{
	if (!job_option_was_set(j, "prio") && !job_option_was_set(j, "prioclass"))
		return 0;
	return (j->prioclass ? j->prioclass : 2u) << 13 | j->prio;
}
