/* lat_target.h - fio's latency_target profiling of one worker
 * (latency_target, latency_window, latency_percentile; fio's io_u.c
 * lat_target_*): the worker starts at depth 1; each window in which the
 * share of I/Os within the target reaches the percentile doubles the
 * depth (or bisects up to the last failing one), one that misses bisects
 * down and drains what is in flight. When the depth stops changing, the
 * statistics start over for one last window at that depth and the job
 * ends: its results are those of the depth found (fio's latency_depth).
 * With percentile 100 one I/O over the target ramps down at once, and at
 * depth 1 fails the job (ETIMEDOUT). */
#ifndef IOCHAR_CORE_LAT_TARGET_H
#define IOCHAR_CORE_LAT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"

struct lat_target {
	uint64_t target_ns, window_ns;
	double pct;
	unsigned iodepth;          /* the job's: the most tried */
	unsigned qd, low, high, stable;
	bool end_run;              /* the last window, at the depth found */
	uint64_t ts_ns, ios, ios_at, failed;
};

enum lat_step {
	LAT_GO,       /* carry on at depth qd */
	LAT_QUIESCE,  /* the depth went down: let what is in flight finish */
	LAT_FINAL,    /* drain, start the statistics over, one last window */
	LAT_DONE,     /* the job is done */
	LAT_FATAL,    /* over the target at depth 1 (percentile 100) */
};

/* Is job j profiling a latency target? */
static inline bool lat_target_on(const struct job_spec *j)
{
	return j->latency_target_ns != 0;
}

void lat_target_init(struct lat_target *t, const struct job_spec *j, uint64_t now_ns);

/* A completed I/O's latency. */
enum lat_step lat_target_io(struct lat_target *t, uint64_t lat_ns, uint64_t now_ns);

/* After reaping: judge the window once it has lasted latency_window. */
enum lat_step lat_target_check(struct lat_target *t, uint64_t now_ns);

#endif
