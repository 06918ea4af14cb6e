/* test_curve_rows.c - how a curve is written down: the summary table's
 * lines (a point not reached and why, a tool-limited one, the re-measured
 * maximum and the underestimated mark), its results.csv rows and its JSON,
 * from a curve run through curve_run with a scripted device: the audit's
 * 217,576 IOPS maximum whose 130 % point was reached at 282,849 and whose
 * re-measurement gave 863,829. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charz/outcome.h"
#include "harness.h"

#define FIRST_MAX 217576.0
#define MAX_AGAIN 863829.0

/* The device: closed loop it gives FIRST_MAX, then MAX_AGAIN; open loop
 * the asked rate on average, every second on rate but at 150 % (1 of 2)
 * and 160 % (tool-limited, none). again: the closed-loop figure after the
 * first; 0 = the first again. */
struct script {
	unsigned calls, closed;
	double again;
};

static void fill(struct point *p, double iops)
{
	p->elapsed_ns = 2000000000ull;
	p->s.total.iops = iops;
	p->s.total.ios = (uint64_t)(iops * 2);
	p->s.total.bw_bytes = iops * 4096;
	p->s.total.lat.mean = 100e3;
	p->s.dir[DIR_READ] = p->s.total;
}

static int script_measure(void *arg, const struct job_spec *job,
			  struct point *out, struct ioc_err *err)
{
	struct script *sc = arg;
	double asked = (double)job->rate_iops * job->numjobs;

	(void)err;
	sc->calls++;
	if (!job->rate_iops) {
		fill(out, sc->closed++ && sc->again ? sc->again : FIRST_MAX);
		return 0;
	}
	fill(out, asked);
	out->nr_sec = 2;
	out->sec_on_rate = 2;
	if (asked > 1.45 * FIRST_MAX && asked < 1.55 * FIRST_MAX)
		out->sec_on_rate = 1;
	if (asked > 1.55 * FIRST_MAX) {
		out->sec_on_rate = 0;
		out->tool_limited = true;
		snprintf(out->tool_limited_reason,
			 sizeof(out->tool_limited_reason), "pacing lag");
	}
	return 0;
}

struct fixture {
	struct plan_step st;
	struct step_outcome o;
	struct set_outcome set;
	struct script sc;
	char *targets[1];
};

static const unsigned pcts[] = {50, 130, 150, 160};

/* Run the scripted curve into f's one set (closed-loop again: again). */
static void run_curve(struct fixture *f, double again)
{
	struct curve_params cp = {.pct = pcts,
				  .nr_pct = 4,
				  .arrivals = RATE_LINEAR,
				  .stat = LAT_STAT_MEAN,
				  .reach_tolerance = 0.02};
	struct ioc_err err = {.msg = ""};

	memset(f, 0, sizeof(*f));
	job_spec_init(&f->st.job);
	f->st.job.runtime_ns = 2000000000ull;
	f->st.job.rw = RW_RANDREAD;
	f->st.job.bs = 4096;
	f->st.job.iodepth = 16;
	f->st.job.numjobs = 1;
	f->st.mode = STEP_CURVE;
	snprintf(f->st.label, sizeof(f->st.label), "curve");
	f->targets[0] = "/dev/shm/c.dat";
	f->set.targets = f->targets;
	f->set.nr_targets = 1;
	f->set.done = true;
	f->o.step = &f->st;
	f->o.sets = &f->set;
	f->o.nr_sets = 1;
	f->sc.again = again;
	assert_int_equal(curve_run(&f->st.job, &cp, script_measure, &f->sc,
				   &f->set.curve, &err),
			 0);
}

static void release(struct fixture *f)
{
	curve_result_free(&f->set.curve);
	job_spec_free(&f->st.job);
}

typedef int (*writer)(const struct step_outcome *o, FILE *f);

static char *written(const struct fixture *f, writer w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(w(&f->o, m), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

/* The line of the table that starts with name (after the padding). */
static const char *row(const char *table, const char *name)
{
	size_t n = strlen(name);
	for (const char *l = table; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, name, n) && l[n] == ' ')
			return l;
	fail_msg("no row '%s' in:\n%s", name, table);
	return NULL;
}

static bool row_has(const char *line, const char *want)
{
	const char *end = strchr(line, '\n');
	const char *hit = strstr(line, want);
	return hit && (!end || hit < end);
}

/* The 0-based index of column name in a CSV header line. */
static unsigned csv_column(const char *header, const char *name)
{
	const char *at = strstr(header, name);
	unsigned n = 0;
	assert_non_null(at);
	for (const char *p = header; p < at; p++)
		n += *p == ',';
	return n;
}

/* Where field n of a CSV line (no quoted commas) starts. */
static const char *csv_nth(const char *line, unsigned n)
{
	while (n--) {
		line = strchr(line, ',');
		assert_non_null(line);
		line++;
	}
	return line;
}

/* The text table: the first maximum, each point with its verdict, the
 * re-measured maximum as a row of its own and the mark under the curve. */
static void test_table_lines(void **state)
{
	struct fixture f;
	(void)state;
	run_curve(&f, MAX_AGAIN);
	assert_int_equal(f.sc.calls, 1 + 4 + 1);
	char *t = written(&f, step_table_write);
	print_message("%s", t);
	assert_true(row_has(row(t, "curve max"), " 217576 "));
	assert_true(row_has(row(t, "curve max"), "closed loop"));
	assert_false(row_has(row(t, "curve 50%"), "not reached"));
	assert_false(row_has(row(t, "curve 130%"), "not reached"));
	/* on average it got what it asked; only 1 of its 2 seconds did */
	assert_true(
	    row_has(row(t, "curve 150%"), "not reached (1 of 2 s on rate)"));
	assert_true(row_has(row(t, "curve 160%"),
			    "not reached (0 of 2 s on rate), tool-limited"));
	assert_true(row_has(row(t, "curve max again"), " 863829 "));
	assert_true(
	    row_has(row(t, "curve max again"), "closed loop, re-measured"));
	expect_has(t, "  maximum underestimated by 297%: measured again 863829 "
		      "IOPS, best point "
		      "reached 282849 IOPS; the points' % are of the first "
		      "maximum, 217576 IOPS\n");
	free(t);
	release(&f);
}

/* A reached point above the maximum that the re-measurement does not
 * explain (it comes out at the first figure again): still marked, by the
 * point. */
static void test_table_mark_by_point(void **state)
{
	struct fixture f;
	(void)state;
	run_curve(&f, 0);
	char *t = written(&f, step_table_write);
	assert_true(row_has(row(t, "curve max again"), " 217576 "));
	expect_has(t, "  maximum underestimated by 30%: measured again 217576 "
		      "IOPS, best point "
		      "reached 282849 IOPS; the points' % are of the first "
		      "maximum, 217576 IOPS\n");
	free(t);
	release(&f);
}

/* No point above the maximum: no second run, no row for it, no mark. */
static void test_table_no_mark(void **state)
{
	struct fixture f;
	(void)state;
	run_curve(&f, MAX_AGAIN);
	f.set.curve.nr_points = 1; /* as if only 50 % had been asked */
	memset(&f.set.curve.remax, 0, sizeof(f.set.curve.remax));
	f.set.curve.underestimated = 0;
	char *t = written(&f, step_table_write);
	assert_null(strstr(t, "max again"));
	assert_null(strstr(t, "underestimated"));
	free(t);
	char *c = written(&f, step_csv_write);
	unsigned at = csv_column(step_csv_header, "max_underestimated_pct");
	for (const char *l = c; *l; l = strchr(l, '\n') + 1) { /* the mark's column empty */
		const char *v = csv_nth(l, at);
		assert_true(*v == ',');
	}
	free(c);
	release(&f);
}

/* results.csv: the "max again" row, and the mark on every row of the
 * curve, in a column of its own at the end. */
static void test_csv_rows(void **state)
{
	struct fixture f;
	(void)state;
	run_curve(&f, MAX_AGAIN);
	const char *h = step_csv_header;
	assert_non_null(strstr(h, ",max_underestimated_pct,lat_origin,lag_p99_us,"
				  "tool_lag_p99_us,service_lat_mean_us,service_lat_p99_us,after_no_steady_state\n"));
	char *c = written(&f, step_csv_write);
	print_message("%s%s", h, c);
	assert_int_equal(count_lines(c), 1 + 4 + 1);
	unsigned cols = 1;
	for (const char *p = h; *p != '\n'; p++)
		cols += *p == ',';
	for (const char *l = c; *l; l = strchr(l, '\n') + 1) {
		unsigned n = 1;
		for (const char *p = l; *p != '\n'; p++)
			n += *p == ',';
		assert_int_equal(n, cols);
		const char *mark = strstr(l, ",297.0,");
		assert_true(mark && mark < strchr(l, '\n'));
	}
	/* no per-target figures kept here: the point's total is its row */
	assert_non_null(strstr(
	    c, ",max again,total of 1,randread,4096,100,16,1,863829.0,"));
	assert_non_null(strstr(c, ",150%,total of 1,"));
	free(c);
	release(&f);
}

/* The JSON: the mark against the first maximum, the best figure, the
 * second run, and each point's seconds. */
static void test_json(void **state)
{
	struct fixture f;
	(void)state;
	run_curve(&f, MAX_AGAIN);
	char *j = written(&f, step_json_write);
	json_object *o = json_tokener_parse(j);
	assert_non_null(o);
	json_object *set = json_object_array_get_idx(jget(o, "sets"), 0);
	assert_true(fabs(jget_double(set, "max_underestimated") -
			 (MAX_AGAIN / FIRST_MAX - 1)) < 1e-3);
	assert_true(jget_double(set, "max_best_iops") == MAX_AGAIN);
	assert_true(jget_double(set, "max_again.iops") == MAX_AGAIN);
	assert_true(jget_double(set, "max.iops") == FIRST_MAX);
	assert_true(fabs(jget_double(set, "top_reached_iops") - 282849) < 1);
	json_object *p150 = json_object_array_get_idx(jget(set, "curve"), 2);
	assert_false(json_object_get_boolean(jget(p150, "reached")));
	assert_int_equal(jget_u64(p150, "point.seconds"), 2);
	assert_int_equal(jget_u64(p150, "point.seconds_on_rate"), 1);
	json_object_put(o);
	free(j);
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_lines),
	    cmocka_unit_test(test_table_mark_by_point),
	    cmocka_unit_test(test_table_no_mark),
	    cmocka_unit_test(test_csv_rows),
	    cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests_name("curve_rows", tests, NULL, NULL);
}
