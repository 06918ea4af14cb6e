/* test_report_plans.c - the reports a new user gets from the built-in
 * plans (quick, whitepaper, four-corners, vdbench-curves, oltp) and from
 * comparing two of them, made from real short runs on the null engine
 * (a 4 MiB file, 50 ms a point, searches up to QD 16 x 2 jobs):
 *   - no section without anything in it, no per-second charts for runs
 *     too short to have a series (under 3 s), each caption once;
 *   - the submission discipline said once for the workloads sharing it;
 *   - in headless Chromium at 1024 px (tests/browser/check_layout.py): no
 *     text over another, over a marker or across the limit line, no
 *     legend entries touching, one tick format per axis, the summary
 *     table and the page no wider than the window. SKIP without chromium
 *     (scripts/deps.sh installs it); the pages measured are kept in
 *     BUILD/report-plans/. */
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

static const char *const plans[] = {"quick", "whitepaper", "four-corners", "vdbench-curves",
				    "oltp"};
#define NR_PLANS (sizeof(plans) / sizeof(plans[0]))

/* Every plan run once for all the tests, at the same time (each mostly
 * waits between its short runs), and its report NAME.html; the
 * comparison of quick and oltp in compare.html. */
static int plans_setup(void **state)
{
	char *dir = tmpdir_make();
	char cmd[16384], rc[4300];
	size_t n = 0;
	struct proc_out po;

	*state = dir;
	n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "cd '%s' && { ", dir);
	for (size_t i = 0; i < NR_PLANS; i++)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n,
				      "('%s' plan %s --ioengine=null --size=4m --filename=t-%s "
				      "--runtime=50ms --ramp_time=0 --precondition=off --max_iodepth=16 "
				      "--max_numjobs=2 --out %s >%s.log 2>&1; echo $? >%s.rc) & ",
				      iochar_path(), plans[i], plans[i], plans[i], plans[i], plans[i]);
	snprintf(cmd + n, sizeof(cmd) - n, "wait; }");
	assert_true(n < sizeof(cmd) - 16);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < NR_PLANS; i++) {
		snprintf(rc, sizeof(rc), "%s/%s.rc", dir, plans[i]);
		char *code = fixture_slurp(rc, NULL);
		if (strcmp(code, "0\n"))
			fail_msg("plan %s exited %s (its output in %s/%s.log)", plans[i], code, dir,
				 plans[i]);
		free(code);
		snprintf(rc, sizeof(rc), "%s.html", plans[i]);
		run_iochar(&po, dir, 0, ARGS("report", plans[i], "-o", rc));
		expect_exit(&po, 0);
		proc_out_free(&po);
	}
	run_iochar(&po, dir, 0, ARGS("report", "quick", "oltp", "-o", "compare.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	return 0;
}

static char *report_text(const char *dir, const char *name)
{
	char p[4300];
	snprintf(p, sizeof(p), "%s/%s.html", dir, name);
	return fixture_slurp(p, NULL);
}

/* Each <section>: something under its heading (a table, a figure, a
 * paragraph), not the heading alone. */
static void expect_sections_filled(const char *name, const char *html)
{
	for (const char *s = strstr(html, "<section id=\""); s; s = strstr(s + 1, "<section id=\"")) {
		const char *end = strstr(s, "</section>");
		assert_non_null(end);
		const char *h2 = strstr(s, "</h2>");
		assert_true(h2 && h2 < end);
		const char *body = h2 + 5;
		while (*body == '\n')
			body++;
		if (body == end)
			fail_msg("%s: section %.30s has nothing in it", name, s);
	}
}

/* No figcaption's text twice in the page. */
static void expect_captions_once(const char *name, const char *html)
{
	for (const char *c = strstr(html, "<figcaption>"); c; c = strstr(c + 1, "<figcaption>")) {
		const char *end = strstr(c, "</figcaption>");
		assert_non_null(end);
		char *cap = strndup(c, (size_t)(end - c) + 13);
		assert_non_null(cap);
		if (fixture_count(html, cap) != 1)
			fail_msg("%s: caption %u times: %s", name, fixture_count(html, cap), cap);
		free(cap);
	}
}

static void test_sections_and_captions(void **state)
{
	const char *dir = *state;
	for (size_t i = 0; i <= NR_PLANS; i++) {
		const char *name = i < NR_PLANS ? plans[i] : "compare";
		char *html = report_text(dir, name);
		expect_sections_filled(name, html);
		expect_captions_once(name, html);
		/* 50 ms points: no second of series to draw */
		assert_null(strstr(html, "<section id=\"series\">"));
		assert_null(strstr(html, "data-chart=\"series\""));
		/* but what there is to show is there */
		expect_has(html, "<section id=\"summary\">");
		expect_has(html, "<section id=\"curves\">");
		expect_has(html, "<section id=\"percentiles\">");
		free(html);
	}
}

/* Gives every target set of every step of DIR/NAME the same discipline,
 * each worded as the plan words a later step's ("probed in an earlier
 * step"); the first step's as where the probe ran. */
static unsigned give_discipline(const char *dir, const char *name)
{
	char p[4400];
	struct stat sb;
	unsigned n = 0;
	for (unsigned i = 0;; i++) {
		snprintf(p, sizeof(p), "%s/%s/steps/%03u.json", dir, name, i);
		if (stat(p, &sb))
			break;
		json_object *st = json_object_from_file(p), *sets = jget(st, "sets");
		for (size_t k = 0; k < json_object_array_length(sets); k++, n++) {
			json_object *d = json_object_new_object();
			json_object_object_add(d, "summary", json_object_new_string(
				i ? "io_uring ring_setup=defer_taskrun (probed in an earlier step: 9k IOPS)"
				  : "io_uring ring_setup=defer_taskrun (probed at iodepth 1: 9k IOPS)"));
			json_object_object_add(json_object_array_get_idx(sets, k), "discipline", d);
		}
		const char *text = json_object_to_json_string_ext(st, JSON_C_TO_STRING_PLAIN);
		fixture_write(p, text, strlen(text));
		json_object_put(st);
	}
	return n;
}

static void test_discipline_once(void **state)
{
	const char *dir = *state;
	char cmd[9000];

	snprintf(cmd, sizeof(cmd), "cp -r '%s/whitepaper' '%s/wp-disc'", dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_true(give_discipline(dir, "wp-disc") >= 12);
	char *html = fixture_report(dir, "wp-disc");
	assert_int_equal(fixture_count(html, "Submission discipline"), 1);
	expect_has(html, "<p>Submission discipline of wp-disc (every workload): io_uring "
			 "ring_setup=defer_taskrun (probed at iodepth 1: 9k IOPS).</p>");
	free(html);
}

static void test_layout_in_chromium(void **state)
{
	const char *dir = *state;
	char bin[4096], out[4200], cmd[9000];

	if (system("command -v chromium >/dev/null 2>&1") != 0) {
		printf("SKIP: chromium not installed (scripts/deps.sh installs it)\n");
		skip();
	}
	snprintf(bin, sizeof(bin), "%s", iochar_path());
	snprintf(out, sizeof(out), "%s/report-plans", dirname(bin));
	for (size_t i = 0; i <= NR_PLANS; i++) {
		const char *name = i < NR_PLANS ? plans[i] : "compare";
		snprintf(cmd, sizeof(cmd),
			 "python3 tests/browser/check_layout.py chromium '%s/%s.html' '%s/%s' 1024",
			 dir, name, out, name);
		int st = system(cmd);
		assert_true(WIFEXITED(st));
		if (WEXITSTATUS(st) != 0)
			fail_msg("%s's report: its layout fails in Chromium (above; pages in %s)", name,
				 out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_and_captions),
		cmocka_unit_test(test_discipline_once),
		cmocka_unit_test(test_layout_in_chromium),
	};
	return cmocka_run_group_tests(tests, plans_setup, tmpdir_teardown);
}
