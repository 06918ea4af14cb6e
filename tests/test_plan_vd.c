/* test_plan_vd.c - a plan step on RAID VDs says what `iochar run` says of
 * a VD: its amplification (member I/Os per host I/O) and its members'
 * figures, in the step's JSON (per VD and over all), results.csv (a
 * column), the text summary (the run's lines; the step counts its VDs
 * as targets) and the HTML report (a table per VD, a row per member).
 * Two VDs of files (raid5 over three, raid1 over two) run one step of
 * random writes in parallel. */
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
#include "report_fixture.h"

static void run_plan(const char *dir)
{
	char ini[4200], out[4200];
	struct proc_out po;
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fprintf(f, "[global]\nsize=3m\nruntime=1\ntime_based=1\n"
		   "vd=raid5,strip=64k,members=%s/a0:%s/a1:%s/a2;raid1,strip=64k,members=%s/b0:%s/b1\n"
		   "[w]\nrw=randwrite\nbs=4k\n", dir, dir, dir, dir, dir);
	fclose(f);
	run_iochar(&po, NULL, 0, ARGS("plan", ini, "--out", out));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

/* The point's JSON: amplification over all and by VD, the run's "vd". */
static void check_json(const char *dir)
{
	char p[4300];
	snprintf(p, sizeof(p), "%s/out/results.json", dir);
	json_object *j = json_object_from_file(p);
	assert_non_null(j);
	json_object *st = json_object_array_get_idx(jget(j, "steps"), 0);
	json_object *pt = jget(json_object_array_get_idx(jget(st, "sets"), 0), "fixed");
	assert_true(jget_double(pt, "member_ios_per_host_io") > 1.0);
	json_object *tg = jget(pt, "per_target");
	assert_int_equal(json_object_array_length(tg), 2);
	/* a mirror writes every host write twice */
	double raid1 = jget_double(json_object_array_get_idx(tg, 1), "member_ios_per_host_io");
	assert_true(raid1 > 1.99 && raid1 < 2.01);
	json_object *vd = jget(pt, "vd");
	assert_int_equal(json_object_array_length(vd), 2);
	json_object *v0 = json_object_array_get_idx(vd, 0);
	assert_string_equal(json_object_get_string(jget(v0, "level")), "raid5");
	assert_int_equal(json_object_array_length(jget(v0, "members")), 3);
	assert_true(jget_double(v0, "amplification.member_ios_per_host_io") > 1.0);
	assert_true(jget_u64(v0, "host_ios") > 0);
	json_object_put(j);
}

static void check_csv_and_text(const char *dir)
{
	char p[4300];
	snprintf(p, sizeof(p), "%s/out/results.csv", dir);
	char *csv = fixture_slurp(p, NULL);
	assert_non_null(strstr(csv, ",tool_limited,member_ios_per_host_io,max_underestimated_pct,lat_origin,"));
	assert_non_null(strstr(csv, ",no,2.000,,submit,,,,,\n")); /* the raid1 row */
	assert_int_equal(fixture_count(csv, "\n"), 1 + 3);   /* two VDs and their total */
	free(csv);
	snprintf(p, sizeof(p), "%s/out/steps/000.txt", dir);
	char *txt = fixture_slurp(p, NULL);
	assert_non_null(strstr(txt, " 2 sum "));
	assert_non_null(strstr(txt, "  vd raid5 strip=64k, 3 members: "));
	assert_non_null(strstr(txt, "  vd raid1 strip=64k, 2 members: 0.00 member reads + 2.00 member writes per host I/O"));
	assert_int_equal(fixture_count(txt, "    member "), 5);
	free(txt);
}

static void check_report(const char *dir)
{
	char *html = fixture_report(dir, "out");
	const char *sec = strstr(html, "<section id=\"targets\">");
	assert_non_null(sec);
	assert_int_equal(fixture_count(sec, "<p class=\"vd\">RAID VD "), 2);
	assert_non_null(strstr(sec, "RAID VD raid1, strip 64K, 2 members: <strong>2.00 member I/Os per host I/O</strong>"));
	assert_int_equal(fixture_count(sec, "<table class=\"vd-members\">"), 2);
	/* a row per target (the two VDs), then one per member */
	const char *tt = strstr(sec, "<table class=\"targets\">");
	assert_non_null(tt);
	char m[4300];
	snprintf(m, sizeof(m), "<td class=\"wrap\">2 %s/a2</td>", dir);
	assert_non_null(strstr(sec, m));
	assert_int_equal(fixture_count(sec, "<tr><td class=\"wrap\">"), 2 + 5);
	free(html);
}

static void test_plan_step_on_vds(void **state)
{
	const char *dir = *state;
	run_plan(dir);
	check_json(dir);
	check_csv_and_text(dir);
	check_report(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plan_step_on_vds, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
