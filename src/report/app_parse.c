/* app_parse.c - an application run's results.json into struct rs_app
 * (docs/app.md has the format). Same rules as the other readers: a
 * required member missing or of the wrong type is a usage error naming
 * the file and the member; optional figures left out are NaN. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/app_model.h"
#include "report/app_parse.h"

#define WHERE_MAX 256

bool results_is_app(json_object *root)
{
	return json_object_is_type(root, json_type_object) &&
	       json_object_object_get_ex(root, "iochar_app", NULL);
}

/* Numbers a point or second may leave out: NaN then. */
static int opt_nums(const struct rj_ctx *c, json_object *o, const char *const *keys,
		    double *const *out)
{
	for (unsigned i = 0; keys[i]; i++) {
		*out[i] = NAN;
		int ret = rj_double(c, o, keys[i], false, out[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int req_nums(const struct rj_ctx *c, json_object *o, const char *const *keys,
		    double *const *out)
{
	for (unsigned i = 0; keys[i]; i++) {
		int ret = rj_double(c, o, keys[i], true, out[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_bench_secs(const struct rj_ctx *c, json_object *o, struct rs_app_point *p)
{
	size_t n;
	int ret;
	json_object *a = rj_objects(c, o, "per_second", false, &n, &ret);
	if (!a)
		return ret;
	if (!(p->sec = rj_calloc(c, n, sizeof(*p->sec), &ret)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		char buf[WHERE_MAX];
		struct rj_ctx cc = rj_child(c, "per_second", (int)i, buf, sizeof(buf));
		struct rs_app_sec *s = &p->sec[i];
		p->nr_sec = (unsigned)i + 1;
		if ((ret = req_nums(&cc, json_object_array_get_idx(a, i),
				    (const char *const[]){"t", "tps", NULL},
				    (double *const[]){&s->t, &s->tps})) ||
		    (ret = opt_nums(&cc, json_object_array_get_idx(a, i),
				    (const char *const[]){"qps", "lat_p99_ms", NULL},
				    (double *const[]){&s->qps, &s->lat_p99_ms})))
			return ret;
	}
	return 0;
}

static int parse_dev_secs(const struct rj_ctx *c, json_object *o, struct rs_app_device *d)
{
	size_t n;
	int ret;
	json_object *a = rj_objects(c, o, "per_second", false, &n, &ret);
	if (!a)
		return ret;
	if (!(d->sec = rj_calloc(c, n, sizeof(*d->sec), &ret)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		char buf[WHERE_MAX];
		struct rj_ctx cc = rj_child(c, "per_second", (int)i, buf, sizeof(buf));
		struct rs_app_dev_sec *s = &d->sec[i];
		d->nr_sec = (unsigned)i + 1;
		if ((ret = req_nums(&cc, json_object_array_get_idx(a, i),
				    (const char *const[]){"t", "read_iops", "write_iops", NULL},
				    (double *const[]){&s->t, &s->read_iops, &s->write_iops})) ||
		    (ret = opt_nums(&cc, json_object_array_get_idx(a, i),
				    (const char *const[]){"read_mbps", "write_mbps", "read_lat_ms",
							  "write_lat_ms", NULL},
				    (double *const[]){&s->read_mbps, &s->write_mbps,
						      &s->read_lat_ms, &s->write_lat_ms})))
			return ret;
	}
	return 0;
}

static int parse_device(const struct rj_ctx *pc, json_object *o, struct rs_app_device *d)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *dev = rj_member(pc, o, "device", json_type_object, false, &ret);
	if (!dev)
		return ret;
	struct rj_ctx c = rj_child(pc, "device", -1, buf, sizeof(buf));
	d->present = true;
	if ((ret = rj_str(&c, dev, "name", true, &d->name)) ||
	    (ret = req_nums(&c, dev, (const char *const[]){"read_iops", "write_iops", NULL},
			    (double *const[]){&d->read_iops, &d->write_iops})) ||
	    (ret = opt_nums(&c, dev,
			    (const char *const[]){"read_mbps", "write_mbps", "read_lat_ms",
						  "write_lat_ms", "util_pct", NULL},
			    (double *const[]){&d->read_mbps, &d->write_mbps, &d->read_lat_ms,
					      &d->write_lat_ms, &d->util_pct})))
		return ret;
	return parse_dev_secs(&c, dev, d);
}

static int parse_sizes(const struct rj_ctx *c, json_object *o, struct rs_app_trace *t)
{
	size_t n;
	int ret;
	json_object *a = rj_objects(c, o, "sizes", true, &n, &ret);
	if (!a)
		return ret;
	if (!(t->sizes = rj_calloc(c, n, sizeof(*t->sizes), &ret)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		char buf[WHERE_MAX];
		struct rj_ctx cc = rj_child(c, "sizes", (int)i, buf, sizeof(buf));
		json_object *e = json_object_array_get_idx(a, i);
		t->nr_sizes = (unsigned)i + 1;
		if ((ret = rj_u64(&cc, e, "bytes", true, &t->sizes[i].bytes)) ||
		    (ret = rj_double(&cc, e, "share", true, &t->sizes[i].share)))
			return ret;
		if (!(t->sizes[i].share <= 1))
			return rj_fail(&cc, "share", "expected a share from 0 to 1");
	}
	return 0;
}

static int parse_trace(const struct rj_ctx *pc, json_object *o, struct rs_app_point *p)
{
	char buf[WHERE_MAX];
	int ret;
	if ((ret = rj_str(pc, o, "trace", false, &p->trace)) ||
	    (ret = rj_str(pc, o, "trace_skipped", false, &p->trace_skipped)))
		return ret;
	json_object *ts = rj_member(pc, o, "trace_summary", json_type_object, false, &ret);
	if (!ts)
		return ret;
	struct rj_ctx c = rj_child(pc, "trace_summary", -1, buf, sizeof(buf));
	struct rs_app_trace *t = &p->summary;
	t->present = true;
	if ((ret = rj_u64(&c, ts, "ios", true, &t->ios)) ||
	    (ret = rj_u64(&c, ts, "bytes", true, &t->bytes)) ||
	    (ret = rj_double(&c, ts, "read_share", true, &t->read_share)))
		return ret;
	if (!(t->read_share <= 1))
		return rj_fail(&c, "read_share", "expected a share from 0 to 1");
	return parse_sizes(&c, ts, t);
}

static int parse_point(const struct rj_ctx *c, json_object *o, struct rs_app_point *p)
{
	int ret;
	p->seconds = p->tps = p->qps = p->lat_avg_ms = p->lat_p99_ms = NAN;
	if ((ret = rj_uint(c, o, "threads", true, &p->threads)) ||
	    (ret = rj_str(c, o, "error", false, &p->error)))
		return ret;
	if (p->threads == 0)
		return rj_fail(c, "threads", "expected 1 or more");
	if (p->error) /* a failed point is kept with no figures */
		return 0;
	if ((ret = req_nums(c, o, (const char *const[]){"tps", "lat_avg_ms", "lat_p99_ms", NULL},
			    (double *const[]){&p->tps, &p->lat_avg_ms, &p->lat_p99_ms})) ||
	    (ret = opt_nums(c, o, (const char *const[]){"seconds", "qps", NULL},
			    (double *const[]){&p->seconds, &p->qps})) ||
	    (ret = rj_u64(c, o, "errors", false, &p->errors)) ||
	    (ret = rj_u64(c, o, "reconnects", false, &p->reconnects)) ||
	    (ret = parse_bench_secs(c, o, p)) || (ret = parse_device(c, o, &p->dev)))
		return ret;
	return parse_trace(c, o, p);
}

static int parse_points(const struct rj_ctx *c, json_object *root, struct rs_app *a)
{
	size_t n;
	int ret;
	json_object *arr = rj_objects(c, root, "points", true, &n, &ret);
	if (!arr)
		return ret;
	if (!(a->points = rj_calloc(c, n, sizeof(*a->points), &ret)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		char buf[WHERE_MAX];
		struct rj_ctx cc = rj_child(c, "points", (int)i, buf, sizeof(buf));
		a->nr_points = (unsigned)i + 1;
		if ((ret = parse_point(&cc, json_object_array_get_idx(arr, i), &a->points[i])))
			return ret;
	}
	return 0;
}

/* "name" and "version" of the object key; its "config" kept as a tree. */
static int parse_named(const struct rj_ctx *pc, json_object *root, const char *key,
		       char **name, char **version, json_object **config)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *o = rj_member(pc, root, key, json_type_object, true, &ret);
	if (!o)
		return ret;
	struct rj_ctx c = rj_child(pc, key, -1, buf, sizeof(buf));
	if ((ret = rj_str(&c, o, "name", true, name)) ||
	    (ret = rj_str(&c, o, "version", true, version)))
		return ret;
	if (!config)
		return 0;
	json_object *cfg = rj_member(&c, o, "config", json_type_object, false, &ret);
	if (cfg)
		*config = json_object_get(cfg);
	return ret;
}

static int parse_target(const struct rj_ctx *pc, json_object *root, struct rs_app *a)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *o = rj_member(pc, root, "target", json_type_object, true, &ret);
	if (!o)
		return ret;
	struct rj_ctx c = rj_child(pc, "target", -1, buf, sizeof(buf));
	if ((ret = rj_str(&c, o, "kind", true, &a->target_kind)) ||
	    (ret = rj_str(&c, o, "path", true, &a->target_path)) ||
	    (ret = rj_str(&c, o, "device", false, &a->target_device)) ||
	    (ret = rj_str(&c, o, "fs", false, &a->target_fs)))
		return ret;
	return rj_bool(&c, o, "made_fs", false, &a->made_fs);
}

static int parse_dataset(const struct rj_ctx *pc, json_object *root, struct rs_app *a)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *o = rj_member(pc, root, "dataset", json_type_object, true, &ret);
	if (!o)
		return ret;
	struct rj_ctx c = rj_child(pc, "dataset", -1, buf, sizeof(buf));
	if ((ret = req_nums(&c, o, (const char *const[]){"bytes", "buffer_pool_bytes",
							 "memory_ratio", NULL},
			    (double *const[]){&a->dataset_bytes, &a->buffer_pool_bytes,
					      &a->memory_ratio})))
		return ret;
	if ((ret = rj_bool(&c, o, "bytes_measured", false, &a->bytes_measured)))
		return ret;
	return opt_nums(&c, o, (const char *const[]){"tables", "table_size", "scale",
						     "load_seconds", NULL},
			(double *const[]){&a->tables, &a->table_size, &a->scale,
					  &a->load_seconds});
}

static int parse_target_latency(const struct rj_ctx *pc, json_object *root, struct rs_app *a)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *o = rj_member(pc, root, "latency_target", json_type_object, false, &ret);
	if (!o)
		return ret;
	struct rj_ctx c = rj_child(pc, "latency_target", -1, buf, sizeof(buf));
	a->has_target = true;
	if ((ret = rj_str(&c, o, "metric", true, &a->target_metric)) ||
	    (ret = rj_double(&c, o, "limit_ms", true, &a->target_limit_ms)) ||
	    (ret = rj_uint(&c, o, "best_threads", false, &a->target_best_threads)))
		return ret;
	return rj_bool(&c, o, "met", true, &a->target_met);
}

static int parse_version(const struct rj_ctx *c, json_object *root)
{
	json_object *v = NULL;
	json_object_object_get_ex(root, "iochar_app", &v);
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) != RS_APP_VERSION)
		return err_usage(c->err, EINVAL,
				 "%s: iochar_app: format %s is not the one this iochar reads (%d)",
				 c->file, v ? json_object_to_json_string(v) : "null",
				 RS_APP_VERSION);
	return 0;
}

static int parse_head(const struct rj_ctx *c, json_object *root, struct rs_set *s)
{
	struct rs_app *a = s->app;
	int ret;
	if ((ret = parse_version(c, root)) ||
	    (ret = rj_str(c, root, "iochar_version", true, &s->iochar_version)) ||
	    (ret = rj_str(c, root, "started", false, &a->started)) ||
	    (ret = rj_str(c, root, "bench", true, &a->bench)) ||
	    (ret = rj_str(c, root, "workload", true, &a->workload)) ||
	    (ret = parse_named(c, root, "database", &a->db_name, &a->db_version, &a->db_config)) ||
	    (ret = parse_named(c, root, "benchmark", &a->bench_name, &a->bench_version, NULL)) ||
	    (ret = parse_target(c, root, a)) || (ret = parse_dataset(c, root, a)) ||
	    (ret = rj_double(c, root, "time_s", true, &a->time_s)) ||
	    (ret = rj_bool(c, root, "complete", true, &s->complete)) ||
	    (ret = rj_str(c, root, "failure", false, &a->failure)))
		return ret;
	json_object *env = rj_member(c, root, "environment", json_type_object, false, &ret);
	if (env)
		s->environment = json_object_get(env);
	return ret;
}

int results_parse_app(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err)
{
	struct rj_ctx c = {.file = file, .where = "", .err = err};
	int ret;
	s->app = calloc(1, sizeof(*s->app));
	if (!s->app)
		return rj_oom(&c);
	s->is_run = true;
	s->format_version = RS_APP_VERSION;
	s->app->dataset_bytes = s->app->scale = s->app->tables = NAN;
	if ((ret = parse_head(&c, root, s)) || (ret = parse_points(&c, root, s->app)))
		return ret;
	return parse_target_latency(&c, root, s->app);
}
