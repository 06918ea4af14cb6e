/* test_fio_dedupe.c - buffer_compress_percentage and dedupe_*
 * (dedupe-global.fio's job) against fio 3.33 (Debian's): iochar writes
 * files as compressible and as deduplicable as fio's, each and together;
 * a working set and repeats past 100 % are refused by both. SKIP without
 * fio.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

/* What a file's 4 KiB blocks hold: how many, how many distinct, and the
 * share of zero bytes (fio's compressible fill zeros the rest of each
 * chunk: the share is what compresses away). */
struct blocks {
	size_t n;
	uint64_t *hash;
	double zero_share;
};

static uint64_t fnv1a(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void blocks_read(struct blocks *b, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	unsigned char buf[4096];
	uint64_t zeros = 0;
	b->n = 0;
	b->hash = NULL;
	for (size_t k = 0; k < 1u << 20 && fread(buf, 1, sizeof(buf), f) == sizeof(buf); k++) {
		b->hash = realloc(b->hash, (b->n + 1) * sizeof(*b->hash));
		assert_non_null(b->hash);
		b->hash[b->n++] = fnv1a(buf, sizeof(buf));
		for (size_t i = 0; i < sizeof(buf); i++)
			zeros += !buf[i];
	}
	fclose(f);
	b->zero_share = b->n ? (double)zeros / (4096.0 * (double)b->n) : 0;
}

/* Distinct blocks of a and b together (b NULL: a alone), as a share. */
static double distinct_share(const struct blocks *a, const struct blocks *b)
{
	size_t n = a->n + (b ? b->n : 0), d = 0;
	uint64_t *all = malloc((n ? n : 1) * sizeof(*all));
	assert_non_null(all);
	memcpy(all, a->hash, a->n * sizeof(*all));
	if (b)
		memcpy(all + a->n, b->hash, b->n * sizeof(*all));
	qsort(all, n, sizeof(*all), side_cmp_u64);
	for (size_t i = 0; i < n; i++)
		d += i == 0 || all[i] != all[i - 1];
	free(all);
	return n ? (double)d / (double)n : 0;
}

/* Run dir/job.fio through both (jobs a and b); per tool, a's blocks in
 * [0], b's in [1]. */
static void run_job_files(const char *dir, struct blocks fb[2], struct blocks ib[2])
{
	int rf, ri;
	side_run_both(dir, "../job.fio", &rf, &ri);
	if (rf || ri)
		fail_msg("fio exit %d, iochar exit %d (see %s/*/err.txt)", rf, ri, dir);
	static const char *const names[2] = {"a.0.0", "b.0.0"};
	char path[4200];
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/fio/%s", dir, names[k]);
		blocks_read(&fb[k], path);
		snprintf(path, sizeof(path), "%s/iochar/%s", dir, names[k]);
		blocks_read(&ib[k], path);
		assert_int_equal(fb[k].n, 1024);
		assert_int_equal(ib[k].n, 1024);
	}
}

static void expect_near_share(const char *what, double fio, double ioc)
{
	if (ioc < fio - 0.05 || ioc > fio + 0.05)
		fail_msg("%s: fio %.3f, iochar %.3f (more than 0.05 apart)", what,
			 fio, ioc);
}

/* dedupe-global.fio, 4 MiB a job: half the blocks repeat one of a
 * working set spanning both jobs, half of each chunk is zeros. fio and
 * iochar leave the same shares of distinct blocks per file and over both
 * files (global: fewer than the sum) and of zeros. */
static void test_dedupe_global(void **state)
{
	const char *dir = *state;
	side_need_fio();
	side_write_job(dir, "job.fio", "[global]\nioengine=libaio\niodepth=16\nsize=4m\n"
		  "dedupe_mode=working_set\ndedupe_global=1\n"
		  "dedupe_percentage=50\nblocksize=4k\nrw=write\n"
		  "buffer_compress_percentage=50\n"
		  "dedupe_working_set_percentage=50\n[a]\n[b]\n", NULL, 0);
	struct blocks fb[2], ib[2];
	run_job_files(dir, fb, ib);
	for (int k = 0; k < 2; k++) {
		expect_near_share("distinct blocks of a file", distinct_share(&fb[k], NULL),
				  distinct_share(&ib[k], NULL));
		expect_near_share("zero bytes", fb[k].zero_share, ib[k].zero_share);
		assert_true(ib[k].zero_share > 0.45 && ib[k].zero_share < 0.55);
	}
	double f2 = distinct_share(&fb[0], &fb[1]), i2 = distinct_share(&ib[0], &ib[1]);
	expect_near_share("distinct blocks of both files", f2, i2);
	/* shared working set: the files have blocks in common */
	assert_true(i2 < (distinct_share(&ib[0], NULL) + distinct_share(&ib[1], NULL)) / 2 - 0.05);
	for (int k = 0; k < 2; k++) {
		free(fb[k].hash);
		free(ib[k].hash);
	}
}

/* dedupe_mode=repeat (the default) at 30 %: about 70 % distinct blocks
 * in both, none shared between the jobs, no zeros. */
static void test_dedupe_repeat(void **state)
{
	const char *dir = *state;
	side_need_fio();
	side_write_job(dir, "job.fio", "[global]\nioengine=psync\nsize=4m\nbs=4k\nrw=write\n"
		  "dedupe_percentage=30\n[a]\n[b]\n", NULL, 0);
	struct blocks fb[2], ib[2];
	run_job_files(dir, fb, ib);
	for (int k = 0; k < 2; k++) {
		expect_near_share("distinct blocks of a file", distinct_share(&fb[k], NULL),
				  distinct_share(&ib[k], NULL));
		assert_true(ib[k].zero_share < 0.01);
	}
	expect_near_share("distinct blocks of both files",
			  distinct_share(&fb[0], &fb[1]), distinct_share(&ib[0], &ib[1]));
	for (int k = 0; k < 2; k++) {
		free(fb[k].hash);
		free(ib[k].hash);
	}
}

/* The working set and the repeats cannot pass 100 %: both refuse, and
 * iochar writes nothing. */
static void test_dedupe_impossible(void **state)
{
	const char *dir = *state;
	side_need_fio();
	int rf, ri;
	side_run_both(dir, SIDE_JSON_FIRST "--name=a --filename=data --size=1m --rw=write "
		      "--dedupe_mode=working_set --dedupe_percentage=60 "
		      "--dedupe_working_set_percentage=50", &rf, &ri);
	assert_int_not_equal(rf, 0);
	assert_int_equal(ri, 2);
	char path[4200];
	struct stat st;
	snprintf(path, sizeof(path), "%s/iochar/data", dir);
	assert_int_not_equal(stat(path, &st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_dedupe_global, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_dedupe_repeat, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_dedupe_impossible, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
