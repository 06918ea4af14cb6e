/* model_args.c - see model_args.h. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/model_args.h"

enum { O_FIGURES = 256, O_RESULTS, O_CONFIG, O_FORMAT, O_LIMIT, O_FIT };

static const struct option opts[] = {
	{"figures", required_argument, NULL, O_FIGURES},
	{"results", required_argument, NULL, O_RESULTS},
	{"config", required_argument, NULL, O_CONFIG},
	{"output-format", required_argument, NULL, O_FORMAT},
	{"latency-limit", required_argument, NULL, O_LIMIT},
	{"fit", required_argument, NULL, O_FIT},
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int add(const char **list, unsigned *n, const char *v, const char *what,
	       struct ioc_err *err)
{
	if (*n >= MODEL_MAX_INPUTS)
		return err_usage(err, E2BIG, "--%s: at most %d", what, MODEL_MAX_INPUTS);
	list[(*n)++] = v;
	return 0;
}

/* "2", "2ms", "500us", "0.5ms". */
static int limit(const char *v, double *ms, struct ioc_err *err)
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
	*ms = x;
	return 0;
}

/* The option getopt just read, for messages. */
static const char *last_opt(int argc, char **argv)
{
	return optind - 1 >= 0 && optind - 1 < argc ? argv[optind - 1] : "?";
}

static int one(struct model_args *a, int c, int argc, char **argv, struct ioc_err *err)
{
	switch (c) {
	case O_FIGURES:
		return add(a->figures, &a->nr_figures, optarg, "figures", err);
	case O_RESULTS:
		return add(a->results, &a->nr_results, optarg, "results", err);
	case O_FIT:
		a->fit = optarg;
		return 0;
	case O_CONFIG:
		a->config = optarg;
		return 0;
	case O_FORMAT:
		if (strcmp(optarg, "csv") && strcmp(optarg, "json") && strcmp(optarg, "normal"))
			return err_usage(err, EINVAL, "--output-format=%s: expected normal, csv or json", optarg);
		a->format = optarg;
		return 0;
	case O_LIMIT:
		return limit(optarg, &a->latency_limit_ms, err);
	case 'o':
		a->output = optarg;
		return 0;
	case 'h':
		a->help = true;
		return 0;
	case ':':
		return err_usage(err, EINVAL, "%s: needs a value", last_opt(argc, argv));
	default:
		return err_usage(err, EINVAL, "%s: unknown option; see 'iochar model --help'",
				 last_opt(argc, argv));
	}
}

int model_args_parse(int argc, char **argv, struct model_args *a, struct ioc_err *err)
{
	int c, ret;

	memset(a, 0, sizeof(*a));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", opts, NULL)) != -1)
		if ((ret = one(a, c, argc, argv, err)))
			return ret;
	if (a->help)
		return 0;
	if (optind >= argc)
		return err_usage(err, EINVAL, "needs fit, predict, loo or explain; see 'iochar model --help'");
	a->sub = argv[optind++];
	if (strcmp(a->sub, "fit") && strcmp(a->sub, "predict") && strcmp(a->sub, "loo") &&
	    strcmp(a->sub, "explain"))
		return err_usage(err, EINVAL, "'%s': expected fit, predict, loo or explain", a->sub);
	/* options may follow the subcommand and the model file */
	for (int k = optind; k < argc;) {
		if (argv[k][0] != '-') {
			bool takes = !strcmp(a->sub, "predict") ? !a->fit
				     : !strcmp(a->sub, "explain") && !a->nr_results;
			if (!takes)
				return err_usage(err, EINVAL, "'%s': unexpected argument", argv[k]);
			if (!strcmp(a->sub, "predict"))
				a->fit = argv[k];
			else
				a->results[a->nr_results++] = argv[k];
			k++;
			continue;
		}
		optind = k;
		if ((c = getopt_long(argc, argv, "+:o:h", opts, NULL)) == -1)
			break;
		if ((ret = one(a, c, argc, argv, err)))
			return ret;
		k = optind;
	}
	return 0;
}
