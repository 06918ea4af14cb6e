/* run_config.h - the command line of `iochar run`, parsed into jobs.
 *
 *     iochar run [--key=value | --key value | --bool_key]... [JOBFILE]
 *
 * Job options on the command line apply to every job: without a job file
 * they make one job ("job0", or --name); with one they override the file's
 * values in every job. --output-format and --output are command-line only.
 * When no job names a file and the engine moves data, the jobs run on a
 * scratch file with scratch defaults for what the user left unset.
 */
#ifndef IOCHAR_CLI_RUN_CONFIG_H
#define IOCHAR_CLI_RUN_CONFIG_H

#include <stdbool.h>

#include "core/job.h"
#include "output/output.h"
#include "util/err.h"

/* Where scratch mode puts its file, relative to the working directory. */
#define RUN_SCRATCH_FILE "iochar-data/scratch.dat"

/* run_config_parse's return value when the user asked for help. */
#define RUN_CONFIG_HELP 1

struct run_config {
	struct job_spec *jobs; /* nr_jobs specs; owned */
	unsigned nr_jobs;
	enum output_format format;
	char *output; /* --output file, or NULL for stdout; owned */
	uint64_t progress_interval_ns; /* no terminal: progress line this often */
	bool scratch; /* jobs run on RUN_SCRATCH_FILE, which the
		       * runner creates (parent directory too) */
};

/* Parse argv (argv[0] is "run") into cfg, which the caller owns and must
 * release with run_config_free on success. Returns 0; RUN_CONFIG_HELP for
 * --help or -h (cfg is then empty: print options_print_help, exit 0); or
 * -errno with one line in err (err->usage set for bad input) and cfg empty.
 * argv may be discarded afterwards: cfg holds copies. */
int run_config_parse(int argc, char **argv, struct run_config *cfg,
		     struct ioc_err *err);

/* Release what cfg owns and empty it; cfg may be NULL. */
void run_config_free(struct run_config *cfg);

#endif
