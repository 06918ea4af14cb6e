/* run.c - `iochar run`: parse, validate, run, emit.
 *
 * Order matters for safety: every input is parsed and validated (targets
 * inspected read-only) before the output file is opened or any target is
 * created or written. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run_config.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "cmd/status.h"
#include "core/runner.h"
#include "dist/dist.h"
#include "output/json_parts.h"
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

/* The jobs as text, equal on every rank that was given the same options
 * (before %h/%r are expanded): what dist_agree compares. *out malloc'd. */
static int jobs_text(const struct run_config *cfg, char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	if (!f)
		return -ENOMEM;
	struct jw w;
	jw_init(&w, f, 0);
	jw_array_begin(&w);
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		json_emit_job(&w, &cfg->jobs[j]);
	jw_array_end(&w);
	int ret = jw_finish(&w);
	if (fclose(f) || ret) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Each rank of a run over many hosts gets its own targets: %h and %r in
 * filenames, and a scratch file per rank. */
static int per_rank_files(struct dist *d, struct run_config *cfg,
			  struct ioc_err *err)
{
	int ret = 0;
	for (unsigned j = 0; j < cfg->nr_jobs && !ret; j++) {
		if (cfg->scratch && d) {
			char path[128];
			snprintf(path, sizeof(path), "iochar-data/scratch-r%d.dat", dist_rank(d));
			if (job_spec_set_files(&cfg->jobs[j], path))
				ret = err_set(err, ENOMEM, "out of memory");
		}
		if (!ret)
			ret = dist_expand_files(d, &cfg->jobs[j], err);
	}
	return ret;
}

/* Parse and validate on every rank, then agree: nothing is written
 * anywhere unless every rank's jobs are valid and the same. */
static int prepare(struct dist *d, int argc, char **argv, struct run_config *cfg,
		   struct ioc_err *err)
{
	struct ioc_err local = {0};
	char *text = NULL;
	int ret = run_config_parse(argc, argv, cfg, &local);

	if (ret == RUN_CONFIG_HELP)
		return ret;
	if (!ret && jobs_text(cfg, &text))
		ret = err_set(&local, ENOMEM, "out of memory");
	if (!ret)
		ret = per_rank_files(d, cfg, &local);
	if (!ret)
		ret = runner_validate(cfg->jobs, cfg->nr_jobs, &local);
	ret = dist_agree(d, text ? text : "", ret, &local, err);
	free(text);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_config cfg = {0};
	struct ioc_err err = {0};
	struct run_result result;
	struct status st;
	struct dist *d = NULL;
	FILE *out = stdout;
	int status = 0;

	int ret = dist_start(&d, &err);
	if (ret) {
		if (err.msg[0])
			fprintf(stderr, "iochar: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	bool root = dist_is_root(d);
	ret = prepare(d, argc, argv, &cfg, &err);
	if (ret == RUN_CONFIG_HELP) {
		if (root)
			print_help();
		return dist_finish(d, 0);
	}
	if (!ret && root && cfg.output && !(out = fopen(cfg.output, "we")))
		ret = err_usage(&err, errno, "--output=%s: %s", cfg.output,
				strerror(errno));
	if (ret) {
		if (root)
			fprintf(stderr, "iochar: %s\n", err.msg);
		run_config_free(&cfg);
		return dist_finish(d, err.usage ? EXIT_USAGE : 1);
	}
	if (cfg.scratch && root)
		fprintf(stderr, "iochar: no target given: using scratch file %s "
				"(created and written if missing)\n",
			cfg.jobs[0].files[0]);

	status_init(&st);
	st.log_every_ns = cfg.progress_interval_ns;
	st.next_log_ns = st.log_every_ns;
	atomic_bool *stop_requested = signals_catch();
	struct runner_hooks hooks = {
		.tick = root ? status_tick : NULL,
		.fill_progress = root ? status_fill : NULL,
		.arg = &st,
		.stop = stop_requested,
	};
	if (d) {
		struct ioc_err eerr = {0};
		ret = dist_run(d, cfg.jobs, cfg.nr_jobs, &hooks, &result, &err);
		/* each host's own environment into hosts[] (not a failure) */
		if (dist_gather_env_run(d, &result, &eerr) && root)
			fprintf(stderr, "iochar: warning: %s\n", eerr.msg);
	} else
		ret = runner_run(cfg.jobs, cfg.nr_jobs, &hooks, &result, &err);
	status_clear(&st);
	if (ret && root)
		fprintf(stderr, "iochar: %s\n", err.msg);
	if (result.nr_workers && root) /* also a partial result: what was measured */
		status = emit(&cfg, &result, out) ? 1 : 0;
	if (ret == -EINTR)
		status = EXIT_SIGNAL;
	else if (ret)
		status = err.usage ? EXIT_USAGE : 1;
	else if (result.partial && atomic_load(stop_requested))
		status = EXIT_SIGNAL;
	run_result_free(&result);
	if (out != stdout && fclose(out) != 0 && status == 0)
		status = 1;
	run_config_free(&cfg);
	return dist_finish(d, status);
}
