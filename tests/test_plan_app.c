/* test_plan_app.c - a plan step with mode=app: `iochar app` run as a step
 * (sysbench against MariaDB on a tmpfs directory, tiny data set, 2 s
 * points). Each step leaves a complete app run in OUT/app-stepN (the
 * format `iochar app --out` writes) and says in its step JSON what it
 * found: the points, and with the job's latency_target the highest thread
 * count whose p99 stays inside it (SLOB's method), or none. The report
 * reads a plan that has such a step. Bad app keys are usage errors naming
 * the step, before anything is made. SKIP without root or the packages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

struct fixture {
	char *dir;
	char target[4200], out[4200], outarg[4300], plan[4200];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = shmdir_make();
	snprintf(f->target, sizeof(f->target), "%s/target", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/out", f->dir);
	snprintf(f->outarg, sizeof(f->outarg), "--out=%s", f->out);
	snprintf(f->plan, sizeof(f->plan), "%s/plan.ini", f->dir);
	assert_int_equal(mkdir(f->target, 0755), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tmpdir_remove(f->dir);
	free(f);
	return 0;
}

static void write_plan(const struct fixture *f, const char *text)
{
	FILE *p = fopen(f->plan, "w");

	assert_non_null(p);
	fprintf(p, "[global]\nmode=app\nfilename=%s\n%s", f->target, text);
	fclose(p);
}

static json_object *step_json(const struct fixture *f, unsigned i)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/steps/%03u.json", f->out, i);
	json_object *o = json_object_from_file(path);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(jget(o, "mode")), "app");
	return o;
}

static void test_app_steps(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	char path[4300], html[4300];

	if (!is_root() || access("/usr/sbin/mariadbd", X_OK) || access("/usr/bin/sysbench", X_OK)) {
		print_message("SKIP: needs root, mariadb-server and sysbench (scripts/deps.sh)\n");
		skip();
	}
	write_plan(f, "bench=sysbench-oltp\nthreads=1,2\ntime=2s\ntables=1\ntable_size=1000\n"
		      "[loose]\nlatency_target=1000ms\n[tight]\nlatency_target=1us\n");
	run_iochar(&po, NULL, 0, ARGS("plan", f->plan, f->outarg));
	expect_exit(&po, 0);
	expect_has(po.out, "loose: 2 threads, the most with p99 latency inside 1000 ms");
	expect_has(po.out, "tight: no thread count kept p99 latency inside");
	proc_out_free(&po);

	json_object *loose = step_json(f, 0), *tight = step_json(f, 1);
	assert_string_equal(json_object_get_string(jget(loose, "app.dir")), "app-step1");
	assert_int_equal(jget_u64(loose, "app.latency_target.best_threads"), 2);
	assert_true(json_object_get_boolean(jget(loose, "app.latency_target.met")));
	assert_false(json_object_get_boolean(jget(tight, "app.latency_target.met")));
	json_object *pts = jget(loose, "app.points");
	assert_int_equal(json_object_array_length(pts), 2);
	for (unsigned i = 0; i < 2; i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		assert_int_equal(jget_u64(p, "threads"), i + 1);
		assert_true(jget_double(p, "tps") > 0);
		assert_true(jget_double(p, "lat_p99_ms") >= jget_double(p, "lat_avg_ms"));
	}
	json_object_put(loose);
	json_object_put(tight);

	/* each step's app run is complete where it says */
	for (unsigned s = 1; s <= 2; s++) {
		snprintf(path, sizeof(path), "%s/app-step%u/results.json", f->out, s);
		json_object *r = json_object_from_file(path);
		assert_non_null(r);
		assert_int_equal(jget_u64(r, "iochar_app"), 1);
		assert_true(json_object_get_boolean(jget(r, "complete")));
		json_object_put(r);
	}
	/* the servers' data directories are gone from the target */
	DIR *d = opendir(f->target);
	assert_non_null(d);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n++;
	closedir(d);
	assert_int_equal(n, 2);

	/* the plan's report draws each step's app run: its section and both
	 * runs' tables */
	snprintf(html, sizeof(html), "%s/plan.html", f->dir);
	run_iochar(&po, NULL, 0, ARGS("report", f->out, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char *page = file_slurp(html, NULL);
	assert_non_null(page);
	expect_has(page, "Application runs");
	expect_has(page, "app-step1: sysbench-oltp");
	expect_has(page, "app-step2: sysbench-oltp");
	free(page);
}

static void test_bad_app_keys(void **state)
{
	struct fixture *f = *state;

	write_plan(f, "[db]\nthreads=1\n");
	expect_usage_line(ARGS("plan", f->plan, f->outarg), "step 'db': mode=app needs bench=");
	write_plan(f, "[db]\nbench=oracle\n");
	expect_usage_line(ARGS("plan", f->plan, f->outarg), "bench=oracle: unknown");
	write_plan(f, "[db]\nbench=pgbench\nworkload=read_write\n");
	expect_usage_line(ARGS("plan", f->plan, f->outarg), "workload=read_write");
	write_plan(f, "[db]\nbench=sysbench-oltp\nthreads=4,2\n");
	expect_usage_line(ARGS("plan", f->plan, f->outarg), "threads=4,2: give the counts rising");
	write_plan(f, "[db]\nbench=sysbench-oltp\nlatency_metric=device\n");
	expect_usage_line(ARGS("plan", f->plan, f->outarg), "no block device to judge");
	assert_false(file_exists(f->out));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_app_steps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_app_keys, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
