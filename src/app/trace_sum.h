/* trace_sum.h - what a captured trace holds, as a replay sees it (its
 * queue events, read by base/blktrace.c): I/Os, bytes, read share and
 * the most frequent sizes. */
#ifndef IOCHAR_APP_TRACE_SUM_H
#define IOCHAR_APP_TRACE_SUM_H

#include "app/point.h"
#include "util/err.h"

/* Summarize the binary trace at path into s; 0 or -errno. An empty file
 * (no I/O traced) is an empty summary. */
int app_trace_summary(const char *path, struct app_trace_sum *s, struct ioc_err *err);

#endif
