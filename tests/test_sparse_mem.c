/* test_sparse_mem.c - a worker's statistics are resident only where they
 * count: clearing, copying and merging them leaves the pages of empty
 * buckets unpaged (util/sparse_mem.h), and they still equal memset,
 * memcpy and a plain merge. The process's resident set (/proc/self/statm)
 * says what was paged in: mincore(2) would also count the shared zero
 * page that reading untouched memory maps, which costs nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stats/stats.h"
#include "util/sparse_mem.h"

/* Fresh anonymous memory, none of it resident yet. */
static void *fresh(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	return p;
}

/* The process's resident pages now. */
static long resident(void)
{
	long size = 0, rss = -1;
	FILE *f = fopen("/proc/self/statm", "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld %ld", &size, &rss), 2);
	fclose(f);
	return rss;
}

static void test_zero_and_copy_equal_memset_and_memcpy(void **state)
{
	(void)state;
	unsigned char a[203], b[203], want[203];
	for (unsigned i = 0; i < sizeof(a); i++) {
		a[i] = (unsigned char)(i % 3 ? 0 : i);
		b[i] = (unsigned char)(i * 7);
	}
	memcpy(want, b, sizeof(want));
	sparse_copy(a, b, sizeof(a)); /* odd length: the tail bytes too */
	assert_memory_equal(a, want, sizeof(a));
	sparse_zero(a, sizeof(a));
	memset(want, 0, sizeof(want));
	assert_memory_equal(a, want, sizeof(a));
}

static void test_zeros_stay_unpaged(void **state)
{
	(void)state;
	size_t n = 16 << 20; /* 4096 pages: a few pages of noise cannot hide them */
	unsigned char *p = fresh(n), *q = fresh(n);
	long before = resident();
	sparse_zero(p, n);
	sparse_copy(q, p, n);
	assert_true(resident() - before < 64);
	p[5000] = 1;
	sparse_copy(q, p, n);
	assert_true(resident() - before < 64);
	assert_int_equal(q[5000], 1);
	memset(q, 0, n); /* the test can see pages: a plain clear pages all in */
	assert_true(resident() - before > 4000);
	munmap(p, n);
	munmap(q, n);
}

/* What a run does with a worker's statistics, on fresh memory: init,
 * record reads of 50 us to 2 ms, hand over to the result (copy, clear),
 * merge into the total. Each block keeps only the pages it counts in
 * resident; before, all ~165 of them. */
static void test_worker_stats_resident_where_they_count(void **state)
{
	(void)state;
	size_t n = sizeof(struct worker_stats);
	struct worker_stats *w = fresh(n), *res = fresh(n), *total = fresh(n);
	long before = resident();
	stats_reset(w); /* fresh mmap: defined zeros, as calloc's */
	stats_reset(total);
	assert_int_equal(stats_reserve(w, 4), 0);
	for (uint64_t i = 0; i < 100000; i++)
		assert_int_equal(stats_record(w, DIR_READ, 4096, 50000 + (i * 7919) % 1950000,
					      i * 10000), 0);
	sparse_copy(res, w, n); /* runner_result's hand-over */
	sparse_zero(w, n);
	assert_int_equal(stats_merge(total, res), 0);

	/* each empty histogram's first page holds its min sentinel (19 of
	 * them), then the few pages of the buckets counted in and the
	 * series: the three blocks together no more than one block's pages
	 * (a plain copy and clear would page in all three) */
	long all = (long)((n + 4095) / 4096);
	assert_true(all > 100); /* there was much to leave alone */
	assert_true(resident() - before <= all);

	/* and the figures are those of a plain run */
	assert_int_equal(total->dir[DIR_READ].ios, 100000);
	assert_int_equal(total->dir[DIR_READ].lat.count, 100000);
	assert_int_equal(total->dir[DIR_READ].lat.min, 50000);
	assert_int_equal(total->dir[DIR_WRITE].lat.count, 0);
	assert_int_equal(total->dir[DIR_WRITE].lat.min, UINT64_MAX);
	uint64_t p50 = hist_percentile(&total->dir[DIR_READ].lat, 50);
	assert_true(p50 > 950000 && p50 < 1050000);
	free(res->intervals.v);
	stats_free(total);
	munmap(w, n);
	munmap(res, n);
	munmap(total, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_and_copy_equal_memset_and_memcpy),
		cmocka_unit_test(test_zeros_stay_unpaged),
		cmocka_unit_test(test_worker_stats_resident_where_they_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
