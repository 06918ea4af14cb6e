/* report_replay.c - the "Replay lag beside latency" section: for every
 * headline point of a run that replayed a log (read_iolog), a table per
 * replaying job: its issue lag against the log's schedule beside its
 * latency, percentile by percentile, the I/Os issued behind, and whether
 * it kept up (replay_verdict: the same words as the run's text and JSON). */
#include <stdio.h>

#include "base/replay_verdict.h"
#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

static void note_replay(struct report_ctx *r, const struct rs_set *set,
			const struct rs_step *st, unsigned k, const struct rs_point *p,
			void *arg)
{
	(void)r, (void)set, (void)st, (void)k;
	*(bool *)arg |= p && p->nr_replay > 0;
}

bool report_has_replay(const struct report_ctx *r)
{
	bool any = false;
	/* only reads r: the walk takes it non-const for the drawers */
	report_each_headline((struct report_ctx *)r, note_replay, &any);
	return any;
}

static void num_cell(FILE *f, uint64_t ns, bool have)
{
	char a[NUMFMT_MAX];
	fputs("<td class=\"num\">", f);
	html_escape(f, have ? numfmt_lat(a, (double)ns) : "\xe2\x80\x93");
	fputs("</td>", f);
}

static void job_table(FILE *f, const struct rs_replay *rp)
{
	const char *verdict = replay_verdict(rp->timed, rp->lag.pct[RS_P99]);
	fputs("<p><b>", f);
	html_escape(f, rp->name);
	fputs("</b> replaying <code>", f);
	html_escape(f, rp->read_iolog);
	fputs("</code>: ", f);
	if (!verdict)
		fputs("as fast as possible (no schedule to keep)</p>\n", f);
	else
		fprintf(f, "<span class=\"%s\">%s</span>: %llu of %llu I/Os issued more than "
			"%.3g ms behind the log's schedule</p>\n",
			verdict[0] == 'b' ? "bad" : "good",
			verdict[0] == 'b' ? "behind: the replay could not keep up" : "kept up",
			(unsigned long long)rp->ios_behind, (unsigned long long)rp->ios_timed,
			(double)rp->behind_limit_ns / 1e6);
	fputs("<table class=\"replay\"><thead><tr><th></th><th>issue lag</th>"
	      "<th>tool lag</th><th>latency</th></tr></thead><tbody>\n", f);
	static const int rows[] = {RS_P50, RS_P90, RS_P99, RS_P99_9};
	static const char *const names[] = {"p50", "p90", "p99", "p99.9"};
	for (unsigned i = 0; i < 4; i++) {
		fprintf(f, "<tr><th>%s</th>", names[i]);
		num_cell(f, rp->lag.pct[rows[i]], rp->timed);
		num_cell(f, rp->tool_lag.pct[rows[i]], rp->timed);
		num_cell(f, rp->lat.pct[rows[i]], true);
		fputs("</tr>\n", f);
	}
	fputs("<tr><th>max</th>", f);
	num_cell(f, rp->lag.max, rp->timed);
	num_cell(f, rp->tool_lag.max, rp->timed);
	num_cell(f, rp->lat.max, true);
	fputs("</tr>\n</tbody></table>\n", f);
}

static void draw_point(struct report_ctx *r, const struct rs_set *set,
		       const struct rs_step *st, unsigned k, const struct rs_point *p,
		       void *arg)
{
	(void)arg;
	if (!p || !p->nr_replay)
		return;
	fputs("<h3>", r->f);
	report_point_name(r->f, set, st, k);
	fputs("</h3>\n", r->f);
	for (unsigned j = 0; j < p->nr_replay; j++)
		job_table(r->f, &p->replay[j]);
}

void report_replay_section(struct report_ctx *r)
{
	fputs("<p>How late each replayed I/O was issued against its log's schedule (issue "
	      "lag; iochar's own part: tool lag), beside the latency it then took.</p>\n", r->f);
	report_each_headline(r, draw_point, NULL);
}
