/* report_args.h - the command line shared by `iochar report` and `iochar
 * compare`: result sets (directories or run JSON files), an output file,
 * an output format. */
#ifndef IOCHAR_CMD_REPORT_ARGS_H
#define IOCHAR_CMD_REPORT_ARGS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/results_model.h"
#include "util/err.h"

#define REPORT_MAX_SETS 32

struct report_args {
	const char *inputs[REPORT_MAX_SETS];
	unsigned nr_inputs;
	/* sides of repeated runs: "A1 A2 -- B1 B2" gives side_runs {2, 2};
	 * without "--" every input is a side of one run */
	unsigned side_runs[REPORT_MAX_SETS];
	unsigned nr_sides;
	bool sides_given;           /* a "--" was on the command line */
	const char *output;         /* -o / --output; NULL: none given */
	const char *format;         /* --output-format; NULL: none given */
	bool force;                 /* --force: write -o over anything */
	bool predicted;             /* compare --predicted: add the model side */
	const char *fit;            /* --fit: a model file (iochar model fit);
				     * NULL: each set's own self-fit */
	const char *replays[REPORT_MAX_SETS]; /* report --replay=RUN.json, each */
	unsigned nr_replays;
	int help;
	unsigned side_first;        /* parsing: the side being read's first */
};

/* Parse argv (argv[0] the command): inputs, options anywhere, "--"
 * between sides of repeated runs (none may be empty, none may name a set
 * twice). 0 or -EINVAL with a usage message. */
int report_args_parse(int argc, char **argv, struct report_args *a,
		      struct ioc_err *err);

/* The generated help: usage and about (the command's), then the options
 * report and compare share. */
void report_args_help(const char *usage, const char *about, FILE *f);

/* Read every input into sets[0..a->nr_inputs) (zeroed first); on failure
 * all are freed. 0 or -errno with a message. */
int report_args_load(const struct report_args *a, struct rs_set *sets,
		     struct ioc_err *err);

/* May the output go where -o says (output/results_file.h), and is it none
 * of the files the inputs are read from (an input file, a results
 * directory's results.json or steps/)? Only reads. 0, or -errno with a
 * usage message. */
int report_args_check_output(const struct report_args *a, struct ioc_err *err);

/* Write the output file with write(arg, f), through a temporary file
 * renamed into place: on any failure the old file is left as it was. 0, or
 * -errno with a message (a usage error for a refused or unusable path). */
int report_args_write(const struct report_args *a,
		      int (*write)(const void *arg, FILE *f), const void *arg,
		      struct ioc_err *err);

void report_args_free_sets(struct rs_set *sets, unsigned n);

#endif
