/* run_config.c - `iochar run` arguments into jobs. See run_config.h.
 *
 * Order: read argv (command-line-only options go straight into cfg, job
 * options are kept in order), build the jobs (job file, or one job from
 * the defaults), apply the kept job options to every job, pick mode
 * defaults (scratch file, null engine) for what the user left unset, then
 * check what can be checked without touching a target.
 */
#include "cli/run_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jobfile.h"
#include "cli/options.h"
#include "cli/units.h"
#include "engine/engine.h"

/* A job option from argv, applied to every job once they exist. */
struct cli_opt {
	const struct option_def *o;
	const char *value; /* points into argv; NULL for a bare key */
};

struct cli_args {
	struct cli_opt *opts;
	unsigned nr_opts;
	const char *jobfile;
};

void run_config_free(struct run_config *cfg)
{
	if (!cfg)
		return;
	jobfile_free_jobs(cfg->jobs, cfg->nr_jobs);
	free(cfg->output);
	memset(cfg, 0, sizeof(*cfg));
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)
			return true;
	return false;
}

/* The value of "--key=value", "--key value" or a bare "--key" at argv[*i];
 * *i moves past a separate value. NULL for a bare key. */
static const char *option_value(const struct option_def *o, const char *eq,
				int argc, char **argv, int *i)
{
	const char *next = *i + 1 < argc ? argv[*i + 1] : NULL;
	bool is_bool;

	if (eq)
		return eq + 1;
	if (!next || strncmp(next, "--", 2) == 0)
		return NULL;
	/* A boolean takes the next word only when it is a boolean, so that
	 * "--time_based job.fio" keeps its job file. */
	is_bool = !options_takes_value(o);
	if (is_bool && units_parse_bool(o->name, next, &(bool){0}, NULL))
		return NULL;
	(*i)++;
	return next;
}

/* One "--key[=value]" (argv[*i] without its dashes is arg). */
static int parse_option(struct run_config *cfg, struct cli_args *a,
			const char *arg, int argc, char **argv, int *i,
			struct ioc_err *err)
{
	const char *eq = strchr(arg, '=');
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option_def *o;
	const char *value;
	char key[128];
	int ret;

	snprintf(key, sizeof(key), "%.*s", (int)klen, arg);
	ret = options_lookup(key, &o, err);
	if (ret)
		return ret;
	value = option_value(o, eq, argc, argv, i);
	if (o->scope == OPT_SCOPE_CLI)
		return options_apply_cli(cfg, o, value, err);
	a->opts[a->nr_opts].o = o;
	a->opts[a->nr_opts].value = value;
	a->nr_opts++;
	return 0;
}

static int parse_argv(int argc, char **argv, struct run_config *cfg,
		      struct cli_args *a, struct ioc_err *err)
{
	bool options_done = false;
	int ret;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!options_done && strcmp(arg, "--") == 0) {
			options_done = true;
		} else if (!options_done && strncmp(arg, "--", 2) == 0) {
			ret =
			    parse_option(cfg, a, arg + 2, argc, argv, &i, err);
			if (ret)
				return ret;
		} else if (!options_done && arg[0] == '-' && arg[1]) {
			return err_usage(err, EINVAL,
					 "unknown argument '%s': options are "
					 "written --key=value (see 'iochar run "
					 "--help')",
					 arg);
		} else if (a->jobfile) {
			return err_usage(err, EINVAL,
					 "more than one job file ('%s' and "
					 "'%s'): give at most one",
					 a->jobfile, arg);
		} else {
			a->jobfile = arg;
		}
	}
	return 0;
}

/* The jobs before command-line options: from the job file, or one job. */
static int build_jobs(struct run_config *cfg, const struct cli_args *a,
		      struct ioc_err *err)
{
	if (a->jobfile) {
		for (unsigned i = 0; i < a->nr_opts; i++)
			if (strcmp(a->opts[i].o->name, "name") == 0)
				return err_usage(err, EINVAL,
						 "--name cannot be used with a "
						 "job file: its [sections] "
						 "name the jobs");
		return jobfile_parse(a->jobfile, &cfg->jobs, &cfg->nr_jobs,
				     err);
	}
	cfg->jobs = calloc(1, sizeof(*cfg->jobs));
	if (!cfg->jobs)
		return err_set(err, ENOMEM, "out of memory");
	cfg->nr_jobs = 1;
	job_spec_init(&cfg->jobs[0]);
	options_set_defaults(&cfg->jobs[0]);
	return 0;
}

static int apply_cli_options(struct run_config *cfg, const struct cli_args *a,
			     struct ioc_err *err)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		for (unsigned i = 0; i < a->nr_opts; i++) {
			int ret =
			    options_apply(&cfg->jobs[j], a->opts[i].o->name,
					  a->opts[i].value, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Engines such as null open no target and need no file. */
static bool job_moves_data(const struct job_spec *job)
{
	const struct engine_ops *e = engine_find(job->ioengine);

	return !e || !(e->flags & ENGINE_NO_TARGET);
}

static int apply_preset(struct job_spec *job, const struct option_preset *p,
			struct ioc_err *err)
{
	for (; p->key; p++) {
		int ret = options_set_default(job, p->key, p->value, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Scratch mode when no job names a file and one moves data: every job gets
 * the scratch file, and those that move data the scratch defaults. A job of
 * an engine without targets (null) and no size gets a virtual 1g. */
static int apply_mode_defaults(struct run_config *cfg, struct ioc_err *err)
{
	static const struct option_preset virtual_size[] = {
	    {"size", "1g"},
	    {NULL, NULL},
	};
	bool any_file = false, any_data = false;
	int ret;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		any_file |= cfg->jobs[j].nr_files > 0 || cfg->jobs[j].vd[0];
		any_data |= job_moves_data(&cfg->jobs[j]);
	}
	cfg->scratch = !any_file && any_data;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		struct job_spec *job = &cfg->jobs[j];

		if (job->nr_files > 0 || job->vd[0])
			continue; /* a VD's members are its targets */
		if (!job_moves_data(job))
			ret = apply_preset(job, virtual_size, err);
		else if (cfg->scratch)
			ret = apply_preset(job, options_scratch_preset, err);
		else
			ret = err_usage(err, EINVAL,
					"job '%s': no filename (a scratch file "
					"is used only when no job names one)",
					job->name);
		if (ret)
			return ret;
		/* Every job, so that jobs[0].files[0] names the scratch file;
		 * engines without targets do not open it. */
		if (cfg->scratch) {
			ret = job_spec_set_files(job, RUN_SCRATCH_FILE);
			if (ret)
				return err_set(err, ret, "out of memory");
			job->create_parent = true; /* iochar-data/ is ours to make */
		}
	}
	return 0;
}

/* Checks between options that need no access to the target. */
static int check_job(const struct job_spec *job, struct ioc_err *err)
{
	char a[32], b[32];

	if (job->size && job->size < job->bs)
		return err_usage(err, EINVAL,
				 "job '%s': size=%s is smaller than bs=%s",
				 job->name, units_format_size(job->size, a, 32),
				 units_format_size(job->bs, b, 32));
	/* ramp_time comes before runtime, as in fio: no ordering to check */
	return 0;
}

int run_config_parse(int argc, char **argv, struct run_config *cfg,
		     struct ioc_err *err)
{
	struct cli_args a = {0};
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	if (wants_help(argc, argv))
		return RUN_CONFIG_HELP;
	options_set_cli_defaults(cfg);
	a.opts = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*a.opts));
	if (!a.opts) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	ret = parse_argv(argc, argv, cfg, &a, err);
	if (!ret)
		ret = build_jobs(cfg, &a, err);
	if (!ret)
		ret = apply_cli_options(cfg, &a, err);
	if (!ret)
		ret = apply_mode_defaults(cfg, err);
	for (unsigned j = 0; !ret && j < cfg->nr_jobs; j++)
		ret = check_job(&cfg->jobs[j], err);
out:
	free(a.opts);
	if (ret)
		run_config_free(cfg);
	return ret;
}
