/* test_app_report.c - `iochar report` and `iochar compare` on application
 * runs ("iochar_app": 1, docs/app.md): the fixtures in tests/fixtures/app
 * are inputs written to the format; each figure the page shows is checked
 * to come from the file (a value changed in a copy changes on the page),
 * compare's verdicts on two runs with known differences (+0.5 % with 2 %
 * per-second spread: within noise; 40 % spread: inconclusive; +30 %:
 * significant; a failed thread count: missing), the oltp plan's shapes
 * against the trace summary, the readers' refusals (another version, a
 * truncated file, a missing member: exit 2, one line naming file and
 * member, nothing written), and the page's layout in Chromium (SKIP
 * without it). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "harness.h"
#include "report_fixture.h"

#define FIX "tests/fixtures/app"

static json_object *fixture_json(const char *name)
{
	char p[256];
	snprintf(p, sizeof(p), FIX "/%s/results.json", name);
	json_object *o = json_object_from_file(p);
	if (!o)
		fail_msg("%s: cannot read the fixture", p);
	return o;
}

/* o as DIR/NAME/results.json; o is put. */
static void write_set(const char *dir, const char *name, json_object *o)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/results.json", dir, name);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	fixture_write(p, text, strlen(text));
	json_object_put(o);
}

static json_object *point(json_object *root, unsigned i)
{
	return json_object_array_get_idx(jget(root, "points"), i);
}

static void set_num(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

/* The figures on the page are the file's: the fixture's, then a copy with
 * other values. */
static void test_report_figures_from_file(void **state)
{
	const char *dir = *state;
	write_set(dir, "a", fixture_json("a"));
	char *html = fixture_report(dir, "a");
	expect_has(html, "<section id=\"app\"><h2>Application runs</h2>");
	expect_has(html, "<td class=\"num\">8</td><td class=\"num\">1000.0</td>"
			 "<td class=\"num\">20000.0</td><td class=\"num\">8.00</td>"
			 "<td class=\"num\">14.00</td><td class=\"num\">0</td>"
			 "<td class=\"num\">2100</td><td class=\"num\">900</td>");
	expect_has(html, "<th>database version</th><td>mariadb 10.11.6</td>");
	expect_has(html, "<th>mariadb: innodb_buffer_pool_size</th><td>64M</td>");
	expect_has(html, "<th>memory ratio (buffer pool / data)</th><td>0.062</td>");
	expect_has(html, "4 threads (no blktrace on this kernel)");
	assert_int_equal(fixture_count(html, "data-chart=\"app-sweep\" data-points=\"8\""), 1);
	assert_int_equal(fixture_count(html, "data-chart=\"app-device\" data-points=\"12\""), 1);
	assert_int_equal(fixture_count(html, "data-chart=\"app-seconds\" data-points=\"20\""), 1);
	assert_int_equal(fixture_count(html, "Best figure per workload"), 0);
	free(html);

	json_object *o = fixture_json("a");
	set_num(point(o, 3), "tps", 1234.5);
	set_num(jget(point(o, 3), "device"), "read_iops", 4321);
	json_object_object_add(jget(o, "database"), "version", json_object_new_string("11.4.2"));
	set_num(jget(o, "dataset"), "memory_ratio", 0.25);
	/* a thread count more: one more category in each chart */
	json_object *p16 = NULL;
	json_object_deep_copy(point(o, 3), &p16, NULL);
	json_object_object_add(p16, "threads", json_object_new_int(16));
	json_object_array_add(jget(o, "points"), p16);
	write_set(dir, "a2", o);
	html = fixture_report(dir, "a2");
	expect_has(html, "<td class=\"num\">8</td><td class=\"num\">1234.5</td>");
	expect_has(html, "<td class=\"num\">4321</td>");
	expect_has(html, "<th>database version</th><td>mariadb 11.4.2</td>");
	expect_has(html, "<td>0.250</td>");
	assert_int_equal(fixture_count(html, "data-chart=\"app-sweep\" data-points=\"10\""), 1);
	expect_has(html, "a2: per second at 16 threads");
	free(html);
}

/* What pgbench on tmpfs writes: no device (no block device under the
 * file system), no table counts but a scale, an unfinished run and why. */
static void test_pgbench_on_tmpfs(void **state)
{
	const char *dir = *state;
	json_object *o = fixture_json("a");
	json_object_object_add(o, "bench", json_object_new_string("pgbench"));
	json_object_object_add(o, "workload", json_object_new_string("tpcb-like"));
	json_object_object_add(o, "complete", json_object_new_boolean(0));
	json_object_object_add(o, "failure", json_object_new_string("postgres stopped"));
	json_object_object_add(jget(o, "target"), "device", NULL);
	json_object_object_add(jget(o, "dataset"), "tables", NULL);
	json_object_object_add(jget(o, "dataset"), "table_size", NULL);
	set_num(jget(o, "dataset"), "scale", 12);
	json_object_object_add(jget(o, "dataset"), "bytes_measured", json_object_new_boolean(1));
	for (unsigned i = 0; i < 4; i++) {
		json_object_object_add(point(o, i), "device", NULL);
		json_object_object_add(point(o, i), "trace", NULL);
		json_object_object_del(point(o, i), "trace_summary");
		json_object_object_add(point(o, i), "trace_skipped",
				       json_object_new_string("tmpfs: no block device"));
	}
	write_set(dir, "pg", o);
	char *html = fixture_report(dir, "pg");
	expect_has(html, "Partial results: the run did not finish: postgres stopped.");
	expect_has(html, "<th>scale</th><td>12</td>");
	expect_has(html, "<th>target</th><td>directory /mnt/x, ext4</td>");
	expect_has(html, "(measured after the load)");
	expect_has(html, "device (not measured) over the same seconds");
	expect_has(html, "at: 1 threads (tmpfs: no block device) 2 threads");
	assert_int_equal(fixture_count(html, "data-chart=\"app-device\""), 0);
	assert_int_equal(fixture_count(html, "data-chart=\"app-sweep\" data-points=\"8\""), 1);
	assert_int_equal(fixture_count(html, "<th>tables</th>"), 0);
	assert_int_equal(fixture_count(html, "The synthetic"), 0);
	free(html);
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("report", "pg", "--output-format=text"));
	expect_exit(&po, 0);
	expect_has(po.out, "the run did not finish: postgres stopped\n");
	expect_has(po.out, "       0 |       -       -       -");
	proc_out_free(&po);
}

/* What a42run's `iochar app` wrote for two real runs (MariaDB with
 * sysbench oltp_read_write, PostgreSQL with pgbench tpcb-like, each on a
 * loop device, 1 and 4 threads, 5 s): read, drawn, and held against the
 * oltp plan; as a pair they share no row in compare. */
static void test_real_runs(void **state)
{
	const char *dir = *state;
	write_set(dir, "mariadb-real", fixture_json("mariadb-real"));
	write_set(dir, "pgbench-real", fixture_json("pgbench-real"));
	char *html = fixture_report(dir, "mariadb-real");
	expect_has(html, "<th>database version</th><td>mariadb 10.11.19</td>");
	expect_has(html, "<td class=\"num\">4</td><td class=\"num\">95.8</td>");
	expect_has(html, "<tr><td>trace, 4 threads</td><td>16K 87 %, 4K 5 %");
	expect_has(html, "<tr><td>oltp-data</td><td>8K 100 %</td><td class=\"num\">70</td>"
			 "<td class=\"num\">0 %</td><td class=\"num\">+21</td></tr>");
	free(html);
	html = fixture_report(dir, "pgbench-real");
	expect_has(html, "<td class=\"num\">4</td><td class=\"num\">1332.6</td>");
	expect_has(html, "<tr><td>oltp-data</td><td>8K 100 %</td><td class=\"num\">70</td>"
			 "<td class=\"num\">95 %</td><td class=\"num\">+70</td></tr>");
	expect_has(html, "<th>scale</th><td>5</td>");
	free(html);
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("compare", "mariadb-real", "pgbench-real"));
	expect_exit(&po, 0);
	expect_has(po.out, "sysbench-oltp read_write T4 tps only in mariadb-real");
	expect_has(po.out, "pgbench tpcb-like T4 tps only in pgbench-real");
	proc_out_free(&po);
}

/* --output-format=text: the same figures as a table on stdout; only
 * for application runs, never with -o. */
static void test_text_from_file(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	json_object *o = fixture_json("b");
	set_num(point(o, 0), "qps", 4321.5);
	set_num(jget(point(o, 3), "device"), "write_lat_ms", 0.77);
	write_set(dir, "t", o);
	run_iochar(&po, dir, 0, ARGS("report", "t", "--output-format=text"));
	expect_exit(&po, 0);
	expect_has(po.out, "t: sysbench-oltp read_write (sysbench 1.0.20, mariadb 10.11.6)\n");
	expect_has(po.out, "      1      201.0      4321.5     4.97     5.05       0 |     301"
			   "     121");
	expect_has(po.out, "      4  failed: sysbench exited with status 1\n");
	expect_has(po.out, "    0.21    0.77    60\n");
	proc_out_free(&po);
	write_set(dir, "a", fixture_json("a"));
	expect_usage_line(ARGS("report", "tests/fixtures/app/a", "--output-format=text", "-o",
			       "x.txt"), "-o is for the HTML report");
	run_iochar(&po, NULL, 0, ARGS("report", "tests/fixtures/app/a", "tests/fuzz/corpus/results/net_client.json",
				      "--output-format=text"));
	expect_exit(&po, 2);
	expect_has(po.err, "net_client.json: not an application run");
	assert_string_equal(po.out, "");
	proc_out_free(&po);
}

/* compare's verdicts per thread count, in JSON and in text. */
static void test_compare_verdicts(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	write_set(dir, "a", fixture_json("a"));
	write_set(dir, "b", fixture_json("b"));
	run_iochar(&po, dir, 0, ARGS("compare", "a", "b", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	const char *w = "sysbench-oltp read_write";
	char k[128];
	struct { const char *row, *verdict; } want[] = {
		{"T1 tps", "within noise"}, {"T1 p99", "within noise"},
		{"T2 tps", "inconclusive"}, {"T8 tps", "significant"},
		{"T8 p99", "significant"},  {"T4 tps", "missing"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(k, sizeof(k), "%s %s", w, want[i].row);
		const char *got = compare_verdict(root, k, 1);
		if (strcmp(got, want[i].verdict))
			fail_msg("%s: %s, expected %s", k, got, want[i].verdict);
	}
	snprintf(k, sizeof(k), "%s T8 tps", w);
	assert_true(jget_double(compare_value(root, k, 1), "diff_pct") > 29.9);
	assert_true(jget_double(compare_value(root, k, 1), "diff_pct") < 30.1);
	assert_int_equal(jget_u64(compare_value(root, k, 1), "threads"), 8);
	snprintf(k, sizeof(k), "%s T8 p99", w);
	assert_true(jget_double(compare_value(root, k, 1), "value") == 11e6);
	json_object_put(root);
	proc_out_free(&po);

	run_iochar(&po, dir, 0, ARGS("compare", "a", "b"));
	expect_exit(&po, 0);
	expect_has(po.out, "single run: run-to-run drift not measured");
	expect_has(po.out, "of the benchmark's per-second TPS or p99");
	expect_has(po.out, "1300.0 TPS");
	proc_out_free(&po);
}

/* The oltp plan's workloads against the trace: the share of the trace's
 * I/Os at 8K is the fixture's, and follows it. */
static void test_oltp_shapes(void **state)
{
	const char *dir = *state;
	json_object *o = fixture_json("a");
	json_object *sizes = jget(point(o, 3), "trace_summary.sizes");
	set_num(json_object_array_get_idx(sizes, 2), "share", 0.33); /* 8K */
	set_num(jget(point(o, 3), "trace_summary"), "read_share", 0.5);
	write_set(dir, "s", o);
	char *html = fixture_report(dir, "s");
	expect_has(html, "The synthetic <code>oltp</code> plan against the trace at 8 threads");
	expect_has(html, "<tr><td>oltp-data</td><td>8K 100 %</td><td class=\"num\">70</td>"
			 "<td class=\"num\">33 %</td><td class=\"num\">+20</td></tr>");
	expect_has(html, "<tr><td>oltp-redo</td><td>4K 100 %</td><td class=\"num\">0</td>"
			 "<td class=\"num\">20 %</td><td class=\"num\">-50</td></tr>");
	expect_has(html, "<p>53 % of the trace's I/Os are at a size");
	free(html);
}

/* A refused file: exit 2, one line naming it and what is wrong, no page. */
static void refused(const char *dir, const char *name, const char *want)
{
	struct proc_out po;
	char out[4400];
	run_iochar(&po, dir, 0, ARGS("report", name, "-o", "refused.html"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, name);
	expect_has(po.err, want);
	snprintf(out, sizeof(out), "%s/refused.html", dir);
	assert_false(file_exists(out));
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("compare", name, name));
	expect_exit(&po, 2);
	expect_has(po.err, want);
	proc_out_free(&po);
}

static void test_refusals(void **state)
{
	const char *dir = *state;
	json_object *o = fixture_json("a");
	json_object_object_add(o, "iochar_app", json_object_new_int(2));
	write_set(dir, "v2", o);
	refused(dir, "v2", "iochar_app: format 2 is not the one this iochar reads (1)");

	o = fixture_json("a");
	json_object_object_del(point(o, 1), "tps");
	write_set(dir, "notps", o);
	refused(dir, "notps", "points[1].tps");

	o = fixture_json("a");
	json_object_object_del(jget(o, "database"), "version");
	write_set(dir, "nover", o);
	refused(dir, "nover", "database.version");

	o = fixture_json("a");
	json_object_object_add(jget(point(o, 0), "trace_summary"), "read_share",
			       json_object_new_string("most"));
	write_set(dir, "badshare", o);
	refused(dir, "badshare", "points[0].trace_summary.read_share");

	size_t len;
	char *text = fixture_slurp(FIX "/a/results.json", &len);
	char p[4400];
	snprintf(p, sizeof(p), "%s/cut", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/cut/results.json", dir);
	fixture_write(p, text, len / 2);
	free(text);
	refused(dir, "cut", "truncated");
}

static void test_layout_in_chromium(void **state)
{
	const char *dir = *state;
	char bin[4096], cmd[9000];
	if (system("command -v chromium >/dev/null 2>&1") != 0) {
		printf("SKIP: chromium not installed (scripts/deps.sh installs it)\n");
		skip();
	}
	write_set(dir, "a", fixture_json("a"));
	write_set(dir, "b", fixture_json("b"));
	char *html = fixture_report_html(dir, "ab.html", ARGS("a", "b"));
	free(html);
	snprintf(bin, sizeof(bin), "%s", iochar_path());
	snprintf(cmd, sizeof(cmd),
		 "python3 tests/browser/check_layout.py chromium '%s/ab.html' '%s/report-app' 1024",
		 dir, dirname(bin));
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("the app runs' report: its layout fails in Chromium (above)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_figures_from_file),
		cmocka_unit_test(test_pgbench_on_tmpfs),
		cmocka_unit_test(test_real_runs),
		cmocka_unit_test(test_text_from_file),
		cmocka_unit_test(test_compare_verdicts),
		cmocka_unit_test(test_oltp_shapes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_layout_in_chromium),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
