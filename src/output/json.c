/* json.c - the --output-format=json emitter: one JSON object per run.
 *
 * The schema, field by field, is in docs/output.md; keep the two in step.
 */
#define _GNU_SOURCE /* CPU_ISSET, CPU_SETSIZE */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/fio_groups.h"
#include "output/formats.h"
#include "output/fio_doc.h"
#include "output/json_parts.h"
#include "base/json_writer.h"
#include "output/summary.h"
#include "output/vd_out.h"
#include "base/job_options.h"
#include "core/rate_verdict.h"
#include "core/replay.h"
#include "engine/engine.h"

#define JSON_INDENT  2

/* The job's members from its rows (base/job_options.h), then its
 * engine's own options where they differ from their defaults: a job that
 * sets none writes what it always did. */
void json_emit_job(struct jw *w, const struct job_spec *j)
{
	const struct engine_ops *e = engine_find(j->ioengine);

	jw_object_begin(w);
	job_options_emit_json(w, j);
	for (const struct option_def *o = e ? e->options : NULL; o && o->name;
	     o++)
		if (option_differs_from_default(o, j->engine_opts))
			option_emit_json(o, j->engine_opts, w);
	jw_object_end(w);
}

/* A rate-limited run: the rate asked against what was achieved, and
 * why not where it was not (core/rate_verdict.h). */
static void emit_rate(struct jw *w, const struct run_result *r)
{
	struct rate_verdict v;

	rate_verdict_judge(r, &v);
	if (!v.paced)
		return;
	jw_key(w, "rate");
	jw_object_begin(w);
	jw_kv_string(w, "unit", v.bytes ? "bytes/s" : "IOPS");
	jw_kv_double(w, "asked", v.asked);
	jw_kv_double(w, "achieved", v.achieved);
	jw_kv_bool(w, "reached", v.reached);
	if (!v.reached)
		jw_kv_string(w, "why", v.why);
	jw_object_end(w);
}

static void emit_options(struct jw *w, const struct run_result *r)
{
	jw_key(w, "options");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_jobs; i++)
		json_emit_job(w, &r->jobs[i]);
	jw_array_end(w);
}

void json_emit_lat(struct jw *w, const struct lat_summary *l)
{
	json_emit_lat_as(w, "lat_ns", l);
}

void json_emit_lat_as(struct jw *w, const char *key, const struct lat_summary *l)
{
	jw_key(w, key);
	jw_object_begin(w);
	jw_kv_double(w, "mean", l->mean);
	jw_kv_double(w, "stdev", l->stdev);
	jw_kv_uint(w, "min", l->min);
	jw_kv_uint(w, "max", l->max);
	for (unsigned i = 0; i < SUMMARY_NR_PCT; i++)
		jw_kv_uint(w, summary_pcts[i].key, l->pct[i]);
	jw_object_end(w);
}

void json_emit_dir(struct jw *w, const char *key, const struct dir_summary *s)
{
	jw_key(w, key);
	jw_object_begin(w);
	jw_kv_uint(w, "ios", s->ios);
	jw_kv_uint(w, "bytes", s->bytes);
	jw_kv_double(w, "iops", s->iops);
	jw_kv_double(w, "bw_bytes", s->bw_bytes);
	json_emit_lat(w, &s->lat);
	/* lag: always, all 0 in closed loop; service time: only where it
	 * differs from lat_ns, i.e. rate-limited */
	json_emit_lat_as(w, "lag", &s->lag);
	json_emit_lat_as(w, "tool_lag", &s->tool_lag);
	if (s->paced)
		json_emit_lat_as(w, "service_latency", &s->service);
	jw_object_end(w);
}

/* "read", "write" and "total" members of the current object. */
static int emit_stats(struct jw *w, const struct worker_stats *st,
		      uint64_t elapsed_ns)
{
	struct stats_summary s;
	int ret = summary_stats(st, elapsed_ns, &s);

	if (ret)
		return ret;
	/* trim only when there were trims: the files of runs without any
	 * stay as they were */
	for (int d = 0; d < DIR_ALL; d++)
		if (d < DIR_COUNT || s.dir[d].ios)
			json_emit_dir(w, summary_dir_name(d), &s.dir[d]);
	json_emit_dir(w, "total", &s.total);
	return 0;
}

static void emit_cpu(struct jw *w, const struct run_result *r)
{
	struct cpu_summary c;

	summary_cpu(r, &c);
	jw_key(w, "cpu");
	jw_object_begin(w);
	jw_kv_double(w, "usr_pct", c.usr_pct);
	jw_kv_double(w, "sys_pct", c.sys_pct);
	jw_kv_uint(w, "usr_ns", c.usr_ns);
	jw_kv_uint(w, "sys_ns", c.sys_ns);
	jw_kv_double(w, "ns_per_io", c.ns_per_io);
	jw_kv_uint(w, "cpus_usable", r->cpus_usable);
	jw_key(w, "machine_busy_pct");
	if (r->machine_busy_pct >= 0)
		jw_double(w, r->machine_busy_pct);
	else
		jw_null(w);
	jw_object_end(w);
}

/* "verify": only when a job ran with verify=1, so the result of a run
 * without it keeps its members exactly. */
static void emit_verify(struct jw *w, const struct run_result *r)
{
	const struct verify_counts *c = &r->verify_counts;

	if (!r->verify)
		return;
	jw_key(w, "verify");
	jw_object_begin(w);
	jw_kv_bool(w, "enabled", r->verify);
	verify_counts_json(w, c);
	jw_object_end(w);
}

static void emit_interval(struct jw *w, const struct run_result *r,
			  unsigned idx)
{
	const struct interval *iv = &r->total.intervals.v[idx];
	uint64_t len_ns = summary_interval_len_ns(r, idx);

	jw_object_begin(w);
	jw_kv_uint(w, "t_s", idx);
	jw_kv_uint(w, "len_ns", len_ns);
	int dirs = r->total.dir[DIR_TRIM].ios ? DIR_ALL : DIR_COUNT;
	for (int d = 0; d < dirs; d++) {
		struct interval_summary s;

		summary_interval(iv, d, len_ns, &s);
		jw_key(w, summary_dir_name(d));
		jw_object_begin(w);
		jw_kv_uint(w, "ios", s.ios);
		jw_kv_uint(w, "bytes", s.bytes);
		jw_kv_double(w, "iops", s.iops);
		jw_kv_double(w, "bw_bytes", s.bw_bytes);
		jw_kv_double(w, "lat_mean_ns", s.lat_mean_ns);
		jw_kv_uint(w, "lat_max_ns", s.lat_max_ns);
		jw_object_end(w);
	}
	jw_object_end(w);
}

static void emit_intervals(struct jw *w, const struct run_result *r)
{
	jw_key(w, "intervals");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->total.intervals.len; i++)
		emit_interval(w, r, i);
	jw_array_end(w);
}

static int emit_worker(struct jw *w, const struct run_result *r,
		       const struct worker_result *wr)
{
	jw_object_begin(w);
	jw_kv_uint(w, "job", wr->job);
	jw_kv_uint(w, "clone", wr->clone);
	if (r->nr_hosts)
		jw_kv_uint(w, "host", wr->host);
	jw_key(w, "name");
	if (wr->job < r->nr_jobs)
		jw_string_n(w, r->jobs[wr->job].name,
			    sizeof(r->jobs[wr->job].name));
	else
		jw_null(w);
	jw_kv_uint(w, "elapsed_ns", wr->elapsed_ns);
	/* when it ran, since the run's start: a reader can see the order */
	jw_kv_uint(w, "groupid", wr->group);
	jw_kv_uint(w, "start_ns", wr->start_ns);
	jw_kv_uint(w, "end_ns", wr->end_ns);
	jw_key(w, "error");
	if (wr->error == 0)
		jw_null(w);
	else if (wr->error_msg[0])
		jw_string_n(w, wr->error_msg, sizeof(wr->error_msg));
	else
		jw_string(w, strerror(wr->error < 0 ? -wr->error : wr->error));
	int ret = emit_stats(w, &wr->stats, wr->elapsed_ns);
	jw_object_end(w);
	return ret;
}

static int emit_workers(struct jw *w, const struct run_result *r)
{
	int ret = 0;

	jw_key(w, "workers");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_workers && !ret; i++)
		ret = emit_worker(w, r, &r->workers[i]);
	jw_array_end(w);
	return ret;
}

static void emit_target(struct jw *w, const struct target_env *t)
{
	jw_object_begin(w);
	jw_key(w, "path");
	jw_string_n(w, t->path, sizeof(t->path));
	jw_kv_bool(w, "is_block", t->is_block);
	jw_key(w, "device");
	jw_string_n(w, t->device, sizeof(t->device));
	jw_key(w, "backing_device");
	jw_string_n(w, t->backing_device, sizeof(t->backing_device));
	jw_key(w, "model");
	jw_string_n(w, t->model, sizeof(t->model));
	jw_key(w, "scheduler");
	jw_string_n(w, t->scheduler, sizeof(t->scheduler));
	jw_key(w, "fstype");
	jw_string_n(w, t->fstype, sizeof(t->fstype));
	jw_kv_uint(w, "size", t->size);
	jw_kv_uint(w, "logical_block_size", t->logical_block_size);
	jw_kv_bool(w, "rotational", t->rotational);
	jw_object_end(w);
}

void json_emit_environment(struct jw *w, const struct environment *e)
{
	jw_key(w, "environment");
	json_emit_environment_value(w, e);
}

void json_emit_environment_value(struct jw *w, const struct environment *e)
{
	jw_object_begin(w);
	jw_key(w, "hostname");
	jw_string_n(w, e->hostname, sizeof(e->hostname));
	jw_key(w, "kernel");
	jw_string_n(w, e->kernel, sizeof(e->kernel));
	jw_key(w, "machine");
	jw_string_n(w, e->machine, sizeof(e->machine));
	jw_key(w, "cpu_model");
	jw_string_n(w, e->cpu_model, sizeof(e->cpu_model));
	jw_kv_uint(w, "cpus", e->cpus);
	jw_kv_uint(w, "mem_bytes", e->mem_bytes);
	jw_key(w, "targets");
	jw_array_begin(w);
	for (unsigned i = 0; i < e->nr_targets; i++)
		emit_target(w, &e->targets[i]);
	jw_array_end(w);
	if (e->inv) {
		/* Serials stay out of results files: they get shared. */
		jw_key(w, "inventory");
		inventory_json_emit(w, e->inv, false);
	}
	jw_object_end(w);
}

/* "replay": one object a read_iolog job (absent without one): timed or
 * not, how many I/Os were issued behind schedule, the issue lag beside
 * the job's latency, and the verdict (replay_verdict). */
static void emit_replay(struct jw *w, const struct run_result *r)
{
	struct replay_figures *g = malloc(sizeof(*g));
	bool any = false;
	for (unsigned j = 0; g && j < r->nr_jobs; j++) {
		if (!replay_figures_of(r, j, g))
			continue;
		if (!any) {
			jw_key(w, "replay");
			jw_array_begin(w);
			any = true;
		}
		jw_object_begin(w);
		jw_kv_uint(w, "job", j);
		jw_key(w, "name");
		jw_string_n(w, r->jobs[j].name, sizeof(r->jobs[j].name));
		jw_key(w, "read_iolog");
		jw_string_n(w, r->jobs[j].read_iolog, sizeof(r->jobs[j].read_iolog));
		jw_kv_bool(w, "timed", g->timed);
		jw_kv_uint(w, "ios_timed", g->ios);
		jw_kv_uint(w, "ios_behind", g->behind);
		jw_kv_uint(w, "behind_limit_ns", REPLAY_BEHIND_NS);
		struct lat_summary l;
		summary_lat(&g->lag, &l);
		json_emit_lat_as(w, "lag", &l);
		summary_lat(&g->tool_lag, &l);
		json_emit_lat_as(w, "tool_lag", &l);
		summary_lat(&g->lat, &l);
		json_emit_lat_as(w, "lat_ns", &l);
		jw_key(w, "verdict");
		if (g->verdict)
			jw_string(w, g->verdict);
		else
			jw_null(w);
		jw_object_end(w);
	}
	if (any)
		jw_array_end(w);
	free(g);
}

static void emit_header(struct jw *w, const struct run_result *r)
{
	jw_kv_string(w, "iochar_version", summary_version(r));
	jw_kv_uint(w, "format_version", IOCHAR_FORMAT_VERSION);
	jw_kv_int(w, "start_unix_ms", r->start_unix_ms);
	jw_kv_bool(w, "partial", r->partial);
	jw_kv_uint(w, "elapsed_ns", r->elapsed_ns);
	jw_kv_uint(w, "ramp_ns", r->ramp_ns);
	jw_kv_string(w, "latency_origin",
		     r->open_loop ? "scheduled" : "submit");
	jw_kv_bool(w, "tool_limited", r->tool_limited);
	if (r->tool_limited) {
		jw_key(w, "tool_limited_reason");
		jw_string_n(w, r->tool_limited_reason, sizeof(r->tool_limited_reason));
	}
	emit_rate(w, r);
	if (r->sched_groups) { /* the autogroup weighed as fio's process jobs */
		jw_key(w, "sched_autogroup");
		jw_object_begin(w);
		jw_kv_uint(w, "groups", r->sched_groups);
		jw_kv_int(w, "nice", r->sched_nice);
		jw_object_end(w);
	}
	if (r->nr_notes) { /* what a terminal would have shown (util/note.h) */
		jw_key(w, "notes");
		jw_array_begin(w);
		for (unsigned i = 0; i < r->nr_notes; i++)
			jw_string(w, r->notes[i]);
		jw_array_end(w);
	}
}

/* One reporting group (fio's groupid): its jobs, when it ran, and its
 * workers' figures merged, rates over its longest worker's time. */
static int emit_group(struct jw *w, const struct run_result *r, unsigned g)
{
	struct worker_stats all;
	uint64_t elapsed = 0, start = UINT64_MAX, end = 0;
	unsigned n = 0, last_job = UINT32_MAX;
	int ret = 0;

	stats_init(&all);
	jw_object_begin(w);
	jw_kv_uint(w, "groupid", g);
	jw_key(w, "jobs");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_workers && !ret; i++) {
		const struct worker_result *wr = &r->workers[i];
		if (wr->group != g)
			continue;
		if (wr->job != last_job && wr->job < r->nr_jobs)
			jw_string_n(w, r->jobs[wr->job].name, sizeof(r->jobs[wr->job].name));
		last_job = wr->job;
		n++;
		elapsed = wr->elapsed_ns > elapsed ? wr->elapsed_ns : elapsed;
		start = wr->start_ns < start ? wr->start_ns : start;
		end = wr->end_ns > end ? wr->end_ns : end;
		ret = stats_merge(&all, &wr->stats);
	}
	jw_array_end(w);
	jw_kv_uint(w, "workers", n);
	jw_kv_uint(w, "start_ns", n ? start : 0);
	jw_kv_uint(w, "end_ns", end);
	jw_kv_uint(w, "elapsed_ns", elapsed);
	if (!ret)
		ret = emit_stats(w, &all, elapsed);
	jw_object_end(w);
	stats_free(&all);
	return ret;
}

static int emit_groups(struct jw *w, const struct run_result *r)
{
	unsigned groups = fio_group_count(r);
	int ret = 0;

	jw_key(w, "groups");
	jw_array_begin(w);
	for (unsigned g = 0; g < groups && !ret; g++)
		ret = emit_group(w, r, g);
	jw_array_end(w);
	return ret;
}

static int json_write(const struct run_result *r, FILE *f, bool plus)
{
	struct jw w;
	int ret;

	jw_init(&w, f, JSON_INDENT);
	jw_object_begin(&w);
	json_fio_emit(&w, r, plus); /* fio's layout first, as fio's readers expect */
	emit_header(&w, r);
	emit_options(&w, r);
	ret = emit_stats(&w, &r->total, r->elapsed_ns);
	if (ret)
		return ret;
	emit_cpu(&w, r);
	emit_verify(&w, r);
	emit_replay(&w, r);
	if ((ret = json_emit_vds(&w, r)))
		return ret;
	emit_intervals(&w, r);
	ret = emit_workers(&w, r);
	if (!ret)
		ret = emit_groups(&w, r);
	if (!ret)
		ret = json_emit_hosts(&w, r);
	if (ret)
		return ret;
	static const struct environment none; /* a result without one */
	json_emit_environment(&w, r->env ? r->env : &none);
	jw_object_end(&w);
	return jw_finish(&w);
}

int output_json_write(const struct run_result *r, FILE *f)
{
	return json_write(r, f, false);
}

int output_json_plus_write(const struct run_result *r, FILE *f)
{
	return json_write(r, f, true);
}
