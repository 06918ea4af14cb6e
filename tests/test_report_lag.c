/* test_report_lag.c - a rate-limited run's lag, service time and
 * tool-limited flag survive the trip through its JSON: the results reader
 * reads back exactly what the run wrote, and the HTML report shows the lag
 * and the flag with its reason; a replay's "replay" member likewise, and
 * the report's replay section says whether it kept up. The null engine at a rate makes a run
 * whose latency is all lag, so it is always tool-limited. */
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
#include "base/replay_verdict.h"
#include "report/results_read.h"
#include "report_fixture.h"

static void run_to(const char *dir, const char *name, const char *rate)
{
	char out[4400];
	struct proc_out po;

	snprintf(out, sizeof(out), "--output=%s/%s", dir, name);
	run_iochar(&po, dir, 0, ARGS("run", "--ioengine=null", "--size=1m", "--rw=randrw",
				     "--runtime=300ms", "--time_based", rate,
				     "--output-format=json", out));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

/* The lag (or service) block of direction d in the JSON against what the
 * reader made of it. */
static void same_lat(json_object *root, const char *path, const struct rs_lat *l)
{
	char key[128];
	snprintf(key, sizeof(key), "%s.p99", path);
	assert_int_equal(jget_u64(root, key), l->pct[RS_P99]);
	snprintf(key, sizeof(key), "%s.max", path);
	assert_int_equal(jget_u64(root, key), l->max);
	snprintf(key, sizeof(key), "%s.mean", path);
	assert_true(jget_double(root, key) == l->mean);
}

static void test_reader_reads_lag_back(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct rs_set s;
	struct ioc_err err = {0};

	run_to(dir, "paced.json", "--rate_iops=2000");
	snprintf(p, sizeof(p), "%s/paced.json", dir);
	char *text = fixture_slurp(p, NULL);
	json_object *root = json_tokener_parse(text);
	assert_non_null(root);
	assert_int_equal(results_read(p, &s, &err), 0);
	const struct rs_point *pt = &s.steps[0].sets[0].points[0];
	assert_true(pt->total.has_lag && pt->total.has_service);
	assert_true(pt->read.has_lag && pt->write.has_service);
	same_lat(root, "read.lag", &pt->read.lag);
	same_lat(root, "write.service_latency", &pt->write.service);
	same_lat(root, "total.lag", &pt->total.lag);
	same_lat(root, "read.tool_lag", &pt->read.tool_lag);
	assert_true(pt->total.has_tool_lag);
	assert_true(pt->tool_limited);
	assert_string_equal(pt->tool_limited_reason,
			    json_object_get_string(jget(root, "tool_limited_reason")));
	rs_set_free(&s);
	json_object_put(root);
	free(text);

	/* closed loop: a lag block of zeros, no service time, not flagged */
	run_to(dir, "closed.json", "--rate_iops=0");
	snprintf(p, sizeof(p), "%s/closed.json", dir);
	assert_int_equal(results_read(p, &s, &err), 0);
	pt = &s.steps[0].sets[0].points[0];
	assert_true(pt->total.has_lag);
	assert_false(pt->total.has_service);
	assert_int_equal(pt->total.lag.max, 0);
	assert_false(pt->tool_limited);
	assert_null(pt->tool_limited_reason);
	rs_set_free(&s);
}

static void test_html_shows_lag_and_flag(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct proc_out po;

	run_to(dir, "paced.json", "--rate_iops=2000");
	run_iochar(&po, dir, 0, ARGS("report", "paced.json", "-o", "r.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/r.html", dir);
	char *html = fixture_slurp(p, NULL);
	expect_has(html, "<th>p99 issue lag</th>");
	expect_has(html, "<br>(tool-limited)</td>");
	expect_has(html, "<p class=\"bad\">Tool-limited: ");
	expect_has(html, "p99 tool lag ");
	free(html);

	run_to(dir, "closed.json", "--rate_iops=0");
	run_iochar(&po, dir, 0, ARGS("report", "closed.json", "-o", "c.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/c.html", dir);
	html = fixture_slurp(p, NULL);
	expect_has(html, "<th>p99 issue lag</th>");
	assert_null(strstr(html, "tool-limited"));
	free(html);
}

/* A replay's run: the "replay" member read back as written, and the
 * HTML's "Replay lag beside latency" says kept up or behind, as the
 * run's own text does; a run without a replay has no such section. */
static void replay_run(const char *dir, const char *name, const char *log_text)
{
	char log[4400], arg[4500], out[4500];
	struct proc_out po;
	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	FILE *f = fopen(log, "w");
	assert_non_null(f);
	fputs(log_text, f);
	fclose(f);
	snprintf(arg, sizeof(arg), "--read_iolog=%s", log);
	snprintf(out, sizeof(out), "--output=%s/%s.json", dir, name);
	run_iochar(&po, dir, 0, ARGS("run", "--name=r", arg, "--ioengine=psync",
				     "--output-format=json", out));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

static void test_replay_read_back_and_shown(void **state)
{
	const char *dir = *state;
	char p[4400], text[4096];
	/* 11 reads 2 ms apart: kept up */
	int n = snprintf(text, sizeof(text), "fio version 3 iolog\n1 t add\n2 t open\n");
	for (int k = 0; k <= 10; k++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%d t read %d 4096\n",
			      100 + 2000 * k, 4096 * k);
	replay_run(dir, "ok", text);
	/* 12 reads of 16 MiB 1 us apart: behind */
	n = snprintf(text, sizeof(text), "fio version 3 iolog\n1 u add\n2 u open\n");
	for (int k = 0; k < 12; k++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%d u read %d 16777216\n",
			      10 + k, 16777216 * (k % 2));
	replay_run(dir, "late", text);
	static const char *const names[] = {"ok", "late"};
	for (int i = 0; i < 2; i++) {
		struct rs_set s;
		struct ioc_err err = {0};
		snprintf(p, sizeof(p), "%s/%s.json", dir, names[i]);
		char *json = fixture_slurp(p, NULL);
		json_object *root = json_tokener_parse(json);
		assert_non_null(root);
		assert_int_equal(results_read(p, &s, &err), 0);
		const struct rs_point *pt = &s.steps[0].sets[0].points[0];
		assert_int_equal(pt->nr_replay, 1);
		const struct rs_replay *rp = &pt->replay[0];
		json_object *jr = json_object_array_get_idx(jget(root, "replay"), 0);
		assert_string_equal(rp->name, "r");
		assert_true(rp->timed);
		assert_int_equal(rp->ios_timed, jget_u64(jr, "ios_timed"));
		assert_int_equal(rp->ios_behind, jget_u64(jr, "ios_behind"));
		assert_int_equal(rp->lag.pct[RS_P99], jget_u64(jr, "lag.p99"));
		assert_int_equal(rp->lat.pct[RS_P99], jget_u64(jr, "lat_ns.p99"));
		/* "ok" keeps up unless the machine stalls the worker past the
		 * limit (11 I/Os: p99 is the latest one); the verdict must
		 * follow the lag either way */
		bool kept = !i && rp->lag.pct[RS_P99] <= REPLAY_BEHIND_NS;
		if (!i && !kept)
			print_message("ok.log fell behind here: lag p99 %llu ns\n",
				      (unsigned long long)rp->lag.pct[RS_P99]);
		assert_string_equal(json_object_get_string(jget(jr, "verdict")),
				    kept ? "kept up" : "behind");
		assert_int_equal(rp->ios_timed, i ? 12 : 11);
		rs_set_free(&s);
		json_object_put(root);
		free(json);
		struct proc_out po;
		char in[64];
		snprintf(in, sizeof(in), "%s.json", names[i]);
		run_iochar(&po, dir, 0, ARGS("report", in, "-o", "r.html"));
		expect_exit(&po, 0);
		proc_out_free(&po);
		snprintf(p, sizeof(p), "%s/r.html", dir);
		char *html = fixture_slurp(p, NULL);
		expect_has(html, "<h2>Replay lag beside latency</h2>");
		expect_has(html, "<th>issue lag</th><th>tool lag</th><th>latency</th>");
		expect_has(html, !kept ? "<span class=\"bad\">behind: the replay could not keep up"
				       : "<span class=\"good\">kept up</span>: 0 of 11 I/Os");
		free(html);
	}
	/* a plan's replay step: its point carries the member, the report the section */
	struct proc_out po;
	snprintf(p, sizeof(p), "%s/replay.ini", dir);
	FILE *pf = fopen(p, "w");
	assert_non_null(pf);
	fprintf(pf, "[replay]\nmode=fixed\nread_iolog=%s/ok.log\nioengine=psync\n", dir);
	fclose(pf);
	run_iochar(&po, dir, 0, ARGS("plan", "replay.ini", "--out=pout"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/pout/results.json", dir);
	char *rj = fixture_slurp(p, NULL);
	expect_has(rj, "\"ios_timed\": 11");
	bool plan_kept = strstr(rj, "\"verdict\": \"kept up\"") != NULL;
	if (!plan_kept) /* as above: a stalled machine, said as such */
		expect_has(rj, "\"verdict\": \"behind\"");
	free(rj);
	run_iochar(&po, dir, 0, ARGS("report", "pout", "-o", "plan.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/plan.html", dir);
	char *ph = fixture_slurp(p, NULL);
	expect_has(ph, "<h2>Replay lag beside latency</h2>");
	expect_has(ph, plan_kept ? "<span class=\"good\">kept up</span>: 0 of 11 I/Os"
				 : "<span class=\"bad\">behind: the replay could not keep up");
	free(ph);
	/* no replay, no section */
	run_to(dir, "plain.json", "--rate_iops=0");
	run_iochar(&po, dir, 0, ARGS("report", "plain.json", "-o", "p.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/p.html", dir);
	char *html = fixture_slurp(p, NULL);
	assert_null(strstr(html, "Replay lag beside latency"));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reader_reads_lag_back, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_html_shows_lag_and_flag, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replay_read_back_and_shown, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("report_lag", tests, NULL, NULL);
}
