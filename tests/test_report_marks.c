/* test_report_marks.c - a step point whose run was tool-limited is drawn
 * with its own mark in the report's load charts (class "dp pt ...
 * tool-limited", crossed and dashed), once per such point, and the chart's
 * legend explains it; charts without one have no such entry. The fixture
 * is a real plan whose first search probe of every set is marked
 * tool-limited in its step file (a closed-loop search on the null engine
 * never is by itself; its rate-limited curve points may be). */
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

#include "harness.h"
#include "report/svg_chart.h"
#include "report_fixture.h"

static unsigned flagged(json_object *pt)
{
	json_object *v;
	return json_object_object_get_ex(pt, "tool_limited", &v) &&
	       json_object_get_boolean(v);
}

/* Marks the first probe of each search set tool-limited; returns how
 * many points of the step's load charts are tool-limited. */
static unsigned mark_step(json_object *st)
{
	const char *mode = json_object_get_string(jget(st, "mode"));
	json_object *sets = jget(st, "sets");
	unsigned n = 0;
	for (size_t k = 0; k < json_object_array_length(sets); k++) {
		json_object *set = json_object_array_get_idx(sets, k);
		if (!strcmp(mode, "search")) {
			json_object *pts = jget(set, "points");
			json_object *p0 = json_object_array_get_idx(pts, 0);
			assert_non_null(p0);
			json_object_object_add(p0, "tool_limited", json_object_new_boolean(1));
			json_object_object_add(p0, "tool_limited_reason",
					       json_object_new_string("lag 60 % of latency"));
			for (size_t q = 0; q < json_object_array_length(pts); q++)
				n += flagged(json_object_array_get_idx(pts, q));
		} else if (!strcmp(mode, "curve")) {
			json_object *cv = jget(set, "curve");
			n += flagged(jget(set, "max"));
			for (size_t q = 0; q < json_object_array_length(cv); q++)
				n += flagged(jget(json_object_array_get_idx(cv, q), "point"));
		}
	}
	return n;
}

static void test_tool_limited_marks(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct stat sb;
	unsigned want = 0;

	fixture_plan(dir, "res");
	for (unsigned i = 0;; i++) {
		snprintf(p, sizeof(p), "%s/res/steps/%03u.json", dir, i);
		if (stat(p, &sb))
			break;
		json_object *st = json_object_from_file(p);
		assert_non_null(st);
		want += mark_step(st);
		const char *text = json_object_to_json_string_ext(st, JSON_C_TO_STRING_PLAIN);
		fixture_write(p, text, strlen(text));
		json_object_put(st);
	}
	assert_true(want >= 1);

	char *html = fixture_report(dir, "res");
	/* one crossed mark per tool-limited point, each a data mark */
	unsigned marks = 0;
	for (const char *q = strstr(html, "class=\"dp pt"); q; q = strstr(q + 1, "class=\"dp pt")) {
		const char *end = strchr(q + 7, '"');
		const char *tl = strstr(q, " tool-limited");
		marks += tl && tl < end;
	}
	assert_int_equal(marks, want);
	assert_int_equal(fixture_count(html, "class=\"tl-cross\""), marks + fixture_count(html, CHART_TOOL_LIMITED_TEXT "</text>"));
	/* explained in the legend of each chart that has one, no more */
	unsigned legends = fixture_count(html, CHART_TOOL_LIMITED_TEXT "</text>");
	assert_true(legends >= 1 && legends <= marks);
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tool_limited_marks, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
