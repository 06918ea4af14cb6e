/* runner_result.c - the run's result: started with the jobs (a
 * synchronous engine's depth capped at 1, as fio) and their targets'
 * environment; the joined workers' figures moved into it and merged in
 * the run's seconds, with the span's CPU use, reporting groups and the
 * tool-limited judgement (core/runner_int.h). */
#define _GNU_SOURCE
#include "core/runner_int.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base/pace_opts.h"
#include "core/schedule.h"
#include "core/seams.h"
#include "core/tool_limited.h"
#include "util/note.h"
#include "util/sparse_mem.h"

static uint64_t rusage_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

/* Each worker's reporting group, fio's groupid of its job. */
static int stamp_groups(struct run_result *r, struct ioc_err *err)
{
	unsigned *groups = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*groups));
	if (!groups)
		return err_set(err, ENOMEM, "out of memory");
	schedule_groups(r->jobs, r->nr_jobs, groups);
	for (unsigned i = 0; i < r->nr_workers; i++)
		r->workers[i].group = groups[r->workers[i].job];
	free(groups);
	return 0;
}

int runner_collect(struct worker *w, unsigned nr, struct watch *wa,
		   struct run_result *r, struct ioc_err *err)
{
	uint64_t measure = wa->start_ns + wa->ramp_ns, end = measure;
	int ret = 0;

	stats_init(&r->total);
	for (unsigned i = 0; i < nr; i++) {
		struct worker_result *wr = &r->workers[i];
		wr->job = w[i].job_index;
		wr->clone = w[i].clone;
		wr->elapsed_ns = w[i].end_ns - w[i].measure_start_ns;
		wr->start_ns = wa->gates[i].start_ns - wa->start_ns;
		wr->end_ns = w[i].end_ns - wa->start_ns;
		wr->latency_depth = (w[i].feat & WF_LAT_TARGET) ? w[i].lat_target.search.qd : 0;
		/* ownership of the series moves; sparse: a whole-struct copy
		 * and clear would page in every bucket of both (sparse_mem.h) */
		sparse_copy(&wr->stats, &w[i].stats, sizeof(wr->stats));
		sparse_zero(&w[i].stats, sizeof(w[i].stats));
		wr->prio = w[i].prio; /* moves too */
		w[i].prio = NULL;
		wr->error = w[i].error;
		if (w[i].error) {
			snprintf(wr->error_msg, sizeof(wr->error_msg), "%s", w[i].err.msg);
			r->partial = true;
			if (!ret) /* the first failure is the run's message */
				ret = err_set(err, -w[i].error, "%s", w[i].err.msg);
		}
		if (w[i].end_ns > end)
			end = w[i].end_ns;
		/* the run's series is in the run's seconds: a worker that
		 * started later (stonewall, wait_for, startdelay) adds into
		 * the second it ran in, to within a second */
		uint64_t late = w[i].measure_start_ns > measure ?
				w[i].measure_start_ns - measure : 0;
		if (stats_merge_at(&r->total, &wr->stats,
				   (unsigned)(late / STATS_INTERVAL_NS)))
			return err_set(err, ENOMEM, "out of memory");
		verify_counts_add(&r->verify_counts, &w[i].verify_counts);
		if (w[i].target_stats &&
		    w[i].kind->stats_add(&r->target_stats[w[i].job_index],
					 w[i].target_stats))
			return err_set(err, ENOMEM, "out of memory");
	}
	r->elapsed_ns = end - measure;
	r->ramp_ns = wa->ramp_ns;
	r->cpu_usr_ns = rusage_ns(&wa->ru_end.ru_utime) - rusage_ns(&wa->ru_start.ru_utime);
	r->cpu_sys_ns = rusage_ns(&wa->ru_end.ru_stime) - rusage_ns(&wa->ru_start.ru_stime);
	/* fio's ctx, majf, minf: the process's, over the same window */
	r->ctx = (uint64_t)(wa->ru_end.ru_nvcsw + wa->ru_end.ru_nivcsw -
			    wa->ru_start.ru_nvcsw - wa->ru_start.ru_nivcsw);
	r->majf = (uint64_t)(wa->ru_end.ru_majflt - wa->ru_start.ru_majflt);
	r->minf = (uint64_t)(wa->ru_end.ru_minflt - wa->ru_start.ru_minflt);
	if (r->elapsed_ns) {
		r->cpu_usr_pct = 100.0 * (double)r->cpu_usr_ns / (double)r->elapsed_ns;
		r->cpu_sys_pct = 100.0 * (double)r->cpu_sys_ns / (double)r->elapsed_ns;
	}
	cpu_set_t cpus;
	r->cpus_usable = sched_getaffinity(0, sizeof(cpus), &cpus) ? 0 : (unsigned)CPU_COUNT(&cpus);
	r->machine_busy_pct = cpuload_busy_pct(&wa->load_start, &wa->load_end);
	tool_limited_judge(r);
	int gret = stamp_groups(r, err);
	return ret ? ret : gret;
}

/* The environment of the run's targets, through the installed hook. */
static int collect_env(const char *const *paths, unsigned nr_paths,
		       struct run_result *r, struct ioc_err *err)
{
	const struct runner_seams *sm = runner_seams();
	if (!sm->env_collect)
		return 0;
	if (sm->env_collect(paths, nr_paths, &r->env))
		return err_set(err, ENOMEM, "out of memory");
	r->env_free = sm->env_free;
	return 0;
}

bool runner_depth_is_one(const struct job_spec *job)
{
	const struct engine_ops *e = engine_find(job->ioengine);

	return e && (e->flags & ENGINE_SYNC) && !runner_target_kind(job);
}

/* fio runs a synchronous engine at depth 1 whatever iodepth says, and says
 * so (backend.c); the job the workers run and the result record says 1,
 * the depth really used. */
static void cap_sync_depth(struct job_spec *j)
{
	if (j->iodepth <= 1 || !runner_depth_is_one(j))
		return;
	note_once("job %s: both iodepth >= 1 and synchronous I/O engine "
		  "are selected, queue depth will be capped at 1", j->name);
	j->iodepth = 1;
}

/* Copy the jobs into r and collect the environment of their targets. */
int runner_init_result(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts,
		       unsigned nr_workers, struct run_result *r,
		       struct ioc_err *err)
{
	const char *paths[JOB_MAX_FILES];
	unsigned nr_paths = 0;

	r->jobs = calloc(nr_jobs, sizeof(*r->jobs));
	r->workers = calloc(nr_workers, sizeof(*r->workers));
	r->target_stats = calloc(nr_jobs, sizeof(*r->target_stats));
	if (!r->jobs || !r->workers || !r->target_stats)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned j = 0; j < nr_jobs; j++) {
		if (job_spec_copy(&r->jobs[j], &jobs[j]))
			return err_set(err, ENOMEM, "out of memory");
		r->nr_jobs++;
		cap_sync_depth(&r->jobs[j]);
		/* any rate (fio's rate=, rate_iops=R,W too, as dist/merge.c):
		 * its latency counts from the due time */
		if (pace_job_paced(&jobs[j]))
			r->open_loop = true;
		r->verify |= jobs[j].verify;
		if (engine_find(jobs[j].ioengine)->flags & ENGINE_NO_TARGET)
			continue;
		const struct target_layout *tl = &layouts[j].target;
		for (unsigned p = 0; p < tl->nr_paths && nr_paths < JOB_MAX_FILES; p++)
			paths[nr_paths++] = tl->paths[p];
		for (unsigned f = 0; f < jobs[j].nr_files && nr_paths < JOB_MAX_FILES; f++)
			paths[nr_paths++] = jobs[j].files[f];
	}
	r->nr_workers = nr_workers;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->start_unix_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return collect_env(paths, nr_paths, r, err);
}
