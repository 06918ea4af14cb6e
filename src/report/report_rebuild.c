/* report_rebuild.c - the "RAID rebuild" section: for every plan step with
 * mode=rebuild, a row for the workload on the healthy VD (the baseline)
 * and one per rebuild rate: how fast the member was rebuilt and what the
 * foreground kept of its IOPS and latency meanwhile, as a controller's
 * rebuild-rate setting is judged. */
#include <stdio.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

static void cell(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(f, text);
	fputs("</td>", f);
}

/* The foreground point's cells, and its IOPS against the baseline's. */
static void fg_cells(FILE *f, const struct rs_point *p, double base_iops)
{
	char a[NUMFMT_MAX];
	cell(f, "num", numfmt_iops(a, p->total.iops));
	cell(f, "num", numfmt_bw(a, p->total.bw_bytes));
	cell(f, "num", numfmt_lat(a, p->total.lat.mean));
	cell(f, "num", numfmt_lat(a, (double)p->total.lat.pct[RS_P99]));
	if (base_iops > 0)
		snprintf(a, sizeof(a), "%+.0f%%", 100 * (p->total.iops / base_iops - 1));
	else
		snprintf(a, sizeof(a), "\xe2\x80\x93");
	cell(f, "num", a);
}

static void rebuild_table(FILE *f, const struct rs_set *set, const struct rs_step *st,
			  unsigned k)
{
	const struct rs_tset *ts = &st->sets[k];
	double base = ts->points[0].total.iops;
	char a[NUMFMT_MAX];

	fputs("<h3>", f);
	report_point_name(f, set, st, k);
	fputs("</h3>\n<table class=\"rebuild\"><thead><tr><th>rebuild rate</th>"
	      "<th>rebuild MB/s</th><th>IOPS</th><th>MB/s</th><th>mean latency</th>"
	      "<th>p99 latency</th><th>IOPS vs healthy</th></tr></thead><tbody>\n", f);
	fputs("<tr><td>none (healthy VD)</td><td class=\"num\">\xe2\x80\x93</td>", f);
	fg_cells(f, &ts->points[0], 0);
	fputs("</tr>\n", f);
	for (unsigned i = 0; i < ts->nr_rebuild; i++) {
		fputs("<tr>", f);
		cell(f, NULL, ts->rebuild_rates[i]);
		cell(f, "num", numfmt_bw(a, ts->rebuild_bw[i]));
		fg_cells(f, &ts->points[i + 1], base);
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody></table>\n<p>Afterwards %llu rows disagreed with the others%s.</p>\n",
		(unsigned long long)ts->rebuild_bad,
		ts->rebuild_bad ? ": THE REBUILT MEMBER IS WRONG" : " (the rebuilt member is good)");
}

bool report_has_rebuilds(const struct report_ctx *r)
{
	for (unsigned i = 0; i < r->nr_sets; i++)
		for (unsigned s = 0; s < r->sets[i].nr_steps; s++) {
			const struct rs_step *st = &r->sets[i].steps[s];
			for (unsigned k = 0; st->mode == RS_REBUILD && k < st->nr_sets; k++)
				if (st->sets[k].nr_rebuild)
					return true;
		}
	return false;
}

void report_rebuild_tables(struct report_ctx *r)
{
	for (unsigned i = 0; i < r->nr_sets; i++)
		for (unsigned s = 0; s < r->sets[i].nr_steps; s++) {
			const struct rs_step *st = &r->sets[i].steps[s];
			for (unsigned k = 0; st->mode == RS_REBUILD && k < st->nr_sets; k++)
				if (st->sets[k].nr_rebuild)
					rebuild_table(r->f, &r->sets[i], st, k);
		}
}
