/* test_compare.c - `iochar compare` on synthetic result sets whose
 * per-second IOPS have a known mean and spread: the single-run rule (3 x
 * the combined standard error, at least 10 %) calls a 20 % change with 1 %
 * noise significant, a 2 % change with 10 % noise inconclusive (a band
 * wider than the floor decides nothing) and an 8 % one with 0.5 % noise
 * within noise; identical runs never significant, 4x apart never within
 * noise; sides of repeated runs (A1 A2 A3 -- B1 B2 B3) are
 * judged by Welch's t on the per-run values with a 5 % minimum effect;
 * workloads whose parameters differ are not comparable; workloads one
 * set lacks are listed; text, JSON, CSV and HTML say the same. Then real
 * null-engine runs, one at a time: identical back-to-back runs within
 * noise, a halved rate significant, a difference inside the runs' wide
 * spread inconclusive, the reported noise recomputed from the reported runs and
 * seconds; one job at QD 1 and 32, at 4K and 8K, as randread and
 * randwrite, not comparable rather than unmatched; 1 s runs unknown (no
 * band); plan results directories as sides of repeats. */
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
#include "util/text_width.h"
#include "report/compare.h"
#include "report_fixture.h"

static const struct synth_workload set_a[] = {
	{"steady", 100000, 0.01, 10},   /* -> +20 % in b: significant */
	{"noisy", 100000, 0.10, 10},    /* -> +2 % in b: a band wider than the floor */
	{"only-a", 50000, 0.01, 10},
	{"short", 80000, 0.01, 1},      /* one second: noise unknown */
	{"wide", 100000, 0.30, 10},     /* -> +15 % in b: inconclusive */
};
static const struct synth_workload set_b[] = {
	{"steady", 120000, 0.01, 10},
	{"noisy", 102000, 0.10, 10},
	{"only-b", 70000, 0.01, 10},
	{"short", 90000, 0.01, 1},
	{"wide", 115000, 0.30, 10},
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

	fixture_synthetic(dir, "a", set_a, 5);
	fixture_synthetic(dir, "b", set_b, 5);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);

	assert_string_equal(compare_verdict(root, "steady", 0), "reference");
	assert_string_equal(compare_verdict(root, "steady", 1), "significant");
	/* +2 % inside a band of 10-20 %: not different, but not shown equal */
	assert_string_equal(compare_verdict(root, "noisy", 1), "inconclusive");
	assert_string_equal(compare_verdict(root, "short", 1), "unknown");
	/* +12.5 % is above the floor, and one second has no spread to say more */
	assert_string_equal(json_object_get_string(jget(compare_value(root, "short", 1), "note")),
			    "runs shorter than 2 s have no per-second spread");
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
	/* +15 %, above the floor but inside 3 standard errors of 30 % seconds */
	json_object *w1 = compare_value(root, "wide", 1);
	sa = alt_sd(100000, 0.30, 10);
	sb = alt_sd(115000, 0.30, 10);
	noise = 3 * sqrt(sa * sa / 10 + sb * sb / 10) / 100000 * 100;
	assert_true(fabs(jget_double(w1, "noise_pct") - noise) < 0.01);
	assert_true(jget_double(w1, "diff_pct") > jget_double(w1, "floor_pct"));
	assert_string_equal(compare_verdict(root, "wide", 1), "inconclusive");
	/* the single-run caveat once for the table, on no row */
	assert_string_equal(json_object_get_string(jget(root, "single_run_note")),
			    "single run: run-to-run drift not measured (repeat the runs: "
			    "A1 A2 A3 -- B1 B2 B3)");
	assert_string_equal(json_object_get_string(jget(s1, "note")), "");
	json_object_put(root);
	proc_out_free(&po);

	/* text: every workload listed, the one-sided ones named */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b"));
	expect_exit(&po, 0);
	expect_has(po.out, "only-a only in a");
	expect_has(po.out, "only-b only in b");
	expect_has(po.out, "+20.0 %");
	expect_has(po.out, "significant");
	expect_has(po.out, "inconclusive");
	/* once in the header, on no row */
	assert_non_null(strstr(po.out, "single run: run-to-run drift not measured"));
	assert_null(strstr(strstr(po.out, "single run: run-to-run drift") + 1,
			   "single run: run-to-run drift"));
	proc_out_free(&po);

	/* CSV: a header and a row per workload and set (6 workloads x 2) */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--output-format=csv"));
	expect_exit(&po, 0);
	assert_int_equal(count_lines(po.out), 1 + 6 * 2);
	expect_has(po.out, "steady,b,iops,120000.000,");
	expect_has(po.out, ",significant\n");
	expect_has(po.out, "only-a,b,iops,,mean,,,,,,,,,,,,,missing\n");
	/* the rule says it was a single run; the drift note is the table's */
	expect_has(po.out, ",10.000,per-second,,significant\n");
	proc_out_free(&po);

	/* the HTML report of both has the comparison */
	char *html = fixture_report_html(dir, "ab.html", ARGS("a", "b"));
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


/* Side NAME<k>, k = 1..n: one run each of workloads with run k's mean. */
static void runs_of(const char *dir, const char *name, const char *const *labels,
		    const double (*means)[3], unsigned nr_labels, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		struct synth_workload w[8];
		char nm[64];
		for (unsigned i = 0; i < nr_labels; i++)
			w[i] = (struct synth_workload){labels[i], means[i][k], 0.01, 10};
		snprintf(nm, sizeof(nm), "%s%u", name, k + 1);
		fixture_synthetic(dir, nm, w, nr_labels);
	}
}

static const char *const rep_labels[] = {"faster", "small", "spread", "drifting"};
static const double rep_a[][3] = {
	{100000, 101000, 99000}, /* sd 1000 */
	{100000, 101000, 99000},
	{100000, 101000, 99000},
	{100000, 70000, 130000}, /* the same three values as b's, in another order */
};
static const double rep_b[][3] = {
	{110000, 111000, 109000}, /* +10 %, sd 1000: significant */
	{103000, 104000, 102000}, /* +3 %: above the interval, below the 5 % minimum */
	{90000, 110000, 130000},  /* +10 % but sd 20000: inconclusive */
	{70000, 100000, 130000},  /* the same mean, sd 30000: inconclusive */
};

static void test_repeats(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	runs_of(dir, "a", rep_labels, rep_a, 4, 3);
	runs_of(dir, "b", rep_labels, rep_b, 4, 3);
	run_iochar(&po, dir, 0, ARGS("compare", "a1", "a2", "a3", "--", "b1", "b2", "b3",
				     "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *f1 = compare_value(root, "faster", 1);
	assert_string_equal(compare_verdict(root, "faster", 0), "reference");
	assert_string_equal(compare_verdict(root, "faster", 1), "significant");
	assert_string_equal(json_object_get_string(jget(f1, "rule")), "runs");
	assert_int_equal(jget_u64(f1, "runs"), 3);
	assert_true(fabs(jget_double(f1, "value") - 110000) < 0.01);
	assert_true(fabs(jget_double(f1, "run_stdev") - 1000) < 0.01);
	assert_true(fabs(jget_double(f1, "diff_pct") - 10) < 0.01);
	/* equal spreads and counts: Welch's df is 2 (n - 1) = 4, t = 2.776 */
	double noise = 2.776 * sqrt(1000.0 * 1000 / 3 * 2) / 100000 * 100;
	assert_true(fabs(jget_double(f1, "noise_pct") - noise) < 0.001);
	assert_string_equal(json_object_get_string(jget(f1, "note")), "");
	assert_true(json_object_is_type(jget(f1, "intervals"), json_type_null));
	/* +3 % is beyond the interval (2.3 %) but below the minimum effect */
	json_object *s1 = compare_value(root, "small", 1);
	assert_true(jget_double(s1, "diff_pct") > jget_double(s1, "noise_pct"));
	assert_string_equal(compare_verdict(root, "small", 1), "within noise");
	assert_true(fabs(jget_double(s1, "floor_pct") - 5) < 1e-9);
	/* a band wider than the 5 % minimum cannot call them equal */
	assert_string_equal(compare_verdict(root, "spread", 1), "inconclusive");
	assert_true(jget_double(compare_value(root, "spread", 1), "noise_pct") > 10);
	assert_string_equal(compare_verdict(root, "drifting", 1), "inconclusive");
	json_object *side0 = json_object_array_get_idx(jget(root, "sets"), 0);
	assert_string_equal(json_object_get_string(jget(side0, "name")), "a1+2");
	assert_int_equal(json_object_array_length(jget(side0, "runs")), 3);
	json_object_put(root);
	proc_out_free(&po);

	/* the first runs alone: drift the per-second series cannot see is
	 * called a change (-30 %), but not without saying it is one run */
	run_iochar(&po, dir, 0, ARGS("compare", "a1", "b1", "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	assert_string_equal(compare_verdict(root, "drifting", 1), "significant");
	json_object *d1 = compare_value(root, "drifting", 1);
	assert_string_equal(json_object_get_string(jget(d1, "rule")), "per-second");
	assert_string_equal(json_object_get_string(jget(d1, "note")), "");
	assert_non_null(strstr(json_object_get_string(jget(root, "single_run_note")),
			       "run-to-run drift not measured"));
	json_object_put(root);
	proc_out_free(&po);

	/* one side repeated: its spread stands for both, t with n - 1 = 2 df */
	run_iochar(&po, dir, 0, ARGS("compare", "a1", "a2", "a3", "--", "b1",
				     "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	f1 = compare_value(root, "faster", 1);
	assert_string_equal(json_object_get_string(jget(f1, "rule")), "runs, one side's spread");
	noise = 4.303 * 1000 * sqrt(1.0 / 3 + 1) / 100000 * 100;
	assert_true(fabs(jget_double(f1, "noise_pct") - noise) < 0.001);
	assert_string_equal(compare_verdict(root, "faster", 1), "significant");
	json_object_put(root);
	proc_out_free(&po);

}

/* Text, CSV and the report carry the sides, the runs and the rule. */
static void test_repeats_outputs(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	runs_of(dir, "a", rep_labels, rep_a, 4, 3);
	runs_of(dir, "b", rep_labels, rep_b, 4, 3);
	run_iochar(&po, dir, 0, ARGS("compare", "a1", "a2", "a3", "--", "b1",
				     "--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, ",5.000,\"runs, one side's spread\",,significant\n");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a1", "a2", "a3", "--", "b1", "b2", "b3"));
	expect_exit(&po, 0);
	expect_has(po.out, "a1+2=a1,a2,a3 (reference, 3 runs)");
	expect_has(po.out, "noise, repeated runs: the 95 % interval");
	expect_has(po.out, "8x1    3   +10.0 %    \xc2\xb1" "2.3 %  significant\n");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a1", "a2", "a3", "--", "b1", "b2", "b3",
				     "--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, "faster,b1+2,iops,110000.000,mean,");
	expect_has(po.out, ",10.000,2.267,3,1000.000,5.000,runs,,significant\n");
	proc_out_free(&po);

	/* the report's comparison has the sides; every run keeps its tables */
	char *html = fixture_report_html(dir, "ab.html",
					 ARGS("a1", "a2", "a3", "--", "b1", "b2", "b3"));
	expect_has(html, "<th>a1+2 (3 runs)</th><th>b1+2 (3 runs)</th><th>diff</th>");
	expect_has(html, "<td class=\"num\">+10.0 %</td><td class=\"num\">\xc2\xb1"
			 "2.3 %</td><td class=\"sig\">significant</td>");
	expect_has(html, "<td>b3</td>"); /* the summary: a row per run */
	free(html);
}

static void test_single_run_floor(void **state)
{
	static const struct synth_workload a[] = {{"tight", 100000, 0.005, 10}};
	static const struct synth_workload b[] = {{"tight", 108000, 0.005, 10}};
	const char *dir = *state;
	struct proc_out po;

	fixture_synthetic(dir, "a", a, 1);
	fixture_synthetic(dir, "b", b, 1);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *v = compare_value(root, "tight", 1);
	/* far beyond the per-second band, below the drift floor */
	assert_true(jget_double(v, "noise_pct") < 1);
	assert_true(fabs(jget_double(v, "diff_pct") - 8) < 0.01);
	assert_true(fabs(jget_double(v, "floor_pct") - 10) < 1e-9);
	assert_string_equal(compare_verdict(root, "tight", 1), "within noise");
	json_object_put(root);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b"));
	expect_exit(&po, 0);
	/* the table says it once, not each row */
	expect_has(po.out, "within noise\n");
	expect_has(po.out, "\nsingle run: run-to-run drift not measured");
	expect_has(po.out, "and at least 10 % to be significant");
	assert_null(strstr(po.out, "(single run: run-to-run drift not measured)"));
	proc_out_free(&po);
}

/* The display column where needle starts on line (UTF-8: µs, ± are one). */
static size_t col_of(const char *line, const char *needle)
{
	const char *at = strstr(line, needle);
	assert_non_null(at);
	char head[1024];
	snprintf(head, sizeof(head), "%.*s", (int)(at - line), line);
	return text_width(head);
}

/* Sets named alike but for their end: shown whole (the end is what tells
 * them apart), and each row's columns aligned by what a person sees,
 * latencies in µs included. */
static void test_whole_names_aligned(void **state)
{
	static const struct synth_workload a[] = {{"tight", 100000, 0.005, 10}};
	static const struct synth_workload b[] = {{"tight", 140000, 0.005, 10}};
	const char *dir = *state;
	const char *na = "results-2026-12-07-host-one-before", *nb = "results-2026-12-07-host-one-after";
	struct proc_out po;

	fixture_synthetic(dir, na, a, 1);
	fixture_synthetic(dir, nb, b, 1);
	run_iochar(&po, dir, 0, ARGS("compare", na, nb));
	expect_exit(&po, 0);
	char *l1 = strstr(po.out, na), *l2 = strstr(po.out, nb);
	while (l1 && strstr(l1 + 1, na)) /* the row, not the header's list */
		l1 = strstr(l1 + 1, na);
	while (l2 && strstr(l2 + 1, nb))
		l2 = strstr(l2 + 1, nb);
	assert_true(l1 && l2);
	while (l1 > po.out && l1[-1] != '\n')
		l1--;
	while (l2 > po.out && l2[-1] != '\n')
		l2--;
	char r1[1024], r2[1024];
	snprintf(r1, sizeof(r1), "%.*s", (int)strcspn(l1, "\n"), l1);
	snprintf(r2, sizeof(r2), "%.*s", (int)strcspn(l2, "\n"), l2);
	if (!strstr(r1, "\xc2\xb5s") || col_of(r1, "IOPS") != col_of(r2, "IOPS") ||
	    col_of(r1, "\xc2\xb5s") != col_of(r2, "\xc2\xb5s") ||
	    col_of(r1, "reference") != col_of(r2, "significant"))
		fail_msg("names cut or columns not aligned:\n%s", po.out);
	const char *hdr = strstr(po.out, "\nworkload");
	assert_non_null(hdr);
	assert_int_equal(col_of(hdr + 1, "value") + 5, col_of(r1, "IOPS") + 4);
	proc_out_free(&po);
}

static void test_not_comparable(void **state)
{
	static const struct synth_workload q1[] = {{"qd", 100000, 0.01, 10},
						   {"same", 100000, 0.01, 10}};
	static const struct synth_workload q32[] = {{"qd", 300000, 0.01, 10},
						    {"same", 100000, 0.01, 10}};
	static const unsigned qd1[] = {1, 8}, qd32[] = {32, 8};
	const char *dir = *state;
	struct proc_out po;

	fixture_synthetic_qd(dir, "q1", q1, 2, qd1);
	fixture_synthetic_qd(dir, "q32", q32, 2, qd32);
	run_iochar(&po, dir, 0, ARGS("compare", "q1", "q32", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	assert_string_equal(compare_verdict(root, "qd", 0), "reference");
	assert_string_equal(compare_verdict(root, "qd", 1), "not comparable");
	json_object *v = compare_value(root, "qd", 1);
	assert_string_equal(json_object_get_string(jget(v, "reason")), "iodepth 1 vs 32");
	assert_true(json_object_is_type(jget(v, "diff_pct"), json_type_null));
	assert_string_equal(compare_verdict(root, "same", 1), "within noise");
	json_object_put(root);
	proc_out_free(&po);

	run_iochar(&po, dir, 0, ARGS("compare", "q1", "q32"));
	expect_exit(&po, 0);
	expect_has(po.out, "not comparable  (iodepth 1 vs 32)\n");
	expect_has(po.out, "not comparable: qd in q32 (iodepth 1 vs 32)\n");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "q1", "q32", "--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, "qd,q32,iops,300000.000,mean,50000.000,150000.000,32,1,10,,,1,,,,"
			   "iodepth 1 vs 32,not comparable\n");
	proc_out_free(&po);

	/* repeats that are not repeats: the side is not comparable, and so
	 * is what would be compared with it */
	run_iochar(&po, dir, 0, ARGS("compare", "q1", "q32", "--", "q1", "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	v = compare_value(root, "qd", 0);
	assert_string_equal(json_object_get_string(jget(v, "verdict")), "not comparable");
	assert_string_equal(json_object_get_string(jget(v, "reason")), "runs differ: iodepth 1 vs 32");
	assert_string_equal(compare_verdict(root, "qd", 1), "not comparable");
	assert_string_equal(compare_verdict(root, "same", 1), "within noise");
	json_object_put(root);
	proc_out_free(&po);

	char *html = fixture_report_html(dir, "q.html", ARGS("q1", "q32"));
	expect_has(html, "<td class=\"nc\">not comparable (iodepth 1 vs 32)</td>");
	expect_has(html, " %</td><td>within noise</td>");
	free(html);
}

/* The verdicts' rule itself: an identical pair is never significant,
 * whatever the band; a 4x difference is never within noise, whatever the
 * band; a band wider than the floor decides nothing. */
static void test_decide(void **state)
{
	(void)state;
	for (double noise = 0; noise <= 1000; noise += 0.5) {
		for (double floor = 5; floor <= 10; floor += 5) {
			assert_int_not_equal(compare_decide(0, noise, floor), CMP_SIGNIFICANT);
			assert_int_not_equal(compare_decide(-75, noise, floor), CMP_WITHIN_NOISE);
			assert_int_not_equal(compare_decide(300, noise, floor), CMP_WITHIN_NOISE);
		}
	}
	/* the zram against the disk, single runs */
	assert_int_equal(compare_decide(-76.4, 132, 10), CMP_INCONCLUSIVE);
	assert_int_equal(compare_decide(-88.9, 165, 10), CMP_INCONCLUSIVE);
	assert_int_equal(compare_decide(-76.4, 3, 10), CMP_SIGNIFICANT);
	assert_int_equal(compare_decide(2, 3, 10), CMP_WITHIN_NOISE);
	assert_int_equal(compare_decide(2, 12, 10), CMP_INCONCLUSIVE);
	assert_int_equal(compare_decide(2, NAN, 10), CMP_UNKNOWN);
}

/* The same through whole single runs: a set against itself at every
 * per-second spread is never significant; 4x apart never within noise,
 * and with a wild spread inconclusive, not within noise. */
static void test_single_runs_extremes(void **state)
{
	static const double covs[] = {0.001, 0.01, 0.05, 0.2, 0.5, 0.9};
	const char *dir = *state;
	struct synth_workload a[6], b[6];
	char keys[6][16];
	struct proc_out po;

	for (unsigned i = 0; i < 6; i++) {
		snprintf(keys[i], sizeof(keys[i]), "w%u", i);
		a[i] = (struct synth_workload){keys[i], 100000, covs[i], 4};
		b[i] = (struct synth_workload){keys[i], 25000, covs[i], 4};
	}
	fixture_synthetic(dir, "a", a, 6);
	fixture_synthetic(dir, "b", b, 6);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "b", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	for (unsigned i = 0; i < 6; i++) {
		const char *same = compare_verdict(root, keys[i], 1);
		const char *four = compare_verdict(root, keys[i], 2);
		assert_string_not_equal(same, "significant");
		assert_string_not_equal(four, "within noise");
		if (covs[i] <= 0.05)
			assert_string_equal(four, "significant");
	}
	/* 90 % seconds over 3 seconds: -75 % inside a band of some 200 % */
	json_object *v = compare_value(root, "w5", 2);
	assert_true(jget_double(v, "noise_pct") > 100);
	assert_string_equal(compare_verdict(root, "w5", 2), "inconclusive");
	json_object_put(root);
	proc_out_free(&po);
}

static void test_sides_usage(void **state)
{
	static const struct synth_workload w[] = {{"steady", 100000, 0.01, 10}};
	const char *dir = *state;
	struct proc_out po;

	fixture_synthetic(dir, "a", w, 1);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "--"));
	expect_exit(&po, 2);
	expect_has(po.err, "iochar compare: --: no result set after the last '--'\n");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "--", "a", "a"));
	expect_exit(&po, 2);
	expect_has(po.err, "iochar compare: --: no result set before it");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "--", "--", "a"));
	expect_exit(&po, 2);
	expect_has(po.err, "no result set between it and the previous '--'");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a"));
	expect_exit(&po, 0); /* no "--": each set a side, as before */
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "--output-format=json", "--"));
	expect_exit(&po, 2);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "a"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "a", "--"));
	expect_exit(&po, 2);
	proc_out_free(&po);
	/* one run counted twice in a side */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a", "--", "a"));
	expect_exit(&po, 2);
	expect_has(po.err, "iochar compare: a: given twice in one side (a repeat must be another run)\n");
	proc_out_free(&po);
	/* a trailing "--" leaves an empty side */
	fixture_synthetic(dir, "b", w, 1);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--"));
	expect_exit(&po, 2);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("report", "a", "b", "--", "-o", "x.html"));
	expect_exit(&po, 2);
	expect_has(po.err, "iochar report: --: no result set after the last '--'\n");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("report", "a", "a", "--", "b", "-o", "x.html"));
	expect_exit(&po, 2);
	expect_has(po.err, "iochar report: a: given twice in one side");
	proc_out_free(&po);
}

/* Student's t CDF at x for df v: 1/2 plus the density's integral from 0
 * to x (Simpson, 4000 steps), computed here independently of the table. */
static double t_cdf(double x, double v)
{
	double c = exp(lgamma((v + 1) / 2) - lgamma(v / 2)) / sqrt(v * M_PI);
	unsigned n = 4000;
	double h = x / n, sum = 0;

	for (unsigned i = 0; i <= n; i++) {
		double t = i * h, y = c * pow(1 + t * t / v, -(v + 1) / 2);
		sum += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * y;
	}
	return 0.5 + sum * h / 3;
}

static void test_t_table(void **state)
{
	(void)state;
	assert_true(fabs(compare_t975(1) - 12.706) < 1e-9);
	assert_true(fabs(compare_t975(4) - 2.776) < 1e-9);
	assert_true(fabs(compare_t975(30) - 2.042) < 1e-9);
	assert_true(fabs(compare_t975(40) - 2.021) < 1e-9);
	assert_true(fabs(compare_t975(INFINITY) - 1.960) < 1e-9);
	assert_true(isnan(compare_t975(0.5)));
	assert_true(isnan(compare_t975(NAN)));
	/* A fractional Welch df (two runs a side give just under 2): the
	 * quantile is never below the true one (the interval errs wide), and
	 * from df 1.95 within 2 % of it (rounding df down gave 12.7 at 1.98,
	 * the true t being 4.35). */
	static const double dfs[] = {1.2, 1.5, 1.9, 1.98, 2.5, 3.3, 4.9, 9.5, 25.5, 35, 45, 90, 500};
	for (unsigned i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++) {
		double t = compare_t975(dfs[i]), p = t_cdf(t, dfs[i]);
		assert_true(p >= 0.975 - 1e-5);
		if (dfs[i] >= 1.95)
			assert_true(t_cdf(t / 1.02, dfs[i]) < 0.975);
	}
}

/* DIR/NAME.json: `iochar run --output-format=json` of a null-engine job
 * named "job" (numjobs 1), rate-limited: paced null runs hold their rate
 * to ~0.1 % when the machine is free enough. One at a time: seven 3 s
 * runs at once on 2 busy CPUs once lost a run a quarter of its rate, and
 * a 2-run side that wide hid a halved rate. */
static void null_run(const char *dir, const char *name, const char *rw, const char *bs,
		     unsigned iodepth, unsigned rate_iops, unsigned runtime_s)
{
	char a_rw[32], a_bs[32], qd[32], rate[32], rt[32], path[4400];
	struct proc_out po;

	snprintf(a_rw, sizeof(a_rw), "--rw=%s", rw);
	snprintf(a_bs, sizeof(a_bs), "--bs=%s", bs);
	snprintf(qd, sizeof(qd), "--iodepth=%u", iodepth);
	snprintf(rate, sizeof(rate), "--rate_iops=%u", rate_iops);
	snprintf(rt, sizeof(rt), "--runtime=%us", runtime_s);
	run_iochar(&po, dir, 0, ARGS("run", "--name=job", "--ioengine=null", a_rw, a_bs,
				     "--size=4m", qd, rate, rt, "--time_based",
				     "--output-format=json"));
	expect_exit(&po, 0);
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	fixture_write(path, po.out, strlen(po.out));
	proc_out_free(&po);
}

static double run_value(json_object *v, unsigned k)
{
	return json_object_get_double(json_object_array_get_idx(jget(v, "run_values"), k));
}

/* Sample mean and variance of the mean of a value's run_values. */
static void run_stats(json_object *v, double *mean, double *var_mean, unsigned *n)
{
	double sum = 0, sq = 0;
	*n = (unsigned)json_object_array_length(jget(v, "run_values"));
	for (unsigned k = 0; k < *n; k++)
		sum += run_value(v, k);
	*mean = sum / *n;
	for (unsigned k = 0; k < *n; k++)
		sq += (run_value(v, k) - *mean) * (run_value(v, k) - *mean);
	*var_mean = sq / (*n - 1) / *n;
}

/* The reported noise of value 1 against 0 of the workload is Welch's
 * interval recomputed from the reported run values. */
static void expect_welch_noise(json_object *root, const char *key)
{
	json_object *a = compare_value(root, key, 0), *b = compare_value(root, key, 1);
	double ma, mb, va, vb;
	unsigned na, nb;
	run_stats(a, &ma, &va, &na);
	run_stats(b, &mb, &vb, &nb);
	double se = sqrt(va + vb);
	double want = 0;
	if (se > 0) {
		double df = pow(se, 4) / (va * va / (na - 1) + vb * vb / (nb - 1));
		want = compare_t975(df) * se / ma * 100;
	}
	double got = jget_double(b, "noise_pct");
	if (fabs(got - want) > 1e-3 * (1 + want))
		fail_msg("%s: noise %.4f %%, Welch gives %.4f %%", key, got, want);
}

/* The reported noise of a single run against the reference is 3 combined
 * standard errors of the reported per-second means. */
static void expect_seconds_noise(json_object *root, const char *key)
{
	json_object *a = compare_value(root, key, 0), *b = compare_value(root, key, 1);
	double sa = jget_double(a, "interval_iops_stdev"), sb = jget_double(b, "interval_iops_stdev");
	double want = 3 * sqrt(sa * sa / jget_u64(a, "intervals") +
			       sb * sb / jget_u64(b, "intervals")) /
		      jget_double(a, "interval_iops_mean") * 100;
	double got = jget_double(b, "noise_pct");
	if (fabs(got - want) > 1e-3 * (1 + want))
		fail_msg("%s: noise %.4f %%, 3 x the standard error gives %.4f %%", key, got, want);
}

/* Identical runs of key: never significant; within noise when the band
 * is no wider than the floor, else inconclusive (a loaded machine, or
 * the sanitizers, can widen it past 5 % with two runs a side). */
static void expect_alike(json_object *root, const char *key)
{
	json_object *v = compare_value(root, key, 1);
	const char *verdict = compare_verdict(root, key, 1);
	assert_string_not_equal(verdict, "significant");
	if (jget_double(v, "noise_pct") <= jget_double(v, "floor_pct"))
		assert_string_equal(verdict, "within noise");
	else
		assert_string_equal(verdict, "inconclusive");
}

/* Real null-engine runs, rate-limited so the machine's load does not
 * move them: what compare says of them. */
static void test_real_runs(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	const char *key = "job (randread 4K)";

	null_run(dir, "a1", "randread", "4k", 1, 1000, 2);
	null_run(dir, "a2", "randread", "4k", 1, 1000, 2);
	null_run(dir, "a3", "randread", "4k", 1, 1000, 2);
	null_run(dir, "a4", "randread", "4k", 1, 1000, 2);
	null_run(dir, "h1", "randread", "4k", 1, 500, 2);
	null_run(dir, "h2", "randread", "4k", 1, 500, 2);
	/* runs standing for drift between repeats: 1000, 1100 against 1100, 1200 */
	null_run(dir, "d1", "randread", "4k", 1, 1100, 2);
	null_run(dir, "e1", "randread", "4k", 1, 1200, 2);

	/* two identical back-to-back runs, single and repeated */
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "a2.json", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *v = compare_value(root, key, 1);
	expect_alike(root, key);
	assert_string_equal(json_object_get_string(jget(v, "rule")), "per-second");
	assert_string_equal(json_object_get_string(jget(v, "note")), "");
	assert_int_equal(jget_u64(v, "intervals"), 2);
	expect_seconds_noise(root, key);
	json_object_put(root);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "a2.json", "--", "a3.json", "a4.json",
				     "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	expect_alike(root, key);
	assert_string_equal(json_object_get_string(jget(compare_value(root, key, 1), "rule")), "runs");
	expect_welch_noise(root, key);
	json_object_put(root);
	proc_out_free(&po);

	/* the rate halved: a real 2x difference, single or repeated */
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "h1.json", "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	assert_string_equal(compare_verdict(root, key, 1), "significant");
	assert_true(fabs(jget_double(compare_value(root, key, 1), "diff_pct") + 50) < 5);
	expect_seconds_noise(root, key);
	json_object_put(root);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "a2.json", "--", "h1.json", "h2.json",
				     "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	assert_string_equal(compare_verdict(root, key, 1), "significant");
	expect_welch_noise(root, key);
	json_object_put(root);
	proc_out_free(&po);

	/* +9.5 %, above the 5 % minimum but inside the runs' own spread (2
	 * runs a side 100 apart: Welch's df 2 at most, just under it unless
	 * the spreads are equal to the last digit, so t(1) = 12.7 and the
	 * noise ~85 %; 29 % with t(2)): a band too wide to decide, if the
	 * interval is computed as it should be (without t it would be 6.7 %,
	 * and +9.5 % significant) */
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "d1.json", "--", "d1.json", "e1.json",
				     "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	v = compare_value(root, key, 1);
	assert_true(fabs(jget_double(v, "diff_pct") - 9.5) < 1);
	assert_true(jget_double(v, "diff_pct") > jget_double(v, "floor_pct"));
	assert_true(jget_double(v, "noise_pct") > jget_double(v, "diff_pct"));
	expect_welch_noise(root, key);
	assert_string_equal(compare_verdict(root, key, 1), "inconclusive");
	json_object_put(root);
	proc_out_free(&po);
}

/* One job run with another QD, bs or rw: the same workload, not
 * comparable, never two one-sided ones; and runs shorter than 2 s. */
static void test_real_runs_differ(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	const char *key = "job (randread 4K)";

	null_run(dir, "a1", "randread", "4k", 1, 1000, 2);
	null_run(dir, "a2", "randread", "4k", 1, 1000, 2);
	null_run(dir, "q32", "randread", "4k", 32, 1000, 2);
	null_run(dir, "b8", "randread", "8k", 1, 1000, 2);
	null_run(dir, "w", "randwrite", "4k", 1, 1000, 2);
	null_run(dir, "s1", "randread", "4k", 1, 1000, 1);
	null_run(dir, "s2", "randread", "4k", 1, 1000, 1);

	/* QD 1 against QD 32: same job, same label, not matched */
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "q32.json"));
	expect_exit(&po, 0);
	expect_has(po.out, "not comparable  (iodepth 1 vs 32)\n");
	proc_out_free(&po);

	/* bs and rw are in the run's label, not in what it is matched by */
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "b8.json", "w.json",
				     "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	assert_int_equal(json_object_array_length(jget(root, "workloads")), 1);
	assert_string_equal(compare_verdict(root, key, 0), "reference");
	assert_string_equal(compare_verdict(root, key, 1), "not comparable");
	assert_string_equal(json_object_get_string(jget(compare_value(root, key, 1), "reason")),
			    "bs 4K vs 8K");
	assert_string_equal(compare_verdict(root, key, 2), "not comparable");
	assert_string_equal(json_object_get_string(jget(compare_value(root, key, 2), "reason")),
			    "rw randread vs randwrite");
	json_object_put(root);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "b8.json"));
	expect_exit(&po, 0);
	expect_has(po.out, "not comparable  (bs 4K vs 8K)\n");
	assert_null(strstr(po.out, "only in"));
	proc_out_free(&po);
	/* repeats that are not: one side's runs at two block sizes */
	run_iochar(&po, dir, 0, ARGS("compare", "a1.json", "b8.json", "--", "a2.json",
				     "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	assert_string_equal(json_object_get_string(jget(compare_value(root, key, 0), "reason")),
			    "runs differ: bs 4K vs 8K");
	json_object_put(root);
	proc_out_free(&po);

	/* two identical 1 s runs: one interval each, no spread, no band:
	 * unknown, however alike, and it says why */
	run_iochar(&po, dir, 0, ARGS("compare", "s1.json", "s2.json", "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	json_object *v = compare_value(root, key, 1);
	assert_string_equal(compare_verdict(root, key, 1), "unknown");
	assert_true(json_object_is_type(jget(v, "rule"), json_type_null));
	assert_int_equal(jget_u64(v, "intervals"), 1);
	assert_true(json_object_is_type(jget(v, "noise_pct"), json_type_null));
	assert_string_equal(json_object_get_string(jget(v, "note")),
			    "runs shorter than 2 s have no per-second spread");
	json_object_put(root);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "s1.json", "s2.json"));
	expect_exit(&po, 0);
	expect_has(po.out, "\nruns under 2 s: one per-second interval, no spread: unknown");
	proc_out_free(&po);
}

/* DIR/NAME: a plan of one rate-limited null-engine fixed step "fix". */
static void null_plan(const char *dir, const char *name, unsigned iodepth, const char *bs)
{
	char plan[4400], text[256];
	struct proc_out po;
	int n = snprintf(text, sizeof(text), "[fix]\nioengine=null\nrw=randread\nbs=%s\nsize=4m\n"
					     "iodepth=%u\nrate_iops=4000\ntime_based\nruntime=2s\n",
			 bs, iodepth);
	snprintf(plan, sizeof(plan), "%s/%s.ini", dir, name);
	fixture_write(plan, text, (size_t)n);
	run_iochar(&po, dir, 0, ARGS("plan", plan, "--out", name));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

/* Plan results directories as sides of repeats, and the QD 1 vs QD 32 of
 * two plans whose step has the same label. */
static void test_real_plans(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	null_plan(dir, "p1", 1, "4k");
	null_plan(dir, "p2", 1, "4k");
	null_plan(dir, "p3", 1, "4k");
	null_plan(dir, "p4", 1, "4k");
	null_plan(dir, "p32", 32, "4k");
	null_plan(dir, "p8k", 1, "8k");
	run_iochar(&po, dir, 0, ARGS("compare", "p1", "p2", "--", "p3", "p4",
				     "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	/* two runs a side: t(2) = 4.3 times a loaded machine's wobble may
	 * make the band wider than 5 %, and then it decides nothing */
	json_object *v = compare_value(root, "fix", 1);
	const char *verdict = compare_verdict(root, "fix", 1);
	if (jget_double(v, "noise_pct") <= 5)
		assert_string_equal(verdict, "within noise");
	else
		assert_string_equal(verdict, "inconclusive");
	assert_string_equal(json_object_get_string(jget(v, "rule")), "runs");
	assert_int_equal(jget_u64(v, "runs"), 2);
	json_object_put(root);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", "p1", "p32", "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	assert_string_equal(compare_verdict(root, "fix", 1), "not comparable");
	assert_string_equal(json_object_get_string(jget(compare_value(root, "fix", 1), "reason")),
			    "iodepth 1 vs 32");
	json_object_put(root);
	proc_out_free(&po);
	/* the same step at another block size */
	run_iochar(&po, dir, 0, ARGS("compare", "p1", "p8k", "--output-format=json"));
	expect_exit(&po, 0);
	root = parse_json(&po);
	assert_int_equal(json_object_array_length(jget(root, "workloads")), 1);
	assert_string_equal(json_object_get_string(jget(compare_value(root, "fix", 1), "reason")),
			    "bs 4K vs 8K");
	json_object_put(root);
	proc_out_free(&po);
}

static void test_params(void **state)
{
	struct cmp_params a = {.present = true, .mode = "search", .rw = "randrw",
			       .ioengine = "io_uring", .dist = "uniform", .lat_stat = "mean",
			       .bs = 4096, .lat_limit_ns = 2000000, .rwmixread = 70,
			       .iodepth = 32, .numjobs = 2, .direct = true};
	struct cmp_params b = a;
	char why[CMP_REASON_MAX];
	(void)state;

	/* a search's best depth is its result: two bests at other depths match */
	b.iodepth = 4;
	b.numjobs = 1;
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "");
	a.fixed_qd = b.fixed_qd = true;
	a.mode = b.mode = "fixed";
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "iodepth 32 vs 4, numjobs 2 vs 1");
	b = a;
	b.rwmixread = 50;
	b.bs = 8192;
	b.direct = false;
	b.ioengine = "libaio";
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "rwmixread 70 vs 50, bs 4K vs 8K, ioengine io_uring vs libaio, "
				 "direct 1 vs 0");
	/* the read share of a pure read is not a parameter */
	a.rw = "randread";
	b = (struct cmp_params){.present = true, .mode = "fixed", .rw = "randread",
				.ioengine = "io_uring", .dist = "uniform", .lat_stat = "mean",
				.bs = 4096, .lat_limit_ns = 2000000, .rwmixread = 50,
				.iodepth = 32, .numjobs = 2, .direct = true, .fixed_qd = true};
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "");
	/* a fixed run's latency limit only judges it; a search's is its question */
	b.lat_limit_ns = 1000000;
	b.dist = "zipf:1.1";
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "random_distribution uniform vs zipf:1.1");
	a.mode = b.mode = "search";
	a.fixed_qd = b.fixed_qd = false;
	b.lat_stat = "p99";
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "random_distribution uniform vs zipf:1.1, "
				 "latency_limit 2.00 ms vs 1.00 ms, latency_stat mean vs p99");
	/* network rows have no parameters: nothing to differ */
	b.present = false;
	compare_params_differ(&a, &b, why, sizeof(why));
	assert_string_equal(why, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_noise_rule, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_compare_usage, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_repeats, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_repeats_outputs, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_single_run_floor, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_not_comparable, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_sides_usage, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_decide),
		cmocka_unit_test_setup_teardown(test_single_runs_extremes, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_real_runs, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_real_runs_differ, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_real_plans, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_params),
		cmocka_unit_test_setup_teardown(test_whole_names_aligned, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
