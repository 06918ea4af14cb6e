/* test_report_units.c - the report's building blocks on their own: number
 * formats, nice axis ticks, and a chart's data-point count. */
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

#include "report/numfmt.h"
#include "report/svg_chart.h"

static void test_numbers(void **state)
{
	char b[NUMFMT_MAX];
	assert_string_equal(numfmt_thousands(b, 1234567.4), "1,234,567");
	assert_string_equal(numfmt_thousands(b, -1000), "-1,000");
	assert_string_equal(numfmt_thousands(b, 999), "999");
	assert_string_equal(numfmt_iops(b, 98765), "98,765");
	assert_string_equal(numfmt_iops(b, 987600), "988K");
	assert_string_equal(numfmt_iops(b, 36160000), "36.2M");
	assert_string_equal(numfmt_iops(b, NAN), "\xe2\x80\x93");
	assert_string_equal(numfmt_bw(b, 123.4e6), "123 MB/s");
	assert_string_equal(numfmt_bw(b, 45.6e6), "45.6 MB/s");
	assert_string_equal(numfmt_bw(b, 1.234e9), "1.23 GB/s");
	assert_string_equal(numfmt_bw(b, 0), "0 MB/s");
	assert_string_equal(numfmt_lat(b, 850), "850 ns");
	assert_string_equal(numfmt_lat(b, 123400), "123 \xc2\xb5s");
	assert_string_equal(numfmt_lat(b, 12.34e6), "12.3 ms");
	assert_string_equal(numfmt_lat(b, 1.234e9), "1.23 s");
	assert_string_equal(numfmt_size(b, 4096), "4K");
	assert_string_equal(numfmt_size(b, 1 << 20), "1M");
	assert_string_equal(numfmt_size(b, 1536), "1536");
	assert_string_equal(numfmt_pct(b, 20), "+20.0 %");
	assert_string_equal(numfmt_pct(b, -3.04), "-3.0 %");
	/* nothing overflows the buffer, whatever the value */
	assert_true(strlen(numfmt_lat(b, 1e300)) < NUMFMT_MAX);
	assert_true(strlen(numfmt_size(b, 1e300)) < NUMFMT_MAX);
}

static bool nice_step(double step)
{
	double m = step / pow(10, floor(log10(step)));
	return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9 ||
	       fabs(m - 10) < 1e-9;
}

static void test_nice_ticks(void **state)
{
	static const double highs[] = {0.7, 1, 3.3, 17, 99, 101, 1234, 73e6, 4.4e13};
	for (size_t i = 0; i < sizeof(highs) / sizeof(highs[0]); i++) {
		struct axis a = {.kind = AXIS_LINEAR};
		axis_fit(&a, 0, highs[i], true);
		assert_true(a.nr_ticks >= 3 && a.nr_ticks <= 11);
		assert_true(a.ticks[0] == 0 && a.min == 0);
		assert_true(a.max >= highs[i]);
		double step = a.ticks[1] - a.ticks[0];
		if (!nice_step(step))
			fail_msg("range 0..%g: step %g is not 1, 2 or 5 x 10^k", highs[i], step);
		/* the axis ends at its last tick, at most one step above the data */
		assert_true(fabs(a.ticks[a.nr_ticks - 1] - a.max) < step * 1e-6);
		assert_true(a.max - highs[i] < step);
	}
	/* 0..73M: 0, 20M, 40M, 60M, 80M */
	struct axis a = {.kind = AXIS_LINEAR};
	axis_fit(&a, 0, 73e6, true);
	assert_int_equal(a.nr_ticks, 5);
	assert_true(a.ticks[4] == 80e6);
	/* log: whole decades around the data */
	struct axis l = {.kind = AXIS_LOG};
	axis_fit(&l, 26, 1.44e8, false);
	assert_true(l.min == 10 && l.max == 1e9);
	assert_int_equal(l.nr_ticks, 9);
	/* empty or broken data still gives a usable axis */
	axis_fit(&a, NAN, NAN, true);
	assert_true(a.max > a.min && a.nr_ticks >= 2);
	axis_fit(&l, 0, 0, false);
	assert_true(l.max > l.min && l.min > 0);
}

static void test_chart_counts_points(void **state)
{
	static const char *const cats[] = {"a", "b", "c", "d"};
	struct axis x = {.kind = AXIS_CATEGORY, .label = "workload", .cats = cats, .nr_cats = 4};
	struct axis y = {.kind = AXIS_LINEAR, .label = "IOPS"};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "latency"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct chart c;

	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, 300, true);
	axis_fit(&y2, 0, 10, true);
	assert_int_equal(chart_begin(&c, f, "bars", "t <&> \"q\"", &x, &y, &y2), 0);
	chart_axes(&c);
	for (unsigned i = 0; i < 3; i++)
		chart_bar(&c, i, 0, 1, 100.0 * (i + 1), "tip");
	const double xs[] = {0, 1, 2, 3}, ys[] = {1, NAN, 3, 4};
	chart_line(&c, 1, true, xs, ys, 4, NULL);
	chart_legend_add(&c, 0, false, "bars");
	assert_int_equal(chart_end(&c), 0);
	fclose(f);
	assert_non_null(strstr(buf, "data-chart=\"bars\" data-points=\"6\""));
	unsigned n = 0;
	for (const char *p = strstr(buf, "class=\"dp "); p; p = strstr(p + 1, "class=\"dp "))
		n++;
	assert_int_equal(n, 6); /* 3 bars, 3 finite points */
	/* the title is escaped, nothing is fetched */
	assert_non_null(strstr(buf, "t &lt;&amp;&gt; &quot;q&quot;"));
	assert_null(strstr(buf, "http"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_nice_ticks),
		cmocka_unit_test(test_chart_counts_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
