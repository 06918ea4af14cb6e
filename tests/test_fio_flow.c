/* test_fio_flow.c - flow= and flow_sleep against fio 3.33 (Debian's),
 * the same tiny jobs through both: flow= keeps two jobs' I/O counts in
 * the ratio of their weights, a job that ends leaves its flow (the other
 * finishes every I/O), flow_sleep holds a job back for that long. SKIP
 * without fio.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

/* jobs[k].read.total_ios of doc. */
static double job_ios(json_object *doc, size_t k)
{
	json_object *jobs, *d, *v;
	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	assert_true(k < json_object_array_length(jobs));
	json_object *j = json_object_array_get_idx(jobs, k);
	assert_true(json_object_object_get_ex(j, "read", &d));
	assert_true(json_object_object_get_ex(d, "total_ios", &v));
	return json_object_get_double(v);
}

/* fio's b:a within ±30 % of 8 (test_flow_ratio). */
static const char *flow_ratio_held(int rc, json_object *f, char *why,
				   size_t len)
{
	if (rc || !f) {
		snprintf(why, len, "exit %d", rc);
		return why;
	}
	double fr = job_ios(f, 1) / job_ios(f, 0);
	if (fr >= 5.6 && fr <= 10.4)
		return NULL;
	snprintf(why, len, "b:a %.2f, not in 5.6..10.4", fr);
	return why;
}

/* flow=1 and flow=8 in the default flow: both tools issue about 8 of
 * the second job's I/Os for each of the first's (±30 %); without flow
 * the ratio is about 1. fio's own ratio drifts under load (6.73 in CI,
 * 5.39 on a busy 2-core machine: its jobs start one after the other and
 * its flow counter is checked every flow_sleep), so fio gets up to 3
 * runs to show its ratio (side_fio_tries). iochar times each job from
 * its own start as fio does, so on a busy machine a job started late runs
 * alone after the other left the flow (b:a 14.75 seen under two CPU
 * hogs): iochar gets up to 3 runs too, each printed, and must hold the
 * ratio and "regulated, not stalled" on one of them. Under the same hogs
 * its job a did ~600 I/Os in 700 ms when a held member yielded (each turn
 * cost a tick); it now waits on the flow (flow_wait_turn): 13k-167k. */
static void test_flow_ratio(void **state)
{
	static const char opts[] = SIDE_JSON_FIRST
	    "--name=a " SIDE_NULL_READ "--flow=1 --time_based --runtime=700ms "
	    "--name=b " SIDE_NULL_READ "--flow=8 --time_based --runtime=700ms";
	const char *dir = *state;
	json_object *f, *i;
	int rf, ri;
	side_need_fio();
	/* one tool after the other: each tool's ratio is its own, not cut by
	 * the other's two threads on the same CPUs */
	double ir = 0, ia = 0;
	for (unsigned t = 1;; t++) {
		ri = side_run("iochar", dir, "iochar", opts);
		assert_int_equal(ri, 0);
		i = side_json(dir, "iochar");
		assert_non_null(i);
		ir = job_ios(i, 1) / job_ios(i, 0);
		ia = job_ios(i, 0);
		print_message("iochar, try %u of 3: b:a %.2f, a's I/Os %.0f\n", t, ir, ia);
		if ((ir >= 5.6 && ir <= 10.4 && ia > 1000) || t == 3)
			break;
		json_object_put(i);
	}
	side_expect_within("iochar's b:a", ir, 5.6, 10.4);
	assert_true(ia > 1000); /* regulated, not stalled */
	rf = side_run("fio", dir, "fio", opts);
	f = rf == 0 ? side_json(dir, "fio") : NULL;
	side_fio_tries(dir, opts, rf, &f, flow_ratio_held, 3);
	print_message("fio's b:a %.2f\n", job_ios(f, 1) / job_ios(f, 0));
	json_object_put(f);
	json_object_put(i);
}

/* A size-bounded job with weight 1 ends after its 16 I/Os; the job of
 * weight 8 is then alone in the flow and does all its 1024 in both. */
static void test_flow_leave(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, SIDE_JSON_FIRST
			   "--name=a " SIDE_NULL_READ "--size=64k --flow=1 "
			   "--name=b " SIDE_NULL_READ "--flow=8", &f, &i);
	assert_int_equal((int)job_ios(f, 0), 16);
	assert_int_equal((int)job_ios(i, 0), 16);
	assert_int_equal((int)job_ios(f, 1), 1024);
	assert_int_equal((int)job_ios(i, 1), 1024);
	json_object_put(f);
	json_object_put(i);
}

/* Two jobs of one weight sleeping 100 ms whenever they are ahead: a few
 * I/Os per sleep, a few dozen a second in iochar, shared evenly (an
 * unregulated null job does millions). fio is held only to regulating:
 * its jobs start one after the other and check the flow counter once per
 * flow_sleep, so on a loaded machine one job ran 1119 I/Os (CI) before
 * the other's weight reached the counter; 62 on a quiet one. */
static void test_flow_sleep(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, SIDE_JSON_FIRST
			   "--name=a " SIDE_NULL_READ "--flow=1 --flow_sleep=100000 "
			   "--time_based --runtime=1 "
			   "--name=b " SIDE_NULL_READ "--flow=1 --flow_sleep=100000 "
			   "--time_based --runtime=1", &f, &i);
	for (size_t k = 0; k < 2; k++) {
		side_expect_within("fio's I/Os", job_ios(f, k), 15, 5000);
		side_expect_within("iochar's I/Os", job_ios(i, k), 15, 80);
	}
	side_expect_within("iochar's a:b", job_ios(i, 0) / job_ios(i, 1), 0.8, 1.25);
	json_object_put(f);
	json_object_put(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_flow_ratio, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_flow_leave, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_flow_sleep, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
