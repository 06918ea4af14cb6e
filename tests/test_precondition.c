/* test_precondition.c - the SNIA PTS steady-state rule on synthetic series,
 * and preconditioning runs against a simulated device whose random-write
 * IOPS decay to a plateau (or never settle). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/pace_opts.h"
#include "charz/outcome.h"
#include "charz/precondition.h"
#include "sim_device.h"

static const struct steady_params pts = {5, 0.20, 0.10};

static struct steady_verdict check(const double *v, unsigned n)
{
	return steady_state_check(v, n, &pts);
}

static void test_steady_flat(void **state)
{
	const double v[] = {50000, 50000, 50000, 50000, 50000};
	struct steady_verdict r = check(v, 5);

	(void)state;
	assert_true(r.steady);
	assert_true(r.average == 50000);
	assert_true(r.excursion == 0);
	assert_true(r.slope == 0);
}

/* +3 a round on ~106: the fitted line moves 12 / 106 = 11.3 % across the
 * window (> 10 %) while the excursion (11.3 %) is fine. */
static void test_steady_ramp(void **state)
{
	const double up[] = {100, 103, 106, 109, 112};
	const double down[] = {112, 109, 106, 103, 100};
	struct steady_verdict r = check(up, 5);

	(void)state;
	assert_false(r.steady);
	assert_true(fabs(r.slope - 12.0 / 106) < 1e-12);
	assert_true(r.excursion <= 0.20);
	r = check(down, 5);
	assert_false(r.steady);
	assert_true(fabs(r.slope + 12.0 / 106) < 1e-12); /* sign kept */
}

/* Noise of 18 % around a flat line is steady. */
static void test_steady_noise(void **state)
{
	const double v[] = {100, 90, 108, 95, 104};
	struct steady_verdict r = check(v, 5);

	(void)state;
	assert_true(r.steady);
	assert_true(fabs(r.average - 99.4) < 1e-9);
	assert_true(fabs(r.excursion - 18 / 99.4) < 1e-12);
	assert_true(fabs(r.slope - 1.3 * 4 / 99.4) < 1e-12);
}

/* One spike makes the excursion 25 / 105 = 23.8 %. */
static void test_steady_spike(void **state)
{
	const double v[] = {100, 100, 125, 100, 100};
	struct steady_verdict r = check(v, 5);

	(void)state;
	assert_false(r.steady);
	assert_true(fabs(r.excursion - 25.0 / 105) < 1e-12);
	assert_true(fabs(r.slope) < 1e-12);
}

/* The limits are inclusive: an excursion of exactly 20 % is steady. */
static void test_steady_boundary(void **state)
{
	const double v[] = {90, 110, 100, 100, 100};
	struct steady_verdict r = check(v, 5);

	(void)state;
	assert_true(r.excursion == 0.2);
	assert_true(r.steady);
}

/* Only the last window counts; too few values or a zero average never
 * make steady state. */
static void test_steady_window(void **state)
{
	const double v[] = {900, 500, 300, 100, 100, 101, 99, 100, 100};
	const double zero[] = {0, 0, 0, 0, 0};
	struct steady_verdict r;

	(void)state;
	assert_true(check(v, 9).steady);
	assert_false(check(v, 6).steady);
	r = check(v + 5, 4); /* four flat values: not enough */
	assert_false(r.steady);
	assert_true(r.average == 0);
	r = check(zero, 5);
	assert_false(r.steady);
	assert_true(r.average == 0);
	assert_false(check(v, 0).steady);
}

static void test_defaults(void **state)
{
	struct precond_params pp;

	(void)state;
	memset(&pp, 0xff, sizeof(pp));
	precond_params_default(&pp);
	assert_int_equal(pp.fill_passes, 2);
	assert_int_equal(pp.fill_bs, 128 * 1024);
	assert_int_equal(pp.max_rounds, 25);
	assert_int_equal(pp.round_ns, 60000000000ull);
	assert_int_equal(pp.fill_iodepth, 32);
	assert_int_equal(pp.steady.window, 5);
	assert_true(pp.steady.max_excursion == 0.20);
	assert_true(pp.steady.max_slope == 0.10);
}

static void setup(struct sim_device *d, struct job_spec *base)
{
	sim_init(d, 100e3, 32);
	d->region_bytes = 8ull << 30;
	assert_int_equal(sim_job(base, "precond", "/tmp/p1", RW_RANDWRITE, 8192,
				 32, 4, 0),
			 0);
	base->ramp_ns = 5000000000ull;
	base->rate_iops = 777;
}

/* The fill passes: sequential writes of fill_bs, one pass each by one
 * job at fill_iodepth, closed loop, whatever the workload; the rounds the
 * workload itself (the base's rw, bs 8K, QD 32 x 4 jobs) for round_ns.
 * And the result records what ran. */
static void check_calls(const struct sim_device *d, const struct job_spec *base,
			const struct precond_params *pp,
			const struct precond_result *res, unsigned nr_rounds)
{
	assert_int_equal(d->calls, pp->fill_passes + nr_rounds);
	for (unsigned i = 0; i < d->calls; i++) {
		const struct sim_call *c = &d->log[i];
		bool fill = i < pp->fill_passes;

		assert_int_equal(c->rw, fill ? RW_WRITE : base->rw);
		assert_int_equal(c->bs, fill ? pp->fill_bs : 8192);
		assert_int_equal(c->time_based, !fill);
		assert_int_equal(c->runtime_ns, fill ? 0 : pp->round_ns);
		assert_int_equal(c->rate_iops, 0);
		assert_int_equal(c->ramp_ns, 0);
		assert_int_equal(c->iodepth, fill ? pp->fill_iodepth : 32);
		assert_int_equal(c->numjobs, fill ? 1 : 4);
	}
	assert_int_equal(res->ran.rw, base->rw);
	assert_int_equal(res->ran.bs, 8192);
	assert_int_equal(res->ran.iodepth, 32);
	assert_int_equal(res->ran.numjobs, 4);
	assert_int_equal(res->ran.rwmixread, rw_is_mixed(base->rw) ? base->rwmixread : 0);
	assert_int_equal(res->ran.round_ns, pp->round_ns);
	assert_int_equal(res->ran.fill_passes, pp->fill_passes);
	assert_int_equal(res->ran.fill_bs, pp->fill_bs);
}

/* 100k decaying to 30k with a time constant of 3 rounds: the window
 * 10..14 is the first whose fitted line moves under 10 % (round 13: 10.8 %
 * of the average, round 14: 7.9 %; excursion 8.0 %). */
static void test_precondition_decay(void **state)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	d.wr_start = 100000;
	d.wr_floor = 30000;
	d.wr_tau = 3;
	precond_params_default(&pp);
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), 0);
	print_message("steady at round %u: average %.0f, excursion %.1f %%, "
		      "slope %.1f %%\n",
		      res.steady_round, res.verdict.average,
		      100 * res.verdict.excursion, 100 * res.verdict.slope);
	assert_int_equal(res.nr_fill, 2);
	assert_int_equal(res.steady_round, 14);
	assert_int_equal(res.nr_rounds, 14);
	assert_true(res.verdict.steady);
	assert_true(fabs(res.verdict.excursion - 0.0802) < 0.0005);
	assert_true(fabs(res.verdict.slope + 0.0794) < 0.0005);
	assert_true(fabs(res.round_iops[0] - 100000) < 1);
	for (unsigned i = 1; i < res.nr_rounds; i++)
		assert_true(res.round_iops[i] < res.round_iops[i - 1]);
	check_calls(&d, &base, &pp, &res, 14);
	/* the fill wrote the region twice: PTS's 2x capacity */
	assert_int_equal(res.ran.fill_bytes, 2 * (8ull << 30));
	/* each fill pass wrote the region once: 8 GiB at its bandwidth */
	for (unsigned i = 0; i < res.nr_fill; i++) {
		double s = (8ull << 30) / res.fill[i].s.total.bw_bytes;

		assert_true(fabs(res.fill[i].elapsed_ns / 1e9 - s) < 1e-6 * s);
	}
	assert_int_equal(base.rw, RW_RANDWRITE); /* base untouched */
	assert_int_equal(base.bs, 8192);
	assert_int_equal(base.rate_iops, 777);
	precond_result_free(&res);
	precond_result_free(&res);
	precond_result_free(NULL);
	job_spec_free(&base);
}

/* +/-15 % from round to round: the excursion stays at 30 %. */
static void test_precondition_never_settles(void **state)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	d.wr_start = d.wr_floor = 50000;
	d.wr_swing = 0.15;
	precond_params_default(&pp);
	pp.fill_passes = 1;
	pp.round_ns = 1000000000ull;
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(res.nr_fill, 1);
	assert_int_equal(res.steady_round, 0);
	assert_int_equal(res.nr_rounds, 25);
	assert_false(res.verdict.steady);
	assert_true(res.verdict.excursion > 0.25 &&
		    res.verdict.excursion < 0.35);
	check_calls(&d, &base, &pp, &res, 25);
	precond_result_free(&res);

	/* fewer rounds than the window: never judged */
	d.calls = 0;
	pp.max_rounds = 4;
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(res.nr_rounds, 4);
	assert_int_equal(res.steady_round, 0);
	assert_false(res.verdict.steady);
	precond_result_free(&res);
	job_spec_free(&base);
}

static void test_precondition_errors(void **state)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	d.fail_at = 2; /* the second fill pass */
	precond_params_default(&pp);
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), -EIO);
	assert_int_equal(res.nr_fill, 1);
	assert_int_equal(res.nr_rounds, 0);
	assert_non_null(strstr(err.msg, "precondition write: "));
	precond_result_free(&res);

	d.calls = 0;
	d.fail_at = 5; /* the third round */
	memset(&err, 0, sizeof(err));
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), -EIO);
	assert_int_equal(res.nr_fill, 2);
	assert_int_equal(res.nr_rounds, 2);
	assert_non_null(strstr(err.msg, "precondition randwrite: "));
	precond_result_free(&res);

	d.calls = 0;
	d.fail_at = 0;
	pp.fill_passes = 9;
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), -EINVAL);
	assert_int_equal(d.calls, 0);
	precond_result_free(&res);

	/* a workload that writes nothing cannot precondition: said, not run */
	precond_params_default(&pp);
	base.rw = RW_RANDREAD;
	memset(&err, 0, sizeof(err));
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), -EINVAL);
	assert_int_equal(d.calls, 0);
	assert_non_null(strstr(err.msg, "rw=randread writes nothing"));
	precond_result_free(&res);
	job_spec_free(&base);
}

/* Workload-dependent: an 8K 70:30 mix preconditions with 8K 70:30 rounds
 * at its own QD 32 x 4 (the issue: --bs=8k was ignored, the rounds were
 * always 4K random write), while the fill stays 128K sequential. */
static void test_precondition_workload(void **state)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	base.rw = RW_RANDRW;
	base.rwmixread = 70;
	precond_params_default(&pp);
	pp.max_rounds = 6;
	pp.round_ns = 1000000000ull;
	assert_int_equal(
	    precondition_run(&base, &pp, sim_measure, &d, &res, &err), 0);
	check_calls(&d, &base, &pp, &res, 5);
	assert_int_equal(res.ran.rw, RW_RANDRW);
	assert_int_equal(res.ran.rwmixread, 70);
	/* the sim's flat model: steady once the window is full */
	assert_int_equal(res.steady_round, 5);
	assert_true(res.verdict.average > 0);
	precond_result_free(&res);
	job_spec_free(&base);
}

/* ran is what the rounds ran, call by call: a workload unlike PTS's
 * (8K 60:40 at QD 8 x 2, paced at 20 MB/s and 1000 IOPS with a think
 * time) runs its rounds exactly so, closed loop, and ran says so; the
 * fill runs closed loop too (it inherited the job's rate: 21 MB/s). A
 * pure random write records rwmixread 0 (every I/O a write). */
static void test_precondition_ran_is_what_ran(void **state)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	setup(&d, &base);
	base.rw = RW_RANDRW;
	base.rwmixread = 60;
	base.iodepth = 8;
	base.numjobs = 2;
	base.rate_bps[DIR_READ] = base.rate_bps[DIR_WRITE] = 20000000;
	base.thinktime_ns = 1000;
	precond_params_default(&pp);
	pp.max_rounds = 3;
	pp.round_ns = 1000000000ull;
	assert_int_equal(precondition_run(&base, &pp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(d.calls, 2 + 3);
	for (unsigned i = 0; i < d.calls; i++) {
		const struct sim_call *c = &d.log[i];
		assert_int_equal(c->rate_iops, 0);
		assert_int_equal(c->rate_bps[DIR_READ], 0);
		assert_int_equal(c->rate_bps[DIR_WRITE], 0);
		assert_int_equal(c->thinktime_ns, 0);
		if (i < 2) { /* the fill: workload-independent */
			assert_int_equal(c->rw, RW_WRITE);
			assert_int_equal(c->bs, 128 * 1024);
			assert_int_equal(c->numjobs, 1);
			assert_int_equal(c->iodepth, res.ran.fill_iodepth);
			continue;
		}
		assert_int_equal(c->rw, res.ran.rw);
		assert_int_equal(c->rwmixread, res.ran.rwmixread);
		assert_int_equal(c->bs, res.ran.bs);
		assert_int_equal(c->iodepth, res.ran.iodepth);
		assert_int_equal(c->numjobs, res.ran.numjobs);
		assert_int_equal(c->runtime_ns, res.ran.round_ns);
	}
	assert_int_equal(res.ran.rw, RW_RANDRW);
	assert_int_equal(res.ran.rwmixread, 60);
	assert_int_equal(res.ran.bs, 8192);
	assert_int_equal(res.ran.iodepth, 8);
	assert_int_equal(res.ran.numjobs, 2);
	assert_int_equal(res.last_round.iodepth, 8);
	assert_int_equal(res.last_round.numjobs, 2);
	assert_int_equal(res.window, 5);
	assert_false(res.verdict.steady); /* 3 rounds: no window */
	assert_true(res.verdict.average == 0);
	precond_result_free(&res);

	base.rw = RW_RANDWRITE; /* rwmixread stays 60 in the spec: not a mix */
	d.calls = 0;
	assert_int_equal(precondition_run(&base, &pp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(res.ran.rw, RW_RANDWRITE);
	assert_int_equal(res.ran.rwmixread, 0);
	precond_result_free(&res);
	/* a job's pacing is what a precondition step refuses */
	assert_string_equal(pace_opts_first_set(&base), "rate");
	memset(base.rate_bps, 0, sizeof(base.rate_bps));
	assert_string_equal(pace_opts_first_set(&base), "rate_iops"); /* setup's 777 */
	base.rate_iops = 0;
	assert_string_equal(pace_opts_first_set(&base), "thinktime");
	base.thinktime_ns = 0;
	assert_null(pace_opts_first_set(&base));
	job_spec_free(&base);
}

/* Two targets at once, rounds of 1 s: setup's job on /dev/a and /dev/b,
 * each target's IOPS from its own schedule, judged one by one unless
 * by_target is false (the old rule: the sum only). */
static void run_two(struct sim_device *d, struct job_spec *base, bool by_target,
		    struct precond_result *res)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;

	precond_params_default(&pp);
	pp.fill_passes = 0;
	pp.round_ns = 1000000000ull;
	if (by_target) {
		pp.nr_targets = 2;
		pp.target_iops = sim_target_iops;
	}
	d->calls = d->wr_rounds = 0;
	assert_int_equal(precondition_run(base, &pp, sim_measure, d, res, &err), 0);
}

static void two_targets(struct sim_device *d, struct job_spec *base)
{
	setup(d, base);
	d->nr_targets = 2;
	d->target[0].floor = 50000; /* flat: steady from the first window */
}

/* One drive steady at 50k, the other still falling 3 % a round: the sum
 * (100k, 98.5k, 97.0k, 95.6k, 94.3k) moves 5.7 % across the first window,
 * steady by the old rule at round 5, while the falling drive's own line
 * moves 12 % of its average in every window: PTS would not call it
 * steady, and neither does the step, after all 25 rounds. */
static void test_precondition_targets_one_drifts(void **state)
{
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	two_targets(&d, &base);
	d.target[1].floor = 50000;
	d.target[1].drift = 0.03;
	run_two(&d, &base, false, &res); /* the sum alone: steady at once */
	assert_int_equal(res.steady_round, 5);
	assert_true(res.steady);
	assert_int_equal(res.nr_targets, 0);
	precond_result_free(&res);

	run_two(&d, &base, true, &res);
	print_message("sum %.0f slope %.1f %%; drifting target %.0f slope %.1f %%\n",
		      res.verdict.average, 100 * res.verdict.slope,
		      res.target_verdict[1].average, 100 * res.target_verdict[1].slope);
	assert_int_equal(res.nr_targets, 2);
	assert_int_equal(res.nr_rounds, 25);
	assert_int_equal(res.steady_round, 0);
	assert_false(res.steady);
	assert_true(res.verdict.steady); /* the sum looks steady all along */
	assert_true(res.target_verdict[0].steady);
	assert_true(res.target_verdict[0].average == 50000);
	assert_false(res.target_verdict[1].steady);
	assert_true(res.target_verdict[1].slope < -0.10 && res.target_verdict[1].slope > -0.14);
	for (unsigned r = 0; r < res.nr_rounds; r++) /* the series are each target's */
		assert_true(fabs(precond_target_rounds(&res, 0)[r] +
				 precond_target_rounds(&res, 1)[r] - res.round_iops[r]) < 1e-6);
	assert_true(fabs(precond_target_rounds(&res, 1)[1] - 48500) < 1e-6);
	precond_result_free(&res);
	job_spec_free(&base);
}

/* Both steady (one flat, one swinging +-5 %): steady once the window is
 * full, as on one target; and a drive that settles later than the sum
 * makes the step last until it has: its own steady round, not the sum's. */
static void test_precondition_targets_steady(void **state)
{
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;
	unsigned sum_round, alone_round;

	(void)state;
	two_targets(&d, &base);
	d.target[1].floor = 40000;
	d.target[1].swing = 0.05;
	run_two(&d, &base, true, &res);
	assert_int_equal(res.steady_round, 5);
	assert_int_equal(res.nr_rounds, 5);
	assert_true(res.steady);
	assert_true(res.target_verdict[0].steady && res.target_verdict[1].steady);
	assert_true(fabs(res.target_verdict[1].excursion - 4000.0 / 40400) < 1e-12);
	precond_result_free(&res);

	/* 60k falling to 20k, time constant 3 rounds, beside a flat 50k */
	d.target[1] = (struct sim_sched){.start = 60000, .floor = 20000, .tau = 3};
	run_two(&d, &base, false, &res);
	sum_round = res.steady_round;
	precond_result_free(&res);
	run_two(&d, &base, true, &res);
	assert_true(res.steady);
	/* the falling drive alone, as a one-target step */
	d.nr_targets = 0;
	d.wr_start = 60000;
	d.wr_floor = 20000;
	d.wr_tau = 3;
	{
		struct precond_result one;
		run_two(&d, &base, false, &one);
		alone_round = one.steady_round;
		precond_result_free(&one);
	}
	print_message("steady: sum alone at round %u, each target at %u, the falling one alone at %u\n",
		      sum_round, res.steady_round, alone_round);
	assert_true(sum_round < alone_round);
	assert_int_equal(res.steady_round, alone_round);
	assert_int_equal(res.nr_rounds, alone_round);
	precond_result_free(&res);
	job_spec_free(&base);
}

/* A measure that cannot say each target's figures is an error, not a
 * silent fall back to the sum. */
static unsigned no_targets(void *arg, double *out, unsigned max)
{
	(void)arg, (void)out, (void)max;
	return 0;
}

static void test_precondition_targets_missing(void **state)
{
	struct ioc_err err = {.msg = ""};
	struct precond_params pp;
	struct precond_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	two_targets(&d, &base);
	d.target[1].floor = 50000;
	precond_params_default(&pp);
	pp.fill_passes = 0;
	pp.nr_targets = 2;
	pp.target_iops = no_targets;
	assert_int_equal(precondition_run(&base, &pp, sim_measure, &d, &res, &err), -EIO);
	assert_non_null(strstr(err.msg, "round 1 gave no figures per target"));
	precond_result_free(&res);
	job_spec_free(&base);
}

/* The step's table and JSON of a drifting pair: the sum's window, the
 * unsteady target named, each target's window under the row; in the JSON
 * the old keys (steady now the step's verdict, window_* the sum's) and
 * each target's window. */
static void test_precondition_targets_output(void **state)
{
	static char *const targets[] = {"/dev/a", "/dev/b"};
	struct plan_step st;
	struct set_outcome set;
	struct step_outcome o;
	struct sim_device d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&st, 0, sizeof(st));
	memset(&set, 0, sizeof(set));
	memset(&o, 0, sizeof(o));
	two_targets(&d, &st.job);
	d.target[1].floor = 50000;
	d.target[1].drift = 0.03;
	run_two(&d, &st.job, true, &set.precond);
	snprintf(st.label, sizeof(st.label), "pre");
	st.mode = STEP_PRECONDITION;
	set.targets = targets;
	set.nr_targets = 2;
	o.step = &st;
	o.sets = &set;
	o.nr_sets = 1;

	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(step_table_write(&o, f), 0);
	fclose(f);
	print_message("%s", buf);
	assert_non_null(strstr(buf, "no steady state after 25 rounds"));
	assert_non_null(strstr(buf, "; unsteady: /dev/b; no fill"));
	assert_null(strstr(buf, "unsteady: /dev/a"));
	assert_non_null(strstr(buf, "\n  /dev/a"));
	assert_non_null(strstr(buf, " steady: window 50000 IOPS, excursion 0%, slope +0%\n"));
	assert_non_null(strstr(buf, "\n  /dev/b"));
	assert_non_null(strstr(buf, " not steady: window "));
	free(buf);

	buf = NULL;
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(step_json_write(&o, f), 0);
	fclose(f);
	struct json_object *j = json_tokener_parse(buf), *sets, *s0, *v, *pt;
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "sets", &sets));
	s0 = json_object_array_get_idx(sets, 0);
	assert_true(json_object_object_get_ex(s0, "steady", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(s0, "total_steady", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(s0, "steady_round", &v));
	assert_int_equal(json_object_get_int(v), 0);
	assert_true(json_object_object_get_ex(s0, "window_average_iops", &v));
	assert_true(fabs(json_object_get_double(v) - set.precond.verdict.average) < 1);
	assert_true(json_object_object_get_ex(s0, "rounds_iops", &v));
	assert_int_equal(json_object_array_length(v), 25);
	assert_true(json_object_object_get_ex(s0, "unsteady_targets", &v));
	assert_int_equal(json_object_array_length(v), 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 0)), "/dev/b");
	assert_true(json_object_object_get_ex(s0, "per_target_window", &pt));
	assert_int_equal(json_object_array_length(pt), 2);
	for (unsigned t = 0; t < 2; t++) {
		struct json_object *e = json_object_array_get_idx(pt, t);
		assert_true(json_object_object_get_ex(e, "target", &v));
		assert_string_equal(json_object_get_string(v), targets[t]);
		assert_true(json_object_object_get_ex(e, "steady", &v));
		assert_int_equal(json_object_get_boolean(v), t == 0);
		assert_true(json_object_object_get_ex(e, "window_slope", &v));
		assert_true(fabs(json_object_get_double(v) - set.precond.target_verdict[t].slope) < 0.0006 /* 3 decimals */);
		assert_true(json_object_object_get_ex(e, "rounds_iops", &v));
		assert_int_equal(json_object_array_length(v), 25);
	}
	json_object_put(j);
	free(buf);
	precond_result_free(&set.precond);
	job_spec_free(&st.job);
}

/* Reads of a block device no preconditioning filled are warned of: a
 * read workload (a mix that reads), a block device, not filled. A mix
 * with rwmixread=0, a pure write, a file (laid out, so written, first)
 * or a filled device are not; nor is a path that cannot be looked at. */
static void test_reads_unwritten(void **state)
{
	struct job_spec j;
	const char *file = "/dev/shm/test_precondition_unwritten.dat";
	FILE *f;

	(void)state;
	assert_int_equal(sim_job(&j, "rd", "/dev/x", RW_RANDREAD, 4096, 1, 1, 0), 0);
	assert_true(precond_reads_unwritten(&j, true, false));
	assert_false(precond_reads_unwritten(&j, true, true));   /* filled */
	assert_false(precond_reads_unwritten(&j, false, false)); /* a file */
	j.rw = RW_READ;
	assert_true(precond_reads_unwritten(&j, true, false));
	j.rw = RW_RANDRW;
	j.rwmixread = 30;
	assert_true(precond_reads_unwritten(&j, true, false));
	j.rwmixread = 0; /* every I/O a write */
	assert_false(precond_reads_unwritten(&j, true, false));
	j.rw = RW_RANDWRITE;
	j.rwmixread = 50; /* not a mix: ignored */
	assert_false(precond_reads_unwritten(&j, true, false));
	j.rw = RW_RANDREAD;
	assert_non_null(f = fopen(file, "w"));
	fclose(f);
	assert_false(precond_target_unwritten(&j, file, false));
	unlink(file);
	assert_false(precond_target_unwritten(&j, file, false)); /* gone */
	job_spec_free(&j);
}

/* The step's table names such targets under its rows, with why. */
static void test_reads_unwritten_row(void **state)
{
	static char *const targets[] = {"/dev/loop7"};
	struct plan_step st;
	struct set_outcome set;
	struct step_outcome o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&st, 0, sizeof(st));
	memset(&set, 0, sizeof(set));
	memset(&o, 0, sizeof(o));
	assert_int_equal(sim_job(&st.job, "rd", "/dev/loop7", RW_RANDREAD, 4096, 1, 1, 0), 0);
	snprintf(st.label, sizeof(st.label), "rd");
	st.mode = STEP_FIXED;
	set.targets = targets;
	set.nr_targets = 1;
	o.step = &st;
	o.sets = &set;
	o.nr_sets = 1;
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(step_table_write(&o, f), 0);
	fclose(f);
	assert_null(strstr(buf, "never-written"));
	free(buf);
	o.unwritten[o.nr_unwritten++] = targets[0];
	buf = NULL;
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(step_table_write(&o, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\n  /dev/loop7: " PRECOND_UNWRITTEN_MSG "\n"));
	free(buf);
	job_spec_free(&st.job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_steady_flat),
	    cmocka_unit_test(test_steady_ramp),
	    cmocka_unit_test(test_steady_noise),
	    cmocka_unit_test(test_steady_spike),
	    cmocka_unit_test(test_steady_boundary),
	    cmocka_unit_test(test_steady_window),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_precondition_decay),
	    cmocka_unit_test(test_precondition_never_settles),
	    cmocka_unit_test(test_precondition_errors),
	    cmocka_unit_test(test_precondition_workload),
	    cmocka_unit_test(test_precondition_ran_is_what_ran),
	    cmocka_unit_test(test_precondition_targets_one_drifts),
	    cmocka_unit_test(test_precondition_targets_steady),
	    cmocka_unit_test(test_precondition_targets_missing),
	    cmocka_unit_test(test_precondition_targets_output),
	    cmocka_unit_test(test_reads_unwritten),
	    cmocka_unit_test(test_reads_unwritten_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
