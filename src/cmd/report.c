/* report.c - `iochar report DIR|FILE... -o out.html`: the HTML report of
 * one or more result sets (src/report/report.h). Every input is read and
 * checked before anything is written; the page is written to a temporary
 * file and renamed, so a failure never leaves half a report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/report_args.h"
#include "model/report_preds.h"
#include "report/report.h"
#include "util/atomic_file.h"

static const char usage[] =
	"usage: iochar report DIR|FILE... -o OUT.html\n"
	"\n"
	"One self-contained HTML page (inline CSS and SVG, no script, nothing\n"
	"fetched) of plan results directories (iochar plan --out DIR) or run JSON\n"
	"files (iochar run --output-format=json): summary table, charts, the\n"
	"environment and every step's parameters; with several, a comparison.\n"
	"\n"
	"  -o, --output=FILE   the page to write (required)\n";

static int write_page(const char *out, const struct rs_set *sets, unsigned n)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, out);
	if (ret) {
		fprintf(stderr, "iochar report: %s: cannot create: %s\n", out, strerror(-ret));
		return 1;
	}
	/* the model fitted on each set's own steps, beside its measurements */
	struct report_preds *preds = calloc(n ? n : 1, sizeof(*preds));
	ret = preds ? 0 : -ENOMEM;
	for (unsigned i = 0; !ret && i < n; i++)
		ret = mdl_report_preds(&sets[i], &preds[i]);
	if (!ret)
		ret = report_write_html_preds(sets, n, preds, af.f);
	for (unsigned i = 0; preds && i < n; i++)
		report_preds_free(&preds[i]);
	free(preds);
	if (ret) {
		atomic_file_abort(&af);
		fprintf(stderr, "iochar report: %s: %s\n", out, strerror(-ret));
		return 1;
	}
	ret = atomic_file_commit(&af);
	if (ret) {
		fprintf(stderr, "iochar report: %s: %s\n", out, strerror(-ret));
		return 1;
	}
	return 0;
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
		fputs(usage, stdout);
		return 0;
	}
	if (!a.nr_inputs || !a.output || a.format) {
		fprintf(stderr, "iochar report: %s\n%s",
			a.format ? "--output-format: the report is HTML; see 'iochar compare' for json and csv"
			: !a.nr_inputs ? "no results given" : "-o OUT.html is required",
			usage);
		return EXIT_USAGE;
	}
	if (report_args_load(&a, sets, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	int status = write_page(a.output, sets, a.nr_inputs);
	if (!status)
		fprintf(stderr, "iochar: report in %s\n", a.output);
	report_args_free_sets(sets, a.nr_inputs);
	return status;
}
