/* run_config.h - the command line of `iochar run`, parsed into jobs.
 *
 *     iochar run [--key=value | --key value | --bool_key]... [JOBFILE]
 *
 * As fio's command line: job options before the first --name are global;
 * each --name=X starts a job X from them, and the options after it are
 * X's. A job file's jobs follow the command line's, starting from the
 * global options (the file's [global] and sections override them: fio
 * reads its options before the file, wherever they stand). Without a job
 * file and --name the global options make one job, "job0".
 * --output-format, --output and the other command-line rows are the
 * command line's only.
 *
 * Defaults: `iochar run` with no job file, no --name and no target runs a
 * scratch file with scratch defaults (options_scratch_preset) for what
 * the user left unset; anything else gets fio's (psync, and the rows'
 * defaults: iodepth 1, buffered, not time_based), and a job without a
 * filename fio's file name, JOBNAME.0.0.
 */
#ifndef IOCHAR_CLI_RUN_CONFIG_H
#define IOCHAR_CLI_RUN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "cli/run_config_def.h"
#include "output/output.h"
#include "util/err.h"

/* run_config_parse's return value when the user asked for help. */
#define RUN_CONFIG_HELP 1

/* Parse argv (argv[0] is "run") into cfg, which the caller owns and must
 * release with run_config_free on success. Returns 0; RUN_CONFIG_HELP for
 * --help or -h (cfg is then empty: print options_print_help, exit 0); or
 * -errno with one line in err (err->usage set for bad input) and cfg empty.
 * argv may be discarded afterwards: cfg holds copies. */
int run_config_parse(int argc, char **argv, struct run_config *cfg,
		     struct ioc_err *err);

/* Say how this run differs from what fio would do with the same command
 * line, a note each (e.g. "differs from fio here: thread: iochar workers
 * are always threads; ..."), or nothing when it does not: run start says
 * them (util/note.h: on stderr as "iochar: ..." when notes are shown,
 * always in the JSON's notes). docs/fio-compat.md lists them all. */
void run_config_differences(const struct run_config *cfg);

/* Does cfg ask only for something to print (--version, --fio-compat,
 * --showcmd, --parse-only, --cmdhelp, --enghelp, --crctest,
 * --debug=help), so that nothing is validated or run? */
bool run_config_prints_only(const struct run_config *cfg);

/* Print what such a cfg asks for to f: fio's version, docs/fio-compat.md,
 * the job file as fio's command line, the option or engine help, the
 * debug categories, or nothing (--parse-only; --crctest is the caller's:
 * it times verify/'s digests). Returns the exit status: fio's, 0 even
 * for an unknown --cmdhelp option (fio says so and exits 0), 1 for an
 * unknown --enghelp engine (as fio). */
int run_config_print(const struct run_config *cfg, FILE *f);

/* Release what cfg owns and empty it; cfg may be NULL. */
void run_config_free(struct run_config *cfg);

#endif
