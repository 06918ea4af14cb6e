/* test_fio_zones.c - zonemode=strided against fio 3.33: the same job
 * through both tools.
 *
 * Sequential jobs (zonesize, zonerange, zoneskip, as in
 * examples/disk-zone-profile.fio): the same set of offsets as fio's (its
 * iops log with log_offset), wrapping past the file's end, a zone shorter
 * and longer than zonesize, psync and libaio; zonesize without zonemode
 * refused as fio refuses it.
 *
 * Random jobs (psync, write_iolog=):
 * fio draws a random job's blocks over zonerange from the zone's start,
 * its random map (or lfsr register) starting over each time zonerange
 * bytes went to the zone; after zonesize bytes the next zone starts
 * zonerange + zoneskip on, back at the file's start past its end; an I/O
 * past the file's end ends the job. With random_generator=lfsr the
 * offsets are fio's, I/O for I/O (zonesize below, equal to and above
 * zonerange, a last zone cut by the file's end, randrw's offsets). With
 * fio's default generator the offsets are each tool's own draw: both do
 * the same number of I/Os, each in the zone it belongs to, no block twice
 * in a zone's visit. A skewed random_distribution with zones is refused
 * (one line, exit 2, nothing written). SKIP without fio. */
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

#include "fio_side.h"
#include "harness.h"
#include "iolog_ops.h"

#define KB 1024ull

static void run_both(const char *dir, const char *job, struct iolog_ops *f,
		     struct iolog_ops *i)
{
	char opts[512];
	json_object *fd, *id;

	iolog_ops_fresh(dir);
	snprintf(opts, sizeof(opts),
		 "--name=j --filename=d.dat --bs=4k --ioengine=psync "
		 "--zonemode=strided --write_iolog=log.txt %s", job);
	side_run_both_json(dir, opts, &fd, &id);
	json_object_put(fd);
	json_object_put(id);
	iolog_ops_read(dir, "fio", f);
	iolog_ops_read(dir, "iochar", i);
	print_message("%s: fio %u I/Os, iochar %u\n", job, f->n, i->n);
}

static void test_lfsr_as_fio(void **state)
{
	static const char *const jobs[] = {
	    "--rw=randread --size=1m --zonesize=32k --zonerange=128k "
	    "--zoneskip=64k",
	    "--rw=randread --size=960k --zonesize=32k --zonerange=128k "
	    "--zoneskip=64k",
	    "--rw=randread --size=1m --zonesize=256k --zonerange=64k",
	    "--rw=randwrite --size=1m --zonesize=64k --zonerange=64k",
	    "--rw=randrw --size=512k --zonesize=16k --zonerange=64k "
	    "--zoneskip=16k",
	};
	static struct iolog_ops f, i;

	side_need_fio();
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		char job[256];
		snprintf(job, sizeof(job), "--random_generator=lfsr %s", jobs[k]);
		run_both(*state, job, &f, &i);
		assert_true(f.n > 0);
		assert_int_equal(f.n, i.n);
		bool mixed = strstr(job, "randrw") != NULL;
		for (unsigned n = 0; n < f.n; n++)
			if (f.o[n].off != i.o[n].off || f.o[n].len != i.o[n].len ||
			    (!mixed && f.o[n].dir != i.o[n].dir))
				fail_msg("%s: I/O %u: fio %c %llu, iochar %c %llu",
					 job, n, f.o[n].dir, f.o[n].off,
					 i.o[n].dir, i.o[n].off);
	}
}

/* Each I/O in its zone (zones of per I/Os from 0, range + skip apart,
 * back at 0 from end), no block twice in a zone's visit. */
static void in_zones(const char *tool, const struct iolog_ops *o,
		     unsigned per, uint64_t range, uint64_t skip, uint64_t end)
{
	uint64_t zs = 0;

	for (unsigned k = 0; k < o->n; k++) {
		if (k && k % per == 0 && (zs += range + skip) >= end)
			zs = 0;
		if (o->o[k].off < zs || o->o[k].off >= zs + range)
			fail_msg("%s: I/O %u at %llu, outside the zone [%llu, %llu)",
				 tool, k, o->o[k].off, (unsigned long long)zs,
				 (unsigned long long)(zs + range));
		for (unsigned m = k - k % per; m < k; m++)
			if (o->o[m].off == o->o[k].off)
				fail_msg("%s: I/O %u: %llu twice in a zone", tool,
					 k, o->o[k].off);
	}
}

static void test_default_generator(void **state)
{
	static struct iolog_ops f, i;

	side_need_fio();
	run_both(*state, "--rw=randread --size=960k --zonesize=32k "
			 "--zonerange=128k --zoneskip=64k", &f, &i);
	assert_int_equal(f.n, 240);
	assert_int_equal(i.n, 240);
	in_zones("fio", &f, 8, 128 * KB, 64 * KB, 960 * KB);
	in_zones("iochar", &i, 8, 128 * KB, 64 * KB, 960 * KB);
	run_both(*state, "--rw=randwrite --size=512k --zonesize=64k "
			 "--zonerange=64k --zoneskip=64k", &f, &i);
	assert_int_equal(f.n, i.n);
	in_zones("fio", &f, 16, 64 * KB, 64 * KB, 512 * KB);
	in_zones("iochar", &i, 16, 64 * KB, 64 * KB, 512 * KB);
}

static void test_refused(void **state)
{
	struct proc_out po;
	char p[4200];

	run_iochar(&po, *state, 0,
		   ARGS("run", "--name=j", "--filename=d.dat", "--size=1m",
			"--rw=randread", "--zonemode=strided", "--zonesize=64k",
			"--random_distribution=zipf:1.2"));
	expect_exit(&po, 2);
	expect_has(po.err, "zonemode=strided");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/d.dat", (char *)*state);
	assert_false(file_exists(p));
}

/* The offsets (column 5) of dir/sub/z_iops.1.log, sorted, into *out
 * (malloc'd); how many. */
static size_t log_offsets(const char *dir, const char *sub, uint64_t **out)
{
	char path[4300];
	struct side_log l;
	snprintf(path, sizeof(path), "%s/%s/z_iops.1.log", dir, sub);
	assert_true(side_log_read(path, &l));
	assert_true(l.cols >= 5); /* fio 3.33 adds the priority */
	*out = calloc(l.n ? l.n : 1, sizeof(**out));
	assert_non_null(*out);
	for (size_t k = 0; k < l.n; k++)
		(*out)[k] = l.v[k][4];
	qsort(*out, l.n, sizeof(**out), side_cmp_u64);
	size_t n = l.n;
	side_log_free(&l);
	return n;
}

/* Strided zones: the offsets fio's run used, and no other. */
static void test_strided_offsets(void **state)
{
	static const char *const cases[] = {
	    "--rw=read --size=1m --zonesize=64k --zoneskip=192k",
	    "--rw=read --size=512k --zonesize=64k --zonerange=32k --zoneskip=100k",
	    "--rw=write --size=512k --zonesize=48k --zonerange=64k --zoneskip=16k",
	    "--rw=write --size=256k --zonesize=64k --zoneskip=128k "
	    "--ioengine=libaio --iodepth=4",
	};
	const char *dir = *state;
	char opts[512];
	int rf, ri;

	side_need_fio();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "--name=z --filename=data --filesize=1m "
			 "--bs=16k --zonemode=strided --write_iops_log=z --log_offset=1 %s",
			 cases[c]);
		side_run_both(dir, opts, &rf, &ri);
		if (rf || ri)
			fail_msg("%s: fio exit %d, iochar exit %d", opts, rf, ri);
		uint64_t *f, *i;
		size_t nf = log_offsets(dir, "fio", &f), ni = log_offsets(dir, "iochar", &i);
		assert_true(nf > 8);
		assert_int_equal(ni, nf);
		for (size_t k = 0; k < nf; k++)
			if (f[k] != i[k])
				fail_msg("%s: offset %zu: fio %llu, iochar %llu", opts, k,
					 (unsigned long long)f[k], (unsigned long long)i[k]);
		free(f);
		free(i);
	}
	/* fio refuses zonesize without zonemode; iochar too, and a random
	 * strided job of a skewed distribution (random ones: the tests above) */
	assert_int_not_equal(side_run("fio", dir, "fio", "--name=z --filename=data "
				      "--size=1m --zonesize=64k"), 0);
	assert_int_equal(side_run("iochar", dir, "iochar", "--name=z --filename=data "
				  "--size=1m --zonesize=64k"), 2);
	assert_int_equal(side_run("iochar", dir, "iochar", "--name=z --filename=data "
				  "--size=1m --zonemode=strided --zonesize=64k --rw=randread "
				  "--random_distribution=zipf:1.2"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_strided_offsets, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_lfsr_as_fio, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_default_generator, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_refused, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
