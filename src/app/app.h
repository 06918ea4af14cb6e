/* app.h - `iochar app`: a real database benchmark on the device under
 * test. The run's sequence (run.c): the tools probed, the target checked
 * (nothing made before every input is good), a file system made when the
 * target is a device, the private server started with its data directory
 * on the target, the data set loaded, one point per thread count
 * (sweep.c: the benchmark's figures, the device's from /sys each second,
 * its block I/O captured), everything stopped and removed, also after a
 * signal or a failure; the results written (results.c). */
#ifndef IOCHAR_APP_APP_H
#define IOCHAR_APP_APP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "app/bench.h"
#include "app/db.h"
#include "app/place.h"
#include "app/point.h"
#include "util/err.h"

/* How a point's block I/O is captured: cmd/ wires `iochar capture`'s
 * blktrace session in (the app layer does not include cmd/). begin traces
 * device (a /dev path) until end writes the merged trace to file; both 0
 * or -errno with the reason. NULL ops: no capture. */
struct app_capture_ops {
	int (*begin)(void **session, const char *device, const char *workdir,
		     struct ioc_err *err);
	int (*end)(void *session, const char *file, struct ioc_err *err);
};

struct app_run {
	const struct app_bench *bench;
	struct app_bench_cfg cfg;
	struct app_db db;
	struct app_place place;
	unsigned threads[APP_MAX_POINTS], nthreads;
	unsigned secs;
	double memory_ratio;       /* data set / buffer pool, wanted */
	const char *outdir;        /* results and logs */
	bool progress;             /* progress lines on stderr */
	const struct app_capture_ops *capture;
	const char *no_capture_why; /* when capture is NULL: why */
	double latency_target_ms;  /* 0: none */
	bool latency_device;       /* judge the device's read latency, not the p99 */
	/* what the run found */
	struct app_point *points;  /* nthreads of them */
	unsigned npoints;          /* measured (some may have failed) */
	uint64_t dataset_est, dataset_bytes;
	/* the server's memory cap, page cache included (app/memcap.h), set
	 * once the data set is loaded; 0 with cap_note saying why none */
	uint64_t server_cap;
	char cap_note[200];
	double load_s;
	char started[32];
	bool complete;
	char failure[600];         /* why the run stopped, "" if it did not */
};

/* Sizes the run needs before it starts: the data set estimate and the
 * buffer pool; the room the target must have. */
uint64_t app_room_needed(struct app_run *r);

/* Check what the run will use (usage errors, exit 2) and the tools
 * (-ENOENT, exit 1). Writes nothing. */
int app_check(struct app_run *r, struct ioc_err *err);

/* Run it all; 0, or -errno with the reason in err (the results so far are
 * in r, labelled incomplete). Everything made is gone when it returns. */
int app_execute(struct app_run *r, atomic_bool *stop, struct ioc_err *err);

/* One point: threads clients for r->secs, the device sampled each second,
 * its I/O captured into trace-T<threads>.bin. 0, or -errno when the point
 * failed (p->error says why; the sweep goes on unless stopped). */
int app_point_run(struct app_run *r, struct app_point *p, atomic_bool *stop);

/* The highest thread count whose p99 (or with latency_device, the
 * device's average read latency, r_await) is inside r->latency_target_ms
 * (SLOB's method), or -1 when none is. */
int app_best_threads(const struct app_run *r);

/* "p99" or "device": what the latency target judges. */
const char *app_latency_metric(const struct app_run *r);

/* results.json, results.csv in r->outdir; the text table to f. */
int app_write_json(const struct app_run *r, const char *path, struct ioc_err *err);
int app_write_json_file(const struct app_run *r, void *file); /* FILE * */
int app_write_csv(const struct app_run *r, const char *path, struct ioc_err *err);
void app_write_text(const struct app_run *r, void *file);

#endif
