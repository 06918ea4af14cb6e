/* bench.h - the benchmarks `iochar app` runs against its private server,
 * as an ops table (sysbench.c, pgbench.c): the data set loaded, one run
 * of T clients for S seconds started, its output read into a point. */
#ifndef IOCHAR_APP_BENCH_H
#define IOCHAR_APP_BENCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "app/db.h"
#include "app/point.h"
#include "util/err.h"

struct app_bench_cfg {
	const struct app_db *db;
	const char *workload;   /* one of the bench's workloads */
	unsigned tables;        /* sysbench */
	uint64_t table_size;    /* sysbench rows per table */
	unsigned scale;         /* pgbench -s */
	const char *outdir;     /* logs go here */
	const char *progress;   /* the load's progress label; NULL: none */
	char argv[1024];        /* the last run's command line, for the results */
	char version[64];
};

struct app_bench_ops {
	const char *tool;                 /* "sysbench", "pgbench" */
	const struct app_db_ops *db;
	int (*probe)(struct app_bench_cfg *c, struct ioc_err *err);
	uint64_t (*estimate)(const struct app_bench_cfg *c); /* data set bytes */
	/* Load the data set; 0 or -errno with the reason. */
	int (*prepare)(struct app_bench_cfg *c, atomic_bool *stop, struct ioc_err *err);
	/* Start a run of threads clients for secs, output into log; its pid
	 * or -errno. */
	pid_t (*start)(struct app_bench_cfg *c, unsigned threads, unsigned secs,
		       const char *log);
	/* Read the run's output into p; 0 or -errno with the reason. */
	int (*parse)(const struct app_bench_cfg *c, const char *log, struct app_point *p,
		     struct ioc_err *err);
};

/* A BENCH of the command line: its ops and its workloads (the first the
 * default). */
struct app_bench {
	const char *name;
	const struct app_bench_ops *ops;
	const char *const *workloads;
};

extern const struct app_bench_ops app_sysbench, app_pgbench;

/* The BENCH named name, or NULL. */
const struct app_bench *app_bench_find(const char *name);
/* "sysbench-oltp, sysbench-read, ..." for messages. */
const char *app_bench_names(void);
/* Is w one of b's workloads? */
bool app_bench_has_workload(const struct app_bench *b, const char *w);

#define APP_MAX_POINTS 32

/* "1,2,4,8" into out[0..*n): 1 to 4096 each, rising, at most
 * APP_MAX_POINTS; a usage error naming key otherwise. */
int app_parse_threads(const char *key, const char *s, unsigned *out, unsigned *n,
		      struct ioc_err *err);

#endif
