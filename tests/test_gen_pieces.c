/* test_gen_pieces.c - the generator's parts on their own: the random map
 * (next free block, wrap, partial marks, a million blocks), block sizes
 * (bssplit weights, bsrange's spread), distributions (zoned shares,
 * zoned_abs past the region refused, pareto and normal skew), and the
 * generator's modes fio defines: blockalign, rw_sequencer=identical,
 * percentage_random, bs_is_seq_rand, a random map that starts over each
 * pass with time_based. (test_fio_gen.c compares with fio itself.)
 */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/job_gen.h"
#include "core/blocksize.h"
#include "core/distribution.h"
#include "core/generator.h"
#include "core/randmap.h"

static void test_randmap_marks_and_finds(void **state)
{
	struct randmap m;

	(void)state;
	assert_int_equal(randmap_init(&m, 200), 0);
	assert_int_equal(randmap_set_nr(&m, 10, 5), 5);
	assert_int_equal(randmap_set_nr(&m, 12, 3), 0); /* 12 is used */
	assert_int_equal(randmap_set_nr(&m, 8, 5), 2);  /* stops at 10 */
	assert_int_equal(randmap_set_nr(&m, 198, 5), 2); /* stops at the end */
	assert_false(randmap_free_at(&m, 9));
	assert_true(randmap_free_at(&m, 15));
	assert_int_equal(randmap_next_free(&m, 8), 15);
	assert_int_equal(randmap_next_free(&m, 199), 0); /* wraps */
	for (uint64_t b = 0; b < 200; b++)
		if (b != 3)
			randmap_set_nr(&m, b, 1);
	assert_int_equal(randmap_next_free(&m, 150), 3);
	assert_int_equal(m.used, 199);
	randmap_set_nr(&m, 3, 1);
	assert_int_equal(randmap_next_free(&m, 0), UINT64_MAX);
	randmap_reset(&m);
	assert_int_equal(randmap_next_free(&m, 77), 77);
	randmap_free(&m);
}

/* A million blocks, marked in a scattered order through next_free: each
 * once, and the summary levels agree with the bits. */
static void test_randmap_large_each_once(void **state)
{
	const uint64_t n = 1000003;
	struct randmap m;
	struct rng r;

	(void)state;
	assert_int_equal(randmap_init(&m, n), 0);
	assert_true(m.nlevels >= 3);
	rng_seed(&r, 5);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t b = randmap_next_free(&m, rng_below(&r, n));
		assert_true(b < n);
		assert_int_equal(randmap_set_nr(&m, b, 1), 1);
	}
	assert_int_equal(m.used, n);
	assert_int_equal(randmap_next_free(&m, 0), UINT64_MAX);
	randmap_free(&m);
}

static void test_bssplit_weights(void **state)
{
	struct job_spec j;
	struct gen_bs b;
	struct bs_rng r;
	unsigned c[3] = {0};
	const int draws = 100000;

	(void)state;
	job_spec_init(&j);
	j.bs = 4096;
	j.bssplit[DIR_READ] = (struct job_split){
	    .nr = 3, .perc = {20, 50, 30}, .val = {4096, 16384, 65536}};
	gen_bs_setup(&b, &j, DIR_READ);
	assert_int_equal(b.min, 4096);
	assert_int_equal(b.max, 65536);
	assert_int_equal(gen_bs_max(&j), 65536);
	bs_rng_seed(&r, 1, false);
	for (int i = 0; i < draws; i++) {
		uint64_t l = gen_bs_next(&b, &r, UINT64_MAX);
		c[l == 4096 ? 0 : l == 16384 ? 1 : 2]++;
		assert_true(l == 4096 || l == 16384 || l == 65536);
	}
	/* within 1 point of the weights (sd ~0.16 points) */
	assert_true(abs((int)(c[0] * 100 / draws) - 20) <= 1);
	assert_true(abs((int)(c[1] * 100 / draws) - 50) <= 1);
	assert_true(abs((int)(c[2] * 100 / draws) - 30) <= 1);
	/* room for 16k only: never 64k */
	for (int i = 0; i < 1000; i++)
		assert_true(gen_bs_next(&b, &r, 20000) <= 16384);
	assert_int_equal(gen_bs_next(&b, &r, 4095), 0);
}

/* bsrange 4k-16k: min + U[0, max) aligned down, capped (fio): each of the
 * four sizes a quarter of the time. */
static void test_bsrange_spread(void **state)
{
	struct job_spec j;
	struct gen_bs b;
	struct bs_rng r;
	unsigned c[5] = {0};
	const int draws = 100000;

	(void)state;
	job_spec_init(&j);
	j.bs = 4096;
	j.bs_range[DIR_READ][0] = 4096;
	j.bs_range[DIR_READ][1] = 16384;
	gen_bs_setup(&b, &j, DIR_READ);
	bs_rng_seed(&r, 2, false);
	for (int i = 0; i < draws; i++) {
		uint64_t l = gen_bs_next(&b, &r, UINT64_MAX);
		assert_int_equal(l % 4096, 0);
		assert_true(l >= 4096 && l <= 16384);
		c[l / 4096]++;
	}
	for (int k = 1; k <= 4; k++)
		assert_true(abs((int)(c[k] * 100 / draws) - 25) <= 1);
}

static void test_zoned_shares_and_abs_limit(void **state)
{
	struct job_spec j;
	struct gen_dist d;
	struct rng r;
	unsigned c[3] = {0};
	const uint64_t n = 1000;

	(void)state;
	job_spec_init(&j);
	j.dist = DIST_ZONED;
	j.zones[DIR_READ] = (struct job_split){
	    .nr = 3, .perc = {60, 30, 10}, .val = {10, 20, 70}};
	assert_int_equal(gen_dist_init(&d, &j, DIR_READ, n, 4096, n * 4096, 1), 0);
	rng_seed(&r, 3);
	for (int i = 0; i < 100000; i++) {
		uint64_t b = gen_dist_next(&d, &r);
		assert_true(b < n);
		c[b < 100 ? 0 : b < 300 ? 1 : 2]++;
	}
	assert_true(abs((int)(c[0] / 1000) - 60) <= 1);
	assert_true(abs((int)(c[1] / 1000) - 30) <= 1);
	assert_true(abs((int)(c[2] / 1000) - 10) <= 1);
	/* zoned_abs: a zone past the region is refused, as fio does */
	j.dist = DIST_ZONED_ABS;
	j.zones[DIR_READ] = (struct job_split){
	    .nr = 2, .perc = {50, 50}, .val = {1 << 20, 4 << 20}};
	assert_int_equal(gen_dist_init(&d, &j, DIR_READ, 1024, 4096, 4 << 20, 1),
			 -EINVAL);
	j.zones[DIR_READ].val[1] = 3 << 20;
	assert_int_equal(gen_dist_init(&d, &j, DIR_READ, 1024, 4096, 4 << 20, 1), 0);
	assert_int_equal(d.zones[1].first, 256);
	assert_int_equal(d.zones[1].nr, 768);
}

/* pareto:0.2 and normal:5 concentrate accesses: the hottest 10% of blocks
 * take far more than 10% of them. */
static void test_pareto_normal_skewed(void **state)
{
	const enum rand_dist kinds[] = {DIST_PARETO, DIST_NORMAL};
	const double params[] = {0.2, 5};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct job_spec j;
		struct gen_dist d;
		struct rng r;
		const uint64_t n = 1000;
		unsigned *hits = calloc(n, sizeof(*hits));
		job_spec_init(&j);
		j.dist = kinds[k];
		j.dist_param = params[k];
		assert_int_equal(gen_dist_init(&d, &j, DIR_READ, n, 4096, n * 4096, 9), 0);
		rng_seed(&r, 4);
		for (int i = 0; i < 100000; i++) {
			uint64_t b = gen_dist_next(&d, &r);
			assert_true(b < n);
			hits[b]++;
		}
		/* the top 100 blocks' share: sort-free, by threshold */
		unsigned top = 0;
		for (int t = 0; t < 100; t++) {
			uint64_t best = 0;
			for (uint64_t b = 1; b < n; b++)
				if (hits[b] > hits[best])
					best = b;
			top += hits[best];
			hits[best] = 0;
		}
		assert_true(top > 100000 / 4);
		free(hits);
	}
}

static struct job_spec job(enum rw_mode rw)
{
	struct job_spec j;

	job_spec_init(&j);
	j.rw = rw;
	j.bs = 4096;
	j.nr_files = 1;
	return j;
}

/* blockalign=8k with bs=4k: offsets are multiples of 8k, and the random
 * map is off (fio), so blocks repeat. */
static void test_blockalign(void **state)
{
	struct job_spec j = job(RW_RANDREAD);
	struct generator g;
	struct gen_op op;
	unsigned n = 0;

	(void)state;
	j.blockalign[DIR_READ] = j.blockalign[DIR_WRITE] = 8192;
	assert_int_equal(gen_init(&g, &j, 1 << 20, 0, 1), 0);
	assert_false(g.map_on);
	while (gen_next(&g, &op)) {
		assert_int_equal(op.offset % 8192, 0);
		n++;
	}
	assert_int_equal(n, 256);
	gen_free(&g);
}

/* rw=randread:4 with rw_sequencer=identical: each random offset 4 times. */
static void test_sequencer_identical(void **state)
{
	struct job_spec j = job(RW_RANDREAD);
	struct generator g;
	struct gen_op op[64];

	(void)state;
	j.rw_seq_nr = 4;
	j.rw_sequencer = RW_SEQ_IDENTICAL;
	assert_int_equal(gen_init(&g, &j, 1 << 20, 0, 1), 0);
	for (int i = 0; i < 64; i++)
		assert_true(gen_next(&g, &op[i]));
	for (int i = 0; i < 64; i++)
		assert_int_equal(op[i].offset, op[i - i % 4].offset);
	assert_true(op[0].offset != op[4].offset || op[4].offset != op[8].offset);
	gen_free(&g);
}

/* percentage_random=0: a random mode issued sequentially; 100: random. */
static void test_percentage_random(void **state)
{
	struct generator g;
	struct gen_op op;

	(void)state;
	for (int pr = 0; pr <= 100; pr += 50) {
		struct job_spec j = job(RW_RANDREAD);
		j.percentage_seq[DIR_READ] = 100 - pr;
		assert_int_equal(gen_init(&g, &j, 1 << 20, 0, 7), 0);
		uint64_t prev = 0, seq = 0, n = 0;
		while (gen_next(&g, &op)) {
			seq += n && op.offset == prev + 4096;
			prev = op.offset;
			n++;
		}
		if (pr == 0)
			assert_int_equal(seq, n - 1); /* all sequential */
		else if (pr == 100)
			assert_true(seq < n / 10);
		else
			assert_true(seq > n / 3 && seq < 2 * n / 3);
		gen_free(&g);
	}
}

/* bs_is_seq_rand: bs=R,W sizes sequential (R) and random (W) I/Os. */
static void test_bs_is_seq_rand(void **state)
{
	struct job_spec j = job(RW_RANDREAD);
	struct generator g;
	struct gen_op op;

	(void)state;
	j.bs_dir[DIR_WRITE] = 16384;
	j.bs_is_seq_rand = true;
	j.norandommap = true;
	assert_int_equal(gen_init(&g, &j, 1 << 20, 0, 1), 0);
	for (int i = 0; i < 100 && gen_next(&g, &op); i++)
		assert_int_equal(op.len, 16384); /* all random: W's size */
	gen_free(&g);
	j.percentage_seq[DIR_READ] = 100;
	assert_int_equal(gen_init(&g, &j, 1 << 20, 0, 1), 0);
	for (int i = 0; i < 100 && gen_next(&g, &op); i++)
		assert_int_equal(op.len, 4096); /* all sequential: R's size */
	gen_free(&g);
}

/* time_based: each pass of the random map is a permutation of the blocks. */
static void test_random_map_passes(void **state)
{
	struct job_spec j = job(RW_RANDREAD);
	struct generator g;
	struct gen_op op;
	unsigned char seen[64];

	(void)state;
	j.time_based = true;
	assert_int_equal(gen_init(&g, &j, 64 * 4096, 0, 3), 0);
	for (int pass = 0; pass < 3; pass++) {
		memset(seen, 0, sizeof(seen));
		for (int i = 0; i < 64; i++) {
			assert_true(gen_next(&g, &op));
			assert_int_equal(seen[op.offset / 4096], 0);
			seen[op.offset / 4096] = 1;
		}
	}
	gen_free(&g);
}

/* offset_increment: clone c's region starts at offset + c x increment. */
static void test_offset_increment(void **state)
{
	struct job_spec j = job(RW_READ);
	struct generator g;
	struct gen_op op;

	(void)state;
	j.offset = 4096;
	j.offset_increment = 1 << 20;
	assert_int_equal(gen_init(&g, &j, 8192, 2, 1), 0);
	assert_true(gen_next(&g, &op));
	assert_int_equal(op.offset, 4096 + (2u << 20));
	assert_true(gen_next(&g, &op));
	assert_false(gen_next(&g, &op));
	gen_free(&g);
}

/* offset=N%: each file's region starts at N% of its size, rounded up to
 * the smallest bs, plus the clone's offset_increment. */
static void test_offset_percent_per_file(void **state)
{
	struct job_spec j = job(RW_READ);
	struct generator g;
	struct gen_op op;

	(void)state;
	j.nr_files = 2;
	j.offset_pct = 33;
	j.offset_increment = 8192;
	assert_int_equal(gen_file_offset(&j, 1 << 20), 348160); /* 346030 up */
	assert_int_equal(gen_init(&g, &j, 65536, 1, 1), 0);
	gen_set_file_size(&g, 0, 1 << 20);
	gen_set_file_size(&g, 1, 2 << 20);
	assert_true(gen_next(&g, &op));
	assert_int_equal(op.file, 0);
	assert_int_equal(op.offset, 348160 + 8192);
	assert_true(gen_next(&g, &op));
	assert_int_equal(op.file, 1);
	assert_int_equal(op.offset, 692224 + 8192); /* 33% of 2m, up */
	gen_free(&g);
}

/* randrepeat=1 (the default): the same offsets for the same seed;
 * randrepeat=0: the clock joins the seed, so two runs differ. */
static void test_randrepeat(void **state)
{
	uint64_t first[2][2];

	(void)state;
	for (int off = 0; off < 2; off++)
		for (int run = 0; run < 2; run++) {
			struct job_spec j = job(RW_RANDREAD);
			struct generator g;
			struct gen_op op;
			j.randrepeat_off = off;
			assert_int_equal(gen_init(&g, &j, 1 << 30, 0, 42), 0);
			first[off][run] = 0;
			for (int i = 0; i < 4 && gen_next(&g, &op); i++)
				first[off][run] = first[off][run] * 31 + op.offset;
			gen_free(&g);
			if (off && !run) {
				struct timespec ts = {0, 2000}; /* the clock moves on */
				nanosleep(&ts, NULL);
			}
		}
	assert_true(first[0][0] == first[0][1]);
	assert_true(first[1][0] != first[1][1]);
}

/* A preconditioning fill (job_gen_plain) writes the region once in bs,
 * whatever the measured job's sizes, holes and limits. */
static void test_plain_fill(void **state)
{
	struct job_spec j = job(RW_WRITE);
	struct generator g;
	struct gen_op op;
	uint64_t next = 0;

	(void)state;
	j.bs_dir[DIR_WRITE] = 16384;
	j.bssplit[DIR_WRITE] = (struct job_split){.nr = 1, .perc = {100}, .val = {8192}};
	j.rw_hole = 4096;
	j.number_ios = 3;
	j.io_size = 4096;
	job_gen_plain(&j);
	assert_int_equal(gen_init(&g, &j, 64 * 4096, 0, 1), 0);
	while (gen_next(&g, &op)) {
		assert_int_equal(op.offset, next);
		assert_int_equal(op.len, 4096);
		next += 4096;
	}
	assert_int_equal(next, 64 * 4096);
	gen_free(&g);
}

/* direct=1 needs every size and alignment a multiple of the device's. */
static void test_misaligned_sizes_found(void **state)
{
	struct job_spec j = job(RW_RANDREAD);

	(void)state;
	assert_int_equal(gen_bs_misaligned(&j, 512), 0);
	j.bssplit[DIR_WRITE] = (struct job_split){
	    .nr = 2, .perc = {50, 50}, .val = {4096, 1000}};
	assert_int_equal(gen_bs_misaligned(&j, 512), 1000);
	j.bssplit[DIR_WRITE].val[1] = 8192;
	j.bs_range[DIR_READ][0] = 4096;
	j.bs_range[DIR_READ][1] = 8192;
	assert_int_equal(gen_bs_misaligned(&j, 512), 0);
	j.bs_unaligned = true; /* any size: nothing is aligned */
	assert_int_equal(gen_bs_misaligned(&j, 512), 1);
	j.bs_unaligned = false;
	j.offset_increment = 100;
	assert_int_equal(gen_bs_misaligned(&j, 512), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_randmap_marks_and_finds),
	    cmocka_unit_test(test_randmap_large_each_once),
	    cmocka_unit_test(test_bssplit_weights),
	    cmocka_unit_test(test_bsrange_spread),
	    cmocka_unit_test(test_zoned_shares_and_abs_limit),
	    cmocka_unit_test(test_pareto_normal_skewed),
	    cmocka_unit_test(test_blockalign),
	    cmocka_unit_test(test_sequencer_identical),
	    cmocka_unit_test(test_percentage_random),
	    cmocka_unit_test(test_bs_is_seq_rand),
	    cmocka_unit_test(test_random_map_passes),
	    cmocka_unit_test(test_offset_increment),
	    cmocka_unit_test(test_misaligned_sizes_found),
	    cmocka_unit_test(test_offset_percent_per_file),
	    cmocka_unit_test(test_randrepeat),
	    cmocka_unit_test(test_plain_fill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
