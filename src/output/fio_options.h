/* fio_options.h - fio's JSON lists of the options given: "global
 * options" (the document's) and each job's "job options", as fio writes
 * them (fio's names, the values as given, fio's order). Private to
 * src/output/. */
#ifndef IOCHAR_OUTPUT_FIO_OPTIONS_H
#define IOCHAR_OUTPUT_FIO_OPTIONS_H

#include "base/json_writer.h"
#include "stats/result.h"

/* "global options" of r as a member of w's current object: the global
 * options its last job started from (a job file's [global] sections,
 * the command line's before the first --name); nothing when none. */
void fio_global_options_json(struct jw *w, const struct run_result *r);

/* "job options" of j as a member of w's current object: its own
 * options as given; nothing when it was given none (fio leaves the
 * member out). A job not made from fio-style input (iochar's scratch
 * run, a plan's step) lists its name and the options set on it or away
 * from their defaults, from its option rows. */
void fio_job_options_json(struct jw *w, const struct job_spec *j);

#endif
