/* report_tables.c - the report's tables: the summary in the papers' form,
 * the comparison of several sets, and every step's parameters with a
 * command line that repeats it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

static void td(FILE *f, const char *cls, const char *text)
{
	if (cls)
		fprintf(f, "<td class=\"%s\">", cls);
	else
		fputs("<td>", f);
	html_escape(f, text);
	fputs("</td>", f);
}

static const char *read_pct(const struct rs_job *j, char *buf)
{
	if (!j->rw)
		return "";
	if (!strcmp(j->rw, "rw") || !strcmp(j->rw, "randrw"))
		snprintf(buf, NUMFMT_MAX, "%u", j->rwmixread);
	else
		snprintf(buf, NUMFMT_MAX, "%s", strstr(j->rw, "read") ? "100" : "0");
	return buf;
}

/* p99 issue lag of a rate-limited point ("" in closed loop) and iochar's
 * share of it, and "tool-limited" with its reason when that share was
 * material. */
static void lag_cell(FILE *f, const struct rs_step *st, const struct rs_tset *ts,
		     const struct rs_point *p)
{
	char a[NUMFMT_MAX];

	if (!p->total.has_service) {
		/* a curve's headline is its closed-loop maximum: its open-loop
		 * points' lag is in their own table */
		if (st->mode == RS_CURVE && ts->nr_curve)
			fputs("<td><a href=\"#paced\">per point</a></td>", f);
		else
			td(f, "num", "");
		return;
	}
	fprintf(f, "<td class=\"num%s\"", p->tool_limited ? " bad" : "");
	if (p->tool_limited_reason) {
		fputs(" title=\"", f);
		html_escape(f, p->tool_limited_reason);
		fputc('"', f);
	}
	fputc('>', f);
	html_escape(f, numfmt_lat(a, (double)p->total.lag.pct[RS_P99]));
	if (p->total.has_tool_lag) {
		fputs("<br>(tool ", f);
		html_escape(f, numfmt_lat(a, (double)p->total.tool_lag.pct[RS_P99]));
		fputc(')', f);
	}
	if (p->tool_limited)
		fputs("<br>(tool-limited)", f);
	fputs("</td>", f);
}

/* A latency of headline p: a rate-limited point's counts from the
 * schedule (the response time), marked so; the note under the table says
 * what the mark means. */
static void lat_cell(FILE *f, const struct rs_point *p, double ns)
{
	char a[NUMFMT_MAX];
	if (!rs_point_open_loop(p)) {
		td(f, "num", numfmt_lat(a, ns));
		return;
	}
	fputs("<td class=\"num\" title=\"response time: from the scheduled time\">", f);
	html_escape(f, numfmt_lat(a, ns));
	fputs(" <span class=\"origin\">from schedule</span></td>", f);
}

/* A search with nothing inside: its run nearest the limit (the lowest
 * judged latency), "; closest 1×1: 289 MB/s at 3.60 ms, over". */
static void closest_point(FILE *f, const struct rs_step *st, const struct rs_tset *ts)
{
	const struct rs_point *c = NULL;
	char a[NUMFMT_MAX], b[NUMFMT_MAX];

	for (unsigned i = 0; i < ts->nr_points; i++) {
		/* a dropped point's first run was inside: its repeat was over */
		const struct rs_point *p = ts->points[i].repeat_missed && ts->points[i].other
						   ? ts->points[i].other : &ts->points[i];
		if (!p->partial && (!c || rs_point_judged_latency(st, p) < rs_point_judged_latency(st, c)))
			c = p;
	}
	if (!c)
		return;
	fprintf(f, "; closest %u\u00d7%u: ", c->iodepth, c->numjobs);
	html_escape(f, rs_step_is_random(st) ? numfmt_iops(a, c->total.iops)
					     : numfmt_bw(a, c->total.bw_bytes));
	fprintf(f, "%s at ", rs_step_is_random(st) ? " IOPS" : "");
	html_escape(f, numfmt_lat(b, rs_point_judged_latency(st, c)));
	fputs(", over", f);
}

static void summary_row(FILE *f, const struct rs_set *set, const struct rs_step *st,
			unsigned k, bool set_col)
{
	const struct rs_tset *ts = &st->sets[k];
	const struct rs_point *p = rs_tset_headline(st, ts);
	char a[NUMFMT_MAX], wl[300];
	bool rnd = rs_step_is_random(st);

	fputs("<tr>", f);
	if (set_col)
		td(f, NULL, set->name);
	fputs("<td>", f);
	html_escape(f, report_workload_name(wl, sizeof(wl), st, k));
	if (ts->after_unsteady) /* on its own row, not only in a chart's title */
		fprintf(f, "<br><small class=\"repeat\">after no steady state (step %u)</small>",
			ts->after_unsteady);
	fputs("</td>", f);
	td(f, NULL, rs_mode_name(st->mode));
	td(f, NULL, st->job.rw ? st->job.rw : "");
	td(f, "num", numfmt_size(a, (double)st->job.bs));
	td(f, "num", read_pct(&st->job, a));
	if (!p) {
		if (st->mode == RS_PRECONDITION && ts->nr_rounds) {
			char b[NUMFMT_MAX + 8];
			snprintf(b, sizeof(b), "%s IOPS",
				 numfmt_iops(a, ts->rounds_iops[ts->nr_rounds - 1]));
			td(f, "num", b);
			fprintf(f, "<td colspan=\"6\">%s after %u rounds</td>",
				ts->steady ? "steady state" : "not steady", ts->nr_rounds);
		} else if (st->mode == RS_SEARCH && ts->done) {
			fputs("<td colspan=\"7\">nothing inside the limit", f);
			closest_point(f, st, ts);
			fputs("</td>", f);
		} else {
			fputs("<td colspan=\"7\">not finished</td>", f);
		}
		fputs("</tr>\n", f);
		return;
	}
	fputs("<td class=\"num best\">", f);
	if (rnd)
		fprintf(f, "%s IOPS", numfmt_iops(a, p->total.iops));
	else
		html_escape(f, numfmt_bw(a, p->total.bw_bytes));
	if (st->mode == RS_SEARCH && ts->confirmed && isfinite(ts->spread))
		fprintf(f, "<br><small class=\"repeat\">repeat spread %.1f %%</small>",
			100 * ts->spread);
	if (!st->job.direct) /* said beside the figure, not only in the parameters */
		fputs("<br><small class=\"buffered\">buffered: page cache, not the device</small>", f);
	fputs("</td>", f);
	td(f, "num", rnd ? numfmt_bw(a, p->total.bw_bytes) : numfmt_iops(a, p->total.iops));
	lat_cell(f, p, p->total.lat.mean);
	lat_cell(f, p, (double)p->total.lat.pct[RS_P99]);
	lag_cell(f, st, ts, p);
	snprintf(wl, sizeof(wl), "%u \xc3\x97 %u", p->iodepth, p->numjobs);
	td(f, "num", wl);
	if (st->latency_limit_ns) {
		/* a search's best is inside by its own rule (latency_scope);
		 * other modes judged here from the figures */
		bool met = st->mode == RS_SEARCH ? p->inside
						 : rs_point_latency(st, p) <= (double)st->latency_limit_ns;
		snprintf(wl, sizeof(wl), "%s %s: %s", st->latency_stat ? st->latency_stat : "mean",
			 numfmt_lat(a, (double)st->latency_limit_ns), met ? "met" : "missed");
		td(f, met ? NULL : "bad", wl);
	} else {
		td(f, NULL, "");
	}
	fputs("</tr>\n", f);
}

void report_point_name(FILE *f, const struct rs_set *set, const struct rs_step *st,
		       unsigned k)
{
	char wl[300];
	html_escape(f, set->name);
	fputs(" / ", f);
	html_escape(f, report_workload_name(wl, sizeof(wl), st, k));
}

void report_each_headline(struct report_ctx *r, report_headline_fn fn, void *arg)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; k < st->nr_sets; k++) {
				const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
				if (p)
					fn(r, &r->sets[s], st, k, p, arg);
			}
		}
}

/* Below the summary: a tool-limited headline point and why, in full
 * (the cell's tooltip does not print). */
static void tool_limited_note(struct report_ctx *r, const struct rs_set *set,
			      const struct rs_step *st, unsigned k,
			      const struct rs_point *p, void *arg)
{
	(void)arg;
	if (!p->tool_limited)
		return;
	fputs("<p class=\"bad\">Tool-limited: ", r->f);
	report_point_name(r->f, set, st, k);
	fputs(": ", r->f);
	html_escape(r->f, p->tool_limited_reason ? p->tool_limited_reason : "");
	fputs(". Its latency is iochar's lateness as much as the "
	      "device's.</p>\n", r->f);
}

/* The setting of a discipline summary, without how it was found: "X
 * (probed at ...)" and "X (probed in an earlier step ...)" are one. */
static size_t discipline_key(const char *d)
{
	const char *p = strstr(d, " (");
	return p ? (size_t)(p - d) : strlen(d);
}

static bool same_discipline(const char *a, const char *b)
{
	size_t n = discipline_key(a);
	return n == discipline_key(b) && !strncmp(a, b, n);
}

struct disc_ref {
	const struct rs_step *st;
	unsigned k;
	bool done;
};

/* One paragraph for the workloads refs[i..] sharing refs[i]'s setting,
 * every workload of the set or those named; its words are the first's
 * (where the probe ran, with its figures). */
static void discipline_group(struct report_ctx *r, const struct rs_set *set,
			     struct disc_ref *refs, unsigned n, unsigned i)
{
	const char *d = refs[i].st->sets[refs[i].k].discipline;
	unsigned members = 0;
	for (unsigned j = i; j < n; j++)
		members += !refs[j].done && same_discipline(d, refs[j].st->sets[refs[j].k].discipline);
	fputs("<p>Submission discipline of ", r->f);
	html_escape(r->f, set->name);
	if (members == n) {
		fputs(n > 1 ? " (every workload)" : "", r->f);
	} else {
		char wl[300];
		for (unsigned j = i, m = 0; j < n; j++) {
			if (refs[j].done || !same_discipline(d, refs[j].st->sets[refs[j].k].discipline))
				continue;
			fputs(m++ ? ", " : " / ", r->f);
			html_escape(r->f, report_workload_name(wl, sizeof(wl), refs[j].st, refs[j].k));
		}
	}
	for (unsigned j = i; j < n; j++)
		if (same_discipline(d, refs[j].st->sets[refs[j].k].discipline))
			refs[j].done = true;
	fputs(": ", r->f);
	html_escape(r->f, d);
	fputs(".</p>\n", r->f);
}

/* Below the summary: the submission discipline each set ran with and
 * why (a probe's figures: the device's best, not the tool's default),
 * said once for the workloads that share it. */
static void discipline_notes(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++) {
		const struct rs_set *set = &r->sets[s];
		unsigned cap = 0, n = 0;
		for (unsigned i = 0; i < set->nr_steps; i++)
			cap += set->steps[i].nr_sets;
		struct disc_ref *refs = calloc(cap ? cap : 1, sizeof(*refs));
		if (!refs)
			return;
		for (unsigned i = 0; i < set->nr_steps; i++)
			for (unsigned k = 0; k < set->steps[i].nr_sets; k++)
				if (set->steps[i].sets[k].discipline &&
				    rs_tset_headline(&set->steps[i], &set->steps[i].sets[k]))
					refs[n++] = (struct disc_ref){&set->steps[i], k, false};
		for (unsigned i = 0; i < n; i++)
			if (!refs[i].done)
				discipline_group(r, set, refs, n, i);
		free(refs);
	}
}

/* Below the summary: a search's best confirmed by running it again, and
 * how far the two runs' scores were apart; bests its repeat dropped. */
static void repeat_note(struct report_ctx *r, const struct rs_set *set,
			const struct rs_step *st, unsigned k, const struct rs_point *p,
			void *arg)
{
	const struct rs_tset *ts = &st->sets[k];
	char a[NUMFMT_MAX], b[NUMFMT_MAX];
	bool rnd = rs_step_is_random(st);

	(void)arg;
	if (st->mode != RS_SEARCH || (!ts->confirmed && !ts->nr_dropped))
		return;
	fputs("<p class=\"repeat\">Best of ", r->f);
	report_point_name(r->f, set, st, k);
	if (ts->confirmed && ts->has_repeat) {
		/* the best is the lower-scoring run: the repeat when best_run
		 * says so, the first run then being in repeat */
		const struct rs_point *first = ts->best_is_repeat ? &ts->repeat : p;
		const struct rs_point *again = ts->best_is_repeat ? p : &ts->repeat;
		fprintf(r->f, ": confirmed by a repeat (%s then %s%s): spread %.1f %%",
			rnd ? numfmt_iops(a, first->total.iops) : numfmt_bw(a, first->total.bw_bytes),
			rnd ? numfmt_iops(b, again->total.iops) : numfmt_bw(b, again->total.bw_bytes),
			rnd ? " IOPS" : "", 100 * ts->spread);
		if (ts->unsteady)
			fputs(", unsteady (over 10 %: which point won is noise)", r->f);
	} else if (ts->confirmed) {
		fprintf(r->f, ": confirmed by a repeat: spread %.1f %%", 100 * ts->spread);
	} else {
		fputs(": not confirmed", r->f);
	}
	unsigned twice = 0; /* besides the best: each would have beaten it on one run */
	for (unsigned i = 0; i < ts->nr_points; i++)
		twice += ts->points[i].confirmed && &ts->points[i] != p;
	if (twice)
		fprintf(r->f, "; %u other point%s run twice, %s lower run below it", twice,
			twice == 1 ? "" : "s", twice == 1 ? "its" : "each one's");
	if (ts->nr_dropped)
		fprintf(r->f, "; %u point%s dropped: %s repeat missed the limit",
			ts->nr_dropped, ts->nr_dropped == 1 ? "" : "s",
			ts->nr_dropped == 1 ? "its" : "their");
	fputs(ts->confirmed && ts->has_repeat
		      ? ". The figure is the lower of the two runs: the first won for scoring "
			"highest of many points, so its luck is part of why it won.</p>\n"
		      : ".</p>\n",
	      r->f);
}

/* Below the summary: a curve whose maximum was measured again, and whether
 * it still came out low (the chart and the rate-limited table say more). */
static void max_again_note(struct report_ctx *r, const struct rs_set *set,
			   const struct rs_step *st, unsigned k, const struct rs_point *p,
			   void *arg)
{
	const struct rs_tset *ts = &st->sets[k];
	char a[NUMFMT_MAX], b[NUMFMT_MAX];

	(void)arg;
	if (st->mode != RS_CURVE || (!ts->has_max_again && !(ts->max_underestimated > 0)))
		return;
	fprintf(r->f, "<p%s>Curve ", ts->max_underestimated > 0 ? " class=\"bad\"" : "");
	report_point_name(r->f, set, st, k);
	if (ts->max_underestimated > 0)
		fprintf(r->f, ": maximum underestimated by %.0f %%", 100 * ts->max_underestimated);
	else
		fputs(": maximum measured again, no longer beaten", r->f);
	if (ts->has_max_again)
		fprintf(r->f, ": re-measured %s IOPS (first %s IOPS)",
			numfmt_iops(a, ts->max_again.total.iops), numfmt_iops(b, p->total.iops));
	fputs(" (<a href=\"#paced\">Rate-limited points</a>).</p>\n", r->f);
}

/* Below the summary, when a headline ran at a rate: where its latency
 * starts. */
static void origin_seen(struct report_ctx *r, const struct rs_set *set,
			const struct rs_step *st, unsigned k, const struct rs_point *p,
			void *arg)
{
	(void)r;
	(void)set;
	(void)st;
	(void)k;
	*(bool *)arg |= rs_point_open_loop(p);
}

void report_summary_table(struct report_ctx *r)
{
	FILE *f = r->f;
	/* one set: its name is the page's, not a column of its own (the
	 * table must fit a 1024 px screen) */
	bool set_col = r->nr_sets > 1;
	fprintf(f, "<table class=\"summary\"><thead><tr>%s<th>workload</th><th>mode</th>",
		set_col ? "<th>set</th>" : "");
	fputs("<th>rw</th><th>bs</th><th>read %</th><th>best</th><th>MB/s or IOPS there</th>"
	      "<th>mean latency</th><th>p99 latency</th><th>p99 issue lag</th>"
	      "<th>iodepth \xc3\x97 jobs (per target)</th>"
	      "<th>latency limit</th></tr></thead><tbody>\n", f);
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++)
			for (unsigned k = 0; k < r->sets[s].steps[i].nr_sets; k++)
				summary_row(f, &r->sets[s], &r->sets[s].steps[i], k, set_col);
	fputs("</tbody></table>\n", f);
	bool open = false;
	report_each_headline(r, origin_seen, &open);
	if (open)
		fputs("<p>Latency counts from submission in closed loop; <span class=\"origin\">"
		      "from schedule</span> marks a rate-limited point's, which counts from the "
		      "time the I/O was scheduled (the response time, its issue lag included). "
		      "Its service latency from submission, per direction, is under <a "
		      "href=\"#paced\">Rate-limited points</a>.</p>\n", r->f);
	report_each_headline(r, tool_limited_note, NULL);
	report_each_headline(r, repeat_note, NULL);
	report_each_headline(r, max_again_note, NULL);
	discipline_notes(r);
}

/* The noise and verdict cells of value v (not the reference). */
static void compare_verdict_cells(FILE *f, const struct cmp_value *v)
{
	char a[NUMFMT_MAX], b[CMP_REASON_MAX + 32];

	td(f, "num", isfinite(v->diff_pct) ? numfmt_pct(a, v->diff_pct) : "");
	if (isfinite(v->noise_pct))
		snprintf(b, sizeof(b), "\xc2\xb1%.1f %%", v->noise_pct);
	else
		snprintf(b, sizeof(b), "\xe2\x80\x93");
	td(f, "num", b);
	if (v->verdict == CMP_NOT_COMPARABLE) {
		snprintf(b, sizeof(b), "not comparable (%s)", v->reason);
		td(f, "nc", b);
		return;
	}
	td(f, v->verdict == CMP_SIGNIFICANT ? "sig" : NULL, cmp_verdict_name(v->verdict));
}

static void compare_intro(FILE *f, const struct cmp_table *t)
{
	fprintf(f, "<p>Each workload against the first set that has it. With repeated runs "
		   "(a set of several runs: the value is their mean), a difference is "
		   "<em>significant</em> when the 95 %% interval of the difference of the run "
		   "means (Welch's t) excludes zero and it is at least %.0f %%. With single "
		   "runs, when it exceeds %.0f \xc3\x97 the combined standard error of the two "
		   "sets' per-second IOPS (Welch) and is at least %.0f %%: run-to-run drift is "
		   "not measured then; fewer than 2 seconds on either side leaves it "
		   "<em>unknown</em>. A difference that is not significant is <em>within "
		   "noise</em> (decided equal) only when the band is no wider than that floor; "
		   "a wider band is <em>inconclusive</em>. Workloads whose parameters differ (iodepth, jobs, bs, "
		   "mix, engine, direct) are <em>not comparable</em>.</p>\n",
		COMPARE_MIN_EFFECT_PCT, COMPARE_K, COMPARE_SINGLE_RUN_FLOOR_PCT);
	for (unsigned i = 0; i < t->nr_rows; i++)
		if (t->rows[i].host) {
			fputs("<p>Rows <em>@ HOST</em> are one host of a run over many hosts, "
			      "beneath the workload's total, matched by host name: a host's total "
			      "has no per-second series, so with single runs its diff is the plain "
			      "ratio and its verdict unknown.</p>\n", f);
			break;
		}
}

void report_compare_table(struct report_ctx *r)
{
	const struct cmp_table *t = &r->cmp;
	FILE *f = r->f;
	char b[NUMFMT_MAX + 8];

	compare_intro(f, t);
	fputs("<table class=\"compare\"><thead><tr><th>workload</th>", f);
	for (unsigned s = 0; s < t->nr_sets; s++) {
		fputs("<th>", f);
		html_escape(f, t->sides[s].name);
		if (t->sides[s].nr_runs > 1)
			fprintf(f, " (%u runs)", t->sides[s].nr_runs);
		fputs(s ? "</th><th>diff</th><th>noise</th><th>verdict</th>" : "</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (unsigned i = 0; i < t->nr_rows; i++) {
		const struct cmp_row *row = &t->rows[i];
		if (row->host) {
			fputs("<tr class=\"host\">", f);
			fputs("<td>@ ", f);
			html_escape(f, row->host);
			fputs("</td>", f);
		} else {
			fputs("<tr>", f);
			td(f, NULL, row->key);
		}
		for (unsigned s = 0; s < t->nr_sets; s++) {
			const struct cmp_value *v = &row->v[s];
			if (v->verdict == CMP_MISSING) {
				td(f, "missing", "missing");
				if (s)
					fputs("<td></td><td></td><td></td>", f);
				continue;
			}
			if (v->lost)
				snprintf(b, sizeof(b), "lost");
			else
				compare_value_text(b, row, v->value);
			td(f, "num", b);
			if (s && v->verdict == CMP_REFERENCE)
				fputs("<td></td><td></td><td>reference</td>", f);
			else if (s)
				compare_verdict_cells(f, v);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void param_row(FILE *f, const char *k, const char *v)
{
	fputs("<tr><th>", f);
	html_escape(f, k);
	fputs("</th><td>", f);
	html_escape(f, v);
	fputs("</td></tr>", f);
}

static void step_params(FILE *f, const struct rs_set *set, const struct rs_step *st)
{
	char a[NUMFMT_MAX], buf[128];

	fputs("<div class=\"step\"><h4>", f);
	html_escape(f, set->name);
	fputs(": ", f);
	html_escape(f, st->label);
	fputs("</h4><table class=\"kv\">", f);
	param_row(f, "mode", rs_mode_name(st->mode));
	param_row(f, "targets", st->targets_use ? st->targets_use : "each");
	if (st->latency_limit_ns) {
		snprintf(buf, sizeof(buf), "%s %s", st->latency_stat ? st->latency_stat : "mean",
			 numfmt_lat(a, (double)st->latency_limit_ns));
		param_row(f, "latency limit", buf);
	}
	param_row(f, "rw", st->job.rw ? st->job.rw : "");
	snprintf(buf, sizeof(buf), "%s (%s bytes)", numfmt_size(a, (double)st->job.bs),
		 numfmt_thousands(a, (double)st->job.bs));
	param_row(f, "bs", buf);
	param_row(f, "ioengine", st->job.ioengine ? st->job.ioengine : "");
	param_row(f, "direct", st->job.direct ? "1 (O_DIRECT: device figures)"
					      : "0 (page cache: buffered figures)");
	if (st->partial || st->error)
		param_row(f, "partial", st->error ? st->error : "yes");
	fputs("</table>", f);
	for (unsigned k = 0; k < st->nr_sets; k++) {
		const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
		char *cmd = report_run_cmdline(st, &st->sets[k], p);
		if (!cmd)
			continue;
		fputs("<pre class=\"cmd\">", f);
		html_escape(f, cmd);
		fputs("</pre>", f);
		free(cmd);
	}
	fputs("</div>\n", f);
}

void report_parameters(struct report_ctx *r)
{
	FILE *f = r->f;
	fputs("<p>Each step's job as it ran, and an <code>iochar run</code> command line "
	      "that repeats its headline point (a search's best iodepth \xc3\x97 jobs, a "
	      "curve's maximum) on the same targets.</p>\n", f);
	for (unsigned s = 0; s < r->nr_sets; s++) {
		const struct rs_set *set = &r->sets[s];
		for (unsigned i = 0; i < set->nr_steps; i++)
			step_params(f, set, &set->steps[i]);
		if (set->source && *set->source) {
			fputs("<h4>Plan ", f);
			html_escape(f, set->plan);
			fputs(" (", f);
			html_escape(f, set->name);
			fputs("): <code>iochar plan FILE</code> with this text runs it again</h4><pre class=\"plan\">", f);
			html_escape(f, set->source);
			fputs("</pre>\n", f);
		}
	}
}
