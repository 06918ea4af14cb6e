/* test_search_runs.c - searches through the binary on a file in /tmp, a
 * file on tmpfs and the null engine, on this shared machine's own noise:
 * no point shown inside scores more than the headline (each that would
 * was run twice: "confirmed", its other run in "other_run", inside too;
 * a dropped one's "other_run" over the limit); with nothing inside,
 * "closest" names the point nearest the limit. Points are time based by
 * default (said on stderr, time_based in the step's options, none ends
 * early); with time_based=0 a point on a small file ends with its region
 * and says so in the JSON and the table. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static bool jbool(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* The headline rule on one search's JSON; returns the points seen. */
static unsigned check_headline(json_object *r, const char *what)
{
	json_object *pts = jget(r, "points"), *best = jget(r, "best");
	bool found = json_object_get_type(best) == json_type_object;
	double head = found ? jget_double(best, "iops") : 0;
	size_t n = json_object_array_length(pts);
	unsigned twice = 0;

	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i), *o;
		bool in = jbool(p, "inside");

		if (in && jget_double(p, "iops") > head)
			fail_msg("%s: %ux%u inside at %.0f IOPS, above the headline %.0f", what,
				 (unsigned)jget_u64(p, "iodepth"), (unsigned)jget_u64(p, "numjobs"),
				 jget_double(p, "iops"), head);
		if (!found)
			assert_false(in);
		bool again = json_object_object_get_ex(p, "other_run", &o);
		assert_int_equal(again, jbool(p, "confirmed") || jbool(p, "repeat_missed"));
		if (jbool(p, "confirmed")) { /* both inside, the lower shown */
			assert_true(in && jbool(o, "inside"));
			assert_true(jget_double(p, "iops") <= jget_double(o, "iops"));
		}
		if (jbool(p, "repeat_missed"))
			assert_true(!in && !jbool(o, "inside"));
		twice += again;
	}
	assert_int_equal(twice, jget_u64(r, "repeats"));
	if (!found && n)
		assert_true(jget_double(r, "closest.iops") > 0);
	print_message("%s: %zu points, %u run twice, headline %.0f IOPS%s\n", what, n, twice,
		      head, found ? "" : " (none inside)");
	return (unsigned)n;
}

static void search_json(const char *dir, const char *const *args, const char *what)
{
	struct proc_out po;

	run_iochar(&po, dir, 0, args);
	if (po.status != 0)
		fail_msg("%s: exit %d: %s", what, po.status, po.err);
	json_object *r = parse_json(&po);
	check_headline(r, what);
	json_object_put(r);
	proc_out_free(&po);
}

/* Limits from loose to below what the device can do, on each target. */
static void test_headline_on_targets(void **state)
{
	static const char *const limits[] = {"--latency_limit=1ms", "--latency_limit=20us",
					     "--latency_limit=2us", "--latency_limit=100ns"};
	static const char *const file_limits[] = {"--latency_limit=2ms",
						  "--latency_limit=100us"};
	const char *shm = *state;
	char tmp[] = "/tmp/iochar-search-XXXXXX", f1[64], f2[4200], a[4300], b[100];

	assert_non_null(mkdtemp(tmp));
	snprintf(f1, sizeof(f1), "--filename=%s/f", tmp);
	snprintf(f2, sizeof(f2), "%s/f", shm);
	snprintf(a, sizeof(a), "--filename=%s", f2);
	for (unsigned k = 0; k < 4; k++) {
		snprintf(b, sizeof(b), "null %s", limits[k] + 16);
		search_json(shm, ARGS("search", "--ioengine=null", "--size=64m", "--rw=randread",
				      "--runtime=100ms", limits[k], "--max_iodepth=32",
				      "--max_numjobs=4", "--output-format=json"), b);
	}
	for (unsigned k = 0; k < 2; k++) {
		const char *lim = file_limits[k];
		snprintf(b, sizeof(b), "tmpfs %s", lim + 16);
		search_json(shm, ARGS("search", a, "--size=16m", "--rw=randread",
				      "--ioengine=psync", "--runtime=100ms", lim,
				      "--max_numjobs=4", "--output-format=json"), b);
		snprintf(b, sizeof(b), "/tmp file %s", lim + 16);
		search_json(shm, ARGS("search", f1, "--size=16m", "--rw=randread",
				      "--ioengine=libaio", "--runtime=100ms", lim,
				      "--max_iodepth=16", "--max_numjobs=2", "--output-format=json"), b);
	}
	snprintf(f2, sizeof(f2), "%s/f", tmp);
	unlink(f2);
	rmdir(tmp);
}

/* The table and results.csv name what the JSON marks: a line and a row
 * per point run twice beside the best (confirmed), or dropped. */
static void rows_match_json(const char *dir, const char *limit, const char *out)
{
	char path[4300], o[64];
	struct proc_out po;
	unsigned twice = 0, dropped = 0;

	snprintf(o, sizeof(o), "--out=%s", out);
	run_iochar(&po, dir, 0, ARGS("search", "--ioengine=null", "--size=64m", "--rw=randread",
				      "--runtime=100ms", limit, "--max_iodepth=32",
				      "--max_numjobs=4", o));
	expect_exit(&po, 0);
	snprintf(path, sizeof(path), "%s/%s/steps/000.json", dir, out);
	json_object *st = json_object_from_file(path);
	assert_non_null(st);
	json_object *set = json_object_array_get_idx(jget(st, "sets"), 0);
	check_headline(set, limit);
	json_object *pts = jget(set, "points"), *b = jget(set, "best");
	bool found = json_object_get_type(b) == json_type_object; /* none inside: null */
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		bool best = found && jget_u64(p, "iodepth") == jget_u64(b, "iodepth") &&
			    jget_u64(p, "numjobs") == jget_u64(b, "numjobs");
		twice += jbool(p, "confirmed") && !best;
		dropped += jbool(p, "repeat_missed");
	}
	assert_int_equal(strstr(po.out, "  run twice, inside both times") != NULL, twice > 0);
	assert_int_equal(strstr(po.out, "  dropped, the repeat over the limit: ") != NULL,
			 dropped > 0);
	snprintf(path, sizeof(path), "%s/%s/results.csv", dir, out);
	char *csv = file_slurp(path, NULL);
	assert_non_null(csv);
	unsigned rows_twice = 0, rows_dropped = 0;
	for (const char *q = strstr(csv, ",run twice,"); q; q = strstr(q + 1, ",run twice,"))
		rows_twice++;
	for (const char *q = strstr(csv, ",dropped,"); q; q = strstr(q + 1, ",dropped,"))
		rows_dropped++;
	print_message("%u run twice beside the best, %u dropped; csv rows %u, %u\n", twice,
		      dropped, rows_twice, rows_dropped);
	assert_int_equal(rows_twice, twice);
	assert_int_equal(rows_dropped, dropped);
	free(csv);
	json_object_put(st);
	proc_out_free(&po);
}

static void test_rows_match_json(void **state)
{
	rows_match_json(*state, "--latency_limit=1ms", "a");
	rows_match_json(*state, "--latency_limit=20us", "b");
	rows_match_json(*state, "--latency_limit=2us", "c");
}

/* time_based by default: said, in the options, and every point lasts
 * its runtime; time_based=0 on a small file: points end with their
 * region and say so. */
static void test_points_time_based(void **state)
{
	const char *shm = *state;
	char fn[4200];
	struct proc_out po;

	snprintf(fn, sizeof(fn), "--filename=%s/small", shm);
	run_iochar(&po, shm, 0, ARGS("search", fn, "--size=4m", "--rw=randread",
				      "--ioengine=psync", "--runtime=300ms",
				      "--latency_limit=10ms", "--max_numjobs=2",
				      "--output-format=json"));
	expect_exit(&po, 0);
	expect_has(po.err, "every search point lasts runtime=0.3s (time_based; time_based=0");
	json_object *r = parse_json(&po);
	assert_true(jbool(jget(r, "options"), "time_based") ||
		    !strcmp(json_object_get_string(jget(r, "options.time_based")), "1"));
	json_object *pts = jget(r, "points");
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		assert_false(jbool(p, "ended_early"));
		assert_true(jget_u64(p, "elapsed_ns") >= 270000000ull);
	}
	json_object_put(r);
	proc_out_free(&po);

	run_iochar(&po, shm, 0, ARGS("search", fn, "--size=4m", "--rw=randread",
				      "--ioengine=psync", "--runtime=3s", "--time_based=0",
				      "--latency_limit=10ms", "--max_numjobs=2",
				      "--output-format=json"));
	expect_exit(&po, 0);
	assert_null(strstr(po.err, "every search point lasts"));
	r = parse_json(&po);
	pts = jget(r, "points");
	unsigned early = 0;
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		bool e = jbool(p, "ended_early");
		assert_int_equal(e, jget_u64(p, "elapsed_ns") < 2700000000ull);
		early += e;
	}
	assert_true(early >= 1); /* 4 MiB at psync speed is well under 3 s */
	json_object_put(r);
	proc_out_free(&po);

	run_iochar(&po, shm, 0, ARGS("search", fn, "--size=4m", "--rw=randread",
				      "--ioengine=psync", "--runtime=3s", "--time_based=0",
				      "--latency_limit=10ms", "--max_numjobs=1"));
	expect_exit(&po, 0);
	expect_has(po.out, "  ended early: 1x1 after ");
	expect_has(po.out, "of runtime=3s (not time_based: the region was done)");
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_headline_on_targets, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_points_time_based, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_rows_match_json, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
