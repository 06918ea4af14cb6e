/* compare.c - `iochar compare A B [...]` or `A1 A2 A3 -- B1 B2 B3`: every
 * workload of the sides (one result set each, or several repeated runs)
 * side by side, the difference from the first in %, and whether it is
 * larger than the noise (src/report/compare.h states the rules). As a
 * text table, JSON or CSV. --predicted adds the model's side: the
 * predictions are made here with src/model and handed to the report
 * layer as plain data (report/report_preds.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/report_args.h"
#include "model/fit_file.h"
#include "model/report_preds.h"
#include "report/compare.h"

static const char usage[] =
	"usage: iochar compare A B [...] [--output-format=normal|json|csv] [-o FILE [--force]]\n"
	"       iochar compare A1 A2 [...] -- B1 B2 [...] [-- C1 ...] [options]\n"
	"       iochar compare A [B ...] --predicted [--fit=FIT] [options]\n";

static const char about[] =
	"A, B: plan results directories or run JSON files. Matches their workloads\n"
	"(a plan's by step label, a run's by job name) and prints each with its\n"
	"value, the difference from the first side and whether it exceeds the\n"
	"noise. '--' separates sides of repeated runs of one configuration: the\n"
	"value is the mean of the runs and the band Welch's t on the per-run\n"
	"values (95 %, floor 5 %). Single runs: 3 x the combined standard error\n"
	"of the per-second IOPS, floor 10 % (run-to-run drift not measured).\n"
	"Verdicts: significant (the band excludes 0 and the difference reaches the\n"
	"floor), within noise (decided equal: a band no wider than the floor),\n"
	"inconclusive (a band too wide to decide), unknown (no band: runs under\n"
	"2 s, fio's results). Workloads whose parameters differ (iodepth,\n"
	"numjobs, bs, rw/mix, ioengine, direct) are not comparable (a search's best\n"
	"iodepth x numjobs is its result, not a parameter); those only some sides\n"
	"have are missing. docs/report.md has the rules.\n"
	"-o writes FILE only when it is new or a file iochar wrote (--force: any),\n"
	"never over one of the inputs.\n"
	"--predicted adds the model's side (docs/model.md): each workload measured\n"
	"beside predicted, the error, the component that binds and its utilization,\n"
	"by the model fitted on each set's own single-target and scaling steps, or\n"
	"by the model file --fit gives (iochar model fit -o FIT); one set is enough.\n";

typedef int (*table_write_fn)(const struct cmp_table *, FILE *);

struct table_out {
	const struct cmp_table *t;
	table_write_fn write;
};

static int write_table(const void *arg, FILE *f)
{
	const struct table_out *o = arg;
	return o->write(o->t, f);
}

/* The model's side: each set predicted by fit (NULL: its own self-fit). */
static int add_model(struct cmp_table *t, const struct rs_set *sets, unsigned n,
		     const struct mdl_fit *fit, const char *fit_name)
{
	struct report_preds *preds = calloc(n ? n : 1, sizeof(*preds));
	int ret = preds ? 0 : -ENOMEM;

	for (unsigned i = 0; !ret && i < n; i++)
		ret = mdl_report_preds(&sets[i], fit, fit_name, &preds[i]);
	if (!ret)
		ret = compare_add_predictions(t, preds);
	for (unsigned i = 0; preds && i < n; i++)
		report_preds_free(&preds[i]);
	free(preds);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct report_args a;
	struct rs_set sets[REPORT_MAX_SETS];
	struct ioc_err err = {0};
	struct cmp_table t;
	table_write_fn write = compare_write_text;

	if (report_args_parse(argc, argv, &a, &err)) {
		fprintf(stderr, "iochar compare: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (a.help) {
		report_args_help(usage, about, stdout);
		return 0;
	}
	if (a.format && !strcmp(a.format, "json"))
		write = compare_write_json;
	else if (a.format && !strcmp(a.format, "csv"))
		write = compare_write_csv;
	else if (a.format && strcmp(a.format, "normal")) {
		fprintf(stderr, "iochar compare: --output-format=%s: expected normal, json or csv\n",
			a.format);
		return EXIT_USAGE;
	}
	if (a.nr_replays) {
		fprintf(stderr, "iochar compare: --replay: the report's (iochar report DIR "
			"--replay=RUN.json -o OUT.html)\n");
		return EXIT_USAGE;
	}
	if (a.fit)
		a.predicted = true; /* a model file is only for the model side */
	if (a.nr_sides < (a.predicted ? 1 : 2)) {
		/* one line and where the rest is, not the whole help */
		fprintf(stderr, "iochar compare: needs two result sets or more%s; see "
			"'iochar compare --help'\n",
			a.sides_given ? " (two sides: A1 A2 -- B1 B2)" : "");
		return EXIT_USAGE;
	}
	struct mdl_fit *fit = a.fit ? malloc(sizeof(*fit)) : NULL;
	if (a.fit && !fit) {
		fprintf(stderr, "iochar compare: out of memory\n");
		return 1;
	}
	/* every input, the fit included, is read before anything is written */
	if ((a.output && report_args_check_output(&a, &err)) ||
	    (fit && mdl_fit_load(a.fit, fit, &err)) || report_args_load(&a, sets, &err)) {
		fprintf(stderr, "iochar compare: %s\n", err.msg);
		free(fit);
		return err.usage ? EXIT_USAGE : 1;
	}
	int status = 1;
	if (compare_build_sides(sets, a.side_runs, a.nr_sides, &t) ||
	    (a.predicted && add_model(&t, sets, a.nr_inputs, fit, a.fit))) {
		fprintf(stderr, "iochar compare: out of memory\n");
		compare_free(&t);
		goto out;
	}
	if (a.output) {
		struct table_out o = {&t, write};
		status = 0;
		if (report_args_write(&a, write_table, &o, &err)) {
			fprintf(stderr, "iochar compare: %s\n", err.msg);
			status = err.usage ? EXIT_USAGE : 1;
		}
	} else {
		status = write(&t, stdout) || fflush(stdout) ? 1 : 0;
	}
	compare_free(&t);
out:
	report_args_free_sets(sets, a.nr_inputs);
	free(fit);
	return status;
}
