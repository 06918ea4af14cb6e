/* json.c - the --output-format=json emitter: one JSON object per run.
 *
 * The schema, field by field, is in docs/output.md; keep the two in step.
 */
#define _GNU_SOURCE /* CPU_ISSET, CPU_SETSIZE */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "output/formats.h"
#include "output/json_fio.h"
#include "output/json_parts.h"
#include "output/json_writer.h"
#include "output/summary.h"
#include "output/vd_out.h"

#define JSON_INDENT  2
#define CPU_LIST_MAX 4096

/* "0-3,8,10-11" for set; "" when it is empty. */
static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu = 0;

	buf[0] = '\0';
	while (cpu < CPU_SETSIZE && used < len) {
		if (!CPU_ISSET(cpu, set)) {
			cpu++;
			continue;
		}
		int last = cpu;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		int n = last == cpu
			    ? snprintf(buf + used, len - used, "%s%d",
				       used ? "," : "", cpu)
			    : snprintf(buf + used, len - used, "%s%d-%d",
				       used ? "," : "", cpu, last);
		if (n < 0)
			break;
		used += (size_t)n;
		cpu = last + 1;
	}
}

void json_emit_job(struct jw *w, const struct job_spec *j)
{
	char buf[CPU_LIST_MAX];

	jw_object_begin(w);
	jw_key(w, "name");
	jw_string_n(w, j->name, sizeof(j->name));
	jw_kv_string(w, "filename", j->filename);
	jw_key(w, "files");
	jw_array_begin(w);
	for (unsigned i = 0; i < j->nr_files && i < JOB_MAX_FILES; i++)
		jw_string(w, j->files[i]);
	jw_array_end(w);
	if (j->vd[0]) /* only VD jobs: other runs' JSON stays as it was */
		jw_kv_string(w, "vd", j->vd);
	jw_kv_uint(w, "size", j->size);
	jw_kv_uint(w, "offset", j->offset);
	jw_kv_uint(w, "bs", j->bs);
	jw_kv_string(w, "rw", rw_name(j->rw));
	jw_kv_uint(w, "rwmixread", j->rwmixread);
	jw_kv_uint(w, "iodepth", j->iodepth);
	jw_kv_uint(w, "numjobs", j->numjobs);
	jw_kv_uint(w, "runtime_ns", j->runtime_ns);
	jw_kv_uint(w, "ramp_ns", j->ramp_ns);
	jw_kv_bool(w, "time_based", j->time_based);
	jw_key(w, "ioengine");
	jw_string_n(w, j->ioengine, sizeof(j->ioengine));
	jw_kv_bool(w, "direct", j->direct);
	jw_kv_uint(w, "rate_iops", j->rate_iops);
	jw_kv_string(w, "rate_process",
		  j->rate_process == RATE_POISSON ? "poisson" : "linear");
	if (j->dist == DIST_ZIPF)
		snprintf(buf, sizeof(buf), "zipf:%g", j->zipf_theta);
	else
		snprintf(buf, sizeof(buf), "uniform");
	jw_kv_string(w, "random_distribution", buf);
	if (j->cpus_set)
		cpu_list(&j->cpus_allowed, buf, sizeof(buf));
	jw_kv_string(w, "cpus_allowed", j->cpus_set ? buf : NULL);
	jw_kv_uint(w, "randseed", j->randseed);
	jw_kv_bool(w, "verify", j->verify);
	jw_kv_bool(w, "verify_fatal", j->verify_fatal);
	jw_kv_string(w, "journal", j->journal[0] ? j->journal : NULL);
	jw_kv_bool(w, "force", j->force);
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
	for (int d = 0; d < DIR_COUNT; d++)
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
	jw_kv_uint(w, "checked_units", c->checked_units);
	jw_kv_uint(w, "failures", c->failures);
	jw_kv_uint(w, "corrupted", c->corrupted);
	jw_kv_uint(w, "misplaced", c->misplaced);
	jw_kv_uint(w, "stale", c->stale);
	jw_kv_uint(w, "never_written", c->never_written);
	jw_kv_uint(w, "unverified_units", c->unverified_units);
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
	for (int d = 0; d < DIR_COUNT; d++) {
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
	if ((ret = json_emit_vds(&w, r)))
		return ret;
	emit_intervals(&w, r);
	ret = emit_workers(&w, r);
	if (!ret)
		ret = json_emit_hosts(&w, r);
	if (ret)
		return ret;
	json_emit_environment(&w, &r->env);
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
