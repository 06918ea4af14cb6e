/* run.c - `iochar run`: parse, validate, run, emit.
 *
 * Order matters for safety: every input is parsed and validated (targets
 * inspected read-only) before the output file is opened or any target is
 * created or written. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run_config.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "cmd/status.h"
#include "core/runner.h"
#include "output/output.h"

static void print_help(void)
{
	printf("usage: iochar run [JOBFILE] [--option=value ...]\n\n"
	       "Runs a storage workload and reports IOPS, bandwidth and latency.\n"
	       "Options use fio's names and syntax; on the command line they apply\n"
	       "to every job of JOBFILE. Without any filename, iochar uses a scratch\n"
	       "file in ./iochar-data (1 GiB, 4k random reads, iodepth 32, direct,\n"
	       "10 s) and says so.\n\n");
	options_print_help(stdout);
}

static int emit(const struct run_config *cfg, const struct run_result *r,
		FILE *out)
{
	int ret = output_write(r, cfg->format, out);
	if (ret == 0 && fflush(out) != 0)
		ret = -errno;
	if (ret)
		fprintf(stderr, "iochar: writing results to %s: %s\n",
			cfg->output ? cfg->output : "stdout", strerror(-ret));
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_config cfg;
	struct ioc_err err = {0};
	struct run_result result;
	struct status st;
	FILE *out = stdout;
	int status = 0;

	int ret = run_config_parse(argc, argv, &cfg, &err);
	if (ret == RUN_CONFIG_HELP) {
		print_help();
		return 0;
	}
	if (ret < 0) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	ret = runner_validate(cfg.jobs, cfg.nr_jobs, &err);
	if (!ret && cfg.output && !(out = fopen(cfg.output, "we")))
		ret = err_usage(&err, errno, "--output=%s: %s", cfg.output,
				strerror(errno));
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		run_config_free(&cfg);
		return err.usage ? EXIT_USAGE : 1;
	}
	if (cfg.scratch)
		fprintf(stderr, "iochar: no target given: using scratch file %s "
				"(created and written if missing)\n",
			cfg.jobs[0].files[0]);

	status_init(&st);
	atomic_bool *stop_requested = signals_catch();
	struct runner_hooks hooks = {
		.tick = status_tick,
		.fill_progress = status_fill,
		.arg = &st,
		.stop = stop_requested,
	};
	ret = runner_run(cfg.jobs, cfg.nr_jobs, &hooks, &result, &err);
	status_clear(&st);
	if (ret)
		fprintf(stderr, "iochar: %s\n", err.msg);
	if (result.nr_workers) /* also a partial result: what was measured */
		status = emit(&cfg, &result, out) ? 1 : 0;
	if (ret)
		status = err.usage ? EXIT_USAGE : 1;
	else if (result.partial && atomic_load(stop_requested))
		status = EXIT_SIGNAL;
	run_result_free(&result);
	if (out != stdout && fclose(out) != 0 && status == 0)
		status = 1;
	run_config_free(&cfg);
	return status;
}
