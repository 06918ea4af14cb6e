/* svg_chart.h - small inline-SVG charts for the HTML report: axes with nice
 * ticks (linear, log, categories), grouped bars, lines with point markers,
 * a marked point, a legend. Layout-free: the report decides what to draw.
 *
 * A chart is drawn into memory and written out by chart_end as one
 * <svg class="chart" data-chart=KIND data-points=N> element, where N is
 * the number of data marks drawn (each bar and each line point carries
 * class "dp"), so tests can count what was drawn. Colours are the
 * Okabe-Ito palette (colour-blind safe); lines also differ in dash and
 * marker shape. No script, no external resource.
 */
#ifndef IOCHAR_REPORT_SVG_CHART_H
#define IOCHAR_REPORT_SVG_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/chart_place.h"

enum axis_kind { AXIS_LINEAR, AXIS_LOG, AXIS_CATEGORY };

/* What an axis counts: its ticks share one unit and one precision, chosen
 * from the axis's range (chart_ticks.c). */
enum axis_unit {
	AXIS_UNIT_NONE, /* plain numbers */
	AXIS_UNIT_IOPS, /* "80,000", or "0.5M" .. "1.5M" */
	AXIS_UNIT_BW,   /* bytes/s: "MB/s" or "GB/s" */
	AXIS_UNIT_LAT,  /* ns: "ns", "µs", "ms" or "s" */
};

/* Formats one tick value on its own: each tick alone, so a format that
 * changes unit with the value mixes formats on one axis; prefer unit. */
typedef char *(*axis_fmt)(char *buf, double v);

struct axis {
	enum axis_kind kind;
	const char *label;          /* with its unit */
	enum axis_unit unit;        /* with fmt NULL: the ticks' one format */
	axis_fmt fmt;               /* the caller's own format, else NULL */
	double min, max;            /* set by axis_fit */
	double ticks[16];
	unsigned nr_ticks;
	const char *const *cats;    /* AXIS_CATEGORY */
	unsigned nr_cats;
};

#define CHART_MAX_LEGEND 16
#define CHART_LEGEND_TEXT 96

struct chart_label; /* a label waiting for its place (svg_chart.c) */

struct chart {
	FILE *out;
	FILE *f;                    /* the body, in memory */
	char *body;
	size_t body_len;
	const char *kind, *title;
	double w, h;
	double left, right, top, bottom; /* plot area, px */
	struct axis *x, *y, *y2;
	unsigned points;
	bool halo;                  /* lines get a white outline, hollow markers */
	char legend[CHART_MAX_LEGEND][CHART_LEGEND_TEXT]; /* copies: callers' names may not live on */
	int legend_style[CHART_MAX_LEGEND]; /* 0 bar, 1 line; series index = slot */
	int legend_series[CHART_MAX_LEGEND];
	unsigned nr_legend;
	struct placer pl;           /* what labels must keep clear of */
	struct chart_label *labels; /* placed at chart_end, once every mark is known */
	unsigned nr_labels, cap_labels, dropped;
};

/* Fit a numeric axis to the data range [lo, hi] with about 5 nice ticks.
 * Linear axes start at 0 when from_zero; log axes span whole decades. */
void axis_fit(struct axis *a, double lo, double hi, bool from_zero);

/* Start a chart of kind (data-chart attribute: "bars", "curve", ...).
 * The axes must outlive the chart; y2 may be NULL. 0 or -ENOMEM. */
int chart_begin(struct chart *c, FILE *out, const char *kind, const char *title,
		struct axis *x, struct axis *y, struct axis *y2);

/* The label of tick value v on axis a (the format its whole axis shares). */
void axis_tick_label(const struct axis *a, double v, char *buf);

/* Grid, ticks, tick labels and axis titles. */
void chart_axes(struct chart *c);

/* Pixel position of a value on x, y or (second) y2. */
double chart_px_x(const struct chart *c, double v);
double chart_px_y(const struct chart *c, const struct axis *a, double v);

/* A bar of series s (of nr) in category cat, height v on y; tip is its
 * tooltip text. */
void chart_bar(struct chart *c, unsigned cat, unsigned s, unsigned nr, double v,
	       const char *tip);

/* A line of series s through n points (xs on x; for a category axis, the
 * category index), ys on y or y2; each point gets a marker with tips[i]
 * (may be NULL); with c->halo set, a white outline and hollow markers
 * keep it readable over bars. Points that are not finite (or <= 0 on a log axis) are
 * skipped. */
void chart_line(struct chart *c, unsigned s, bool on_y2, const double *xs,
		const double *ys, unsigned n, const char *const *tips);

/* A line through the points of series s, without markers (chart_point
 * draws those, each in its own style). */
void chart_path(struct chart *c, unsigned s, bool on_y2, const double *xs,
		const double *ys, unsigned n);

/* The markers of series s alone, joined by no line: for values of
 * unrelated categories (a latency per workload), where a line would
 * suggest a trend that is not there. */
void chart_points(struct chart *c, unsigned s, bool on_y2, const double *xs,
		  const double *ys, unsigned n, const char *const *tips);

/* How one data point is drawn (chart_point). */
enum chart_point_style {
	CHART_PT_FILLED, /* an ordinary point */
	CHART_PT_HOLLOW, /* one that failed its test: over the limit, not reached */
	CHART_PT_SQUARE, /* one of another kind: the closed-loop maximum */
	/* or'd with one of the above: its run was tool-limited (iochar's own
	 * lateness was a material share of the latency): the shape dashed,
	 * crossed, its class gains "tool-limited" */
	CHART_PT_TOOL_LIMITED = 0x10,
};

/* One data point of series s at (x, y), drawn in style (may carry
 * CHART_PT_TOOL_LIMITED), with tooltip tip (may be NULL); it counts as a
 * data mark. */
void chart_point(struct chart *c, unsigned s, bool on_y2, double x, double y,
		 int style, const char *tip);

/* A small label for the point at (x, y). Every label is placed when the
 * chart ends, once all its marks are drawn (chart_place.h): beside its
 * point where it overlaps no text, marker or rule and stays inside the
 * plot, else farther with a leader line, else left out (the point keeps
 * its tooltip; the chart's data-dropped counts such labels). Returns
 * false only when it cannot be kept (no point there, no memory). */
bool chart_point_label(struct chart *c, bool on_y2, double x, double y,
		       const char *text);

/* A highlighted point (the chosen one) with a text label, placed as point
 * labels are but before them; the circle carries the label as its
 * tooltip too. */
void chart_mark(struct chart *c, bool on_y2, double x, double y, const char *label);

/* A horizontal rule at value v on y (or y2) across the plot, of class cls
 * ("limit"), with its label above or below it at its right end (else
 * elsewhere along it): nothing else is placed across it. Nothing when v
 * is outside the axis. */
void chart_hrule(struct chart *c, bool on_y2, double v, const char *cls,
		 const char *label);

/* How a legend entry is drawn; false/true stand for bar/line. */
enum chart_legend_style {
	CHART_LEGEND_BAR = 0,
	CHART_LEGEND_LINE = 1,
	CHART_LEGEND_POINT = 2,  /* a marker alone (chart_points) */
	CHART_LEGEND_HOLLOW = 3, /* CHART_PT_HOLLOW */
	CHART_LEGEND_SQUARE = 4, /* CHART_PT_SQUARE */
	CHART_LEGEND_TOOL_LIMITED = 5, /* CHART_PT_TOOL_LIMITED */
};

/* The legend's words for CHART_PT_TOOL_LIMITED. */
#define CHART_TOOL_LIMITED_TEXT "tool-limited: iochar's own lateness is a material share of the latency"


/* Add a legend entry for series s, drawn in style (enum chart_legend_style);
 * name is copied (cut at CHART_LEGEND_TEXT - 1 bytes). */
void chart_legend_add(struct chart *c, unsigned s, int style, const char *name);

/* Write the chart to out and release it. 0 or -EIO. */
int chart_end(struct chart *c);

/* Write s with <, >, &, " escaped. */
void html_escape(FILE *f, const char *s);

#endif
