/* report_hosts.c - the "Per host" section: for every workload measured
 * over many hosts (MPI), each host's figures at the headline point and the
 * total over all of them, with the start skew. One table per workload,
 * a row per host (readable at 8 to 16 hosts), the share of the I/Os drawn
 * as an inline bar so an idle or slow host stands out without a chart. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define SHARE_BAR_PX 80.0 /* the bar of a host that did every I/O */

static bool point_detail(const struct rs_point *p)
{
	for (unsigned i = 0; i < p->nr_hosts; i++)
		if (p->hosts[i].detail)
			return true;
	return false;
}

static void num_td(FILE *f, const char *text)
{
	fputs("<td class=\"num\">", f);
	html_escape(f, text);
	fputs("</td>", f);
}

/* The columns every row has: I/Os, IOPS, MB/s, share, mean and p99. */
static void figures(FILE *f, const struct rs_dir *d, uint64_t all_ios, bool none)
{
	char a[NUMFMT_MAX];
	if (none) {
		fputs("<td class=\"num\">\xe2\x80\x93</td><td class=\"num\">\xe2\x80\x93</td>"
		      "<td class=\"num\">\xe2\x80\x93</td><td class=\"num\">\xe2\x80\x93</td>"
		      "<td class=\"num\">\xe2\x80\x93</td><td class=\"num\">\xe2\x80\x93</td>", f);
		return;
	}
	num_td(f, numfmt_thousands(a, (double)d->ios));
	num_td(f, numfmt_iops(a, d->iops));
	num_td(f, numfmt_bw(a, d->bw_bytes));
	double share = all_ios ? (double)d->ios / (double)all_ios * 100 : NAN;
	if (isfinite(share))
		fprintf(f, "<td class=\"num share\"><span class=\"bar\" style=\"width:%.0fpx\">"
			   "</span>%.1f %%</td>",
			share * SHARE_BAR_PX / 100, share);
	else
		num_td(f, "\xe2\x80\x93");
	/* a host without I/Os has no latency to show */
	num_td(f, numfmt_lat(a, d->ios ? d->lat.mean : NAN));
	num_td(f, numfmt_lat(a, d->ios ? (double)d->lat.pct[RS_P99] : NAN));
}

static void host_row(FILE *f, const struct rs_host *h, uint64_t all_ios, bool detail)
{
	char a[NUMFMT_MAX];
	bool failed = h->lost || h->error;

	fprintf(f, "<tr class=\"host%s\" data-rank=\"%u\" data-ios=\"%llu\"><td>",
		failed ? " failed" : "", h->rank, (unsigned long long)h->total.ios);
	html_escape(f, h->host);
	fprintf(f, "</td><td class=\"num\">%u</td>", h->rank);
	figures(f, &h->total, all_ios, h->lost);
	if (detail) {
		double off = h->detail ? (double)h->start_offset_ns : NAN;
		num_td(f, numfmt_lat(a, off));
		if (h->lost) {
			fputs("<td class=\"bad\">lost", f);
			if (h->error) {
				fputs(": ", f);
				html_escape(f, h->error);
			}
			fputs("</td>", f);
		} else if (h->error) {
			fputs("<td class=\"bad\">error: ", f);
			html_escape(f, h->error);
			fputs("</td>", f);
		} else {
			fputs("<td>ok</td>", f);
		}
	}
	fputs("</tr>\n", f);
}

static void workload_table(FILE *f, const struct rs_set *set, const struct rs_step *st,
			   unsigned k, const struct rs_point *p)
{
	char a[NUMFMT_MAX], wl[300];
	bool detail = point_detail(p);
	unsigned failed = 0;

	for (unsigned i = 0; i < p->nr_hosts; i++)
		failed += p->hosts[i].lost || p->hosts[i].error;
	fputs("<div class=\"hosts\"><h4>", f);
	html_escape(f, set->name);
	fputs(": ", f);
	html_escape(f, report_workload_name(wl, sizeof(wl), st, k));
	fprintf(f, "</h4><p>%u hosts, start skew %s", p->nr_hosts,
		numfmt_lat(a, (double)p->start_skew_ns));
	if (failed)
		fprintf(f, "; <strong class=\"bad\">%u lost or failed</strong>", failed);
	if (st->mode != RS_FIXED)
		fprintf(f, "; at the %s point, %u \xc3\x97 %u", st->mode == RS_SEARCH ? "best" : "maximum",
			p->iodepth, p->numjobs);
	fprintf(f, "</p>\n<table class=\"hosts\" data-hosts=\"%u\" data-skew-ns=\"%llu\"><thead><tr>"
		   "<th>host</th><th>rank</th><th>I/Os</th><th>IOPS</th><th>MB/s</th>"
		   "<th>share of I/Os</th><th>mean latency</th><th>p99 latency</th>%s</tr></thead><tbody>\n",
		p->nr_hosts, (unsigned long long)p->start_skew_ns,
		detail ? "<th>start offset</th><th>status</th>" : "");
	for (unsigned i = 0; i < p->nr_hosts; i++)
		host_row(f, &p->hosts[i], p->total.ios, detail);
	fprintf(f, "<tr class=\"total\" data-ios=\"%llu\"><th>total</th><td></td>",
		(unsigned long long)p->total.ios);
	figures(f, &p->total, p->total.ios, false);
	if (detail)
		fprintf(f, "<td class=\"num\">skew %s</td><td>%s</td>",
			numfmt_lat(a, (double)p->start_skew_ns), failed ? "partial" : "");
	fputs("</tr>\n</tbody></table></div>\n", f);
}

bool report_has_hosts(const struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; k < st->nr_sets; k++) {
				const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
				if (p && p->nr_hosts)
					return true;
			}
		}
	return false;
}

void report_host_tables(struct report_ctx *r)
{
	FILE *f = r->f;
	fputs("<p>Workloads run over many hosts (MPI ranks): each host's figures at the "
	      "workload's headline point (a search's best, a curve's maximum), then the total "
	      "over all hosts. The total's latencies are those of every I/O (the hosts' "
	      "histograms merged), not averages of the hosts'. Start skew: the latest host's "
	      "start minus the earliest's; start offset: a host's start minus the "
	      "earliest's.</p>\n", f);
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; k < st->nr_sets; k++) {
				const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
				if (p && p->nr_hosts)
					workload_table(f, &r->sets[s], st, k, p);
			}
		}
}
