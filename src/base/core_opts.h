/* core_opts.h - the hooks of the job's own custom rows in base/job_rows.c
 * (filename lists, char-array fields such as vd and ioengine,
 * cpus_allowed, startdelay's LO-HI form): base/option.h's parse, show and
 * emit contracts over the row's field of a struct job_spec. The hooks of
 * other areas' rows are in pace_opts.h, job_gen.h, file_opts.h,
 * verify_opts.h, lat_opts.h and ss_opts.h. */
#ifndef IOCHAR_BASE_CORE_OPTS_H
#define IOCHAR_BASE_CORE_OPTS_H

#include <stdio.h>

#include "base/json_writer.h"
#include "base/option.h"
#include "util/err.h"

int core_opts_parse_filename(void *obj, const struct option_def *o,
			     const char *v, struct ioc_err *err);
int core_opts_show_filename(const void *obj, const struct option_def *o,
			    FILE *f);
int core_opts_show_chars(const void *obj, const struct option_def *o, FILE *f);
void core_opts_emit_filename(const void *obj, const struct option_def *o,
			     struct jw *w);
int core_opts_parse_chars(void *obj, const struct option_def *o, const char *v,
			  struct ioc_err *err);
void core_opts_emit_cpus(const void *obj, const struct option_def *o,
			 struct jw *w);
int core_opts_show_cpus(const void *obj, const struct option_def *o, FILE *f);
int core_opts_parse_cpus(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err);
int core_opts_parse_startdelay(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err);
int core_opts_show_startdelay(const void *obj, const struct option_def *o,
			      FILE *f);
void core_opts_emit_startdelay(const void *obj, const struct option_def *o,
			       struct jw *w);

#endif
