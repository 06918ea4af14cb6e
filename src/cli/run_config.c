/* run_config.c - `iochar run` arguments into jobs. See run_config.h.
 *
 * Order: read argv (command-line-only options go straight into cfg, job
 * options are kept in order), build the jobs as fio's init.c does (global
 * options, a job per --name, then the job file's), pick mode defaults
 * (scratch file, fio's, null engine) for what the user left unset, then
 * check what can be checked without touching a target.
 */
#include "cli/run_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/fio_names.h"
#include "cli/jobfile.h"
#include "cli/options.h"
#include "base/file_names.h"
#include "base/iolog.h"
#include "base/job_options.h"
#include "base/units.h"
#include "engine/engine.h"
#include "util/debug_log.h"
#include "util/note.h"

/* A job option from argv, in order; --name is one too (it starts a job). */
struct cli_opt {
	const struct option_def *o;
	const char *value; /* points into argv; NULL for a bare key */
	const char *key;   /* as the user spelled it (an alias) */
};

struct cli_args {
	struct cli_opt *opts;
	unsigned nr_opts;
	const char *jobfile;
	struct job_spec scratch_job; /* the --name job being built */
};

void run_config_free(struct run_config *cfg)
{
	if (!cfg)
		return;
	jobfile_free_jobs(cfg->jobs, cfg->nr_jobs);
	free(cfg->output);
	for (unsigned i = 0; i < cfg->nr_sections; i++)
		free(cfg->sections[i]);
	free(cfg->sections);
	free(cfg->showcmd_text);
	free(cfg->aux_path);
	free(cfg->debug);
	free(cfg->cmdhelp);
	free(cfg->enghelp);
	free(cfg->crctest);
	free(cfg->inflate_log);
	free(cfg->trigger_cmd);
	free(cfg->trigger_file);
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
	/* fio's --cmdhelp, --enghelp, --crctest take a value only after
	 * '=' (getopt's optional argument): the next word is not theirs */
	if (options_value_optional(o))
		return "";
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
	if (o->scope == OPT_SCOPE_CLI) {
		ret = options_apply_cli(cfg, o, value, err);
		if (ret && value)
			err_shorten(err, value, ERR_VALUE_KEEP);
		return ret;
	}
	a->opts[a->nr_opts].o = o;
	a->opts[a->nr_opts].value = value;
	a->opts[a->nr_opts].key = arg;
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

static int append_job(struct run_config *cfg, const struct job_spec *from,
		      struct ioc_err *err)
{
	struct job_spec *grown =
	    realloc(cfg->jobs, (cfg->nr_jobs + 1) * sizeof(*grown));

	if (!grown)
		return err_set(err, ENOMEM, "out of memory");
	cfg->jobs = grown;
	if (job_spec_copy(&cfg->jobs[cfg->nr_jobs], from))
		return err_set(err, ENOMEM, "out of memory");
	cfg->nr_jobs++;
	return 0;
}

static bool is_name(const struct cli_opt *c)
{
	return !strcmp(c->o->name, "name");
}

/* Apply one command-line job option to spec; its message names it as
 * given ("--timeout=x"). */
static int apply_one(struct job_spec *spec, const struct cli_opt *c,
		     struct ioc_err *err)
{
	int ret = options_apply(spec, c->o->name, c->value, err);

	/* a long value by its start: the reason stays on a short line */
	if (ret && c->value)
		err_shorten(err, c->value, ERR_VALUE_KEEP);
	if (!ret && options_given_add(spec, c->o->name, c->value))
		ret = err_set(err, ENOMEM, "out of memory");
	return ret;
}

/* fio's command line: options before the first --name into global, each
 * --name a job from global with the options after it (--name=global...
 * adds to global, as fio's). A job --section leaves out is dropped. */
static int build_cli_jobs(struct run_config *cfg, struct cli_args *a,
			  struct job_spec *global, struct ioc_err *err)
{
	const struct jobfile_opts sel = {
	    .sections = (const char *const *)cfg->sections,
	    .nr_sections = cfg->nr_sections};
	struct job_spec *cur = global;
	int ret = 0;

	for (unsigned i = 0; !ret && i < a->nr_opts; i++) {
		const struct cli_opt *c = &a->opts[i];

		if (!is_name(c)) {
			ret = cur ? apply_one(cur, c, err) : 0;
			continue;
		}
		if (cur && cur != global) {
			ret = append_job(cfg, cur, err);
			job_spec_free(cur);
		}
		cur = NULL;
		if (!ret && !c->value)
			ret = err_usage(err, EINVAL,
					"--name needs a value: the job's name");
		if (ret || !jobfile_section_wanted(&sel, c->value))
			continue; /* a left-out job's options go nowhere */
		if (!strncmp(c->value, "global", 6)) {
			cur = global;
			continue;
		}
		cur = &a->scratch_job;
		job_spec_init(cur);
		if (job_spec_copy(cur, global))
			return err_set(err, ENOMEM, "out of memory");
		cur->given_own = cur->given_len; /* the globals before its own */
		ret = apply_one(cur, c, err);
	}
	if (!ret && cur && cur != global)
		ret = append_job(cfg, cur, err);
	if (cur && cur != global)
		job_spec_free(cur);
	return ret;
}

static bool has_name(const struct cli_args *a)
{
	for (unsigned i = 0; i < a->nr_opts; i++)
		if (is_name(&a->opts[i]))
			return true;
	return false;
}

/* The job file's jobs, after the command line's, from its global options. */
static int add_file_jobs(struct run_config *cfg, const struct cli_args *a,
			 const struct job_spec *global, struct ioc_err *err)
{
	struct jobfile_opts o = {
	    .base = global,
	    .sections = (const char *const *)cfg->sections,
	    .nr_sections = cfg->nr_sections,
	};
	struct job_spec *jobs = NULL;
	unsigned nr = 0;
	FILE *show = NULL;
	size_t len = 0;
	int ret;

	if (cfg->showcmd && !(show = open_memstream(&cfg->showcmd_text, &len)))
		return err_set(err, ENOMEM, "out of memory");
	o.showcmd = show;
	ret = jobfile_parse_opts(a->jobfile, &o, &jobs, &nr, err);
	if (show)
		fclose(show);
	for (unsigned j = 0; !ret && j < nr; j++)
		ret = append_job(cfg, &jobs[j], err);
	jobfile_free_jobs(jobs, nr);
	return ret;
}

/* Every job, as fio builds them; one "job0" from the global options when
 * neither a job file nor --name gives any. */
static int build_jobs(struct run_config *cfg, struct cli_args *a,
		      struct ioc_err *err)
{
	struct job_spec global;
	int ret;

	job_spec_init(&global);
	options_set_defaults(&global);
	ret = build_cli_jobs(cfg, a, &global, err);
	if (!ret && a->jobfile)
		ret = add_file_jobs(cfg, a, &global, err);
	if (!ret && !a->jobfile && !has_name(a))
		ret = append_job(cfg, &global, err);
	if (!ret && cfg->nr_jobs == 0)
		ret = err_usage(err, EINVAL,
				"no job to run: --section names none of the "
				"jobs");
	job_spec_free(&global);
	return ret;
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

/* fio's defaults where iochar's rows differ: psync (or the engine whose
 * own options the job was given: iochar reads those without ioengine),
 * and fio's batching. */
static int apply_fio_defaults(struct job_spec *job, struct ioc_err *err)
{
	static const struct option_preset fio_batching[] = {
	    {"iodepth_batch_submit", "1"},
	    {"iodepth_batch_complete_max", "0"},
	    {NULL, NULL},
	};
	const char *engine = job->engine_opts_of[0] ? job->engine_opts_of
						   : "psync";
	int ret = options_set_default(job, "ioengine", engine, err);

	/* one I/O per submission and per reap, as fio; not under iochar's
	 * crash journal, which makes every intent durable once per pass:
	 * one I/O per pass would be one fdatasync per write (6x fewer) */
	if (!ret && !job->journal[0])
		ret = apply_preset(job, fio_batching, err);
	/* fio makes the directories a file's name needs (create_work_dirs),
	 * when it lays the file out */
	job->create_parent = true;
	if (ret || job->nr_files > 0 || job->vd[0] || !job_moves_data(job))
		return ret;
	/* not named by name_fio_files (no fio file option set): fio's names */
	return file_names_apply(job, err);
}

/* A job without filename that is fio's (named: a job file's section or
 * --name, or with fio's file options nrfiles, filesize, directory,
 * filename_format) gets its files as fio names them; the scratch file is
 * only for `iochar run` with neither job nor target. Given files go in
 * directory= when it is set, as in fio. */
static int name_fio_files(struct run_config *cfg, struct ioc_err *err)
{
	static const char *const keys[] = {"name", "nrfiles", "filesize",
					   "directory", "filename_format"};
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		struct job_spec *job = &cfg->jobs[j];
		bool named_as_fio = false;
		int ret = 0;
		for (unsigned k = 0; k < 5; k++)
			named_as_fio |= options_is_set(job, keys[k]);
		if (job->vd[0])
			continue; /* a VD's members are its targets */
		if (job->read_iolog[0]) { /* fio: the log's files replace the job's */
			if ((ret = iolog_apply_files(job, options_is_set(job, "iodepth"), true, err)))
				return ret;
			continue;
		}
		if (job->nr_files)
			ret = file_names_in_directory(job, err);
		else if (named_as_fio && job_moves_data(job))
			ret = file_names_apply(job, err);
		if (!ret && job->nr_files)
			ret = file_names_append(job, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Scratch mode (no job file, no --name, no target): every job gets the
 * scratch file, and those that move data the scratch defaults. Otherwise
 * fio's defaults. A job of an engine without targets (null) and no size
 * gets a virtual 1g only when iochar's own (no job file, no --name): a
 * fio job without size= is refused, as fio refuses it. */
static int apply_mode_defaults(struct run_config *cfg,
			       const struct cli_args *a, struct ioc_err *err)
{
	static const struct option_preset virtual_size[] = {
	    {"size", "1g"},
	    {NULL, NULL},
	};
	bool any_file = false, any_data = false;
	int ret = 0;

	if ((ret = name_fio_files(cfg, err)))
		return ret;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		any_file |= cfg->jobs[j].nr_files > 0 || cfg->jobs[j].vd[0];
		any_data |= job_moves_data(&cfg->jobs[j]);
	}
	cfg->scratch = !any_file && any_data && !a->jobfile && !has_name(a);
	cfg->fio_defaults = !cfg->scratch;
	for (unsigned j = 0; !ret && j < cfg->nr_jobs; j++) {
		struct job_spec *job = &cfg->jobs[j];

		if (cfg->fio_defaults)
			ret = apply_fio_defaults(job, err);
		if (ret || job->nr_files > 0 || job->vd[0])
			continue; /* a VD's members are its targets */
		if (!job_moves_data(job)) {
			/* fio's filesize= sizes the files instead */
			if (!job->filesize && !a->jobfile && !has_name(a))
				ret = apply_preset(job, virtual_size, err);
		} else
			ret = apply_preset(job, options_scratch_preset, err);
		/* Every job, so that jobs[0].files[0] names the scratch file;
		 * engines without targets do not open it. */
		if (!ret && cfg->scratch) {
			ret = job_spec_set_files(job, RUN_SCRATCH_FILE);
			if (ret)
				return err_set(err, ret, "out of memory");
			job->create_parent = true; /* iochar-data/ is ours to make */
		}
	}
	return ret;
}

/* --readonly: a file the job would lay out (create, or extend to its
 * region) is written too; fio refuses that as well ("refusing extend of
 * file due to read-only"). Names with '%' are per-rank patterns, told
 * later. */
static int check_readonly_files(const struct job_spec *job,
				struct ioc_err *err)
{
	for (unsigned i = 0; i < job->nr_files; i++) {
		const char *path = job->files[i];
		uint64_t need = job->offset + job->size / job->nr_files;
		struct stat st;

		if (strchr(path, '%'))
			continue;
		if (stat(path, &st) != 0)
			return err_usage(err, EINVAL,
					 "job '%s': %s does not exist, and "
					 "--readonly refuses to create it",
					 job->name, path);
		if (S_ISREG(st.st_mode) && job->size &&
		    (uint64_t)st.st_size < need)
			return err_usage(err, EINVAL,
					 "job '%s': %s is shorter than the job's "
					 "region, and --readonly refuses to "
					 "extend it",
					 job->name, path);
	}
	return 0;
}

/* --readonly: fio refuses a job that writes before anything starts. */
static int check_readonly(const struct run_config *cfg, struct ioc_err *err)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job_spec *job = &cfg->jobs[j];
		int ret;

		if (rw_writes(job->rw) || rw_trims(job->rw)) /* fio's too */
			return err_usage(err, EINVAL,
					 "job '%s': rw=%s %s, and --readonly "
					 "refuses every job that writes or trims",
					 job->name, rw_name(job->rw),
					 rw_writes(job->rw) ? "writes" : "trims");
		/* fio runs these under --readonly (filedelete removes the
		 * files); iochar's read-only means nothing changes */
		const struct engine_ops *e = engine_find(job->ioengine);
		if (e && (e->flags & ENGINE_MODIFIES))
			return err_usage(err, EINVAL,
					 "job '%s': ioengine=%s changes its files "
					 "whatever rw says, and --readonly refuses "
					 "every job that does",
					 job->name, job->ioengine);
		if (job_moves_data(job) && !job->vd[0] &&
		    (ret = check_readonly_files(job, err)))
			return ret;
	}
	return 0;
}

/* One way this run differs from fio, as a note of its own (util/note.h):
 * shown on a terminal or with --verbose, always in the JSON's notes,
 * where a reader can find each by its option's name. */
static void say_difference(const char *what, const char *how)
{
	note_once_as("iochar: ", "differs from fio here: %s: %s", what, how);
}

/* Each job row of status "different" that a job was given, once, with
 * how it differs. */
static void say_set_differences(const struct run_config *cfg)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);

	for (size_t i = 0; i < nr; i++) {
		bool set = false;

		if (rows[i].fio != OPT_COMPAT_DIFFERENT)
			continue;
		for (unsigned j = 0; j < cfg->nr_jobs && !set; j++)
			set = job_row_was_set(&cfg->jobs[j], i);
		if (set)
			say_difference(rows[i].name, rows[i].compat);
	}
}

/* fio's file-operation engines (issue 14, fileng) sample latency only at
 * each file's operation (FIO_NOSTATS fakes); iochar samples every I/O:
 * it shows when a file takes more than one I/O. */
static void say_fileop_differences(const struct run_config *cfg)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job_spec *job = &cfg->jobs[j];
		const struct engine_ops *e = engine_find(job->ioengine);
		unsigned files = job->nr_files ? job->nr_files : 1;
		uint64_t per_file = job->filesize ? job->filesize : job->size / files;

		if (e && (e->flags & ENGINE_NO_OPEN) && per_file > job->bs) {
			char what[64];
			snprintf(what, sizeof(what), "ioengine=%s", job->ioengine);
			say_difference(what, "latency is sampled at every I/O, not "
					     "only at each file's operation "
					     "(filesize > bs)");
			return; /* once per run */
		}
	}
}

/* fio 3.33's randtrimwrite writes at offset + the trim's offset: past
 * the region once offset is not 0, where it ends the job. */
static void say_trim_differences(const struct run_config *cfg)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job_spec *job = &cfg->jobs[j];
		if (job->rw == RW_RANDTRIMWRITE &&
		    (job->offset || job->offset_pct || job->offset_increment)) {
			say_difference("rw=randtrimwrite with an offset",
				       "each block trimmed is written (fio 3.33 "
				       "writes past the region and stops)");
			return; /* once per run */
		}
	}
}

void run_config_differences(const struct run_config *cfg)
{
	if (!cfg->fio_defaults)
		return; /* the scratch run says what it is */
	say_set_differences(cfg);
	say_fileop_differences(cfg);
	say_trim_differences(cfg);
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
	if (!ret && cfg->minimal)
		cfg->format = OUTPUT_TERSE;
	if (!ret)
		ret = apply_mode_defaults(cfg, &a, err);
	if (!ret && cfg->readonly)
		ret = check_readonly(cfg, err);
	for (unsigned j = 0; !ret && j < cfg->nr_jobs; j++)
		if ((ret = job_options_check(&cfg->jobs[j], JOB_CHECK_PARSE, err)) &&
		    cfg->jobs[j].source[0])
			err_prefix(err, "%s", cfg->jobs[j].source); /* its [section] */
out:
	free(a.opts);
	if (ret)
		run_config_free(cfg);
	return ret;
}

bool run_config_prints_only(const struct run_config *cfg)
{
	return cfg->version || cfg->fio_compat || cfg->showcmd ||
	       cfg->parse_only || cfg->cmdhelp || cfg->enghelp ||
	       cfg->crctest || cfg->inflate_log || (cfg->debug && !strcmp(cfg->debug, "help"));
}

/* --debug=help as fio prints it: "fio: dumping debug options:" then the
 * categories, comma-separated. */
static void print_debug_help(FILE *f)
{
	fputs("fio: dumping debug options:", f);
	for (size_t i = 0; debug_log_names[i]; i++)
		fprintf(f, "%s%s", i ? "," : "", debug_log_names[i]);
	fputc('\n', f);
}

int run_config_print(const struct run_config *cfg, FILE *f)
{
	/* fio's format: tools that run iochar as fio parse it
	 * (iochar --version and the JSON carry iochar's own) */
	if (cfg->version)
		fprintf(f, "%s\n", fio_names_version);
	else if (cfg->debug && !strcmp(cfg->debug, "help"))
		print_debug_help(f);
	else if (cfg->cmdhelp && options_print_cmdhelp(f, cfg->cmdhelp))
		/* fio says so on stderr and exits 0 */
		fprintf(stderr, "No such command: %s\n", cfg->cmdhelp);
	else if (cfg->enghelp)
		return options_print_enghelp(f, cfg->enghelp) ? 1 : 0;
	else if (cfg->fio_compat)
		options_write_compat(f);
	else if (cfg->showcmd && cfg->showcmd_text)
		fputs(cfg->showcmd_text, f);
	return 0;
}
