/* results_read.c - see results_read.h. */
#include "report/results_read.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/app_parse.h"
#include "report/net_parse.h"
#include "report/results_fio.h"
#include "report/results_parse.h"

/* The whole of path, NUL-terminated, malloc'd into *text. */
static int slurp(const char *path, char **text, size_t *len, struct ioc_err *err)
{
	struct stat st;
	/* O_NONBLOCK: opening a FIFO for reading waits for a writer; the
	 * file's type is known only once it is open (issue 37 H13) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int ret = 0;

	*text = NULL;
	if (fd < 0)
		return err_usage(err, errno, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_usage(err, EINVAL, "%s: not a regular file", path);
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return err_set(err, ENOMEM, "%s: out of memory", path);
	}
	if ((unsigned long long)st.st_size > RESULTS_FILE_MAX) {
		fclose(f);
		return err_usage(err, EFBIG, "%s: larger than %llu bytes: not iochar's results",
				 path, RESULTS_FILE_MAX);
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		fclose(f);
		return err_set(err, ENOMEM, "%s: out of memory", path);
	}
	*len = fread(*text, 1, (size_t)st.st_size, f);
	if (ferror(f))
		ret = err_usage(err, EIO, "%s: read error", path);
	else if (*len == 0)
		ret = err_usage(err, EINVAL, "%s: empty (truncated?)", path);
	fclose(f);
	if (ret) {
		free(*text);
		*text = NULL;
		return ret;
	}
	(*text)[*len] = '\0';
	return 0;
}

static int parse_file(const char *path, json_object **root, struct ioc_err *err)
{
	char *text;
	size_t len;
	int ret = slurp(path, &text, &len, err);
	if (ret)
		return ret;
	ret = rj_parse(text, len, path, root, err);
	free(text);
	return ret;
}

static int set_names(struct rs_set *s, const char *path, struct ioc_err *err)
{
	char *copy = strdup(path);
	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	s->path = strdup(path);
	s->name = strdup(basename(copy));
	free(copy);
	if (!s->path || !s->name)
		return err_set(err, ENOMEM, "out of memory");
	n = strlen(s->name);
	if (n > 5 && !strcmp(s->name + n - 5, ".json"))
		s->name[n - 5] = '\0';
	return 0;
}

/* A document: plan results (it has "steps"), a run, or fio's results. */
static int parse_doc(json_object *root, const char *file, struct rs_set *s,
		     struct ioc_err *err)
{
	if (results_is_net(root))
		return results_parse_net(root, file, s, err);
	if (results_is_app(root))
		return results_parse_app(root, file, s, err);
	if (results_is_fio(root))
		return results_parse_fio(root, file, s, err);
	if (json_object_is_type(root, json_type_object) &&
	    json_object_object_get_ex(root, "steps", NULL))
		return results_parse_plan(root, file, true, s, err);
	return results_parse_run(root, file, s, err);
}

int results_read_text(const char *text, size_t len, const char *file,
		      struct rs_set *s, struct ioc_err *err)
{
	json_object *root = NULL;
	memset(s, 0, sizeof(*s));
	int ret = set_names(s, file, err);
	if (!ret)
		ret = rj_parse(text, len, file, &root, err);
	if (!ret)
		ret = parse_doc(root, file, s, err);
	json_object_put(root);
	return ret;
}

/* steps/NNN.json for every step of the plan that has finished. */
static int read_step_files(const char *dir, unsigned nr_planned, struct rs_set *s,
			   struct ioc_err *err)
{
	char path[4200];
	struct stat st;

	s->steps = calloc(nr_planned ? nr_planned : 1, sizeof(*s->steps));
	if (!s->steps)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < nr_planned; i++) {
		json_object *root = NULL;
		snprintf(path, sizeof(path), "%s/steps/%03u.json", dir, i);
		if (stat(path, &st) < 0 && errno == ENOENT)
			continue; /* not run (yet) */
		int ret = parse_file(path, &root, err);
		if (!ret)
			ret = results_parse_step(root, path, "", &s->steps[s->nr_steps++],
						 err);
		json_object_put(root);
		if (ret)
			return ret;
	}
	return 0;
}

/* A plan's mode=app steps: each one's run (DIR/app-stepN) read as a set
 * of its own into s->step_apps. A step whose run is not there (removed,
 * not finished) is left out. */
static int read_step_apps(const char *dir, struct rs_set *s, struct ioc_err *err)
{
	char path[4300];
	struct stat st;

	for (unsigned i = 0; i < s->nr_steps; i++) {
		const char *sub = s->steps[i].app_dir;
		if (s->steps[i].mode != RS_APP || !sub || strchr(sub, '/') || !strcmp(sub, "..") ||
		    !strcmp(sub, "."))
			continue; /* a name of the plan's own directory, no path */
		snprintf(path, sizeof(path), "%s/%s/results.json", dir, sub);
		if (stat(path, &st) < 0)
			continue;
		struct rs_set *grown = realloc(s->step_apps, (s->nr_step_apps + 1) * sizeof(*grown));
		if (!grown)
			return err_set(err, ENOMEM, "out of memory");
		s->step_apps = grown;
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
		int ret = results_read(path, &s->step_apps[s->nr_step_apps], err);
		if (ret)
			return ret;
		s->nr_step_apps++;
	}
	return 0;
}

static int read_dir(const char *dir, struct rs_set *s, struct ioc_err *err)
{
	char path[4200];
	struct stat st;
	json_object *root = NULL;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (stat(path, &st) < 0)
		return err_usage(err, ENOENT,
				 "%s: no results.json: not an iochar results directory", dir);
	int ret = parse_file(path, &root, err);
	if (ret)
		return ret;
	if (results_is_net(root) || results_is_app(root)) {
		ret = results_is_net(root) ? results_parse_net(root, path, s, err)
					   : results_parse_app(root, path, s, err);
		json_object_put(root);
		return ret;
	}
	/* the step files need the number of steps planned to find them */
	snprintf(path, sizeof(path), "%s/steps", dir);
	bool step_files = stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
			  json_object_object_get_ex(root, "nr_steps", NULL);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	ret = results_parse_plan(root, path, !step_files, s, err);
	json_object_put(root);
	if (!ret && step_files)
		ret = read_step_files(dir, s->nr_steps_planned, s, err);
	return ret ? ret : read_step_apps(dir, s, err);
}

int results_read(const char *path, struct rs_set *s, struct ioc_err *err)
{
	struct stat st;
	json_object *root = NULL;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) < 0)
		return err_usage(err, errno, "%s: %s", path, strerror(errno));
	int ret = set_names(s, path, err);
	if (ret)
		return ret;
	if (S_ISDIR(st.st_mode))
		return read_dir(path, s, err);
	ret = parse_file(path, &root, err);
	if (!ret)
		ret = parse_doc(root, path, s, err);
	json_object_put(root);
	return ret;
}
