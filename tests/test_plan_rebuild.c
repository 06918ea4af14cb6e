/* test_plan_rebuild.c - a plan step with mode=rebuild: the workload on
 * the healthy RAID VD, then during the rebuild of one member at each rate
 * of rebuild_rate, as `iochar vd rebuild --rebuild_rate=...` sweeps them
 * (charz/rebuild.h). A RAID 5 VD of three files is written, one member is
 * wiped, and the step must bring it back (the scrub after the last pass
 * finds every row consistent), keep a paced rate under its MB/s, and say
 * it all in the step's JSON, results.csv, the summary table and the
 * report's "RAID rebuild" section. Bad rebuild steps are refused before
 * anything is written. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "report_fixture.h"

#define MEMBER_RATE "40m" /* paced pass: 40 MB/s */

static void vd_def(const char *dir, char *buf, size_t len)
{
	snprintf(buf, len, "raid5,strip=64k,members=%s/m0:%s/m1:%s/m2", dir, dir, dir);
}

static void write_plan(const char *dir, const char *step)
{
	char ini[4200], vd[4200];
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	vd_def(dir, vd, sizeof(vd));
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fprintf(f, "[global]\nsize=16m\nruntime=1\nvd=%s\n[rb]\n%s", vd, step);
	fclose(f);
}

/* Fill the VD with data, keep member 1's bytes in m1.orig, then wipe
 * member 1 (same file, all zeros). */
static void fill_and_wipe(const char *dir)
{
	char vd[4200], opt[4300], m1[4200];
	struct proc_out po;
	vd_def(dir, vd, sizeof(vd));
	snprintf(opt, sizeof(opt), "--vd=%s", vd);
	run_iochar(&po, NULL, 0, ARGS("run", opt, "--rw=write", "--bs=128k", "--size=16m"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(m1, sizeof(m1), "%s/m1", dir);
	struct stat st;
	assert_int_equal(stat(m1, &st), 0);
	size_t len;
	char *bytes = fixture_slurp(m1, &len);
	assert_int_equal(len, st.st_size);
	snprintf(opt, sizeof(opt), "%s/m1.orig", dir);
	fixture_write(opt, bytes, len);
	free(bytes);
	assert_int_equal(truncate(m1, 0), 0);
	assert_int_equal(truncate(m1, st.st_size), 0);
}

static void check_json(const char *dir)
{
	char p[4300];
	snprintf(p, sizeof(p), "%s/out/results.json", dir);
	json_object *j = json_object_from_file(p);
	assert_non_null(j);
	json_object *st = json_object_array_get_idx(jget(j, "steps"), 0);
	assert_string_equal(json_object_get_string(jget(st, "mode")), "rebuild");
	json_object *set = json_object_array_get_idx(jget(st, "sets"), 0);
	assert_true(json_object_get_boolean(jget(set, "done")));
	/* the wiped member is whole again */
	assert_int_equal(jget_u64(set, "rebuild.inconsistent_rows"), 0);
	assert_true(json_object_get_boolean(jget(set, "rebuild.verified")));
	assert_int_equal(jget_u64(set, "rebuild.member"), 1);
	json_object *rates = jget(set, "rates");
	assert_int_equal(json_object_array_length(rates), 2);
	json_object *paced = json_object_array_get_idx(rates, 0);
	assert_string_equal(json_object_get_string(jget(paced, "rate")), MEMBER_RATE);
	/* a paced rebuild stays under its rate (a little over for timing),
	 * and rebuilds the whole member: 16m over two data members */
	double bw = jget_double(paced, "bw_bytes");
	printf("rebuild at %s: %.1f MB/s\n", MEMBER_RATE, bw / 1e6);
	assert_true(bw > 0 && bw < 40e6 * 1.15);
	assert_int_equal(jget_u64(paced, "bytes"), 8u << 20);
	/* the foreground: the baseline, then a point per pass */
	json_object *pts = jget(set, "points");
	assert_int_equal(json_object_array_length(pts), 3);
	for (int i = 0; i < 3; i++)
		assert_true(jget_double(json_object_array_get_idx(pts, i), "iops") > 0);
	assert_true(jget_double(json_object_array_get_idx(rates, 1), "during.iops") > 0);
	json_object_put(j);
}

static void check_rows(const char *dir)
{
	char p[4300];
	snprintf(p, sizeof(p), "%s/out/results.csv", dir);
	char *csv = fixture_slurp(p, NULL);
	assert_int_equal(fixture_count(csv, "\n"), 1 + 3);
	assert_non_null(strstr(csv, ",rebuild,baseline,raid5 VD,randread,"));
	assert_non_null(strstr(csv, ",rebuild,rebuild " MEMBER_RATE ",raid5 VD,"));
	assert_non_null(strstr(csv, ",rebuild,rebuild 100%,raid5 VD,"));
	free(csv);
	snprintf(p, sizeof(p), "%s/out/steps/000.txt", dir);
	char *txt = fixture_slurp(p, NULL);
	assert_non_null(strstr(txt, "rb baseline "));
	assert_non_null(strstr(txt, "rb rebuild " MEMBER_RATE " "));
	assert_non_null(strstr(txt, " MB/s in "));
	assert_non_null(strstr(txt, "  member 1 rebuilt: 0 of "));
	free(txt);
	char *html = fixture_report(dir, "out");
	char *sec = strstr(html, "<section id=\"rebuild\">");
	assert_non_null(sec);
	char *end = strstr(sec, "</section>");
	assert_non_null(end);
	*end = '\0';
	assert_int_equal(fixture_count(sec, "<tr><td>"), 3);
	assert_non_null(strstr(sec, "<tr><td>" MEMBER_RATE "</td>"));
	assert_non_null(strstr(sec, "(the rebuilt member is good)"));
	free(html);
}

static void test_rebuild_step_sweeps_rates(void **state)
{
	const char *dir = *state;
	char ini[4200], out[4200];
	struct proc_out po;

	fill_and_wipe(dir);
	write_plan(dir, "mode=rebuild\nreplace=1\nrebuild_rate=" MEMBER_RATE
			",100%\nrw=randread\nbs=4k\niodepth=4\n");
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	run_iochar(&po, NULL, 0, ARGS("plan", ini, "--out", out));
	if (po.status != 0)
		fail_msg("plan exit %d: %s", po.status, po.err);
	proc_out_free(&po);
	/* the wiped member holds again exactly what it held */
	char m1[4300], orig[4300];
	size_t a, b;
	snprintf(m1, sizeof(m1), "%s/m1", dir);
	snprintf(orig, sizeof(orig), "%s/m1.orig", dir);
	char *now = fixture_slurp(m1, &a), *was = fixture_slurp(orig, &b);
	assert_int_equal(a, b);
	assert_true(memcmp(now, was, a) == 0);
	free(now);
	free(was);
	check_json(dir);
	check_rows(dir);
}

/* Each refused with its culprit named, exit 2, before a member exists. */
static void test_bad_rebuild_steps(void **state)
{
	const char *dir = *state;
	static const struct {
		const char *step, *says;
	} bad[] = {
		{"mode=rebuild\nrw=randread\n", "mode=rebuild needs replace=N"},
		{"mode=rebuild\nreplace=1\nrebuild_rate=fast\n", "rebuild_rate"},
		{"mode=rebuild\nreplace=7\n", "--replace=7, but the VD has 3 members"},
		{"mode=rebuild\nreplace=1\ntargets=parallel\n", "targets=parallel is not for it"},
	};
	char ini[4200], out[4200], m0[4200];
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(m0, sizeof(m0), "%s/m0", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proc_out po;
		write_plan(dir, bad[i].step);
		run_iochar(&po, NULL, 0, ARGS("plan", ini, "--out", out));
		expect_exit(&po, 2);
		if (!strstr(po.err, bad[i].says))
			fail_msg("case %zu: '%s' not in: %s", i, bad[i].says, po.err);
		proc_out_free(&po);
		assert_int_not_equal(access(m0, F_OK), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rebuild_step_sweeps_rates, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_rebuild_steps, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
