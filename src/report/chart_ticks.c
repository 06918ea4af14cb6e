/* chart_ticks.c - an axis's tick labels in one format: the unit chosen
 * from the axis's largest tick (never "0 ns" on a millisecond axis, never
 * "100K" above "80,000"), the decimals from its step, the same for every
 * tick. A log axis's ticks are powers of ten, each in its own unit
 * ("100 µs", "1 ms"): one unit for four decades would print 0.0001 ms. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/svg_chart.h"

struct tick_fmt {
	double scale;
	const char *suffix;
	int decimals;
};

/* The unit of a linear axis whose largest tick is top. */
static struct tick_fmt unit_of(enum axis_unit unit, double top)
{
	switch (unit) {
	case AXIS_UNIT_LAT:
		return top < 1e3   ? (struct tick_fmt){1, " ns", 0}
		       : top < 1e6 ? (struct tick_fmt){1e3, " \xc2\xb5s", 0}
		       : top < 1e9 ? (struct tick_fmt){1e6, " ms", 0}
				   : (struct tick_fmt){1e9, " s", 0};
	case AXIS_UNIT_IOPS:
		return top < 1e5   ? (struct tick_fmt){1, "", 0}
		       : top < 1e6 ? (struct tick_fmt){1e3, "K", 0}
				   : (struct tick_fmt){1e6, "M", 0};
	case AXIS_UNIT_BW:
		return top < 1e9 ? (struct tick_fmt){1e6, " MB/s", 0}
				 : (struct tick_fmt){1e9, " GB/s", 0};
	default:
		return (struct tick_fmt){1, "", 0};
	}
}

static struct tick_fmt axis_tick_fmt(const struct axis *a)
{
	double top = 0, step = 0;
	for (unsigned i = 0; i < a->nr_ticks; i++) {
		top = fmax(top, fabs(a->ticks[i]));
		if (i)
			step = step ? fmin(step, a->ticks[i] - a->ticks[i - 1])
				    : a->ticks[i] - a->ticks[i - 1];
	}
	struct tick_fmt f = unit_of(a->unit, top);
	if (step > 0 && isfinite(step)) {
		double d = ceil(-log10(step / f.scale) - 1e-9);
		f.decimals = d < 0 ? 0 : d > 3 ? 3 : (int)d;
	}
	return f;
}

/* v with decimals, its whole part in thousands ("12,500.5"). */
static void grouped(char *buf, double v, int decimals)
{
	char t[NUMFMT_MAX];
	snprintf(t, sizeof(t), "%.*f", decimals, fabs(v));
	char *dot = strchr(t, '.');
	size_t whole = dot ? (size_t)(dot - t) : strlen(t), o = 0;
	if (v < 0 && strspn(t, "0.") != strlen(t))
		buf[o++] = '-';
	for (size_t i = 0; i < whole && o < NUMFMT_MAX - 2; i++) {
		if (i && (whole - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = t[i];
	}
	snprintf(buf + o, NUMFMT_MAX - o, "%s", dot ? dot : "");
}

/* "1.00 µs" -> "1 µs": a log axis's ticks are round numbers. */
static void trim_zeros(char *buf)
{
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = dot + 1;
	while (*end >= '0' && *end <= '9')
		end++;
	char *z = end;
	while (z > dot + 1 && z[-1] == '0')
		z--;
	if (z == dot + 1)
		z = dot;
	memmove(z, end, strlen(end) + 1);
}

void axis_tick_label(const struct axis *a, double v, char *buf)
{
	if (a->fmt) { /* the caller's own format */
		a->fmt(buf, v);
		trim_zeros(buf);
		return;
	}
	if (a->kind == AXIS_LOG) {
		if (a->unit == AXIS_UNIT_LAT)
			numfmt_lat(buf, v);
		else if (a->unit == AXIS_UNIT_IOPS)
			numfmt_iops(buf, v);
		else if (a->unit == AXIS_UNIT_BW)
			numfmt_bw(buf, v);
		else
			snprintf(buf, NUMFMT_MAX, "%g", v);
		trim_zeros(buf);
		return;
	}
	struct tick_fmt f = axis_tick_fmt(a);
	grouped(buf, v / f.scale, f.decimals);
	size_t n = strlen(buf);
	snprintf(buf + n, NUMFMT_MAX - n, "%s", f.suffix);
}
