/* results_table.c - an `iochar app` run as CSV (one row a point, the
 * figures of the JSON's points) and as the text table. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/results_int.h"
#include "util/csv.h"

static const char *csv_head =
	"bench,workload,threads,seconds,tps,qps,lat_avg_ms,lat_p99_ms,errors,reconnects,"
	"device,read_iops,write_iops,read_mbps,write_mbps,read_lat_ms,write_lat_ms,util_pct,"
	"trace,error\n";

static void csv_row(FILE *f, const struct app_run *r, const struct app_point *p)
{
	const struct app_devfig *d = &p->dev;

	csv_field(f, r->bench->name);
	fputc(',', f);
	csv_field(f, r->cfg.workload);
	fprintf(f, ",%u,", p->threads);
	if (p->error[0])
		fprintf(f, ",,,,,,,");
	else
		fprintf(f, "%.3f,%.3f,%.3f,%.3f,%.3f,%llu,%llu,", p->seconds, p->tps, p->qps,
			p->lat_avg_ms, p->lat_p99_ms, (unsigned long long)p->errors,
			(unsigned long long)p->reconnects);
	csv_field(f, r->place.device);
	if (p->has_dev && !p->error[0])
		fprintf(f, ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,", d->read_iops, d->write_iops,
			d->read_mbps, d->write_mbps, d->read_lat_ms, d->write_lat_ms, d->util_pct);
	else
		fprintf(f, ",,,,,,,,");
	csv_field(f, p->trace);
	fputc(',', f);
	csv_field(f, p->error);
	fputc('\n', f);
}

int app_write_csv(const struct app_run *r, const char *path, struct ioc_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return err_set(err, errno, "app: %s: %s", path, strerror(errno));
	fputs(csv_head, f);
	for (unsigned i = 0; i < r->npoints; i++)
		csv_row(f, r, &r->points[i]);
	if (fclose(f))
		return err_set(err, EIO, "app: %s: write failed", path);
	return 0;
}

static void text_point(FILE *f, const struct app_point *p)
{
	const struct app_devfig *d = &p->dev;

	if (p->error[0]) {
		fprintf(f, "%7u  failed: %s\n", p->threads, p->error);
		return;
	}
	fprintf(f, "%7u %10.1f %10.1f %8.2f %8.2f", p->threads, p->tps, p->qps, p->lat_avg_ms,
		p->lat_p99_ms);
	if (p->has_dev)
		fprintf(f, " %9.0f %9.0f %7.1f %7.1f %6.2f %6.2f\n", d->read_iops, d->write_iops,
			d->read_mbps, d->write_mbps, d->read_lat_ms, d->write_lat_ms);
	else
		fprintf(f, " %9s %9s %7s %7s %6s %6s\n", "-", "-", "-", "-", "-", "-");
}

void app_write_text(const struct app_run *r, void *file)
{
	FILE *f = file;
	uint64_t bytes = r->dataset_bytes ? r->dataset_bytes : r->dataset_est;

	fprintf(f, "%s (%s) on %s %s, %s, device %s\n", r->bench->name, r->cfg.workload,
		r->place.dev_arg ? "device" : "directory",
		r->place.dev_arg ? r->place.dev_arg : r->place.dir_arg, r->place.fs,
		r->place.device[0] ? r->place.device : "none");
	double over = r->db.buffer_pool ? (double)bytes / (double)r->db.buffer_pool : 0.0;
	fprintf(f, "%s %s, %s %s; data set %.1f MiB, buffer pool %.1f MiB (the data %.2fx "
		"the pool%s)\n", r->db.ops ? r->db.ops->name : "?", r->db.version,
		r->bench->ops->tool, r->cfg.version, (double)bytes / 1048576.0,
		(double)r->db.buffer_pool / 1048576.0, over,
		over < 1.0 ? ": it fits, reads hardly reach the device" : "");
	fprintf(f, "%7s %10s %10s %8s %8s %9s %9s %7s %7s %6s %6s\n", "threads", "TPS", "QPS",
		"avg ms", "p99 ms", "dev r/s", "dev w/s", "rMB/s", "wMB/s", "r_awt", "w_awt");
	for (unsigned i = 0; i < r->npoints; i++)
		text_point(f, &r->points[i]);
	if (r->latency_target_ms > 0) {
		int best = app_best_threads(r);
		const char *what = r->latency_device ? "the device's read latency" : "p99";
		if (best < 0)
			fprintf(f, "no thread count kept %s inside %.4g ms\n", what,
				r->latency_target_ms);
		else
			fprintf(f, "highest thread count with %s inside %.4g ms: %d\n", what,
				r->latency_target_ms, best);
	}
	if (!r->complete)
		fprintf(f, "incomplete: %s\n", r->failure);
}
