/* job_options.h - the job's option rows as the ground floor sees them:
 * what lies below cli/ (the JSON emitter, validation, the report) works
 * from the same rows as the command line and job files.
 *
 * The rows are defined here, in the ground floor (job_rows.c), with only
 * base/ and util/: ioengine and vd are stored as plain strings, and what
 * they must name (an engine, a VD definition) is checked by cli/ before
 * it parses them (options_check_value) and again when the job runs. The
 * command line's own rows (struct run_config) are cli/'s, walked with
 * these by options_row.
 */
#ifndef IOCHAR_BASE_JOB_OPTIONS_H
#define IOCHAR_BASE_JOB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/job.h"
#include "base/option.h"

struct jw;

/* The job's rows (all of scope OPT_SCOPE_JOB: they describe struct
 * job_spec), in --help order; *nr gets their number; a row's place is its
 * set_mask bit. Static data. */
const struct option_def *job_option_rows(size_t *nr);

/* Was job row i (its place among job_option_rows: its set_mask bit) set
 * explicitly on j, by a job file, the command line or a plan? */
bool job_row_was_set(const struct job_spec *j, size_t i);

/* Record that job row i was set explicitly on j. */
void job_row_mark_set(struct job_spec *j, size_t i);

/* Was the job row named name (or one of its aliases) set explicitly on
 * j? false for a name no job row has. */
bool job_option_was_set(const struct job_spec *j, const char *name);

/* Write every job row's default into spec (job_spec_init first): a
 * default job (options_set_defaults, for those who may include cli/). */
void job_options_set_defaults(struct job_spec *spec);

/* Does row o store a value of its own in a job (a job row that is not an
 * ignored fio option, nor another row's field seen inverted)? */
bool job_option_stored(const struct option_def *o);

enum job_check_when {
	JOB_CHECK_PARSE, /* a job just parsed: the checks between options it
			  * must pass already (a time_based job may still
			  * get its runtime from a plan) */
	JOB_CHECK_RUN,	 /* a job about to run: every check */
};

/* Check job: at JOB_CHECK_RUN every value it holds as parsing would have
 * (ranges, a custom row's check: jobs are also made and changed without
 * parsing), then the checks between options (job_options.c) that when
 * asks for. 0, or -errno with a one-line usage message naming the job and
 * the option. */
int job_options_check(const struct job_spec *job, enum job_check_when when,
		      struct ioc_err *err);

/* Write the members of job's JSON "options" object (docs/output.md), from
 * the rows: in the order older files have them, then any later rows. */
void job_options_emit_json(struct jw *w, const struct job_spec *job);

/* fio's I/O priority value of job j (ioprio_value: prioclass << 13 |
 * prio, class 0 taken as best-effort), or 0 when j sets neither prio nor
 * prioclass (its workers then keep theirs; fio's logs show 0). */
unsigned job_ioprio(const struct job_spec *j);

#endif
