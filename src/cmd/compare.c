/* compare.c - `iochar compare A B [...]`: every workload of the result
 * sets side by side, the difference from the first set in %, and whether
 * it is larger than the run-to-run noise (src/report/compare.h states the
 * rule). As a text table, JSON or CSV. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/report_args.h"
#include "report/compare.h"

static const char usage[] =
	"usage: iochar compare DIR|FILE DIR|FILE [...] [--output-format=normal|json|csv]\n"
	"                      [-o FILE [--force]]\n"
	"\n"
	"Matches the workloads of plan results directories or run JSON files (by\n"
	"step label), prints each with its value, the difference from the first\n"
	"set and whether it exceeds the noise of the per-second series: 3 x the\n"
	"combined standard error of the per-second IOPS. Workloads only some sets\n"
	"have are listed as missing. -o writes FILE only when it is new or a\n"
	"file iochar wrote (--force: any), never over one of the inputs.\n";

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
		fputs(usage, stdout);
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
	if (a.nr_inputs < 2) {
		fprintf(stderr, "iochar compare: needs two result sets or more\n%s", usage);
		return EXIT_USAGE;
	}
	if ((a.output && report_args_check_output(&a, &err)) ||
	    report_args_load(&a, sets, &err)) {
		fprintf(stderr, "iochar compare: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	int status = 1;
	if (compare_build(sets, a.nr_inputs, &t)) {
		fprintf(stderr, "iochar compare: out of memory\n");
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
	return status;
}
