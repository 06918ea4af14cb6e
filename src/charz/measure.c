/* measure.c - see measure.h. */
#include "charz/measure.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charz/discipline.h"
#include "charz/seq_split.h"
#include "base/iolog.h"
#include "core/replay.h"
#include "output/vd_out.h"
#include "vd/def.h"

static void call_free(struct measure_call *c)
{
	for (unsigned i = 0; c->vd_labels && i < c->nr_vds; i++)
		free(c->vd_labels[i]);
	free(c->vd_labels);
	free(c->vd_json);
	free(c->vd_text);
	free(c->vd_amps);
	free(c->per_target);
	free(c->iv_iops);
	free(c->iv_lat_mean_ns);
	free(c->per_host);
	free(c->host_names);
	free(c->per_wl);
	memset(c, 0, sizeof(*c));
}

void measure_ctx_reset(struct measure_ctx *ctx)
{
	if (!ctx)
		return;
	for (unsigned i = 0; i < ctx->nr_calls; i++)
		call_free(&ctx->calls[i]);
	free(ctx->calls);
	ctx->calls = NULL;
	ctx->nr_calls = ctx->cap = 0;
	if (ctx->env && ctx->env_free)
		ctx->env_free(ctx->env);
	ctx->env = NULL;
}

static void free_jobs(struct job_spec *jobs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		job_spec_free(&jobs[i]);
	free(jobs);
}

/* One copy of job per target, each on that target alone. */
static int make_jobs(const struct measure_ctx *ctx, const struct job_spec *job,
		     struct job_spec **out)
{
	unsigned n = ctx->nr_targets ? ctx->nr_targets : 1;
	if (ctx->nr_wl) { /* charz/workloads.h: the discipline is the first's */
		if (wl_make_jobs(ctx->wl, ctx->nr_wl, job, ctx->targets, ctx->nr_targets, out, &n))
			return -ENOMEM;
		for (unsigned i = 0; ctx->disc && i < (ctx->nr_targets ? ctx->nr_targets : 1); i++)
			if (discipline_apply(ctx->disc, &(*out)[i], NULL)) {
				free_jobs(*out, n);
				return -ENOMEM;
			}
		return 0;
	}
	struct job_spec *jobs = calloc(n, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		if (job_spec_copy(&jobs[i], job) ||
		    (ctx->nr_targets && job_spec_set_files(&jobs[i], ctx->targets[i])) ||
		    (ctx->disc && discipline_apply(ctx->disc, &jobs[i], NULL))) {
			free_jobs(jobs, i + 1);
			return -ENOMEM;
		}
		if (job->rate_iops) { /* the total, split over ranks, then targets */
			uint64_t rate = job->rate_iops, size = (uint64_t)dist_size(ctx->dist);
			rate = rate / size + ((uint64_t)dist_rank(ctx->dist) < rate % size);
			jobs[i].rate_iops = (rate + n - 1) / n;
			if (!jobs[i].rate_iops)
				jobs[i].rate_iops = 1;
		}
	}
	*out = jobs;
	return 0;
}

/* A VD step: the runner made one job per VD of job->vd (';') and per
 * member of a jbod, in order; label their per_target entries with the
 * definitions. */
static int label_vds(struct measure_call *c, const struct job_spec *job,
		     unsigned nr_jobs)
{
	unsigned n = vd_drives_count(job->vd);

	if (n != nr_jobs)
		return 0; /* not one job per VD: leave them unlabelled */
	if (!(c->vd_labels = calloc(n, sizeof(*c->vd_labels))))
		return -ENOMEM;
	c->nr_vds = n;
	for (unsigned i = 0; i < n; i++) {
		size_t len = strlen(job->vd) + 1;
		if (!(c->vd_labels[i] = malloc(len)))
			return -ENOMEM;
		if (vd_drives_item(job->vd, i, c->vd_labels[i], len))
			c->vd_labels[i][0] = '\0';
	}
	return 0;
}

/* Each host's total, for the per-host breakdown of a cluster point. */
static int keep_hosts(struct measure_call *c, const struct run_result *r)
{
	c->per_host = calloc(r->nr_hosts, sizeof(*c->per_host));
	c->host_names = calloc(r->nr_hosts, sizeof(*c->host_names));
	if (!c->per_host || !c->host_names)
		return -ENOMEM;
	for (unsigned h = 0; h < r->nr_hosts; h++) {
		struct stats_summary s;
		if (summary_stats(&r->hosts[h].stats, r->hosts[h].elapsed_ns, &s))
			return -ENOMEM;
		c->per_host[h] = s.total;
		snprintf(c->host_names[h], sizeof(c->host_names[h]), "%s",
			 r->hosts[h].host);
	}
	c->nr_hosts = r->nr_hosts;
	c->start_skew_ns = r->start_skew_ns;
	return 0;
}

static int keep_call(struct measure_ctx *ctx, const struct job_spec *job,
		     const struct run_result *r)
{
	if (ctx->nr_calls == ctx->cap) {
		unsigned cap = ctx->cap ? ctx->cap * 2 : 16;
		struct measure_call *c = realloc(ctx->calls, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		ctx->calls = c;
		ctx->cap = cap;
	}
	struct measure_call *c = &ctx->calls[ctx->nr_calls];
	memset(c, 0, sizeof(*c));
	unsigned niv = r->total.intervals.len;
	c->per_target = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*c->per_target));
	c->iv_iops = calloc(niv ? niv : 1, sizeof(double));
	c->iv_lat_mean_ns = calloc(niv ? niv : 1, sizeof(double));
	if (!c->per_target || !c->iv_iops || !c->iv_lat_mean_ns) {
		call_free(c);
		return -ENOMEM;
	}
	for (unsigned j = 0; j < r->nr_jobs; j++) {
		struct stats_summary s;
		if (summary_job(r, j, &s)) {
			call_free(c);
			return -ENOMEM;
		}
		c->per_target[j] = s.total;
	}
	if (!ctx->nr_targets && job->vd[0] &&
	    (label_vds(c, job, r->nr_jobs) ||
	     !(c->vd_amps = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(double))))) {
		call_free(c);
		return -ENOMEM;
	}
	if (vd_out_strings(r, &c->vd_json, &c->vd_text, &c->vd_amp, c->vd_amps)) {
		call_free(c);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < niv; i++) {
		const struct interval *iv = &r->total.intervals.v[i];
		uint64_t len = summary_interval_len_ns(r, i);
		uint64_t ios = iv->ios[DIR_READ] + iv->ios[DIR_WRITE];
		uint64_t lat = iv->lat_sum[DIR_READ] + iv->lat_sum[DIR_WRITE];
		c->iv_iops[i] = len ? (double)ios * 1e9 / (double)len : 0;
		c->iv_lat_mean_ns[i] = ios ? (double)lat / (double)ios : 0;
	}
	c->nr_iv = niv;
	if (r->nr_hosts && keep_hosts(c, r)) {
		call_free(c);
		return -ENOMEM;
	}
	ctx->nr_calls++;
	return 0;
}

/* The first replaying job's figures (read_iolog), kept with the point. */
static void keep_replay(const struct run_result *r, struct point *out)
{
	struct replay_figures *g = malloc(sizeof(*g));
	memset(&out->replay, 0, sizeof(out->replay));
	for (unsigned j = 0; g && j < r->nr_jobs && !out->replay.on; j++) {
		if (!replay_figures_of(r, j, g))
			continue;
		struct point_replay *p = &out->replay;
		p->on = true;
		p->timed = g->timed;
		p->ios = g->ios;
		p->behind = g->behind;
		snprintf(p->name, sizeof(p->name), "%.*s", (int)sizeof(r->jobs[j].name),
			 r->jobs[j].name);
		snprintf(p->read_iolog, sizeof(p->read_iolog), "%.*s",
			 (int)sizeof(r->jobs[j].read_iolog), r->jobs[j].read_iolog);
		summary_lat(&g->lag, &p->lag);
		summary_lat(&g->tool_lag, &p->tool_lag);
		summary_lat(&g->lat, &p->lat);
	}
	free(g);
}

/* Whether the tool (CPU, pacing) rather than the device limited the run.
 * The one place that reads it: the run's tool_limited verdict and its
 * reason (core/tool_limited.h). */
static bool run_tool_limited(const struct run_result *r, const char **why)
{
	*why = r->tool_limited ? r->tool_limited_reason : "";
	return r->tool_limited;
}

/* An open-loop point's seconds on rate, from the series keep_call kept
 * over the point's I/O time (charz/point.h: whole seconds only, a second
 * the series lacks off rate). */
static void count_seconds(const struct measure_call *c,
			  const struct run_result *r, const struct job_spec *job,
			  struct point *out)
{
	double asked = (double)job->rate_iops * (job->numjobs ? job->numjobs : 1);

	if (!job->rate_iops)
		return;
	point_count_seconds(c->iv_iops, c->nr_iv, r->elapsed_ns, asked,
			    job->rate_process == RATE_POISSON, &out->nr_sec, &out->sec_on_rate);
}

/* A multi-workload step's call: each workload's figures, each target's
 * total over the workloads, and out's judged latency. */
static int keep_workloads(struct measure_ctx *ctx, const struct run_result *r,
			  struct point *out)
{
	struct measure_call *c = &ctx->calls[ctx->nr_calls - 1];
	if (!(c->per_wl = calloc(ctx->nr_wl, sizeof(*c->per_wl))))
		return -ENOMEM;
	c->nr_wl = ctx->nr_wl;
	if (wl_figures(r, ctx->wl, ctx->nr_wl, ctx->nr_targets, c->per_wl, out))
		return -ENOMEM;
	return wl_target_totals(r, ctx->nr_wl, ctx->nr_targets, c->per_target);
}

/* A point's time is its I/O time, as fio's group runtime: the longest of
 * its workers' own runtimes (each from its own start, after ramp), not the
 * run's span from the start gate. A worker the scheduler wakes late runs
 * its whole runtime from when it woke (core/worker.c), so the span counts
 * its lateness as time without I/O: a worker woken 0.75 s late made a 2 s
 * closed-loop maximum 2.75 s long and its IOPS 27 % low, and a point on
 * rate every second "not reached" on its average. 0 workers: the span. */
static uint64_t io_time_ns(const struct run_result *r)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < r->nr_workers; i++)
		if (r->workers[i].elapsed_ns > t)
			t = r->workers[i].elapsed_ns;
	return t ? t : r->elapsed_ns;
}

/* Move r's environment into ctx the first time (the targets are the same
 * for every call of one ctx). */
static void keep_env(struct measure_ctx *ctx, struct run_result *r)
{
	if (ctx->env)
		return;
	ctx->env = r->env;
	ctx->env_free = r->env_free;
	r->env = NULL;
}

int measure_run(void *arg, const struct job_spec *job, struct point *out,
		struct ioc_err *err)
{
	struct measure_ctx *ctx = arg;
	struct job_spec *jobs = NULL;
	struct run_result r;
	unsigned n = (ctx->nr_targets ? ctx->nr_targets : 1) * (ctx->nr_wl ? ctx->nr_wl : 1);
	int ret;

	memset(out, 0, sizeof(*out));
	if (make_jobs(ctx, job, &jobs))
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < n; i++) /* each sequential job its own region */
		seq_split_apply(&jobs[i]);
	/* a replay step: the log's files and sizes, as `iochar run` makes them
	 * (cli/run_config.c); the step's own iodepth stays */
	for (unsigned i = 0; i < n; i++)
		if (jobs[i].read_iolog[0] && (ret = iolog_apply_files(&jobs[i], true, false, err))) {
			free_jobs(jobs, n);
			return ret;
		}
	if (ctx->on_point)
		ctx->on_point(ctx->on_point_arg, job);
	if (ctx->dist)
		ret = dist_run(ctx->dist, jobs, n, ctx->hooks, &r, err);
	else
		ret = runner_run(jobs, n, ctx->hooks, &r, err);
	free_jobs(jobs, n);
	/* a cluster run that failed keeps the other hosts' figures (rank 0) */
	if (ret && !(ctx->dist && r.nr_hosts))
		goto out;
	/* the depth the workers ran: a synchronous engine's is 1 whatever
	 * the step asked (core/runner_result.c), and a point says what ran */
	out->iodepth = r.nr_jobs ? r.jobs[0].iodepth : job->iodepth;
	out->numjobs = job->numjobs;
	out->rate_iops = job->rate_iops;
	/* every figure below (totals, the per-second series' last second,
	 * the workloads) over the I/O time */
	r.elapsed_ns = io_time_ns(&r);
	out->elapsed_ns = r.elapsed_ns;
	out->partial = r.partial;
	if (summary_stats(&r.total, r.elapsed_ns, &out->s) || keep_call(ctx, job, &r)) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (ctx->nr_wl && keep_workloads(ctx, &r, out)) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	keep_env(ctx, &r);
	count_seconds(&ctx->calls[ctx->nr_calls - 1], &r, job, out);
	keep_replay(&r, out);
	const char *why;
	if ((out->tool_limited = run_tool_limited(&r, &why)))
		snprintf(out->tool_limited_reason, sizeof(out->tool_limited_reason), "%s", why);
	if (ret)
		goto out;
	/* every rank continues from the cluster's figures, not its own */
	if (ctx->dist && (ret = dist_share(ctx->dist, out, sizeof(*out), err)))
		goto out;
	if (r.partial && ctx->hooks && ctx->hooks->stop && atomic_load(ctx->hooks->stop))
		ret = err_set(err, EINTR, "interrupted");
out:
	if (!ret || r.nr_workers)
		run_result_free(&r);
	return ret;
}

unsigned measure_target_iops(void *arg, double *out, unsigned max)
{
	const struct measure_ctx *ctx = arg;
	unsigned n = ctx->nr_targets < max ? ctx->nr_targets : max;

	if (!ctx->nr_calls)
		return 0;
	for (unsigned t = 0; t < n; t++)
		out[t] = ctx->calls[ctx->nr_calls - 1].per_target[t].iops;
	return n;
}
