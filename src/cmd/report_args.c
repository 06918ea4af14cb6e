/* report_args.c - see report_args.h. */
#include "cmd/report_args.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/results_file.h"
#include "report/results_read.h"

/* The value of "--name=V", "--name V" or "-o V" at argv[*i]; NULL if
 * argv[*i] is not that option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name,
			     const char *shortname, bool *missing)
{
	size_t n = strlen(name);
	const char *s = argv[*i];
	*missing = false;
	if (!strncmp(s, name, n) && s[n] == '=')
		return s + n + 1;
	if (!strcmp(s, name) || (shortname && !strcmp(s, shortname))) {
		if (*i + 1 >= argc) {
			*missing = true;
			return NULL;
		}
		return argv[++*i];
	}
	return NULL;
}

int report_args_parse(int argc, char **argv, struct report_args *a,
		      struct ioc_err *err)
{
	memset(a, 0, sizeof(*a));
	for (int i = 1; i < argc; i++) {
		const char *v;
		bool missing;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			a->help = 1;
			return 0;
		}
		if ((v = opt_value(argc, argv, &i, "--output", "-o", &missing)) || missing) {
			if (missing)
				return err_usage(err, EINVAL, "%s: needs a file name", argv[i]);
			a->output = v;
			continue;
		}
		if (!strcmp(argv[i], "--force")) {
			a->force = true;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--output-format", NULL, &missing)) || missing) {
			if (missing)
				return err_usage(err, EINVAL, "%s: needs normal, json or csv", argv[i]);
			a->format = v;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return err_usage(err, EINVAL, "%s: unknown option; see '%s --help'",
					 argv[i], argv[0]);
		if (a->nr_inputs >= REPORT_MAX_SETS)
			return err_usage(err, E2BIG, "%s: at most %d result sets", argv[i],
					 REPORT_MAX_SETS);
		a->inputs[a->nr_inputs++] = argv[i];
	}
	return 0;
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
