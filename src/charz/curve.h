/* curve.h - vdbench-style latency-versus-load curves.
 *
 * First the maximum (closed loop, as fast as the job's iodepth and numjobs
 * allow), then each requested percentage of it as an open-loop run at that
 * rate (rate_iops split over the workers; linear or Poisson arrivals), in
 * which latency counts from each I/O's scheduled time, so a stalled device
 * cannot hide its queueing delay. A point whose achieved rate falls short of
 * the asked one by more than the tolerance is reported as not reached; a
 * stop limit ends the curve once latency passes it.
 */
#ifndef IOCHAR_CHARZ_CURVE_H
#define IOCHAR_CHARZ_CURVE_H

#include "charz/point.h"

struct curve_params {
	const unsigned *pct;     /* percentages of the maximum, ascending, > 0 */
	unsigned nr_pct;
	enum rate_process arrivals;
	enum lat_stat stat;      /* the statistic the stop limit applies to */
	uint64_t stop_ns;        /* 0 = never stop early */
	double reach_tolerance;  /* e.g. 0.02: achieved >= 98 % of asked = reached */
};

struct curve_point {
	unsigned pct;
	double asked_iops;       /* total over all workers */
	bool reached;
	struct point p;
};

struct curve_result {
	struct point max;        /* the 100 % reference */
	struct curve_point *points; /* owned; only the points run */
	unsigned nr_points;
	bool stopped;            /* the stop limit ended it early */
};

/* Run the curve for base (valid, closed-loop; its iodepth and numjobs are
 * used for every point). Returns 0 or the first measurement error; -EIO
 * with a message if the maximum run did no I/O. Release with
 * curve_result_free. */
int curve_run(const struct job_spec *base, const struct curve_params *cp,
	      measure_fn measure, void *arg, struct curve_result *res,
	      struct ioc_err *err);

void curve_result_free(struct curve_result *res);

#endif
