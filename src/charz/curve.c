/* curve.c - vdbench-style latency-versus-load curves (iorate=curve).
 *
 * The maximum comes first: base run closed loop (rate_iops 0). Each
 * percentage then asks for pct % of the maximum's total IOPS, split over
 * the workers (per-worker rate_iops = ceil(asked / numjobs), at least 1)
 * with the requested arrival process. A point is reached when its achieved
 * total IOPS is at least asked x (1 - reach_tolerance) and, when the run
 * had whole seconds, at least CURVE_HOLD of them were on rate; points past
 * 100 % are run and usually not reached, which is reported, not an error.
 * When a point's latency statistic passes stop_ns, the points after it are
 * not run (stopped). Every run is time-bound (time_based for the job's
 * runtime, as vdbench's elapsed=): a point that ends when the file has
 * been read once lasts tens of milliseconds, has no whole second to judge
 * and would be judged on its average alone. After the points, a reached
 * point above the maximum (by more than POINT_RATE_TOL) has the maximum
 * run once more; when the better of that and the point beats the first
 * maximum by more than POINT_RATE_TOL, the curve is marked underestimated
 * by that much (the percentages stay of the first maximum).
 */
#include "charz/curve.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Run base with rate_iops per worker (0 = closed loop) into *out. */
static int run_point(const struct job_spec *base, uint64_t rate_iops,
		     enum rate_process arrivals, measure_fn measure, void *arg,
		     unsigned call, struct point *out, struct ioc_err *err)
{
	struct job_spec job;
	int ret = job_spec_copy(&job, base);

	if (ret)
		return err_set(err, ret, "curve: out of memory");
	job.rate_iops = rate_iops;
	job.time_based = true; /* runtime long, whatever the file's size */
	if (rate_iops)
		job.rate_process = arrivals;
	memset(out, 0, sizeof(*out));
	ret = measure(arg, &job, out, err);
	if (ret && err && err->msg[0])
		err_prefix(err, "curve rate_iops=%llu",
			   (unsigned long long)rate_iops);
	out->iodepth = job.iodepth;
	out->numjobs = job.numjobs;
	out->rate_iops = rate_iops * job.numjobs;
	out->call = call;
	out->runs = 1;
	job_spec_free(&job);
	return ret;
}

static int check_params(const struct job_spec *base, const struct curve_params *cp,
			struct ioc_err *err)
{
	if (!base->runtime_ns) /* time_based without it would never end */
		return err_set(err, EINVAL, CURVE_NEEDS_RUNTIME);
	if (cp->nr_pct && !cp->pct)
		return err_set(err, EINVAL, "curve: no percentages");
	for (unsigned i = 0; i < cp->nr_pct; i++)
		if (cp->pct[i] == 0)
			return err_set(
			    err, EINVAL,
			    "curve: a percentage of 0 asks for no I/O");
	return 0;
}

/* Run percentage pct of max_iops into *cpt. */
static int run_pct(const struct job_spec *base, const struct curve_params *cp,
		   unsigned pct, double max_iops, measure_fn measure, void *arg,
		   unsigned call, struct curve_point *cpt, struct ioc_err *err)
{
	unsigned nj = base->numjobs ? base->numjobs : 1;
	double asked = max_iops * pct / 100.0;
	double per_worker = ceil(asked / nj);
	int ret;

	if (per_worker < 1)
		per_worker = 1;
	cpt->pct = pct;
	cpt->asked_iops = asked;
	ret = run_point(base, (uint64_t)per_worker, cp->arrivals, measure, arg,
			call, &cpt->p, err);
	if (ret)
		return ret;
	/* the average may miss by the tolerance or the arrivals' own noise */
	double secs = (double)cpt->p.elapsed_ns / 1e9;
	double tol = point_rate_tolerance(asked, secs, cp->arrivals == RATE_POISSON,
					  cp->reach_tolerance);
	cpt->reached = cpt->p.s.total.iops >= asked * (1.0 - tol) &&
		       (!cpt->p.nr_sec ||
			cpt->p.sec_on_rate >= CURVE_HOLD * cpt->p.nr_sec);
	return 0;
}

/* A reached point above the maximum: run the maximum again. The device
 * did at least the best of that run and the point, so the first maximum
 * was low by best / first - 1; marked past POINT_RATE_TOL, the margin a
 * point's own seconds may miss the asked rate by (a maximum within it
 * moves every asked rate by less than a point is allowed to miss). The
 * mark is against the first maximum because every percentage is of it:
 * a 217k maximum re-measured at 864k is 297 % low, though the point that
 * gave it away reached only 283k. */
static int check_max(const struct job_spec *base, const struct curve_params *cp,
		     measure_fn measure, void *arg, struct curve_result *res,
		     struct ioc_err *err)
{
	double top = 0, first = res->max.s.total.iops, best;
	int ret;

	for (unsigned i = 0; i < res->nr_points; i++)
		if (res->points[i].reached && res->points[i].p.s.total.iops > top)
			top = res->points[i].p.s.total.iops;
	res->top_reached_iops = top;
	res->best_max_iops = first;
	if (!(top > first * (1 + POINT_RATE_TOL)))
		return 0;
	ret = run_point(base, 0, cp->arrivals, measure, arg, res->nr_points + 1,
			&res->remax, err);
	if (ret)
		return ret;
	best = res->remax.s.total.iops > top ? res->remax.s.total.iops : top;
	res->best_max_iops = best;
	if (best > first * (1 + POINT_RATE_TOL))
		res->underestimated = best / first - 1;
	return 0;
}

int curve_run(const struct job_spec *base, const struct curve_params *cp,
	      measure_fn measure, void *arg, struct curve_result *res,
	      struct ioc_err *err)
{
	double max_iops;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_params(base, cp, err);
	if (ret)
		return ret;
	ret = run_point(base, 0, cp->arrivals, measure, arg, 0, &res->max, err);
	if (ret)
		return ret;
	max_iops = res->best_max_iops = res->max.s.total.iops;
	if (res->max.s.total.ios == 0 || !(max_iops > 0))
		return err_set(err, EIO,
			       "curve: the maximum run did no I/O; nothing to "
			       "take percentages of");
	if (cp->nr_pct == 0)
		return 0;
	res->points = calloc(cp->nr_pct, sizeof(*res->points));
	if (!res->points)
		return err_set(err, ENOMEM, "curve: out of memory");
	for (unsigned i = 0; i < cp->nr_pct; i++) {
		struct curve_point *cpt = &res->points[i];

		ret = run_pct(base, cp, cp->pct[i], max_iops, measure, arg, i + 1,
			      cpt, err);
		if (ret)
			return ret;
		res->nr_points++;
		if (cp->stop_ns &&
		    point_latency(&cpt->p, cp->stat) > (double)cp->stop_ns) {
			res->stopped = i + 1 < cp->nr_pct;
			break;
		}
	}
	return check_max(base, cp, measure, arg, res, err);
}

void curve_result_free(struct curve_result *res)
{
	if (!res)
		return;
	free(res->points);
	res->points = NULL;
	res->nr_points = 0;
}
