/* app_text.c - an application run as text: its setup in two lines and a
 * row per thread count, the benchmark's figures beside the device's
 * (`iochar report DIR --output-format=text`). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/app_model.h"
#include "report/app_text.h"

static void num(FILE *f, int width, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, width, v);
	else
		fprintf(f, "%*s", width, "-");
}

static void row(FILE *f, const struct rs_app_point *p)
{
	fprintf(f, "%7u", p->threads);
	if (p->error) {
		fprintf(f, "  failed: %s\n", p->error);
		return;
	}
	num(f, 11, "%*.1f", p->tps);
	num(f, 12, "%*.1f", p->qps);
	num(f, 9, "%*.2f", p->lat_avg_ms);
	num(f, 9, "%*.2f", p->lat_p99_ms);
	fprintf(f, " %7llu |", (unsigned long long)p->errors);
	const struct rs_app_device *d = &p->dev;
	double none = NAN;
	num(f, 8, "%*.0f", d->present ? d->read_iops : none);
	num(f, 8, "%*.0f", d->present ? d->write_iops : none);
	num(f, 8, "%*.1f", d->present ? d->read_mbps : none);
	num(f, 8, "%*.1f", d->present ? d->write_mbps : none);
	num(f, 8, "%*.2f", d->present ? d->read_lat_ms : none);
	num(f, 8, "%*.2f", d->present ? d->write_lat_ms : none);
	num(f, 6, "%*.0f", d->present ? d->util_pct : none);
	fputc('\n', f);
}

int report_app_write_text(const char *name, const struct rs_app *a, FILE *f)
{
	char s1[48], s2[48];
	const char *dev = NULL;
	for (unsigned i = 0; i < a->nr_points && !dev; i++)
		if (a->points[i].dev.present)
			dev = a->points[i].dev.name;
	fprintf(f, "%s: %s %s (%s %s, %s %s)\n", name, a->bench, a->workload, a->bench_name,
		a->bench_version, a->db_name, a->db_version);
	fprintf(f, "target: %s %s%s%s%s%s; data %s, buffer pool %s (memory ratio %.3f)\n",
		a->target_kind, a->target_path, app_on(a) ? " on " : "",
		app_on(a) ? a->target_device : "", a->target_fs ? ", " : "",
		a->target_fs ? a->target_fs : "", app_mib(s1, a->dataset_bytes),
		app_mib(s2, a->buffer_pool_bytes), a->memory_ratio);
	fprintf(f, "%7s %10s %11s %8s %8s %7s | device %s\n", "", "", "", "", "", "",
		dev ? dev : "(not measured)");
	fprintf(f, "%7s %10s %11s %8s %8s %7s |%8s%8s%8s%8s%8s%8s%6s\n", "threads", "TPS", "QPS",
		"avg ms", "p99 ms", "errors", "r IOPS", "w IOPS", "r MB/s", "w MB/s", "r_await",
		"w_await", "util%");
	for (unsigned i = 0; i < a->nr_points; i++)
		row(f, &a->points[i]);
	if (a->failure)
		fprintf(f, "the run did not finish: %s\n", a->failure);
	if (a->has_target) {
		fprintf(f, "latency target: %s inside %.3g ms: ", a->target_metric,
			a->target_limit_ms);
		if (a->target_met)
			fprintf(f, "met, best at %u threads\n", a->target_best_threads);
		else
			fputs("not met at any thread count\n", f);
	}
	return ferror(f) ? -EIO : 0;
}
