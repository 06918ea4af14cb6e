/* file_opts.h - the custom rows of a job's file options (issue 14):
 * filesize, file_service_type and the fio file options iochar refuses
 * with a reason. The rows themselves are in base/job_rows.c; these are
 * their parse/show/emit hooks, kept here so that file holds only rows. */
#ifndef IOCHAR_BASE_FILE_OPTS_H
#define IOCHAR_BASE_FILE_OPTS_H

#include <stdio.h>

#include "base/option.h"

struct jw;

/* filesize=SIZE, or fio's range LOW-HIGH (each file's size drawn in it,
 * core/file_sizes.h; HIGH below LOW refused). 0 or -errno. */
int file_opts_parse_filesize(void *obj, const struct option_def *o,
			     const char *v, struct ioc_err *err);
int file_opts_show_filesize(const void *obj, const struct option_def *o,
			    FILE *f);
void file_opts_emit_filesize(const void *obj, const struct option_def *o,
			     struct jw *w);

/* file_service_type=roundrobin|sequential|random[:N] as fio spells them,
 * and fio's nonuniform zipf|pareto|normal|gauss[:VAL[:CENTER]] with
 * fio's defaults (1.1, 0.2, 0) and ranges. */
int file_opts_parse_service(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err);
int file_opts_show_service(const void *obj, const struct option_def *o,
			   FILE *f);
void file_opts_emit_service(const void *obj, const struct option_def *o,
			    struct jw *w);

/* opendir=DIR: the files under DIR join the job's (file_names.h). The
 * row stores nothing else: the files are the filename row's. */
int file_opts_parse_opendir(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err);

/* A fio option iochar does not do (yet): its off value ("0", "none", or
 * for opendir nothing at all) is accepted, anything else is refused with
 * one line saying why. The rows store nothing; show writes the off value. */
int file_opts_parse_refused(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err);
int file_opts_show_refused(const void *obj, const struct option_def *o,
			   FILE *f);

#endif
