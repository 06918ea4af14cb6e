/* test_fio_lfsr.c - random_generator=lfsr against fio 3.33: the same job
 * through both tools (psync, write_iolog=) draws the same offsets in the
 * same order, I/O for I/O: one file, several, norandommap (lfsr keeps no
 * map and needs none), randseed=, larger blocks, io_size past size (a
 * second pass from the same seed), the verify phase after it (fio's
 * sorted log), a time_based run's passes; randrw's offsets (its
 * directions are each tool's own draw). Every pass of a size-bounded job
 * hits each block exactly once, in both. And the register alone: every
 * value below n exactly once for n from 1 to 5000. SKIP without fio. */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lfsr.h"
#include "fio_side.h"
#include "harness.h"
#include "iolog_ops.h"

/* The first n I/Os of a and b: the same file and offset (and direction
 * unless offsets_only). */
static void same_ops(const struct iolog_ops *a, const struct iolog_ops *b, unsigned n,
		     bool offsets_only, const char *job)
{
	for (unsigned k = 0; k < n; k++) {
		const struct iolog_op *x = &a->o[k], *y = &b->o[k];
		if (strcmp(x->file, y->file) || x->off != y->off ||
		    x->len != y->len || (!offsets_only && x->dir != y->dir))
			fail_msg("%s: I/O %u: fio %c %s %llu+%llu, iochar %c %s "
				 "%llu+%llu", job, k, x->dir, x->file, x->off,
				 x->len, y->dir, y->file, y->off, y->len);
	}
}

/* Each pass of blocks I/Os (per file, files interleaved as the file
 * service has them) hits each block once: no (file, offset) twice in a
 * pass. */
static void once_per_pass(const char *tool, const struct iolog_ops *o,
			  unsigned pass)
{
	for (unsigned s = 0; s + pass <= o->n; s += pass)
		for (unsigned i = s; i < s + pass; i++)
			for (unsigned k = i + 1; k < s + pass; k++)
				if (o->o[i].off == o->o[k].off &&
				    !strcmp(o->o[i].file, o->o[k].file))
					fail_msg("%s: %s %llu twice in a pass (I/Os "
						 "%u and %u)", tool, o->o[i].file,
						 o->o[i].off, i, k);
}

static void test_offsets_as_fio(void **state)
{
	static const struct {
		const char *opts;
		unsigned ios, pass; /* pass: I/Os of a pass (0: no check) */
		bool offsets_only;
	} jobs[] = {
	    {"--filename=d.dat --size=64k --rw=randread", 16, 16, false},
	    {"--filename=d.dat --size=1m --rw=randread", 256, 256, false},
	    {"--filename=d.dat --size=1m --rw=randwrite --norandommap", 256, 256, false},
	    {"--nrfiles=2 --size=256k --rw=randread", 64, 64, false},
	    {"--filename=d.dat --size=100k --rw=randread", 25, 25, false},
	    {"--filename=d.dat --size=1m --rw=randread --randseed=1234", 256, 256, false},
	    {"--filename=d.dat --size=1m --rw=randread --randrepeat=0 "
	     "--randseed=77", 256, 256, false},
	    {"--filename=d.dat --size=1m --rw=randread --bs=16k", 64, 64, false},
	    {"--filename=d.dat --size=1m --io_size=3m --rw=randread", 768, 256, false},
	    {"--filename=d.dat --size=256k --rw=randwrite --verify=crc32c", 128, 0, false},
	    {"--filename=d.dat --size=1m --rw=randrw", 256, 256, true},
	};
	static struct iolog_ops f, i;
	const char *dir = *state;

	side_need_fio();
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		char opts[512];
		json_object *fd, *id;
		iolog_ops_fresh(dir);
		snprintf(opts, sizeof(opts),
			 "--name=j --bs=4k --ioengine=psync --random_generator=lfsr "
			 "--write_iolog=log.txt %s", jobs[k].opts);
		side_run_both_json(dir, opts, &fd, &id);
		json_object_put(fd);
		json_object_put(id);
		iolog_ops_read(dir, "fio", &f);
		iolog_ops_read(dir, "iochar", &i);
		assert_int_equal(f.n, jobs[k].ios);
		assert_int_equal(i.n, jobs[k].ios);
		same_ops(&f, &i, f.n, jobs[k].offsets_only, jobs[k].opts);
		if (jobs[k].pass) {
			once_per_pass("fio", &f, jobs[k].pass);
			once_per_pass("iochar", &i, jobs[k].pass);
		}
		print_message("%s: %u I/Os, the same\n", jobs[k].opts, f.n);
	}
}

/* time_based: passes go on from the same seed; the I/Os both made are
 * the same (their counts are the clock's). */
static void test_time_based(void **state)
{
	static struct iolog_ops f, i;
	const char *dir = *state;

	side_need_fio();
	iolog_ops_fresh(dir);
	side_run_both(dir, "--name=j --bs=4k --ioengine=psync "
			   "--random_generator=lfsr --write_iolog=log.txt "
			   "--filename=d.dat --size=256k --rw=randread "
			   "--time_based --runtime=1 --rate_iops=300", &(int){0},
		      &(int){0});
	iolog_ops_read(dir, "fio", &f);
	iolog_ops_read(dir, "iochar", &i);
	assert_true(f.n > 128 && i.n > 128);
	same_ops(&f, &i, f.n < i.n ? f.n : i.n, false, "time_based");
	once_per_pass("iochar", &i, 64);
	print_message("time_based: fio %u I/Os, iochar %u\n", f.n, i.n);
}

/* The register alone: a pass is every block once, then it ends. */
static void test_register(void **state)
{
	static unsigned char seen[5001];

	(void)state;
	for (uint64_t n = 1; n <= 5000; n++) {
		struct lfsr l;
		uint64_t b;
		if (!lfsr_init(&l, n, 0xb1899bedull * (n % 7 + 1)))
			continue; /* the locked state: fio refuses it too */
		memset(seen, 0, sizeof(seen));
		for (uint64_t k = 0; k < n; k++) {
			assert_true(lfsr_next(&l, &b));
			assert_true(b < n);
			assert_int_equal(seen[b]++, 0);
		}
		assert_false(lfsr_next(&l, &b));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_offsets_as_fio, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_time_based, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test(test_register),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
