/* runner.c - validate, prepare, start the workers together, watch them,
 * merge. See runner.h; the parts are listed in runner_int.h. */
#define _GNU_SOURCE
#include "core/runner_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "core/schedule.h"
#include "util/clock.h"
#include "util/note.h"

int runner_validate(const struct job_spec *jobs, unsigned nr_jobs,
		    struct ioc_err *err)
{
	struct job_spec *x;
	unsigned nx;
	int ret = runner_expand_jobs(jobs, nr_jobs, &x, &nx, err);
	if (ret)
		return ret;
	ret = runner_validate_expanded(x, nx, err);
	runner_release_expanded(jobs, x, nx);
	return ret;
}

static int run_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			const struct runner_hooks *hooks, struct run_result *out,
			struct ioc_err *err);

int runner_run(const struct job_spec *jobs, unsigned nr_jobs,
	       const struct runner_hooks *hooks, struct run_result *out,
	       struct ioc_err *err)
{
	struct job_spec *x;
	unsigned nx;
	memset(out, 0, sizeof(*out));
	int ret = runner_expand_jobs(jobs, nr_jobs, &x, &nx, err);
	if (ret)
		return ret;
	ret = run_expanded(x, nx, hooks, out, err);
	runner_release_expanded(jobs, x, nx);
	return ret;
}

static int run_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			const struct runner_hooks *hooks, struct run_result *out,
			struct ioc_err *err)
{
	struct job_layout *layouts = calloc(nr_jobs ? nr_jobs : 1, sizeof(*layouts));
	unsigned nr_workers = 0;
	int ret = 0;
	uint64_t t0 = clock_ns(); /* fio's status reports count from its start */

	memset(out, 0, sizeof(*out));
	fast_clock_init(); /* once per process; the workers' clock */
	if (!layouts)
		return err_set(err, ENOMEM, "out of memory");
	if (nr_jobs == 0)
		ret = err_usage(err, EINVAL, "no job to run");
	if (!ret)
		ret = runner_check_layouts(jobs, nr_jobs, layouts, &nr_workers, err);
	for (unsigned j = 0; j < nr_jobs && !ret; j++)
		if (layouts[j].target.note[0])
			note_once("job %s: %s", jobs[j].name, layouts[j].target.note);
	if (!ret)
		ret = runner_prepare_targets(jobs, nr_jobs, layouts, hooks, err);
	if (!ret)
		ret = runner_init_result(jobs, nr_jobs, layouts, nr_workers, out, err);
	if (!ret) {
		ret = runner_run_workers(out->jobs, nr_jobs, layouts, nr_workers, hooks,
				  out, t0, err);
		if (!ret) /* whatever the output format: a replay behind says so */
			replay_report(out);
		runner_mark_fresh(jobs, nr_jobs, layouts);
		runner_remove_files(jobs, nr_jobs, layouts, ret ? NULL : err, &ret);
	}
	for (unsigned j = 0; j < nr_jobs; j++)
		layout_release(&layouts[j]);
	free(layouts);
	/* verify failures fail the run, but what was measured is kept */
	bool verify_failed = !ret && out->verify_counts.failures;
	if (verify_failed)
		ret = err_set(err, EILSEQ,
			      "verify: %llu of %llu checked units failed (listed above)",
			      (unsigned long long)out->verify_counts.failures,
			      (unsigned long long)out->verify_counts.checked_units);
	if (ret && !out->partial && !verify_failed)
		run_result_free(out);
	return ret;
}
