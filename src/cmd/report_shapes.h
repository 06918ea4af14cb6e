/* report_shapes.h - the workload shapes of a built-in plan (block sizes
 * and read share of each workload of its first step), for the report's
 * table of a synthetic plan against an application run's trace. */
#ifndef IOCHAR_CMD_REPORT_SHAPES_H
#define IOCHAR_CMD_REPORT_SHAPES_H

#include "report/report_app.h"

/* The plan the report holds against traces. */
#define REPORT_SHAPES_PLAN "oltp"

/* Up to max shapes of built-in plan name into out; the number made, 0
 * when the plan is unknown or does not parse. */
unsigned report_shapes_of_builtin(const char *name, struct report_shape *out, unsigned max);

#endif
