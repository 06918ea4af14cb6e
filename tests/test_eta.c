/* test_eta.c - a plan's time left (charz/eta.h) on a plan of known
 * steps: the estimate before it runs counts every run, fill and
 * preconditioning; it falls as runs start and steps end, a step counts
 * for what it took, a measured search length and fill rate replace the
 * guesses, it never goes negative (a step longer than planned) and it is
 * 0 at the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "charz/eta.h"
#include "charz/plan.h"
#include "charz/plan_run.h"

#define S 1000000000ull

/* fixed 10 s with 1 GB to fill first; a search of 5 s runs on 2 sets;
 * a curve of 3 points + max at 4 s; another search of 5 s runs. */
static void plan_steps(struct eta_step *st)
{
	st[0] = (struct eta_step){.run_ns = 10 * S, .runs = 1, .sets = 1, .fill_bytes = 1000000000ull};
	st[1] = (struct eta_step){.run_ns = 5 * S, .runs = ETA_SEARCH_RUNS, .sets = 2, .search = true};
	st[2] = (struct eta_step){.run_ns = 4 * S, .runs = 4, .sets = 1, .precond_ns = 60 * S};
	st[3] = (struct eta_step){.run_ns = 5 * S, .runs = ETA_SEARCH_RUNS, .sets = 1, .search = true};
}

static void test_plan_of_known_steps(void **state)
{
	(void)state;
	struct eta_step st[4];
	struct eta e;
	plan_steps(st);
	eta_init(&e, st, 4);

	uint64_t fill = (uint64_t)(1e9 / ETA_FILL_GUESS_BPS * 1e9);
	uint64_t s1 = 5 * S * ETA_SEARCH_RUNS * 2, s2 = 60 * S + 16 * S,
		 s3 = 5 * S * ETA_SEARCH_RUNS;
	uint64_t before = fill + 10 * S + s1 + s2 + s3;
	assert_int_equal(eta_plan_left_ns(&e, 0), before);
	assert_int_equal(eta_step_left_ns(&e, 0), 0); /* none under way */

	/* step 0: filling, then its one run half done */
	eta_step_start(&e, 0);
	assert_int_equal(eta_step_left_ns(&e, 0), fill + 10 * S);
	assert_int_equal(eta_plan_left_ns(&e, 0), before);
	eta_run_start(&e);
	assert_int_equal(eta_step_left_ns(&e, 5 * S), 5 * S);
	assert_int_equal(eta_plan_left_ns(&e, 5 * S), 5 * S + s1 + s2 + s3);
	/* the fill ran at 250 MB/s: later fills are counted at that rate */
	eta_fill_measured(&e, 1000000000ull, 4 * S);
	assert_true(e.fill_bps > 249e6 && e.fill_bps < 251e6);
	eta_step_done(&e, 0, 15 * S, 1);
	assert_int_equal(st[0].took_ns, 15 * S);
	assert_int_equal(eta_plan_left_ns(&e, 0), s1 + s2 + s3);

	/* step 1: the search climbs longer than guessed; never negative */
	eta_step_start(&e, 1);
	for (unsigned i = 0; i < 2 * ETA_SEARCH_RUNS + 3; i++)
		eta_run_start(&e);
	assert_int_equal(eta_step_left_ns(&e, 2 * S), 2 * S);
	assert_int_equal(eta_step_left_ns(&e, 0), 0);
	assert_int_equal(eta_plan_left_ns(&e, 0), s2 + s3);
	/* it took 12 runs a set: the later search is expected to as well */
	eta_step_done(&e, 1, 120 * S, 12);
	assert_int_equal(st[3].runs, 12);
	assert_int_equal(eta_plan_left_ns(&e, 0), s2 + 5 * S * 12);

	/* step 2: preconditioning, then its points */
	eta_step_start(&e, 2);
	assert_int_equal(eta_step_left_ns(&e, 0), s2);
	eta_run_start(&e);
	assert_int_equal(eta_step_left_ns(&e, 3 * S), 3 * S + 3 * 4 * S);
	eta_step_done(&e, 2, 80 * S, 4);
	assert_int_equal(eta_plan_left_ns(&e, 0), 5 * S * 12);

	eta_step_start(&e, 3);
	eta_run_start(&e);
	assert_int_equal(eta_plan_left_ns(&e, 5 * S), 5 * S + 11 * 5 * S);
	eta_step_done(&e, 3, 60 * S, 12);
	assert_int_equal(eta_plan_left_ns(&e, 0), 0);
	assert_int_equal(eta_step_left_ns(&e, 0), 0);
	assert_int_equal(e.cur, 4);
}

/* A resumed plan: steps done earlier count for nothing left. */
static void test_resumed_steps_count_nothing(void **state)
{
	(void)state;
	struct eta_step st[4];
	struct eta e;
	plan_steps(st);
	eta_init(&e, st, 4);
	eta_step_done(&e, 0, 0, 0);
	eta_step_done(&e, 1, 0, 0);
	assert_int_equal(st[3].runs, ETA_SEARCH_RUNS); /* not told: kept */
	assert_int_equal(eta_plan_left_ns(&e, 0), 60 * S + 16 * S + 5 * S * ETA_SEARCH_RUNS);
	eta_init(&e, NULL, 0);
	assert_int_equal(eta_plan_left_ns(&e, 0), 0);
}

/* ---- a parsed plan's estimate (plan_time_estimate_ns) counts every fill
 * the run will do: targets that do not exist, so nothing is read from the
 * machine; 64 MiB each, 1 s runs and rounds, fills at ETA_FILL_GUESS_BPS. */

#define MIB64 (64ull << 20)
#define NOFILE "/var/tmp/iochar-eta-no-such-target"

static double estimate_s(const char *text)
{
	struct plan p;
	struct ioc_err err = {0};
	if (plan_parse(text, "t.ini", NULL, 0, &p, &err))
		fail_msg("%s", err.msg);
	double s = (double)plan_time_estimate_ns(&p) / S;
	plan_free(&p);
	return s;
}

static double fill_s(uint64_t bytes)
{
	return (double)bytes / ETA_FILL_GUESS_BPS;
}

/* A step that lays a file out before a preconditioning does not fill it
 * the PTS way: the preconditioning's fill passes still run (run_precondition
 * tracks fills only), and fill_passes=8 costs 8 passes of it. Before, the
 * layout marked the file filled: 0 and 8 passes gave the same estimate. */
static void test_estimate_fill_after_layout(void **state)
{
	(void)state;
	char text[1024];
	double got[2];
	for (unsigned k = 0; k < 2; k++) {
		snprintf(text, sizeof(text),
			 "[global]\nfilename=" NOFILE "\nsize=64m\ntime_based\nruntime=1s\n"
			 "max_rounds=2\nround_time=1s\n"
			 "[read]\nrw=randread\n"
			 "[pre]\nmode=precondition\nfill_passes=%u\n", k ? 8 : 0);
		got[k] = estimate_s(text);
	}
	double layout = fill_s(MIB64), rounds = 2;
	print_message("fill_passes=0: %.3f s, =8: %.3f s\n", got[0], got[1]);
	assert_true(fabs(got[0] - (layout + 1 + rounds)) < 0.001);
	assert_true(fabs(got[1] - (layout + 1 + rounds + fill_s(8 * MIB64))) < 0.001);
	/* a preconditioning with fill_passes=0 fills nothing: a later one
	 * still fills (and the run does: run_precondition marks only fills
	 * that ran) */
	double both = estimate_s("[global]\nfilename=" NOFILE "\nsize=64m\n"
				 "max_rounds=2\nround_time=1s\n"
				 "[none]\nmode=precondition\nfill_passes=0\n"
				 "[pre]\nmode=precondition\n");
	assert_true(fabs(both - (2 + 2 + fill_s(2 * MIB64))) < 0.001);
}

/* size= is what each target gets (one job copy per target): two targets
 * each filled twice write 4 x size, not 2 x size/2. */
static void test_estimate_fill_size_per_target(void **state)
{
	(void)state;
	double got = estimate_s("[global]\nfilename=" NOFILE "1:" NOFILE "2\nsize=64m\n"
				"max_rounds=2\nround_time=1s\n"
				"[pre]\nmode=precondition\ntargets=each\n");
	double want = fill_s(2 * 2 * MIB64) + 2 * 2; /* 2 sets of 2 rounds */
	print_message("estimate %.3f s, want %.3f s\n", got, want);
	assert_true(fabs(got - want) < 0.001);
	/* parallel: one set of both, the same fill, 2 rounds */
	got = estimate_s("[global]\nfilename=" NOFILE "1:" NOFILE "2\nsize=64m\n"
			 "max_rounds=2\nround_time=1s\n"
			 "[pre]\nmode=precondition\ntargets=parallel\n");
	assert_true(fabs(got - (fill_s(2 * 2 * MIB64) + 2)) < 0.001);
}

/* targets=scaling over 3 targets runs sets of 1, 2 and 3: each set has a
 * target not filled yet, so each fills all of its targets (1 + 2 + 3 = 6
 * target fills, twice each), not each target once (3). */
static void test_estimate_fill_scaling(void **state)
{
	(void)state;
	double got = estimate_s("[global]\nfilename=" NOFILE "1:" NOFILE "2:" NOFILE "3\n"
				"size=64m\nmax_rounds=2\nround_time=1s\n"
				"[pre]\nmode=precondition\ntargets=scaling\n");
	double want = fill_s(6 * 2 * MIB64) + 3 * 2;
	print_message("estimate %.3f s, want %.3f s\n", got, want);
	assert_true(fabs(got - want) < 0.001);
	/* a later step on the same targets fills nothing more */
	got = estimate_s("[global]\nfilename=" NOFILE "1:" NOFILE "2:" NOFILE "3\n"
			 "size=64m\nmax_rounds=2\nround_time=1s\n"
			 "[pre]\nmode=precondition\ntargets=scaling\n"
			 "[again]\nmode=precondition\ntargets=parallel\n");
	assert_true(fabs(got - (want + 2)) < 0.001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_of_known_steps),
		cmocka_unit_test(test_resumed_steps_count_nothing),
		cmocka_unit_test(test_estimate_fill_after_layout),
		cmocka_unit_test(test_estimate_fill_size_per_target),
		cmocka_unit_test(test_estimate_fill_scaling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
