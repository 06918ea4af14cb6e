/* test_seq_split.c - a sequential plan step with several jobs gives each
 * job its own part of the region, as fio's offset_increment=size/numjobs
 * does: compared with fio 3.33 running that job by hand. 4 jobs x 1M
 * reads of a 64 MiB file on tmpfs, not time based: iochar's step reads
 * 64 MiB in all, as fio with size=16m offset_increment=16m; with
 * offset_increment=0 (or a random step) every job reads the whole file,
 * 256 MiB, as fio by default. Unit: the split of a 1 GiB null region
 * over 3 jobs, aligned to the block size. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "charz/seq_split.h"
#include "cli/options.h"
#include "fio_side.h"
#include "harness.h"
#include "sim_device.h"

#define MIB (1024.0 * 1024.0)

static void test_split_unit(void **state)
{
	struct job_spec j;

	(void)state;
	assert_int_equal(sim_job(&j, "s", "", RW_READ, 4096, 8, 3, 0), 0);
	j.size = 1ull << 30;
	assert_true(seq_split_apply(&j));
	assert_int_equal(j.size, j.offset_increment);
	assert_int_equal(j.size % 4096, 0);
	assert_true(j.size * 3 <= 1ull << 30 && (j.size + 4096) * 3 > 1ull << 30);
	job_spec_free(&j);
	/* random, one job, or offset_increment given: left alone */
	assert_int_equal(sim_job(&j, "r", "", RW_RANDREAD, 4096, 8, 3, 0), 0);
	j.size = 1ull << 30;
	assert_false(seq_split_apply(&j));
	assert_int_equal(j.size, 1ull << 30);
	job_spec_free(&j);
	assert_int_equal(sim_job(&j, "o", "", RW_WRITE, 4096, 8, 3, 0), 0);
	struct ioc_err err = {.msg = ""};
	assert_int_equal(options_apply(&j, "offset_increment", "0", &err), 0);
	j.size = 1ull << 30;
	assert_false(seq_split_apply(&j));
	assert_int_equal(j.offset_increment, 0);
	job_spec_free(&j);
}

/* Bytes read by iochar's one fixed step in dir with the extra option. */
static double iochar_read(const char *dir, const char *file, const char *rw,
			  const char *extra, const char *out)
{
	char plan[4300], fn[4300], rwo[32], o[64];
	struct proc_out po;

	snprintf(plan, sizeof(plan), "%s/p.ini", dir);
	FILE *f = fopen(plan, "w");
	assert_non_null(f);
	fprintf(f, "[a]\nioengine=psync\nbs=1m\nsize=64m\nnumjobs=4\n");
	fclose(f);
	snprintf(fn, sizeof(fn), "--filename=%s", file);
	snprintf(rwo, sizeof(rwo), "--rw=%s", rw);
	snprintf(o, sizeof(o), "--out=%s", out);
	run_iochar(&po, dir, 0, extra ? ARGS("plan", plan, fn, rwo, extra, o)
				      : ARGS("plan", plan, fn, rwo, o));
	expect_exit(&po, 0);
	if (!extra && !strcmp(rw, "read"))
		expect_has(po.err, "each job has its own 1/N of the region");
	else
		assert_null(strstr(po.err, "each job has its own"));
	proc_out_free(&po);
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s/steps/000.json", dir, out);
	json_object *st = json_object_from_file(path);
	assert_non_null(st);
	double b = jget_double(json_object_array_get_idx(jget(st, "sets"), 0), "fixed.total.bytes");
	json_object_put(st);
	return b;
}

static double fio_read(const char *dir, const char *sub, const char *opts)
{
	assert_int_equal(side_run("fio", dir, sub, opts), 0);
	json_object *d = side_json(dir, sub);
	assert_non_null(d);
	double b = side_jobs_sum(d, "read", "io_bytes");
	json_object_put(d);
	return b;
}

static void test_split_like_fio(void **state)
{
	const char *dir = *state;
	char file[4300], opts[4600];

	side_need_fio();
	snprintf(file, sizeof(file), "%s/seq.dat", dir);
	make_file(file, 64 << 20);
	double own = iochar_read(dir, file, "read", NULL, "own");
	double shared = iochar_read(dir, file, "read", "--offset_increment=0", "shared");
	double rnd = iochar_read(dir, file, "randread", NULL, "rnd");
	snprintf(opts, sizeof(opts), "--name=a --filename=%s --ioengine=psync --rw=read --bs=1m "
		 "--numjobs=4 --size=16m --offset_increment=16m", file);
	double fio_own = fio_read(dir, "fio_own", opts);
	snprintf(opts, sizeof(opts), "--name=a --filename=%s --ioengine=psync --rw=read --bs=1m "
		 "--numjobs=4 --size=64m", file);
	double fio_shared = fio_read(dir, "fio_shared", opts);
	print_message("read: iochar %.0f MiB (fio with offset_increment %.0f), shared %.0f "
		      "(fio %.0f), random %.0f\n", own / MIB, fio_own / MIB, shared / MIB,
		      fio_shared / MIB, rnd / MIB);
	assert_true(own == fio_own && own == 64 * MIB);
	assert_true(shared == fio_shared && shared == 256 * MIB);
	assert_true(rnd == 256 * MIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split_unit),
	    cmocka_unit_test_setup_teardown(test_split_like_fio, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
