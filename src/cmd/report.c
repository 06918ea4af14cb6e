/* report.c - `iochar report DIR|FILE... -o out.html`: the HTML report of
 * one or more result sets (src/report/report.h). Every input is read and
 * checked before anything is written; the page is written to a temporary
 * file and renamed, so a failure never leaves half a report, and never
 * over data iochar did not write (output/results_file.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/report_args.h"
#include "report/report.h"

static const char usage[] =
	"usage: iochar report DIR|FILE... -o OUT.html\n"
	"\n"
	"One self-contained HTML page (inline CSS and SVG, no script, nothing\n"
	"fetched) of plan results directories (iochar plan --out DIR) or run JSON\n"
	"files (iochar run --output-format=json): summary table, charts, the\n"
	"environment and every step's parameters; with several, a comparison.\n"
	"\n"
	"  -o, --output=FILE   the page to write (required): a new file or one\n"
	"                      iochar wrote, never one of the inputs\n"
	"      --force         write it over any existing file\n";

struct page {
	const struct rs_set *sets;
	unsigned n;
};

static int write_page(const void *arg, FILE *f)
{
	const struct page *p = arg;
	return report_write_html(p->sets, p->n, f);
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
	if (report_args_check_output(&a, &err) || report_args_load(&a, sets, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	struct page page = {sets, a.nr_inputs};
	int status = 0;
	if (report_args_write(&a, write_page, &page, &err)) {
		fprintf(stderr, "iochar report: %s\n", err.msg);
		status = err.usage ? EXIT_USAGE : 1;
	} else {
		fprintf(stderr, "iochar: report in %s\n", a.output);
	}
	report_args_free_sets(sets, a.nr_inputs);
	return status;
}
