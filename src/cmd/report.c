/* report.c - `iochar report DIR|FILE... -o out.html`: the HTML report of
 * one or more result sets (src/report/report.h). Every input is read and
 * checked before anything is written; the page is written to a temporary
 * file and renamed, so a failure never leaves half a report, and never
 * over data iochar did not write (output/results_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/report_args.h"
#include "model/fit_file.h"
#include "model/report_preds.h"
#include "report/report.h"
#include "report/app_text.h"
#include "report/report_app.h"
#include "report/results_read.h"
#include "cmd/report_shapes.h"

static const char usage[] =
	"usage: iochar report DIR|FILE... -o OUT.html [--fit=FIT] [--replay=RUN.json]\n"
	"       iochar report APP_DIR... --output-format=text\n"
	"       iochar report A1 A2 [...] -- B1 B2 [...] -o OUT.html\n";

static const char about[] =
	"One self-contained HTML page (inline CSS and SVG, no script, nothing\n"
	"fetched) of plan results directories (iochar plan --out DIR) or run JSON\n"
	"files (iochar run --output-format=json): summary table, charts, the\n"
	"environment and every step's parameters; with several, a comparison\n"
	"('--' between sides of repeated runs, as for 'iochar compare').\n"
	"-o, the page to write, is required. Its \"Predicted beside measured\" uses\n"
	"the model fitted on each set's own single-target and scaling steps, or\n"
	"the model file --fit gives (iochar model fit -o FIT). An application run\n"
	"(iochar app --out DIR) shows its benchmark beside the device, and with\n"
	"--replay a replay of one of its traces against the original;\n"
	"--output-format=text prints application runs' tables instead.\n";

struct page {
	const struct rs_set *sets;
	const struct report_args *a;
	const struct mdl_fit *fit; /* --fit; NULL: each set's self-fit */
	const struct report_app_extras *x;
};

/* --replay's runs, each checked to replay a trace of an app run given;
 * replays[] is zeroed first and freed on failure. */
static int load_replays(const struct report_args *a, const struct rs_set *sets,
			struct rs_set *replays, struct ioc_err *err)
{
	memset(replays, 0, sizeof(*replays) * REPORT_MAX_SETS);
	for (unsigned i = 0; i < a->nr_replays; i++) {
		unsigned k;
		int ret = results_read(a->replays[i], &replays[i], err);
		if (!ret && !report_app_match(sets, a->nr_inputs, &replays[i], &k))
			ret = err_usage(err, EINVAL,
					"--replay=%s: replays no trace of the application runs given "
					"(a run JSON of iochar run --read_iolog=DIR/trace-TN.bin)",
					a->replays[i]);
		if (ret) {
			report_args_free_sets(replays, i + 1);
			return ret;
		}
	}
	return 0;
}

static int write_page(const void *arg, FILE *f)
{
	const struct page *p = arg;
	unsigned n = p->a->nr_inputs;
	/* the model (fitted on each set's own steps, or --fit's) beside its
	 * measurements */
	struct report_preds *preds = calloc(n ? n : 1, sizeof(*preds));
	int ret = preds ? 0 : -ENOMEM;
	for (unsigned i = 0; !ret && i < n; i++)
		ret = mdl_report_preds(&p->sets[i], p->fit, p->a->fit, &preds[i]);
	if (!ret)
		ret = report_write_html_ext(p->sets, n, p->a->side_runs, p->a->nr_sides, preds, p->x,
					    f);
	for (unsigned i = 0; preds && i < n; i++)
		report_preds_free(&preds[i]);
	free(preds);
	return ret;
}

/* --output-format=text: application runs' tables on stdout, nothing else. */
static int report_text(const struct report_args *a)
{
	struct rs_set sets[REPORT_MAX_SETS];
	struct ioc_err err = {0};
	if (a->output || a->nr_replays || a->fit) {
		fprintf(stderr, "iochar report: --output-format=text: prints application runs' "
			"tables to standard output (%s is for the HTML report)\n",
			a->output ? "-o" : a->nr_replays ? "--replay" : "--fit");
		return EXIT_USAGE;
	}
	if (report_args_load(a, sets, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	int status = 0;
	for (unsigned i = 0; i < a->nr_inputs && !status; i++)
		if (!sets[i].app) {
			fprintf(stderr, "iochar report: %s: not an application run (--output-format="
				"text is for those; the report of other results is HTML)\n",
				a->inputs[i]);
			status = EXIT_USAGE;
		}
	for (unsigned i = 0; i < a->nr_inputs && !status; i++)
		if ((i && fputc('\n', stdout) == EOF) ||
		    report_app_write_text(sets[i].name, sets[i].app, stdout))
			status = 1;
	report_args_free_sets(sets, a->nr_inputs);
	return status;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct rs_set sets[REPORT_MAX_SETS];
	struct ioc_err err = {0};

	if (report_args_parse(argc, argv, &a, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (a.help) {
		report_args_help(usage, about, stdout);
		return 0;
	}
	if (a.nr_inputs && a.format && !strcmp(a.format, "text") && !a.predicted)
		return report_text(&a);
	if (!a.nr_inputs || !a.output || a.format || a.predicted) {
		fprintf(stderr, "iochar report: %s\n",
			a.format ? "--output-format: the report is HTML (text: application runs' tables); see 'iochar compare' for json and csv"
			: a.predicted ? "--predicted: the report always shows the predictions (--fit=FIT: another model's)"
			: !a.nr_inputs ? "no results given; see 'iochar report --help'"
			: "-o OUT.html is required; see 'iochar report --help'");
		return EXIT_USAGE; /* one line, not the whole help */
	}
	struct mdl_fit *fit = a.fit ? malloc(sizeof(*fit)) : NULL;
	if (a.fit && !fit) {
		fprintf(stderr, "iochar report: out of memory\n");
		return 1;
	}
	/* the fit is read with the results: a bad one writes nothing */
	if (report_args_check_output(&a, &err) || (fit && mdl_fit_load(a.fit, fit, &err)) ||
	    report_args_load(&a, sets, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		free(fit);
		return err.usage ? EXIT_USAGE : 1;
	}
	static struct rs_set replays[REPORT_MAX_SETS];
	static struct report_shape shapes[8];
	if (load_replays(&a, sets, replays, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		report_args_free_sets(sets, a.nr_inputs);
		free(fit);
		return err.usage ? EXIT_USAGE : 1;
	}
	struct report_app_extras x = {
		.replays = replays, .nr_replays = a.nr_replays, .shapes_plan = REPORT_SHAPES_PLAN,
		.shapes = shapes,
		.nr_shapes = report_shapes_of_builtin(REPORT_SHAPES_PLAN, shapes, 8)};
	struct page page = {sets, &a, fit, &x};
	int status = 0;
	if (report_args_write(&a, write_page, &page, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		status = err.usage ? EXIT_USAGE : 1;
	} else {
		fprintf(stderr, "iochar: report in %s\n", a.output);
	}
	report_args_free_sets(sets, a.nr_inputs);
	report_args_free_sets(replays, a.nr_replays);
	free(fit);
	return status;
}
