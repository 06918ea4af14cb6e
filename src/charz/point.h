/* point.h - one measured point of a characterization (a run reduced to the
 * figures searches, curves and reports compare), and the measuring callback
 * every algorithm in charz/ is written against.
 *
 * The algorithms (search.c, curve.c, precondition.c) never call the runner
 * themselves: they hand a job spec to a measure_fn. The real one
 * (measure.c) runs it; tests pass a simulated device model, so an
 * algorithm's choices can be checked against a known best.
 */
#ifndef IOCHAR_CHARZ_POINT_H
#define IOCHAR_CHARZ_POINT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "output/summary.h"
#include "util/err.h"

enum lat_stat {
	LAT_STAT_MEAN,
	LAT_STAT_P99,
	LAT_STAT_P99_9,
};

struct point {
	unsigned iodepth, numjobs;  /* as run */
	uint64_t rate_iops;         /* total asked (all workers); 0 = as fast as possible */
	struct stats_summary s;     /* read, write and total figures */
	uint64_t elapsed_ns;
	bool partial;               /* stopped early (signal, error) */
	bool inside;                /* set by the algorithm: met the latency limit */
};

/* Run job (a complete, valid spec) and reduce it to *out. Returns 0, or
 * -errno with a message in err. The algorithms stop on any failure. */
typedef int (*measure_fn)(void *arg, const struct job_spec *job,
			  struct point *out, struct ioc_err *err);

/* The latency statistic `stat` of p's total, in ns. */
double point_latency(const struct point *p, enum lat_stat stat);

/* "mean", "p99", "p99.9". */
const char *lat_stat_name(enum lat_stat stat);

/* Parse "mean", "p99", "p99.9" (also "p99_9"). 0 or -EINVAL. */
int lat_stat_parse(const char *s, enum lat_stat *out);

#endif
