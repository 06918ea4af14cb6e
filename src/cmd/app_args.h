/* app_args.h - `iochar app`'s arguments (cmd/app_args.c): parsed into the
 * run's description, checked for everything a user can get wrong before
 * anything is made. */
#ifndef IOCHAR_CMD_APP_ARGS_H
#define IOCHAR_CMD_APP_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "app/app.h"
#include "util/err.h"

struct app_args {
	const char *bench, *directory, *filename, *out, *workload, *threads, *fs;
	const char *format, *ratio, *lat_metric;
	uint64_t time_ns, lat_target_ns, table_size;
	unsigned tables, scale;
	bool force, progress, no_capture, json;
};

/* Parse argv into a and r. 0, ARGS_HELP (help printed), or a usage
 * error in err. */
int app_args_parse(int argc, char **argv, struct app_args *a, struct app_run *r,
		   struct ioc_err *err);

#endif
