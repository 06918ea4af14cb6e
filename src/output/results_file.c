/* results_file.c - see results_file.h. */
#define _GNU_SOURCE
#include "output/results_file.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/marker.h"

#define SNIFF_LEN 512

/* How iochar's outputs begin (run and compare JSON, run and compare CSV,
 * the HTML report): how a results file is known on a filesystem that
 * cannot carry the mark, or one written before there was a mark. Text
 * output has no start specific enough ("iochar ..."): only its mark. */
static const struct {
	const char *start; /* the first bytes */
	const char *also;  /* and this among the first SNIFF_LEN; NULL: no */
} results_starts[] = {
	{"{\n  \"iochar_version\": ", NULL},
	{"{\n  \"fio version\": \"fio-3.33 (iochar ", NULL}, /* run JSON, fio's layout first */
	{"scope,job,clone,dir,ios,", NULL},
	{"workload,set,metric,", NULL},
	{"<!DOCTYPE html>\n", "<meta name=\"generator\" content=\"iochar "},
};

static bool looks_like_results(const char *path)
{
	char buf[SNIFF_LEN + 1];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, SNIFF_LEN, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(results_starts) / sizeof(results_starts[0]); i++) {
		const char *start = results_starts[i].start;
		if (!strncmp(buf, start, strlen(start)))
			return !results_starts[i].also ||
			       strstr(buf, results_starts[i].also);
	}
	return false;
}

#define WHO_MAX 600 /* the option and path as messages show them */

/* "--output=PATH" or "-o PATH", as the user wrote it. */
static const char *who(char *buf, const char *opt, const char *path)
{
	snprintf(buf, WHO_MAX, "%s%s%s", opt, strncmp(opt, "--", 2) ? " " : "=",
		 path);
	return buf;
}

static int refuse(struct ioc_err *err, const char *opt, const char *path,
		  const char *what)
{
	char w[WHO_MAX];

	return err_usage(err, EPERM,
			 "%s: %s; refusing to write results over it (use "
			 "--force to override)",
			 who(w, opt, path), what);
}

/* A new file: its directory must exist and be one. */
static int check_parent(const char *opt, const char *path, struct ioc_err *err)
{
	char *copy = strdup(path), w[WHO_MAX];
	struct stat st;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	const char *dir = dirname(copy);
	if (stat(dir, &st) < 0)
		ret = err_usage(err, errno, "%s: directory %s: %s",
				who(w, opt, path), dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		ret = err_usage(err, ENOTDIR, "%s: %s is not a directory",
				who(w, opt, path), dir);
	free(copy);
	return ret;
}

/* /dev/stdout and friends: a descriptor the caller opened (`>> log`), to
 * be written as it is even when it is a regular file. */
static bool names_a_descriptor(const char *path)
{
	return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
	       !strncmp(path, "/dev/fd/", 8) ||
	       !strncmp(path, "/proc/self/fd/", 14);
}

int results_file_check(const char *opt, const char *path, bool force,
		       struct ioc_err *err)
{
	char w[WHO_MAX];
	struct stat st;

	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return check_parent(opt, path, err);
		return err_usage(err, errno, "%s: %s", who(w, opt, path),
				 strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return err_usage(err, EISDIR, "%s: a directory; give a file name",
				 who(w, opt, path));
	if (S_ISBLK(st.st_mode))
		return force ? 0 : refuse(err, opt, path, "a block device");
	if (!S_ISREG(st.st_mode) || force || st.st_size == 0 ||
	    names_a_descriptor(path))
		return 0;
	if (results_marker_check(path) == 1 || looks_like_results(path))
		return 0;
	return refuse(err, opt, path,
		      "an existing file that is not a results file iochar "
		      "wrote");
}

/* A device, pipe, socket or inherited descriptor: written in place, there
 * is nothing to rename. */
static int open_direct(struct results_file *rf, const char *opt,
		       const char *path, struct ioc_err *err)
{
	char w[WHO_MAX];

	/* appending: a new open of /dev/stdout truncates what `>> log` keeps */
	rf->f = fopen(path, names_a_descriptor(path) ? "ae" : "we");
	if (!rf->f)
		return err_usage(err, errno, "%s: %s", who(w, opt, path),
				 strerror(errno));
	return 0;
}

int results_file_open(struct results_file *rf, const char *opt,
		      const char *path, bool force, struct ioc_err *err)
{
	char w[WHO_MAX];
	struct stat st;
	int ret;

	memset(rf, 0, sizeof(*rf));
	if ((ret = results_file_check(opt, path, force, err)))
		return ret;
	bool exists = stat(path, &st) == 0;
	if (exists && (!S_ISREG(st.st_mode) || names_a_descriptor(path)))
		return open_direct(rf, opt, path, err);
	/* through a symlink, the file it names is replaced, not the link */
	char *real = exists ? realpath(path, NULL) : NULL;
	ret = atomic_file_open(&rf->af, real ? real : path);
	free(real);
	if (ret)
		return err_usage(err, -ret,
				 "%s: cannot create a file next to it: %s",
				 who(w, opt, path), strerror(-ret));
	(void)results_marker_set(fileno(rf->af.f)); /* none on some filesystems */
	rf->f = rf->af.f;
	rf->atomic = true;
	return 0;
}

int results_file_commit(struct results_file *rf)
{
	int ret = 0;

	if (!rf->f)
		return -EBADF;
	if (rf->atomic) {
		ret = atomic_file_commit(&rf->af);
	} else {
		errno = 0;
		if (fflush(rf->f) != 0 || ferror(rf->f))
			ret = -(errno ? errno : EIO);
		if (fclose(rf->f) != 0 && !ret)
			ret = -(errno ? errno : EIO);
	}
	rf->f = NULL;
	return ret;
}

void results_file_abort(struct results_file *rf)
{
	if (!rf->f)
		return;
	if (rf->atomic)
		atomic_file_abort(&rf->af);
	else
		fclose(rf->f);
	rf->f = NULL;
}

bool results_file_same(const char *path, const char *other)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat(other, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
