/* test_curve.c - latency-versus-load curves against a simulated device:
 * the maximum first (closed loop), then each percentage of it as an
 * open-loop run at a rate split over the workers; reached flags, the stop
 * limit, the arrival process passed through, and the failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "charz/curve.h"
#include "sim_device.h"

#define NJ 3

static const unsigned pcts[] = {10, 50, 90, 100, 110, 120};
#define NR_PCTS (sizeof(pcts) / sizeof(pcts[0]))

/* 160k IOPS device; base: 32 x 3 outstanding, closed loop */
static void setup(struct sim_device *d, struct job_spec *base)
{
	sim_init(d, 100e3, 16);
	d->tail = 1;
	assert_int_equal(sim_job(base, "curve", "/tmp/c1:/tmp/c2", RW_RANDREAD,
				 4096, 32, NJ, 30000000000ull),
			 0);
	base->rate_process = RATE_LINEAR;
}

static struct curve_params params(void)
{
	return (struct curve_params){
	    .pct = pcts,
	    .nr_pct = NR_PCTS,
	    .arrivals = RATE_POISSON,
	    .stat = LAT_STAT_P99,
	    .stop_ns = 0,
	    .reach_tolerance = 0.02,
	};
}

/* The noise-free latency the sim gives base at a per-worker rate. */
static double model_latency(const struct sim_device *d,
			    const struct job_spec *base, uint64_t rate,
			    enum lat_stat stat)
{
	struct job_spec job = *base; /* shallow: sim_model only reads */
	struct point p;

	job.rate_iops = rate;
	sim_model(d, &job, &p);
	return point_latency(&p, stat);
}

static uint64_t per_worker(double max_iops, unsigned pct)
{
	return (uint64_t)ceil(max_iops * pct / 100.0 / NJ);
}

static void test_curve_points(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;
	double max, prev_lat = 0;

	(void)state;
	setup(&d, &base);
	base.time_based = false; /* a fio job that would end at the file's end */
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	max = res.max.s.total.iops;
	assert_true(max > 150e3 && max < 160e3);
	assert_int_equal(d.calls, 1 + NR_PCTS);
	for (unsigned i = 0; i < d.calls; i++) { /* every run lasts the runtime */
		assert_true(d.log[i].time_based);
		assert_int_equal(d.log[i].runtime_ns, 30000000000ull);
	}
	assert_int_equal(d.log[0].rate_iops, 0); /* the max is closed loop */
	assert_int_equal(res.max.rate_iops, 0);
	assert_int_equal(res.nr_points, NR_PCTS);
	assert_false(res.stopped);
	print_message("max %.0f IOPS\n", max);
	for (unsigned i = 0; i < res.nr_points; i++) {
		const struct curve_point *c = &res.points[i];
		const struct sim_call *call = &d.log[i + 1];
		uint64_t rate = per_worker(max, pcts[i]);
		double lat = point_latency(&c->p, LAT_STAT_P99);

		print_message("%3u %%: asked %.0f, per worker %llu, achieved "
			      "%.0f, p99 %.0f us, %s\n",
			      c->pct, c->asked_iops,
			      (unsigned long long)call->rate_iops,
			      c->p.s.total.iops, lat / 1e3,
			      c->reached ? "reached" : "not reached");
		assert_int_equal(c->pct, pcts[i]);
		assert_true(fabs(c->asked_iops - max * pcts[i] / 100.0) <
			    1e-6 * max);
		/* what the runner was asked: per worker, the arrivals, the
		 * base's depth and jobs */
		assert_int_equal(call->rate_iops, rate);
		assert_int_equal(call->rate_process, RATE_POISSON);
		assert_int_equal(call->iodepth, 32);
		assert_int_equal(call->numjobs, NJ);
		assert_int_equal(c->p.rate_iops, rate * NJ);
		assert_int_equal(c->p.iodepth, 32);
		assert_int_equal(c->p.numjobs, NJ);
		/* the model tops out at the max: past 100 % is not reached */
		assert_int_equal(c->reached, pcts[i] <= 100);
		assert_true(lat > prev_lat);
		prev_lat = lat;
	}
	assert_int_equal(base.rate_iops, 0); /* base untouched */
	assert_int_equal(base.rate_process, RATE_LINEAR);
	assert_false(base.time_based);
	curve_result_free(&res);
	curve_result_free(&res);
	curve_result_free(NULL);
	job_spec_free(&base);
}

/* The max is run closed loop even when base carries a rate; linear
 * arrivals are passed as asked. */
static void test_curve_linear_and_closed_max(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	base.rate_iops = 1000;
	base.rate_process = RATE_POISSON;
	cp.arrivals = RATE_LINEAR;
	cp.nr_pct = 2;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(d.log[0].rate_iops, 0);
	assert_true(res.max.s.total.iops > 150e3);
	for (unsigned i = 1; i <= 2; i++) {
		assert_int_equal(d.log[i].rate_process, RATE_LINEAR);
		assert_int_equal(d.log[i].rate_iops,
				 per_worker(res.max.s.total.iops, pcts[i - 1]));
	}
	curve_result_free(&res);
	job_spec_free(&base);
}

/* A stop limit between the 50 % and 90 % latencies: 90 % is the last run. */
static void test_curve_stop(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;
	double max, l50, l90;

	(void)state;
	setup(&d, &base);
	{
		struct point p;

		sim_model(&d, &base, &p);
		max = p.s.total.iops;
	}
	l50 = model_latency(&d, &base, per_worker(max, 50), LAT_STAT_MEAN);
	l90 = model_latency(&d, &base, per_worker(max, 90), LAT_STAT_MEAN);
	assert_true(l90 > l50);
	cp.stat = LAT_STAT_MEAN;
	cp.stop_ns = (uint64_t)((l50 + l90) / 2);
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	assert_true(res.stopped);
	assert_int_equal(res.nr_points, 3);
	assert_int_equal(d.calls, 4);
	assert_int_equal(res.points[2].pct, 90);
	assert_true(point_latency(&res.points[2].p, LAT_STAT_MEAN) >
		    (double)cp.stop_ns);
	curve_result_free(&res);

	/* passed only by the last point: nothing was cut short */
	d.calls = 0;
	cp.nr_pct = 3;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	assert_false(res.stopped);
	assert_int_equal(res.nr_points, 3);
	curve_result_free(&res);
	job_spec_free(&base);
}

static void test_curve_no_io(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	d.no_io = true;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err),
			 -EIO);
	assert_string_equal(err.msg, "curve: the maximum run did no I/O; "
				     "nothing to take percentages of");
	assert_int_equal(d.calls, 1);
	assert_int_equal(res.nr_points, 0);
	curve_result_free(&res);
	job_spec_free(&base);
}

static void test_curve_errors(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;
	static const unsigned zero[] = {50, 0};

	(void)state;
	setup(&d, &base);
	d.fail_at = 3;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err),
			 -EIO);
	assert_int_equal(d.calls, 3);
	assert_int_equal(res.nr_points, 1);
	assert_non_null(strstr(err.msg, "curve rate_iops="));
	assert_non_null(strstr(err.msg, "injected failure at call 3"));
	curve_result_free(&res);

	d.calls = 0;
	d.fail_at = 0;
	memset(&err, 0, sizeof(err));
	cp.pct = zero;
	cp.nr_pct = 2;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err),
			 -EINVAL);
	assert_int_equal(d.calls, 0);
	curve_result_free(&res);

	/* no runtime: time_based runs would never end */
	cp = params();
	memset(&err, 0, sizeof(err));
	base.runtime_ns = 0;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), -EINVAL);
	assert_string_equal(err.msg, CURVE_NEEDS_RUNTIME);
	assert_int_equal(d.calls, 0);
	curve_result_free(&res);
	job_spec_free(&base);
}

/* A point whose average meets the rate but whose seconds do not (the
 * issue's 50 % point: 37k then 58k IOPS a second, averaging the asked
 * 47k): the sim stalls half the seconds of every point from 50 % on.
 * Those are not reached; the 10 % point, on rate every second, is. */
static void test_curve_stalled(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	d.stall_pct = 50;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	for (unsigned i = 0; i < res.nr_points; i++) {
		const struct curve_point *c = &res.points[i];

		assert_int_equal(c->p.nr_sec, 30);
		if (c->pct == 50)
			/* on average it got what it asked */
			assert_true(c->p.s.total.iops >= 0.98 * c->asked_iops);
		assert_int_equal(c->reached, c->pct < 50);
	}
	assert_true(res.underestimated == 0);
	curve_result_free(&res);
	job_spec_free(&base);
}

/* A maximum that came out 20 % low (tmpfs in the issue: 110 % and 120 %
 * "reached" at 493k above a 411k maximum). Once low: the 110 % point is
 * reached above it, the maximum is run again and comes out right, 25 %
 * above the first: the curve is marked underestimated by that (the
 * audit's 217k maximum re-measured at 864k was not marked at all, the
 * point that gave it away being under the second run). Low every time:
 * it is marked by what the best reached point beat it by. */
static void test_curve_max_underestimated(void **state)
{
	struct curve_params cp = params();
	struct ioc_err err = {.msg = ""};
	struct curve_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	for (unsigned every = 0; every < 2; every++) {
		setup(&d, &base);
		d.closed_scale = 0.8;
		d.closed_calls = every ? 0 : 1;
		assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
		double max = res.max.s.total.iops, top = res.top_reached_iops;
		print_message("max %.0f, top reached %.0f, again %.0f, underestimated "
			      "%.1f %%\n", max, top, res.remax.s.total.iops,
			      100 * res.underestimated);
		assert_true(top > max * 1.05);
		assert_int_equal(d.calls, 1 + NR_PCTS + 1);
		assert_int_equal(d.log[NR_PCTS + 1].rate_iops, 0); /* closed loop again */
		assert_int_equal(res.remax.call, NR_PCTS + 1);
		double again = res.remax.s.total.iops;
		if (every) {
			assert_true(fabs(again - max) < 1e-6 * max);
			assert_true(fabs(res.underestimated - (top / max - 1)) < 1e-9);
			assert_true(res.underestimated > 0.1);
			assert_true(res.best_max_iops == top);
		} else {
			assert_true(again > 1.2 * max && again > top);
			/* against the first maximum, the one the points are of */
			assert_true(fabs(res.underestimated - (again / max - 1)) < 1e-9);
			assert_true(res.best_max_iops == again);
		}
		curve_result_free(&res);
		job_spec_free(&base);
	}

	/* a right maximum: nothing reached above it, no second run */
	setup(&d, &base);
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(d.calls, 1 + NR_PCTS);
	assert_int_equal(res.remax.elapsed_ns, 0);
	assert_true(res.underestimated == 0);
	assert_true(res.best_max_iops == res.max.s.total.iops);
	curve_result_free(&res);
	job_spec_free(&base);

	/* low by 3 %: a point reached 2 % above it is inside a point's own
	 * 5 %, so the maximum is neither run again nor marked */
	setup(&d, &base);
	d.closed_scale = 0.97;
	cp.pct = (const unsigned[]){102};
	cp.nr_pct = 1;
	assert_int_equal(curve_run(&base, &cp, sim_measure, &d, &res, &err), 0);
	print_message("max %.0f, 102 %% reached %.0f (%d)\n", res.max.s.total.iops,
		      res.points[0].p.s.total.iops, res.points[0].reached);
	assert_true(res.points[0].reached);
	assert_true(res.top_reached_iops > res.max.s.total.iops * 1.01);
	assert_int_equal(d.calls, 2);
	assert_true(res.underestimated == 0);
	curve_result_free(&res);
	job_spec_free(&base);
}

/* The on-rate tolerance grows with the arrivals' counting noise: at low
 * rates Poisson seconds scatter far beyond 5 % and are still on rate,
 * linear ones only by their quantization; at high rates the floor holds. */
static void test_rate_tolerance(void **state)
{
	(void)state;
	assert_true(fabs(point_rate_tolerance(100, 1, true, POINT_RATE_TOL) - 0.4) < 1e-9);
	assert_true(fabs(point_rate_tolerance(10000, 1, true, POINT_RATE_TOL) - 0.05) < 1e-9);
	assert_true(fabs(point_rate_tolerance(100, 1, false, POINT_RATE_TOL) - 0.05) < 1e-9);
	assert_true(fabs(point_rate_tolerance(20, 1, false, POINT_RATE_TOL) - 0.1) < 1e-9);
	assert_true(fabs(point_rate_tolerance(1e6, 10, true, 0.02) - 0.02) < 1e-9);
	/* 112 I/Os in a second asked 100: on rate for Poisson, not linear */
	double iv = 112;
	assert_int_equal(point_count_on_rate(&iv, 1, 100, true), 1);
	assert_int_equal(point_count_on_rate(&iv, 1, 100, false), 0);
	/* and a real stall stays off rate at any rate */
	iv = 40;
	assert_int_equal(point_count_on_rate(&iv, 1, 100, true), 0);
}

/* The seconds a curve point is judged on, from its per-second series as
 * measure.c gives it (tests/test_charz_cli.c runs a real stalled point):
 * every whole second of the run counts, one the series lacks (nothing
 * completed: a stall at the end) as 0, the cut-short last one not. */
static void test_count_seconds(void **state)
{
	const double a = 40000; /* asked, linear arrivals: the 5 % holds */
	unsigned nr, on;

	(void)state;
	/* on rate, a stall, the catch-up after it, on rate: average 100 % */
	const double stall[] = {a, a, 0, 2 * a, a, 0.3 * a};
	point_count_seconds(stall, 6, 5300000000ull, a, false, &nr, &on);
	assert_int_equal(nr, 5);
	assert_int_equal(on, 3);
	assert_false(on >= CURVE_HOLD * nr);
	/* 4.9 % and 5.1 % off: the edge of on rate */
	const double edge[] = {a * 0.951, a * 1.049, a * 0.949, a * 1.051};
	point_count_seconds(edge, 4, 4000000000ull, a, false, &nr, &on);
	assert_int_equal(nr, 4);
	assert_int_equal(on, 2);
	/* stalled for the last 2 s: the series ends early, the run did not */
	const double tail[] = {a, a, a};
	point_count_seconds(tail, 3, 5000000000ull, a, false, &nr, &on);
	assert_int_equal(nr, 5);
	assert_int_equal(on, 3);
	/* shorter than a second: nothing to judge but the average */
	point_count_seconds(tail, 1, 400000000ull, a, false, &nr, &on);
	assert_int_equal(nr, 0);
	assert_int_equal(on, 0);
	/* all on rate */
	point_count_seconds(tail, 3, 3000000000ull, a, true, &nr, &on);
	assert_int_equal(nr, 3);
	assert_int_equal(on, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_curve_points),
	    cmocka_unit_test(test_curve_stalled),
	    cmocka_unit_test(test_rate_tolerance),
	    cmocka_unit_test(test_count_seconds),
	    cmocka_unit_test(test_curve_max_underestimated),
	    cmocka_unit_test(test_curve_linear_and_closed_max),
	    cmocka_unit_test(test_curve_stop),
	    cmocka_unit_test(test_curve_no_io),
	    cmocka_unit_test(test_curve_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
