/* app_text.h - an application run (app_model.h) as a text table: the
 * benchmark's TPS, QPS and latency per thread count beside the device's
 * IOPS, MB/s and await over the same seconds. */
#ifndef IOCHAR_REPORT_APP_TEXT_H
#define IOCHAR_REPORT_APP_TEXT_H

#include <stdio.h>

struct rs_app;

/* The run named name as text to f. 0 or -EIO. */
int report_app_write_text(const char *name, const struct rs_app *a, FILE *f);

#endif
