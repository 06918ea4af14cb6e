/* report_app.c - the report's "Application runs" section: per app set
 * its setup (benchmark, database and their versions and configuration,
 * target, data set against memory), a row per thread count (TPS, QPS,
 * latency, the device's IOPS, MB/s and await over the same seconds), TPS
 * and p99 against threads beside the device's IOPS and MB/s, and the
 * largest point's seconds; the trace tables follow (report_app_trace.c). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/app_model.h"
#include "report/numfmt.h"
#include "report/report_app.h"
#include "report/report_app_int.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define TIP_MAX 200
#define DASH "\xe2\x80\x93"

void app_td_num(FILE *f, const char *fmt, double v)
{
	fputs("<td class=\"num\">", f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs(DASH, f);
	fputs("</td>", f);
}

void app_kv(FILE *f, const char *k, const char *v)
{
	fputs("<tr><th>", f);
	html_escape(f, k);
	fputs("</th><td>", f);
	html_escape(f, v && *v ? v : DASH);
	fputs("</td></tr>\n", f);
}

static void kv_fmt(FILE *f, const char *k, const char *fmt, double v)
{
	char b[128];
	if (isfinite(v))
		snprintf(b, sizeof(b), fmt, v);
	else
		snprintf(b, sizeof(b), DASH);
	app_kv(f, k, b);
}

/* The database's configuration as written, one "key = value" a row. */
static void config_rows(FILE *f, const struct rs_app *a)
{
	if (!a->db_config)
		return;
	json_object_object_foreach(a->db_config, key, val)
	{
		char k[160];
		snprintf(k, sizeof(k), "%s: %s", a->db_name, key);
		app_kv(f, k, json_object_is_type(val, json_type_string)
				     ? json_object_get_string(val)
				     : json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
	}
}

static void setup_table(FILE *f, const struct rs_app *a)
{
	char b[512], s1[NUMFMT_MAX], s2[NUMFMT_MAX];
	fputs("<table class=\"kv app-setup\"><tbody>\n", f);
	snprintf(b, sizeof(b), "%s (%s)", a->bench, a->workload);
	app_kv(f, "benchmark", b);
	snprintf(b, sizeof(b), "%s %s", a->bench_name, a->bench_version);
	app_kv(f, "benchmark version", b);
	snprintf(b, sizeof(b), "%s %s", a->db_name, a->db_version);
	app_kv(f, "database version", b);
	config_rows(f, a);
	snprintf(b, sizeof(b), "%s %s%s%s%s%s", a->target_kind, a->target_path,
		 app_on(a) ? " on " : "", app_on(a) ? a->target_device : "",
		 a->target_fs ? ", " : "", a->target_fs ? a->target_fs : "");
	app_kv(f, "target", b);
	if (a->made_fs)
		app_kv(f, "file system", "made by iochar for this run");
	snprintf(b, sizeof(b), "%s data (%s), %s buffer pool", app_mib(s1, a->dataset_bytes),
		 a->bytes_measured ? "measured after the load" : "estimated",
		 app_mib(s2, a->buffer_pool_bytes));
	app_kv(f, "data set", b);
	kv_fmt(f, "memory ratio (buffer pool / data)", "%.3f", a->memory_ratio);
	if (isfinite(a->tables) && isfinite(a->table_size)) {
		snprintf(b, sizeof(b), "%.0f tables of %.0f rows", a->tables, a->table_size);
		app_kv(f, "tables", b);
	}
	if (isfinite(a->scale))
		kv_fmt(f, "scale", "%.0f", a->scale);
	kv_fmt(f, "load time (s)", "%.1f", a->load_seconds);
	kv_fmt(f, "time per thread count (s)", "%.0f", a->time_s);
	app_kv(f, "started", a->started);
	if (a->has_target) {
		snprintf(b, sizeof(b), "%s inside %.3g ms: %s", a->target_metric, a->target_limit_ms,
			 a->target_met ? "met" : "not met at any thread count");
		if (a->target_met)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), ", best at %u threads",
				 a->target_best_threads);
		app_kv(f, "latency target", b);
	}
	fputs("</tbody></table>\n", f);
}

static void point_row(FILE *f, const struct rs_app_point *p)
{
	fprintf(f, "<tr><td class=\"num\">%u</td>", p->threads);
	if (p->error) {
		fputs("<td colspan=\"12\" class=\"bad\">failed: ", f);
		html_escape(f, p->error);
		fputs("</td></tr>\n", f);
		return;
	}
	app_td_num(f, "%.1f", p->tps);
	app_td_num(f, "%.1f", p->qps);
	app_td_num(f, "%.2f", p->lat_avg_ms);
	app_td_num(f, "%.2f", p->lat_p99_ms);
	fprintf(f, "<td class=\"num\">%llu</td>", (unsigned long long)p->errors);
	const struct rs_app_device *d = &p->dev;
	double none = NAN;
	app_td_num(f, "%.0f", d->present ? d->read_iops : none);
	app_td_num(f, "%.0f", d->present ? d->write_iops : none);
	app_td_num(f, "%.1f", d->present ? d->read_mbps : none);
	app_td_num(f, "%.1f", d->present ? d->write_mbps : none);
	app_td_num(f, "%.2f", d->present ? d->read_lat_ms : none);
	app_td_num(f, "%.2f", d->present ? d->write_lat_ms : none);
	app_td_num(f, "%.0f", d->present ? d->util_pct : none);
	fputs("</tr>\n", f);
}

static void points_table(FILE *f, const struct rs_app *a)
{
	const char *dev = NULL;
	for (unsigned i = 0; i < a->nr_points && !dev; i++)
		if (a->points[i].dev.present)
			dev = a->points[i].dev.name;
	fputs("<table class=\"app-points\"><thead><tr><th colspan=\"6\">benchmark</th>"
	      "<th colspan=\"7\">device ", f);
	html_escape(f, dev ? dev : "(not measured)");
	fputs(" over the same seconds</th></tr><tr><th>threads</th><th>TPS</th><th>QPS</th>"
	      "<th>avg ms</th><th>p99 ms</th><th>errors</th><th>read IOPS</th>"
	      "<th>write IOPS</th><th>read MB/s</th><th>write MB/s</th><th>r_await ms</th>"
	      "<th>w_await ms</th><th>util %</th></tr></thead><tbody>\n", f);
	for (unsigned i = 0; i < a->nr_points; i++)
		point_row(f, &a->points[i]);
	fputs("</tbody></table>\n", f);
}

static void one_set(struct report_ctx *r, const struct rs_set *set)
{
	FILE *f = r->f;
	const struct rs_app *a = set->app;
	fputs("<h3>", f);
	html_escape(f, set->name);
	fputs(": ", f);
	html_escape(f, a->bench);
	fputs(" ", f);
	html_escape(f, a->workload);
	fputs("</h3>\n", f);
	if (!set->complete) {
		fputs("<p class=\"bad\">Partial results: the run did not finish", f);
		if (a->failure) {
			fputs(": ", f);
			html_escape(f, a->failure);
		}
		fputs(".</p>\n", f);
	}
	setup_table(f, a);
	points_table(f, a);
	fputs("<p>TPS, QPS and latency are the benchmark's own; the device's figures are "
	      "its block-layer statistics (/sys/block) over the same seconds, await as "
	      "iostat's (time in the block layer, queueing included); MB/s is "
	      "10<sup>6</sup> bytes/s.</p>\n", f);
	app_sweep_charts(r, set);
	app_second_chart(r, set);
	app_trace_tables(r, set);
}

void report_app_section(struct report_ctx *r)
{
	for (unsigned i = 0; i < r->nr_sets; i++) {
		if (r->sets[i].app)
			one_set(r, &r->sets[i]);
		/* a plan's mode=app steps, each its own run */
		for (unsigned k = 0; k < r->sets[i].nr_step_apps; k++)
			if (r->sets[i].step_apps[k].app)
				one_set(r, &r->sets[i].step_apps[k]);
	}
}
