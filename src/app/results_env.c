/* results_env.c - the environment members of an `iochar app` run's JSON
 * (database, benchmark, target, data set), the latency target's answer. */
#define _GNU_SOURCE
#include <string.h>

#include "app/results_int.h"

static void json_database(struct jw *w, const struct app_run *r)
{
	jw_key(w, "database");
	jw_object_begin(w);
	jw_kv_string(w, "name", r->db.ops ? r->db.ops->name : r->bench->ops->db->name);
	jw_kv_string(w, "version", r->db.version);
	jw_key(w, "config");
	jw_object_begin(w);
	for (unsigned i = 0; i < r->db.nconf; i++)
		jw_kv_string(w, r->db.conf[i].key, r->db.conf[i].val);
	jw_object_end(w);
	jw_object_end(w);
}

/* The last run's command line, split at spaces (no argument of it holds
 * one: paths are iochar's own temporary directories). */
static void json_benchmark(struct jw *w, const struct app_run *r)
{
	char buf[sizeof(r->cfg.argv)];

	jw_key(w, "benchmark");
	jw_object_begin(w);
	jw_kv_string(w, "name", r->bench->ops->tool);
	jw_kv_string(w, "version", r->cfg.version);
	jw_key(w, "argv");
	jw_array_begin(w);
	snprintf(buf, sizeof(buf), "%s", r->cfg.argv);
	for (char *save, *a = strtok_r(buf, " ", &save); a; a = strtok_r(NULL, " ", &save))
		jw_string(w, a);
	jw_array_end(w);
	jw_object_end(w);
}

static void json_target(struct jw *w, const struct app_run *r)
{
	const struct app_place *p = &r->place;

	jw_key(w, "target");
	jw_object_begin(w);
	jw_kv_string(w, "kind", p->dev_arg ? "device" : "directory");
	jw_kv_string(w, "path", p->dev_arg ? p->dev_arg : p->dir_arg);
	jw_key(w, "device");
	if (p->device[0]) {
		char dev[80];
		snprintf(dev, sizeof(dev), "/dev/%s", p->device);
		jw_string(w, dev);
	} else {
		jw_null(w);
	}
	jw_kv_string(w, "fs", p->fs);
	jw_kv_bool(w, "made_fs", p->made_fs);
	jw_object_end(w);
}

static void json_dataset(struct jw *w, const struct app_run *r)
{
	uint64_t bytes = r->dataset_bytes ? r->dataset_bytes : r->dataset_est;
	bool sysbench = r->bench->ops == &app_sysbench;

	jw_key(w, "dataset");
	jw_object_begin(w);
	jw_kv_uint(w, "bytes", bytes);
	jw_kv_bool(w, "bytes_measured", r->dataset_bytes != 0);
	jw_kv_uint(w, "buffer_pool_bytes", r->db.buffer_pool);
	jw_kv_double(w, "memory_ratio", bytes ? (double)r->db.buffer_pool / (double)bytes : 0);
	jw_key(w, "tables");
	sysbench ? jw_uint(w, r->cfg.tables) : jw_null(w);
	jw_key(w, "table_size");
	sysbench ? jw_uint(w, r->cfg.table_size) : jw_null(w);
	jw_key(w, "scale");
	sysbench ? jw_null(w) : jw_uint(w, r->cfg.scale);
	jw_kv_double(w, "load_seconds", r->load_s);
	/* the server's memory cap, page cache included (null: none, and why) */
	jw_key(w, "server_memory_cap_bytes");
	r->server_cap ? jw_uint(w, r->server_cap) : jw_null(w);
	jw_kv_string(w, "server_memory_cap", r->cap_note);
	jw_object_end(w);
}

void app_json_env(struct jw *w, const struct app_run *r)
{
	json_database(w, r);
	json_benchmark(w, r);
	json_target(w, r);
	json_dataset(w, r);
}

int app_best_threads(const struct app_run *r)
{
	int best = -1;

	for (unsigned i = 0; i < r->npoints; i++) {
		const struct app_point *p = &r->points[i];
		double lat = r->latency_device ? p->dev.read_lat_ms : p->lat_p99_ms;
		if (!p->error[0] && (!r->latency_device || p->has_dev) &&
		    lat <= r->latency_target_ms && (int)p->threads > best)
			best = (int)p->threads;
	}
	return best;
}

const char *app_latency_metric(const struct app_run *r)
{
	return r->latency_device ? "device" : "p99";
}
