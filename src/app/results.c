/* results.c - an `iochar app` run's results: JSON as
 * docs/app.md lays it out, CSV (one row a point), the text table. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/results_int.h"
#include "base/json_writer.h"
#include "util/csv.h"

static void json_devfig(struct jw *w, const struct app_devfig *f)
{
	jw_kv_double(w, "read_iops", f->read_iops);
	jw_kv_double(w, "write_iops", f->write_iops);
	jw_kv_double(w, "read_mbps", f->read_mbps);
	jw_kv_double(w, "write_mbps", f->write_mbps);
	jw_kv_double(w, "read_lat_ms", f->read_lat_ms);
	jw_kv_double(w, "write_lat_ms", f->write_lat_ms);
}

static void json_device(struct jw *w, const struct app_run *r, const struct app_point *p)
{
	jw_key(w, "device");
	if (!p->has_dev) {
		jw_null(w);
		return;
	}
	jw_object_begin(w);
	jw_kv_string(w, "name", r->place.device);
	json_devfig(w, &p->dev);
	jw_kv_double(w, "util_pct", p->dev.util_pct);
	jw_key(w, "per_second");
	jw_array_begin(w);
	for (unsigned s = 0; s < p->ndev_sec; s++) {
		jw_object_begin(w);
		jw_kv_uint(w, "t", s + 1);
		json_devfig(w, &p->dev_sec[s]);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

static void json_trace(struct jw *w, const struct app_point *p)
{
	if (!p->trace[0]) {
		jw_key(w, "trace");
		jw_null(w);
		jw_kv_string(w, "trace_skipped", p->trace_skipped);
		return;
	}
	jw_kv_string(w, "trace", p->trace);
	jw_key(w, "trace_summary");
	jw_object_begin(w);
	jw_kv_uint(w, "ios", p->tsum.ios);
	jw_kv_double(w, "read_share", p->tsum.read_share);
	jw_kv_uint(w, "bytes", p->tsum.bytes);
	jw_key(w, "sizes");
	jw_array_begin(w);
	for (unsigned k = 0; k < p->tsum.nsizes; k++) {
		jw_object_begin(w);
		jw_kv_uint(w, "bytes", p->tsum.sizes[k].bytes);
		jw_kv_double(w, "share", p->tsum.sizes[k].share);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

static void json_point(struct jw *w, const struct app_run *r, const struct app_point *p)
{
	jw_object_begin(w);
	jw_kv_uint(w, "threads", p->threads);
	if (p->error[0]) {
		jw_kv_string(w, "error", p->error);
		jw_object_end(w);
		return;
	}
	jw_kv_double(w, "seconds", p->seconds);
	jw_kv_double(w, "tps", p->tps);
	jw_kv_double(w, "qps", p->qps);
	jw_kv_double(w, "lat_avg_ms", p->lat_avg_ms);
	jw_kv_double(w, "lat_p99_ms", p->lat_p99_ms);
	jw_kv_uint(w, "errors", p->errors);
	jw_kv_uint(w, "reconnects", p->reconnects);
	jw_key(w, "per_second");
	jw_array_begin(w);
	for (unsigned s = 0; s < p->nsec; s++) {
		jw_object_begin(w);
		jw_kv_uint(w, "t", s + 1);
		jw_kv_double(w, "tps", p->sec[s].tps);
		jw_kv_double(w, "qps", p->sec[s].qps);
		jw_kv_double(w, "lat_p99_ms", p->sec[s].lat_p99_ms);
		jw_object_end(w);
	}
	jw_array_end(w);
	json_device(w, r, p);
	json_trace(w, p);
	jw_object_end(w);
}

static void json_latency_target(struct jw *w, const struct app_run *r)
{
	jw_key(w, "latency_target");
	if (r->latency_target_ms <= 0) {
		jw_null(w);
		return;
	}
	int best = app_best_threads(r);
	jw_object_begin(w);
	jw_kv_string(w, "metric", app_latency_metric(r));
	jw_kv_double(w, "limit_ms", r->latency_target_ms);
	jw_key(w, "best_threads");
	if (best < 0)
		jw_null(w);
	else
		jw_uint(w, (unsigned)best);
	jw_kv_bool(w, "met", best >= 0);
	jw_object_end(w);
}

static void json_run(struct jw *w, const struct app_run *r)
{
	jw_object_begin(w);
	jw_kv_uint(w, "iochar_app", 1);
	jw_kv_string(w, "iochar_version", IOCHAR_VERSION);
	jw_kv_string(w, "started", r->started);
	jw_kv_string(w, "bench", r->bench->name);
	jw_kv_string(w, "workload", r->cfg.workload);
	app_json_env(w, r);
	jw_kv_uint(w, "time_s", r->secs);
	jw_key(w, "threads");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nthreads; i++)
		jw_uint(w, r->threads[i]);
	jw_array_end(w);
	jw_key(w, "points");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->npoints; i++)
		json_point(w, r, &r->points[i]);
	jw_array_end(w);
	json_latency_target(w, r);
	jw_kv_bool(w, "complete", r->complete);
	if (r->failure[0])
		jw_kv_string(w, "failure", r->failure);
	jw_object_end(w);
}

int app_write_json_file(const struct app_run *r, void *file)
{
	struct jw w;

	jw_init(&w, file, 2);
	json_run(&w, r);
	return jw_finish(&w);
}

int app_write_json(const struct app_run *r, const char *path, struct ioc_err *err)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return err_set(err, errno, "app: %s: %s", path, strerror(errno));
	ret = app_write_json_file(r, f);
	if (fclose(f) || ret)
		return err_set(err, EIO, "app: %s: write failed", path);
	return 0;
}
