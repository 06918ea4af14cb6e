/* csv.c - the --output-format=csv emitter.
 *
 * A header line, then one row per (scope, job, clone, dir): first the run
 * totals (scope "total": read, write, total), then each worker (scope
 * "worker"). Fields are quoted only when they must be (RFC 4180); lines end
 * with "\n". Columns are documented in docs/output.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output/formats.h"
#include "output/summary.h"
#include "util/csv.h"

static const char csv_header[] =
    "scope,job,clone,dir,ios,bytes,iops,bw_bytes,lat_mean_ns,"
    "lat_stdev_ns,lat_min_ns,lat_max_ns,lat_p50_ns,lat_p90_ns,"
    "lat_p95_ns,lat_p99_ns,lat_p99_9_ns,lat_p99_99_ns,"
    "lag_mean_ns,lag_stdev_ns,lag_min_ns,lag_max_ns,lag_p50_ns,lag_p90_ns,"
    "lag_p95_ns,lag_p99_ns,lag_p99_9_ns,lag_p99_99_ns,"
    "tool_lag_mean_ns,tool_lag_stdev_ns,tool_lag_min_ns,tool_lag_max_ns,"
    "tool_lag_p50_ns,tool_lag_p90_ns,tool_lag_p95_ns,tool_lag_p99_ns,"
    "tool_lag_p99_9_ns,tool_lag_p99_99_ns,"
    "service_lat_mean_ns,service_lat_stdev_ns,service_lat_min_ns,"
    "service_lat_max_ns,service_lat_p50_ns,service_lat_p90_ns,"
    "service_lat_p95_ns,service_lat_p99_ns,service_lat_p99_9_ns,"
    "service_lat_p99_99_ns,lat_origin,tool_limited,tool_limited_reason\n";

/* mean,stdev,min,max,p50..p99_99 of l; empty fields when !present. */
static void csv_lat(FILE *f, const struct lat_summary *l, bool present)
{
	if (!present) {
		for (unsigned i = 0; i < 4 + SUMMARY_NR_PCT; i++)
			putc(',', f);
		return;
	}
	fprintf(f, ",%.3f,%.3f,%" PRIu64 ",%" PRIu64, l->mean, l->stdev,
		l->min, l->max);
	for (unsigned i = 0; i < SUMMARY_NR_PCT; i++)
		fprintf(f, ",%" PRIu64, l->pct[i]);
}

/* The last three columns: where lat counts from (as the JSON's
 * latency_origin: a script that reads lat_* of an open-loop run must know
 * it is the response time), and the run's tool-limited verdict, on the
 * total rows only (it judges the run, not a worker). */
static void csv_verdict(FILE *f, const struct run_result *r, bool total)
{
	fprintf(f, ",%s,", r->open_loop ? "scheduled" : "submit");
	if (!total) {
		putc(',', f);
		return;
	}
	fprintf(f, "%d,", r->tool_limited);
	if (r->tool_limited)
		csv_field_n(f, r->tool_limited_reason, sizeof(r->tool_limited_reason));
}

/* The columns after scope,job,clone: the service time only in
 * rate-limited runs (elsewhere it is lat itself). */
static void csv_figures(FILE *f, const char *dir, const struct dir_summary *s)
{
	fprintf(f, ",%s,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f", dir, s->ios,
		s->bytes, s->iops, s->bw_bytes);
	csv_lat(f, &s->lat, true);
	csv_lat(f, &s->lag, true);
	csv_lat(f, &s->tool_lag, true);
	csv_lat(f, &s->service, s->paced);
}

/* Three rows (read, write, total; trim before total when there were
 * trims) sharing the prefix columns. */
static void csv_rows(FILE *f, const struct run_result *r, const char *scope,
		     const char *job, size_t len, const char *clone,
		     const struct stats_summary *s)
{
	for (int d = 0; d <= DIR_ALL; d++) {
		if (d == DIR_TRIM && !s->dir[d].ios)
			continue;
		fputs(scope, f);
		putc(',', f);
		csv_field_n(f, job, len);
		fprintf(f, ",%s", clone);
		if (d < DIR_ALL)
			csv_figures(f, summary_dir_name(d), &s->dir[d]);
		else
			csv_figures(f, "total", &s->total);
		csv_verdict(f, r, !strcmp(scope, "total"));
		putc('\n', f);
	}
}

static int csv_worker(FILE *f, const struct run_result *r,
		      const struct worker_result *w)
{
	struct stats_summary s;
	char clone[16];
	const char *job = "";
	size_t len = 1;
	int ret = summary_stats(&w->stats, w->elapsed_ns, &s);

	if (ret)
		return ret;
	if (w->job < r->nr_jobs) {
		job = r->jobs[w->job].name;
		len = sizeof(r->jobs[w->job].name);
	}
	snprintf(clone, sizeof(clone), "%u", w->clone);
	csv_rows(f, r, "worker", job, len, clone, &s);
	return 0;
}

int output_csv_write(const struct run_result *r, FILE *f)
{
	struct stats_summary s;
	int ret = summary_stats(&r->total, r->elapsed_ns, &s);

	if (ret)
		return ret;
	fputs(csv_header, f);
	csv_rows(f, r, "total", "", 1, "", &s);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		ret = csv_worker(f, r, &r->workers[i]);
		if (ret)
			return ret;
	}
	return ferror(f) ? -EIO : 0;
}
