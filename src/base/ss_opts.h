/* ss_opts.h - fio's steadystate= (alias ss) value: a criterion and its
 * limit, "iops:10%", "bw_slope:1%", "iops_slope:0.5", "bw:10m" (a bare
 * bw limit is bytes/s, an iops one I/Os/s, as fio's str_steadystate_cb).
 * The row's field is job_spec.ss (struct job_ss). */
#ifndef IOCHAR_BASE_SS_OPTS_H
#define IOCHAR_BASE_SS_OPTS_H

#include <stdio.h>

#include "base/job.h"
#include "base/option.h"

struct jw;

int ss_opts_parse(void *obj, const struct option_def *o, const char *v,
		  struct ioc_err *err);

/* --debug=parse: the criterion o holds in obj, as fio's
 * str_steadystate_cb traces it once the option is given. */
void ss_opts_trace(const void *obj, const struct option_def *o);
int ss_opts_show(const void *obj, const struct option_def *o, FILE *f);
/* JSON: "steadystate": "iops:10.000000%" (fio's spelling of the limit). */
void ss_opts_emit(const void *obj, const struct option_def *o, struct jw *w);

/* The criterion's name as fio writes it: iops, iops_slope, bw, bw_slope. */
const char *ss_opts_kind_name(enum ss_kind k);

#endif
