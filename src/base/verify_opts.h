/* verify_opts.h - the hooks of the verify rows in base/job_rows.c:
 * verify= (iochar's own format, or one of fio's methods by name),
 * and verify_pattern in fio's forms. Row hooks (base/option.h's parse/show/emit contracts); they
 * read and write the row's field of a struct job_spec. */
#ifndef IOCHAR_BASE_VERIFY_OPTS_H
#define IOCHAR_BASE_VERIFY_OPTS_H

#include <stdio.h>

#include "base/json_writer.h"
#include "base/option.h"
#include "util/err.h"

int verify_opts_parse(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err);
int verify_opts_show(const void *obj, const struct option_def *o, FILE *f);
void verify_opts_emit(const void *obj, const struct option_def *o,
		      struct jw *w);

int verify_opts_parse_pattern(void *obj, const struct option_def *o,
			      const char *v, struct ioc_err *err);
int verify_opts_show_pattern(const void *obj, const struct option_def *o,
			     FILE *f);
void verify_opts_emit_pattern(const void *obj, const struct option_def *o,
			      struct jw *w);

#endif
