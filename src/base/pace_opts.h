/* pace_opts.h - the parse/show/emit/check functions of the job's pacing
 * and log rows (rate=R,W, rate_iops=R,W, thinktime in fio's units,
 * write_*_log), kept apart from job_rows.c so that table stays a table.
 * Only base/ and util/; the rows themselves are in job_rows.c.
 */
#ifndef IOCHAR_BASE_PACE_OPTS_H
#define IOCHAR_BASE_PACE_OPTS_H

#include "base/job.h"
#include "base/option.h"

struct jw;

/* A per-direction pair as fio writes it: "R,W", ",W" (read unlimited),
 * "R," or one value for both. The row's field is uint64_t[DIR_COUNT];
 * pace_parse_pair_size reads sizes (k/m suffixes), _uint whole numbers. */
int pace_parse_pair_size(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err);
int pace_parse_pair_uint(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err);
int pace_show_pair(const void *obj, const struct option_def *o, FILE *f);
/* JSON: "NAME": [R, W]. */
void pace_emit_pair(const void *obj, const struct option_def *o, struct jw *w);

/* rate_iops: one number is iochar's limit of the job's I/Os per worker
 * (both directions together, job_spec.rate_iops, as its curves need);
 * "R,W" is fio's per-direction limit (job_spec.rate_iops_rw). */
int pace_parse_rate_iops(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err);
int pace_show_rate_iops(const void *obj, const struct option_def *o, FILE *f);
void pace_emit_rate_iops(const void *obj, const struct option_def *o,
			 struct jw *w);
/* Values stored without parsing: each at most the row's max. */
int pace_check_rate_iops(const void *obj, const struct option_def *o,
			 struct ioc_err *err);

/* A time whose bare number is in fio's unit for the option: microseconds
 * (thinktime*, pace_parse_usec) or milliseconds (rate_cycle,
 * log_avg_msec: pace_parse_msec); with a suffix, any unit. The field is
 * uint64_t nanoseconds. */
int pace_parse_usec(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err);
int pace_parse_msec(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err);
int pace_show_ns(const void *obj, const struct option_def *o, FILE *f);
void pace_emit_ns(const void *obj, const struct option_def *o, struct jw *w);

/* Is any of job j's I/O rate-limited (open loop: latency counts from
 * each I/O's due time): iochar's rate_iops over both directions, or
 * fio's rate / rate_iops per direction? */
static inline bool pace_job_paced(const struct job_spec *j)
{
	return j->rate_iops || j->rate_bps[0] || j->rate_bps[1] ||
	       j->rate_iops_rw[0] || j->rate_iops_rw[1];
}

/* Everything that keeps job from running flat out: rate, rate_iops,
 * their minimums, thinktime and its spin, iotime and blocks, cleared
 * (closed loop: a preconditioning's fill and rounds). One list beside
 * pace_opts_first_set's, so a pacing option added later is both cleared
 * and refused. */
void pace_opts_clear(struct job_spec *job);

/* The first of those j sets ("rate", "rate_iops", "rate_min",
 * "rate_iops_min", "thinktime"), or NULL: named in the error of a step
 * that must run closed loop (a precondition step, plan_validate). */
const char *pace_opts_first_set(const struct job_spec *j);

/* The checks between the pacing options of one job (job_options.c):
 * rate and rate_iops exclude each other, as rate_min and rate_iops_min,
 * a limit below its minimum. 0 or -EINVAL with a usage message. */
int pace_opts_check(const struct job_spec *job, struct ioc_err *err);

#endif
