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

const char *report_unsteady_mark(char *buf, size_t len, const struct rs_tset *ts)
{
	buf[0] = '\0';
	if (ts->after_unsteady)
		snprintf(buf, len, ", after no steady state (step %u)", ts->after_unsteady);
	return buf;
}

static void finish(struct report_ctx *r, struct chart *c)
{
	int ret = chart_end(c);
	if (ret && !r->ret)
		r->ret = ret;
}

const char *report_once(struct report_ctx *r, unsigned bit, const char *text)
{
	if (r->said & bit)
		return NULL;
	r->said |= bit;
	return text;
}

void report_figure(struct report_ctx *r, struct chart *c, const char *caption)
{
	fputs("<figure>", r->f);
	finish(r, c);
	if (caption) {
		fputs("<figcaption>", r->f);
		html_escape(r->f, caption);
		fputs("</figcaption>", r->f);
	}
	fputs("</figure>\n", r->f);
}

/* The compare rows of one metric (network and host rows have sections of
 * their own): their indexes and names into rows/cats (nr_rows each), the
 * largest value and latency into *vmax, *lmax. Returns how many. */
static unsigned bar_rows(const struct cmp_table *t, bool iops, unsigned *rows,
			 const char **cats, double *vmax, double *lmax)
{
	unsigned nc = 0;
	*vmax = *lmax = 0;
	for (unsigned i = 0; i < t->nr_rows; i++) {
		if (t->rows[i].iops != iops || t->rows[i].net || t->rows[i].app || t->rows[i].host)
			continue;
		rows[nc] = i;
		cats[nc++] = t->rows[i].key;
		for (unsigned s = 0; s < t->nr_sets; s++) {
			const struct cmp_value *v = &t->rows[i].v[s];
			if (v->verdict == CMP_MISSING)
				continue;
			if (isfinite(v->value))
				*vmax = fmax(*vmax, v->value);
			if (isfinite(v->lat_ns))
				*lmax = fmax(*lmax, v->lat_ns);
		}
	}
	return nc;
}

/* Each set's bars over the nc rows, and the latency there as circles on
 * the right axis (no line: the workloads are unrelated); the legend. */
static void bar_marks(struct chart *c, const struct cmp_table *t, bool iops,
		      const unsigned *rows, unsigned nc)
{
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
				 row->key, t->sides[s].name,
				 iops ? numfmt_iops(a, v->value) : numfmt_bw(a, v->value),
				 iops ? " IOPS" : "", lat_word(row->lat_stat),
				 numfmt_lat(b, v->lat_ns), v->iodepth, v->numjobs);
			tp[k] = tips[k];
			if (v->verdict != CMP_MISSING)
				chart_bar(c, k, s, t->nr_sets, v->value, tips[k]);
		}
		/* one set: the circles in a colour of their own; several: in
		 * their bars' colour */
		chart_points(c, t->nr_sets == 1 ? 1 : s, true, xs, ls, nc, tp);
	}
	if (t->nr_sets == 1)
		chart_legend_add(c, 0, false, iops ? "best IOPS" : "best MB/s");
	for (unsigned s = 0; s < t->nr_sets && t->nr_sets > 1; s++) {
		bool drawn = false; /* only the sets that have a bar here */
		for (unsigned k = 0; k < nc; k++)
			drawn |= t->rows[rows[k]].v[s].verdict != CMP_MISSING;
		if (drawn)
			chart_legend_add(c, s, false, t->sides[s].name);
	}
	chart_legend_add(c, t->nr_sets > 1 ? 0 : 1, CHART_LEGEND_POINT,
			 t->nr_sets > 1 ? "latency of each (right axis)" : "latency (right axis)");
	free(xs);
	free(ls);
	free(tips);
	free(tp);
}

/* One grouped bar chart of the compare rows of one metric. */
static void bar_chart(struct report_ctx *r, bool iops)
{
	const struct cmp_table *t = &r->cmp;
	const char **cats = calloc(t->nr_rows ? t->nr_rows : 1, sizeof(*cats));
	unsigned *rows = calloc(t->nr_rows ? t->nr_rows : 1, sizeof(*rows));
	double vmax, lmax;
	unsigned nc = cats && rows ? bar_rows(t, iops, rows, cats, &vmax, &lmax) : 0;

	if (!nc)
		goto out;
	struct axis x = {.kind = AXIS_CATEGORY, .label = "workload", .cats = cats, .nr_cats = nc};
	struct axis y = {.kind = AXIS_LINEAR, .label = iops ? "IOPS" : "throughput (MB/s, GB/s)",
			 .unit = iops ? AXIS_UNIT_IOPS : AXIS_UNIT_BW};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "latency at that point",
			  .unit = AXIS_UNIT_LAT};
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
	bar_marks(&c, t, iops, rows, nc);
	report_figure(r, &c, report_once(r, REPORT_SAID_BARS, t->nr_sets > 1 ? "One bar per result set; the circle of the same colour above each bar is the latency at that point (right axis)."
				     : "Bars: the best figure of each workload; circles: the latency at that point (right axis)."));
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

/* The axes of a latency-versus-throughput chart over points p[0..n) (NULL
 * entries skipped), the limit kept inside the frame. */
static void load_axes(const struct rs_step *st, const struct rs_point *const *p,
		      unsigned n, struct axis *x, struct axis *y, char *ylabel, size_t len)
{
	bool judged = st->mode == RS_SEARCH; /* its points are judged so (lat_y) */
	bool rnd = rs_step_is_random(st);
	double xmax = 0, ylo = INFINITY, yhi = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!p[i])
			continue;
		double tx = thr(st, p[i]);
		double ly = judged ? rs_point_judged_latency(st, p[i]) : rs_point_latency(st, p[i]);
		if (isfinite(tx))
			xmax = fmax(xmax, tx);
		if (ly > 0 && isfinite(ly)) {
			ylo = fmin(ylo, ly);
			yhi = fmax(yhi, ly);
		}
	}
	if (st->latency_limit_ns) /* show the limit, inside the frame */
		yhi = fmax(yhi, 2.0 * (double)st->latency_limit_ns);
	*x = (struct axis){.kind = AXIS_LINEAR, .label = rnd ? "IOPS" : "throughput (MB/s, GB/s)",
			   .unit = rnd ? AXIS_UNIT_IOPS : AXIS_UNIT_BW};
	snprintf(ylabel, len, "%s (log scale)", lat_word(st->latency_stat));
	*y = (struct axis){.kind = AXIS_LOG, .unit = AXIS_UNIT_LAT, .label = ylabel};
	axis_fit(x, 0, xmax, true);
	axis_fit(y, ylo, yhi, false);
}

/* The chosen point circled and named, and the limit as a dashed rule. */
static void load_marks(struct chart *c, const struct rs_step *st,
		       const struct rs_point *chosen)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX], lbl[200];
	bool rnd = rs_step_is_random(st);
	if (st->latency_limit_ns) {
		snprintf(lbl, sizeof(lbl), "limit %s", numfmt_lat(a, (double)st->latency_limit_ns));
		chart_hrule(c, false, (double)st->latency_limit_ns, "limit", lbl);
	}
	if (chosen) {
		double ly = st->mode == RS_SEARCH ? rs_point_judged_latency(st, chosen)
						  : rs_point_latency(st, chosen);
		snprintf(lbl, sizeof(lbl), "%s: %s, %s", st->mode == RS_SEARCH ? "best" : "max",
			 rnd ? numfmt_iops(a, thr(st, chosen)) : numfmt_bw(a, thr(st, chosen)),
			 numfmt_lat(b, ly));
		chart_mark(c, false, thr(st, chosen), ly, lbl);
	}
}

static void point_tip(char *tip, size_t len, const struct rs_step *st,
		      const struct rs_point *p, const char *what)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX];
	bool rnd = rs_step_is_random(st);
	int n = snprintf(tip, len, "%s: QD %u x %u jobs, %s, %s %s%s", what, p->iodepth,
			 p->numjobs, rnd ? numfmt_iops(a, thr(st, p)) : numfmt_bw(a, thr(st, p)),
			 lat_word(st->latency_stat),
			 numfmt_lat(b, st->mode == RS_SEARCH ? rs_point_judged_latency(st, p)
							     : rs_point_latency(st, p)),
			 p->partial ? " (partial run)" : "");
	/* an open-loop point's latency is its response time: say so, and
	 * give the service time and lag it adds up from */
	if (rs_point_open_loop(p) && n > 0 && (size_t)n < len && p->total.has_service)
		snprintf(tip + n, len - (size_t)n, " from schedule; service mean %s, p99 issue lag %s",
			 numfmt_lat(a, p->total.service.mean),
			 numfmt_lat(b, (double)p->total.lag.pct[RS_P99]));
}

static int by_iodepth(const void *a, const void *b)
{
	const struct rs_point *const *x = a, *const *y = b;
	return ((*x)->iodepth > (*y)->iodepth) - ((*x)->iodepth < (*y)->iodepth);
}

/* How point p is drawn: as its test says (style), crossed when its run was
 * tool-limited. */
static int pt_style(const struct rs_point *p, enum chart_point_style style)
{
	return p->tool_limited ? (int)style | CHART_PT_TOOL_LIMITED : (int)style;
}

/* A search point's y: the latency its limit was judged on (the worst
 * direction under latency_scope=each), so a point drawn under the limit
 * line was inside on that run. */
static double lat_y(const struct rs_step *st, const struct rs_point *p)
{
	return rs_point_judged_latency(st, p);
}

/* The other run of a point run twice, drawn too: filled when inside. */
static void other_run(struct chart *c, const struct rs_step *st, unsigned series,
		      const struct rs_point *p)
{
	char tip[300], what[64];

	snprintf(what, sizeof(what), "the other run of %u\u00d7%u (%s)", p->iodepth,
		 p->numjobs, p->other->inside ? "inside" : "over the limit: dropped");
	point_tip(tip, sizeof(tip), st, p->other, what);
	chart_point(c, series, false, thr(st, p->other), lat_y(st, p->other),
		    pt_style(p->other, p->other->inside ? CHART_PT_FILLED : CHART_PT_HOLLOW), tip);
}

/* What a point is, for its tip. */
static const char *point_what(const struct rs_point *p, bool inside)
{
	if (p->repeat_missed)
		return "dropped: inside on its first run, its repeat over the limit";
	if (p->confirmed)
		return p->ended_early ? "inside on both runs, the lower drawn; ended early"
				      : "inside on both runs, the lower drawn";
	if (p->ended_early)
		return inside ? "inside the limit; ended early (not time_based)"
			      : "over the limit; ended early (not time_based)";
	return inside ? "inside the limit" : "over the limit";
}

/* A search: one series per numjobs, its points joined in iodepth order
 * (the climb the search made); points over the limit hollow; a point run
 * twice shows its other run too; each point labelled QDxjobs where there
 * is room, a dropped one with its repeat's latency. */
static void search_chart(struct chart *c, const struct rs_step *st, const struct rs_tset *ts)
{
	unsigned n = ts->nr_points, series = 0;
	const struct rs_point **ps = calloc(n ? n : 1, sizeof(*ps));
	double *xs = calloc(n ? n : 1, sizeof(double)), *ys = calloc(n ? n : 1, sizeof(double));
	char tip[300], lbl[64], lat[NUMFMT_MAX], name[CHART_MAX_LEGEND][32];
	bool over = false, tl = false, any_dropped = false;

	for (unsigned i = 0; ps && xs && ys && i < n; i++) {
		unsigned jobs = ts->points[i].numjobs, m = 0;
		bool seen = false;
		for (unsigned k = 0; k < i; k++)
			seen |= ts->points[k].numjobs == jobs;
		if (seen)
			continue;
		for (unsigned k = i; k < n; k++)
			if (ts->points[k].numjobs == jobs)
				ps[m++] = &ts->points[k];
		qsort(ps, m, sizeof(*ps), by_iodepth);
		for (unsigned k = 0; k < m; k++) {
			xs[k] = thr(st, ps[k]);
			ys[k] = lat_y(st, ps[k]);
		}
		chart_path(c, series, false, xs, ys, m); /* the climb */
		for (unsigned k = 0; k < m; k++) {
			bool inside = ps[k]->inside && !ps[k]->partial;
			over |= !inside;
			point_tip(tip, sizeof(tip), st, ps[k], point_what(ps[k], inside));
			tl |= ps[k]->tool_limited;
			chart_point(c, series, false, xs[k], ys[k],
				    pt_style(ps[k], inside ? CHART_PT_FILLED : CHART_PT_HOLLOW), tip);
			if (ps[k]->other)
				other_run(c, st, series, ps[k]);
		}
		if (series < CHART_MAX_LEGEND - 3) {
			snprintf(name[series], sizeof(name[series]), "%u job%s", jobs, jobs == 1 ? "" : "s");
			chart_legend_add(c, series, CHART_LEGEND_LINE, name[series]);
		}
		series++;
	}
	/* the dropped points' labels first: where room runs out, why a
	 * hollow point sits under the limit matters more than a name */
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < n; i++) {
			const struct rs_point *p = &ts->points[i];
			bool dropped = p->repeat_missed && p->other;
			if (dropped != !pass)
				continue;
			if (dropped)
				snprintf(lbl, sizeof(lbl), "%u\u00d7%u repeat: %s", p->iodepth,
					 p->numjobs, numfmt_lat(lat, lat_y(st, p->other)));
			else
				snprintf(lbl, sizeof(lbl), "%u\u00d7%u", p->iodepth, p->numjobs);
			chart_point_label(c, false, thr(st, p), lat_y(st, p), lbl);
			any_dropped |= dropped;
		}
	if (over)
		chart_legend_add(c, 0, CHART_LEGEND_HOLLOW, "over the limit (hollow)");
	if (any_dropped)
		chart_legend_add(c, 0, CHART_LEGEND_HOLLOW,
				 "dropped: its repeat over the limit (labelled)");
	if (tl)
		chart_legend_add(c, 0, CHART_LEGEND_TOOL_LIMITED, CHART_TOOL_LIMITED_TEXT);
	free(ps);
	free(xs);
	free(ys);
}

static int by_pct(const void *a, const void *b)
{
	const struct rs_curve_point *const *x = a, *const *y = b;
	return ((*x)->pct > (*y)->pct) - ((*x)->pct < (*y)->pct);
}

/* A curve: the open-loop points in order of the rate asked, joined and
 * labelled with their %; not reached hollow; the closed-loop maximum a
 * square of its own, joined to nothing (it is another kind of run). */
static void rate_curve_chart(struct chart *c, const struct rs_step *st,
			     const struct rs_tset *ts)
{
	unsigned n = ts->nr_curve;
	const struct rs_curve_point **cp = calloc(n ? n : 1, sizeof(*cp));
	double *xs = calloc(n ? n : 1, sizeof(double)), *ys = calloc(n ? n : 1, sizeof(double));
	char tip[300], what[64], lbl[16];
	bool missed = false, tl = false;

	if (cp && xs && ys) {
		for (unsigned i = 0; i < n; i++)
			cp[i] = &ts->curve[i];
		qsort(cp, n, sizeof(*cp), by_pct);
		for (unsigned i = 0; i < n; i++) {
			xs[i] = thr(st, &cp[i]->p);
			ys[i] = rs_point_latency(st, &cp[i]->p);
		}
		chart_path(c, 0, false, xs, ys, n);
		for (unsigned i = 0; i < n; i++) {
			missed |= !cp[i]->reached;
			snprintf(what, sizeof(what), "%u %% of the maximum%s", cp[i]->pct,
				 cp[i]->reached ? "" : ", not reached");
			point_tip(tip, sizeof(tip), st, &cp[i]->p, what);
			tl |= cp[i]->p.tool_limited;
			chart_point(c, 0, false, xs[i], ys[i],
				    pt_style(&cp[i]->p, cp[i]->reached ? CHART_PT_FILLED : CHART_PT_HOLLOW), tip);
		}
		chart_legend_add(c, 0, CHART_LEGEND_LINE, "rate asked, % of the maximum");
	}
	if (ts->has_max) {
		point_tip(tip, sizeof(tip), st, &ts->max, "closed-loop maximum");
		tl |= ts->max.tool_limited;
		chart_point(c, 1, false, thr(st, &ts->max), rs_point_latency(st, &ts->max),
			    pt_style(&ts->max, CHART_PT_SQUARE), tip);
		chart_legend_add(c, 1, CHART_LEGEND_SQUARE, "closed-loop maximum");
	}
	if (ts->has_max_again) { /* a second square, apart: the first stays what the % are of */
		const struct rs_point *m = &ts->max_again;
		point_tip(tip, sizeof(tip), st, m, "maximum re-measured (closed loop)");
		tl |= m->tool_limited;
		chart_point(c, 2, false, thr(st, m), rs_point_latency(st, m),
			    pt_style(m, CHART_PT_SQUARE), tip);
		chart_point_label(c, false, thr(st, m), rs_point_latency(st, m), "max again");
		chart_legend_add(c, 2, CHART_LEGEND_SQUARE,
				 ts->max_underestimated > 0 ? "maximum re-measured, still beaten"
							    : "maximum re-measured");
	}
	for (unsigned i = 0; cp && xs && i < n; i++) {
		snprintf(lbl, sizeof(lbl), "%u%%", cp[i]->pct);
		chart_point_label(c, false, xs[i], ys[i], lbl);
	}
	if (missed)
		chart_legend_add(c, 0, CHART_LEGEND_HOLLOW, "not reached (hollow)");
	if (tl)
		chart_legend_add(c, 0, CHART_LEGEND_TOOL_LIMITED, CHART_TOOL_LIMITED_TEXT);
	free(cp);
	free(xs);
	free(ys);
}

/* Latency versus throughput of one search or curve step on one target set. */
static void curve_chart(struct report_ctx *r, const struct rs_set *set,
			const struct rs_step *st, unsigned k)
{
	const struct rs_tset *ts = &st->sets[k];
	bool search = st->mode == RS_SEARCH;
	unsigned n = search ? 2 * ts->nr_points : ts->nr_curve + ts->has_max + ts->has_max_again;
	char ylabel[200], wl[300], ctitle[512];

	if (!n)
		return;
	const struct rs_point **ps = calloc(n, sizeof(*ps));
	if (!ps)
		return;
	unsigned m = 0; /* a search's probes; a curve's points, maximum and its re-measure */
	for (unsigned i = 0; search && i < ts->nr_points; i++) {
		ps[m++] = &ts->points[i];
		ps[m++] = ts->points[i].other; /* NULL: skipped */
	}
	for (unsigned i = 0; !search && i < ts->nr_curve; i++)
		ps[m++] = &ts->curve[i].p;
	if (!search && ts->has_max)
		ps[m++] = &ts->max;
	if (!search && ts->has_max_again)
		ps[m++] = &ts->max_again;
	struct axis x, y;
	load_axes(st, ps, n, &x, &y, ylabel, sizeof(ylabel));
	free(ps);
	char mark[64];
	snprintf(ctitle, sizeof(ctitle), "%s: %s versus %s (%s, %s)%s",
		 report_workload_name(wl, sizeof(wl), st, k), lat_word(st->latency_stat),
		 rs_step_is_random(st) ? "IOPS" : "MB/s", rs_mode_name(st->mode), set->name,
		 report_unsteady_mark(mark, sizeof(mark), ts));
	struct chart c;
	if (chart_begin(&c, r->f, "curve", ctitle, &x, &y, NULL))
		return;
	chart_axes(&c);
	load_marks(&c, st, rs_tset_headline(st, ts));
	if (search)
		search_chart(&c, st, ts);
	else
		rate_curve_chart(&c, st, ts);
	report_figure(r, &c, search
			      ? report_once(r, REPORT_SAID_SEARCH, "Every iodepth x numjobs the search ran, labelled QD\u00d7jobs, one line per job count in iodepth order, at the latency its limit was judged on; hollow points were over the limit (dashed line). A point that would have beaten the best was run again: both runs are drawn and the lower counts, and one whose repeat was over the limit is dropped, hollow, labelled with its repeat's latency. The circled point is the best inside it.")
			      : report_once(r, REPORT_SAID_CURVE, "Each rate asked as a % of the closed-loop maximum (the square, measured first), in order; hollow points did not reach the rate asked; the circled point is the maximum."));
	if (!search)
		report_max_note(r->f, ts);
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

struct wl_ref *report_headlines(const struct rs_set *set, unsigned *n)
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
	struct axis y = {.kind = AXIS_LOG, .label = "latency (log scale)", .unit = AXIS_UNIT_LAT};
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
				 report_workload_name(names[i], sizeof(names[i]), w[i].st, w[i].k));
	}
	report_figure(r, &c, report_once(r, REPORT_SAID_PCTS, "Total (read and write) latency percentiles of each workload's best point, 50th to 99.99th."));
}

void report_percentile_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++) {
		unsigned n;
		struct wl_ref *w = report_headlines(&r->sets[s], &n);
		if (!w)
			continue;
		unsigned kept = 0; /* only workloads with percentiles to draw */
		for (unsigned i = 0; i < n; i++)
			if (report_pcts_worth(w[i].p))
				w[kept++] = w[i];
		n = kept;
		unsigned parts = (n + LINES_PER_CHART - 1) / LINES_PER_CHART;
		for (unsigned p = 0; p < parts; p++) {
			unsigned m = n - p * LINES_PER_CHART;
			pct_chart(r, &r->sets[s], w + p * LINES_PER_CHART,
				  m > LINES_PER_CHART ? LINES_PER_CHART : m, p, parts);
		}
		free(w);
	}
}

/* Point i's tooltip: its total over its runs, and its latency. */
static void scaling_tip(const struct rs_scaling *sc, unsigned i, char *buf, size_t len)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX], l[NUMFMT_MAX];
	const double *ys = sc->metric_iops ? sc->iops : sc->bw_bytes;
	size_t n = (size_t)snprintf(buf, len, "%u targets: %s", sc->targets[i],
				    sc->metric_iops ? numfmt_iops(a, ys[i]) : numfmt_bw(a, ys[i]));
	if (n < len && sc->runs[i] > 1 && isfinite(sc->stdev[i]))
		n += (size_t)snprintf(buf + n, len - n, " \xc2\xb1%s (sd of %u runs)",
				      sc->metric_iops ? numfmt_iops(b, sc->stdev[i])
						      : numfmt_bw(b, sc->stdev[i]), sc->runs[i]);
	if (n < len && isfinite(sc->lat_ns[i]))
		snprintf(buf + n, len - n, ", %s latency %s",
			 sc->latency_stat ? sc->latency_stat : "mean", numfmt_lat(l, sc->lat_ns[i]));
}

/* The papers' chart: the total against the targets at once, the latency
 * at each count on the second axis, the knee marked. */
static void scaling_chart(struct report_ctx *r, const struct rs_set *set,
			  const struct rs_step *st)
{
	const struct rs_scaling *sc = &st->scaling;
	char title[400], lbl[200], lat_label[64];
	double xmax = 0, ymax = 0, lmax = 0;

	if (!sc->nr)
		return;
	double *xs = calloc(sc->nr, sizeof(double));
	char (*tips)[160] = calloc(sc->nr, sizeof(*tips));
	const char **tp = calloc(sc->nr, sizeof(*tp));
	if (!xs || !tips || !tp)
		goto out;
	const double *ys = sc->metric_iops ? sc->iops : sc->bw_bytes;
	for (unsigned i = 0; i < sc->nr; i++) {
		xs[i] = sc->targets[i];
		xmax = fmax(xmax, xs[i]);
		if (isfinite(ys[i]))
			ymax = fmax(ymax, ys[i]);
		if (isfinite(sc->lat_ns[i]))
			lmax = fmax(lmax, sc->lat_ns[i]);
		scaling_tip(sc, i, tips[i], sizeof(tips[i]));
		tp[i] = tips[i];
	}
	snprintf(lat_label, sizeof(lat_label), "%s latency",
		 sc->latency_stat ? sc->latency_stat : "mean");
	char x_label[64] = "targets at once";
	if (sc->devices && sc->devices < xmax) /* what the papers' "drives" are not */
		snprintf(x_label, sizeof(x_label), "targets at once, on %u device%s", sc->devices,
			 sc->devices == 1 ? "" : "s");
	struct axis x = {.kind = AXIS_LINEAR, .label = x_label};
	struct axis y = {.kind = AXIS_LINEAR,
			 .label = sc->metric_iops ? "total IOPS" : "total throughput (MB/s, GB/s)",
			 .unit = sc->metric_iops ? AXIS_UNIT_IOPS : AXIS_UNIT_BW};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = lat_label, .unit = AXIS_UNIT_LAT};
	axis_fit(&x, 0, xmax, true);
	axis_fit(&y, 0, ymax, true);
	axis_fit(&y2, 0, lmax, true);
	snprintf(title, sizeof(title), "%s: scaling over targets (%s)", st->label, set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "scaling", title, &x, &y, lmax > 0 ? &y2 : NULL))
		goto out;
	chart_axes(&c);
	chart_line(&c, 0, false, xs, ys, sc->nr, tp);
	chart_legend_add(&c, 0, true, sc->metric_iops ? "total IOPS" : "total MB/s");
	if (lmax > 0) {
		chart_line(&c, 1, true, xs, sc->lat_ns, sc->nr, tp);
		chart_legend_add(&c, 1, true, lat_label);
	}
	if (sc->saturation >= 0 && (unsigned)sc->saturation < sc->nr) {
		unsigned i = (unsigned)sc->saturation;
		snprintf(lbl, sizeof(lbl), "stops growing after %u target%s", sc->targets[i],
			 sc->targets[i] == 1 ? "" : "s");
		chart_mark(&c, false, xs[i], ys[i], lbl);
	}
	for (unsigned i = 0; i < sc->nr && i < st->nr_sets; i++) /* each point its own mark */
		if (st->sets[i].after_unsteady && isfinite(ys[i]) &&
		    sc->targets[i] == st->sets[i].nr_targets) {
			snprintf(lbl, sizeof(lbl), "after no steady state (step %u)",
				 st->sets[i].after_unsteady);
			chart_mark(&c, false, xs[i], ys[i], lbl);
		}
	report_figure(r, &c, sc->message);
out:
	free(xs);
	free(tips);
	free(tp);
}

void report_scaling_charts(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++)
			if (r->sets[s].steps[i].scaling.present)
				scaling_chart(r, &r->sets[s], &r->sets[s].steps[i]);
}
