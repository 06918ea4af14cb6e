/* json_fio.c - one entry of fio's jobs[] (or client_stats[]) as fio
 * writes it (the document around them is fio_doc.c's). With json+, each
 * latency block carries "bins". What iochar does not measure the way fio
 * does is listed in docs/output.md ("fio's layout"). */
#include "output/json_fio.h"

#include "base/ss_opts.h"

#include "output/fio_figures.h"
#include "output/fio_groups.h"
#include "output/fio_mixed.h"
#include "output/fio_options.h"
#include "base/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A latency block: {min, max, mean, stddev, N[, percentile][, bins]}:
 * the npcts percentiles pcts (none: 0), and with them, for json+, the
 * bins (fio writes both or neither). */
static void lat_block(struct jw *w, const char *key, const struct hist *h,
		      const double *pcts, unsigned npcts, bool plus)
{
	bool percentiles = npcts > 0, bins = plus && npcts;
	char k[32];
	jw_key(w, key);
	jw_object_begin(w);
	jw_kv_uint(w, "min", h->count ? h->min : 0);
	jw_kv_uint(w, "max", h->count ? h->max : 0);
	jw_kv_double(w, "mean", h->count ? hist_mean(h) : 0);
	jw_kv_double(w, "stddev", h->count ? hist_stdev(h) : 0);
	jw_kv_uint(w, "N", h->count);
	if (percentiles && h->count) {
		jw_key(w, "percentile");
		jw_object_begin(w);
		for (unsigned i = 0; i < npcts; i++) {
			snprintf(k, sizeof(k), "%f", pcts[i]);
			jw_kv_uint(w, k, hist_percentile(h, pcts[i]));
		}
		jw_object_end(w);
	}
	if (bins && h->count) {
		/* each non-empty bucket by its midpoint, as fio names its own */
		jw_key(w, "bins");
		jw_object_begin(w);
		for (unsigned i = 0; i < HIST_BUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			snprintf(k, sizeof(k), "%llu",
				 (unsigned long long)((hist_bucket_low(i) + hist_bucket_high(i)) / 2));
			jw_kv_uint(w, k, h->buckets[i]);
		}
		jw_object_end(w);
	}
	jw_object_end(w);
}

/* fio's "prios": from two priorities with samples on, each one's class,
 * level and completion latency (lat_ns with lat_percentiles), with the
 * percentiles of either option. */
static void prio_blocks(struct jw *w, const struct fio_dir_view *v, bool plus,
			const struct job_spec *j)
{
	const double *pl;
	unsigned np = fio_plist(j, &pl);
	const struct prio_stats *ps = v->prio;

	if (prio_stats_with_samples(ps, v->prio_dir) < 2)
		return;
	jw_key(w, "prios");
	jw_array_begin(w);
	for (unsigned i = 0; i < ps->nr[v->prio_dir]; i++) {
		const struct prio_hist *p = &ps->e[v->prio_dir][i];
		if (!p->h.count)
			continue;
		jw_object_begin(w);
		jw_kv_uint(w, "prioclass", p->ioprio >> 13);
		jw_kv_uint(w, "prio", p->ioprio & 7);
		lat_block(w, j->lat_percentiles ? "lat_ns" : "clat_ns", &p->h, pl,
			  j->clat_percentiles || j->lat_percentiles ? np : 0, plus);
		jw_object_end(w);
	}
	jw_array_end(w);
}

/* One direction's object (or fio's "mixed"), from its view v. */
static void dir_block(struct jw *w, const char *key, const struct fio_dir_view *v, bool plus,
		      const struct job_spec *j)
{
	const double *pl;
	unsigned np = fio_plist(j, &pl);
	struct hist empty;
	double secs = (double)v->elapsed_ns / 1e9;

	hist_init(&empty);
	jw_key(w, key);
	jw_object_begin(w);
	jw_kv_uint(w, "io_bytes", v->bytes);
	jw_kv_uint(w, "io_kbytes", v->bytes / 1024);
	jw_kv_uint(w, "bw_bytes", secs > 0 ? (uint64_t)((double)v->bytes / secs) : 0);
	jw_kv_uint(w, "bw", secs > 0 ? (uint64_t)((double)v->bytes / 1024 / secs) : 0);
	jw_kv_double(w, "iops", secs > 0 ? (double)v->ios / secs : 0);
	jw_kv_uint(w, "runtime", v->ios ? v->elapsed_ns / 1000000 : 0);
	jw_kv_uint(w, "total_ios", v->ios);
	jw_kv_uint(w, "short_ios", 0);
	jw_kv_uint(w, "drop_ios", v->drops);
	/* fio counts from submission: iochar's latency in closed loop, its
	 * service time in rate-limited runs (where iochar's own latency is
	 * the response time, from the schedule, in its own members); an
	 * engine that queues splits it into slat and clat, as fio's */
	lat_block(w, "slat_ns", v->slat ? v->slat : &empty, pl, j->slat_percentiles ? np : 0,
		  plus);
	lat_block(w, "clat_ns", v->clat ? v->clat : &empty, pl, j->clat_percentiles ? np : 0,
		  plus);
	lat_block(w, "lat_ns", v->lat ? v->lat : &empty, pl, j->lat_percentiles ? np : 0, plus);
	prio_blocks(w, v, plus, j);
	jw_kv_uint(w, "bw_min", (uint64_t)v->bw.min);
	jw_kv_uint(w, "bw_max", (uint64_t)v->bw.max);
	jw_kv_double(w, "bw_agg", v->bw.n ? 100.0 : 0);
	jw_kv_double(w, "bw_mean", v->bw.mean);
	jw_kv_double(w, "bw_dev", v->bw.dev);
	jw_kv_uint(w, "bw_samples", v->bw.n);
	jw_kv_uint(w, "iops_min", (uint64_t)v->iops.min);
	jw_kv_uint(w, "iops_max", (uint64_t)v->iops.max);
	jw_kv_double(w, "iops_mean", v->iops.mean);
	jw_kv_double(w, "iops_stddev", v->iops.dev);
	jw_kv_uint(w, "iops_samples", v->iops.n);
	jw_object_end(w);
}

/* fio's "sync": its total_ios counts fsync's only (fio's DDIR_SYNC), its
 * latency every flush's, fdatasync's too, with the job's percentiles
 * when clat_percentiles or lat_percentiles is on (and json+'s bins). */
static void sync_block(struct jw *w, const struct worker_stats *st, bool plus,
		       const struct job_spec *j)
{
	const double *pl;
	unsigned np = fio_plist(j, &pl);
	jw_key(w, "sync");
	jw_object_begin(w);
	jw_kv_uint(w, "total_ios", st->sync_ios - st->datasync_ios);
	lat_block(w, "lat_ns", &st->sync_lat, pl,
		  j->clat_percentiles || j->lat_percentiles ? np : 0, plus);
	jw_object_end(w);
}

/* "read", "write", "trim", "sync", then fio's "mixed" as the job's
 * unified_rw_reporting asks: mixed alone (fio then writes no "sync"),
 * or after the others (both). gtod_reduce: fio takes no latency or
 * bandwidth samples and reports them as 0 (N 0); iochar has them but
 * writes what fio writes. */
static void dir_blocks(struct jw *w, const struct worker_result *wr, bool open_loop, bool plus,
		       const struct job_spec *j)
{
	static const char *const keys[DIR_ALL] = {"read", "write", "trim"};
	if (fio_shows_dirs(j)) {
		for (int d = 0; d < DIR_ALL; d++) {
			struct fio_dir_view v = fio_dir_view_of(wr, (enum io_dir)d, open_loop,
								j->gtod_reduce);
			dir_block(w, keys[d], &v, plus, j);
		}
		sync_block(w, &wr->stats, plus, j);
	}
	if (!fio_shows_mixed(j))
		return;
	struct fio_mixed *m = fio_mixed_new(wr, open_loop, j->gtod_reduce);
	if (m) /* out of memory: the directions alone */
		dir_block(w, "mixed", &m->view, plus, j);
	fio_mixed_free(m);
}

#define LAT_EDGES 32 /* 10 ns, 10 us, 12 ms groups */

/* fio's latency_ns/us/ms: the % of I/Os (both directions) below each
 * edge and at or above the edge before it, in ns, then us, then ms; the
 * last, ">=2000" ms, holds the rest. The histogram's bucket lows ascend,
 * so one pass over the buckets fills every range: each bucket falls in
 * the first range whose edge is above its low. */
static void latency_buckets(struct jw *w, const struct worker_result *wr, bool open_loop,
			    bool gtod_reduce)
{
	static const unsigned edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
	static const char *const names[] = {"latency_ns", "latency_us", "latency_ms"};
	double hi[LAT_EDGES], scale = 1;
	uint64_t in[LAT_EDGES] = {0};
	unsigned nr = 0;
	struct hist all;
	char k[16];

	hist_init(&all);
	for (int d = 0; d < DIR_ALL && !gtod_reduce; d++)
		hist_merge(&all, open_loop ? &wr->stats.dir[d].service : &wr->stats.dir[d].lat);
	for (int g = 0; g < 3; g++, scale *= 1000)
		for (unsigned e = 0; e < (g == 2 ? 12u : 10u); e++)
			hi[nr++] = e == 11 ? INFINITY : (e < 10 ? edges[e] : 2000) * scale;
	for (unsigned i = 0, e = 0; i < HIST_BUCKETS && all.count; i++) {
		if (!all.buckets[i])
			continue;
		while ((double)hist_bucket_low(i) >= hi[e])
			e++; /* hi[LAT_EDGES - 1] is infinite: e stays in range */
		in[e] += all.buckets[i];
	}
	nr = 0;
	for (int g = 0; g < 3; g++) {
		jw_key(w, names[g]);
		jw_object_begin(w);
		unsigned n = g == 2 ? 12 : 10; /* ms adds 2000 and >=2000 */
		for (unsigned e = 0; e < n; e++, nr++) {
			snprintf(k, sizeof(k), e == 11 ? ">=2000" : "%u", e < 10 ? edges[e] : 2000);
			jw_kv_double(w, k, all.count ? 100.0 * (double)in[nr] / (double)all.count : 0);
		}
		jw_object_end(w);
	}
}

/* fio's ctx, majf, minf are a job thread's; iochar counts the process
 * (RUSAGE_SELF over the measured phase), so each job shows its share, as
 * usr_cpu and sys_cpu do. */
static void process_counts(struct jw *w, const struct fio_job_counts *c)
{
	jw_kv_uint(w, "ctx", c->ctx);
	jw_kv_uint(w, "majf", c->majf);
	jw_kv_uint(w, "minf", c->minf);
}

/* iodepth_level, iodepth_submit, iodepth_complete: left out for a worker
 * with no measured I/O (a lost rank's). */
static void depth_maps(struct jw *w, const struct depth_dist *dd)
{
	static const char *const names[] = {"iodepth_level", "iodepth_submit",
					    "iodepth_complete"};
	const uint64_t *counts[] = {dd->level, dd->submit, dd->complete};
	double pct[DEPTH_BUCKETS];

	if (!fio_depth_shares(dd->level, pct))
		return;
	for (int m = 0; m < 3; m++) {
		const char *const *keys = m ? fio_depth_batch_keys : fio_depth_level_keys;
		fio_depth_shares(counts[m], pct);
		jw_key(w, names[m]);
		jw_object_begin(w);
		for (int b = 0; b < DEPTH_BUCKETS; b++)
			jw_kv_double(w, keys[b], pct[b]);
		jw_object_end(w);
	}
}

/* fio's "steadystate" member of a job with ss_dur: the rule, whether it
 * was met, the last judgement and the window's samples, oldest first. */
static void steadystate(struct jw *w, const struct steady_result *ss)
{
	char buf[96];
	const char *pct = ss->rule.pct ? "%" : "";
	jw_key(w, "steadystate");
	jw_object_begin(w);
	snprintf(buf, sizeof(buf), "%s:%f%s", ss_opts_kind_name(ss->rule.kind),
		 ss->rule.limit, pct);
	jw_kv_string(w, "ss", buf);
	jw_kv_uint(w, "duration", ss->dur);
	jw_kv_uint(w, "attained", ss->attained);
	snprintf(buf, sizeof(buf), "%f%s", ss->criterion, pct);
	jw_kv_string(w, "criterion", buf);
	jw_kv_double(w, "max_deviation", ss->deviation);
	jw_kv_double(w, "slope", ss->slope);
	jw_key(w, "data");
	jw_object_begin(w);
	uint64_t bw = 0, iops = 0;
	for (unsigned i = 0; i < ss->n; i++) {
		bw += ss->bw[i];
		iops += ss->iops[i];
	}
	/* fio's means divide by the window's length, full or not */
	jw_kv_uint(w, "bw_mean", ss->dur ? bw / ss->dur : 0);
	jw_kv_uint(w, "iops_mean", ss->dur ? iops / ss->dur : 0);
	const uint64_t *arr[2] = {ss->iops, ss->bw};
	static const char *const keys[2] = {"iops", "bw"};
	for (int k = 0; k < 2; k++) {
		jw_key(w, keys[k]);
		jw_array_begin(w);
		for (unsigned i = 0; i < ss->dur; i++) /* fio: dur entries, zeros unfilled */
			jw_uint(w, i < ss->n ? arr[k][i] : 0);
		jw_array_end(w);
	}
	jw_object_end(w);
	jw_object_end(w);
}

/* fio's "error": the one that stopped the job, else with
 * continue_on_error the first it passed over (its exit status stays 0). */
static int fio_error(const struct worker_result *wr, const struct job_spec *j)
{
	if (wr->error)
		return wr->error < 0 ? -wr->error : wr->error;
	return j->continue_on_error ? wr->stats.err_first : 0;
}

void json_fio_entry(struct jw *w, const struct run_result *r, const struct fio_entry *e,
		    bool plus, const char *name, const char *hostname)
{
	const struct worker_result *wr = &e->wr;
	const struct job_spec *j = &r->jobs[wr->job];
	jw_object_begin(w);
	jw_kv_string(w, "jobname", name ? name : j->name);
	jw_kv_uint(w, "groupid", wr->group);
	jw_kv_int(w, "error", fio_error(wr, j));
	jw_kv_uint(w, "eta", 0);
	jw_kv_uint(w, "elapsed", (r->elapsed_ns + r->ramp_ns + 500000000ull) / 1000000000ull);
	/* fio's merged group shows the options of its last member's job
	 * (stat.c keeps the last td's opt_list), under the first's name */
	const struct worker_result *last = &r->workers[e->first + e->members - 1];
	if (!name)
		fio_job_options_json(w, &r->jobs[last->job < r->nr_jobs ? last->job : wr->job]);
	dir_blocks(w, wr, r->open_loop, plus, j);
	jw_kv_uint(w, "job_runtime", e->runtime_sum_ns / 1000000);
	/* CPU is measured for the whole process: each job shows its share,
	 * a merged group its members' (fio sums their counts; its CPU % is
	 * their summed time over their summed run time) */
	struct fio_job_counts share = fio_job_share(r);
	share.ctx *= e->members;
	share.majf *= e->members;
	share.minf *= e->members;
	jw_kv_double(w, "usr_cpu", share.usr_cpu);
	jw_kv_double(w, "sys_cpu", share.sys_cpu);
	process_counts(w, &share);
	depth_maps(w, &wr->stats.depth);
	latency_buckets(w, wr, r->open_loop, j->gtod_reduce);
	if (j->continue_on_error) { /* fio writes them only then */
		jw_kv_uint(w, "total_err", wr->stats.err_total);
		jw_kv_int(w, "first_error", wr->stats.err_first);
	}
	/* latency_target: the depth found, fio's target in ns, window in us */
	jw_kv_uint(w, "latency_depth", wr->latency_depth ? wr->latency_depth : j->iodepth);
	jw_kv_uint(w, "latency_target", j->latency_target_ns);
	jw_kv_double(w, "latency_percentile", j->latency_target_ns ? j->latency_percentile : 100.0);
	jw_kv_uint(w, "latency_window", j->latency_window_ns / 1000);
	if (r->steady && r->steady[e->first].on && !name)
		steadystate(w, &r->steady[e->first]);
	if (hostname)
		jw_kv_string(w, "hostname", hostname);
	jw_object_end(w);
}
