/* app.c - `iochar app BENCH ...`: a real database benchmark on the device
 * under test (src/app/). Here: the arguments, the output directory, the
 * signals, what is printed and the exit status (0 every point measured,
 * 1 a failure while running, with its reason, 2 bad input, 130 stopped). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "cli/args.h"
#include "cmd/app_args.h"
#include "cmd/app_capture.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"

/* Is dir missing or empty? */
static bool dir_usable(const char *dir, struct ioc_err *err)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	bool empty = true;

	if (stat(dir, &st))
		return errno == ENOENT ? true : !err_usage(err, errno, "--out %s: %s", dir,
							   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return !err_usage(err, ENOTDIR, "--out %s: not a directory", dir);
	if (!(d = opendir(dir)))
		return !err_usage(err, errno, "--out %s: %s", dir, strerror(errno));
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty)
		return !err_usage(err, EEXIST, "--out %s: not empty (results would mix)", dir);
	return true;
}

/* The output directory: --out (made now), or a temporary one removed at
 * the end (no traces are kept then). */
static int make_out(const struct app_args *a, struct app_run *r, char *tmp, size_t size,
		    struct ioc_err *err)
{
	if (a->out) {
		if (mkdir(a->out, 0755) && errno != EEXIST)
			return err_set(err, errno, "--out %s: %s", a->out, strerror(errno));
		r->outdir = a->out;
		return 0;
	}
	snprintf(tmp, size, "/tmp/iochar-app-out-XXXXXX");
	if (!mkdtemp(tmp))
		return err_set(err, errno, "app: %s: %s", tmp, strerror(errno));
	r->outdir = tmp;
	return 0;
}

static int write_results(const struct app_args *a, struct app_run *r, struct ioc_err *err)
{
	char path[1200];
	int ret = 0;

	if (a->out) {
		snprintf(path, sizeof(path), "%s/results.json", a->out);
		ret = app_write_json(r, path, err);
		snprintf(path, sizeof(path), "%s/results.csv", a->out);
		if (!ret)
			ret = app_write_csv(r, path, err);
	}
	if (a->json)
		app_write_json_file(r, stdout);
	else
		app_write_text(r, stdout);
	return ret;
}

static int exit_status(const struct app_run *r, int ret, atomic_bool *stop)
{
	if (atomic_load(stop))
		return EXIT_SIGNAL;
	if (ret)
		return 1;
	for (unsigned i = 0; i < r->npoints; i++)
		if (r->points[i].error[0]) {
			fprintf(stderr, "iochar: app: %u thread(s): %s\n", r->points[i].threads,
				r->points[i].error);
			return 1;
		}
	return 0;
}

static int run_app(struct app_args *a, struct app_run *r, struct ioc_err *err)
{
	char tmp[64] = "";
	atomic_bool *stop = signals_catch();
	int ret = make_out(a, r, tmp, sizeof(tmp), err);

	if (ret) {
		fprintf(stderr, "iochar: %s\n", err->msg);
		return 1;
	}
	r->capture = a->no_capture || !a->out ? NULL : app_capture_ops();
	r->no_capture_why = a->no_capture ? "--no-capture"
					  : "no --out: traces are kept only in an output directory";
	ret = app_execute(r, stop, err);
	if (ret && ret != -EINTR)
		fprintf(stderr, "iochar: %s\n", err->msg);
	struct ioc_err werr = {0};
	if (write_results(a, r, &werr)) {
		fprintf(stderr, "iochar: %s\n", werr.msg);
		ret = ret ? ret : -EIO;
	}
	if (tmp[0])
		app_rm_tree(tmp);
	return exit_status(r, ret, stop);
}

int cmd_app(int argc, char **argv)
{
	struct app_args a = {0};
	struct app_run *r = calloc(1, sizeof(*r));
	struct ioc_err err = {0};
	int ret;

	if (!r)
		return 1;
	ret = app_args_parse(argc, argv, &a, r, &err);
	if (ret == ARGS_HELP) {
		free(r);
		return 0;
	}
	if (!ret && a.out && !dir_usable(a.out, &err))
		ret = -EINVAL;
	if (!ret)
		ret = app_check(r, &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		free(r);
		return err.usage ? EXIT_USAGE : 1;
	}
	ret = run_app(&a, r, &err);
	free(r->points);
	free(r);
	return ret;
}
