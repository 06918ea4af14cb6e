/* explain.h - a prediction said in words, the way the disk paper states
 * its findings: what binds, at what throughput, from how many drives on,
 * and what the drives past that point add. */
#ifndef IOCHAR_MODEL_EXPLAIN_H
#define IOCHAR_MODEL_EXPLAIN_H

#include <stddef.h>

#include "model/model.h"

/* Into buf (always NUL-terminated), e.g. "bound by the controller: 3.0 M
 * IOPS at 100 % from 15 drives on; drives 16-24 add capacity only" or
 * "bound by the drives (100 %): 1.78 M IOPS; it would saturate at 41
 * drives". Returns buf. */
char *mdl_explain(const struct mdl_config *c, const struct mdl_workload *w,
		  const struct mdl_answer *a, char *buf, size_t len);

/* A rate with an SI prefix: "3.0 M", "480 k", "14000". */
char *mdl_fmt_rate(char *buf, size_t len, double v);

#endif
