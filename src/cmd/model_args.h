/* model_args.h - the command line of `iochar model fit|predict|loo|explain`. */
#ifndef IOCHAR_CMD_MODEL_ARGS_H
#define IOCHAR_CMD_MODEL_ARGS_H

#include <stdbool.h>
#include <stdio.h>

#include "util/err.h"

#define MODEL_MAX_INPUTS 16

struct model_args {
	const char *sub;            /* "fit", "predict", "loo", "explain" */
	const char *fit;            /* predict: the model file; explain: --fit */
	const char *figures[MODEL_MAX_INPUTS];
	unsigned nr_figures;
	const char *results[MODEL_MAX_INPUTS];
	unsigned nr_results;
	const char *config;         /* predict: a configuration INI */
	const char *output;         /* -o; NULL: stdout */
	bool force;                 /* -o over a file iochar did not write */
	const char *format;         /* --output-format; NULL: the default */
	double latency_limit_ms;    /* --latency-limit; 0: not given */
	bool help;
};

/* Parse argv (argv[0] "model"). 0 or -EINVAL with a usage message. */
int model_args_parse(int argc, char **argv, struct model_args *a, struct ioc_err *err);

/* The generated help: usage, what each subcommand does, the options. */
void model_args_help(FILE *f);

#endif
