/* report_paced.c - the rate-limited (open-loop) points of every step: a
 * curve's percentages, a paced fixed run, any point that had a rate. Per
 * point: the rate asked, the IOPS achieved, whether it held the rate, and
 * tool-limited with its reason; per direction: the response time (from
 * the scheduled time) beside the service time (from submission), the
 * issue lag and iochar's own share of it (docs/output.md, "Lag, tool
 * lag, tool-limited"). A curve's closed-loop maximum, and its re-measure,
 * are the reference rows, and a maximum that came out low is said under
 * the table. The summary gives one figure per workload; this is where a
 * curve's open-loop points are read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define DASH "\xe2\x80\x93"

/* One row group of the table: a point and how it came to run. */
struct paced_row {
	const struct rs_point *p;
	const struct rs_curve_point *cp; /* a curve's percentage; NULL otherwise */
	const char *what;                /* a closed-loop reference: its name */
};

static void cell(FILE *f, const char *cls, unsigned rows, const char *text)
{
	fputs("<td", f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	if (rows > 1)
		fprintf(f, " rowspan=\"%u\"", rows);
	fputc('>', f);
	html_escape(f, text);
	fputs("</td>", f);
}

/* The directions p did I/O in (read, write); total when neither did. */
static unsigned dirs_of(const struct rs_point *p, const struct rs_dir **d,
			const char **name)
{
	unsigned n = 0;
	if (p->read.ios) {
		d[n] = &p->read;
		name[n++] = "read";
	}
	if (p->write.ios) {
		d[n] = &p->write;
		name[n++] = "write";
	}
	if (!n) {
		d[n] = &p->total;
		name[n++] = "total";
	}
	return n;
}

/* "reached (9 of 10 s on rate)", "not reached (4 of 10 s on rate)", or the
 * seconds alone where no verdict was given (a paced fixed run). */
static const char *on_rate(const struct paced_row *w, char *buf, size_t len, bool *bad)
{
	const struct rs_point *p = w->p;
	char secs[64] = "";
	*bad = false;
	if (p->has_sec && p->nr_sec)
		snprintf(secs, sizeof(secs), "%u of %u s on rate", p->sec_on_rate, p->nr_sec);
	else if (p->has_sec)
		snprintf(secs, sizeof(secs), "under 1 s: on its average");
	if (!w->cp) {
		snprintf(buf, len, "%s", *secs ? secs : DASH);
		return buf;
	}
	*bad = !w->cp->reached;
	snprintf(buf, len, "%s%s%s%s", w->cp->reached ? "reached" : "not reached",
		 *secs ? " (" : "", secs, *secs ? ")" : "");
	return buf;
}

/* The cells of one direction: its IOPS, response and service latency,
 * issue lag and tool lag (with its share of the p99 response time). */
static void dir_cells(FILE *f, const struct rs_dir *d, bool open)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX + 32];

	cell(f, "num", 1, numfmt_iops(a, d->iops));
	if (open) {
		cell(f, "num", 1, numfmt_lat(a, d->lat.mean));
		cell(f, "num", 1, numfmt_lat(a, (double)d->lat.pct[RS_P99]));
	} else { /* closed loop: nothing was scheduled */
		cell(f, "num", 1, DASH);
		cell(f, "num", 1, DASH);
	}
	/* closed loop: the latency is the service time itself */
	const struct rs_lat *svc = open ? (d->has_service ? &d->service : NULL) : &d->lat;
	cell(f, "num", 1, svc ? numfmt_lat(a, svc->mean) : DASH);
	cell(f, "num", 1, svc ? numfmt_lat(a, (double)svc->pct[RS_P99]) : DASH);
	cell(f, "num", 1, open && d->has_lag ? numfmt_lat(a, (double)d->lag.pct[RS_P99]) : DASH);
	if (open && d->has_tool_lag) {
		double tl = (double)d->tool_lag.pct[RS_P99], lat = (double)d->lat.pct[RS_P99];
		numfmt_lat(a, tl);
		if (lat > 0)
			snprintf(b, sizeof(b), "%s (%.0f %%)", a, 100 * tl / lat);
		else
			snprintf(b, sizeof(b), "%s", a);
		cell(f, "num", 1, b);
	} else {
		cell(f, "num", 1, DASH);
	}
}

static void paced_row(FILE *f, const struct paced_row *w)
{
	const struct rs_point *p = w->p;
	const struct rs_dir *d[3];
	const char *dn[3];
	unsigned nd = dirs_of(p, d, dn);
	bool open = rs_point_open_loop(p), bad;
	char a[NUMFMT_MAX], b[160];

	fputs("<tr class=\"pt\">", f);
	if (w->cp)
		snprintf(b, sizeof(b), "%u %%", w->cp->pct);
	else if (w->what)
		snprintf(b, sizeof(b), "%s", w->what);
	else
		snprintf(b, sizeof(b), "QD %u \xc3\x97 %u jobs", p->iodepth, p->numjobs);
	cell(f, NULL, nd, b);
	if (open && p->asked_iops > 0) {
		cell(f, "num", nd, numfmt_iops(a, p->asked_iops));
	} else {
		/* open loop at no rate: a replay, paced by its log */
		cell(f, NULL, nd, !open ? "closed loop" : p->nr_replay ? "the log's schedule" : "");
	}
	if (open && p->asked_iops > 0)
		snprintf(b, sizeof(b), "%s (%.1f %%)", numfmt_iops(a, p->total.iops),
			 100 * p->total.iops / p->asked_iops);
	else
		snprintf(b, sizeof(b), "%s", numfmt_iops(a, p->total.iops));
	cell(f, "num", nd, b);
	on_rate(w, b, sizeof(b), &bad);
	cell(f, bad ? "bad" : NULL, nd, b);
	for (unsigned i = 0; i < nd; i++) {
		if (i)
			fputs("</tr>\n<tr>", f);
		cell(f, NULL, 1, dn[i]);
		dir_cells(f, d[i], open);
		if (i)
			continue;
		char why[512];
		snprintf(why, sizeof(why), "tool-limited: %s",
			 p->tool_limited_reason ? p->tool_limited_reason : "");
		cell(f, p->tool_limited ? "bad" : NULL, nd,
		     p->tool_limited ? why : open ? "no" : DASH);
	}
	fputs("</tr>\n", f);
}

/* The rows of target set ts of st: a curve's maximum, its re-measure and
 * its percentages; any other step's points that ran at a rate. Into rows
 * (room for every point); returns how many, 0 when none is open-loop. */
static unsigned rows_of(const struct rs_step *st, const struct rs_tset *ts,
			struct paced_row *rows)
{
	unsigned n = 0;
	bool open = false;
	if (st->mode == RS_CURVE) {
		if (ts->has_max)
			rows[n++] = (struct paced_row){.p = &ts->max, .what = "maximum"};
		if (ts->has_max_again)
			rows[n++] = (struct paced_row){.p = &ts->max_again,
						       .what = "maximum again"};
		for (unsigned i = 0; i < ts->nr_curve; i++) {
			rows[n++] = (struct paced_row){.p = &ts->curve[i].p, .cp = &ts->curve[i]};
			open |= rs_point_open_loop(&ts->curve[i].p);
		}
		return open ? n : 0;
	}
	if (st->mode == RS_PRECONDITION)
		return 0;
	for (unsigned i = 0; i < ts->nr_points; i++)
		if (rs_point_open_loop(&ts->points[i]))
			rows[n++] = (struct paced_row){.p = &ts->points[i]};
	return n;
}

static unsigned room(const struct rs_tset *ts)
{
	return ts->nr_points + ts->nr_curve + 2;
}

/* "Maximum underestimated by 19 %: re-measured 411K IOPS; a point reached
 * 493K" or, when the re-measure settled it, what it found. NULL-safe on a
 * curve that did neither. report_charts.c writes it under the chart too. */
void report_max_note(FILE *f, const struct rs_tset *ts)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX], c[NUMFMT_MAX];
	double first = ts->max.total.iops;

	if (ts->max_underestimated > 0 && isfinite(ts->max_underestimated)) {
		fprintf(f, "<p class=\"bad max-note\">Maximum underestimated by %.0f %%: ",
			100 * ts->max_underestimated);
		if (ts->has_max_again)
			fprintf(f, "re-measured %s IOPS (first %s IOPS); ",
				numfmt_iops(a, ts->max_again.total.iops), numfmt_iops(b, first));
		fprintf(f, "a point reached %s IOPS, above both. The percentages are of the "
			   "first maximum.</p>\n",
			numfmt_iops(c, ts->top_reached_iops));
	} else if (ts->has_max_again) {
		fprintf(f, "<p class=\"max-note\">Maximum re-measured: %s IOPS (first %s IOPS), "
			   "after a point reached %s IOPS above the first; the percentages are of "
			   "the first.</p>\n",
			numfmt_iops(a, ts->max_again.total.iops), numfmt_iops(b, first),
			numfmt_iops(c, ts->top_reached_iops));
	}
}

static void paced_table(struct report_ctx *r, const struct rs_set *set,
			const struct rs_step *st, unsigned k, struct paced_row *rows,
			unsigned n)
{
	FILE *f = r->f;

	fputs("<h3>", f);
	report_point_name(f, set, st, k);
	fprintf(f, " (%s)</h3>\n", rs_mode_name(st->mode));
	fputs("<table class=\"paced\"><thead><tr><th rowspan=\"2\">point</th>"
	      "<th rowspan=\"2\">rate asked</th><th rowspan=\"2\">IOPS achieved (% of asked)</th>"
	      "<th rowspan=\"2\">on rate</th><th rowspan=\"2\">dir.</th>"
	      "<th rowspan=\"2\">IOPS</th>"
	      "<th colspan=\"2\">response latency, from the scheduled time</th>"
	      "<th colspan=\"2\">service latency, from submission</th>"
	      "<th rowspan=\"2\">p99 issue lag</th>"
	      "<th rowspan=\"2\">p99 tool lag (% of p99 response)</th>"
	      "<th rowspan=\"2\">tool-limited</th></tr>\n"
	      "<tr><th>mean</th><th>p99</th><th>mean</th><th>p99</th></tr></thead><tbody>\n", f);
	for (unsigned i = 0; i < n; i++)
		paced_row(f, &rows[i]);
	fputs("</tbody></table>\n", f);
	if (st->mode == RS_CURVE)
		report_max_note(f, &st->sets[k]);
}

bool report_has_paced(const struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; k < st->nr_sets; k++) {
				const struct rs_tset *ts = &st->sets[k];
				if (st->mode == RS_CURVE) {
					for (unsigned j = 0; j < ts->nr_curve; j++)
						if (rs_point_open_loop(&ts->curve[j].p))
							return true;
				} else if (st->mode != RS_PRECONDITION) {
					for (unsigned j = 0; j < ts->nr_points; j++)
						if (rs_point_open_loop(&ts->points[j]))
							return true;
				}
			}
		}
	return false;
}

void report_paced_tables(struct report_ctx *r)
{
	fputs("<p>Every point run at a rate (open loop), per direction. Its <em>response "
	      "latency</em> counts from the time the I/O was scheduled, so a device that falls "
	      "behind cannot hide its queueing (the latency the rest of this report gives for "
	      "such a point); its <em>service latency</em> counts from submission, as fio "
	      "reports a rate-limited job. The <em>issue lag</em> is the wait between the two; "
	      "the <em>tool lag</em> is the part of it that was iochar's own lateness, and a "
	      "point whose p99 tool lag exceeds 10 % of its p99 response latency in some "
	      "direction is <em>tool-limited</em>. A closed-loop run (a curve's maximum) has no "
	      "schedule: its latency is from submission.</p>\n", r->f);
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; k < st->nr_sets; k++) {
				/* on the heap: a file may hold any number of points */
				struct paced_row *rows = calloc(room(&st->sets[k]), sizeof(*rows));
				unsigned n = rows ? rows_of(st, &st->sets[k], rows) : 0;
				if (n)
					paced_table(r, &r->sets[s], st, k, rows, n);
				free(rows);
			}
		}
}
