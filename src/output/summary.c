/* summary.c - see summary.h. */
#include "output/summary.h"

#include "inventory/environment.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const struct summary_pct summary_pcts[SUMMARY_NR_PCT] = {
    {50.0, "p50", "50th"},     {90.0, "p90", "90th"},
    {95.0, "p95", "95th"},     {99.0, "p99", "99th"},
    {99.9, "p99_9", "99.9th"}, {99.99, "p99_99", "99.99th"},
};

static double per_second(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0.0;
}

void summary_lat(const struct hist *h, struct lat_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (h->count == 0)
		return;
	out->mean = hist_mean(h);
	out->stdev = hist_stdev(h);
	out->min = h->min;
	out->max = h->max;
	for (unsigned i = 0; i < SUMMARY_NR_PCT; i++)
		out->pct[i] = hist_percentile(h, summary_pcts[i].p);
}

void summary_dir(const struct dir_stats *ds, uint64_t elapsed_ns,
		 struct dir_summary *out)
{
	out->ios = ds->ios;
	out->bytes = ds->bytes;
	out->elapsed_ns = elapsed_ns;
	out->iops = per_second(ds->ios, elapsed_ns);
	out->bw_bytes = per_second(ds->bytes, elapsed_ns);
	summary_lat(&ds->lat, &out->lat);
	summary_lat(&ds->lag, &out->lag);
	summary_lat(&ds->tool_lag, &out->tool_lag);
	summary_lat(&ds->service, &out->service);
	out->paced = ds->service.count != 0;
}

/* Fill out from per-direction stats; the total is merged in a scratch
 * dir_stats (its histogram is too large for the stack). */
static int summary_dirs(const struct dir_stats dirs[DIR_ALL],
			uint64_t elapsed_ns, struct stats_summary *out)
{
	struct dir_stats *total = malloc(sizeof(*total));
	if (!total)
		return -ENOMEM;
	dir_stats_init(total);
	for (int d = 0; d < DIR_ALL; d++) {
		summary_dir(&dirs[d], elapsed_ns, &out->dir[d]);
		dir_stats_add(total, &dirs[d]);
	}
	summary_dir(total, elapsed_ns, &out->total);
	free(total);
	return 0;
}

int summary_stats(const struct worker_stats *st, uint64_t elapsed_ns,
		  struct stats_summary *out)
{
	return summary_dirs(st->dir, elapsed_ns, out);
}

int summary_job(const struct run_result *r, unsigned job,
		struct stats_summary *out)
{
	struct dir_stats *dirs = calloc(DIR_ALL, sizeof(*dirs));
	uint64_t elapsed_ns = 0;
	int ret;

	if (!dirs)
		return -ENOMEM;
	for (int d = 0; d < DIR_ALL; d++)
		dir_stats_init(&dirs[d]);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		if (w->job != job)
			continue;
		for (int d = 0; d < DIR_ALL; d++)
			dir_stats_add(&dirs[d], &w->stats.dir[d]);
		if (w->elapsed_ns > elapsed_ns)
			elapsed_ns = w->elapsed_ns;
	}
	if (!elapsed_ns)
		elapsed_ns = r->elapsed_ns;
	ret = summary_dirs(dirs, elapsed_ns, out);
	free(dirs);
	return ret;
}

uint64_t summary_interval_len_ns(const struct run_result *r, unsigned idx)
{
	uint64_t start = (uint64_t)idx * STATS_INTERVAL_NS;

	if (r->elapsed_ns > start && r->elapsed_ns - start < STATS_INTERVAL_NS)
		return r->elapsed_ns - start;
	return STATS_INTERVAL_NS;
}

void summary_interval(const struct interval *iv, enum io_dir d, uint64_t len_ns,
		      struct interval_summary *out)
{
	out->ios = iv->ios[d];
	out->bytes = iv->bytes[d];
	out->iops = per_second(iv->ios[d], len_ns);
	out->bw_bytes = per_second(iv->bytes[d], len_ns);
	out->lat_mean_ns =
	    iv->ios[d] ? (double)iv->lat_sum[d] / (double)iv->ios[d] : 0.0;
	out->lat_max_ns = iv->lat_max[d];
}

void summary_cpu(const struct run_result *r, struct cpu_summary *out)
{
	uint64_t ios = 0;

	for (int d = 0; d < DIR_ALL; d++)
		ios += r->total.dir[d].ios;
	out->usr_pct = r->cpu_usr_pct;
	out->sys_pct = r->cpu_sys_pct;
	out->usr_ns = r->cpu_usr_ns;
	out->sys_ns = r->cpu_sys_ns;
	out->ns_per_io =
	    ios ? (double)(r->cpu_usr_ns + r->cpu_sys_ns) / (double)ios : 0.0;
}

const char *summary_dir_name(enum io_dir d)
{
	return io_dir_name(d);
}

const char *summary_version(const struct run_result *r)
{
	if (r->env && r->env->iochar_version[0])
		return r->env->iochar_version;
#ifdef IOCHAR_VERSION
	return IOCHAR_VERSION;
#else
	return "unknown";
#endif
}
