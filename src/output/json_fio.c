/* json_fio.c - fio's JSON layout inside iochar's run JSON, so the scripts
 * fio users have (jq '.jobs[0].read.iops', fio-plot, KDiskMark,
 * fio_jsonplus_clat2csv) read iochar's results unchanged: "fio version",
 * "timestamp", "timestamp_ms", "time", "jobs" (one entry per worker, as fio
 * without group_reporting) and "disk_util". With json+, each latency
 * block carries "bins". What iochar does not measure the way fio does is
 * listed in docs/output.md ("fio's layout"). */
#include "output/json_fio.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* fio 3.x's default percentile list (its "percentile_list"). */
static const double fio_pcts[] = {1,  5,  10, 20, 30, 40, 50,    60,   70,
				  80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

/* "4k", "1m", "8g" as fio writes sizes, or the plain number. */
static const char *size_str(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "kmgtp";
	unsigned u = 0;
	uint64_t n = v;
	while (n && n % 1024 == 0 && u < sizeof(units) - 1) {
		n /= 1024;
		u++;
	}
	if (u)
		snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u - 1]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static void kv_fmt(struct jw *w, const char *key, const char *fmt, unsigned long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), fmt, v);
	jw_kv_string(w, key, buf);
}

/* "job options": fio writes the options a job was given, as strings. */
static void job_options(struct jw *w, const struct job_spec *j)
{
	char buf[32];
	jw_key(w, "job options");
	jw_object_begin(w);
	jw_kv_string(w, "name", j->name);
	if (j->filename)
		jw_kv_string(w, "filename", j->filename);
	if (j->size)
		jw_kv_string(w, "size", size_str(buf, sizeof(buf), j->size));
	if (j->offset)
		jw_kv_string(w, "offset", size_str(buf, sizeof(buf), j->offset));
	jw_kv_string(w, "rw", rw_name(j->rw));
	if (rw_is_mixed(j->rw))
		kv_fmt(w, "rwmixread", "%llu", j->rwmixread);
	jw_kv_string(w, "bs", size_str(buf, sizeof(buf), j->bs));
	jw_kv_string(w, "ioengine", j->ioengine);
	kv_fmt(w, "iodepth", "%llu", j->iodepth);
	kv_fmt(w, "numjobs", "%llu", j->numjobs);
	kv_fmt(w, "direct", "%llu", j->direct);
	if (j->runtime_ns)
		kv_fmt(w, "runtime", "%llu", (unsigned long long)(j->runtime_ns / 1000000000ull));
	if (j->ramp_ns)
		kv_fmt(w, "ramp_time", "%llu", (unsigned long long)(j->ramp_ns / 1000000000ull));
	if (j->time_based)
		jw_kv_string(w, "time_based", "1");
	if (j->rate_iops)
		kv_fmt(w, "rate_iops", "%llu", (unsigned long long)j->rate_iops);
	jw_object_end(w);
}

/* A latency block: {min, max, mean, stddev, N[, percentile][, bins]}. */
static void lat_block(struct jw *w, const char *key, const struct hist *h,
		      bool percentiles, bool bins)
{
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
		for (size_t i = 0; i < sizeof(fio_pcts) / sizeof(fio_pcts[0]); i++) {
			snprintf(k, sizeof(k), "%f", fio_pcts[i]);
			jw_kv_uint(w, k, hist_percentile(h, fio_pcts[i]));
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

/* min, max, mean and population deviation of one direction's per-second
 * samples of bytes (KiB/s, as fio's bw_*) or I/Os. */
struct samples {
	double min, max, mean, dev;
	unsigned n;
};

static struct samples per_second(const struct interval_series *s, enum io_dir d, bool kib)
{
	struct samples r = {0};
	double sum = 0, sq = 0;
	for (unsigned i = 0; i < s->len; i++) {
		double v = kib ? (double)s->v[i].bytes[d] / 1024 : (double)s->v[i].ios[d];
		r.min = r.n ? fmin(r.min, v) : v;
		r.max = fmax(r.max, v);
		sum += v;
		sq += v * v;
		r.n++;
	}
	if (r.n) {
		r.mean = sum / r.n;
		r.dev = sqrt(fmax(0, sq / r.n - r.mean * r.mean));
	}
	return r;
}

static void dir_block(struct jw *w, const char *key, const struct worker_result *wr,
		      enum io_dir d, bool open_loop, bool plus)
{
	const struct dir_stats *ds = d < DIR_COUNT ? &wr->stats.dir[d] : NULL;
	struct hist empty;
	uint64_t ios = ds ? ds->ios : 0, bytes = ds ? ds->bytes : 0;
	double secs = (double)wr->elapsed_ns / 1e9;

	hist_init(&empty);
	jw_key(w, key);
	jw_object_begin(w);
	jw_kv_uint(w, "io_bytes", bytes);
	jw_kv_uint(w, "io_kbytes", bytes / 1024);
	jw_kv_uint(w, "bw_bytes", secs > 0 ? (uint64_t)((double)bytes / secs) : 0);
	jw_kv_uint(w, "bw", secs > 0 ? (uint64_t)((double)bytes / 1024 / secs) : 0);
	jw_kv_double(w, "iops", secs > 0 ? (double)ios / secs : 0);
	jw_kv_uint(w, "runtime", ios ? wr->elapsed_ns / 1000000 : 0);
	jw_kv_uint(w, "total_ios", ios);
	jw_kv_uint(w, "short_ios", 0);
	jw_kv_uint(w, "drop_ios", 0);
	/* fio counts from submission: iochar's latency in closed loop, its
	 * service time in rate-limited runs (where iochar's own latency is
	 * the response time, from the schedule, in its own members). iochar
	 * does not split slat off: clat and lat are one histogram. */
	const struct hist *lat = !ds ? &empty : open_loop ? &ds->service : &ds->lat;
	lat_block(w, "slat_ns", &empty, false, false);
	lat_block(w, "clat_ns", lat, true, plus);
	lat_block(w, "lat_ns", lat, false, false);
	struct samples bw = ds ? per_second(&wr->stats.intervals, d, true) : (struct samples){0};
	struct samples io = ds ? per_second(&wr->stats.intervals, d, false) : (struct samples){0};
	jw_kv_uint(w, "bw_min", (uint64_t)bw.min);
	jw_kv_uint(w, "bw_max", (uint64_t)bw.max);
	jw_kv_double(w, "bw_agg", bw.n ? 100.0 : 0);
	jw_kv_double(w, "bw_mean", bw.mean);
	jw_kv_double(w, "bw_dev", bw.dev);
	jw_kv_uint(w, "bw_samples", bw.n);
	jw_kv_uint(w, "iops_min", (uint64_t)io.min);
	jw_kv_uint(w, "iops_max", (uint64_t)io.max);
	jw_kv_double(w, "iops_mean", io.mean);
	jw_kv_double(w, "iops_stddev", io.dev);
	jw_kv_uint(w, "iops_samples", io.n);
	jw_object_end(w);
}

/* fio's latency_ns/us/ms: the % of I/Os (both directions) below each
 * edge and at or above the edge before it, in ns, then us, then ms; the
 * last, ">=2000" ms, holds the rest. */
static void latency_buckets(struct jw *w, const struct worker_result *wr, bool open_loop)
{
	static const unsigned edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
	static const char *const names[] = {"latency_ns", "latency_us", "latency_ms"};
	struct hist all;
	char k[16];
	double lo = 0, scale = 1;

	hist_init(&all);
	for (int d = 0; d < DIR_COUNT; d++)
		hist_merge(&all, open_loop ? &wr->stats.dir[d].service : &wr->stats.dir[d].lat);
	for (int g = 0; g < 3; g++, scale *= 1000) {
		jw_key(w, names[g]);
		jw_object_begin(w);
		unsigned n = g == 2 ? 12 : 10; /* ms adds 2000 and >=2000 */
		for (unsigned e = 0; e < n; e++) {
			bool rest = e == 11;
			double hi = rest ? INFINITY : (e < 10 ? edges[e] : 2000) * scale;
			uint64_t in = 0;
			for (unsigned i = 0; i < HIST_BUCKETS && all.count; i++) {
				double v = (double)hist_bucket_low(i);
				if (v >= lo && v < hi)
					in += all.buckets[i];
			}
			snprintf(k, sizeof(k), rest ? ">=2000" : "%u", e < 10 ? edges[e] : 2000);
			jw_kv_double(w, k, all.count ? 100.0 * (double)in / (double)all.count : 0);
			lo = hi;
		}
		jw_object_end(w);
	}
}

static void job_entry(struct jw *w, const struct run_result *r, const struct worker_result *wr,
		      bool plus)
{
	const struct job_spec *j = &r->jobs[wr->job];
	jw_object_begin(w);
	jw_kv_string(w, "jobname", j->name);
	jw_kv_uint(w, "groupid", 0);
	jw_kv_int(w, "error", wr->error < 0 ? -wr->error : wr->error);
	jw_kv_uint(w, "eta", 0);
	jw_kv_uint(w, "elapsed", (r->elapsed_ns + r->ramp_ns + 500000000ull) / 1000000000ull);
	job_options(w, j);
	dir_block(w, "read", wr, DIR_READ, r->open_loop, plus);
	dir_block(w, "write", wr, DIR_WRITE, r->open_loop, plus);
	dir_block(w, "trim", wr, DIR_COUNT, r->open_loop, plus); /* no trim yet */
	jw_key(w, "sync");
	jw_object_begin(w);
	jw_kv_uint(w, "total_ios", 0);
	struct hist empty;
	hist_init(&empty);
	lat_block(w, "lat_ns", &empty, false, false);
	jw_object_end(w);
	jw_kv_uint(w, "job_runtime", wr->elapsed_ns / 1000000);
	/* CPU is measured for the whole process: each job shows its share */
	jw_kv_double(w, "usr_cpu", r->cpu_usr_pct / (r->nr_workers ? r->nr_workers : 1));
	jw_kv_double(w, "sys_cpu", r->cpu_sys_pct / (r->nr_workers ? r->nr_workers : 1));
	latency_buckets(w, wr, r->open_loop);
	jw_kv_uint(w, "latency_depth", j->iodepth);
	jw_kv_uint(w, "latency_target", 0);
	jw_kv_double(w, "latency_percentile", 100.0);
	jw_kv_uint(w, "latency_window", 0);
	jw_object_end(w);
}

void json_fio_emit(struct jw *w, const struct run_result *r, bool plus)
{
	char when[64] = "";
	time_t t = (time_t)(r->start_unix_ms / 1000);
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	jw_kv_string(w, "fio version", "fio-3.33 (iochar " IOCHAR_VERSION ")");
	jw_kv_int(w, "timestamp", r->start_unix_ms / 1000);
	jw_kv_int(w, "timestamp_ms", r->start_unix_ms);
	jw_kv_string(w, "time", when);
	jw_key(w, "jobs");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_workers; i++)
		job_entry(w, r, &r->workers[i], plus);
	jw_array_end(w);
	jw_key(w, "disk_util"); /* not measured yet: an empty list, never made up */
	jw_array_begin(w);
	jw_array_end(w);
}
