/* vd.c - `iochar vd rebuild`: regenerate one member of a RAID virtual
 * drive from the others, optionally while a workload runs on the VD, at
 * one or several rebuild rates (`iochar vd init` is in vd_init.c).
 *
 *     iochar vd rebuild --vd=DEF --replace=N [--force]
 *                       [--rebuild_rate=MB/s|N%[,...]]
 *                       [--rw=... --bs=... --iodepth=... --runtime=...]
 *                       [--output-format=normal|json]
 *
 * Member N (counted from 0; it may be listed in failed=) is written in
 * place: a missing file is created, as a new disk would be put in. The
 * rebuilder (vd/rebuild.h) is asynchronous, several chunks in flight, at
 * the given rate. With a workload (--rw given), the workload first runs
 * for --runtime on the VD as defined (the baseline), then again during
 * each rebuild pass (one per rate, in order), until that pass ends; the
 * foreground impact at each rate is the drop from the baseline. During a
 * rebuild, member N counts as lost above the rebuild cursor (vd/vd.h), so
 * foreground reads there are rebuilt from the others and writes below it
 * reach N. Afterwards every row is checked (scrub): the rebuilt member
 * must agree with the others. Exit 0 when it does, 1 when not or on an
 * I/O error, 2 on bad input.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blktrace_merge.h"
#include "base/json_writer.h"
#include "charz/rebuild.h"
#include "cli/args.h"
#include "cli/options.h"
#include "cli/run_config.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "cmd/vd_cmd.h"
#include "core/runner.h"
#include "vd/members.h"

/* rebuild's own options; the rest are `iochar run`'s. */
struct rebuild_args {
	uint64_t replace; /* UINT64_MAX: not given */
	const char *rates;
};

static const struct arg_def rebuild_rows[] = {
	{ARG_ROW(struct rebuild_args, replace, "replace", OPT_UINT),
	 .o.max = VD_MAX_MEMBERS - 1, .o.arg = "N",
	 .o.help = "the member to rebuild (from 0), onto the target given in "
		   "its place"},
	{ARG_STR(struct rebuild_args, rates, "rebuild_rate"),
	 .o.arg = "MB/s|N%[,...]",
	 .o.help = "rebuild rate; a comma list sweeps them"},
};

static const struct args_spec rebuild_spec = {
	.usage = "usage: iochar vd rebuild --vd=DEF --replace=N "
		 "[--rebuild_rate=MB/s|N%[,...]] [--force] [workload options "
		 "of iochar run]\n",
	.about = "Rebuilds member N of a RAID 1/5/6/10 VD while the workload "
		 "options (as\n`iochar run`, --vd=DEF included) run on the VD. "
		 "docs/vd.md.\n",
	ARGS_TABLE(rebuild_rows),
};

/* rebuild's own options out of argv (in place); *n -1 when no --replace. */
static int take_args(int *argc, char **argv, long *n, const char **rates,
		     struct ioc_err *err)
{
	struct rebuild_args a = {.replace = UINT64_MAX};
	int ret = args_take(&rebuild_spec, argc, argv, &a, err);

	*n = a.replace == UINT64_MAX ? -1 : (long)a.replace;
	*rates = a.rates;
	return ret;
}

static int rebuild_cmd(int argc, char **argv)
{
	struct run_config cfg = {0};
	struct ioc_err err = {0};
	struct vd_members *m = calloc(1, sizeof(*m));
	struct rebuild_sweep *sw = calloc(1, sizeof(*sw));
	long n;
	int ret, status = 1;

	if (!m || !sw)
		goto out;
	const char *rates = NULL;
	ret = take_args(&argc, argv, &n, &rates, &err);
	if (!ret)
		ret = rebuild_sweep_rates(rates, "--rebuild_rate", sw, &err);
	if (!ret)
		ret = run_config_parse(argc, argv, &cfg, &err);
	if (ret == RUN_CONFIG_HELP) {
		args_help(&rebuild_spec, stdout);
		status = 0;
		goto out;
	}
	if (!ret && cfg.nr_jobs != 1)
		ret = err_usage(&err, EINVAL, "vd rebuild: one job only");
	struct job_spec *job = ret ? NULL : &cfg.jobs[0];
	bool workload = job && options_is_set(job, "rw");
	if (!ret)
		ret = rebuild_sweep_check(job, n, workload, m, &err);
	if (!ret && workload)
		ret = runner_validate(job, 1, &err);
	/* validated: from here on things are written */
	if (!ret)
		ret = blktrace_merge_commit(&err);
	if (!ret)
		ret = rebuild_sweep_run(job, (unsigned)n, workload, signals_catch(), m, sw, &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		status = err.usage ? EXIT_USAGE : ret == -EINTR ? EXIT_SIGNAL : 1;
		goto out;
	}
	if (cfg.format == OUTPUT_JSON) {
		struct jw w;
		jw_init(&w, stdout, 2);
		jw_object_begin(&w);
		rebuild_sweep_json(sw, &w);
		jw_object_end(&w);
		jw_finish(&w);
	} else {
		rebuild_sweep_text(sw, stdout);
	}
	status = sw->bad ? 1 : 0;
out:
	run_config_free(&cfg);
	free(sw);
	free(m);
	return status;
}

int cmd_vd(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "rebuild") == 0)
		return rebuild_cmd(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "init") == 0)
		return vd_init_cmd(argc - 1, argv + 1);
	/* help on stdout with exit 0; a wrong call gets the usage on stderr */
	bool help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
	FILE *f = help ? stdout : stderr;
	if (!help && argc >= 2)
		fprintf(stderr, "iochar: vd: unknown subcommand '%s'\n", argv[1]);
	fprintf(f, "usage: iochar vd rebuild --vd=DEF --replace=N [--rebuild_rate=MB/s|N%%[,...]] [workload options]\n"
		   "       iochar vd init --vd=DEF [--mode=full|fast] [--size=SIZE]\n");
	if (help)
		fputs("\n"
		      "rebuild  rebuild member N of a RAID 1/5/6/10 VD onto the target given in its\n"
		      "         place, while the workload options (as `iochar run`) run on the VD;\n"
		      "         a comma list of rates sweeps them, each with its rebuild MB/s and the\n"
		      "         foreground IOPS and latency against a baseline.\n"
		      "init     write parity for every stripe (full, timed) or mark every stripe\n"
		      "         uninitialized (fast: first writes pay a whole-row reconstruct).\n"
		      "DEF is a VD definition (level=, members=, strip=, policies): docs/vd.md.\n",
		      f);
	return help ? 0 : EXIT_USAGE;
}
