/* report_page.c - the HTML page around the report's sections: head, inline
 * style sheet (screen and print), the list of result sets, and the order
 * of the sections (report.h). */
#include <errno.h>
#include <stdio.h>

#include "report/report.h"
#include "report/report_app.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

static const char style[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
	"margin:24px auto;max-width:1100px;padding:0 16px;color:#1a1a1a;background:#fff;"
	"line-height:1.4}\n"
	"h1{font-size:1.6em;margin-bottom:4px}h2{border-bottom:2px solid #0072B2;"
	"padding-bottom:2px;margin-top:2em}h3{margin-top:1.4em}h4{margin:1em 0 .3em}\n"
	"table{border-collapse:collapse;margin:8px 0;font-size:.92em}\n"
	/* a table wider than the page scrolls in its own box, the page never
	 * sideways; its cells wrap first */
	"table{display:block;width:max-content;max-width:100%;overflow-x:auto}"
	"td.num small.repeat,td.num small.buffered{white-space:normal}\n"
	/* the rate-limited table's 13 columns fit a 1024 px window when its
	 * figures may wrap between number and unit */
	"@media (max-width:1180px){table.paced td.num{white-space:normal}"
	"table.paced td.bad:last-child{min-width:8em}}\n"
	"th,td{border:1px solid #c8c8c8;padding:3px 8px;text-align:left;vertical-align:top}\n"
	"thead th{background:#eef3f8}td.num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}td.best{font-weight:600}td.bad,td.sig,span.bad,p.bad{color:#b34700;font-weight:600}span.origin,small.repeat,small.buffered{font-size:.85em;color:#555;font-weight:400}td span.origin{display:block}table.paced{font-size:.82em}table.paced td.bad:last-child{min-width:12em}span.good{color:#2a7d2a;font-weight:600}"
	"td.missing,td.nc{color:#777;font-style:italic}\n"
	"table.kv th{background:#f6f6f6;font-weight:600;white-space:nowrap}\n"
	"span.none{color:#888}\n"
	"div.env table{max-width:100%}div.env td{overflow-wrap:break-word}"
	"table.env-group{font-size:.85em}table.env-group td:first-child{overflow-wrap:anywhere}"
	"td.wrap{overflow-wrap:anywhere;max-width:36em}"
	"div.env div.raw{overflow-x:auto}div.env table.kv th{white-space:normal}details summary{cursor:pointer;margin:.6em 0}\n"
	"figure{margin:16px 0;break-inside:avoid;page-break-inside:avoid}\n"
	"figcaption{font-size:.88em;color:#444;max-width:760px}\n"
	"svg.chart{width:100%;max-width:760px;height:auto;display:block;background:#fff}\n"
	"svg .grid{stroke:#e2e2e2;stroke-width:1}svg .frame{fill:none;stroke:#555;stroke-width:1}\n"
	"svg text{font-family:system-ui,Helvetica,Arial,sans-serif;fill:#1a1a1a}\n"
	"svg .tick{font-size:11px}svg .axis-label{font-size:12.5px;font-weight:600}\n"
	"svg .chart-title{font-size:15px;font-weight:700}svg .legend{font-size:12px}\n"
	"svg .mark-label{font-size:12px;font-weight:600;fill:#b34700}"
	"svg .pt-label{font-size:10px;fill:#333}\n"
	"svg .limit{stroke:#D55E00;stroke-width:1.5;stroke-dasharray:6 4}\n"
	"pre{background:#f4f4f4;padding:6px 8px;overflow-x:auto;white-space:pre-wrap;"
	"word-break:break-all;font-size:.85em}\n"
	"nav ol{columns:2}\n"
	"@media print{body{margin:0;max-width:none;font-size:10pt}nav{display:none}"
	"table{font-size:8pt;display:table;width:auto;overflow:visible}th,td{padding:1px 4px}"
	/* the rate-limited table's 13 columns share a page's width */
	"table.paced{font-size:7pt}table.paced td.num{white-space:normal}"
	"table.paced th,table.paced td{padding:1px 2px}table.paced td.bad:last-child{min-width:0}"
	"h2{break-after:avoid;page-break-after:avoid}pre{white-space:pre-wrap}"
	"svg.chart{max-width:17cm}a{color:inherit;text-decoration:none}"
	/* paper does not scroll: the environment's wide tables share the
	 * page's width and wrap inside their cells */
	"div.env table{table-layout:fixed;width:100%}"
	"div.env th,div.env td{overflow-wrap:anywhere;white-space:normal}}\n";

/* Only in reports of application runs: their two charts side by side
 * where the window has room for both. */
static const char app_style[] =
	"div.app-pair{display:flex;flex-wrap:wrap;gap:8px 16px}"
	"div.app-pair figure{flex:1 1 440px;min-width:0;margin:8px 0}\n";

/* Only in reports of runs over many hosts, so others stay as they were. */
static const char host_style[] =
	"table.hosts tr.total{font-weight:600;background:#f6f6f6}"
	"table.hosts span.bar{display:inline-block;height:.7em;background:#0072B2;"
	"margin-right:6px}strong.bad{color:#b34700}"
	"table.compare tr.host td:first-child{padding-left:24px}\n"
	"table.host-env{font-size:.85em}table.host-env td{white-space:nowrap}"
	"table.host-env td[data-col=\"CPU model\"],table.host-env td[data-col=\"device model\"],"
	"table.host-env td[data-col=\"PCIe link\"],table.host-env td[data-col=\"NIC speed/MTU\"]"
	"{white-space:normal;min-width:6em}"
	"table.host-env td.differs{background:#fdecd9;font-weight:600}"
	"table.host-env span.mark{color:#b34700;font-weight:700}\n";

struct section {
	const char *id, *title;
	void (*draw)(struct report_ctx *r);
	bool several_only;
};

static void sets_list(struct report_ctx *r)
{
	FILE *f = r->f;
	fputs("<table class=\"sets\"><thead><tr><th>set</th><th>path</th><th>plan</th>"
	      "<th>steps</th><th>iochar</th><th>complete</th></tr></thead><tbody>\n", f);
	for (unsigned s = 0; s < r->nr_sets; s++) {
		const struct rs_set *set = &r->sets[s];
		fputs("<tr><td>", f);
		html_escape(f, set->name);
		fputs("</td><td>", f);
		html_escape(f, set->path);
		fputs("</td><td>", f);
		html_escape(f, set->net ? "(a network test)" : set->mesh ? "(a net mesh)"
			       : set->app ? "(an application run)"
			       : set->fio_version ? "(fio's results)"
			       : set->is_run ? "(a single run)" : set->plan);
		if (set->net || set->mesh || set->app) /* a network test has no steps */
			fputs("</td><td class=\"num\">\xe2\x80\x93</td><td>", f);
		else
			fprintf(f, "</td><td class=\"num\">%u of %u</td><td>", set->nr_steps,
				set->nr_steps_planned);
		/* whose figures these are: fio's data is named by fio's version */
		html_escape(f, set->fio_version ? set->fio_version : set->iochar_version);
		fprintf(f, "</td><td>%s</td></tr>\n", set->complete ? "yes" : "no: partial results");
	}
	fputs("</tbody></table>\n", f);
}

static const struct section sections[] = {
	{"sets", "Result sets", sets_list, false},
	{"summary", "Summary", report_summary_table, false},
	{"bars", "Best figure per workload", report_bar_charts, false},
	{"raid", "RAID levels compared", report_raid_charts, false},
	{"hosts", "Per host", report_host_tables, false},
	{"targets", "Per target and RAID virtual drive", report_target_tables, false},
	{"rebuild", "RAID rebuild", report_rebuild_tables, false},
	{"replay", "Replay lag beside latency", report_replay_section, false},
	{"paced", "Rate-limited points: response, service and lag", report_paced_tables, false},
	{"compare", "Comparison", report_compare_table, true},
	{"network", "Network", report_network, false},
	{"app", "Application runs", report_app_section, false},
	{"curves", "Latency versus throughput", report_curve_charts, false},
	{"percentiles", "Latency percentiles", report_percentile_charts, false},
	{"series", "Per-second series", report_series_charts, false},
	{"scaling", "Scaling over targets", report_scaling_charts, false},
	{"model", "Predicted beside measured", report_model_section, false},
	{"environment", "Environment", report_environment, false},
	{"parameters", "Parameters of every step", report_parameters, false},
};
#define NR_SECTIONS (sizeof(sections) / sizeof(sections[0]))

/* Sections with nothing to show are left out (a plan without curves). */
static bool section_empty(const struct report_ctx *r, const struct section *s)
{
	if (s->draw == report_host_tables)
		return !report_has_hosts(r);
	if (s->draw == report_raid_charts)
		return !report_has_raid(r);
	if (s->draw == report_target_tables)
		return !report_has_targets(r);
	if (s->draw == report_model_section)
		return !report_has_preds(r);
	if (s->draw == report_rebuild_tables)
		return !report_has_rebuilds(r);
	if (s->draw == report_replay_section)
		return !report_has_replay(r);
	if (s->draw == report_paced_tables)
		return !report_has_paced(r);
	if (s->draw == report_bar_charts)
		return !report_has_bars(r);
	if (s->draw == report_percentile_charts)
		return !report_has_percentiles(r);
	if (s->draw == report_series_charts)
		return !report_has_series(r);
	if (s->draw == report_network) {
		for (unsigned i = 0; i < r->nr_sets; i++)
			if (r->sets[i].net || r->sets[i].mesh)
				return false;
		return true;
	}
	if (s->draw == report_app_section) {
		for (unsigned i = 0; i < r->nr_sets; i++)
			if (r->sets[i].app || r->sets[i].nr_step_apps)
				return false;
		return true;
	}
	/* the disk sections have nothing to show for network sets alone */
	bool steps = false;
	for (unsigned i = 0; i < r->nr_sets; i++)
		steps |= r->sets[i].nr_steps > 0;
	if (!steps && (s->draw == report_summary_table || s->draw == report_bar_charts ||
		       s->draw == report_percentile_charts ||
		       s->draw == report_series_charts || s->draw == report_parameters))
		return true;
	for (unsigned i = 0; i < r->nr_sets; i++)
		for (unsigned k = 0; k < r->sets[i].nr_steps; k++) {
			const struct rs_step *st = &r->sets[i].steps[k];
			if (s->draw == report_curve_charts &&
			    (st->mode == RS_SEARCH || st->mode == RS_CURVE))
				return false;
			if (s->draw == report_scaling_charts && st->scaling.present)
				return false;
		}
	return s->draw == report_curve_charts || s->draw == report_scaling_charts;
}

int report_write_html(const struct rs_set *sets, unsigned n, FILE *f)
{
	unsigned ones[n ? n : 1];
	for (unsigned i = 0; i < n; i++)
		ones[i] = 1;
	return report_write_html_all(sets, n, ones, n, NULL, f);
}

int report_write_html_sides(const struct rs_set *sets, unsigned n,
			    const unsigned *run_counts, unsigned nr_sides, FILE *f)
{
	return report_write_html_all(sets, n, run_counts, nr_sides, NULL, f);
}

int report_write_html_all(const struct rs_set *sets, unsigned n, const unsigned *run_counts,
			  unsigned nr_sides, const struct report_preds *preds, FILE *f)
{
	return report_write_html_ext(sets, n, run_counts, nr_sides, preds, NULL, f);
}

static bool any_app(const struct rs_set *sets, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (sets[i].app)
			return true;
	return false;
}

int report_write_html_ext(const struct rs_set *sets, unsigned n, const unsigned *run_counts,
			  unsigned nr_sides, const struct report_preds *preds,
			  const struct report_app_extras *x, FILE *f)
{
	struct report_ctx r = {.f = f, .sets = sets, .nr_sets = n, .preds = preds, .app_x = x};
	int ret = compare_build_sides(sets, run_counts, nr_sides, &r.cmp);
	if (ret)
		return ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	      "<meta name=\"generator\" content=\"iochar " IOCHAR_VERSION "\"><title>iochar report: ",
	      f);
	for (unsigned s = 0; s < n; s++) {
		html_escape(f, s ? ", " : "");
		html_escape(f, sets[s].name);
	}
	fprintf(f, "</title>\n<style>\n%s%s%s</style></head>\n<body>\n<h1>iochar report</h1>\n"
		   "<p>Generated by iochar %s from %u result set%s.</p>\n",
		style, report_has_hosts(&r) || report_has_host_envs(&r) ? host_style : "",
		any_app(sets, n) ? app_style : "",
		IOCHAR_VERSION, n,
		n == 1 ? "" : "s");
	fputs("<nav><h2>Contents</h2><ol>", f);
	for (size_t i = 0; i < NR_SECTIONS; i++) {
		if ((sections[i].several_only && r.cmp.nr_sets < 2) || section_empty(&r, &sections[i]))
			continue;
		fprintf(f, "<li><a href=\"#%s\">%s</a></li>", sections[i].id, sections[i].title);
	}
	fputs("</ol></nav>\n", f);
	for (size_t i = 0; i < NR_SECTIONS; i++) {
		if ((sections[i].several_only && r.cmp.nr_sets < 2) || section_empty(&r, &sections[i]))
			continue;
		fprintf(f, "<section id=\"%s\"><h2>%s</h2>\n", sections[i].id, sections[i].title);
		sections[i].draw(&r);
		fputs("</section>\n", f);
	}
	fputs("</body></html>\n", f);
	compare_free(&r.cmp);
	if (r.ret)
		return r.ret;
	return ferror(f) ? -EIO : 0;
}
