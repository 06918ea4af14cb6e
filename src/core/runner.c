/* runner.c - validate, prepare, start the workers together, watch them,
 * merge. See runner.h. */
#define _GNU_SOURCE
#include "core/runner.h"

#include <errno.h>
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

#include "core/layout.h"
#include "core/tool_limited.h"
#include "core/worker.h"
#include "stats/cpuload.h"
#include "target/target.h"
#include "util/clock.h"
#include "verify/jobs.h"
#include "vd/members.h"
#include "vd/stats.h"
#include "vd/vd.h"

#define WATCH_STEP_NS 50000000ull /* how often the runner looks at workers */

/* Jobs with verify=1 must own their blocks, and journals need verify
 * (verify/jobs.h). */
static int check_verify(const struct job_spec *jobs, unsigned nr_jobs,
			const struct job_layout *layouts, struct ioc_err *err)
{
	bool any = false;
	for (unsigned j = 0; j < nr_jobs; j++)
		any |= jobs[j].verify || jobs[j].journal[0];
	if (!any)
		return 0;
	struct verify_job *vj = calloc(nr_jobs, sizeof(*vj));
	if (!vj)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned j = 0; j < nr_jobs; j++)
		vj[j] = (struct verify_job){
			.job = &jobs[j], .region = layouts[j].region,
			.moves_data = !(layouts[j].eops->flags & ENGINE_NO_TARGET),
		};
	int ret = verify_check_jobs(vj, nr_jobs, err);
	free(vj);
	return ret;
}

/* Jobs whose vd= lists several VDs (';') become one job per VD, run in
 * parallel and summed like any jobs; a rate is split over them, as a plan
 * splits it over its targets. *out is jobs itself when nothing was split
 * (free with release_expanded). */
static int expand_vds(const struct job_spec *jobs, unsigned nr,
		      struct job_spec **out, unsigned *nr_out, struct ioc_err *err)
{
	unsigned total = 0;
	bool any = false;
	for (unsigned j = 0; j < nr; j++) {
		unsigned k = jobs[j].vd[0] ? vd_list_count(jobs[j].vd) : 1;
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
		unsigned k = jobs[j].vd[0] ? vd_list_count(jobs[j].vd) : 1;
		for (unsigned i = 0; i < k; i++, at++) {
			if (job_spec_copy(&x[at], &jobs[j]))
				goto nomem;
			if (k == 1)
				continue;
			if (vd_list_item(jobs[j].vd, i, x[at].vd, sizeof(x[at].vd)))
				goto nomem;
			char name[JOB_NAME_MAX];
			snprintf(name, sizeof(name), "%.50s.vd%u", jobs[j].name, i);
			memcpy(x[at].name, name, sizeof(name));
			if (jobs[j].rate_iops)
				x[at].rate_iops = (jobs[j].rate_iops + k - 1) / k;
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
	int ret = expand_vds(jobs, nr_jobs, &x, &nx, err);
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
	for (unsigned i = 0; i < nr_jobs && !ret; i++)
		ret = layout_job(&jobs[i], &layouts[i], err);
	if (!ret)
		ret = check_verify(jobs, nr_jobs, layouts, err);
	if (!ret)
		ret = layout_check_fds(jobs, nr_jobs, layouts, err);
	for (unsigned i = 0; i < nr_jobs; i++)
		layout_release(&layouts[i]);
	free(layouts);
	return ret;
}

void run_result_free(struct run_result *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nr_jobs; i++)
		job_spec_free(&r->jobs[i]);
	free(r->jobs);
	for (unsigned i = 0; i < r->nr_workers; i++)
		stats_free(&r->workers[i].stats);
	for (unsigned i = 0; r->vd && i < r->nr_jobs; i++)
		free(r->vd[i]);
	free(r->vd);
	free(r->workers);
	stats_free(&r->total);
	for (unsigned i = 0; i < r->nr_hosts; i++) {
		stats_free(&r->hosts[i].stats);
		free(r->hosts[i].env_json);
	}
	free(r->hosts);
	environment_free(&r->env);
	memset(r, 0, sizeof(*r));
}

static int make_parent(const char *path, struct ioc_err *err)
{
	char *copy = strdup(path);
	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	char *slash = strrchr(copy, '/');
	int ret = 0;
	if (slash && slash != copy) {
		*slash = '\0';
		if (mkdir(copy, 0755) < 0 && errno != EEXIST)
			ret = err_set(err, errno, "%s: cannot create directory: %s",
				      copy, strerror(errno));
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
	};

	for (unsigned j = 0; j < nr_jobs; j++) {
		if (layouts[j].vd) {
			int ret = vd_prepare(layouts[j].vd, &ctl, err);
			if (ret)
				return ret;
		}
		for (unsigned f = 0; f < jobs[j].nr_files; f++) {
			if (!layouts[j].fill[f])
				continue;
			const char *path = jobs[j].files[f];
			int ret = jobs[j].create_parent ? make_parent(path, err) : 0;
			if (!ret)
				ret = target_fill_ctl(path, layouts[j].fill_end, &ctl, err);
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
	struct rusage ru_start, ru_end;
	struct cpuload load_start, load_end; /* the whole machine, same span */
};

static bool all_finished(const struct watch *wa)
{
	for (unsigned i = 0; i < wa->nr; i++)
		if (!atomic_load(&wa->w[i].finished))
			return false;
	return true;
}

static void tick(const struct watch *wa, uint64_t now)
{
	uint64_t ios[DIR_COUNT] = {0}, bytes[DIR_COUNT] = {0}, lat = 0;
	for (unsigned i = 0; i < wa->nr; i++) {
		const struct stats_live *l = &wa->w[i].live;
		for (int d = 0; d < DIR_COUNT; d++) {
			ios[d] += atomic_load_explicit(&l->ios[d], memory_order_relaxed);
			bytes[d] += atomic_load_explicit(&l->bytes[d], memory_order_relaxed);
		}
		lat += atomic_load_explicit(&l->lat_sum, memory_order_relaxed);
	}
	wa->hooks->tick(wa->hooks->arg, now - wa->start_ns, wa->planned_ns,
			ios, bytes, lat);
}

/* Runs on the caller's thread while the workers work: samples CPU use at
 * the end of the ramp, calls the tick hook each second, and relays an
 * external stop. */
static void watch_workers(struct watch *wa)
{
	bool cpu_sampled = false;
	uint64_t next_tick = wa->start_ns + 1000000000ull;

	getrusage(RUSAGE_SELF, &wa->ru_start);
	cpuload_sample(&wa->load_start);
	while (!all_finished(wa)) {
		uint64_t now = clock_ns(), ramp_end = wa->start_ns + wa->ramp_ns;
		uint64_t wake = now + WATCH_STEP_NS;
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
		if (wa->hooks && wa->hooks->tick && now >= next_tick) {
			tick(wa, now);
			next_tick += 1000000000ull;
		}
		clock_sleep_until(wake);
	}
	getrusage(RUSAGE_SELF, &wa->ru_end);
	cpuload_sample(&wa->load_end);
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
		if (stats_merge(&r->total, &wr->stats))
			return err_set(err, ENOMEM, "out of memory");
		verify_counts_add(&r->verify_counts, &w[i].verify_counts);
		if (w[i].vd_stats) {
			struct vd_stats **to = &r->vd[w[i].job_index];
			if (!*to && !(*to = vd_stats_new(w[i].vd_stats->nr_members)))
				return err_set(err, ENOMEM, "out of memory");
			vd_stats_add(*to, w[i].vd_stats);
		}
	}
	r->elapsed_ns = end - measure;
	r->ramp_ns = wa->ramp_ns;
	r->cpu_usr_ns = rusage_ns(&wa->ru_end.ru_utime) - rusage_ns(&wa->ru_start.ru_utime);
	r->cpu_sys_ns = rusage_ns(&wa->ru_end.ru_stime) - rusage_ns(&wa->ru_start.ru_stime);
	if (r->elapsed_ns) {
		r->cpu_usr_pct = 100.0 * (double)r->cpu_usr_ns / (double)r->elapsed_ns;
		r->cpu_sys_pct = 100.0 * (double)r->cpu_sys_ns / (double)r->elapsed_ns;
	}
	cpu_set_t cpus;
	r->cpus_usable = sched_getaffinity(0, sizeof(cpus), &cpus) ? 0 : (unsigned)CPU_COUNT(&cpus);
	r->machine_busy_pct = cpuload_busy_pct(&wa->load_start, &wa->load_end);
	tool_limited_judge(r);
	return ret;
}

/* Copy the jobs into r and collect the environment of their targets. */
static int init_result(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts,
		       unsigned nr_workers, struct run_result *r,
		       struct ioc_err *err)
{
	const char *paths[JOB_MAX_FILES];
	unsigned nr_paths = 0;

	r->jobs = calloc(nr_jobs, sizeof(*r->jobs));
	r->workers = calloc(nr_workers, sizeof(*r->workers));
	r->vd = calloc(nr_jobs, sizeof(*r->vd));
	if (!r->jobs || !r->workers || !r->vd)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned j = 0; j < nr_jobs; j++) {
		if (job_spec_copy(&r->jobs[j], &jobs[j]))
			return err_set(err, ENOMEM, "out of memory");
		r->nr_jobs++;
		if (jobs[j].rate_iops)
			r->open_loop = true;
		r->verify |= jobs[j].verify;
		if (engine_find(jobs[j].ioengine)->flags & ENGINE_NO_TARGET)
			continue;
		if (layouts[j].vd) {
			const struct vd_def *d = &layouts[j].vd->def;
			for (unsigned m = 0; m < d->nr_members && nr_paths < JOB_MAX_FILES; m++)
				if (!vd_member_failed(d, m))
					paths[nr_paths++] = d->members[m];
		}
		for (unsigned f = 0; f < jobs[j].nr_files && nr_paths < JOB_MAX_FILES; f++)
			paths[nr_paths++] = jobs[j].files[f];
	}
	r->nr_workers = nr_workers;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->start_unix_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	if (environment_collect(&r->env, paths, nr_paths))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int run_workers(const struct job_spec *jobs, unsigned nr_jobs,
		       const struct job_layout *layouts, unsigned nr_workers,
		       const struct runner_hooks *hooks, struct run_result *r,
		       struct ioc_err *err)
{
	/* The workers' own stop flag: set by a worker that fails (the run
	 * ends in order on any error) or relayed from the caller's. */
	atomic_bool run_stop = false;
	struct start_gate gate = {
		.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
	};
	struct watch wa = {.hooks = hooks, .nr = nr_workers};
	unsigned started = 0;
	int ret;

	wa.stop = &run_stop;
	wa.user_stop = hooks ? hooks->stop : NULL;
	if (wa.user_stop && atomic_load(wa.user_stop))
		run_stop = true;
	struct worker *w = calloc(nr_workers, sizeof(*w));
	struct vd **vds = calloc(nr_jobs, sizeof(*vds));
	if (!w || !vds) {
		free(w);
		free(vds);
		return err_set(err, ENOMEM, "out of memory");
	}
	wa.w = w;
	for (unsigned j = 0; j < nr_jobs; j++) {
		const struct vd_members *vm = layouts[j].vd;
		if (vm && vd_create(&vm->def, vm->member_bytes, &vds[j])) {
			for (unsigned i = 0; i < j; i++)
				vd_destroy(vds[i]);
			free(vds);
			free(w);
			return err_set(err, ENOMEM, "out of memory");
		}
	}
	for (unsigned j = 0, k = 0; j < nr_jobs; j++) {
		for (unsigned c = 0; c < jobs[j].numjobs; c++, k++) {
			w[k] = (struct worker){
				.job = &jobs[j], .job_index = j, .clone = c,
				.region = layouts[j].region, .eops = layouts[j].eops,
				.vd = vds[j], .stop = wa.stop, .gate = &gate,
			};
		}
		uint64_t planned = jobs[j].ramp_ns + jobs[j].runtime_ns;
		if (jobs[j].ramp_ns > wa.ramp_ns)
			wa.ramp_ns = jobs[j].ramp_ns;
		if (planned > wa.planned_ns)
			wa.planned_ns = planned;
	}
	for (unsigned j = 0; hooks && hooks->vd_start && j < nr_jobs; j++)
		if (vds[j])
			hooks->vd_start(hooks->arg, j, vds[j]);
	ret = start_workers(w, nr_workers, err, &started);
	if (!ret && hooks && hooks->before_start) {
		pthread_mutex_lock(&gate.mu);
		while (gate.ready < started)
			pthread_cond_wait(&gate.cv, &gate.mu);
		pthread_mutex_unlock(&gate.mu);
		ret = hooks->before_start(hooks->start_arg, err);
	}
	if (ret) /* let the started ones through the gate, to stop at once */
		atomic_store(wa.stop, true);
	start_gate_open(&gate, started);
	wa.start_ns = gate.start_ns;
	wa.nr = started;
	watch_workers(&wa);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	for (unsigned j = 0; hooks && hooks->vd_stop && j < nr_jobs; j++)
		if (vds[j])
			hooks->vd_stop(hooks->arg, j, vds[j]);
	if (!ret)
		ret = collect(w, nr_workers, &wa, r, err);
	if (atomic_load(wa.stop))
		r->partial = true;
	for (unsigned i = 0; i < nr_workers; i++) {
		stats_free(&w[i].stats);
		free(w[i].vd_stats);
	}
	for (unsigned j = 0; j < nr_jobs; j++)
		vd_destroy(vds[j]);
	free(vds);
	free(w);
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
	int ret = expand_vds(jobs, nr_jobs, &x, &nx, err);
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

	memset(out, 0, sizeof(*out));
	fast_clock_init(); /* once per process; the workers' clock */
	if (!layouts)
		return err_set(err, ENOMEM, "out of memory");
	if (nr_jobs == 0)
		ret = err_usage(err, EINVAL, "no job to run");
	for (unsigned j = 0; j < nr_jobs && !ret; j++) {
		ret = layout_job(&jobs[j], &layouts[j], err);
		nr_workers += jobs[j].numjobs;
	}
	if (!ret)
		ret = check_verify(jobs, nr_jobs, layouts, err);
	if (!ret)
		ret = layout_check_fds(jobs, nr_jobs, layouts, err);
	for (unsigned j = 0; j < nr_jobs && !ret; j++)
		if (layouts[j].vd && layouts[j].vd->sizes_differ && !jobs[j].size)
			fprintf(stderr, "note: job %s: --vd members differ in size; using the smallest (%llu bytes) on each\n",
				jobs[j].name, (unsigned long long)layouts[j].vd->smallest);
	if (!ret)
		ret = prepare_targets(jobs, nr_jobs, layouts, hooks, err);
	if (!ret)
		ret = init_result(jobs, nr_jobs, layouts, nr_workers, out, err);
	if (!ret)
		ret = run_workers(out->jobs, nr_jobs, layouts, nr_workers, hooks,
				  out, err);
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
