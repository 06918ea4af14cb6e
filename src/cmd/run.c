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
#include <unistd.h>

#include "base/blktrace_merge.h"
#include "cli/options.h"
#include "cli/run_config.h"
#include "cmd/agg_bw_log.h"
#include "cmd/cmd.h"
#include "cmd/crctest.h"
#include "cmd/inflate_log.h"
#include "cmd/signals.h"
#include "cmd/status.h"
#include "cmd/stdout_end.h"
#include "cmd/trigger.h"
#include "core/runner.h"
#include "dist/dist.h"
#include "output/output.h"
#include "output/results_file.h"
#include "util/file_id.h"
#include "util/note.h"
#include "vd/def.h"
#include "verify/fio_state.h"

static void print_help(void)
{
	printf("usage: iochar run [JOBFILE] [--option=value ...]\n\n"
	       "Runs a storage workload and reports IOPS, bandwidth and latency.\n"
	       "Options use fio's names and syntax, read as fio reads them: before\n"
	       "the first --name they are global (JOBFILE's own values win), each\n"
	       "--name starts a job. With no JOBFILE, no --name and no filename,\n"
	       "iochar uses a scratch file in ./iochar-data (1 GiB, 4k random reads,\n"
	       "iodepth 32, direct, 10 s) and says so; otherwise fio's defaults.\n\n");
	options_print_help(stdout);
}

/* Write the results to --output (committed: renamed into place) or
 * stdout. When --output cannot take them (a full disk), it is left as it
 * was and the results go to stdout rather than being lost. */
static int emit(const struct run_config *cfg, const struct run_result *r,
		struct results_file *rf)
{
	FILE *out = rf->f ? rf->f : stdout;
	int ret = output_write(r, cfg->format, out);

	if (rf->f && ret)
		results_file_abort(rf);
	else if (rf->f)
		ret = results_file_commit(rf);
	if (!ret)
		return 0;
	if (!cfg->output) {
		/* stdout's own failure is main's stdout_end line (none for a
		 * closed pipe: the reader went away, as with cat or grep) */
		if (!stdout_failed())
			fprintf(stderr, "iochar: writing results to stdout: %s\n",
				strerror(-ret));
		return ret;
	}
	fprintf(stderr, "iochar: writing results to %s: %s (left as it was); "
		"the results follow on stdout\n", cfg->output, strerror(-ret));
	output_write(r, cfg->format, stdout); /* its failure: stdout_end's */
	return ret;
}

/* --output is forced when every job is (--force on the command line). */
static bool output_forced(const struct run_config *cfg)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (!cfg->jobs[j].force)
			return false;
	return cfg->nr_jobs > 0;
}

/* --output may name neither a target, a journal nor a write_iolog: the
 * run would write its data, journal or log there, then rename the
 * results over it. Any
 * spelling of the same file counts (./X, a symlink; file_same). */
static int output_own_file(const struct run_config *cfg, struct ioc_err *err)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job_spec *job = &cfg->jobs[j];
		for (unsigned i = 0; i < job->nr_files; i++)
			if (file_same(job->files[i], cfg->output))
				return err_usage(err, EINVAL,
						 "--output=%s: also a target of "
						 "job %s (filename=%s); the "
						 "results need a file of their own",
						 cfg->output, job->name,
						 job->files[i]);
		const char *member = vd_list_member(job->vd, cfg->output);
		if (member)
			return err_usage(err, EINVAL,
					 "--output=%s: also a --vd member of job %s (%s); "
					 "the results need a file of their own",
					 cfg->output, job->name, member);
		if (job->journal[0] && file_same(job->journal, cfg->output))
			return err_usage(err, EINVAL,
					 "--output=%s: also the journal of job %s "
					 "(journal=%s); the results need a file "
					 "of their own",
					 cfg->output, job->name, job->journal);
		if (job->write_iolog[0] && file_same(job->write_iolog, cfg->output))
			return err_usage(err, EINVAL,
					 "--output=%s: also the I/O log of job %s "
					 "(write_iolog=%s); the results need a file "
					 "of their own",
					 cfg->output, job->name, job->write_iolog);
	}
	return 0;
}

/* A write_iolog= that is a member of a job's --vd: the log's text
 * would be appended into the VD's data (core/runner_jobs.c compares it
 * with the jobs' files; the members are known here, above vd/). */
static int iolog_not_member(const struct run_config *cfg, struct ioc_err *err)
{
	for (unsigned i = 0; i < cfg->nr_jobs; i++) {
		const char *log = cfg->jobs[i].write_iolog;
		for (unsigned j = 0; log[0] && j < cfg->nr_jobs; j++) {
			const char *member = vd_list_member(cfg->jobs[j].vd, log);
			if (member)
				return err_usage(err, EINVAL,
						 "job %s: write_iolog=%s is a --vd member of "
						 "job %s (%s): the log would be written into it",
						 cfg->jobs[i].name, log, cfg->jobs[j].name, member);
		}
	}
	return 0;
}

/* The jobs as text, every option of the table (options_write_job), equal
 * on every rank that was given the same options (before %h/%r are
 * expanded): what dist_agree compares. *out malloc'd. */
static int jobs_text(const struct run_config *cfg, char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	int ret = 0;

	if (!f)
		return -ENOMEM;
	for (unsigned j = 0; j < cfg->nr_jobs && !ret; j++) {
		if (fprintf(f, "[job %u]\n", j) < 0)
			ret = -ENOMEM;
		else
			ret = options_write_job(&cfg->jobs[j], f);
	}
	if (fclose(f) || ret) {
		free(*out);
		*out = NULL;
		return ret ? ret : -ENOMEM;
	}
	return 0;
}

/* Each rank of a run over many hosts gets its own targets: %h and %r in
 * filenames, a scratch file per rank, and logs named per rank. */
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
		dist_log_suffix(d, &cfg->jobs[j]);
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
	if (!ret && run_config_prints_only(cfg))
		return RUN_CONFIG_HELP + 1; /* nothing to validate: no run */
	if (!ret) /* fio's --aux-path, before validation loads state files */
		fio_vstate_set_dir(cfg->aux_path);
	if (!ret && (ret = jobs_text(cfg, &text)))
		ret = err_set(&local, -ret, "the jobs as text: %s", strerror(-ret));
	if (!ret)
		ret = per_rank_files(d, cfg, &local);
	/* before the jobs' checks, which lock (and may create) journals */
	if (!ret && cfg->output && dist_is_root(d))
		ret = output_own_file(cfg, &local);
	if (!ret)
		ret = iolog_not_member(cfg, &local);
	if (!ret)
		ret = runner_validate(cfg->jobs, cfg->nr_jobs, &local);
	ret = dist_agree(d, text ? text : "", ret, &local, err);
	free(text);
	return ret;
}

/* What the runner's hooks get: the live status (first: status_tick and
 * status_fill take it as their arg) and where --status-interval's
 * reports go. */
struct run_hooks_arg {
	struct status st;
	enum output_format format;
	FILE *out;
	struct agg_bw_log *bw; /* --bandwidth-log's files, or NULL */
	struct trigger trig;   /* --trigger-timeout, --trigger-file */
	atomic_bool *stop;     /* set when the trigger comes */
};

/* Each second: the live status, and --bandwidth-log's sample where fio
 * takes it, with its ETA line (a terminal or --eta=always). */
static void run_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		     const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		     uint64_t lat_sum_ns, const struct hist *lat)
{
	struct run_hooks_arg *a = arg;

	status_tick(&a->st, elapsed_ns, planned_ns, ios, bytes, lat_sum_ns, lat);
	/* fio's samples are a second apart: not the line's first, at half a second */
	if (a->bw && a->st.tty && elapsed_ns >= 3 * RUNNER_FIRST_TICK_NS / 2)
		agg_bw_log_sample(a->bw, elapsed_ns, bytes);
	/* fio stops its jobs when the trigger comes, then runs its command */
	if (trigger_armed(&a->trig) && trigger_due(&a->trig, elapsed_ns) && a->stop)
		atomic_store(a->stop, true);
}

/* --status-interval: the run so far in the run's format(s), where the
 * final report will go (fio writes them all to its output, in order). */
static void status_report(void *arg, const struct run_result *so_far)
{
	struct run_hooks_arg *a = arg;
	status_clear(&a->st);
	if (output_write(so_far, a->format, a->out))
		fprintf(stderr, "iochar: --status-interval: a report could not be written\n");
}

/* The live status as --eta, --progress-interval and --verbose ask: off
 * a terminal, progress lines only with --verbose (fio is silent there,
 * and its harnesses read any stderr as a failure); --eta as fio's. */
static void status_start(struct status *st, const struct run_config *cfg,
			 const struct dist *d)
{
	status_init(st);
	st->ranks = d ? (unsigned)dist_size(d) : 1;
	st->log_every_ns = note_shown() ? cfg->progress_interval_ns : 0;
	if (cfg->eta != RUN_ETA_AUTO) /* --eta: as fio's */
		st->tty = cfg->eta == RUN_ETA_ALWAYS;
	if (cfg->eta == RUN_ETA_NEVER)
		st->log_every_ns = 0;
	st->next_log_ns = st->log_every_ns;
	st->newline_every_ns = st->next_newline_ns = cfg->eta_newline_ns;
}

/* Run the jobs here or over many hosts, the live status and the
 * --status-interval reports on the root. */
static int run_jobs(struct dist *d, const struct run_config *cfg, struct run_hooks_arg *ha,
		    atomic_bool *stop_requested, struct run_result *result,
		    struct ioc_err *err)
{
	bool root = dist_is_root(d);
	struct runner_hooks hooks = {
		.tick = root ? run_tick : NULL,
		.fill_progress = root ? status_fill : NULL,
		.poll = root ? status_poll : NULL, /* ha's first member is its status */
		.arg = ha,
		.stop = stop_requested,
		/* many hosts: each rank's runner sees only its own workers */
		.status = root && !d ? status_report : NULL,
		.status_every_ns = cfg->status_interval_ns,
	};
	if (d && root && cfg->status_interval_ns)
		note_once_as("iochar: ", "--status-interval: not over many hosts yet "
					 "(no periodic report; the final one is whole)");
	if (!d)
		return runner_run(cfg->jobs, cfg->nr_jobs, &hooks, result, err);
	struct ioc_err eerr = {0};
	int ret = dist_run(d, cfg->jobs, cfg->nr_jobs, &hooks, result, err);
	/* each host's own environment into hosts[] (not a failure) */
	if (dist_gather_env_run(d, result, &eerr) && root)
		note_once_as("iochar: ", "warning: %s", eerr.msg);
	return ret;
}

/* run_jobs with fio's command-line extras around it: --bandwidth-log's
 * files, the trigger (--trigger-timeout, --trigger-file) and its
 * command once the jobs stopped. */
static int run_with_extras(struct dist *d, const struct run_config *cfg,
			   struct run_hooks_arg *ha, atomic_bool *stop_requested,
			   struct run_result *result, struct ioc_err *err)
{
	bool root = dist_is_root(d);
	struct agg_bw_log bw;
	int ret = 0;

	ha->stop = stop_requested;
	ha->trig = (struct trigger){.cmd = cfg->trigger_cmd, .file = cfg->trigger_file,
				    .timeout_ns = cfg->trigger_timeout_ns};
	if (root && cfg->bandwidth_log && !(ret = agg_bw_log_open(&bw, err)))
		ha->bw = &bw;
	if (!ret)
		ret = run_jobs(d, cfg, ha, stop_requested, result, err);
	status_clear(&ha->st);
	if (ha->trig.fired && root)
		trigger_exec(&ha->trig); /* as fio: its status is not the run's */
	if (ha->bw && agg_bw_log_close(ha->bw) && !ret)
		ret = err_set(err, EIO, "--bandwidth-log: the agg-*_bw.log files "
				       "could not be written");
	ha->bw = NULL; /* bw is this function's */
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_config cfg = {0};
	struct ioc_err err = {0};
	struct run_result result;
	struct run_hooks_arg ha = {0};
	struct status *st = &ha.st;
	struct dist *d = NULL;
	struct results_file rf = {0};
	int status = 0;

	/* notes (util/note.h) on a terminal; --verbose: anywhere (below) */
	note_show(isatty(STDERR_FILENO));
	int ret = dist_start(&d, &err);
	if (ret) {
		if (err.msg[0])
			fprintf(stderr, "iochar: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	bool root = dist_is_root(d);
	ret = prepare(d, argc, argv, &cfg, &err);
	if (cfg.verbose)
		note_show(true);
	if (ret == RUN_CONFIG_HELP) {
		if (root)
			print_help();
		return dist_finish(d, 0);
	}
	if (ret == RUN_CONFIG_HELP + 1) {
		if (root)
			status = cfg.crctest	 ? crctest_run(cfg.crctest, stdout, stderr)
				 : cfg.inflate_log ? inflate_log_run(cfg.inflate_log, stdout, stderr)
						   : run_config_print(&cfg, stdout);
		run_config_free(&cfg);
		return dist_finish(d, status);
	}
	if (!ret && root && cfg.output)
		ret = results_file_open(&rf, "--output", cfg.output,
					output_forced(&cfg), &err);
	/* validated everywhere: merge_blktrace_file appears now */
	if (!ret && (ret = blktrace_merge_commit(&err)) && root && cfg.output)
		results_file_abort(&rf);
	if (ret) {
		if (root)
			fprintf(stderr, "iochar: %s\n", err.msg);
		run_config_free(&cfg);
		return dist_finish(d, err.usage ? EXIT_USAGE : 1);
	}
	if (cfg.scratch && root)
		note_once_as("iochar: ", "no target given: using scratch file %s "
					 "(created and written if missing)",
			     cfg.jobs[0].files[0]);
	if (root)
		run_config_differences(&cfg);
	status_start(st, &cfg, d);
	ha.format = cfg.format;
	ha.out = rf.f ? rf.f : stdout;
	atomic_bool *stop_requested = signals_catch();
	ret = run_with_extras(d, &cfg, &ha, stop_requested, &result, &err);
	if (ret && root)
		fprintf(stderr, "iochar: %s\n", err.msg);
	if (result.nr_workers && root) { /* also a partial result: what was measured */
		/* the notes, shown or not, into the JSON; without memory for
		 * them the results still go out */
		if (note_copy(&result.notes, &result.nr_notes))
			fprintf(stderr, "iochar: the run's notes: out of memory\n");
		status = emit(&cfg, &result, &rf) ? 1 : 0;
	}
	if (ret == -EINTR)
		status = EXIT_SIGNAL;
	else if (ret)
		status = err.usage ? EXIT_USAGE : 1;
	else if (result.partial && atomic_load(stop_requested) && !ha.trig.fired)
		status = EXIT_SIGNAL;
	status_done(st);
	run_result_free(&result);
	results_file_abort(&rf); /* no result at all: the old file stays */
	run_config_free(&cfg);
	return dist_finish(d, status);
}
