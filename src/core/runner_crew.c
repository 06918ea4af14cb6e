/* runner_crew.c - one run's workers: made (numjobs per job, their
 * flows, steady-state windows, gates and start order), their target
 * kinds started, the threads started with signals blocked, watched,
 * joined and collected, the disks under them watched (fio's disk_util),
 * everything freed (core/runner_int.h). */
#define _GNU_SOURCE
#include "core/runner_int.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/exit_what.h"
#include "core/run_status.h"
#include "core/schedule.h"
#include "core/seams.h"
#include "core/steady_run.h"
#include "util/autogroup.h"
#include "util/clock.h"

static int start_workers(struct worker *w, unsigned nr, struct ioc_err *err,
			 unsigned *started)
{
	sigset_t all, old;
	int ret = 0;

	/* Signals go to the caller's thread, never to a worker mid-I/O. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (*started = 0; *started < nr; (*started)++) {
		pthread_t tid;
		ret = pthread_create(&tid, NULL, worker_main, &w[*started]);
		if (ret) {
			ret = err_set(err, ret, "cannot start worker thread: %s",
				      strerror(ret));
			break;
		}
		w[*started].tid = tid;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* One run's workers and what they share: the start gate, the stop flag
 * and, by job, what its target kind shares between its workers. */
struct crew {
	struct worker *w;
	unsigned nr;                 /* workers made */
	void **shared;               /* by job: kind->start's, else NULL */
	const struct job_layout *layouts;
	unsigned nr_jobs;
	/* The workers' own stop flag: set by a worker that fails (the run
	 * ends in order on any error) or relayed from the caller's. */
	atomic_bool stop;
	struct start_gate *gates;    /* by worker: each starts when its turn comes */
	struct sched_worker *sched;  /* by worker: the start order's state */
	unsigned *picked;
	struct watch wa;
	struct flow_table flows;     /* flow=: what the workers of a flow share */
	struct steady_run steady;
	/* for --status-interval's reports: the result being made (its jobs)
	 * and the disks watched; borrowed */
	const struct run_result *r;
	const struct disk_watch *disks;
	uint64_t t0_ns; /* when the runner began (clock_ns): the reports' clock, as fio's */
	struct autogroup_hold weight; /* what the run set on its autogroup */
	unsigned weighed_groups;      /* for the result: the groups it weighed as, 0: none */
};

/* Each worker's gate and place in the start order. */
static int crew_schedule(struct crew *c, const struct job_spec *jobs)
{
	c->gates = calloc(c->nr, sizeof(*c->gates));
	c->sched = calloc(c->nr, sizeof(*c->sched));
	c->picked = calloc(c->nr, sizeof(*c->picked));
	c->wa.groups = calloc(c->nr_jobs ? c->nr_jobs : 1, sizeof(*c->wa.groups));
	c->wa.ended = calloc(c->nr, sizeof(*c->wa.ended));
	c->wa.hit = calloc(c->nr, sizeof(*c->wa.hit));
	if (!c->gates || !c->sched || !c->picked || !c->wa.groups ||
	    !c->wa.ended || !c->wa.hit)
		return -ENOMEM;
	schedule_groups(jobs, c->nr_jobs, c->wa.groups);
	c->wa.exitall = exit_what_armed(jobs, c->nr_jobs);
	for (unsigned i = 0; i < c->nr; i++) {
		const struct job_spec *job = c->w[i].job;
		uint64_t seed = job->randseed ^ (0x5eedull + i);
		c->gates[i] = (struct start_gate){
			.mu = PTHREAD_MUTEX_INITIALIZER,
			.cv = PTHREAD_COND_INITIALIZER,
		};
		c->w[i].gate = &c->gates[i];
		c->sched[i] = (struct sched_worker){
			.job = c->w[i].job_index, .first = c->w[i].clone == 0,
			.delay_ns = schedule_delay(job, &seed),
		};
	}
	c->wa.jobs = jobs;
	c->wa.gates = c->gates;
	c->wa.sched = c->sched;
	c->wa.picked = c->picked;
	return 0;
}

/* Make the workers, numjobs per job, and start each job's target kind. */
static int crew_make(struct crew *c, const struct job_spec *jobs,
		     unsigned nr_workers, const struct runner_hooks *hooks,
		     struct ioc_err *err)
{
	c->wa = (struct watch){.hooks = hooks, .nr = nr_workers, .stop = &c->stop};
	c->wa.user_stop = hooks ? hooks->stop : NULL;
	if (c->wa.user_stop && atomic_load(c->wa.user_stop))
		atomic_store(&c->stop, true);
	c->w = calloc(nr_workers, sizeof(*c->w));
	c->shared = calloc(c->nr_jobs, sizeof(*c->shared));
	if (!c->w || !c->shared)
		return err_set(err, ENOMEM, "out of memory");
	c->nr = nr_workers;
	c->wa.w = c->w;
	for (unsigned j = 0; j < c->nr_jobs; j++) {
		const struct job_layout *l = &c->layouts[j];
		if (l->kind && l->kind->start(l->target.state, &c->shared[j]))
			return err_set(err, ENOMEM, "out of memory");
	}
	for (unsigned j = 0, k = 0; j < c->nr_jobs; j++) {
		const struct job_layout *l = &c->layouts[j];
		for (unsigned n = 0; n < jobs[j].numjobs; n++, k++) {
			/* field by field into calloc's zeros: a compound literal
			 * would write all of the worker, its ~660 KiB of mostly
			 * empty histograms included (util/sparse_mem.h) */
			struct worker *w = &c->w[k];
			w->job = &jobs[j];
			w->job_index = j;
			w->clone = n;
			w->thread_number = k + 1;
			w->nr_threads = nr_workers;
			w->region = l->region;
			w->eops = l->eops;
			w->file_region = l->per_file ? l->file_region +
							   n * l->clone_files
						     : NULL;
			w->kind = l->kind;
			w->shared = c->shared[j];
			w->io = runner_seams()->io;
			w->stop = &c->stop;
		}
		if (jobs[j].ramp_ns > c->wa.ramp_ns)
			c->wa.ramp_ns = jobs[j].ramp_ns;
	}
	/* every worker joins its flow before any starts, as fio's jobs do
	 * when they are parsed (later groups' weights count from the start) */
	if (flow_table_init(&c->flows, nr_workers))
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned k = 0; k < nr_workers; k++)
		flow_join(&c->flows, c->w[k].job->flow_id, c->w[k].job->flow,
			  &c->w[k].flow);
	if (steady_run_init(&c->steady, c->w, nr_workers))
		return err_set(err, ENOMEM, "out of memory");
	c->wa.steady = &c->steady;
	c->wa.planned_ns = schedule_planned_ns(jobs, c->nr_jobs);
	if (crew_schedule(c, jobs))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Tell the caller about each job's shared target state (start or stop). */
static void crew_announce(const struct crew *c, const struct runner_hooks *hooks,
			  bool start)
{
	void (*fn)(void *, unsigned, void *) = !hooks ? NULL :
		start ? hooks->target_start : hooks->target_stop;
	for (unsigned j = 0; fn && j < c->nr_jobs; j++)
		if (c->shared[j])
			fn(hooks->arg, j, c->shared[j]);
}

/* How many scheduler groups fio would make of the workers: one per
 * worker of a job without `thread` (fio's processes, each in a session of
 * its own), one for all the threads of the rest. */
static unsigned crew_fio_groups(const struct crew *c)
{
	unsigned groups = 0;
	bool threads = false;
	for (unsigned i = 0; i < c->nr; i++) {
		if (c->w[i].job->thread)
			threads = true;
		else
			groups++;
	}
	return groups + threads;
}

/* Start the workers, let them go together (after before_start), watch
 * them and join them. */
static int crew_run(struct crew *c, const struct runner_hooks *hooks,
		    struct ioc_err *err)
{
	unsigned started = 0;

	/* the CPU weight fio's jobs would have against the kernel threads
	 * that complete their I/O; where it cannot be had (no autogroups, no
	 * CAP_SYS_NICE) the run goes on as one group */
	unsigned groups = crew_fio_groups(c);
	if (!autogroup_weigh(groups, &c->weight) && c->weight.held)
		c->weighed_groups = groups;
	crew_announce(c, hooks, true);
	int ret = start_workers(c->w, c->nr, err, &started);
	/* every worker set up before the first starts, so that a startdelay
	 * counts from one start and setups do not overlap the I/O */
	for (unsigned i = 0; i < started; i++) {
		struct start_gate *g = &c->gates[i];
		pthread_mutex_lock(&g->mu);
		while (g->ready < 1)
			pthread_cond_wait(&g->cv, &g->mu);
		pthread_mutex_unlock(&g->mu);
	}
	if (!ret && hooks && hooks->before_start)
		ret = hooks->before_start(hooks->start_arg, err);
	if (ret) /* let the started ones through their gates, to stop at once */
		atomic_store(&c->stop, true);
	c->wa.nr = started;
	c->wa.start_ns = fast_ns();
	struct run_status rs; /* out of memory: no reports, the run goes on */
	if (!ret && hooks && hooks->status && hooks->status_every_ns &&
	    !run_status_init(&rs, hooks->status, hooks->arg, hooks->status_every_ns,
			     c->t0_ns, c->r, c->w, started, c->gates, c->sched, c->wa.start_ns,
			     c->wa.ramp_ns, c->disks))
		c->wa.status = &rs;
	runner_release_due(&c->wa, c->wa.start_ns);
	runner_watch_workers(&c->wa);
	for (unsigned i = 0; i < started; i++)
		pthread_join(c->w[i].tid, NULL);
	autogroup_release(&c->weight);
	if (c->wa.status)
		run_status_free(&rs);
	c->wa.status = NULL;
	crew_announce(c, hooks, false);
	return ret;
}

static void crew_release(struct crew *c)
{
	for (unsigned i = 0; i < c->nr; i++) {
		stats_free(&c->w[i].stats);
		free(c->w[i].target_stats);
		free(c->w[i].prio);
	}
	for (unsigned j = 0; c->shared && j < c->nr_jobs; j++)
		if (c->shared[j])
			c->layouts[j].kind->stop(c->shared[j]);
	free(c->shared);
	free(c->w);
	free(c->gates);
	free(c->sched);
	free(c->picked);
	free(c->wa.groups);
	free(c->wa.ended);
	free(c->wa.hit);
	flow_table_free(&c->flows);
	steady_run_free(&c->steady);
}

/* fio's disk_util: the devices under the jobs' targets, watched from
 * before the workers start (after the files are laid out, as fio's
 * init_disk_util) until they are joined; none for engines without one
 * or jobs with disk_util=0. */
static int watch_disks(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts, struct disk_watch *dw)
{
	int ret = 0;
	for (unsigned j = 0; j < nr_jobs && !ret; j++) {
		if ((layouts[j].eops->flags & ENGINE_NO_TARGET) || !jobs[j].disk_util)
			continue;
		const struct target_layout *tl = &layouts[j].target;
		for (unsigned p = 0; p < tl->nr_paths && !ret; p++)
			ret = disk_watch_add(dw, tl->paths[p]);
		for (unsigned f = 0; f < jobs[j].nr_files && !ret; f++)
			ret = disk_watch_add(dw, jobs[j].files[f]);
	}
	return ret;
}

int runner_run_workers(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts, unsigned nr_workers,
		       const struct runner_hooks *hooks, struct run_result *r,
		       uint64_t t0_ns, struct ioc_err *err)
{
	struct crew c = {.layouts = layouts, .nr_jobs = nr_jobs, .t0_ns = t0_ns};
	struct disk_watch dw = {0};
	int ret = crew_make(&c, jobs, nr_workers, hooks, err);
	if (!ret && watch_disks(jobs, nr_jobs, layouts, &dw))
		ret = err_set(err, ENOMEM, "out of memory");
	c.r = r;
	c.disks = &dw;
	if (!ret) {
		ret = crew_run(&c, hooks, err);
		disk_watch_stop(&dw);
		r->disks = dw.v; /* the result's now */
		r->nr_disks = dw.n;
		dw = (struct disk_watch){0};
		if (!ret)
			ret = runner_collect(c.w, nr_workers, &c.wa, r, err);
		if (!ret && steady_run_take(&c.steady, r))
			ret = err_set(err, ENOMEM, "out of memory");
		if (atomic_load(&c.stop))
			r->partial = true;
		r->sched_groups = c.weighed_groups;
		r->sched_nice = c.weight.nice; /* release keeps what it set */
	}
	crew_release(&c);
	disk_watch_free(&dw);
	return ret;
}
