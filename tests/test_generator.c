/* test_generator.c - offsets and directions of the generator: sequential
 * covers the region exactly once, random offsets are aligned and in range,
 * the read/write mix is within tolerance, zipf is skewed as theta says and
 * permutes without merging blocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/generator.h"
#include "core/zipf.h"

static struct job_spec base_job(enum rw_mode rw, unsigned files)
{
	struct job_spec j;
	job_spec_init(&j);
	j.rw = rw;
	j.bs = 4096;
	j.offset = 8192;
	j.rwmixread = 70;
	j.nr_files = files;
	return j;
}

static void test_sequential_covers_once(void **state)
{
	(void)state;
	struct job_spec j = base_job(RW_READ, 3);
	struct generator g;
	uint64_t region = 1000 * 4096 + 100; /* a partial block is not used */
	assert_int_equal(gen_init(&g, &j, region, 0, 1), 0);
	unsigned char *seen = calloc(3 * 1000, 1);
	struct gen_op op;
	uint64_t n = 0, last[3] = {0};
	while (gen_next(&g, &op)) {
		assert_int_equal(op.dir, DIR_READ);
		assert_int_equal(op.len, 4096);
		assert_int_equal(op.file, n % 3); /* round robin */
		assert_true(op.offset >= 8192);
		uint64_t block = (op.offset - 8192) / 4096;
		assert_true(block < 1000);
		if (n >= 3) /* ascending within each file */
			assert_true(op.offset > last[op.file]);
		last[op.file] = op.offset;
		assert_int_equal(seen[op.file * 1000 + block], 0);
		seen[op.file * 1000 + block] = 1;
		n++;
	}
	assert_int_equal(n, 3000);
	for (int i = 0; i < 3000; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
	gen_free(&g);
}

static void test_time_based_never_ends_and_wraps(void **state)
{
	(void)state;
	struct job_spec j = base_job(RW_WRITE, 1);
	j.time_based = true;
	struct generator g;
	assert_int_equal(gen_init(&g, &j, 10 * 4096, 0, 1), 0);
	struct gen_op op;
	for (int i = 0; i < 35; i++) {
		assert_true(gen_next(&g, &op));
		assert_int_equal(op.dir, DIR_WRITE);
		assert_int_equal(op.offset, 8192 + (uint64_t)(i % 10) * 4096);
	}
	gen_free(&g);
}

static void test_random_aligned_in_range_and_mixed(void **state)
{
	(void)state;
	struct job_spec j = base_job(RW_RANDRW, 2);
	j.bs = 8192;
	struct generator g;
	uint64_t nblocks = 5000, region = nblocks * 8192;
	assert_int_equal(gen_init(&g, &j, region, 0, 99), 0);
	struct gen_op op;
	uint64_t n = 0, reads = 0;
	unsigned *hits = calloc(nblocks, sizeof(*hits));
	while (gen_next(&g, &op)) {
		assert_int_equal((op.offset - j.offset) % 8192, 0);
		assert_true(op.offset >= j.offset);
		assert_true(op.offset + op.len <= j.offset + region);
		hits[(op.offset - j.offset) / 8192]++;
		reads += op.dir == DIR_READ;
		n++;
	}
	assert_int_equal(n, 2 * nblocks);
	/* 70 % reads within 3 standard deviations (binomial, n = 10000: 1.4 %) */
	double frac = (double)reads / (double)n;
	assert_true(fabs(frac - 0.70) < 3 * sqrt(0.7 * 0.3 / (double)n));
	/* uniform: no block far above its expected 2 hits */
	for (uint64_t b = 0; b < nblocks; b++)
		assert_true(hits[b] < 15);
	free(hits);
	gen_free(&g);
}

static void test_pure_modes_one_direction(void **state)
{
	(void)state;
	static const enum rw_mode modes[] = {RW_READ, RW_RANDREAD, RW_WRITE, RW_RANDWRITE};
	for (int m = 0; m < 4; m++) {
		struct job_spec j = base_job(modes[m], 1);
		j.rwmixread = 50; /* ignored outside mixed modes */
		struct generator g;
		assert_int_equal(gen_init(&g, &j, 64 * 4096, 0, 3), 0);
		struct gen_op op;
		enum io_dir want = rw_writes(modes[m]) ? DIR_WRITE : DIR_READ;
		while (gen_next(&g, &op))
			assert_int_equal(op.dir, want);
		gen_free(&g);
	}
}

static void test_same_seed_same_stream(void **state)
{
	(void)state;
	struct job_spec j = base_job(RW_RANDRW, 1);
	struct generator a, b, c;
	assert_int_equal(gen_init(&a, &j, 1 << 24, 0, 5), 0);
	assert_int_equal(gen_init(&b, &j, 1 << 24, 0, 5), 0);
	assert_int_equal(gen_init(&c, &j, 1 << 24, 0, 6), 0);
	struct gen_op x = {0}, y = {0}, z = {0};
	int differ = 0;
	for (int i = 0; i < 1000; i++) {
		assert_true(gen_next(&a, &x));
		assert_true(gen_next(&b, &y));
		assert_true(gen_next(&c, &z));
		assert_memory_equal(&x, &y, sizeof(x));
		differ += x.offset != z.offset;
	}
	assert_true(differ > 900);
	gen_free(&a);
	gen_free(&b);
	gen_free(&c);
}

static void test_region_smaller_than_block_rejected(void **state)
{
	(void)state;
	struct job_spec j = base_job(RW_READ, 1);
	struct generator g;
	assert_int_equal(gen_init(&g, &j, 4095, 0, 1), -EINVAL);
}

static void test_zipf_permutation_is_bijective(void **state)
{
	(void)state;
	static const uint64_t sizes[] = {1, 2, 3, 1000, 4096, 12345};
	for (int k = 0; k < 6; k++) {
		uint64_t n = sizes[k];
		struct zipf z;
		zipf_init(&z, n, 1.2, 77);
		unsigned char *seen = calloc(n, 1);
		for (uint64_t r = 0; r < n; r++) {
			uint64_t b = zipf_permute(&z, r);
			assert_true(b < n);
			assert_int_equal(seen[b], 0);
			seen[b] = 1;
		}
		free(seen);
	}
}

/* Share of draws that land on the hottest `top` ranks. */
static double zipf_top_share(double theta, uint64_t n, uint64_t top, int draws)
{
	struct zipf z;
	struct rng r;
	zipf_init(&z, n, theta, 1);
	rng_seed(&r, 2);
	int hits = 0;
	for (int i = 0; i < draws; i++) {
		uint64_t rank = zipf_rank(&z, &r);
		assert_true(rank < n);
		hits += rank < top;
	}
	return (double)hits / draws;
}

/* Expected share: H(top, theta) / H(n, theta). */
static double zipf_expected(double theta, uint64_t n, uint64_t top)
{
	double a = 0, b = 0;
	for (uint64_t i = 1; i <= n; i++) {
		double t = pow((double)i, -theta);
		b += t;
		if (i <= top)
			a += t;
	}
	return a / b;
}

static void test_zipf_skew(void **state)
{
	(void)state;
	uint64_t n = 100000, top = 1000; /* the hottest 1 % */
	static const double thetas[] = {0.8, 1.2, 2.0};
	for (int k = 0; k < 3; k++) {
		double got = zipf_top_share(thetas[k], n, top, 400000);
		double want = zipf_expected(thetas[k], n, top);
		/* Gray's method approximates the tail; 3 % absolute is tight
		 * enough to tell theta 0.8 (~0.4) from 1.2 (~0.8) apart */
		if (fabs(got - want) > 0.03)
			fail_msg("theta %.1f: top 1%% got %.3f of draws, expected %.3f",
				 thetas[k], got, want);
	}
	/* uniform would put 1 % there; zipf:1.2 puts most there */
	assert_true(zipf_top_share(1.2, n, top, 100000) > 0.5);
}

static void test_generator_zipf_hot_blocks(void **state)
{
	(void)state;
	struct job_spec j = base_job(RW_RANDREAD, 1);
	j.dist = DIST_ZIPF;
	j.zipf_theta = 1.2;
	j.time_based = true;
	struct generator g;
	uint64_t nblocks = 10000;
	assert_int_equal(gen_init(&g, &j, nblocks * 4096, 0, 4), 0);
	unsigned *hits = calloc(nblocks, sizeof(*hits));
	struct gen_op op = {0};
	for (int i = 0; i < 200000; i++) {
		assert_true(gen_next(&g, &op));
		hits[(op.offset - j.offset) / 4096]++;
	}
	/* the hottest block is not block 0: the permutation spreads them */
	uint64_t hottest = 0;
	for (uint64_t b = 1; b < nblocks; b++)
		if (hits[b] > hits[hottest])
			hottest = b;
	assert_true(hits[hottest] > 200000 / 20);
	assert_int_equal(hottest, zipf_permute(&g.dist[DIR_READ].zipf, 0));
	free(hits);
	gen_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_covers_once),
		cmocka_unit_test(test_time_based_never_ends_and_wraps),
		cmocka_unit_test(test_random_aligned_in_range_and_mixed),
		cmocka_unit_test(test_pure_modes_one_direction),
		cmocka_unit_test(test_same_seed_same_stream),
		cmocka_unit_test(test_region_smaller_than_block_rejected),
		cmocka_unit_test(test_zipf_permutation_is_bijective),
		cmocka_unit_test(test_zipf_skew),
		cmocka_unit_test(test_generator_zipf_hot_blocks),
	};
	return cmocka_run_group_tests_name("generator", tests, NULL, NULL);
}
