/* app_model.h - what the report and compare know of an application run
 * (`iochar app ... --out DIR`, "iochar_app": 1 at its top; docs/app.md):
 * a benchmark's transactions per thread count beside the device's own
 * figures for the same seconds and a summary of its captured trace.
 * Strings are malloc'd and owned; rs_app_free releases everything.
 * Figures the file left out or wrote as null are NaN.
 */
#ifndef IOCHAR_REPORT_APP_MODEL_H
#define IOCHAR_REPORT_APP_MODEL_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

/* The one format version of app results this iochar reads. */
#define RS_APP_VERSION 1

/* One second of the benchmark's own report. */
struct rs_app_sec {
	double t, tps, qps, lat_p99_ms;
};

/* One second of the device's block-layer statistics. */
struct rs_app_dev_sec {
	double t, read_iops, write_iops, read_mbps, write_mbps, read_lat_ms, write_lat_ms;
};

/* The device under the data directory over a point: /sys/block/NAME/stat
 * deltas (latency: ticks / ios, as iostat's r_await and w_await). */
struct rs_app_device {
	bool present;
	char *name;
	double read_iops, write_iops, read_mbps, write_mbps;
	double read_lat_ms, write_lat_ms, util_pct;
	struct rs_app_dev_sec *sec;
	unsigned nr_sec;
};

struct rs_app_size {
	uint64_t bytes;
	double share;              /* of the trace's I/Os, 0..1 */
};

/* What the captured trace of a point holds. */
struct rs_app_trace {
	bool present;
	uint64_t ios, bytes;
	double read_share;         /* of the I/Os, 0..1 */
	struct rs_app_size *sizes; /* most frequent first, as written */
	unsigned nr_sizes;
};

/* One thread count of the sweep; a failed one has error set and no figures. */
struct rs_app_point {
	unsigned threads;
	char *error;
	double seconds, tps, qps, lat_avg_ms, lat_p99_ms;
	uint64_t errors, reconnects;
	struct rs_app_sec *sec;
	unsigned nr_sec;
	struct rs_app_device dev;
	char *trace;               /* the trace file's name in DIR; NULL: none */
	char *trace_skipped;       /* why there is none; NULL */
	struct rs_app_trace summary;
};

struct rs_app {
	char *started, *bench, *workload;
	char *db_name, *db_version, *bench_name, *bench_version;
	struct json_object *db_config; /* owned; NULL: none given */
	char *target_kind, *target_path, *target_device, *target_fs;
	bool made_fs;
	bool bytes_measured;       /* dataset.bytes measured after the load, else estimated */
	char *failure;             /* why an incomplete run stopped; NULL */
	double dataset_bytes, buffer_pool_bytes, memory_ratio, load_seconds;
	double tables, table_size, scale;
	double time_s;
	struct rs_app_point *points;
	unsigned nr_points;
	/* "latency_target": has_target false when null */
	bool has_target, target_met;
	char *target_metric;
	double target_limit_ms;
	unsigned target_best_threads; /* 0: none met it */
};

void rs_app_free(struct rs_app *a);

/* Is the target's device worth naming beside its path (it has one, and
 * it is not the path itself)? */
bool app_on(const struct rs_app *a);

/* A data set's or buffer pool's size in MiB ("82.2 MiB"), as `iochar app`
 * prints it, into buf (at least 48 bytes); "–" when not finite. */
char *app_mib(char *buf, double bytes);

/* The point with the most threads that has figures; NULL: none. */
const struct rs_app_point *rs_app_largest(const struct rs_app *a);

/* The point of a that captured trace (matched by file name, directory
 * left out); NULL: none. */
const struct rs_app_point *rs_app_point_of_trace(const struct rs_app *a, const char *trace);

#endif
