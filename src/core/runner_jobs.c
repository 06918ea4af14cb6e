/* runner_jobs.c - the jobs before anything runs: split by their target
 * kind (a vd= list: one job per VD) and checked whole (layouts, start
 * order, the verification hooks, descriptors) before anything is written
 * (core/runner_int.h). */
#define _GNU_SOURCE
#include "core/runner_int.h"

#include <errno.h>
#include <stdlib.h>

#include "core/schedule.h"
#include "core/seams.h"
#include "util/file_id.h"

/* The per-I/O hooks (verification) see every job before anything is
 * written; without them no job may ask to be verified. */
int runner_check_hooks(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts, struct ioc_err *err)
{
	const struct io_hooks *io = runner_seams()->io;
	if (!io) {
		for (unsigned j = 0; j < nr_jobs; j++)
			if (jobs[j].verify || jobs[j].journal[0])
				return err_usage(err, ENOTSUP,
						 "job %s: verify= and journal= need the verification hooks, which this program lacks",
						 jobs[j].name);
		return 0;
	}
	struct io_hooks_job *hj = calloc(nr_jobs, sizeof(*hj));
	if (!hj)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned j = 0; j < nr_jobs; j++)
		hj[j] = (struct io_hooks_job){
			.job = &jobs[j], .region = layouts[j].region,
			.moves_data = !(layouts[j].eops->flags &
					(ENGINE_NO_TARGET | ENGINE_NO_DATA)),
		};
	int ret = io->check_jobs(hj, nr_jobs, err);
	free(hj);
	return ret;
}

/* How many jobs job stands for: its target kind may split it (one job
 * per VD of a list). */
static unsigned job_count(const struct job_spec *job)
{
	const struct target_ops *k = runner_target_kind(job);
	return k && k->count ? k->count(job) : 1;
}

/* Jobs a target kind splits become several jobs, run in parallel and
 * summed like any jobs. *out is jobs itself when nothing was split (free
 * with runner_release_expanded). */
int runner_expand_jobs(const struct job_spec *jobs, unsigned nr,
		       struct job_spec **out, unsigned *nr_out, struct ioc_err *err)
{
	unsigned total = 0;
	bool any = false;
	for (unsigned j = 0; j < nr; j++) {
		unsigned k = job_count(&jobs[j]);
		any |= k > 1;
		total += k;
	}
	*out = (struct job_spec *)jobs;
	*nr_out = nr;
	if (!any)
		return 0;
	struct job_spec *x = calloc(total, sizeof(*x));
	if (!x)
		return err_set(err, ENOMEM, "out of memory");
	unsigned at = 0;
	for (unsigned j = 0; j < nr; j++) {
		const struct target_ops *kind = runner_target_kind(&jobs[j]);
		unsigned k = job_count(&jobs[j]);
		for (unsigned i = 0; i < k; i++, at++) {
			if (job_spec_copy(&x[at], &jobs[j]))
				goto nomem;
			if (k > 1 && kind->split(&jobs[j], i, k, &x[at]))
				goto nomem;
			if (i > 0) /* the parts of one job start together */
				x[at].stonewall = x[at].new_group = false;
		}
	}
	*out = x;
	*nr_out = total;
	return 0;
nomem:
	for (unsigned i = 0; i <= at && i < total; i++)
		job_spec_free(&x[i]);
	free(x);
	return err_set(err, ENOMEM, "out of memory");
}

void runner_release_expanded(const struct job_spec *orig, struct job_spec *x,
			     unsigned nr)
{
	if (x == orig)
		return;
	for (unsigned i = 0; i < nr; i++)
		job_spec_free(&x[i]);
	free(x);
}

/* A write_iolog= that is a target of the run (any job's file, however
 * spelt) would have the log's text appended to the data, even by a read
 * job (issue 37 H14). */
static int check_iolog_targets(const struct job_spec *jobs, unsigned nr_jobs,
			       struct ioc_err *err)
{
	for (unsigned i = 0; i < nr_jobs; i++) {
		if (!jobs[i].write_iolog[0])
			continue;
		struct file_id log, file;
		file_id_of(jobs[i].write_iolog, &log);
		for (unsigned j = 0; j < nr_jobs; j++)
			for (unsigned f = 0; f < jobs[j].nr_files; f++) {
				file_id_of(jobs[j].files[f], &file);
				if (file_id_same(&log, &file))
					return err_usage(err, EINVAL,
							 "job %s: write_iolog=%s is job %s's target %s: "
							 "the log would be written into it",
							 jobs[i].name, jobs[i].write_iolog,
							 jobs[j].name, jobs[j].files[f]);
			}
	}
	return 0;
}

int runner_check_layouts(const struct job_spec *jobs, unsigned nr_jobs,
			 struct job_layout *layouts, unsigned *nr_workers, struct ioc_err *err)
{
	int ret = check_iolog_targets(jobs, nr_jobs, err);
	if (ret)
		return ret;
	unsigned t = 1; /* the next job's first worker number */
	for (unsigned i = 0; i < nr_jobs && !ret; t += jobs[i++].numjobs)
		if ((ret = layout_job_at(&jobs[i], t, &layouts[i], err)) && jobs[i].source[0])
			err_prefix(err, "%s", jobs[i].source); /* a job file's: its [section] */
	if (nr_workers)
		*nr_workers = t - 1;
	if (!ret)
		ret = schedule_check(jobs, nr_jobs, err);
	if (!ret)
		ret = runner_check_hooks(jobs, nr_jobs, layouts, err);
	if (!ret)
		ret = layout_check_fds(jobs, nr_jobs, layouts, err);
	return ret;
}

int runner_validate_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			     struct ioc_err *err)
{
	if (nr_jobs == 0)
		return err_usage(err, EINVAL, "no job to run");
	struct job_layout *layouts = calloc(nr_jobs, sizeof(*layouts));
	if (!layouts)
		return err_set(err, ENOMEM, "out of memory");
	int ret = runner_check_layouts(jobs, nr_jobs, layouts, NULL, err);
	for (unsigned i = 0; i < nr_jobs; i++)
		layout_release(&layouts[i]);
	free(layouts);
	return ret;
}
