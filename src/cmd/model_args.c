/* model_args.c - see model_args.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cmd/model_args.h"

static const char usage[] =
	"usage: iochar model fit [--figures=CSV] [--results=DIR|FILE]... [--latency-limit=2ms] [-o FIT]\n"
	"       iochar model predict FIT (--figures=CSV | --config=INI) [--output-format=normal|csv|json] [-o FILE]\n"
	"       iochar model loo --figures=CSV [--latency-limit=2ms] [--output-format=normal|csv|json]\n"
	"       iochar model explain DIR|FILE [--fit=FIT] [--output-format=normal|csv|json]\n";

static const char about[] =
	"fit      fits the I/O-path model (drives, controller, HBAs, links, host) on\n"
	"         figures tables (the columns of the disk paper's train.csv) and on\n"
	"         iochar results (single-drive runs, scaling steps), and writes it as JSON\n"
	"predict  answers for every row of a figures table (adding predicted,\n"
	"         predicted_latency_ms, bound_by, utilization, saturation_drives) or\n"
	"         for each [workload] of a configuration INI (docs/model.md)\n"
	"loo      fits on all configurations but one and predicts that one, for each:\n"
	"         the model's error on configurations it has not seen\n"
	"explain  a plan's results beside the model fitted on its own single-target\n"
	"         and scaling steps (on top of FIT): each step predicted on each target\n"
	"         set, where a scaling step stops growing and why\n";

/* --figures and --results: each may be given several times. */
static int add(void *obj, const struct option_def *o, const char *v,
	       struct ioc_err *err)
{
	struct model_args *a = obj;
	bool figures = o->off == offsetof(struct model_args, figures);
	const char **list = figures ? a->figures : a->results;
	unsigned *n = figures ? &a->nr_figures : &a->nr_results;

	if (*n >= MODEL_MAX_INPUTS)
		return err_usage(err, E2BIG, "%s: at most %d", o->name,
				 MODEL_MAX_INPUTS);
	list[(*n)++] = v;
	return 0;
}

/* "2", "2ms", "500us", "0.5ms". */
static int limit(void *obj, const struct option_def *o, const char *v,
		 struct ioc_err *err)
{
	char *end;
	double x = strtod(v, &end);

	if (!strcmp(end, "us"))
		x /= 1000;
	else if (!strcmp(end, "s"))
		x *= 1000;
	else if (*end && strcmp(end, "ms"))
		end = (char *)v;
	if (end == v || !(x > 0) || !isfinite(x))
		return err_usage(err, EINVAL, "--latency-limit=%s: expected a time > 0 (2ms, 500us)", v);
	*(double *)((char *)obj + o->off) = x;
	return 0;
}

static int format(void *obj, const struct option_def *o, const char *v,
		  struct ioc_err *err)
{
	if (strcmp(v, "csv") && strcmp(v, "json") && strcmp(v, "normal"))
		return err_usage(err, EINVAL, "--output-format=%s: expected normal, csv or json", v);
	return args_store_str(obj, o, v, err);
}

static int subcommand(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err)
{
	if (strcmp(v, "fit") && strcmp(v, "predict") && strcmp(v, "loo") &&
	    strcmp(v, "explain"))
		return err_usage(err, EINVAL, "'%s': expected fit, predict, loo or explain", v);
	return args_store_str(obj, o, v, err);
}

/* After the subcommand: predict's model file, explain's results. */
static int operand(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err)
{
	struct model_args *a = obj;
	bool predict = !strcmp(a->sub, "predict");
	bool takes = predict ? !a->fit
			     : !strcmp(a->sub, "explain") && !a->nr_results;

	(void)o;
	if (!takes)
		return err_usage(err, EINVAL, "'%s': unexpected argument", v);
	if (predict)
		a->fit = v;
	else
		a->results[a->nr_results++] = v;
	return 0;
}

#define MROW(F, nm, ty) ARG_ROW(struct model_args, F, nm, ty)
#define MSTR(F, nm) ARG_STR(struct model_args, F, nm)

static const struct arg_def rows[] = {
	{MROW(sub, "command", OPT_CUSTOM), .o.parse = subcommand,
	 .flags = ARG_POS, .o.arg = "fit|predict|loo|explain",
	 .o.help = "what to do (above)"},
	{.o.name = "operand", .o.type = OPT_CUSTOM, .o.parse = operand,
	 .flags = ARG_POS | ARG_MANY, .o.arg = "FIT|DIR|FILE",
	 .o.help = "predict: the model file; explain: the results"},
	{MROW(figures, "figures", OPT_CUSTOM), .o.parse = add, .o.arg = "CSV",
	 .o.help = "a figures table (columns: docs/model.md)"},
	{MROW(results, "results", OPT_CUSTOM), .o.parse = add,
	 .o.arg = "DIR|FILE", .o.help = "iochar results (again for more)"},
	{MSTR(config, "config"), .o.arg = "INI",
	 .o.help = "predict: a configuration INI"},
	{MSTR(fit, "fit"), .o.arg = "FIT",
	 .o.help = "explain: a fitted model to start from"},
	{MROW(latency_limit_ms, "latency-limit", OPT_CUSTOM), .o.parse = limit,
	 .o.arg = "TIME", .o.help = "fit, loo: the latency limit (2ms, 500us)"},
	{MROW(format, "output-format", OPT_CUSTOM), .o.parse = format,
	 .o.arg = "FMT", .o.help = "normal, csv or json"},
	{MSTR(output, "output"), .letter = 'o', .o.arg = "FILE",
	 .o.help = "write here (atomically) instead of stdout: a new file or one "
		   "iochar wrote"},
	{MROW(force, "force", OPT_BOOL),
	 .o.help = "-o: write over any existing file"},
};

static const struct args_spec spec = {
	.usage = usage,
	.about = about,
	ARGS_TABLE(rows),
	.flags = ARGS_PREFIX,
	.unknown = "%s: unknown option; see 'iochar model --help'",
};

void model_args_help(FILE *f)
{
	args_help(&spec, f);
}

int model_args_parse(int argc, char **argv, struct model_args *a, struct ioc_err *err)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = args_parse(&spec, argc, argv, a, err);
	if (ret == ARGS_HELP) {
		a->help = true;
		return 0;
	}
	if (!ret && !a->sub)
		return err_usage(err, EINVAL, "needs fit, predict, loo or explain; see 'iochar model --help'");
	return ret;
}
