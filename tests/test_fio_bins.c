/* test_fio_bins.c - the json+ figures of fio's layout against the
 * histogram they come from: a worker with known latencies (every decade
 * from 1 ns to 10 s, reads and writes, so every bucket range of fio's
 * latency_ns/us/ms groups is hit and the histogram's sub-buckets are
 * too) is emitted through json_fio_emit; each direction's clat_ns "bins"
 * must be exactly its non-empty buckets, keyed by their midpoints, and the
 * latency_ns/us/ms percentages what a scan of the merged histogram, range
 * by range, gives. In rate-limited runs both come from the service times. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output/fio_doc.h"

struct fixture {
	struct job_spec job;
	struct worker_result wr;
	struct run_result r;
};

/* Latencies 1 ns .. 10 s: each decade at 1, 1.5, 2.5, 4 and 7 times, i
 * times over so counts differ from bucket to bucket; writes take 3 times
 * the reads', and their service time is half of it. */
static void fill(struct fixture *f, bool open_loop)
{
	memset(f, 0, sizeof(*f));
	job_spec_init(&f->job);
	snprintf(f->job.name, sizeof(f->job.name), "bins");
	f->job.clat_percentiles = true; /* the row's default, as fio's */
	stats_init(&f->wr.stats);
	static const double steps[] = {1, 1.5, 2.5, 4, 7};
	uint64_t t = 0;
	for (double dec = 1; dec <= 1e10; dec *= 10)
		for (unsigned s = 0; s < 5; s++)
			for (unsigned i = 0; i <= s; i++) {
				uint64_t v = (uint64_t)(dec * steps[s]);
				t += 1000;
				assert_int_equal(stats_record(&f->wr.stats, DIR_READ,
							      4096, v, t), 0);
				assert_int_equal(stats_record(&f->wr.stats, DIR_WRITE,
							      4096, 3 * v, t), 0);
				if (open_loop) {
					stats_record_paced(&f->wr.stats, DIR_READ, 0, 0, v / 2);
					stats_record_paced(&f->wr.stats, DIR_WRITE, 0, 0,
							   3 * v / 2);
				}
			}
	f->wr.elapsed_ns = 2000000000ull;
	f->r.jobs = &f->job;
	f->r.nr_jobs = 1;
	f->r.workers = &f->wr;
	f->r.nr_workers = 1;
	f->r.elapsed_ns = f->wr.elapsed_ns;
	f->r.open_loop = open_loop;
}

/* json_fio_emit(plus) of f as a parsed object (the caller puts it). */
static json_object *emit(const struct fixture *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct jw w;

	assert_non_null(m);
	jw_init(&w, m, 0);
	jw_object_begin(&w);
	json_fio_emit(&w, &f->r, true);
	jw_object_end(&w);
	assert_int_equal(jw_finish(&w), 0);
	assert_int_equal(fclose(m), 0);
	json_object *o = json_tokener_parse(text);
	free(text);
	assert_non_null(o);
	return o;
}

/* The histogram fio's figures of direction d come from. */
static const struct hist *source(const struct fixture *f, enum io_dir d)
{
	const struct dir_stats *ds = &f->wr.stats.dir[d];
	return f->r.open_loop ? &ds->service : &ds->lat;
}

/* bins holds exactly h's non-empty buckets, each by its midpoint. */
static void check_bins(json_object *bins, const struct hist *h)
{
	unsigned nonempty = 0;
	uint64_t sum = 0;
	char k[32];

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		nonempty++;
		snprintf(k, sizeof(k), "%llu",
			 (unsigned long long)((hist_bucket_low(i) + hist_bucket_high(i)) / 2));
		json_object *v;
		if (!json_object_object_get_ex(bins, k, &v))
			fail_msg("bucket %u (%s ns, %llu I/Os) is not in bins", i, k,
				 (unsigned long long)h->buckets[i]);
		assert_int_equal(json_object_get_uint64(v), h->buckets[i]);
		sum += h->buckets[i];
	}
	assert_int_equal(json_object_object_length(bins), nonempty);
	assert_int_equal(sum, h->count);
	assert_true(nonempty > 30); /* the data spans many buckets */
}

/* A filled fixture and the fio job it emits (in *doc, to put). */
static struct fixture *fixture_new(bool open_loop, json_object **doc,
				   json_object **job)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fill(f, open_loop);
	*doc = emit(f);
	*job = json_object_array_get_idx(jget(*doc, "jobs"), 0);
	return f;
}

static void fixture_free(struct fixture *f, json_object *doc)
{
	json_object_put(doc);
	stats_free(&f->wr.stats);
	job_spec_free(&f->job);
	free(f);
}

static void check_dirs_bins(bool open_loop)
{
	json_object *o, *job;
	struct fixture *f = fixture_new(open_loop, &o, &job);

	check_bins(jget(job, "read.clat_ns.bins"), source(f, DIR_READ));
	check_bins(jget(job, "write.clat_ns.bins"), source(f, DIR_WRITE));
	assert_int_equal(jget_u64(job, "read.clat_ns.N"), source(f, DIR_READ)->count);
	fixture_free(f, o);
}

static void test_bins_are_the_histogram(void **state)
{
	(void)state;
	check_dirs_bins(false);
}

static void test_bins_open_loop_are_service_times(void **state)
{
	(void)state;
	check_dirs_bins(true);
}

/* The % of all I/Os whose bucket low lies in [lo, hi), scanning every
 * bucket: the reference for latency_ns/us/ms. */
static double share(const struct hist *all, double lo, double hi)
{
	uint64_t in = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		double v = (double)hist_bucket_low(i);
		if (v >= lo && v < hi)
			in += all->buckets[i];
	}
	return 100.0 * (double)in / (double)all->count;
}

static void check_groups(bool open_loop)
{
	static const unsigned edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
	static const char *const names[] = {"latency_ns", "latency_us", "latency_ms"};
	json_object *o, *job;
	struct fixture *f = fixture_new(open_loop, &o, &job);
	struct hist all;
	double lo = 0, scale = 1, total = 0;
	char k[16];

	hist_init(&all);
	hist_merge(&all, source(f, DIR_READ));
	hist_merge(&all, source(f, DIR_WRITE));
	for (unsigned g = 0; g < 3; g++, scale *= 1000) {
		json_object *grp = jget(job, names[g]);
		unsigned n = g == 2 ? 12 : 10;
		assert_int_equal(json_object_object_length(grp), n);
		for (unsigned e = 0; e < n; e++) {
			double hi = e == 11 ? INFINITY : (e < 10 ? edges[e] : 2000) * scale;
			snprintf(k, sizeof(k), e == 11 ? ">=2000" : "%u",
				 e < 10 ? edges[e] : 2000);
			double want = share(&all, lo, hi), got = jget_double(grp, k);
			if (fabs(got - want) > 0.0005 + 1e-9)
				fail_msg("%s.%s: %.3f, the histogram says %.6f", names[g], k,
					 got, want);
			total += want;
			lo = hi;
		}
	}
	assert_true(fabs(total - 100) < 1e-6); /* every I/O in one range */
	fixture_free(f, o);
}

static void test_latency_groups_are_the_histogram(void **state)
{
	(void)state;
	check_groups(false);
	check_groups(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins_are_the_histogram),
		cmocka_unit_test(test_bins_open_loop_are_service_times),
		cmocka_unit_test(test_latency_groups_are_the_histogram),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
