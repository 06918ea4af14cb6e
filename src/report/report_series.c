/* report_series.c - the report's charts over time: each headline point's
 * per-second IOPS and latency, and a preconditioning step's rounds toward
 * steady state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/report_parts.h"
#include "report/svg_chart.h"

static void series_chart(struct report_ctx *r, const struct rs_set *set,
			 const struct wl_ref *w)
{
	const struct rs_point *p = w->p;
	char title[400], wl[300];
	double imax = 0, lmax = 0;

	if (!report_series_worth(p))
		return;
	double *xs = calloc(p->nr_iv, sizeof(double)), *is = calloc(p->nr_iv, sizeof(double));
	double *ls = calloc(p->nr_iv, sizeof(double));
	if (!xs || !is || !ls)
		goto out;
	for (unsigned i = 0; i < p->nr_iv; i++) {
		xs[i] = i + 0.5; /* the middle of second [i, i+1) */
		is[i] = p->iv[i].iops;
		ls[i] = p->iv[i].lat_mean_ns;
		if (isfinite(is[i]))
			imax = fmax(imax, is[i]);
		if (isfinite(ls[i]))
			lmax = fmax(lmax, ls[i]);
	}
	struct axis x = {.kind = AXIS_LINEAR, .label = "time since measuring began (s)"};
	struct axis y = {.kind = AXIS_LINEAR, .label = "IOPS", .unit = AXIS_UNIT_IOPS};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "mean latency", .unit = AXIS_UNIT_LAT};
	axis_fit(&x, 0, p->nr_iv, true);
	axis_fit(&y, 0, imax, true);
	axis_fit(&y2, 0, lmax, true);
	char mark[64];
	snprintf(title, sizeof(title), "%s: per second (%s)%s",
		 report_workload_name(wl, sizeof(wl), w->st, w->k), set->name,
		 report_unsteady_mark(mark, sizeof(mark), &w->st->sets[w->k]));
	struct chart c;
	if (chart_begin(&c, r->f, "series", title, &x, &y, &y2))
		goto out;
	chart_axes(&c);
	chart_line(&c, 0, false, xs, is, p->nr_iv, NULL);
	chart_line(&c, 1, true, xs, ls, p->nr_iv, NULL);
	chart_legend_add(&c, 0, true, "IOPS (left axis)");
	chart_legend_add(&c, 1, true, "mean latency (right axis)");
	report_figure(r, &c, NULL);
out:
	free(xs);
	free(is);
	free(ls);
}

/* SNIA PTS's steady-state window: the last rounds judged (precondition.c's
 * default), whose range may be 20 % of their average. */
#define PTS_WINDOW 5
#define PTS_EXCURSION 0.20

/* The window of the last PTS_WINDOW rounds shaded, with the band of
 * +-10 % around their average (a 20 % range) and the average dashed: the
 * rounds inside the band, on a flat line, are what steady state means. */
static void steady_band(struct chart *c, const double *iops, unsigned n)
{
	if (n < PTS_WINDOW)
		return;
	double avg = 0;
	for (unsigned i = n - PTS_WINDOW; i < n; i++)
		avg += iops[i] / PTS_WINDOW;
	if (!(avg > 0))
		return;
	double x0 = chart_px_x(c, n - PTS_WINDOW + 0.5), x1 = chart_px_x(c, n + 0.5);
	double yt = chart_px_y(c, c->y, avg * (1 + PTS_EXCURSION / 2));
	double yb = chart_px_y(c, c->y, avg * (1 - PTS_EXCURSION / 2));
	double ya = chart_px_y(c, c->y, avg);
	x1 = fmin(x1, c->right);
	yt = fmax(yt, c->top);
	fprintf(c->f, "<rect class=\"steady-band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#009E73\" fill-opacity=\"0.15\" stroke=\"#009E73\" stroke-width=\"1\"/>",
		x0, yt, x1 - x0, yb - yt);
	fprintf(c->f, "<line class=\"steady-avg\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#009E73\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
		x0, ya, x1, ya);
	chart_legend_add(c, 2, CHART_LEGEND_BAR, "last 5 rounds: average \u00b110 %");
}

/* A precondition step's rounds: IOPS per round, toward steady state. */
static void rounds_chart(struct report_ctx *r, const struct rs_set *set,
			 const struct rs_step *st, unsigned k)
{
	const struct rs_tset *ts = &st->sets[k];
	char title[400], wl[300];
	double ymax = 0;

	if (!ts->nr_rounds)
		return;
	double *xs = calloc(ts->nr_rounds, sizeof(double));
	if (!xs)
		return;
	for (unsigned i = 0; i < ts->nr_rounds; i++) {
		xs[i] = i + 1;
		if (isfinite(ts->rounds_iops[i]))
			ymax = fmax(ymax, ts->rounds_iops[i]);
	}
	struct axis x = {.kind = AXIS_LINEAR, .label = "round"};
	struct axis y = {.kind = AXIS_LINEAR, .label = "IOPS", .unit = AXIS_UNIT_IOPS};
	axis_fit(&x, 0, ts->nr_rounds, true);
	axis_fit(&y, 0, ymax, true);
	snprintf(title, sizeof(title), "%s: preconditioning rounds (%s)",
		 report_workload_name(wl, sizeof(wl), st, k), set->name);
	struct chart c;
	if (!chart_begin(&c, r->f, "rounds", title, &x, &y, NULL)) {
		chart_axes(&c);
		steady_band(&c, ts->rounds_iops, ts->nr_rounds);
		chart_line(&c, 0, false, xs, ts->rounds_iops, ts->nr_rounds, NULL);
		chart_legend_add(&c, 0, true, ts->steady ? "IOPS per round (steady state reached)"
							 : "IOPS per round (not steady)");
		report_figure(r, &c, report_once(r, REPORT_SAID_ROUNDS,
					  "SNIA PTS steady state: the last 5 rounds (shaded) within 20 % of "
					  "their average (the band) and on a line whose slope moves less than "
					  "10 % across them."));
	}
	free(xs);
}

void report_series_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++) {
		unsigned n;
		struct wl_ref *w = report_headlines(&r->sets[s], &n);
		for (unsigned i = 0; w && i < n; i++)
			series_chart(r, &r->sets[s], &w[i]);
		free(w);
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; st->mode == RS_PRECONDITION && k < st->nr_sets; k++)
				rounds_chart(r, &r->sets[s], st, k);
		}
	}
}
