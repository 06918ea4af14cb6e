/* curve.h - vdbench-style latency-versus-load curves.
 *
 * First the maximum (closed loop, as fast as the job's iodepth and numjobs
 * allow), then each requested percentage of it as an open-loop run at that
 * rate (rate_iops split over the workers; linear or Poisson arrivals), in
 * which latency counts from each I/O's scheduled time, so a stalled device
 * cannot hide its queueing delay. A point is reached when its average is
 * within the tolerance of the asked rate and at least CURVE_HOLD of its
 * seconds are within POINT_RATE_TOL of it (an average hides a stall: 37k
 * then 58k IOPS averages a 47k point). Every run lasts the job's runtime
 * (time_based). A point reached above the maximum means the maximum came
 * out low: it is measured again, and when that run or the point beats the
 * first maximum the curve says by how much. A stop limit ends the curve
 * once latency passes it.
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
	double reach_tolerance;  /* e.g. 0.02: average achieved >= 98 % of asked */
};

/* Why a curve without a runtime is refused: its runs are time_based. */
#define CURVE_NEEDS_RUNTIME "mode=curve needs runtime (each point runs that long, time_based)"

#define CURVE_HOLD 0.90          /* fraction of a point's seconds that must be on rate */

struct curve_point {
	unsigned pct;
	double asked_iops;       /* total over all workers */
	bool reached;
	struct point p;
};

struct curve_result {
	struct point max;        /* the 100 % reference */
	/* when a point was reached above max by more than POINT_RATE_TOL:
	 * the maximum measured again (elapsed_ns 0 when not run) */
	struct point remax;
	double top_reached_iops; /* the most IOPS of a reached point */
	/* the most the device showed closed loop or at a reached point: max,
	 * or the better of remax and top_reached when remax ran */
	double best_max_iops;
	/* best_max / max - 1 when over POINT_RATE_TOL, else 0: against the
	 * first maximum, the one every percentage is of */
	double underestimated;
	struct curve_point *points; /* owned; only the points run */
	unsigned nr_points;
	bool stopped;            /* the stop limit ended it early */
};

/* Run the curve for base (valid, closed-loop; its iodepth, numjobs and
 * runtime are used for every point, each run time_based). Returns 0 or
 * the first measurement error; -EINVAL without a runtime; -EIO with a
 * message if the maximum run did no I/O. Release with curve_result_free. */
int curve_run(const struct job_spec *base, const struct curve_params *cp,
	      measure_fn measure, void *arg, struct curve_result *res,
	      struct ioc_err *err);

void curve_result_free(struct curve_result *res);

#endif
