/* test_hist.c - the histogram's percentiles against exact ones computed
 * from the same samples, its documented error bound, and exact merging. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "stats/stats.h"
#include "util/rng.h"

/* the bound hist.h documents: half a bucket, 1/(2*HIST_SUB) of the value */
#define BOUND (1.0 / (2.0 * HIST_SUB))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* exact percentile with the same definition: smallest v with >= p% <= v */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static struct hist *new_hist(void)
{
	struct hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	hist_init(h);
	return h;
}

static void test_empty(void **state)
{
	(void)state;
	struct hist *h = new_hist();
	assert_int_equal(hist_percentile(h, 99), 0);
	assert_true(hist_mean(h) == 0.0);
	assert_true(hist_stdev(h) == 0.0);
	free(h);
}

static void test_buckets_cover_every_value_once(void **state)
{
	(void)state;
	/* consecutive buckets tile the value range with no gap or overlap */
	for (unsigned i = 1; i < HIST_BUCKETS; i++)
		assert_int_equal(hist_bucket_low(i), hist_bucket_high(i - 1) + 1);
	/* every value maps into a bucket whose bounds hold it */
	struct rng r;
	rng_seed(&r, 1);
	for (int k = 0; k < 200000; k++) {
		uint64_t v = rng_next(&r) >> (rng_next(&r) % 64);
		if (v >= (1ull << HIST_MAX_BITS))
			continue;
		unsigned i = hist_index(v);
		assert_true(v >= hist_bucket_low(i) && v <= hist_bucket_high(i));
		if (i == HIST_BUCKETS - 1)
			continue; /* the last bucket also takes everything above */
		/* bucket width within the documented relative bound */
		uint64_t w = hist_bucket_high(i) - hist_bucket_low(i) + 1;
		assert_true((double)w <= (double)v / HIST_SUB + 1);
	}
}

static void check_against_exact(uint64_t *v, size_t n)
{
	struct hist *h = new_hist();
	for (size_t i = 0; i < n; i++)
		hist_record(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	static const double ps[] = {1, 10, 50, 90, 95, 99, 99.9, 99.99, 100};
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		uint64_t exact = exact_pct(v, n, ps[k]);
		uint64_t got = hist_percentile(h, ps[k]);
		double rel = fabs((double)got - (double)exact) / (double)exact;
		if (rel > BOUND + 1e-12)
			fail_msg("p%g: got %llu, exact %llu (rel %.5f > %.5f)", ps[k],
				 (unsigned long long)got, (unsigned long long)exact, rel, BOUND);
	}
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	long double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	long double mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	assert_true(fabs(hist_mean(h) - (double)mean) < 1e-6 * (double)mean);
	double sd = (double)sqrtl(sq / n);
	assert_true(fabs(hist_stdev(h) - sd) <= 1e-6 * sd + 1e-9);
	free(h);
}

static void test_percentiles_lognormal(void **state)
{
	(void)state;
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct rng r;
	rng_seed(&r, 42);
	for (size_t i = 0; i < n; i++) {
		/* latencies from ~1 us to ~100 ms, log-normal-ish */
		double u1 = rng_unit(&r) + 1e-12, u2 = rng_unit(&r);
		double g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		v[i] = (uint64_t)exp(11.5 + 1.5 * g);
	}
	check_against_exact(v, n);
	free(v);
}

static void test_percentiles_small_exact(void **state)
{
	(void)state;
	uint64_t v[100];
	for (int i = 0; i < 100; i++)
		v[i] = (uint64_t)i; /* below HIST_SUB: stored exactly */
	struct hist *h = new_hist();
	for (int i = 0; i < 100; i++)
		hist_record(h, v[i]);
	assert_int_equal(hist_percentile(h, 50), 49);
	assert_int_equal(hist_percentile(h, 99), 98);
	assert_int_equal(hist_percentile(h, 100), 99);
	free(h);
	check_against_exact(v + 1, 99);
}

static void test_huge_values_keep_exact_max(void **state)
{
	(void)state;
	struct hist *h = new_hist();
	hist_record(h, 5);
	hist_record(h, (1ull << 50) + 7);
	assert_int_equal(h->max, (1ull << 50) + 7);
	assert_int_equal(hist_percentile(h, 100), (1ull << 50) + 7);
	assert_int_equal(h->buckets[HIST_BUCKETS - 1], 1);
	free(h);
}

static void test_merge_is_exact(void **state)
{
	(void)state;
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct rng r;
	rng_seed(&r, 7);
	for (int i = 0; i < 50000; i++) {
		uint64_t v = 1000 + rng_below(&r, 5000000);
		hist_record(i % 3 ? a : b, v);
		hist_record(all, v);
	}
	hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	for (double p = 1; p <= 100; p += 0.5)
		assert_int_equal(hist_percentile(a, p), hist_percentile(all, p));
	free(a);
	free(b);
	free(all);
}

static void test_stats_intervals_merge(void **state)
{
	(void)state;
	struct worker_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
			    *t = malloc(sizeof(*t));
	stats_init(a);
	stats_init(b);
	stats_init(t);
	for (int i = 0; i < 30; i++)
		assert_int_equal(stats_record(a, DIR_READ, 4096, 1000 + i,
					      (uint64_t)i * 100000000ull), 0);
	assert_int_equal(stats_record(b, DIR_WRITE, 8192, 50000, 4500000000ull), 0);
	assert_int_equal(a->intervals.len, 3);
	assert_int_equal(b->intervals.len, 5);
	assert_int_equal(stats_merge(t, a), 0);
	assert_int_equal(stats_merge(t, b), 0);
	assert_int_equal(t->intervals.len, 5);
	assert_int_equal(t->intervals.v[0].ios[DIR_READ], 10);
	assert_int_equal(t->intervals.v[4].ios[DIR_WRITE], 1);
	assert_int_equal(t->intervals.v[4].lat_max[DIR_WRITE], 50000);
	assert_int_equal(t->dir[DIR_READ].ios, 30);
	assert_int_equal(t->dir[DIR_WRITE].bytes, 8192);
	struct dir_stats *tot = malloc(sizeof(*tot));
	stats_total(t, tot);
	assert_int_equal(tot->ios, 31);
	assert_int_equal(tot->lat.max, 50000);
	free(tot);
	stats_free(a);
	stats_free(b);
	stats_free(t);
	free(a);
	free(b);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_buckets_cover_every_value_once),
		cmocka_unit_test(test_percentiles_lognormal),
		cmocka_unit_test(test_percentiles_small_exact),
		cmocka_unit_test(test_huge_values_keep_exact_max),
		cmocka_unit_test(test_merge_is_exact),
		cmocka_unit_test(test_stats_intervals_merge),
	};
	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
