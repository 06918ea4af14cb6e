/* plan.c - `iochar plan`, and `search`, `curve`, `precondition`, which are
 * one-step plans built from the command line.
 *
 *   iochar plan NAME|FILE [--out DIR | --resume DIR] [--dry-run] [--key=value ...]
 *   iochar plan --list
 *   iochar search|curve|precondition --key=value ... [--out DIR] [--dry-run]
 *
 * Every --key=value that is not the command's own is a plan or workload
 * key applied to every step (lists allowed, as in plan files). Nothing is
 * written anywhere before the plan has parsed and every step validated;
 * --dry-run stops there and says what would run and for how long. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "charz/plan.h"
#include "charz/plan_run.h"
#include "charz/results.h"
#include "charz/resume_targets.h"
#include "cli/args.h"
#include "cli/options.h"
#include "cli/run_config.h"
#include "base/units.h"
#include "cmd/app_capture.h"
#include "cmd/cmd.h"
#include "cmd/plan_dry.h"
#include "cmd/plan_model.h"
#include "cmd/signals.h"
#include "cmd/status.h"
#include "dist/dist.h"

struct plan_args {
	const char *plan;        /* name or file; NULL for the one-step commands */
	const char *out;         /* --out */
	const char *resume;      /* --resume */
	bool list, help, json;
	bool dry_run;            /* --dry-run: validate, print, run nothing */
	uint64_t progress_interval_ns; /* --progress-interval */
	struct disc_opt discipline;    /* --discipline */
	const char **overrides;  /* "key=value", borrowed from argv */
	unsigned nr_overrides;
};

static int parse_format(void *obj, const struct option_def *o,
			const char *v, struct ioc_err *err)
{
	if (strcmp(v, "json") && strcmp(v, "normal"))
		return err_usage(err, EINVAL,
				 "--output-format=%s: accepted: normal, json", v);
	*(bool *)((char *)obj + o->off) = !strcmp(v, "json");
	return 0;
}

static int parse_discipline(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err)
{
	return discipline_opt_parse(v, (struct disc_opt *)((char *)obj + o->off), err);
}

/* Every --key=value that is not the command's own is a plan or workload
 * key for every step. */
static int add_override(void *obj, const char *word, struct ioc_err *err)
{
	struct plan_args *a = obj;

	(void)err;
	a->overrides[a->nr_overrides++] = word + 2;
	return 0;
}

#define PROW(F, nm, ty) ARG_ROW(struct plan_args, F, nm, ty)

/* plan's rows; the one-step commands have all but the first two. */
static const struct arg_def rows[] = {
	{ARG_STR(struct plan_args, plan, "plan"), .flags = ARG_POS,
	 .o.arg = "NAME|FILE",
	 .o.help = "a built-in plan (--list) or a plan file"},
	{PROW(list, "list", OPT_BOOL), .o.help = "list the built-in plans"},
	{ARG_STR(struct plan_args, out, "out"), .letter = 'o', .o.arg = "DIR",
	 .missing = "%s: needs a directory",
	 .o.help = "where results go (plan: results/NAME-TIME)"},
	{ARG_STR(struct plan_args, resume, "resume"), .o.arg = "DIR",
	 .missing = "%s: needs a directory",
	 .o.help = "continue the plan whose results are in DIR"},
	{PROW(json, "output-format", OPT_CUSTOM), .o.parse = parse_format,
	 .o.arg = "FMT", .o.def = "normal", .o.help = "normal or json"},
	{PROW(progress_interval_ns, "progress-interval", OPT_TIME),
	 .label = "progress-interval", .o.def = "10s",
	 .o.help = "without a terminal, a progress line this often (0: none)"},
	{PROW(discipline, "discipline", OPT_CUSTOM), .o.parse = parse_discipline,
	 .o.arg = "auto|fixed|NAME", .o.def = "auto",
	 .o.help = "submission discipline per target: auto probes io_uring's "
		   "defer_taskrun, coop_taskrun, none (libaio: pass, fio_batch) "
		   "1 s each and keeps the most IOPS; fixed: the job's own; "
		   "NAME: that one (a job's ring_setup or iodepth_batch_* skip the probe)"},
	{PROW(dry_run, "dry-run", OPT_BOOL),
	 .o.help = "check the plan and targets as a run would, then list its steps and "
		   "its time estimate; no I/O, nothing created (fio's --parse-only)"},
};

static struct args_spec spec(const char *cmd, bool one_step)
{
	static char usage[256];

	if (one_step)
		snprintf(usage, sizeof(usage),
			 "usage: iochar %s --key=value ... [--out DIR] "
			 "[--output-format=json]\n"
			 "                  [--progress-interval=10s] [--dry-run]\n",
			 cmd);
	return (struct args_spec){
		.usage = one_step ? usage
				  : "usage: iochar plan NAME|FILE [--out DIR | "
				    "--resume DIR] [--output-format=json]\n"
				    "                  [--progress-interval=10s] [--dry-run] "
				    "[--key=value ...]\n"
				    "       iochar plan --list\n",
		.rows = one_step ? rows + 2 : rows,
		.nr = sizeof(rows) / sizeof(rows[0]) - (one_step ? 2 : 0),
		.unknown = "unexpected argument '%s'",
		.extra = "unexpected argument '%s'",
		.other = add_override,
	};
}

/* The command's own options are taken, every other --key[=value] becomes
 * an override. */
static int parse_args(int argc, char **argv, bool one_step,
		      struct plan_args *a, struct ioc_err *err)
{
	struct args_spec s = spec(argv[0], one_step);
	int ret;

	memset(a, 0, sizeof(*a));
	a->overrides = calloc((size_t)argc + 1, sizeof(char *));
	if (!a->overrides)
		return err_set(err, ENOMEM, "out of memory");
	ret = args_parse(&s, argc, argv, a, err);
	if (ret == ARGS_HELP) {
		a->help = true;
		return 0;
	}
	if (ret)
		return ret;
	if (a->out && a->resume)
		return err_usage(err, EINVAL, "--out and --resume: give one (--resume DIR continues DIR)");
	if (!one_step && !a->plan && !a->list)
		return err_usage(err, EINVAL,
				 "plan: give a plan file or a built-in plan name (iochar plan --list)");
	return 0;
}

/* Keys a one-step command has no use for: its mode is the command, and a
 * preconditioning's time is its rounds' (round_time, max_rounds), its
 * workload the rounds', closed loop (PTS), so search, curve, rebuild and
 * multi-workload keys would be silently ignored. */
static const char *const unused_everywhere[] = {"mode", NULL};
static const char *const unused_precondition[] = {
	"mode", "runtime", "ramp_time", "time_based", "latency_limit", "latency_stat",
	"latency_scope", "max_iodepth", "max_numjobs", "points", "stop_latency",
	"precondition", "replace", "rebuild_rate", "workloads", "latency_judge", NULL};

/* Does override word ("key=value" or "key") name key (or an alias of it)? */
static bool override_is(const char *word, const char *key)
{
	char name[64];
	size_t len = strcspn(word, "=");
	if (len >= sizeof(name))
		return false;
	memcpy(name, word, len);
	name[len] = 0;
	if (!strcmp(name, key))
		return true;
	const struct option_def *a = options_find(name), *b = options_find(key);
	return a && b && a == b;
}

/* A one-step command refuses the keys it would ignore, naming them. */
static int check_unused(const char *cmd, const struct plan_args *a, struct ioc_err *err)
{
	const char *const *unused =
	    strcmp(cmd, "precondition") ? unused_everywhere : unused_precondition;
	char names[512] = "";
	unsigned n = 0;
	for (unsigned i = 0; i < a->nr_overrides; i++)
		for (const char *const *k = unused; *k; k++)
			if (override_is(a->overrides[i], *k)) {
				size_t used = strlen(names);
				snprintf(names + used, sizeof(names) - used, "%s--%.*s",
					 n++ ? ", " : "", (int)strcspn(a->overrides[i], "="),
					 a->overrides[i]);
				break;
			}
	if (!n)
		return 0;
	return err_usage(err, EINVAL, "%s: %s %s not apply (%s)", cmd, names,
			 n > 1 ? "do" : "does",
			 strcmp(cmd, "precondition")
			     ? "the command is the mode"
			     : "it runs fill passes, then rounds of round_time, at most "
			       "max_rounds, closed loop");
}

static void list_builtins(void)
{
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		printf("%-16s %s\n", b->name, b->summary);
}

/* No step names a target: every step uses the scratch file, as `run` does. */
static int apply_scratch(struct plan *p, bool *used, struct ioc_err *err)
{
	*used = false;
	for (unsigned i = 0; i < p->nr_steps; i++) /* null: a virtual 1 GiB, as run */
		if (!strcmp(p->steps[i].job.ioengine, "null") && !p->steps[i].job.size)
			p->steps[i].job.size = 1ull << 30;
	for (unsigned i = 0; i < p->nr_steps; i++)
		if (p->steps[i].job.nr_files || p->steps[i].job.vd[0] ||
		    !strcmp(p->steps[i].job.ioengine, "null"))
			return 0; /* a VD's members are its targets */
	for (unsigned i = 0; i < p->nr_steps; i++) {
		struct job_spec *j = &p->steps[i].job;
		if (job_spec_set_files(j, RUN_SCRATCH_FILE))
			return err_set(err, ENOMEM, "out of memory");
		j->create_parent = true;
		j->overwrite = true; /* the scratch file holds data, even for writes */
		if (!j->size)
			j->size = 1ull << 30;
	}
	*used = p->nr_steps > 0;
	return 0;
}

static void default_out(char *buf, size_t len, const struct plan *p)
{
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "results/%s-%s", p->name, stamp);
}

static void print_help(const char *cmd)
{
	bool one_step = strcmp(cmd, "plan") != 0;
	struct args_spec s = spec(cmd, one_step);
	char about[768];

	if (one_step) {
		snprintf(about, sizeof(about),
			 "A one-step plan with mode=%s; keys as in plan files "
			 "and `iochar run`.\n%s",
			 cmd,
			 strcmp(cmd, "precondition")
			     ? ""
			     : "SNIA PTS: fill_passes 128K sequential write passes over each target,\n"
			       "then rounds of round_time (at most max_rounds) of the workload (default\n"
			       "4K randwrite, QD 32 x 4 jobs/target) until steady state. Closed loop:\n"
			       "rate, rate_iops, rate_min, thinktime are refused, as are --mode,\n"
			       "--runtime, --ramp_time, --time_based and search/curve keys.\n");
		s.about = about;
	} else {
		s.about =
		    "Runs every step of a plan (INI like a fio job file; any workload key may\n"
		    "take a list, and a step expands to the cross product) and writes\n"
		    "results.json, results.csv and one file per step to DIR as each step ends.\n"
		    "Plan keys are below; QD and jobs are per target.\n"
		    "The rules and defaults: docs/characterize.md.\n";
	}
	args_help(&s, stdout);
	size_t nr;
	const struct option_def *keys = plan_key_rows(&nr);
	options_print_rows(stdout,
			   "Plan keys (in a plan file, or --key=value here)",
			   keys, nr);
}

/* The plan as text (every step's key), equal on every rank that was given
 * the same plan and options: what dist_agree compares. *out malloc'd. */
static int plan_text(const struct plan *p, char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	if (!f)
		return -ENOMEM;
	int ret = fprintf(f, "plan %s\n", p->name) < 0 ? -ENOMEM : 0;
	for (unsigned i = 0; i < p->nr_steps && !ret; i++) {
		char *key = NULL;
		ret = results_step_key(p, i, &key);
		if (!ret)
			fputs(key, f);
		free(key);
	}
	if (fclose(f) || ret) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Targets per rank (%h, %r, a scratch file each), then validation: with
 * dist_agree after it, nothing is written anywhere unless every rank's
 * plan is valid and the same. */
static int prepare(struct dist *d, struct plan *p, bool *scratch,
		   struct ioc_err *err)
{
	int ret = apply_scratch(p, scratch, err);
	for (unsigned i = 0; i < p->nr_steps && !ret; i++) {
		struct job_spec *j = &p->steps[i].job;
		if (*scratch && d) {
			char path[128];
			snprintf(path, sizeof(path), "iochar-data/scratch-r%d.dat", dist_rank(d));
			if (job_spec_set_files(j, path))
				ret = err_set(err, ENOMEM, "out of memory");
		}
		if (!ret)
			ret = dist_expand_files(d, j, err);
	}
	if (!ret)
		ret = plan_validate(p, err);
	return ret;
}

/* --dry-run: the run's own checks (its --out or --resume directory too,
 * not created), then its steps and first estimate on stdout (rank 0's).
 * No target opened for writing, nothing laid out or created. */
static int dry_run(struct plan_args *a, struct plan *p, struct dist *d,
		   bool scratch, struct ioc_err *err)
{
	struct eta eta;
	const char *dir = a->resume ? a->resume : a->out;
	struct plan_run_opts o = {
		.out_dir = dir,
		.resume = a->resume != NULL,
		.dist = d,
		.discipline = a->discipline,
	};
	int ret = plan_dry_run(p, &o, &eta, err);
	if (!ret && dist_is_root(d)) {
		if (scratch)
			printf("no target given: the run would use scratch file %s "
			       "(created and written if missing)\n",
			       p->nr_steps ? p->steps[0].job.files[0] : RUN_SCRATCH_FILE);
		plan_dry_print(stdout, p, &eta);
	}
	free(eta.steps);
	return ret;
}

static int run_plan(const char *cmd, struct plan_args *a, struct plan *p,
		    struct dist *d, bool scratch, struct ioc_err *err)
{
	char out[4096];
	struct status st;
	struct eta eta; /* the plan's time left, for the status line */
	bool root = dist_is_root(d);
	int ret;

	if (scratch && root)
		fprintf(stderr, "iochar: no target given: using scratch file %s "
				"(created and written if missing)\n",
			p->nr_steps ? p->steps[0].job.files[0] : RUN_SCRATCH_FILE);
	const char *dir = a->resume ? a->resume : a->out;
	if (!dir && !strcmp(cmd, "plan")) {
		default_out(out, sizeof(out), p);
		dir = out;
	}
	status_init(&st);
	st.log_every_ns = a->progress_interval_ns;
	st.next_log_ns = st.log_every_ns;
	st.eta = &eta;
	st.ranks = d ? (unsigned)dist_size(d) : 1;
	FILE *messages = root ? status_messages(&st) : NULL;
	struct runner_hooks hooks = {
		.tick = root ? status_tick : NULL,
		.fill_progress = root ? status_fill : NULL,
		.poll = root ? status_poll : NULL,
		.arg = &st,
		.stop = signals_catch(),
	};
	struct plan_run_opts o = {
		.out_dir = root ? dir : NULL,
		.resume = a->resume != NULL,
		.hooks = &hooks,
		.table = a->json || !root ? NULL : stdout,
		.json = a->json && root ? stdout : NULL,
		.progress = root ? (messages ? messages : stderr) : NULL,
		.dist = d,
		.eta = &eta,
		.discipline = a->discipline,
		.app_capture = app_capture_ops(),
	};
	ret = plan_run(p, &o, err);
	status_done(&st);
	/* each scaling step's prediction into results.json, and in the text
	 * why it stops growing, by the model (docs/model.md) */
	if (!ret && dir && root)
		ret = plan_model_write(dir, a->json ? NULL : stdout, err);
	if (dir && root && access(dir, F_OK) == 0) /* not for a plan refused before it */
		fprintf(stderr, "iochar: results in %s/\n", dir);
	return ret;
}

int cmd_plan(int argc, char **argv)
{
	const char *cmd = argv[0];
	bool one_step = strcmp(cmd, "plan") != 0;
	struct plan_args a = {0};
	struct plan p = {0};
	struct ioc_err err = {0}, local = {0};
	struct dist *d = NULL;
	bool scratch = false;
	char *text = NULL;
	int ret = dist_start(&d, &err);

	if (ret) {
		if (err.msg[0])
			fprintf(stderr, "iochar: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	bool root = dist_is_root(d);
	ret = parse_args(argc, argv, one_step, &a, &local);
	if (!ret && a.help) {
		if (root)
			print_help(cmd);
		goto out;
	}
	if (!ret && a.list) {
		if (root)
			list_builtins();
		goto out;
	}
	if (!ret && one_step)
		ret = check_unused(cmd, &a, &local);
	if (!ret && one_step) {
		char t[128];
		snprintf(t, sizeof(t), "[%s]\nmode=%s\n", cmd, cmd);
		ret = plan_parse(t, cmd, a.overrides, a.nr_overrides, &p, &local);
	} else if (!ret) {
		ret = plan_load(a.plan, a.overrides, a.nr_overrides, &p, &local);
	}
	/* a resumed plan runs on the targets its results record: on one
	 * host they are given to the steps that name none; over many, each
	 * rank names its own (%h, %r, a scratch file each), and rank 0's,
	 * which the results record, are checked once expanded */
	if (!ret && a.resume && !d)
		ret = resume_targets_apply(&p, a.resume, &local);
	if (!ret && plan_text(&p, &text))
		ret = err_set(&local, ENOMEM, "out of memory");
	if (!ret)
		ret = prepare(d, &p, &scratch, &local);
	if (!ret && a.resume && d && root)
		ret = resume_targets_apply(&p, a.resume, &local);
	ret = dist_agree(d, text ? text : "", ret, &local, &err);
	if (!ret && a.dry_run)
		ret = dry_run(&a, &p, d, scratch, &err);
	else if (!ret)
		ret = run_plan(cmd, &a, &p, d, scratch, &err);
out:
	free(text);
	free(a.overrides);
	plan_free(&p);
	int status = 0;
	if (ret) {
		if (root)
			fprintf(stderr, "iochar: %s\n", err.msg);
		status = ret == -EINTR ? EXIT_SIGNAL : err.usage ? EXIT_USAGE : 1;
	}
	return dist_finish(d, status);
}
