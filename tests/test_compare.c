/* test_compare.c - `iochar compare` on synthetic result sets whose
 * per-second IOPS have a known mean and spread: the noise rule (3 x the
 * combined standard error) calls a 20 % change with 1 % noise significant
 * and a 2 % change with 10 % noise not; workloads one set lacks are
 * listed; text, JSON and CSV say the same. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "report_fixture.h"

static const struct synth_workload set_a[] = {
	{"steady", 100000, 0.01, 10},   /* -> +20 % in b: significant */
	{"noisy", 100000, 0.10, 10},    /* -> +2 % in b: within noise */
	{"only-a", 50000, 0.01, 10},
	{"short", 80000, 0.01, 1},      /* one second: noise unknown */
};
static const struct synth_workload set_b[] = {
	{"steady", 120000, 0.01, 10},
	{"noisy", 102000, 0.10, 10},
	{"only-b", 70000, 0.01, 10},
	{"short", 90000, 0.01, 1},
};

/* The sample standard deviation of the alternating series. */
static double alt_sd(double mean, double cov, unsigned n)
{
	double m = 0, sq = 0;
	for (unsigned k = 0; k < n; k++)
		m += mean * (1 + (k % 2 ? -cov : cov));
	m /= n;
	for (unsigned k = 0; k < n; k++) {
		double d = mean * (1 + (k % 2 ? -cov : cov)) - m;
		sq += d * d;
	}
	return sqrt(sq / (n - 1));
}

static void test_noise_rule(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	fixture_synthetic(dir, "a", set_a, 4);
	fixture_synthetic(dir, "b", set_b, 4);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);

	assert_string_equal(compare_verdict(root, "steady", 0), "reference");
	assert_string_equal(compare_verdict(root, "steady", 1), "significant");
	assert_string_equal(compare_verdict(root, "noisy", 1), "within noise");
	assert_string_equal(compare_verdict(root, "short", 1), "unknown");
	assert_string_equal(compare_verdict(root, "only-a", 1), "missing");
	assert_string_equal(compare_verdict(root, "only-b", 0), "missing");
	assert_string_equal(compare_verdict(root, "only-b", 1), "reference");

	/* the figures the verdicts come from */
	json_object *s1 = compare_value(root, "steady", 1);
	assert_true(fabs(jget_double(s1, "diff_pct") - 20.0) < 0.01);
	double sa = alt_sd(100000, 0.01, 10), sb = alt_sd(120000, 0.01, 10);
	double noise = 3 * sqrt(sa * sa / 10 + sb * sb / 10) / 100000 * 100;
	assert_true(fabs(jget_double(s1, "noise_pct") - noise) < 0.01);
	/* the short last second is left out of the series */
	assert_int_equal(jget_u64(s1, "intervals"), 10);
	assert_true(fabs(jget_double(s1, "interval_iops_mean") - 120000) < 0.01);
	json_object *n1 = compare_value(root, "noisy", 1);
	assert_true(fabs(jget_double(n1, "diff_pct") - 2.0) < 0.01);
	assert_true(jget_double(n1, "noise_pct") > 10 && jget_double(n1, "noise_pct") < 20);
	json_object_put(root);
	proc_out_free(&po);

	/* text: every workload listed, the one-sided ones named */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b"));
	expect_exit(&po, 0);
	expect_has(po.out, "only-a only in a");
	expect_has(po.out, "only-b only in b");
	expect_has(po.out, "+20.0 %");
	expect_has(po.out, "significant");
	expect_has(po.out, "within noise");
	proc_out_free(&po);

	/* CSV: a header and a row per workload and set (5 workloads x 2) */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--output-format=csv"));
	expect_exit(&po, 0);
	assert_int_equal(count_lines(po.out), 1 + 5 * 2);
	expect_has(po.out, "steady,b,iops,120000.000,");
	expect_has(po.out, ",significant\n");
	expect_has(po.out, "only-a,b,iops,,mean,,,,,,,,,,,,,missing\n");
	/* a single run says the drift between runs was not measured */
	expect_has(po.out, ",10.000,per-second,single run: run-to-run drift not measured,significant\n");
	proc_out_free(&po);

	/* the HTML report of both has the comparison */
	run_iochar(&po, dir, 0, ARGS("report", "a", "b", "-o", "ab.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char p[4400];
	snprintf(p, sizeof(p), "%s/ab.html", dir);
	char *html = fixture_slurp(p, NULL);
	expect_has(html, "<section id=\"compare\">");
	expect_has(html, "<td class=\"sig\">significant</td>");
	expect_has(html, "<td class=\"missing\">missing</td>");
	free(html);
}

static void test_compare_usage(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	fixture_synthetic(dir, "a", set_a, 2);
	run_iochar(&po, dir, 0, ARGS("compare", "a"));
	expect_exit(&po, 2);
	expect_has(po.err, "two result sets");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "--output-format=xml"));
	expect_exit(&po, 2);
	expect_has(po.err, "--output-format=xml");
	proc_out_free(&po);
	/* the same set twice: no difference, nothing significant */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	assert_string_equal(compare_verdict(root, "steady", 1), "within noise");
	assert_true(fabs(jget_double(compare_value(root, "steady", 1), "diff_pct")) < 1e-9);
	json_object_put(root);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_noise_rule, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_compare_usage, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
