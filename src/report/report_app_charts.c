/* report_app_charts.c - an application run's charts: TPS and p99 against
 * threads, beside the device's IOPS and MB/s for the same points (one
 * category per thread count), and the largest point's seconds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/app_model.h"
#include "report/report_app_int.h"
#include "report/svg_chart.h"

#define TIP_MAX 160
#define CAT_MAX 16

/* The points with figures, in file order, and their thread counts as
 * category names (at most CAT_MAX). */
struct sweep {
	const struct rs_app_point *p[CAT_MAX];
	char names[CAT_MAX][16];
	const char *cats[CAT_MAX];
	double xs[CAT_MAX];
	unsigned n;
};

static void sweep_of(const struct rs_app *a, struct sweep *s)
{
	s->n = 0;
	for (unsigned i = 0; i < a->nr_points && s->n < CAT_MAX; i++) {
		if (a->points[i].error)
			continue;
		s->p[s->n] = &a->points[i];
		snprintf(s->names[s->n], sizeof(s->names[0]), "%u", a->points[i].threads);
		s->cats[s->n] = s->names[s->n];
		s->xs[s->n] = s->n;
		s->n++;
	}
}

static void chart_done(struct report_ctx *r, struct chart *c, const char *caption)
{
	fputs("<figure>", r->f);
	int ret = chart_end(c);
	if (ret && !r->ret)
		r->ret = ret;
	fprintf(r->f, "<figcaption>%s</figcaption></figure>\n", caption);
}

static double maxof(const double *v, unsigned n)
{
	double m = 0;
	for (unsigned i = 0; i < n; i++)
		if (isfinite(v[i]))
			m = fmax(m, v[i]);
	return m;
}

static void tps_chart(struct report_ctx *r, const struct rs_set *set, const struct sweep *s)
{
	double tps[CAT_MAX], p99[CAT_MAX];
	char title[300], tb[2][CAT_MAX][TIP_MAX];
	const char *tips[2][CAT_MAX];
	const struct rs_app *a = set->app;
	for (unsigned i = 0; i < s->n; i++) {
		tps[i] = s->p[i]->tps;
		p99[i] = s->p[i]->lat_p99_ms * 1e6;
		snprintf(tb[0][i], TIP_MAX, "%u threads: %.1f TPS", s->p[i]->threads, tps[i]);
		snprintf(tb[1][i], TIP_MAX, "%u threads: p99 %.2f ms", s->p[i]->threads,
			 s->p[i]->lat_p99_ms);
		tips[0][i] = tb[0][i];
		tips[1][i] = tb[1][i];
	}
	bool limit = a->has_target && a->target_metric && !strcmp(a->target_metric, "p99");
	struct axis x = {.kind = AXIS_CATEGORY, .label = "threads", .cats = s->cats, .nr_cats = s->n};
	struct axis y = {.kind = AXIS_LINEAR, .label = "transactions per second"};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "p99 latency", .unit = AXIS_UNIT_LAT};
	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, fmax(maxof(tps, s->n), 1), true);
	axis_fit(&y2, 0, fmax(fmax(maxof(p99, s->n), limit ? a->target_limit_ms * 1.1e6 : 0), 1e3),
		 true);
	snprintf(title, sizeof(title), "%s: TPS and p99 against threads", set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "app-sweep", title, &x, &y, &y2))
		return;
	chart_axes(&c);
	chart_line(&c, 0, false, s->xs, tps, s->n, tips[0]);
	chart_line(&c, 1, true, s->xs, p99, s->n, tips[1]);
	if (limit)
		chart_hrule(&c, true, a->target_limit_ms * 1e6, "limit", "p99 target");
	chart_legend_add(&c, 0, CHART_LEGEND_LINE, "TPS (left)");
	chart_legend_add(&c, 1, CHART_LEGEND_LINE, "p99 latency (right)");
	chart_done(r, &c, "The benchmark's transactions per second and its 99th-percentile "
			  "transaction latency at each thread count.");
}

static void device_chart(struct report_ctx *r, const struct rs_set *set, const struct sweep *s)
{
	double rd[CAT_MAX], wr[CAT_MAX], mb[CAT_MAX];
	char title[300], tb[CAT_MAX][TIP_MAX];
	const char *tips[CAT_MAX];
	for (unsigned i = 0; i < s->n; i++) {
		const struct rs_app_device *d = &s->p[i]->dev;
		rd[i] = d->present ? d->read_iops : NAN;
		wr[i] = d->present ? d->write_iops : NAN;
		mb[i] = d->present ? (d->read_mbps + d->write_mbps) * 1e6 : NAN;
		snprintf(tb[i], TIP_MAX, "%u threads: %.0f read + %.0f write IOPS, %.1f MB/s",
			 s->p[i]->threads, rd[i], wr[i], mb[i] / 1e6);
		tips[i] = tb[i];
	}
	struct axis x = {.kind = AXIS_CATEGORY, .label = "threads", .cats = s->cats, .nr_cats = s->n};
	struct axis y = {.kind = AXIS_LINEAR, .label = "device IOPS", .unit = AXIS_UNIT_IOPS};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "device MB/s", .unit = AXIS_UNIT_BW};
	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, fmax(fmax(maxof(rd, s->n), maxof(wr, s->n)), 1), true);
	axis_fit(&y2, 0, fmax(maxof(mb, s->n), 1e6), true);
	snprintf(title, sizeof(title), "%s: the device at each thread count", set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "app-device", title, &x, &y, &y2))
		return;
	chart_axes(&c);
	chart_line(&c, 0, false, s->xs, rd, s->n, tips);
	chart_line(&c, 1, false, s->xs, wr, s->n, tips);
	chart_line(&c, 2, true, s->xs, mb, s->n, tips);
	chart_legend_add(&c, 0, CHART_LEGEND_LINE, "read IOPS");
	chart_legend_add(&c, 1, CHART_LEGEND_LINE, "write IOPS");
	chart_legend_add(&c, 2, CHART_LEGEND_LINE, "MB/s, read + write (right)");
	chart_done(r, &c, "The device's block-layer IOPS and MB/s over the same seconds.");
}

void app_sweep_charts(struct report_ctx *r, const struct rs_set *set)
{
	struct sweep s;
	sweep_of(set->app, &s);
	if (!s.n)
		return;
	bool dev = false;
	for (unsigned i = 0; i < s.n; i++)
		dev |= s.p[i]->dev.present;
	fputs("<div class=\"app-pair\">", r->f);
	tps_chart(r, set, &s);
	if (dev)
		device_chart(r, set, &s);
	fputs("</div>\n", r->f);
}

/* x[] the seconds of p's benchmark series, y[] TPS; dx[], dy[] the
 * device's seconds and IOPS (read + write). */
static unsigned second_series(const struct rs_app_point *p, double *x, double *y, double *dx,
			      double *dy, unsigned *nd, double *tmax)
{
	*tmax = 0;
	for (unsigned i = 0; i < p->nr_sec; i++) {
		x[i] = p->sec[i].t;
		y[i] = p->sec[i].tps;
		*tmax = fmax(*tmax, x[i]);
	}
	*nd = p->dev.present ? p->dev.nr_sec : 0;
	for (unsigned i = 0; i < *nd; i++) {
		dx[i] = p->dev.sec[i].t;
		dy[i] = p->dev.sec[i].read_iops + p->dev.sec[i].write_iops;
		*tmax = fmax(*tmax, dx[i]);
	}
	return p->nr_sec;
}

void app_second_chart(struct report_ctx *r, const struct rs_set *set)
{
	const struct rs_app_point *p = rs_app_largest(set->app);
	char title[300];
	if (!p || p->nr_sec < 2)
		return;
	unsigned nd, cap = p->nr_sec > p->dev.nr_sec ? p->nr_sec : p->dev.nr_sec;
	double *buf = calloc(4 * (size_t)cap, sizeof(double)), tmax;
	if (!buf)
		return;
	double *x = buf, *y = buf + cap, *dx = buf + 2 * cap, *dy = buf + 3 * cap;
	unsigned n = second_series(p, x, y, dx, dy, &nd, &tmax);
	struct axis ax = {.kind = AXIS_LINEAR, .label = "time (s)"};
	struct axis ay = {.kind = AXIS_LINEAR, .label = "transactions per second"};
	struct axis ay2 = {.kind = AXIS_LINEAR, .label = "device IOPS", .unit = AXIS_UNIT_IOPS};
	axis_fit(&ax, 0, fmax(tmax, 1), true);
	axis_fit(&ay, 0, fmax(maxof(y, n), 1), true);
	axis_fit(&ay2, 0, fmax(maxof(dy, nd), 1), true);
	snprintf(title, sizeof(title), "%s: per second at %u threads", set->name, p->threads);
	struct chart c;
	if (!chart_begin(&c, r->f, "app-seconds", title, &ax, &ay, nd ? &ay2 : NULL)) {
		chart_axes(&c);
		chart_line(&c, 0, false, x, y, n, NULL);
		if (nd)
			chart_line(&c, 1, true, dx, dy, nd, NULL);
		chart_legend_add(&c, 0, CHART_LEGEND_LINE, "TPS (left)");
		if (nd)
			chart_legend_add(&c, 1, CHART_LEGEND_LINE, "device IOPS, read + write (right)");
		chart_done(r, &c, "The largest thread count second by second: the benchmark's "
				  "transactions beside the device's I/Os.");
	}
	free(buf);
}
