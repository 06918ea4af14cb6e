/* fio_figures.h - the figures fio's formats (json_fio.c, terse.c) share,
 * computed once from a worker's results; private to src/output/. */
#ifndef IOCHAR_OUTPUT_FIO_FIGURES_H
#define IOCHAR_OUTPUT_FIO_FIGURES_H

#include <stdbool.h>

#include "stats/result.h"

/* fio 3.x's default percentile list (its "percentile_list"). */
extern const double fio_pcts[17];
#define FIO_NR_PCTS 17

/* min, max, mean and population deviation of one direction's per-second
 * samples of bytes (KiB/s, as fio's bw_*) or I/Os. */
struct samples {
	double min, max, mean, dev;
	unsigned n;
};

struct samples fio_per_second(const struct interval_series *s, enum io_dir d, bool kib);

/* The histogram fio's figures of direction d come from: iochar's latency
 * in closed loop, its service time (from submission, as fio counts) in
 * rate-limited runs. */
const struct hist *fio_dir_hist(const struct worker_result *wr, enum io_dir d,
				bool open_loop);

/* fio's clat and slat of direction d: for an engine that queues, the
 * measured split (stats.h dir_stats.clat, .slat); for a synchronous one,
 * clat is fio_dir_hist's and slat is NULL (fio has none: N 0). */
const struct hist *fio_dir_clat(const struct worker_result *wr, enum io_dir d,
				bool open_loop);
const struct hist *fio_dir_slat(const struct worker_result *wr, enum io_dir d);

/* The percentiles fio's layout reports for job j: its percentile_list,
 * else fio's 17. Returns how many, *out set to them (ascending). */
unsigned fio_plist(const struct job_spec *j, const double **out);

/* The shares (%) of the DEPTH_BUCKETS counts c; false when they are all 0
 * (no measured I/O: nothing to show). */
bool fio_depth_shares(const uint64_t *c, double *pct);

/* fio's names of the depth buckets: "1" ... ">=64" for the level, "0",
 * "4" ... ">=64" for submissions and reaps. */
extern const char *const fio_depth_level_keys[DEPTH_BUCKETS];
extern const char *const fio_depth_batch_keys[DEPTH_BUCKETS];

/* One job's share of the process's counts (CPU %, context switches,
 * faults): iochar measures the process, fio each job's thread. */
struct fio_job_counts {
	double usr_cpu, sys_cpu;
	uint64_t ctx, majf, minf;
};

struct fio_job_counts fio_job_share(const struct run_result *r);

#endif
