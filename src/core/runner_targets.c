/* runner_targets.c - the jobs' targets around a run: a kind's prepare
 * and the files laid out before (with their directories), the files an
 * engine created marked as iochar's and unlink=1's removal after
 * (core/runner_int.h). */
#define _GNU_SOURCE
#include "core/runner_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/marker.h"
#include "target/target.h"

static int make_parent(const char *path, struct ioc_err *err)
{
	char *copy = strdup(path);
	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	char *slash = strrchr(copy, '/');
	int ret = 0;
	if (slash && slash != copy)
		*slash = '\0';
	/* every missing level, as fio's create_work_dirs (directory=a/b) */
	for (char *p = copy + 1; slash && slash != copy && !ret; p++) {
		bool last = *p == '\0';
		if (*p != '/' && !last)
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) < 0 && errno != EEXIST)
			ret = err_set(err, errno, "%s: cannot create directory: %s",
				      copy, strerror(errno));
		if (last)
			break;
		*p = '/';
	}
	free(copy);
	return ret;
}

int runner_prepare_targets(const struct job_spec *jobs, unsigned nr_jobs,
			   const struct job_layout *layouts,
			   const struct runner_hooks *hooks, struct ioc_err *err)
{
	/* Ctrl-C during the pre-write stops it too (it may take minutes) */
	struct target_fill_ctl ctl = {
	    hooks ? hooks->fill_progress : NULL,
	    hooks ? hooks->arg : NULL,
	    hooks ? hooks->stop : NULL,
	    NULL,
	};

	for (unsigned j = 0; j < nr_jobs; j++) {
		const struct target_ops *kind = layouts[j].kind;
		if (kind && kind->prepare) {
			int ret = kind->prepare(layouts[j].target.state, &ctl, err);
			if (ret)
				return ret;
		}
		/* fio lays files out with data for reads (or overwrite=1);
		 * for writes it only creates and allocates them */
		struct target_fill_how how = {
			jobs[j].fallocate, rw_reads(jobs[j].rw) || jobs[j].overwrite,
		};
		/* fio: no layout, an empty file (fill_device: the writes
		 * find where the file system ends) */
		if (jobs[j].create_on_open || jobs[j].fill_device)
			how = (struct target_fill_how){FALLOC_NONE, false};
		struct target_fill_ctl fctl = ctl;
		fctl.how = &how;
		for (unsigned f = 0; f < jobs[j].nr_files; f++) {
			if (!layouts[j].fill[f])
				continue;
			const char *path = jobs[j].files[f];
			int ret = jobs[j].create_parent ? make_parent(path, err) : 0;
			if (!ret)
				ret = target_fill_ctl(path, layout_file_end(&layouts[j], f),
						      &fctl, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The files an engine created itself (filecreate: ENGINE_NO_LAYOUT) get
 * the mark the pre-write gives the others (the caller owns them), so a later run may write to or
 * remove them without --force. Best effort, as the pre-write's mark. */
void runner_mark_fresh(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts)
{
	for (unsigned j = 0; j < nr_jobs; j++)
		for (unsigned f = 0; f < jobs[j].nr_files; f++) {
			if (!layouts[j].fresh[f])
				continue;
			int fd = open(jobs[j].files[f], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				continue; /* not created (the job stopped early) */
			(void)target_marker_set(fd);
			close(fd);
		}
}

/* unlink=1: the job's files go when it ends, as in fio; a failure to
 * remove one becomes the run's error only if it had none (err NULL). */
void runner_remove_files(const struct job_spec *jobs, unsigned nr_jobs,
			 const struct job_layout *layouts, struct ioc_err *err,
			 int *ret)
{
	struct ioc_err ignored = {0};
	for (unsigned j = 0; j < nr_jobs; j++) {
		if (!jobs[j].unlink || layouts[j].kind ||
		    (layouts[j].eops->flags & ENGINE_NO_TARGET))
			continue;
		for (unsigned f = 0; f < jobs[j].nr_files; f++) {
			int r = target_remove(jobs[j].files[f], err ? err : &ignored);
			if (r && err && !*ret)
				*ret = r;
		}
	}
}
