/* test_report_browser.c - the report opened in a real browser: makes a
 * small plan's results and its report, then runs
 * tests/browser/test_report_browser.sh (headless Chromium: no console
 * message, no network request, every chart in the DOM with its data
 * points, a screenshot that is not blank). SKIP when chromium is absent;
 * CI installs it (scripts/deps.sh). The screenshot is kept in
 * BUILD/report-browser/report.png. */
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

#include "harness.h"
#include "report_fixture.h"

static int setup(void **state)
{
	*state = tmpdir_make();
	return 0;
}

static int teardown(void **state)
{
	tmpdir_remove(*state);
	return 0;
}

static void test_report_in_chromium(void **state)
{
	const char *dir = *state;
	char html[4200], out[4200], cmd[9000], bin[4096];
	struct proc_out po;

	fixture_plan(dir, "res");
	run_iochar(&po, dir, 0, (const char *const[]){"report", "res", "-o", "report.html", NULL});
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(html, sizeof(html), "%s/report.html", dir);
	snprintf(bin, sizeof(bin), "%s", iochar_path());
	snprintf(out, sizeof(out), "%s/report-browser", dirname(bin));
	snprintf(cmd, sizeof(cmd), "tests/browser/test_report_browser.sh '%s' '%s'", html, out);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();
	if (WEXITSTATUS(st) != 0)
		fail_msg("the report failed in the browser (logs in %s)", out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_report_in_chromium, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
