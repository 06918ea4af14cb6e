/* report_args.c - see report_args.h. */
#include "cmd/report_args.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "output/results_file.h"
#include "report/results_read.h"

/* A "--" closes the side being read; 0 or -EINVAL when it is empty. */
static int close_side(struct report_args *a, struct ioc_err *err)
{
	if (a->nr_inputs == a->side_first)
		return err_usage(err, EINVAL, "--: no result set %s it (a side of repeated "
				 "runs needs at least one)", a->nr_sides ? "between it and the "
				 "previous '--'" : "before");
	a->side_runs[a->nr_sides++] = a->nr_inputs - a->side_first;
	a->side_first = a->nr_inputs;
	return 0;
}

/* A set given twice in one side would count one run as two. */
static int check_sides(const struct report_args *a, struct ioc_err *err)
{
	for (unsigned s = 0, first = 0; s < a->nr_sides; first += a->side_runs[s++])
		for (unsigned i = first; i < first + a->side_runs[s]; i++)
			for (unsigned k = first; k < i; k++)
				if (!strcmp(a->inputs[i], a->inputs[k]))
					return err_usage(err, EINVAL, "%s: given twice in one side "
							 "(a repeat must be another run)",
							 a->inputs[i]);
	return 0;
}

/* Every positional: a result set, or "--" between sides. */
static int add_input(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err)
{
	struct report_args *a = obj;

	(void)o;
	if (!strcmp(v, "--")) {
		a->sides_given = true;
		return close_side(a, err);
	}
	if (a->nr_inputs >= REPORT_MAX_SETS)
		return err_usage(err, E2BIG, "%s: at most %d result sets", v,
				 REPORT_MAX_SETS);
	a->inputs[a->nr_inputs++] = v;
	return 0;
}

/* report --replay=RUN.json, repeatable. */
static int add_replay(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err)
{
	struct report_args *a = obj;

	(void)o;
	if (!*v)
		return err_usage(err, EINVAL, "--replay: needs a run JSON file");
	if (a->nr_replays >= REPORT_MAX_SETS)
		return err_usage(err, E2BIG, "--replay=%s: at most %d replays", v,
				 REPORT_MAX_SETS);
	a->replays[a->nr_replays++] = v;
	return 0;
}

#define RROW(F, nm, ty) ARG_ROW(struct report_args, F, nm, ty)

static const struct arg_def rows[] = {
	{.o.name = "input", .o.type = OPT_CUSTOM, .o.parse = add_input,
	 .flags = ARG_POS | ARG_MANY, .o.arg = "DIR|FILE",
	 .o.help = "a plan results directory or a run JSON file; '--' "
		   "between sides of repeated runs"},
	{ARG_STR(struct report_args, output, "output"), .letter = 'o',
	 .label = "-o", .missing = "%s: needs a file name", .o.arg = "FILE",
	 .o.help = "the file to write: a new file or one iochar wrote, never "
		   "one of the inputs"},
	{RROW(force, "force", OPT_BOOL),
	 .o.help = "write it over any existing file"},
	{RROW(predicted, "predicted", OPT_BOOL),
	 .o.help = "compare: add the model's side, each workload measured beside "
		   "predicted (error, bound, utilization)"},
	{ARG_STR(struct report_args, fit, "fit"), .o.arg = "FIT",
	 .missing = "%s: needs a model file (iochar model fit -o FIT)",
	 .o.help = "predict with this model file instead of the model fitted on "
		   "each set's own single-target and scaling steps"},
	{.o.name = "replay", .o.type = OPT_CUSTOM, .o.parse = add_replay, .o.arg = "RUN.json",
	 .o.help = "report: an iochar run --read_iolog=DIR/trace-TN.bin "
		   "--output-format=json result, shown against the application run whose "
		   "trace it replays (repeatable)"},
	{ARG_STR(struct report_args, format, "output-format"),
	 .missing = "%s: needs normal, json or csv", .o.arg = "FMT",
	 .o.help = "compare: normal, json or csv (the report is HTML)"},
};

static struct args_spec spec(const char *usage, const char *about)
{
	return (struct args_spec){
		.usage = usage,
		.about = about,
		ARGS_TABLE(rows),
		.flags = ARGS_DASHDASH_WORD,
		.unknown = "%s: unknown option; see '%s --help'",
	};
}

void report_args_help(const char *usage, const char *about, FILE *f)
{
	struct args_spec s = spec(usage, about);

	args_help(&s, f);
}

int report_args_parse(int argc, char **argv, struct report_args *a,
		      struct ioc_err *err)
{
	struct args_spec s = spec("", NULL);
	int ret;

	memset(a, 0, sizeof(*a));
	ret = args_parse(&s, argc, argv, a, err);
	if (ret == ARGS_HELP) {
		a->help = 1;
		return 0;
	}
	if (ret)
		return ret;
	if (a->sides_given && a->nr_inputs == a->side_first)
		return err_usage(err, EINVAL, "--: no result set after the last '--'");
	if (!a->sides_given) {
		for (unsigned k = 0; k < a->nr_inputs; k++)
			a->side_runs[k] = 1;
		a->nr_sides = a->nr_inputs;
	} else {
		a->side_runs[a->nr_sides++] = a->nr_inputs - a->side_first;
	}
	return check_sides(a, err);
}

void report_args_free_sets(struct rs_set *sets, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		rs_set_free(&sets[i]);
}

int report_args_load(const struct report_args *a, struct rs_set *sets,
		     struct ioc_err *err)
{
	memset(sets, 0, a->nr_inputs * sizeof(*sets));
	for (unsigned i = 0; i < a->nr_inputs; i++) {
		int ret = results_read(a->inputs[i], &sets[i], err);
		if (ret) {
			report_args_free_sets(sets, i + 1);
			return ret;
		}
	}
	return 0;
}

/* Is out one of the files reading input reads: input itself, or for a
 * results directory its results.json or a file in its steps/? */
static bool reads_file(const char *input, const char *out)
{
	char p[4200], *copy;
	bool same = results_file_same(out, input);

	snprintf(p, sizeof(p), "%s/results.json", input);
	same = same || results_file_same(out, p);
	snprintf(p, sizeof(p), "%s/steps", input);
	if (!same && (copy = strdup(out))) {
		same = results_file_same(dirname(copy), p);
		free(copy);
	}
	return same;
}

int report_args_check_output(const struct report_args *a, struct ioc_err *err)
{
	for (unsigned i = 0; i < a->nr_inputs; i++)
		if (reads_file(a->inputs[i], a->output))
			return err_usage(err, EEXIST,
					 "-o %s: input %s reads it; refusing to "
					 "write over it",
					 a->output, a->inputs[i]);
	return results_file_check("-o", a->output, a->force, err);
}

int report_args_write(const struct report_args *a,
		      int (*write)(const void *arg, FILE *f), const void *arg,
		      struct ioc_err *err)
{
	struct results_file rf;
	int ret = report_args_check_output(a, err);

	if (!ret)
		ret = results_file_open(&rf, "-o", a->output, a->force, err);
	if (ret)
		return ret;
	ret = write(arg, rf.f);
	if (ret) {
		results_file_abort(&rf);
		return err_set(err, -ret, "-o %s: %s", a->output, strerror(-ret));
	}
	ret = results_file_commit(&rf);
	if (ret)
		return err_set(err, -ret, "-o %s: %s (left as it was)", a->output,
			       strerror(-ret));
	return 0;
}
