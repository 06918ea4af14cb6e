/* report_app_int.h - the parts of the "Application runs" section shared
 * between its files. Internal to src/report. */
#ifndef IOCHAR_REPORT_REPORT_APP_INT_H
#define IOCHAR_REPORT_REPORT_APP_INT_H

#include <stdio.h>

#include "report/report_parts.h"

/* report_app.c: a number cell (a dash when not finite); a key-value row. */
void app_td_num(FILE *f, const char *fmt, double v);
void app_kv(FILE *f, const char *k, const char *v);

/* report_app_charts.c: TPS and p99 against threads beside the device's
 * IOPS and MB/s; the largest point's TPS and device IOPS per second. */
void app_sweep_charts(struct report_ctx *r, const struct rs_set *set);
void app_second_chart(struct report_ctx *r, const struct rs_set *set);

/* report_app_trace.c: replayed against original for the set's replays
 * (r->app_x), the synthetic plan's shapes against its traces. */
void app_trace_tables(struct report_ctx *r, const struct rs_set *set);

#endif
