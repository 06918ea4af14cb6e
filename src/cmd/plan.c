/* plan.c - `iochar plan`, and `search`, `curve`, `precondition`, which are
 * one-step plans built from the command line.
 *
 *   iochar plan NAME|FILE [--out DIR | --resume DIR] [--key=value ...]
 *   iochar plan --list
 *   iochar search|curve|precondition --key=value ... [--out DIR]
 *
 * Every --key=value that is not the command's own is a plan or workload
 * key applied to every step (lists allowed, as in plan files). Nothing is
 * written anywhere before the plan has parsed and every step validated. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "charz/plan.h"
#include "charz/plan_run.h"
#include "model/explain_results.h"
#include "charz/results.h"
#include "cli/run_config.h"
#include "cli/units.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "cmd/status.h"
#include "dist/dist.h"

struct plan_args {
	const char *plan;        /* name or file; NULL for the one-step commands */
	const char *out;         /* --out */
	const char *resume;      /* --resume */
	bool list, help, json;
	uint64_t progress_interval_ns; /* --progress-interval */
	const char **overrides;  /* "key=value", borrowed from argv */
	unsigned nr_overrides;
};

/* "--key=value" or "--key value" or "--flag"; the command's own options
 * are taken, every other one becomes an override. */
static int parse_args(int argc, char **argv, bool one_step,
		      struct plan_args *a, struct ioc_err *err)
{
	memset(a, 0, sizeof(*a));
	a->progress_interval_ns = STATUS_LOG_EVERY_NS;
	a->overrides = calloc((size_t)argc + 1, sizeof(char *));
	if (!a->overrides)
		return err_set(err, ENOMEM, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			a->help = true;
		} else if (!strcmp(s, "--list") && !one_step) {
			a->list = true;
		} else if (!strncmp(s, "--out=", 6)) {
			a->out = s + 6;
		} else if (!strcmp(s, "--out") || !strcmp(s, "-o") || !strcmp(s, "--resume")) {
			if (i + 1 >= argc)
				return err_usage(err, EINVAL, "%s: needs a directory", s);
			if (!strcmp(s, "--resume"))
				a->resume = argv[++i];
			else
				a->out = argv[++i];
		} else if (!strncmp(s, "--resume=", 9)) {
			a->resume = s + 9;
		} else if (!strncmp(s, "--output-format=", 16) || !strncmp(s, "--output_format=", 16)) {
			if (strcmp(s + 16, "json") && strcmp(s + 16, "normal"))
				return err_usage(err, EINVAL,
						 "--output-format=%s: accepted: normal, json", s + 16);
			a->json = !strcmp(s + 16, "json");
		} else if (!strncmp(s, "--progress-interval=", 20) ||
			   !strncmp(s, "--progress_interval=", 20)) {
			int ret = units_parse_time("progress-interval", s + 20,
						   &a->progress_interval_ns, err);
			if (ret)
				return ret;
		} else if (!strncmp(s, "--", 2) && s[2]) {
			a->overrides[a->nr_overrides++] = s + 2;
		} else if (!one_step && !a->plan) {
			a->plan = s;
		} else {
			return err_usage(err, EINVAL, "unexpected argument '%s'", s);
		}
	}
	if (a->out && a->resume)
		return err_usage(err, EINVAL, "--out and --resume: give one (--resume DIR continues DIR)");
	if (!one_step && !a->plan && !a->list && !a->help)
		return err_usage(err, EINVAL,
				 "plan: give a plan file or a built-in plan name (iochar plan --list)");
	return 0;
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
	if (!strcmp(cmd, "plan"))
		printf("usage: iochar plan NAME|FILE [--out DIR | --resume DIR] [--output-format=json]\n"
		       "                  [--progress-interval=10s] [--key=value ...]\n"
		       "       iochar plan --list\n\n"
		       "Runs every step of a plan (INI like a fio job file; any workload key may\n"
		       "take a list, and a step expands to the cross product) and writes\n"
		       "results.json, results.csv and one file per step to DIR as each step ends.\n"
		       "Plan keys: mode=fixed|search|curve|precondition, targets=each|parallel|scaling,\n"
		       "latency_limit=2ms, latency_stat=mean|p99|p99.9, latency_scope=each|total,\n"
		       "max_iodepth, max_numjobs, points=10,20,..., stop_latency=, fill_passes,\n"
		       "max_rounds, round_time, precondition=off|auto. QD and jobs are per target.\n"
		       "The rules and defaults: docs/characterize.md.\n"
		       "--progress-interval: without a terminal, a progress line this often (0: none).\n");
	else
		printf("usage: iochar %s --key=value ... [--out DIR] [--output-format=json]\n"
		       "                  [--progress-interval=10s]\n\n"
		       "A one-step plan with mode=%s; keys as in plan files and `iochar run`.\n",
		       cmd, cmd);
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

static int run_plan(const char *cmd, struct plan_args *a, struct plan *p,
		    struct dist *d, bool scratch, struct ioc_err *err)
{
	char out[4096];
	struct status st;
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
	FILE *messages = root ? status_messages(&st) : NULL;
	struct runner_hooks hooks = {
		.tick = root ? status_tick : NULL,
		.fill_progress = root ? status_fill : NULL,
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
	};
	ret = plan_run(p, &o, err);
	status_done(&st);
	/* why each scaling step stops growing, by the model (docs/model.md) */
	if (!ret && dir && root && !a->json)
		mdl_explain_scaling(dir, stdout);
	if (dir && root)
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
	if (!ret && one_step) {
		char t[128];
		snprintf(t, sizeof(t), "[%s]\nmode=%s\n", cmd, cmd);
		ret = plan_parse(t, cmd, a.overrides, a.nr_overrides, &p, &local);
	} else if (!ret) {
		ret = plan_load(a.plan, a.overrides, a.nr_overrides, &p, &local);
	}
	if (!ret && plan_text(&p, &text))
		ret = err_set(&local, ENOMEM, "out of memory");
	if (!ret)
		ret = prepare(d, &p, &scratch, &local);
	ret = dist_agree(d, text ? text : "", ret, &local, &err);
	if (!ret)
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
