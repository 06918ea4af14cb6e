/* results_model.c - see results_model.h. */
#include "report/results_model.h"
#include "report/app_model.h"
#include "report/net_model.h"
#include "base/job_options.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double rs_pct_value[RS_NR_PCT] = {50, 90, 95, 99, 99.9, 99.99};
const char *const rs_pct_key[RS_NR_PCT] = {"p50",  "p90",   "p95",
					   "p99", "p99_9", "p99_99"};

const char *rs_mode_name(enum rs_mode m)
{
	switch (m) {
	case RS_SEARCH:
		return "search";
	case RS_CURVE:
		return "curve";
	case RS_PRECONDITION:
		return "precondition";
	case RS_REBUILD:
		return "rebuild";
	case RS_APP:
		return "app";
	case RS_FIXED:
		break;
	}
	return "fixed";
}

bool rs_step_is_random(const struct rs_step *st)
{
	return st->job.rw && !strncmp(st->job.rw, "rand", 4);
}

const struct rs_point *rs_tset_headline(const struct rs_step *st,
					const struct rs_tset *ts)
{
	switch (st->mode) {
	case RS_FIXED:
		return ts->nr_points ? &ts->points[0] : NULL;
	case RS_SEARCH:
		return ts->best >= 0 && (unsigned)ts->best < ts->nr_points
			       ? &ts->points[ts->best]
			       : NULL;
	case RS_CURVE:
		return ts->has_max ? &ts->max : NULL;
	case RS_REBUILD:
		return ts->nr_points ? &ts->points[0] : NULL;
	case RS_PRECONDITION:
	case RS_APP:
		break;
	}
	return NULL;
}

double rs_dir_latency(const struct rs_step *st, const struct rs_dir *d)
{
	const char *s = st->latency_stat ? st->latency_stat : "mean";
	if (!strcmp(s, "p99"))
		return (double)d->lat.pct[RS_P99];
	if (!strcmp(s, "p99.9"))
		return (double)d->lat.pct[RS_P99_9];
	return d->lat.mean;
}

double rs_point_latency(const struct rs_step *st, const struct rs_point *p)
{
	return rs_dir_latency(st, &p->total);
}

double rs_point_judged_latency(const struct rs_step *st, const struct rs_point *p)
{
	const char *stat = st->latency_stat ? st->latency_stat : "mean";
	double worst = 0;

	if (p->has_judged && (!strcmp(stat, "mean") || !strcmp(stat, "p99")))
		return !strcmp(stat, "mean") ? p->judged_mean_ns : p->judged_p99_ns;
	if (st->latency_scope && !strcmp(st->latency_scope, "total"))
		return rs_point_latency(st, p);
	if (p->read.ios)
		worst = rs_dir_latency(st, &p->read);
	if (p->write.ios && rs_dir_latency(st, &p->write) > worst)
		worst = rs_dir_latency(st, &p->write);
	return p->read.ios || p->write.ios ? worst : rs_point_latency(st, p);
}

bool rs_point_open_loop(const struct rs_point *p)
{
	if (p->latency_origin)
		return !strcmp(p->latency_origin, "scheduled");
	return p->total.has_service;
}

void rs_point_free(struct rs_point *p)
{
	if (!p)
		return;
	free(p->iv);
	p->iv = NULL;
	free(p->tool_limited_reason);
	p->tool_limited_reason = NULL;
	free(p->latency_origin);
	p->latency_origin = NULL;
	for (unsigned i = 0; i < p->nr_hosts; i++) {
		free(p->hosts[i].host);
		free(p->hosts[i].label);
		free(p->hosts[i].error);
	}
	free(p->hosts);
	p->hosts = NULL;
	p->nr_hosts = 0;
	for (unsigned i = 0; i < p->nr_replay; i++) {
		free(p->replay[i].name);
		free(p->replay[i].read_iolog);
	}
	free(p->replay);
	p->replay = NULL;
	p->nr_replay = 0;
	rs_point_free_targets(p);
	if (p->other) {
		rs_point_free(p->other);
		free(p->other);
		p->other = NULL;
	}
}

static void free_strv(char **v, unsigned n)
{
	for (unsigned i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void free_tset(struct rs_tset *ts)
{
	free_strv(ts->targets, ts->nr_targets);
	for (unsigned i = 0; i < ts->nr_points; i++)
		rs_point_free(&ts->points[i]);
	free(ts->points);
	rs_point_free(&ts->max);
	rs_point_free(&ts->max_again);
	rs_point_free(&ts->repeat);
	for (unsigned i = 0; i < ts->nr_curve; i++)
		rs_point_free(&ts->curve[i].p);
	free(ts->curve);
	free(ts->rounds_iops);
	free_strv(ts->rebuild_rates, ts->nr_rebuild);
	free(ts->rebuild_bw);
	free(ts->discipline);
}

#define RS_JOB(row, f, kind) {row, offsetof(struct rs_job, f), kind}

static const struct rs_job_field job_fields[] = {
	RS_JOB("name", name, RS_STR),
	RS_JOB("filename", filename, RS_FILES),
	RS_JOB("size", size, RS_U64),
	RS_JOB("offset", offset, RS_U64),
	RS_JOB("bs", bs, RS_U64),
	RS_JOB("rw", rw, RS_STR),
	RS_JOB("rwmixread", rwmixread, RS_UINT),
	RS_JOB("iodepth", iodepth, RS_UINT),
	RS_JOB("numjobs", numjobs, RS_UINT),
	RS_JOB("runtime", runtime_ns, RS_U64),
	RS_JOB("ramp_time", ramp_ns, RS_U64),
	RS_JOB("time_based", time_based, RS_BOOL),
	RS_JOB("ioengine", ioengine, RS_STR),
	RS_JOB("direct", direct, RS_BOOL),
	RS_JOB("rate_iops", rate_iops, RS_U64),
	RS_JOB("rate_process", rate_process, RS_STR),
	RS_JOB("random_distribution", random_distribution, RS_STR),
	RS_JOB("cpus_allowed", cpus_allowed, RS_STR),
	RS_JOB("randseed", randseed, RS_U64),
};

const struct rs_job_field *rs_job_fields(size_t *nr)
{
	*nr = sizeof(job_fields) / sizeof(job_fields[0]);
	return job_fields;
}

const struct option_def *rs_job_field_row(const struct rs_job_field *f)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);

	return option_find_in(rows, nr, f->row);
}

void rs_job_free(struct rs_job *j)
{
	if (!j)
		return;
	free(j->name);
	free(j->filename);
	free(j->rw);
	free(j->ioengine);
	free(j->rate_process);
	free(j->random_distribution);
	free(j->cpus_allowed);
	free_strv(j->files, j->nr_files);
	memset(j, 0, sizeof(*j));
}

static void free_step(struct rs_step *st)
{
	free(st->section);
	free(st->label);
	free(st->targets_use);
	free(st->latency_stat);
	free(st->latency_scope);
	free(st->error);
	free(st->app_dir);
	rs_job_free(&st->job);
	for (unsigned i = 0; st->sets && i < st->nr_sets; i++)
		free_tset(&st->sets[i]);
	free(st->sets);
	free(st->scaling.targets);
	free(st->scaling.iops);
	free(st->scaling.bw_bytes);
	free(st->scaling.lat_ns);
	free(st->scaling.stdev);
	free(st->scaling.runs);
	free(st->scaling.latency_stat);
	free(st->scaling.verdict);
	free(st->scaling.message);
	free(st->model.bound_by);
	free(st->model.knee_cause);
	free(st->model.why);
}

void rs_set_free(struct rs_set *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->name);
	free(s->iochar_version);
	free(s->fio_version);
	free(s->plan);
	free(s->source);
	if (s->environment)
		json_object_put(s->environment);
	for (unsigned i = 0; s->host_envs && i < s->nr_host_envs; i++) {
		free(s->host_envs[i].host);
		if (s->host_envs[i].env)
			json_object_put(s->host_envs[i].env);
	}
	free(s->host_envs);
	for (unsigned i = 0; s->steps && i < s->nr_steps; i++)
		free_step(&s->steps[i]);
	free(s->steps);
	rs_net_free(s->net);
	free(s->net);
	rs_mesh_free(s->mesh);
	free(s->mesh);
	rs_app_free(s->app);
	free(s->app);
	for (unsigned i = 0; i < s->nr_step_apps; i++)
		rs_set_free(&s->step_apps[i]);
	free(s->step_apps);
	memset(s, 0, sizeof(*s));
}

const char *report_workload_name(char *buf, size_t len, const struct rs_step *st, unsigned k)
{
	/* a scaling step's target sets are named by their size, the reader's
	 * x axis; other steps' by their place */
	if (st->nr_sets > 1 && st->targets_use && !strcmp(st->targets_use, "scaling"))
		snprintf(buf, len, "%s (%u target%s)", st->label, st->sets[k].nr_targets,
			 st->sets[k].nr_targets == 1 ? "" : "s");
	else if (st->nr_sets > 1)
		snprintf(buf, len, "%s #%u", st->label, k + 1);
	else
		snprintf(buf, len, "%s", st->label);
	return buf;
}
