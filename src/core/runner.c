/* runner.c - validate, prepare, start the workers together, watch them,
 * merge. See runner.h. */
#define _GNU_SOURCE
#include "core/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/replay.h"
#include "core/exit_what.h"
#include "core/layout.h"
#include "core/run_status.h"
#include "core/schedule.h"
#include "core/seams.h"
#include "core/steady_run.h"
#include "core/tool_limited.h"
#include "core/worker.h"
#include "stats/cpuload.h"
#include "target/marker.h"
#include "target/target.h"
#include "util/clock.h"

#define WATCH_STEP_NS 50000000ull /* how often the runner looks at workers */
#define LIVE_ASK_AHEAD_NS 200000000ull /* the tick's latency snapshot: how early */
/* While a worker waits for others to end (stonewall, wait_for): how often
 * the runner looks, so it starts at most this late (fio looks every 10 ms) */
#define SCHED_STEP_NS 2000000ull

/* The per-I/O hooks (verification) see every job before anything is
 * written; without them no job may ask to be verified. */
static int check_hooks(const struct job_spec *jobs, unsigned nr_jobs,
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
 * with release_expanded). */
static int expand_jobs(const struct job_spec *jobs, unsigned nr,
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

static void release_expanded(const struct job_spec *orig, struct job_spec *x,
			     unsigned nr)
{
	if (x == orig)
		return;
	for (unsigned i = 0; i < nr; i++)
		job_spec_free(&x[i]);
	free(x);
}

static int validate_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			     struct ioc_err *err);

int runner_validate(const struct job_spec *jobs, unsigned nr_jobs,
		    struct ioc_err *err)
{
	struct job_spec *x;
	unsigned nx;
	int ret = expand_jobs(jobs, nr_jobs, &x, &nx, err);
	if (ret)
		return ret;
	ret = validate_expanded(x, nx, err);
	release_expanded(jobs, x, nx);
	return ret;
}

static int validate_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			     struct ioc_err *err)
{
	if (nr_jobs == 0)
		return err_usage(err, EINVAL, "no job to run");
	struct job_layout *layouts = calloc(nr_jobs, sizeof(*layouts));
	if (!layouts)
		return err_set(err, ENOMEM, "out of memory");
	int ret = 0;
	for (unsigned i = 0, t = 1; i < nr_jobs && !ret; t += jobs[i++].numjobs)
		ret = layout_job_at(&jobs[i], t, &layouts[i], err);
	if (!ret)
		ret = schedule_check(jobs, nr_jobs, err);
	if (!ret)
		ret = check_hooks(jobs, nr_jobs, layouts, err);
	if (!ret)
		ret = layout_check_fds(jobs, nr_jobs, layouts, err);
	for (unsigned i = 0; i < nr_jobs; i++)
		layout_release(&layouts[i]);
	free(layouts);
	return ret;
}

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

static int prepare_targets(const struct job_spec *jobs, unsigned nr_jobs,
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

static uint64_t rusage_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

struct watch {
	struct worker *w;
	unsigned nr;
	uint64_t start_ns;
	atomic_bool *stop;          /* the workers' flag, owned by the run */
	atomic_bool *user_stop;     /* hooks->stop: the caller asks to stop; may be NULL */
	const struct runner_hooks *hooks;
	uint64_t ramp_ns, planned_ns;
	/* the tick's latency: each worker's last snapshot, the memory it
	 * writes the next into, and their sum; NULL until the first ask */
	struct hist *seen, *snaps, *lat;
	struct rusage ru_start, ru_end;
	struct cpuload load_start, load_end; /* the whole machine, same span */
	/* the start order: by worker, its gate and schedule state; picked
	 * has room for nr (core/schedule.h) */
	const struct job_spec *jobs;
	struct start_gate *gates;
	struct sched_worker *sched;
	unsigned *picked;
	/* exitall (core/exit_what.h): by job its group; by worker, whether
	 * its end was acted on, and the workers one end stops */
	bool exitall;
	unsigned *groups;
	bool *ended, *hit;
	struct steady_run *steady;  /* fio's steady-state windows */
	struct run_status *status;  /* --status-interval's reports; NULL: none */
};

/* Let go the workers whose turn has come (core/schedule.h), or all the
 * rest once the run is stopping, so they see the stop and end. Returns
 * when to look again (UINT64_MAX: every worker has started). */
static uint64_t release_due(struct watch *wa, uint64_t now)
{
	struct sched_worker *sw = wa->sched;
	uint64_t next = UINT64_MAX;
	unsigned n = 0;

	if (schedule_all_started(sw, wa->nr))
		return UINT64_MAX;
	for (unsigned i = 0; i < wa->nr; i++)
		sw[i].finished = atomic_load(&wa->w[i].finished);
	if (atomic_load(wa->stop)) {
		for (unsigned i = 0; i < wa->nr; i++)
			if (!sw[i].started) {
				sw[i].started = true;
				wa->picked[n++] = i;
			}
	} else {
		n = schedule_pick(wa->jobs, sw, wa->nr, now - wa->start_ns,
				  wa->picked, &next);
	}
	for (unsigned i = 0; i < n; i++)
		start_gate_open(&wa->gates[wa->picked[i]], 1);
	if (schedule_all_started(sw, wa->nr))
		return UINT64_MAX;
	next = next == UINT64_MAX ? UINT64_MAX : wa->start_ns + next;
	return now + SCHED_STEP_NS < next ? now + SCHED_STEP_NS : next;
}

/* exitall: stop the workers each newly ended worker's exit_what names;
 * one not started yet is let go at once and ends without I/O, as fio's
 * never runs. */
static void exit_others(struct watch *wa)
{
	if (!wa->exitall)
		return;
	for (unsigned i = 0; i < wa->nr; i++)
		wa->sched[i].finished = atomic_load(&wa->w[i].finished);
	for (unsigned e = 0; e < wa->nr; e++) {
		if (!wa->sched[e].finished || wa->ended[e])
			continue;
		wa->ended[e] = true;
		memset(wa->hit, 0, wa->nr * sizeof(*wa->hit));
		exit_what_pick(wa->jobs, wa->groups, wa->sched, wa->nr, e, wa->hit);
		for (unsigned i = 0; i < wa->nr; i++) {
			if (!wa->hit[i])
				continue;
			atomic_store(&wa->w[i].exit_now, true);
			if (!wa->sched[i].started) {
				wa->sched[i].started = true;
				start_gate_open(&wa->gates[i], 1);
			}
		}
	}
}

static bool all_finished(const struct watch *wa)
{
	for (unsigned i = 0; i < wa->nr; i++)
		if (!atomic_load(&wa->w[i].finished))
			return false;
	return true;
}

/* The live latency's memory: nr snapshots seen, nr being written, their
 * sum. false when there is none (the line then shows no p99). */
static bool live_alloc(struct watch *wa)
{
	if (wa->seen)
		return true;
	wa->seen = malloc((2 * (size_t)wa->nr + 1) * sizeof(*wa->seen));
	if (!wa->seen)
		return false;
	for (unsigned i = 0; i <= 2 * wa->nr; i++)
		hist_init(&wa->seen[i]);
	wa->snaps = &wa->seen[wa->nr];
	wa->lat = &wa->seen[2 * wa->nr];
	return true;
}

/* Ask every worker for its latency so far. */
static void live_ask(struct watch *wa)
{
	if (!live_alloc(wa))
		return;
	for (unsigned i = 0; i < wa->nr; i++)
		stats_live_ask(&wa->w[i].live, &wa->snaps[i]);
}

/* The workers' latency so far into wa->lat, from their last snapshots;
 * NULL when there is no memory for it. */
static const struct hist *live_latency(struct watch *wa)
{
	if (!wa->seen)
		return NULL;
	bool changed = false;
	for (unsigned i = 0; i < wa->nr; i++) {
		struct stats_live *l = &wa->w[i].live;
		if (stats_live_take(l, &wa->seen[i])) {
			changed = true;
			/* taken: the worker may answer the next ask */
			atomic_store_explicit(&l->snap_state, LIVE_SNAP_IDLE, memory_order_relaxed);
		}
	}
	if (changed) {
		hist_init(wa->lat);
		for (unsigned i = 0; i < wa->nr; i++)
			hist_merge(wa->lat, &wa->seen[i]);
	}
	return wa->lat;
}

static void tick(struct watch *wa, uint64_t now)
{
	uint64_t ios[DIR_COUNT] = {0}, bytes[DIR_COUNT] = {0}, lat = 0;
	const struct hist *h = live_latency(wa);
	for (unsigned i = 0; i < wa->nr; i++) {
		const struct stats_live *l = &wa->w[i].live;
		for (int d = 0; d < DIR_COUNT; d++) {
			ios[d] += atomic_load_explicit(&l->ios[d], memory_order_relaxed);
			bytes[d] += atomic_load_explicit(&l->bytes[d], memory_order_relaxed);
		}
		lat += atomic_load_explicit(&l->lat_sum, memory_order_relaxed);
	}
	wa->hooks->tick(wa->hooks->arg, now - wa->start_ns, wa->planned_ns,
			ios, bytes, lat, h);
}

/* Runs on the caller's thread while the workers work: samples CPU use at
 * the end of the ramp, calls the tick hook each second, and relays an
 * external stop. */
static void watch_workers(struct watch *wa)
{
	bool cpu_sampled = false, asked = false;
	uint64_t next_tick = wa->start_ns + 1000000000ull;

	getrusage(RUSAGE_SELF, &wa->ru_start);
	cpuload_sample(&wa->load_start);
	while (!all_finished(wa)) {
		uint64_t now = clock_ns(), ramp_end = wa->start_ns + wa->ramp_ns;
		exit_others(wa);
		uint64_t wake = now + WATCH_STEP_NS, due = release_due(wa, now);
		if (due < wake)
			wake = due;
		if (!cpu_sampled) {
			if (now >= ramp_end) {
				getrusage(RUSAGE_SELF, &wa->ru_start);
				cpuload_sample(&wa->load_start);
				cpu_sampled = true;
			} else if (ramp_end < wake) {
				wake = ramp_end;
			}
		}
		if (wa->user_stop && atomic_load(wa->user_stop))
			atomic_store(wa->stop, true);
		steady_run_tick(wa->steady, wa->w, wa->sched, now);
		if (wa->steady->by_worker && wa->steady->next_ns < wake)
			wake = wa->steady->next_ns;
		if (wa->status) {
			uint64_t at = run_status_poll(wa->status, now);
			wake = at < wake ? at : wake;
		}
		/* the workers' latency is asked for a little before each
		 * tick, so the tick shows it at most that old */
		if (wa->hooks && wa->hooks->tick && !asked && now + LIVE_ASK_AHEAD_NS >= next_tick) {
			live_ask(wa);
			asked = true;
		}
		if (wa->hooks && wa->hooks->tick && now >= next_tick) {
			tick(wa, now);
			next_tick += 1000000000ull;
			asked = false;
		}
		clock_sleep_until(wake);
	}
	getrusage(RUSAGE_SELF, &wa->ru_end);
	cpuload_sample(&wa->load_end);
	/* every worker is finished: none writes into snaps any more */
	free(wa->seen);
	wa->seen = wa->snaps = wa->lat = NULL;
}

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

static int collect(struct worker *w, unsigned nr, struct watch *wa,
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
		wr->latency_depth = w[i].lat_on ? w[i].lat.qd : 0;
		wr->stats = w[i].stats; /* ownership of the series moves */
		memset(&w[i].stats, 0, sizeof(w[i].stats));
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

/* Copy the jobs into r and collect the environment of their targets. */
/* fio runs a synchronous engine at depth 1 whatever iodepth says, and says
 * so (backend.c); the job the workers run and the result record says 1,
 * the depth really used. A target kind's engine is its own (vd/). */
static void cap_sync_depth(struct job_spec *j)
{
	const struct engine_ops *e = engine_find(j->ioengine);

	if (!e || !(e->flags & ENGINE_SYNC) || j->iodepth <= 1 ||
	    runner_target_kind(j))
		return;
	fprintf(stderr,
		"note: job %s: both iodepth >= 1 and synchronous I/O engine "
		"are selected, queue depth will be capped at 1\n",
		j->name);
	j->iodepth = 1;
}

static int init_result(const struct job_spec *jobs, unsigned nr_jobs,
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
		if (jobs[j].rate_iops)
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
			c->w[k] = (struct worker){
				.job = &jobs[j], .job_index = j, .clone = n,
				.thread_number = k + 1,
				.nr_threads = nr_workers,
				.region = l->region, .eops = l->eops,
				.file_region = l->per_file ? l->file_region : NULL,
				.kind = l->kind, .shared = c->shared[j],
				.io = runner_seams()->io,
				.stop = &c->stop,
			};
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

/* Start the workers, let them go together (after before_start), watch
 * them and join them. */
static int crew_run(struct crew *c, const struct runner_hooks *hooks,
		    struct ioc_err *err)
{
	unsigned started = 0;

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
	release_due(&c->wa, c->wa.start_ns);
	watch_workers(&c->wa);
	for (unsigned i = 0; i < started; i++)
		pthread_join(c->w[i].tid, NULL);
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

static int run_workers(const struct job_spec *jobs, unsigned nr_jobs,
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
			ret = collect(c.w, nr_workers, &c.wa, r, err);
		if (!ret && steady_run_take(&c.steady, r))
			ret = err_set(err, ENOMEM, "out of memory");
		if (atomic_load(&c.stop))
			r->partial = true;
	}
	crew_release(&c);
	disk_watch_free(&dw);
	return ret;
}

static int run_expanded(const struct job_spec *jobs, unsigned nr_jobs,
			const struct runner_hooks *hooks, struct run_result *out,
			struct ioc_err *err);

/* The files an engine created itself (filecreate: ENGINE_NO_LAYOUT) get
 * the mark the pre-write gives the others (the caller owns them), so a later run may write to or
 * remove them without --force. Best effort, as the pre-write's mark. */
static void mark_fresh(const struct job_spec *jobs, unsigned nr_jobs,
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
static void remove_files(const struct job_spec *jobs, unsigned nr_jobs,
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

int runner_run(const struct job_spec *jobs, unsigned nr_jobs,
	       const struct runner_hooks *hooks, struct run_result *out,
	       struct ioc_err *err)
{
	struct job_spec *x;
	unsigned nx;
	memset(out, 0, sizeof(*out));
	int ret = expand_jobs(jobs, nr_jobs, &x, &nx, err);
	if (ret)
		return ret;
	ret = run_expanded(x, nx, hooks, out, err);
	release_expanded(jobs, x, nx);
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
	for (unsigned j = 0; j < nr_jobs && !ret; j++) {
		ret = layout_job_at(&jobs[j], nr_workers + 1, &layouts[j], err);
		nr_workers += jobs[j].numjobs;
	}
	if (!ret)
		ret = schedule_check(jobs, nr_jobs, err);
	if (!ret)
		ret = check_hooks(jobs, nr_jobs, layouts, err);
	if (!ret)
		ret = layout_check_fds(jobs, nr_jobs, layouts, err);
	for (unsigned j = 0; j < nr_jobs && !ret; j++)
		if (layouts[j].target.note[0])
			fprintf(stderr, "note: job %s: %s\n", jobs[j].name,
				layouts[j].target.note);
	if (!ret)
		ret = prepare_targets(jobs, nr_jobs, layouts, hooks, err);
	if (!ret)
		ret = init_result(jobs, nr_jobs, layouts, nr_workers, out, err);
	if (!ret) {
		ret = run_workers(out->jobs, nr_jobs, layouts, nr_workers, hooks,
				  out, t0, err);
		if (!ret) /* whatever the output format: a replay behind says so */
			replay_report(out, stderr);
		mark_fresh(jobs, nr_jobs, layouts);
		remove_files(jobs, nr_jobs, layouts, ret ? NULL : err, &ret);
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
