/* file_names.c - see file_names.h. */
#include "base/file_names.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define DEFAULT_FORMAT "$jobname.$jobnum.$filenum"

/* The keyword at s (case-insensitive, as fio's strcasestr), its value. */
static size_t keyword_at(const char *s, const char *jobname, unsigned jobnum,
			 unsigned filenum, char *val, size_t len)
{
	static const char *const kw[] = {"$jobname", "$jobnum", "$filenum",
					 "$clientuid"};
	for (unsigned k = 0; k < 4; k++) {
		size_t n = strlen(kw[k]);
		if (strncasecmp(s, kw[k], n))
			continue;
		if (k == 0)
			snprintf(val, len, "%s", jobname);
		else if (k == 3)
			val[0] = '\0';
		else
			snprintf(val, len, "%u", k == 1 ? jobnum : filenum);
		return n;
	}
	return 0;
}

int file_names_format(const char *fmt, const char *jobname, unsigned jobnum,
		      unsigned filenum, char *buf, size_t len,
		      struct ioc_err *err)
{
	size_t at = 0;
	const char *whole = fmt && fmt[0] ? fmt : DEFAULT_FORMAT, *s = whole;

	while (*s) {
		char val[128] = {*s, '\0'};
		size_t used = keyword_at(s, jobname, jobnum, filenum, val, sizeof(val));
		size_t vlen = strlen(val);
		if (at + vlen >= len)
			return err_usage(err, ENAMETOOLONG,
					 "filename_format=%s: the name of file %u "
					 "of job %s is too long",
					 whole, filenum, jobname);
		memcpy(buf + at, val, vlen);
		at += vlen;
		s += used ? used : 1;
	}
	buf[at] = '\0';
	return 0;
}

void file_names_dir(const char *dirs, unsigned jobnum, char *buf, size_t len)
{
	unsigned n = 1;
	for (const char *p = dirs; *p; p++)
		n += *p == ':';
	unsigned want = jobnum % n;
	const char *start = dirs;
	for (unsigned i = 0; i < want; i++)
		start = strchr(start, ':') + 1;
	size_t l = strcspn(start, ":");
	if (l >= len)
		l = len - 1;
	memcpy(buf, start, l);
	buf[l] = '\0';
}

/* Append name to list, its ':' escaped as job_spec_set_files reads them. */
static int list_add(char *list, size_t len, size_t *at, const char *name)
{
	if (*at && *at + 1 < len)
		list[(*at)++] = ':';
	for (const char *p = name; *p; p++) {
		if (*at + 3 >= len)
			return -ENAMETOOLONG;
		if (*p == ':')
			list[(*at)++] = '\\';
		list[(*at)++] = *p;
	}
	list[*at] = '\0';
	return 0;
}

/* fio: one file, and the job's name is something else than a regular
 * file (a block device): that is the file. */
static bool name_is_device(const struct job_spec *spec)
{
	struct stat st;
	return spec->nrfiles <= 1 && lstat(spec->name, &st) == 0 &&
	       !S_ISREG(st.st_mode);
}

/* fio refuses a directory= entry that is not an existing directory. */
static int check_dirs(const char *dirs, struct ioc_err *err)
{
	for (const char *p = dirs; *p;) {
		char dir[1024];
		size_t l = strcspn(p, ":");
		struct stat st;
		snprintf(dir, sizeof(dir), "%.*s", (int)l, p);
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			return err_usage(err, ENOTDIR,
					 "directory=%s: %s is not a directory",
					 dirs, dir);
		p += l + (p[l] == ':');
	}
	return 0;
}

/* Clone jobnum's nr files into list at *at. */
static int name_clone(const struct job_spec *spec, unsigned jobnum,
		      unsigned nr, char *list, size_t cap, size_t *at,
		      struct ioc_err *err)
{
	char dir[1024], name[1024], path[2100];

	file_names_dir(spec->directory, jobnum, dir, sizeof(dir));
	for (unsigned f = 0; f < nr; f++) {
		int ret = 0;
		if (name_is_device(spec))
			snprintf(name, sizeof(name), "%s", spec->name);
		else
			ret = file_names_format(spec->filename_format, spec->name,
						jobnum, f, name, sizeof(name), err);
		if (ret)
			return ret;
		snprintf(path, sizeof(path), "%s%s%s", dir, dir[0] ? "/" : "", name);
		if (list_add(list, cap, at, path))
			return err_usage(err, ENAMETOOLONG,
					 "job %s: file names too long", spec->name);
	}
	return 0;
}

int file_names_apply(struct job_spec *spec, struct ioc_err *err)
{
	size_t cap = (size_t)JOB_MAX_FILES * 1400, at = 0;
	unsigned nr = spec->nrfiles ? spec->nrfiles : 1;
	unsigned clones = spec->numjobs > 1 && !name_is_device(spec) ? spec->numjobs : 1;
	int ret = 0;

	if ((uint64_t)nr * clones > JOB_MAX_FILES)
		return err_usage(err, E2BIG,
				 "job %s: nrfiles=%u x numjobs=%u: more than %d files",
				 spec->name, nr, clones, JOB_MAX_FILES);
	char *list = calloc(1, cap);
	if (!list)
		return err_set(err, ENOMEM, "out of memory");
	if ((ret = check_dirs(spec->directory, err)))
		goto out;
	for (unsigned k = 0; k < clones && !ret; k++)
		ret = name_clone(spec, k, nr, list, cap, &at, err);
	if (!ret && (ret = job_spec_set_files(spec, list)))
		ret = err_set(err, ret, "job %s: naming its files: %s", spec->name,
			      strerror(-ret));
	spec->create_parent = !ret;
	spec->files_per_clone = !ret && clones > 1 ? nr : 0;
out:
	free(list);
	return ret;
}

#define OPENDIR_DEPTH 32 /* bounds the walk: a loop of bind mounts ends */

/* The regular files under dir, in readdir order as fio's recurse_dir,
 * appended to list. */
static int walk_dir(const char *dir, unsigned depth, char *list, size_t cap,
		    size_t *at, unsigned *nr, struct ioc_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return err_usage(err, errno, "opendir=%s: %s", dir, strerror(errno));
	while (!ret && (e = readdir(d))) {
		char path[4096];
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < OPENDIR_DEPTH)
			ret = walk_dir(path, depth + 1, list, cap, at, nr, err);
		else if (S_ISREG(st.st_mode) && ++*nr > JOB_MAX_FILES)
			ret = err_usage(err, E2BIG, "opendir: more than %d files under %s",
					JOB_MAX_FILES, dir);
		else if (S_ISREG(st.st_mode) && list_add(list, cap, at, path))
			ret = err_usage(err, ENAMETOOLONG, "opendir: file names too long");
	}
	closedir(d);
	return ret;
}

int file_names_opendir(struct job_spec *spec, const char *dir,
		       struct ioc_err *err)
{
	size_t cap = (size_t)JOB_MAX_FILES * 1400, at = 0;
	unsigned nr = spec->nr_files;
	char *list = calloc(1, cap);
	int ret;

	if (!list)
		return err_set(err, ENOMEM, "out of memory");
	/* fio adds them to the files already given */
	for (unsigned i = 0; i < spec->nr_files; i++)
		list_add(list, cap, &at, spec->files[i]);
	ret = walk_dir(dir, 0, list, cap, &at, &nr, err);
	if (!ret && nr == spec->nr_files)
		ret = err_usage(err, ENOENT, "opendir=%s: no regular file under it", dir);
	if (!ret && (ret = job_spec_set_files(spec, list)))
		ret = err_set(err, ret, "opendir=%s: %s", dir, strerror(-ret));
	free(list);
	return ret;
}

int file_names_in_directory(struct job_spec *spec, struct ioc_err *err)
{
	size_t cap = (size_t)JOB_MAX_FILES * 1400, at = 0;
	char dir[1024], path[2100];
	int ret;

	if (!spec->directory[0] || !spec->nr_files)
		return 0;
	char *list = calloc(1, cap);
	if (!list)
		return err_set(err, ENOMEM, "out of memory");
	ret = check_dirs(spec->directory, err);
	/* fio adds given files once, as clone 0's: the first directory */
	file_names_dir(spec->directory, 0, dir, sizeof(dir));
	for (unsigned f = 0; f < spec->nr_files && !ret; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, spec->files[f]);
		if (list_add(list, cap, &at, path))
			ret = err_usage(err, ENAMETOOLONG, "job %s: file names too long",
					spec->name);
	}
	if (!ret && (ret = job_spec_set_files(spec, list)))
		ret = err_set(err, ret, "job %s: naming its files: %s", spec->name,
			      strerror(-ret));
	free(list);
	return ret;
}

int file_names_append(struct job_spec *spec, struct ioc_err *err)
{
	bool have = false;
	uint64_t size = 0;

	if (!spec->file_append)
		return 0;
	if (rw_reads(spec->rw))
		return err_usage(err, ENOTSUP,
				 "job %s: file_append=1 with rw=%s: accepted only "
				 "for jobs that only write",
				 spec->name, rw_name(spec->rw));
	for (unsigned f = 0; f < spec->nr_files; f++) {
		struct stat st;
		if (stat(spec->files[f], &st) < 0 || !S_ISREG(st.st_mode))
			continue; /* a new file starts at 0; a device as given */
		if (have && (uint64_t)st.st_size != size)
			return err_usage(err, ENOTSUP,
					 "job %s: file_append=1: %s is %llu bytes, "
					 "%s %llu; iochar appends at one offset",
					 spec->name, spec->files[f],
					 (unsigned long long)st.st_size,
					 spec->files[0], (unsigned long long)size);
		size = (uint64_t)st.st_size;
		have = true;
	}
	spec->offset = size; /* fio ignores offset= here too */
	return 0;
}
