/* test_mpi_report.c - a plan run over 3 ranks (mpirun --oversubscribe on
 * this machine, a small file per rank under a temporary directory), then
 * `iochar report` on its results: the per-host section has a table per
 * workload naming all 3 ranks, and its figures (each host's I/Os, the
 * total, the skew) are those of results.json. Every rank's own
 * environment reaches rank 0: hosts[].environment of a run's JSON and the
 * top-level hosts[] of a plan's results.json name this machine and its
 * CPUs, and the report compares them. SKIP when mpirun is missing or
 * iochar was built without MPI (mpi_harness.h). */
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
#include "mpi_harness.h"

#define RANKS 3

/* The per-host table of workload title in html, up to its end. */
static char *table_of(const char *html, const char *title)
{
	char h4[256];
	snprintf(h4, sizeof(h4), "<h4>res: %s</h4>", title);
	const char *b = strstr(html, h4);
	if (!b)
		fail_msg("no per-host table for %s", title);
	const char *e = strstr(b, "</table>");
	assert_non_null(e);
	return strndup(b, (size_t)(e - b));
}

/* The table of point (a results.json point with per_host) matches it. */
static void check_table(const char *html, const char *title, json_object *point)
{
	char *t = table_of(html, title), want[512];
	json_object *ph = jget(point, "per_host");
	assert_int_equal(json_object_array_length(ph), RANKS);
	snprintf(want, sizeof(want), "data-hosts=\"%d\" data-skew-ns=\"%llu\"", RANKS,
		 (unsigned long long)jget_u64(point, "start_skew_ns"));
	expect_has(t, want);
	uint64_t sum = 0;
	for (int r = 0; r < RANKS; r++) {
		json_object *h = json_object_array_get_idx(ph, r);
		assert_int_equal(jget_u64(h, "rank"), r);
		snprintf(want, sizeof(want), "<tr class=\"host\" data-rank=\"%d\" data-ios=\"%llu\"><td>%s</td>",
			 r, (unsigned long long)jget_u64(h, "total.ios"),
			 json_object_get_string(jget(h, "host")));
		expect_has(t, want);
		sum += jget_u64(h, "total.ios");
	}
	assert_int_equal(sum, jget_u64(point, "total.ios"));
	snprintf(want, sizeof(want), "<tr class=\"total\" data-ios=\"%llu\">",
		 (unsigned long long)sum);
	expect_has(t, want);
	free(t);
}

/* hosts[] of o: RANKS entries, rank r's environment its own (this
 * machine's name and CPU count; its target, when it has one, file-r). */
static void check_host_envs(json_object *o, const char *dir, const char *file)
{
	char name[256] = "", want[4400];
	json_object *hosts = jget(o, "hosts");
	assert_int_equal(gethostname(name, sizeof(name) - 1), 0);
	assert_int_equal(json_object_array_length(hosts), RANKS);
	for (int r = 0; r < RANKS; r++) {
		json_object *h = json_object_array_get_idx(hosts, r);
		json_object *env = jget(h, "environment");
		assert_int_equal(jget_u64(h, "rank"), r);
		assert_true(json_object_is_type(env, json_type_object));
		assert_string_equal(json_object_get_string(jget(env, "hostname")), name);
		assert_string_equal(json_object_get_string(jget(h, "host")), name);
		assert_int_equal(jget_u64(env, "cpus"), sysconf(_SC_NPROCESSORS_ONLN));
		assert_non_null(jget(env, "inventory.os.kernel"));
		if (!file)
			continue;
		json_object *t = json_object_array_get_idx(jget(env, "targets"), 0);
		snprintf(want, sizeof(want), "%s/%s-%d", dir, file, r);
		assert_string_equal(json_object_get_string(jget(t, "path")), want);
	}
}

static void test_run_3_ranks_environments(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np %d '%s' run "
		    "--ioengine=psync --rw=randread --bs=4k --size=1m --runtime=200ms "
		    "--time_based --filename=%s/r-%%r --output-format=json >out.json 2>err",
		    dir, RANKS, mpi_bin, dir);
	if (rc != 0)
		fail_with(dir, "mpirun iochar run failed");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	check_host_envs(o, dir, "r");
	json_object_put(o);
}

static void test_plan_3_ranks_report(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	mpi_write_plan(dir, "1m", false, 2, 1);
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np %d '%s' plan p.ini "
		    "--out res >out 2>err", dir, RANKS, mpi_bin);
	if (rc != 0)
		fail_with(dir, "mpirun iochar plan failed");
	rc = sh("cd '%s' && " RUN_TIMEOUT "'%s' report res -o r.html >out 2>err", dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "iochar report failed");

	snprintf(path, sizeof(path), "%s/res/results.json", dir);
	json_object *o = load_json(path);
	snprintf(path, sizeof(path), "%s/r.html", dir);
	char *html = slurp(path);
	expect_has(html, "<section id=\"hosts\"><h2>Per host</h2>");
	check_host_envs(o, dir, "f"); /* once for the directory */
	expect_has(html, "<p class=\"host-env-summary\" data-hosts=\"3\" data-differ=\"0\">");
	json_object *steps = jget(o, "steps");
	assert_int_equal(json_object_array_length(steps), 2);
	json_object *set0 = json_object_array_get_idx(jget(json_object_array_get_idx(steps, 0), "sets"), 0);
	json_object *set1 = json_object_array_get_idx(jget(json_object_array_get_idx(steps, 1), "sets"), 0);
	check_table(html, json_object_get_string(jget(json_object_array_get_idx(steps, 0), "label")),
		    jget(set0, "fixed"));
	check_table(html, json_object_get_string(jget(json_object_array_get_idx(steps, 1), "label")),
		    jget(set1, "best"));
	free(html);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plan_3_ranks_report, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_run_3_ranks_environments, mpi_setup,
						mpi_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
