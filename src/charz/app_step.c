/* app_step.c - see app_step.h. */
#define _GNU_SOURCE
#include "charz/app_step.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The app run st describes, without a place yet checked. */
static int make_run(const struct plan_step *st, struct app_run *r, struct ioc_err *err)
{
	const char *target = st->job.nr_files ? st->job.files[0] : NULL;

	if (!st->app_bench[0])
		return err_usage(err, EINVAL, "mode=app needs bench= (%s)", app_bench_names());
	if (!(r->bench = app_bench_find(st->app_bench)))
		return err_usage(err, EINVAL, "bench=%s: unknown; accepted: %s", st->app_bench,
				 app_bench_names());
	r->cfg.workload = st->app_workload[0] ? st->app_workload : r->bench->workloads[0];
	if (!app_bench_has_workload(r->bench, r->cfg.workload))
		return err_usage(err, EINVAL, "workload=%s: not one of %s's", r->cfg.workload,
				 r->bench->name);
	int ret = app_parse_threads("threads", st->app_threads, r->threads, &r->nthreads, err);
	if (ret)
		return ret;
	if (!target || st->job.nr_files != 1)
		return err_usage(err, EINVAL, "mode=app needs one filename= (a directory, or "
				 "a device with --force)");
	struct stat sb;
	bool dev = !stat(target, &sb) && S_ISBLK(sb.st_mode);
	r->place = (struct app_place){.dir_arg = dev ? NULL : target, .dev_arg = dev ? target : NULL,
				      .mkfs = "ext4", .force = st->job.force};
	r->secs = (unsigned)(st->app_time_ns / 1000000000ull);
	r->memory_ratio = 8.0;
	r->latency_target_ms = (double)st->job.latency_target_ns / 1e6;
	r->latency_device = st->app_lat_device != 0;
	r->cfg.tables = st->app_tables;
	r->cfg.table_size = st->app_table_size;
	r->cfg.scale = st->app_scale;
	return 0;
}

int app_step_validate(const struct plan_step *st, struct ioc_err *err)
{
	struct app_run *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return err_set(err, ENOMEM, "out of memory");
	ret = make_run(st, r, err);
	if (!ret)
		ret = app_check(r, err);
	free(r);
	if (ret)
		err_prefix(err, "step '%s'", st->label);
	return ret;
}

static void keep(const struct app_run *r, struct app_step_result *res)
{
	res->complete = r->complete;
	res->limit_ms = r->latency_target_ms;
	res->metric = app_latency_metric(r);
	res->best_threads = r->latency_target_ms > 0 ? app_best_threads(r) : -1;
	res->npoints = r->npoints;
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct app_point *p = &r->points[i];
		res->pts[i].threads = p->threads;
		res->pts[i].failed = p->error[0] != '\0';
		res->pts[i].tps = p->tps;
		res->pts[i].qps = p->qps;
		res->pts[i].lat_avg_ms = p->lat_avg_ms;
		res->pts[i].lat_p99_ms = p->lat_p99_ms;
	}
}

/* The run's directory: OUT/app-step<N>, new, or a temporary one. */
static int out_dir_for(unsigned idx, const char *out_dir, char *path, size_t size,
		       struct app_step_result *res, struct ioc_err *err)
{
	if (!out_dir) {
		snprintf(path, size, "/tmp/iochar-app-out-XXXXXX");
		return mkdtemp(path) ? 0 : err_set(err, errno, "app: %s: %s", path, strerror(errno));
	}
	snprintf(res->dir, sizeof(res->dir), "app-step%u", idx + 1);
	snprintf(path, size, "%s/%s", out_dir, res->dir);
	app_rm_tree(path); /* a step run again (resume) starts afresh */
	if (mkdir(path, 0755))
		return err_set(err, errno, "app: %s: %s", path, strerror(errno));
	return 0;
}

int app_step_run(const struct plan_step *st, unsigned idx, const char *out_dir,
		 const struct app_capture_ops *capture, atomic_bool *stop, bool progress,
		 struct app_step_result **res, struct ioc_err *err)
{
	static atomic_bool never;
	struct app_run *r = calloc(1, sizeof(*r));
	char path[4200], file[4300];
	int ret;

	*res = calloc(1, sizeof(**res));
	if (!r || !*res) {
		free(r);
		return err_set(err, ENOMEM, "out of memory");
	}
	if ((ret = make_run(st, r, err)) || (ret = app_check(r, err)) ||
	    (ret = out_dir_for(idx, out_dir, path, sizeof(path), *res, err))) {
		free(r);
		return ret;
	}
	r->outdir = path;
	r->progress = progress;
	r->capture = out_dir ? capture : NULL;
	r->no_capture_why = out_dir ? "no capture in this run" : "no output directory";
	ret = app_execute(r, stop ? stop : &never, err);
	keep(r, *res);
	if (out_dir) {
		struct ioc_err werr = {0};
		snprintf(file, sizeof(file), "%s/results.json", path);
		int wret = app_write_json(r, file, &werr);
		snprintf(file, sizeof(file), "%s/results.csv", path);
		if (!wret)
			wret = app_write_csv(r, file, &werr);
		if (wret && !ret)
			ret = (*err = werr, wret);
	} else {
		app_rm_tree(path);
	}
	free(r->points);
	free(r);
	return ret;
}

void app_step_json(struct jw *w, const struct app_step_result *r)
{
	jw_key(w, "app");
	jw_object_begin(w);
	jw_key(w, "dir");
	r->dir[0] ? jw_string(w, r->dir) : jw_null(w);
	jw_kv_bool(w, "complete", r->complete);
	jw_key(w, "latency_target");
	if (r->limit_ms > 0) {
		jw_object_begin(w);
		jw_kv_string(w, "metric", r->metric);
		jw_kv_double(w, "limit_ms", r->limit_ms);
		jw_key(w, "best_threads");
		r->best_threads < 0 ? jw_null(w) : jw_uint(w, (unsigned)r->best_threads);
		jw_kv_bool(w, "met", r->best_threads >= 0);
		jw_object_end(w);
	} else {
		jw_null(w);
	}
	jw_key(w, "points");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->npoints; i++) {
		jw_object_begin(w);
		jw_kv_uint(w, "threads", r->pts[i].threads);
		if (r->pts[i].failed) {
			jw_kv_bool(w, "failed", true);
		} else {
			jw_kv_double(w, "tps", r->pts[i].tps);
			jw_kv_double(w, "qps", r->pts[i].qps);
			jw_kv_double(w, "lat_avg_ms", r->pts[i].lat_avg_ms);
			jw_kv_double(w, "lat_p99_ms", r->pts[i].lat_p99_ms);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

void app_step_text(FILE *f, const char *label, const struct app_step_result *r)
{
	for (unsigned i = 0; i < r->npoints; i++) {
		if (r->pts[i].failed) {
			fprintf(f, "  %s %u threads: failed\n", label, r->pts[i].threads);
			continue;
		}
		fprintf(f, "  %s %u threads: %.1f TPS, %.1f QPS, avg %.2f ms, p99 %.2f ms\n",
			label, r->pts[i].threads, r->pts[i].tps, r->pts[i].qps,
			r->pts[i].lat_avg_ms, r->pts[i].lat_p99_ms);
	}
	if (r->limit_ms > 0 && r->best_threads >= 0)
		fprintf(f, "  %s: %d threads, the most with %s latency inside %.4g ms\n", label,
			r->best_threads, r->metric, r->limit_ms);
	else if (r->limit_ms > 0)
		fprintf(f, "  %s: no thread count kept %s latency inside %.4g ms\n", label,
			r->metric, r->limit_ms);
	if (r->dir[0])
		fprintf(f, "  %s: the app run's results in %s/\n", label, r->dir);
}

unsigned app_step_runs(const struct plan_step *st, uint64_t *run_ns, unsigned *sets)
{
	unsigned runs = 2;

	for (const char *c = st->app_threads; *c; c++)
		runs += *c == ',';
	*run_ns = st->app_time_ns;
	*sets = 1;
	return runs;
}
