/* error_opts.h - fio's continue_on_error and ignore_error: which I/O
 * errors a job counts and passes over instead of stopping (fio's
 * td_error.c). An error's class is verify for EILSEQ, else its
 * direction's (read; write for writes and trims); continue_on_error
 * names the classes (none, read, write, io, verify, all; 0, 1), and
 * ignore_error=READ,WRITE,VERIFY lists each class's errors (names such
 * as EIO or numbers, ':'-separated; a class given a list is continued
 * too, as fio); a class without a list passes over EIO and EILSEQ. */
#ifndef IOCHAR_BASE_ERROR_OPTS_H
#define IOCHAR_BASE_ERROR_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "base/job.h"
#include "base/option.h"

struct jw;

int error_opts_parse_continue(void *obj, const struct option_def *o, const char *v,
			      struct ioc_err *err);
int error_opts_show_continue(const void *obj, const struct option_def *o, FILE *f);
void error_opts_emit_continue(const void *obj, const struct option_def *o, struct jw *w);

int error_opts_parse_ignore(void *obj, const struct option_def *o, const char *v,
			    struct ioc_err *err);
int error_opts_show_ignore(const void *obj, const struct option_def *o, FILE *f);
void error_opts_emit_ignore(const void *obj, const struct option_def *o, struct jw *w);

/* Does job j count and pass over error err (a positive errno) of an I/O
 * in direction d? */
bool error_opts_continues(const struct job_spec *j, enum io_dir d, int err);

#endif
