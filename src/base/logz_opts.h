/* logz_opts.h - fio's log_compression: the size of the chunks fio's logs
 * are compressed in, 1 KiB to 512 MiB as fio takes it; unset (0) when not
 * given. log_store_compressed then keeps them compressed (FILE.fz). */
#ifndef IOCHAR_BASE_LOGZ_OPTS_H
#define IOCHAR_BASE_LOGZ_OPTS_H

#include <stdio.h>

#include "base/option.h"

#define LOGZ_MIN 1024ull
#define LOGZ_MAX (512ull << 20)

struct jw;

int logz_opts_parse(void *obj, const struct option_def *o, const char *v, struct ioc_err *err);
int logz_opts_show(const void *obj, const struct option_def *o, FILE *f);
void logz_opts_emit(const void *obj, const struct option_def *o, struct jw *w);
int logz_opts_check(const void *obj, const struct option_def *o, struct ioc_err *err);

struct job_spec;

/* Between options: log_store_compressed is refused with write_hist_log
 * (iochar writes the histogram log as text only). 0 or -EINVAL. */
int logz_opts_check_job(const struct job_spec *j, struct ioc_err *err);

#endif
