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

static const char usage[] =
	"usage: iochar report DIR|FILE... -o OUT.html [--fit=FIT]\n"
	"       iochar report A1 A2 [...] -- B1 B2 [...] -o OUT.html\n";

static const char about[] =
	"One self-contained HTML page (inline CSS and SVG, no script, nothing\n"
	"fetched) of plan results directories (iochar plan --out DIR) or run JSON\n"
	"files (iochar run --output-format=json): summary table, charts, the\n"
	"environment and every step's parameters; with several, a comparison\n"
	"('--' between sides of repeated runs, as for 'iochar compare').\n"
	"-o, the page to write, is required. Its \"Predicted beside measured\" uses\n"
	"the model fitted on each set's own single-target and scaling steps, or\n"
	"the model file --fit gives (iochar model fit -o FIT).\n";

struct page {
	const struct rs_set *sets;
	const struct report_args *a;
	const struct mdl_fit *fit; /* --fit; NULL: each set's self-fit */
};

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
		ret = report_write_html_all(p->sets, n, p->a->side_runs, p->a->nr_sides, preds, f);
	for (unsigned i = 0; preds && i < n; i++)
		report_preds_free(&preds[i]);
	free(preds);
	return ret;
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
	if (!a.nr_inputs || !a.output || a.format || a.predicted) {
		fprintf(stderr, "iochar report: %s\n",
			a.format ? "--output-format: the report is HTML; see 'iochar compare' for json and csv"
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
	struct page page = {sets, &a, fit};
	int status = 0;
	if (report_args_write(&a, write_page, &page, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		status = err.usage ? EXIT_USAGE : 1;
	} else {
		fprintf(stderr, "iochar: report in %s\n", a.output);
	}
	report_args_free_sets(sets, a.nr_inputs);
	free(fit);
	return status;
}
