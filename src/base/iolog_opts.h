/* iolog_opts.h - the iolog options of a job (read_iolog, replay_*,
 * merge_blktrace_*): their rows' parse/show/emit hooks, the replay options
 * they make and the checks between them. base/iolog_opts.c. */
#ifndef IOCHAR_BASE_IOLOG_OPTS_H
#define IOCHAR_BASE_IOLOG_OPTS_H

#include <stdio.h>

#include "base/iolog_store.h"
#include "base/job.h"
#include "base/option.h"
#include "util/err.h"

struct jw;

/* replay_time_scale's row: parsed as fio's (1 and up), 0 in a job made
 * without parsing taken as the default, 100. */
int iolog_parse_time_scale(void *obj, const struct option_def *o, const char *v,
			   struct ioc_err *err);
int iolog_show_time_scale(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_time_scale(const void *obj, const struct option_def *o, struct jw *w);

/* replay_skip's row (fio's list "read,write,trim,sync" into the job's
 * mask; shown in that order; left out of the JSON when empty) and
 * merge_blktrace_scalars/_iters' (':'-separated, up to JOB_MAX_MERGE;
 * JSON arrays, left out when empty). base/iolog_opts.c. */
int iolog_parse_skip(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err);
int iolog_show_skip(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_skip(const void *obj, const struct option_def *o, struct jw *w);
int iolog_parse_merge_scalars(void *obj, const struct option_def *o, const char *v,
			      struct ioc_err *err);
int iolog_parse_merge_iters(void *obj, const struct option_def *o, const char *v,
			    struct ioc_err *err);
int iolog_show_merge_list(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_merge_list(const void *obj, const struct option_def *o, struct jw *w);

/* How many traces a merge's read_iolog list names (':'-separated). */
unsigned iolog_merge_count(const char *list);

/* The replay options of job (read_iolog's). */
struct iolog_replay_opts iolog_opts_of(const struct job_spec *job);

/* The checks between the iolog options of job: replay_align a power of
 * 2; write_iolog not a block device; read_iolog without verify (not
 * yet) or vd=; merge_blktrace_file with read_iolog's traces (at most
 * JOB_MAX_MERGE, none of them the output), a scalar and an iteration
 * count a trace when given. 0 or -EINVAL with a usage message. */
int iolog_opts_check(const struct job_spec *job, struct ioc_err *err);

#endif
