/* lat_opts.h - latency_percentile's value: a percentage with a fraction
 * (fio's 99.9), stored as a double in (0, 100]. */
#ifndef IOCHAR_BASE_LAT_OPTS_H
#define IOCHAR_BASE_LAT_OPTS_H

#include <stdio.h>

#include "base/option.h"

struct jw;

int lat_opts_parse_pct(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err);
int lat_opts_show_pct(const void *obj, const struct option_def *o, FILE *f);
void lat_opts_emit_pct(const void *obj, const struct option_def *o, struct jw *w);

/* percentile_list: up to JOB_MAX_PLIST percentages in [0, 100] separated
 * by ':' (fio's 99.5:99.9), kept ascending (fio sorts them) in the job's
 * plist/nr_plist (the row's field is nr_plist). */
int lat_opts_parse_plist(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err);
int lat_opts_show_plist(const void *obj, const struct option_def *o, FILE *f);
void lat_opts_emit_plist(const void *obj, const struct option_def *o, struct jw *w);

#endif
