/* test_chart_place.c - the chart's layout rules on their own: one tick
 * format per axis (unit from the largest tick, decimals from the step),
 * the label placer (no label over a label, a marker or a rule, inside the
 * plot, a leader line when it sits away, left out when nothing is free),
 * and the text width estimate against Chromium's measure. The same rules
 * on real reports in a real browser: test_report_plans.c. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_place.h"
#include "report/numfmt.h"
#include "report/svg_chart.h"

/* The ticks of a linear axis of unit u fitted to [0, hi], joined by "|". */
static void ticks_of(enum axis_unit u, double hi, char *out, size_t len)
{
	struct axis a = {.kind = AXIS_LINEAR, .unit = u};
	char b[NUMFMT_MAX];
	axis_fit(&a, 0, hi, true);
	out[0] = '\0';
	for (unsigned i = 0; i < a.nr_ticks; i++) {
		axis_tick_label(&a, a.ticks[i], b);
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? "|" : "", b);
	}
}

static void test_ticks_examples(void **state)
{
	char t[512];
	/* '100K' above '80,000' was the bug */
	ticks_of(AXIS_UNIT_IOPS, 95000, t, sizeof(t));
	assert_string_equal(t, "0K|20K|40K|60K|80K|100K");
	ticks_of(AXIS_UNIT_IOPS, 73000, t, sizeof(t));
	assert_string_equal(t, "0|20,000|40,000|60,000|80,000");
	ticks_of(AXIS_UNIT_IOPS, 1.4e6, t, sizeof(t));
	assert_string_equal(t, "0.0M|0.5M|1.0M|1.5M");
	/* '0 ns' under milliseconds was the other */
	ticks_of(AXIS_UNIT_LAT, 1.45e6, t, sizeof(t));
	assert_string_equal(t, "0.0 ms|0.5 ms|1.0 ms|1.5 ms");
	ticks_of(AXIS_UNIT_LAT, 2.6e3, t, sizeof(t));
	assert_string_equal(t, "0 \xc2\xb5s|1 \xc2\xb5s|2 \xc2\xb5s|3 \xc2\xb5s");
	/* the unit is the top tick's: 1,000 ns is 1 µs */
	ticks_of(AXIS_UNIT_LAT, 900, t, sizeof(t));
	assert_string_equal(t, "0.0 \xc2\xb5s|0.2 \xc2\xb5s|0.4 \xc2\xb5s|0.6 \xc2\xb5s|0.8 \xc2\xb5s|1.0 \xc2\xb5s");
	ticks_of(AXIS_UNIT_LAT, 700, t, sizeof(t));
	assert_string_equal(t, "0 ns|200 ns|400 ns|600 ns|800 ns");
	ticks_of(AXIS_UNIT_BW, 38e12, t, sizeof(t));
	assert_string_equal(t, "0 GB/s|10,000 GB/s|20,000 GB/s|30,000 GB/s|40,000 GB/s");
	ticks_of(AXIS_UNIT_NONE, 1, t, sizeof(t));
	assert_string_equal(t, "0.0|0.2|0.4|0.6|0.8|1.0");
	/* a log axis: powers of ten, each in its unit, whole numbers */
	struct axis l = {.kind = AXIS_LOG, .unit = AXIS_UNIT_LAT};
	char b[NUMFMT_MAX];
	axis_fit(&l, 150, 3e6, false);
	axis_tick_label(&l, l.ticks[0], b);
	assert_string_equal(b, "100 ns");
	axis_tick_label(&l, l.ticks[l.nr_ticks - 1], b);
	assert_string_equal(b, "10 ms");
}

/* What follows the digits, and how many decimals. */
static void form(const char *s, char *suffix, int *decimals)
{
	const char *p = s + (*s == '-');
	while ((*p >= '0' && *p <= '9') || *p == ',')
		p++;
	*decimals = 0;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			++*decimals;
	strcpy(suffix, p);
}

/* Over ranges from nanoseconds to terabytes: every tick of an axis in the
 * same form as its largest, and none "0 ns" unless the axis is in ns. */
static void test_ticks_one_format(void **state)
{
	static const enum axis_unit units[] = {AXIS_UNIT_NONE, AXIS_UNIT_IOPS, AXIS_UNIT_BW,
					       AXIS_UNIT_LAT};
	char b[NUMFMT_MAX], s0[NUMFMT_MAX], s[NUMFMT_MAX];
	unsigned axes = 0;
	for (unsigned u = 0; u < 4; u++)
		for (double hi = 0.37; hi < 1e14; hi *= 1.93) {
			struct axis a = {.kind = AXIS_LINEAR, .unit = units[u]};
			axis_fit(&a, 0, hi, true);
			int d0 = -1, d;
			for (unsigned i = 0; i < a.nr_ticks; i++) {
				axis_tick_label(&a, a.ticks[i], b);
				form(b, i ? s : s0, i ? &d : &d0);
				if (i && (strcmp(s, s0) || d != d0))
					fail_msg("unit %u, 0..%g: '%s' beside a tick in '%s' with %d decimals",
						 u, hi, b, s0, d0);
			}
			assert_true(strcmp(s0, " ns") || a.max < 1e3);
			axes++;
		}
	assert_true(axes > 150);
}

static bool meet(const struct place_box *a, const struct place_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* A crowd of markers, a rule, and a label for each marker: every label
 * placed is inside the area and clear of every other label, marker and
 * the rule; those that cannot be placed are reported, not overlapped. */
static void test_placer_keeps_clear(void **state)
{
	struct placer p;
	struct place_box marks[60], got[60];
	unsigned placed = 0, leaders = 0, dropped = 0;
	const double rule_y = 120;

	placer_init(&p, 50, 40, 700, 320);
	placer_add(&p, PLACE_RULE, 50, rule_y, 700, rule_y);
	srand(7);
	for (unsigned i = 0; i < 60; i++) {
		/* two tight clusters and some strays, like a search's climb */
		double x = i < 25 ? 300 + rand() % 40 : i < 50 ? 600 + rand() % 60 : 60 + rand() % 620;
		double y = i < 25 ? 200 + rand() % 30 : i < 50 ? 110 + rand() % 20 : 50 + rand() % 260;
		marks[i] = (struct place_box){x - 6, y - 6, x + 6, y + 6};
		assert_int_equal(placer_add(&p, PLACE_MARK, x - 6, y - 6, x + 6, y + 6), 0);
	}
	for (unsigned i = 0; i < 60; i++) {
		struct place_box b;
		double ax = (marks[i].x0 + marks[i].x1) / 2, ay = (marks[i].y0 + marks[i].y1) / 2;
		enum place_result r = placer_place(&p, ax, ay, 6, text_px("16\xc3\x97" "2", 10, false),
						   12, &b);
		if (r == PLACED_NONE) {
			dropped++;
			continue;
		}
		leaders += r == PLACED_LEADER;
		assert_true(b.x0 >= 50 && b.x1 <= 700 && b.y0 >= 40 && b.y1 <= 320);
		assert_false(b.y0 < rule_y && rule_y < b.y1);
		for (unsigned k = 0; k < 60; k++)
			if (meet(&b, &marks[k]))
				fail_msg("label %u over marker %u", i, k);
		for (unsigned k = 0; k < placed; k++)
			if (meet(&b, &got[k]))
				fail_msg("label %u over label %u", i, k);
		got[placed++] = b;
	}
	/* the crowd is too dense for all of them beside their points: some
	 * go out on leaders; the strays all fit */
	assert_true(placed >= 40);
	assert_true(leaders >= 1);
	assert_int_equal(placed + dropped, 60);
	placer_free(&p);
}

/* A chart whose one point carries more labels than fit around it: the
 * first beside it, later ones on leaders, the rest left out and counted;
 * labels come after every marker in the SVG (painted over nothing). */
static void test_chart_labels_last(void **state)
{
	struct axis x = {.kind = AXIS_LINEAR, .label = "IOPS", .unit = AXIS_UNIT_IOPS};
	struct axis y = {.kind = AXIS_LOG, .label = "latency", .unit = AXIS_UNIT_LAT};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct chart c;

	axis_fit(&x, 0, 1e5, true);
	axis_fit(&y, 1e4, 1e7, false);
	assert_int_equal(chart_begin(&c, f, "curve", "t", &x, &y, NULL), 0);
	chart_axes(&c);
	chart_hrule(&c, false, 2e6, "limit", "limit 2 ms");
	chart_mark(&c, false, 5e4, 1.9e6, "best: 50,000, 1.90 ms");
	for (unsigned i = 0; i < 200; i++)
		assert_true(chart_point_label(&c, false, 5e4, 1.9e6, "label"));
	chart_point(&c, 0, false, 5e4, 1.9e6, CHART_PT_FILLED, "tip");
	assert_int_equal(chart_end(&c), 0);
	fclose(f);
	const char *last_mark = strstr(buf, "class=\"dp pt");
	const char *first_label = strstr(buf, "class=\"pt-label\"");
	assert_non_null(last_mark);
	assert_non_null(first_label);
	assert_true(last_mark < first_label);
	assert_non_null(strstr(buf, "class=\"leader\""));
	assert_non_null(strstr(buf, "data-dropped=\""));
	assert_non_null(strstr(buf, ">limit 2 ms</text>"));
	assert_non_null(strstr(buf, "<title>limit 2 ms</title></line>"));
	assert_non_null(strstr(buf, ">best: 50,000, 1.90 ms</text>"));
	/* the circled point's label is its tooltip too */
	assert_non_null(strstr(buf, "<title>best: 50,000, 1.90 ms</title></circle>"));
	free(buf);
}

/* Chromium's getBBox() widths of these strings in DejaVu Sans (the
 * report's font on Debian), measured once: the estimate is within 2 %. */
static void test_text_width(void **state)
{
	static const struct {
		const char *s;
		double px, measured;
		bool bold;
	} m[] = {
		{"random bs=4k rwmixread=100", 11, 173.8, false},
		{"rate asked, % of the maximum", 12, 185.5, false},
		{"16\xc3\x97" "2 100% 0123456789", 10, 126.0, false},
		{"best: 27.4M, 1.15 \xc2\xb5s", 12, 138.6, true},
		{"abcdefghijklmnopqrstuvwxyz", 11, 161.3, false},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 11, 192.7, false},
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		double w = text_px(m[i].s, m[i].px, m[i].bold);
		if (fabs(w - m[i].measured) > 0.02 * m[i].measured)
			fail_msg("'%s': estimated %.1f px, Chromium %.1f", m[i].s, w, m[i].measured);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_examples),
		cmocka_unit_test(test_ticks_one_format),
		cmocka_unit_test(test_placer_keeps_clear),
		cmocka_unit_test(test_chart_labels_last),
		cmocka_unit_test(test_text_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
