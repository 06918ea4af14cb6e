/* test_report_paced.c - the report's "Rate-limited points" table, the
 * summary's latency origin, a curve's re-measured maximum and a search's
 * repeat (issue 17), on real null-engine runs whose step files are edited
 * to hold known figures where the table's cells must show them:
 * - per point and direction: response latency (from the schedule) beside
 *   service latency (from submission), issue lag, tool lag and its share,
 *   each direction its own (read and write told apart by their values);
 * - the columns named by where the latency starts;
 * - a curve point not reached, with its seconds on rate; tool-limited with
 *   its reason;
 * - a maximum underestimated, with its re-measure, under the table, in
 *   the summary and on the chart as a square apart from the first;
 * - a search's best confirmed by a repeat, with the spread;
 * - a paced run (run JSON): its latency marked "from schedule" in the
 *   summary and its rows per direction; a closed-loop run has neither. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "report/numfmt.h"
#include "report_fixture.h"

static void run_ok(const char *dir, const char *const *args)
{
	struct proc_out po;
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 0);
	proc_out_free(&po);
}

static json_object *load(const char *dir, const char *rel, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, rel);
	json_object *o = json_object_from_file(path);
	assert_non_null(o);
	return o;
}

static void save(const char *path, json_object *o)
{
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	fixture_write(path, text, strlen(text));
}

static void set_num(json_object *o, const char *path, double v)
{
	/* path: "a.b.key"; the parent must exist */
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	char *dot = strrchr(buf, '.');
	json_object *parent = o;
	if (dot) {
		*dot = '\0';
		parent = jget(o, buf);
	}
	assert_non_null(parent);
	json_object_object_add(parent, dot ? dot + 1 : buf,
			       v == (double)(int64_t)v ? json_object_new_int64((int64_t)v)
						       : json_object_new_double(v));
}

/* The table row (from "<tr" to "</tr>") that holds what, after from. */
static char *row_of(const char *html, const char *from, const char *what)
{
	const char *start = strstr(html, from);
	assert_non_null(start);
	const char *hit = strstr(start, what);
	if (!hit)
		fail_msg("no \"%s\" after \"%s\"", what, from);
	const char *b = hit;
	while (b > html && strncmp(b, "<tr", 3))
		b--;
	const char *e = strstr(hit, "</tr>");
	assert_non_null(e);
	return strndup(b, (size_t)(e - b));
}

/* A curve of two points on randrw; its first point's read and write get
 * figures of their own, it is marked tool-limited; the second is not
 * reached, 1 of 2 s on rate; the maximum was re-measured and still beaten. */
static void test_curve_points(void **state)
{
	const char *dir = *state;
	char p[4400], a[NUMFMT_MAX], want[512];

	run_ok(dir, ARGS("curve", "--ioengine=null", "--size=4m", "--rw=randrw", "--time_based",
			 "--runtime=300ms", "--points=50,100", "--discipline=fixed", "--out=c"));
	json_object *st = load(dir, "c/steps/000.json", p, sizeof(p));
	json_object *set = json_object_array_get_idx(jget(st, "sets"), 0);
	json_object *c0 = jget(json_object_array_get_idx(jget(set, "curve"), 0), "point");
	json_object *c1e = json_object_array_get_idx(jget(set, "curve"), 1);
	assert_non_null(c0);
	assert_non_null(c1e);
	/* read and write of the 50 % point: values that tell them apart */
	set_num(c0, "read.iops", 1111);
	set_num(c0, "write.iops", 2222);
	set_num(c0, "read.lat_ns.mean", 111000);
	set_num(c0, "read.lat_ns.p99", 2000000);
	set_num(c0, "write.lat_ns.mean", 222000);
	set_num(c0, "write.lat_ns.p99", 3000000);
	set_num(c0, "read.service_latency.mean", 11100);
	set_num(c0, "read.service_latency.p99", 12300);
	set_num(c0, "write.service_latency.mean", 22200);
	set_num(c0, "write.service_latency.p99", 45600);
	set_num(c0, "read.lag.p99", 1500000);
	set_num(c0, "write.lag.p99", 2500000);
	set_num(c0, "read.tool_lag.p99", 500000);
	set_num(c0, "write.tool_lag.p99", 300000);
	set_num(c0, "seconds", 2);
	set_num(c0, "seconds_on_rate", 2);
	json_object_object_add(c0, "tool_limited", json_object_new_boolean(1));
	json_object_object_add(c0, "tool_limited_reason", json_object_new_string("REASON-X"));
	/* the 100 % point: not reached, 1 of 2 s on rate, not tool-limited */
	json_object *c1 = jget(c1e, "point");
	json_object_object_add(c1e, "reached", json_object_new_boolean(0));
	set_num(c1, "seconds", 2);
	set_num(c1, "seconds_on_rate", 1);
	json_object_object_add(c1, "tool_limited", json_object_new_boolean(0));
	json_object_object_del(c1, "tool_limited_reason");
	/* the maximum again, still beaten by 25 % */
	json_object *again = NULL;
	assert_int_equal(json_object_deep_copy(jget(set, "max"), &again, NULL), 0);
	set_num(again, "total.iops", 123456);
	json_object_object_add(set, "max_again", again);
	set_num(set, "max_underestimated", 0.25);
	set_num(set, "top_reached_iops", 654321);
	save(p, st);

	char *html = fixture_report(dir, "c");
	/* the columns say where each latency starts */
	expect_has(html, "<th colspan=\"2\">response latency, from the scheduled time</th>"
			 "<th colspan=\"2\">service latency, from submission</th>");
	/* each direction its own figures */
	char *r = row_of(html, ">50 %</td>", "<td>read</td>");
	snprintf(want, sizeof(want),
		 "<td>read</td><td class=\"num\">1,111</td><td class=\"num\">111 \xc2\xb5s</td>"
		 "<td class=\"num\">2.00 ms</td><td class=\"num\">11.1 \xc2\xb5s</td>"
		 "<td class=\"num\">12.3 \xc2\xb5s</td><td class=\"num\">1.50 ms</td>"
		 "<td class=\"num\">500 \xc2\xb5s (25 %%)</td>");
	expect_has(r, want);
	expect_has(r, "reached (2 of 2 s on rate)");
	expect_has(r, ">tool-limited: REASON-X</td>");
	free(r);
	r = row_of(html, ">50 %</td>", "<td>write</td>");
	expect_has(r, "<td>write</td><td class=\"num\">2,222</td><td class=\"num\">222 \xc2\xb5s</td>"
		      "<td class=\"num\">3.00 ms</td><td class=\"num\">22.2 \xc2\xb5s</td>"
		      "<td class=\"num\">45.6 \xc2\xb5s</td><td class=\"num\">2.50 ms</td>"
		      "<td class=\"num\">300 \xc2\xb5s (10 %)</td>");
	free(r);
	/* the 100 % point: not reached, with its seconds; not tool-limited */
	r = row_of(html, "id=\"paced\"", ">100 %</td>");
	expect_has(r, "<td class=\"bad\" rowspan=\"2\">not reached (1 of 2 s on rate)</td>");
	expect_has(r, "<td rowspan=\"2\">no</td>");
	free(r);
	/* the closed-loop maximum: no schedule, its latency is the service time */
	r = row_of(html, "id=\"paced\"", ">maximum</td>");
	expect_has(r, "closed loop");
	snprintf(want, sizeof(want), "<td class=\"num\">\xe2\x80\x93</td><td class=\"num\">\xe2\x80\x93</td>"
				     "<td class=\"num\">%s</td>",
		 numfmt_lat(a, jget_double(set, "max.read.lat_ns.mean")));
	expect_has(r, want);
	free(r);
	r = row_of(html, "id=\"paced\"", ">maximum again</td>");
	expect_has(r, "<td class=\"num\" rowspan=\"2\">123K</td>");
	free(r);
	/* the maximum underestimated: under the table, under the chart, in
	 * the summary; the re-measure drawn as a square of its own */
	const char *under = "Maximum underestimated by 25 %: re-measured 123K IOPS";
	assert_int_equal(fixture_count(html, under), 2);
	expect_has(html, "a point reached 654K IOPS, above both");
	expect_has(html, "maximum underestimated by 25 %: re-measured 123K IOPS (first ");
	expect_has(html, "maximum re-measured, still beaten");
	expect_has(html, "maximum re-measured (closed loop): QD ");
	/* an open-loop point's tooltip: its latency from the schedule, the
	 * service time and lag beside it */
	snprintf(want, sizeof(want), "from schedule; service mean %s, p99 issue lag ",
		 numfmt_lat(a, jget_double(c0, "total.service_latency.mean")));
	expect_has(html, want);
	/* the summary: a curve's lag is per point, below */
	expect_has(html, "<td><a href=\"#paced\">per point</a></td>");
	free(html);
	json_object_put(st);
}

/* A search's best and its repeat: the spread in the best cell and the
 * note, with both runs' figures and a dropped best. */
static void test_search_repeat(void **state)
{
	const char *dir = *state;
	char p[4400], a[NUMFMT_MAX], b[NUMFMT_MAX], want[512];

	run_ok(dir, ARGS("search", "--ioengine=null", "--size=4m", "--rw=randwrite",
			 "--time_based", "--runtime=300ms", "--latency_limit=1ms", "--max_iodepth=2",
			 "--max_numjobs=1", "--discipline=fixed", "--out=s"));
	json_object *st = load(dir, "s/steps/000.json", p, sizeof(p));
	json_object *set = json_object_array_get_idx(jget(st, "sets"), 0);
	assert_true(json_object_get_boolean(jget(set, "confirmed")));
	set_num(set, "spread", 0.0234);
	set_num(set, "dropped_by_repeat", 1);
	/* its first point dropped: inside on its first run, its repeat (5
	 * times the latency) over the limit */
	json_object *pts = jget(set, "points"), *dropped = NULL;
	for (size_t i = 0; i < json_object_array_length(pts) && !dropped; i++)
		if (jget_u64(json_object_array_get_idx(pts, i), "iodepth") !=
		    jget_u64(set, "best.iodepth"))
			dropped = json_object_array_get_idx(pts, i);
	assert_non_null(dropped); /* a point beside the best */
	double dropped_lat = jget_double(dropped, "write.lat_ns.mean");
	json_object *again = json_tokener_parse(json_object_to_json_string(dropped));
	assert_non_null(again);
	set_num(jget(again, "write.lat_ns"), "mean", 5 * dropped_lat);
	json_object_object_add(again, "inside", json_object_new_boolean(0));
	json_object_object_add(dropped, "other_run", again);
	json_object_object_add(dropped, "repeat_missed", json_object_new_boolean(1));
	json_object_object_add(dropped, "inside", json_object_new_boolean(0));
	json_object_object_del(dropped, "confirmed");
	/* which run scored less is up to the run: set it, both ways */
	json_object_object_add(set, "best_run", json_object_new_string("first"));
	json_object_object_add(set, "unsteady", json_object_new_boolean(0));
	save(p, st);

	char *html = fixture_report(dir, "s");
	expect_has(html, "<br><small class=\"repeat\">repeat spread 2.3 %</small>");
	snprintf(want, sizeof(want), ": confirmed by a repeat (%s then %s IOPS): spread 2.3 %%; "
				     "1 point dropped: its repeat missed the limit. "
				     "The figure is the lower of the two runs",
		 numfmt_iops(a, jget_double(set, "best.total.iops")),
		 numfmt_iops(b, jget_double(set, "repeat.total.iops")));
	expect_has(html, want);
	assert_null(strstr(html, "unsteady"));
	/* the chart: a point dropped by its repeat is labelled with the
	 * repeat's latency, and that run is drawn too */
	expect_has(html, "dropped: inside on its first run, its repeat over the limit");
	snprintf(want, sizeof(want), "\xc3\x97%u repeat: %s</text>",
		 (unsigned)jget_u64(dropped, "numjobs"), numfmt_lat(a, 5 * dropped_lat));
	expect_has(html, want);
	expect_has(html, "the other run of ");
	expect_has(html, "dropped: its repeat over the limit (labelled)");
	/* a closed-loop search has no rate-limited points */
	assert_null(strstr(html, "id=\"paced\""));
	free(html);

	/* the repeat was the lower run: it is "best", the first run in
	 * "repeat", and the note still gives them in the order they ran */
	json_object_object_add(set, "best_run", json_object_new_string("repeat"));
	json_object_object_add(set, "unsteady", json_object_new_boolean(1));
	save(p, st);
	html = fixture_report(dir, "s");
	snprintf(want, sizeof(want), ": confirmed by a repeat (%s then %s IOPS): spread 2.3 %%, "
				     "unsteady (over 10 %%",
		 numfmt_iops(a, jget_double(set, "repeat.total.iops")),
		 numfmt_iops(b, jget_double(set, "best.total.iops")));
	expect_has(html, want);
	free(html);
	json_object_object_add(set, "best_run", json_object_new_string("last"));
	save(p, st);
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("report", "s", "-o", "bad.html"));
	expect_exit(&po, 2);
	expect_has(po.err, "best_run: is \"first\" or \"repeat\"");
	proc_out_free(&po);
	json_object_put(st);

	/* a 70:30 point whose writes missed the limit: drawn (and its tip
	 * given) at the write latency its limit was judged on, not the
	 * total's, which the reads pull under the limit */
	run_ok(dir, ARGS("search", "--ioengine=null", "--size=4m", "--rw=randrw",
			 "--rwmixread=70", "--time_based", "--runtime=100ms",
			 "--latency_limit=1ms", "--max_iodepth=2", "--max_numjobs=1",
			 "--discipline=fixed", "--out=m"));
	st = load(dir, "m/steps/000.json", p, sizeof(p));
	set = json_object_array_get_idx(jget(st, "sets"), 0);
	json_object *mixed = json_object_array_get_idx(jget(set, "points"), 0);
	set_num(jget(mixed, "write.lat_ns"), "mean", 2.5e6);
	json_object_object_add(mixed, "inside", json_object_new_boolean(0));
	json_object_object_del(mixed, "confirmed"); /* one run, over the limit */
	json_object_object_del(mixed, "other_run");
	save(p, st);
	html = fixture_report(dir, "m");
	snprintf(want, sizeof(want), "over the limit: QD %u x 1 jobs, ",
		 (unsigned)jget_u64(mixed, "iodepth"));
	char *tipped = strstr(html, want);
	assert_non_null(tipped);
	expect_has(tipped, ", mean latency 2.50 ms");
	free(html);
	json_object_put(st);

	/* nothing inside: the summary names the closest point, and so does
	 * the step's JSON */
	run_ok(dir, ARGS("search", "--ioengine=null", "--size=4m", "--rw=read", "--time_based",
			 "--runtime=100ms", "--latency_limit=1ns", "--max_numjobs=1",
			 "--discipline=fixed", "--out=n"));
	st = load(dir, "n/steps/000.json", p, sizeof(p));
	set = json_object_array_get_idx(jget(st, "sets"), 0);
	assert_int_equal(jget_u64(set, "closest.iodepth"), 1);
	html = fixture_report(dir, "n");
	snprintf(want, sizeof(want), "nothing inside the limit; closest 1\xc3\x97" "1: %s at ",
		 numfmt_bw(a, jget_double(set, "closest.bw_bytes")));
	expect_has(html, want);
	free(html);
	json_object_put(st);
}

/* A paced run's JSON: its latency marked from the schedule in the
 * summary, its rows per direction with the run's own service times; a
 * closed-loop run has neither. */
static void test_paced_run(void **state)
{
	const char *dir = *state;
	char p[4400], a[NUMFMT_MAX], b[NUMFMT_MAX], want[512];

	run_ok(dir, ARGS("run", "--ioengine=null", "--size=1m", "--rw=randrw", "--runtime=300ms",
			 "--time_based", "--rate_iops=2000", "--numjobs=2", "--output-format=json",
			 "--output=paced.json"));
	json_object *run = load(dir, "paced.json", p, sizeof(p));
	assert_string_equal(json_object_get_string(jget(run, "latency_origin")), "scheduled");
	char *html = fixture_report(dir, "paced.json");
	expect_has(html, " <span class=\"origin\">from schedule</span></td>");
	expect_has(html, "<section id=\"paced\">");
	/* both directions, each with its own service time from submission */
	static const char *const dn[] = {"read", "write"};
	for (int d = 0; d < 2; d++) {
		char key[64], cellw[32];
		snprintf(cellw, sizeof(cellw), "<td>%s</td>", dn[d]);
		char *r = row_of(html, "id=\"paced\"", cellw);
		snprintf(key, sizeof(key), "%s.service_latency.mean", dn[d]);
		numfmt_lat(a, jget_double(run, key));
		snprintf(key, sizeof(key), "%s.service_latency.p99", dn[d]);
		numfmt_lat(b, jget_double(run, key));
		snprintf(want, sizeof(want), "<td class=\"num\">%s</td><td class=\"num\">%s</td>", a,
			 b);
		expect_has(r, want);
		snprintf(key, sizeof(key), "%s.lag.p99", dn[d]);
		snprintf(want, sizeof(want), "<td class=\"num\">%s</td>",
			 numfmt_lat(a, jget_double(run, key)));
		expect_has(r, want);
		if (!d) /* the point's cells: 2 jobs at 2000 each asked */
			expect_has(r, "<td class=\"num\" rowspan=\"2\">4,000</td>");
		free(r);
	}
	free(html);
	json_object_put(run);

	run_ok(dir, ARGS("run", "--ioengine=null", "--size=1m", "--rw=randrw", "--runtime=300ms",
			 "--time_based", "--output-format=json", "--output=closed.json"));
	html = fixture_report(dir, "closed.json");
	assert_null(strstr(html, "from schedule"));
	assert_null(strstr(html, "id=\"paced\""));
	free(html);
}

/* A member the table reads that is wrong: refused, exit 2, a line naming
 * it, no report written. */
static void expect_refused(const char *dir, const char *in, const char *want)
{
	struct proc_out po;
	char out[4400];
	run_iochar(&po, dir, 0, ARGS("report", in, "-o", "bad.html"));
	expect_exit(&po, 2);
	expect_has(po.err, want);
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	snprintf(out, sizeof(out), "%s/bad.html", dir);
	assert_false(file_exists(out));
}

static void test_bad_members(void **state)
{
	const char *dir = *state;
	char p[4400];

	run_ok(dir, ARGS("run", "--ioengine=null", "--size=1m", "--rw=randread", "--runtime=100ms",
			 "--time_based", "--rate_iops=1000", "--output-format=json",
			 "--output=paced.json"));
	json_object *run = load(dir, "paced.json", p, sizeof(p));
	json_object_object_add(run, "latency_origin", json_object_new_string("sideways"));
	save(p, run);
	json_object_put(run);
	expect_refused(dir, "paced.json", "latency_origin: not submit or scheduled");

	run_ok(dir, ARGS("curve", "--ioengine=null", "--size=4m", "--rw=randread", "--time_based",
			 "--runtime=100ms", "--points=50", "--discipline=fixed", "--out=c"));
	json_object *st = load(dir, "c/steps/000.json", p, sizeof(p));
	json_object *set = json_object_array_get_idx(jget(st, "sets"), 0);
	json_object *c0 = jget(json_object_array_get_idx(jget(set, "curve"), 0), "point");
	set_num(c0, "seconds", 2);
	set_num(c0, "seconds_on_rate", 3);
	save(p, st);
	json_object_put(st);
	expect_refused(dir, "c", "curve[0].point.seconds_on_rate: more than \"seconds\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_curve_points, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_search_repeat, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_paced_run, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_members, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("report_paced", tests, NULL, NULL);
}
