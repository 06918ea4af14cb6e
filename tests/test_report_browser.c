/* test_report_browser.c - the report opened in a real browser: makes a
 * small plan's results and its report, then runs
 * tests/browser/test_report_browser.sh (headless Chromium: no console
 * message, no network request, every chart in the DOM with its data
 * points, a screenshot that is not blank). SKIP when chromium is absent;
 * CI installs it (scripts/deps.sh). The screenshot is kept in
 * BUILD/report-browser/report.png. A second report, of a run over three
 * hosts (tests/fixtures/hosts/run-hosts.json: real `mpirun` output with a
 * lost and a failed host edited in), must show its per-host table with
 * every host row and the total (BUILD/report-browser-hosts/). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "report_fixture.h"

/* Open dir/report.html in the browser check, its files in BUILD/sub. */
static void browser_check(const char *dir, const char *sub)
{
	char html[4200], out[4200], cmd[9000], bin[4096];

	snprintf(html, sizeof(html), "%s/report.html", dir);
	snprintf(bin, sizeof(bin), "%s", iochar_path());
	snprintf(out, sizeof(out), "%s/%s", dirname(bin), sub);
	snprintf(cmd, sizeof(cmd), "tests/browser/test_report_browser.sh '%s' '%s'", html, out);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();
	if (WEXITSTATUS(st) != 0)
		fail_msg("the report failed in the browser (logs in %s)", out);
}

static void test_report_in_chromium(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	fixture_plan(dir, "res");
	run_iochar(&po, dir, 0, (const char *const[]){"report", "res", "-o", "report.html", NULL});
	expect_exit(&po, 0);
	proc_out_free(&po);
	browser_check(dir, "report-browser");
}

static void test_host_report_in_chromium(void **state)
{
	const char *dir = *state;
	char in[4200], cwd[4096];
	struct proc_out po;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(in, sizeof(in), "%s/tests/fixtures/hosts/run-hosts.json", cwd);
	run_iochar(&po, dir, 0, (const char *const[]){"report", in, "-o", "report.html", NULL});
	expect_exit(&po, 0);
	proc_out_free(&po);
	/* what the browser must then show: check_dom.py compares the two */
	snprintf(in, sizeof(in), "%s/report.html", dir);
	char *html = fixture_slurp(in, NULL);
	expect_has(html, "<table class=\"hosts\" data-hosts=\"3\"");
	free(html);
	browser_check(dir, "report-browser-hosts");
}

/* Many workloads with long names: tilted labels must clear the axis
 * title and the chart's edge, long names are cut with the whole name as a
 * tooltip, and nothing overlaps (the layout check in the browser). */
static void test_many_long_workloads_in_chromium(void **state)
{
	const char *dir = *state;
	struct synth_workload w[16];
	char labels[16][64];

	for (unsigned i = 0; i < 16; i++) {
		snprintf(labels[i], sizeof(labels[i]), i == 0 ? "a-workload-with-a-name-far-too-long-to-print-%u"
							      : "random-%uk-read%u-mix",
			 i == 0 ? 4 : 4u << (i / 4), (i % 4) * 25);
		w[i] = (struct synth_workload){labels[i], 1e4 * (1 + i) * (i % 3 + 1), 0.05, 4};
	}
	fixture_synthetic(dir, "many", w, 16);
	char *html = fixture_report_html(dir, "report.html", ARGS("many"));
	expect_has(html, "<title>a-workload-with-a-name-far-too-long-to-print-4</title>");
	expect_has(html, "a-workload-with-a-name-far-to\u2026</text>");
	free(html);
	browser_check(dir, "report-browser-many");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_report_in_chromium, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_host_report_in_chromium, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_many_long_workloads_in_chromium, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
