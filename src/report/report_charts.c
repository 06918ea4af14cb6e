/* report_charts.c - the report's figures, each from the result sets:
 * bars per workload, latency-versus-throughput curves, percentiles,
 * per-second series, scaling. Drawing is svg_chart.h's; this file only
 * chooses what goes on which axis. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define TIP_MAX 160
#define LINES_PER_CHART 7 /* one colour each */

static char *fmt_lat_axis(char *buf, double v)
{
	return numfmt_lat(buf, v);
}

static char *fmt_iops_axis(char *buf, double v)
{
	return numfmt_iops(buf, v);
}

static char *fmt_bw_axis(char *buf, double v)
{
	return numfmt_bw(buf, v);
}

static char *fmt_nines(char *buf, double v)
{
	snprintf(buf, NUMFMT_MAX, "%g", 100 * (1 - pow(10, -v)));
	return buf;
}

static const char *lat_word(const char *stat)
{
	if (stat && !strcmp(stat, "p99"))
		return "p99 latency";
	if (stat && !strcmp(stat, "p99.9"))
		return "p99.9 latency";
	return "mean latency";
}

static void finish(struct report_ctx *r, struct chart *c)
{
	int ret = chart_end(c);
	if (ret && !r->ret)
		r->ret = ret;
}

static void figure_begin(struct report_ctx *r)
{
	fputs("<figure>", r->f);
}

static void figure_end(struct report_ctx *r, const char *caption)
{
	if (caption) {
		fputs("<figcaption>", r->f);
		html_escape(r->f, caption);
		fputs("</figcaption>", r->f);
	}
	fputs("</figure>\n", r->f);
}

/* One grouped bar chart of the compare rows of one metric. */
static void bar_chart(struct report_ctx *r, bool iops)
{
	const struct cmp_table *t = &r->cmp;
	unsigned nc = 0;
	const char **cats = calloc(t->nr_rows ? t->nr_rows : 1, sizeof(*cats));
	unsigned *rows = calloc(t->nr_rows ? t->nr_rows : 1, sizeof(*rows));
	double vmax = 0, lmax = 0;

	if (!cats || !rows)
		goto out;
	for (unsigned i = 0; i < t->nr_rows; i++) {
		if (t->rows[i].iops != iops || t->rows[i].net || t->rows[i].host)
			continue; /* network rows: the Network section */
		rows[nc] = i;
		cats[nc++] = t->rows[i].key;
		for (unsigned s = 0; s < t->nr_sets; s++) {
			const struct cmp_value *v = &t->rows[i].v[s];
			if (v->verdict == CMP_MISSING)
				continue;
			if (isfinite(v->value))
				vmax = fmax(vmax, v->value);
			if (isfinite(v->lat_ns))
				lmax = fmax(lmax, v->lat_ns);
		}
	}
	if (!nc)
		goto out;
	struct axis x = {.kind = AXIS_CATEGORY, .label = "workload", .cats = cats, .nr_cats = nc};
	struct axis y = {.kind = AXIS_LINEAR, .label = iops ? "IOPS" : "throughput (MB/s, GB/s)",
			 .fmt = iops ? fmt_iops_axis : fmt_bw_axis};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "latency at that point",
			  .fmt = fmt_lat_axis};
	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, vmax, true);
	axis_fit(&y2, 0, lmax, true);
	struct chart c;
	if (chart_begin(&c, r->f, "bars", iops ? "Best IOPS per workload, latency at that point"
					       : "Best MB/s per workload, latency at that point",
			&x, &y, &y2))
		goto out;
	chart_axes(&c);
	c.halo = true;
	double *xs = calloc(nc, sizeof(double)), *ls = calloc(nc, sizeof(double));
	char (*tips)[TIP_MAX] = calloc(nc, TIP_MAX);
	const char **tp = calloc(nc, sizeof(char *));
	for (unsigned s = 0; xs && ls && tips && tp && s < t->nr_sets; s++) {
		char a[NUMFMT_MAX], b[NUMFMT_MAX];
		for (unsigned k = 0; k < nc; k++) {
			const struct cmp_row *row = &t->rows[rows[k]];
			const struct cmp_value *v = &row->v[s];
			xs[k] = k - 0.4 + (s + 0.5) * 0.8 / t->nr_sets;
			ls[k] = v->verdict == CMP_MISSING ? NAN : v->lat_ns;
			snprintf(tips[k], TIP_MAX, "%s, %s: %s%s, %s %s, QD %u x %u jobs",
				 row->key, t->sets[s].name,
				 iops ? numfmt_iops(a, v->value) : numfmt_bw(a, v->value),
				 iops ? " IOPS" : "", lat_word(row->lat_stat),
				 numfmt_lat(b, v->lat_ns), v->iodepth, v->numjobs);
			tp[k] = tips[k];
			if (v->verdict != CMP_MISSING)
				chart_bar(&c, k, s, t->nr_sets, v->value, tips[k]);
		}
		/* one set: the line in a colour of its own; several: each
		 * set's line in its bars' colour */
		chart_line(&c, t->nr_sets == 1 ? 1 : s, true, xs, ls, nc, tp);
	}
	if (t->nr_sets == 1)
		chart_legend_add(&c, 0, false, iops ? "best IOPS" : "best MB/s");
	for (unsigned s = 0; s < t->nr_sets && t->nr_sets > 1; s++) {
		bool drawn = false; /* only the sets that have a bar here */
		for (unsigned k = 0; k < nc; k++)
			drawn |= t->rows[rows[k]].v[s].verdict != CMP_MISSING;
		if (drawn)
			chart_legend_add(&c, s, false, t->sets[s].name);
	}
	chart_legend_add(&c, t->nr_sets > 1 ? 0 : 1, true,
			 t->nr_sets > 1 ? "latency of each (right axis)" : "latency (right axis)");
	free(xs);
	free(ls);
	free(tips);
	free(tp);
	figure_begin(r);
	finish(r, &c);
	figure_end(r, t->nr_sets > 1 ? "One bar per result set; the line of the same colour is the latency at that point (right axis)."
				     : "Bars: the best figure of each workload; line: the latency at that point (right axis).");
out:
	free(cats);
	free(rows);
}

void report_bar_charts(struct report_ctx *r)
{
	bar_chart(r, true);
	bar_chart(r, false);
}

/* x of a point: IOPS or bytes/s by the step's kind. */
static double thr(const struct rs_step *st, const struct rs_point *p)
{
	return rs_step_is_random(st) ? p->total.iops : p->total.bw_bytes;
}

static int cmp_double(const void *a, const void *b)
{
	const double *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The line of a latency-versus-throughput chart: its points sorted by
 * throughput, each curve point's tip saying if it was reached, and the
 * frame that holds them and the chosen point. */
struct curve_line {
	double *xs, *ys;
	char (*tip)[48];
	const char **tips;
	double xmax, ylo, yhi;
};

static void curve_line_free(struct curve_line *l)
{
	free(l->xs);
	free(l->ys);
	free(l->tip);
	free(l->tips);
}

static void frame_add(struct curve_line *l, double x, double y)
{
	if (isfinite(x))
		l->xmax = fmax(l->xmax, x);
	if (y > 0 && isfinite(y)) {
		l->ylo = fmin(l->ylo, y);
		l->yhi = fmax(l->yhi, y);
	}
}

/* A curve's line is its open-loop points only: the closed-loop maximum
 * (chosen) is another kind of run, drawn apart as a mark, but inside the
 * frame. 0 or -ENOMEM (l released either way by curve_line_free). */
static int curve_line_make(const struct rs_step *st, const struct rs_tset *ts,
			   unsigned n, const struct rs_point *chosen, struct curve_line *l)
{
	/* triples (x, y, index), sorted by x so the line reads left to right */
	double *xy = calloc(3 * n, sizeof(double));
	memset(l, 0, sizeof(*l));
	l->xs = calloc(n, sizeof(double));
	l->ys = calloc(n, sizeof(double));
	l->tip = calloc(n, sizeof(*l->tip));
	l->tips = calloc(n, sizeof(*l->tips));
	l->ylo = INFINITY;
	if (!xy || !l->xs || !l->ys || !l->tip || !l->tips) {
		free(xy);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct rs_point *p = st->mode == RS_SEARCH ? &ts->points[i] : &ts->curve[i].p;
		xy[3 * i] = thr(st, p);
		xy[3 * i + 1] = rs_point_latency(st, p);
		xy[3 * i + 2] = i;
		frame_add(l, xy[3 * i], xy[3 * i + 1]);
	}
	if (chosen)
		frame_add(l, thr(st, chosen), rs_point_latency(st, chosen));
	if (st->latency_limit_ns) /* show the limit, inside the frame */
		l->yhi = fmax(l->yhi, 2.0 * (double)st->latency_limit_ns);
	qsort(xy, n, 3 * sizeof(double), cmp_double);
	for (unsigned i = 0; i < n; i++) {
		unsigned j = (unsigned)xy[3 * i + 2];
		l->xs[i] = xy[3 * i];
		l->ys[i] = xy[3 * i + 1];
		if (st->mode == RS_SEARCH)
			continue;
		snprintf(l->tip[i], sizeof(l->tip[i]), "%u %%: %s", ts->curve[j].pct,
			 ts->curve[j].reached ? "reached" : "NOT reached");
		l->tips[i] = l->tip[i];
	}
	free(xy);
	return 0;
}

/* Latency versus throughput of one step on one target set. */
static void curve_chart(struct report_ctx *r, const struct rs_set *set,
			const struct rs_step *st, unsigned k)
{
	const struct rs_tset *ts = &st->sets[k];
	unsigned n = st->mode == RS_SEARCH ? ts->nr_points : ts->nr_curve;
	bool rnd = rs_step_is_random(st);
	char title[512], wl[300], a[NUMFMT_MAX], b[NUMFMT_MAX];

	if (!n)
		return;
	struct curve_line l;
	const struct rs_point *chosen = rs_tset_headline(st, ts);
	if (curve_line_make(st, ts, n, chosen, &l))
		goto out;
	struct axis x = {.kind = AXIS_LINEAR, .label = rnd ? "IOPS" : "throughput (MB/s, GB/s)",
			 .fmt = rnd ? fmt_iops_axis : fmt_bw_axis};
	struct axis y = {.kind = AXIS_LOG, .fmt = fmt_lat_axis};
	snprintf(title, sizeof(title), "%s (log scale)", lat_word(st->latency_stat));
	y.label = title;
	axis_fit(&x, 0, l.xmax, true);
	axis_fit(&y, l.ylo, l.yhi, false);
	char ctitle[512];
	snprintf(ctitle, sizeof(ctitle), "%s: %s versus %s (%s, %s)",
		 report_workload_name(st, k, wl, sizeof(wl)), lat_word(st->latency_stat),
		 rnd ? "IOPS" : "MB/s", rs_mode_name(st->mode), set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "curve", ctitle, &x, &y, NULL))
		goto out;
	chart_axes(&c);
	chart_line(&c, 0, false, l.xs, l.ys, n, (const char *const *)l.tips);
	chart_legend_add(&c, 0, true, st->mode == RS_SEARCH ? "points the search ran"
						  : "open-loop points (each says if it was reached)");
	if (chosen) {
		char lbl[200];
		snprintf(lbl, sizeof(lbl), "%s: %s, %s", st->mode == RS_SEARCH ? "best" : "max",
			 rnd ? numfmt_iops(a, thr(st, chosen)) : numfmt_bw(a, thr(st, chosen)),
			 numfmt_lat(b, rs_point_latency(st, chosen)));
		chart_mark(&c, false, thr(st, chosen), rs_point_latency(st, chosen), lbl);
	}
	if (st->latency_limit_ns) {
		/* the limit as a dashed horizontal rule */
		double ly = chart_px_y(&c, &y, (double)st->latency_limit_ns);
		if (ly >= c.top && ly <= c.bottom) {
			fprintf(c.f, "<line class=\"limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				c.left, ly, c.right, ly);
			fprintf(c.f, "<text class=\"mark-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">limit %s</text>",
				c.right - 6, ly - 6, numfmt_lat(a, (double)st->latency_limit_ns));
		}
	}
	figure_begin(r);
	finish(r, &c);
	figure_end(r, st->mode == RS_SEARCH
			      ? "Every iodepth x numjobs the search ran; the circled point is the best inside the limit (dashed line)."
			      : "Each rate asked as a % of the maximum, run open loop (the line); the circled point is the closed-loop maximum, drawn apart.");
out:
	curve_line_free(&l);
}

void report_curve_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			if (st->mode != RS_SEARCH && st->mode != RS_CURVE)
				continue;
			for (unsigned k = 0; k < st->nr_sets; k++)
				curve_chart(r, &r->sets[s], st, k);
		}
}

struct wl_ref {
	const struct rs_step *st;
	unsigned k;
	const struct rs_point *p;
};

/* The headline points of set s, in step order. *n of them, malloc'd. */
static struct wl_ref *headlines(const struct rs_set *set, unsigned *n)
{
	unsigned cap = 0;
	for (unsigned i = 0; i < set->nr_steps; i++)
		cap += set->steps[i].nr_sets;
	struct wl_ref *v = calloc(cap ? cap : 1, sizeof(*v));
	*n = 0;
	for (unsigned i = 0; v && i < set->nr_steps; i++)
		for (unsigned k = 0; k < set->steps[i].nr_sets; k++) {
			const struct rs_point *p =
				rs_tset_headline(&set->steps[i], &set->steps[i].sets[k]);
			if (p)
				v[(*n)++] = (struct wl_ref){&set->steps[i], k, p};
		}
	return v;
}

static void pct_chart(struct report_ctx *r, const struct rs_set *set,
		      const struct wl_ref *w, unsigned n, unsigned part, unsigned parts)
{
	char title[300], names[LINES_PER_CHART][300];
	double xs[RS_NR_PCT], ys[RS_NR_PCT], lo = INFINITY, hi = 0;

	for (unsigned i = 0; i < n; i++)
		for (int q = 0; q < RS_NR_PCT; q++) {
			double v = (double)w[i].p->total.lat.pct[q];
			if (v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	struct axis x = {.kind = AXIS_LINEAR, .label = "percentile (%)", .fmt = fmt_nines};
	struct axis y = {.kind = AXIS_LOG, .label = "latency (log scale)", .fmt = fmt_lat_axis};
	axis_fit(&x, 0, 4, false);
	x.min = 0;
	x.max = 4.2;
	x.nr_ticks = 0;
	for (int q = 0; q < RS_NR_PCT; q++)
		if (q != RS_P95) /* too close to p90 to label both */
			x.ticks[x.nr_ticks++] = -log10(1 - rs_pct_value[q] / 100);
	axis_fit(&y, lo, hi, false);
	if (parts > 1)
		snprintf(title, sizeof(title), "Latency percentiles (%s, %u of %u)", set->name,
			 part + 1, parts);
	else
		snprintf(title, sizeof(title), "Latency percentiles (%s)", set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "percentiles", title, &x, &y, NULL))
		return;
	chart_axes(&c);
	for (unsigned i = 0; i < n; i++) {
		for (int q = 0; q < RS_NR_PCT; q++) {
			xs[q] = -log10(1 - rs_pct_value[q] / 100);
			ys[q] = (double)w[i].p->total.lat.pct[q];
		}
		chart_line(&c, i, false, xs, ys, RS_NR_PCT, NULL);
		chart_legend_add(&c, i, true,
				 report_workload_name(w[i].st, w[i].k, names[i], sizeof(names[i])));
	}
	figure_begin(r);
	finish(r, &c);
	figure_end(r, "Total (read and write) latency percentiles of each workload's best point, 50th to 99.99th.");
}

void report_percentile_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++) {
		unsigned n;
		struct wl_ref *w = headlines(&r->sets[s], &n);
		if (!w)
			continue;
		unsigned parts = (n + LINES_PER_CHART - 1) / LINES_PER_CHART;
		for (unsigned p = 0; p < parts; p++) {
			unsigned m = n - p * LINES_PER_CHART;
			pct_chart(r, &r->sets[s], w + p * LINES_PER_CHART,
				  m > LINES_PER_CHART ? LINES_PER_CHART : m, p, parts);
		}
		free(w);
	}
}

static void series_chart(struct report_ctx *r, const struct rs_set *set,
			 const struct wl_ref *w)
{
	const struct rs_point *p = w->p;
	char title[400], wl[300];
	double imax = 0, lmax = 0;

	if (!p->nr_iv)
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
	struct axis y = {.kind = AXIS_LINEAR, .label = "IOPS", .fmt = fmt_iops_axis};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "mean latency", .fmt = fmt_lat_axis};
	axis_fit(&x, 0, p->nr_iv, true);
	axis_fit(&y, 0, imax, true);
	axis_fit(&y2, 0, lmax, true);
	snprintf(title, sizeof(title), "%s: per second (%s)",
		 report_workload_name(w->st, w->k, wl, sizeof(wl)), set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "series", title, &x, &y, &y2))
		goto out;
	chart_axes(&c);
	chart_line(&c, 0, false, xs, is, p->nr_iv, NULL);
	chart_line(&c, 1, true, xs, ls, p->nr_iv, NULL);
	chart_legend_add(&c, 0, true, "IOPS (left axis)");
	chart_legend_add(&c, 1, true, "mean latency (right axis)");
	figure_begin(r);
	finish(r, &c);
	figure_end(r, NULL);
out:
	free(xs);
	free(is);
	free(ls);
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
	struct axis y = {.kind = AXIS_LINEAR, .label = "IOPS", .fmt = fmt_iops_axis};
	axis_fit(&x, 0, ts->nr_rounds, true);
	axis_fit(&y, 0, ymax, true);
	snprintf(title, sizeof(title), "%s: preconditioning rounds (%s)",
		 report_workload_name(st, k, wl, sizeof(wl)), set->name);
	struct chart c;
	if (!chart_begin(&c, r->f, "rounds", title, &x, &y, NULL)) {
		chart_axes(&c);
		chart_line(&c, 0, false, xs, ts->rounds_iops, ts->nr_rounds, NULL);
		chart_legend_add(&c, 0, true, ts->steady ? "IOPS per round (steady state reached)"
							 : "IOPS per round (not steady)");
		figure_begin(r);
		finish(r, &c);
		figure_end(r, NULL);
	}
	free(xs);
}

void report_series_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++) {
		unsigned n;
		struct wl_ref *w = headlines(&r->sets[s], &n);
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

static void scaling_chart(struct report_ctx *r, const struct rs_set *set,
			  const struct rs_step *st)
{
	const struct rs_scaling *sc = &st->scaling;
	char title[400], a[NUMFMT_MAX], lbl[200];
	double xmax = 0, ymax = 0;

	if (!sc->nr)
		return;
	double *xs = calloc(sc->nr, sizeof(double));
	if (!xs)
		return;
	const double *ys = sc->metric_iops ? sc->iops : sc->bw_bytes;
	for (unsigned i = 0; i < sc->nr; i++) {
		xs[i] = sc->targets[i];
		xmax = fmax(xmax, xs[i]);
		if (isfinite(ys[i]))
			ymax = fmax(ymax, ys[i]);
	}
	struct axis x = {.kind = AXIS_LINEAR, .label = "targets at once"};
	struct axis y = {.kind = AXIS_LINEAR,
			 .label = sc->metric_iops ? "total IOPS" : "total throughput (MB/s, GB/s)",
			 .fmt = sc->metric_iops ? fmt_iops_axis : fmt_bw_axis};
	axis_fit(&x, 0, xmax, true);
	axis_fit(&y, 0, ymax, true);
	snprintf(title, sizeof(title), "%s: scaling over targets (%s)", st->label, set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "scaling", title, &x, &y, NULL)) {
		free(xs);
		return;
	}
	chart_axes(&c);
	chart_line(&c, 0, false, xs, ys, sc->nr, NULL);
	chart_legend_add(&c, 0, true, sc->metric_iops ? "total IOPS" : "total MB/s");
	if (sc->saturation >= 0 && (unsigned)sc->saturation < sc->nr) {
		unsigned i = (unsigned)sc->saturation;
		snprintf(lbl, sizeof(lbl), "saturates at %u targets: %s", sc->targets[i],
			 sc->metric_iops ? numfmt_iops(a, ys[i]) : numfmt_bw(a, ys[i]));
		chart_mark(&c, false, xs[i], ys[i], lbl);
	}
	figure_begin(r);
	finish(r, &c);
	figure_end(r, sc->message);
	free(xs);
}

void report_scaling_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++)
			if (r->sets[s].steps[i].scaling.present)
				scaling_chart(r, &r->sets[s], &r->sets[s].steps[i]);
}
