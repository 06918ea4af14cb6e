/* report_app_trace.c - an application run's traces in the report: a
 * replay of one (`iochar run --read_iolog=...`) against the original
 * point (the device's figures and the trace's summary), and a synthetic
 * plan's workload shapes (block sizes, read share) against the trace of
 * the largest thread count: how close the synthetic stand-in is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/app_model.h"
#include "report/numfmt.h"
#include "report/report_app.h"
#include "report/report_app_int.h"
#include "report/svg_chart.h"

#define DASH "\xe2\x80\x93"
#define MIX_MAX 256

/* A run set's one point and its replaying job's log; NULL: not a replay. */
static const struct rs_point *replay_point(const struct rs_set *s, const char **log)
{
	if (!s->is_run || s->nr_steps != 1 || !s->steps[0].nr_sets)
		return NULL;
	const struct rs_point *p = rs_tset_headline(&s->steps[0], &s->steps[0].sets[0]);
	if (!p || !p->nr_replay || !p->replay[0].read_iolog)
		return NULL;
	*log = p->replay[0].read_iolog;
	return p;
}

const struct rs_app_point *report_app_match(const struct rs_set *sets, unsigned n,
					    const struct rs_set *replay, unsigned *set)
{
	const char *log;
	if (!replay_point(replay, &log))
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		const struct rs_app_point *p = sets[i].app ? rs_app_point_of_trace(sets[i].app, log)
							   : NULL;
		if (p) {
			*set = i;
			return p;
		}
	}
	return NULL;
}

/* "16K 61 %, 4K 20 %, ..." of the first sizes of a mix. */
static char *mix_text(char *buf, const uint64_t *bytes, const double *share, unsigned n)
{
	char sz[NUMFMT_MAX];
	size_t len = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < n && i < 6 && len < MIX_MAX - 40; i++)
		len += (size_t)snprintf(buf + len, MIX_MAX - len, "%s%s %.0f %%", i ? ", " : "",
					numfmt_size(sz, (double)bytes[i]), share[i] * 100);
	if (n > 6)
		snprintf(buf + len, MIX_MAX - len, ", %u more", n - 6);
	return buf;
}

static char *trace_mix(char *buf, const struct rs_app_trace *t)
{
	uint64_t b[REPORT_SHAPE_SIZES];
	double s[REPORT_SHAPE_SIZES];
	unsigned n = t->nr_sizes < REPORT_SHAPE_SIZES ? t->nr_sizes : REPORT_SHAPE_SIZES;
	for (unsigned i = 0; i < n; i++) {
		b[i] = t->sizes[i].bytes;
		s[i] = t->sizes[i].share;
	}
	mix_text(buf, b, s, n);
	if (t->nr_sizes > n)
		snprintf(buf + strlen(buf), MIX_MAX - strlen(buf), ", more");
	return buf;
}

/* A figure's row; a share's difference in points, others' in percent. */
static void row3(FILE *f, const char *what, const char *fmt, double orig, double rep, bool share)
{
	fputs("<tr><th>", f);
	html_escape(f, what);
	fputs("</th>", f);
	app_td_num(f, fmt, orig);
	app_td_num(f, fmt, rep);
	if (share)
		app_td_num(f, "%+.1f points", rep - orig);
	else
		app_td_num(f, "%+.1f %%", orig > 0 ? (rep - orig) / orig * 100 : NAN);
	fputs("</tr>\n", f);
}

/* The device's mean await over a point, weighted by its reads and writes. */
static double await_ms(const struct rs_app_device *d)
{
	double n = d->read_iops + d->write_iops;
	if (!d->present || !(n > 0))
		return NAN;
	double r = d->read_iops > 0 ? d->read_lat_ms * d->read_iops : 0;
	double w = d->write_iops > 0 ? d->write_lat_ms * d->write_iops : 0;
	return (r + w) / n;
}

static void replay_table(FILE *f, const struct rs_set *rs, const struct rs_app_point *o)
{
	const char *log;
	const struct rs_point *p = replay_point(rs, &log);
	const struct rs_app_trace *t = &o->summary;
	char mix[MIX_MAX];
	double rios = (double)(p->read.ios + p->write.ios);
	fprintf(f, "<h4>Replayed against original: the trace at %u threads</h4>\n<p>", o->threads);
	html_escape(f, rs->path);
	fputs(" replays ", f);
	html_escape(f, log);
	fputs(".</p>\n<table class=\"app-replay\"><thead><tr><th></th><th>original</th>"
	      "<th>replayed</th><th>difference</th></tr></thead><tbody>\n", f);
	row3(f, "IOPS", "%.0f",
	     o->dev.present ? o->dev.read_iops + o->dev.write_iops : NAN, p->total.iops, false);
	row3(f, "read share (%)", "%.1f", t->present ? t->read_share * 100 : NAN,
	     rios > 0 ? (double)p->read.ios / rios * 100 : NAN, true);
	row3(f, "mean I/O size (KiB)", "%.1f",
	     t->present && t->ios ? (double)t->bytes / (double)t->ios / 1024 : NAN,
	     rios > 0 ? (double)(p->read.bytes + p->write.bytes) / rios / 1024 : NAN, false);
	row3(f, "mean latency (ms)", "%.3f", await_ms(&o->dev), p->total.lat.mean / 1e6, false);
	fputs("<tr><th>size mix</th><td>", f);
	html_escape(f, t->present ? trace_mix(mix, t) : DASH);
	fputs("</td><td>I/O by I/O as in the trace (the run's JSON has no size "
	      "histogram)</td><td></td></tr>\n</tbody></table>\n", f);
	fputs("<p>Original: the device's block-layer figures while the benchmark ran (latency: "
	      "await, read and write weighted by their IOPS) and the trace's summary. Replayed: "
	      "the run's totals, latency from submission to completion.</p>\n", f);
	if (!p->replay[0].timed)
		fputs("<p>The replay ignored the trace's times (replay_no_stall): its IOPS is "
		      "as fast as the device took the trace's I/Os, not the rate the database "
		      "issued them at.</p>\n", f);
}

static void replays(struct report_ctx *r, const struct rs_set *set)
{
	const struct report_app_extras *x = r->app_x;
	for (unsigned i = 0; x && i < x->nr_replays; i++) {
		unsigned k;
		const struct rs_app_point *o = report_app_match(r->sets, r->nr_sets,
								&x->replays[i], &k);
		if (o && &r->sets[k] == set)
			replay_table(r->f, &x->replays[i], o);
	}
}

void app_shape_fit(const struct report_shape *shapes, unsigned n,
		   const struct rs_app_trace *t, struct app_shape_fit *out)
{
	memset(out, 0, sizeof(*out));
	out->nr = n < 8 ? n : 8;
	for (unsigned i = 0; i < t->nr_sizes; i++) {
		bool any = false;
		for (unsigned s = 0; s < n; s++) {
			bool here = false;
			for (unsigned k = 0; k < shapes[s].nr_sizes; k++)
				here |= shapes[s].bytes[k] == t->sizes[i].bytes;
			if (here && s < out->nr)
				out->at_shape_sizes[s] += t->sizes[i].share;
			any |= here;
		}
		if (any)
			out->at_plan_sizes += t->sizes[i].share;
	}
	for (unsigned s = 0; s < out->nr; s++)
		out->read_diff_pts[s] = (shapes[s].read_share - t->read_share) * 100;
}

static void shape_row(FILE *f, const struct report_shape *s, double at, double diff)
{
	char mix[MIX_MAX];
	fputs("<tr><td>", f);
	html_escape(f, s->name);
	fputs("</td><td>", f);
	html_escape(f, mix_text(mix, s->bytes, s->share, s->nr_sizes));
	fputs("</td>", f);
	app_td_num(f, "%.0f", s->read_share * 100);
	app_td_num(f, "%.0f %%", at * 100);
	app_td_num(f, "%+.0f", diff);
	fputs("</tr>\n", f);
}

static void shapes_table(struct report_ctx *r, const struct rs_set *set)
{
	const struct report_app_extras *x = r->app_x;
	const struct rs_app_point *p = NULL;
	for (unsigned i = 0; i < set->app->nr_points; i++)
		if (set->app->points[i].summary.present &&
		    (!p || set->app->points[i].threads > p->threads))
			p = &set->app->points[i];
	if (!x || !x->nr_shapes || !p)
		return;
	FILE *f = r->f;
	struct app_shape_fit fit;
	char mix[MIX_MAX];
	app_shape_fit(x->shapes, x->nr_shapes, &p->summary, &fit);
	fprintf(f, "<h4>The synthetic <code>%s</code> plan against the trace at %u threads</h4>\n",
		x->shapes_plan, p->threads);
	fputs("<table class=\"app-shapes\"><thead><tr><th>workload</th><th>sizes (share of "
	      "I/Os)</th><th>read %</th><th>trace I/Os at these sizes</th><th>read % less "
	      "the trace's</th></tr></thead><tbody>\n", f);
	fprintf(f, "<tr><td>trace, %u threads</td><td>", p->threads);
	html_escape(f, trace_mix(mix, &p->summary));
	fputs("</td>", f);
	app_td_num(f, "%.0f", p->summary.read_share * 100);
	fputs("<td></td><td></td></tr>\n", f);
	for (unsigned s = 0; s < fit.nr; s++)
		shape_row(f, &x->shapes[s], fit.at_shape_sizes[s], fit.read_diff_pts[s]);
	fprintf(f, "</tbody></table>\n<p>%.0f %% of the trace's I/Os are at a size the "
		   "<code>%s</code> plan issues; the rest are sizes it never issues. How much of "
		   "the load each workload carries is the search's result, not the plan's.</p>\n",
		fit.at_plan_sizes * 100, x->shapes_plan);
}

void app_trace_tables(struct report_ctx *r, const struct rs_set *set)
{
	bool skipped = false;
	for (unsigned i = 0; i < set->app->nr_points; i++)
		skipped |= set->app->points[i].trace_skipped != NULL;
	if (skipped) {
		fputs("<p>No trace captured at:", r->f);
		for (unsigned i = 0; i < set->app->nr_points; i++) {
			const struct rs_app_point *p = &set->app->points[i];
			if (!p->trace_skipped)
				continue;
			fprintf(r->f, " %u threads (", p->threads);
			html_escape(r->f, p->trace_skipped);
			fputs(")", r->f);
		}
		fputs(".</p>\n", r->f);
	}
	replays(r, set);
	shapes_table(r, set);
}
