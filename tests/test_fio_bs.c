/* test_fio_bs.c - every bs, bsrange and bssplit form fio 3.33 parses,
 * against fio on the same job: each form drives a sequential read and a
 * sequential write (psync, write_iolog=) through both tools, and the logs
 * are the same I/O for I/O (offset and length): fio's separators (bs=4k,8k,
 * bs=4k:8k, bs=4k-8k, bs=,8k, bs=8k, whose empty value is fio's 4k;
 * bsrange=A-B or A:B, per direction, and bssplit's form read as fio reads
 * it, the first size each side of the first separator), bssplit's lists per direction,
 * missing shares spread as fio (4k/50:8k/, 4k:8k, 4k/20:8k:16k, a 0 share
 * is a missing one, above 100 taken as 100, fewer than 100 leave the rest
 * to the largest share, an empty entry ends a list), blocksize_unaligned,
 * bs_is_seq_rand. The sizes are drawn as fio draws them (its generator
 * and seeds), so they are the same sizes. A random job with lfsr checks
 * blockalign's forms too. Shares past 100% with one missing are refused
 * (fio would wrap that share below zero): one line, exit 2. SKIP without
 * fio. */
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

static void same_log(const char *dir, const char *job)
{
	static struct iolog_ops f, i;
	char opts[512];
	json_object *fd, *id;

	iolog_ops_fresh(dir);
	snprintf(opts, sizeof(opts),
		 "--name=j --filename=d.dat --ioengine=psync --size=256k "
		 "--write_iolog=log.txt %s", job);
	side_run_both_json(dir, opts, &fd, &id);
	json_object_put(fd);
	json_object_put(id);
	iolog_ops_read(dir, "fio", &f);
	iolog_ops_read(dir, "iochar", &i);
	if (f.n != i.n)
		fail_msg("%s: fio %u I/Os, iochar %u", job, f.n, i.n);
	for (unsigned k = 0; k < f.n; k++)
		if (f.o[k].off != i.o[k].off || f.o[k].len != i.o[k].len ||
		    f.o[k].dir != i.o[k].dir)
			fail_msg("%s: I/O %u: fio %c %llu+%llu, iochar %c %llu+%llu",
				 job, k, f.o[k].dir, f.o[k].off, f.o[k].len,
				 i.o[k].dir, i.o[k].off, i.o[k].len);
	assert_true(f.n > 0);
}

static void test_forms_as_fio(void **state)
{
	static const char *const forms[] = {
	    "--bs=4k,8k", "--bs=,8k", "--bs=8k,", "--bs=4k,8k,16k",
	    "--bs=4k:8k", "--bs=4k-8k", "--bsrange=1k-4k,2k-8k",
	    "--bsrange=2k:8k", "--bsrange=1k-16k",
	    "--bssplit=4k/50:8k/50,16k/100", "--bssplit=4k/50:8k/",
	    "--bssplit=4k:8k", "--bssplit=4k/20:8k:16k", "--bssplit=,16k/100",
	    "--bssplit=4k/0:8k/50", "--bssplit=4k/150:8k",
	    "--bssplit=4k/50%:8k/50%", "--bssplit=4k/50:8k/60",
	    "--bssplit=4k/10:8k/10", "--bssplit=4k/50:8k/50:",
	    "--bssplit=4k/20:8k/30:64k/50",
	    "--bsrange=1k-7k --blocksize_unaligned=1",
	    "--bs_is_seq_rand=1 --bs=4k,8k",
	    /* bssplit's form in bsrange: fio's own t/jobs/t0023.fio */
	    "--bsrange=512/25:1k:25:2k:25:4k/25",
	};
	static const char *const rws[] = {"--rw=read", "--rw=write"};

	side_need_fio();
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++)
		for (size_t r = 0; r < 2; r++) {
			char job[256];
			snprintf(job, sizeof(job), "%s %s", rws[r], forms[k]);
			same_log(*state, job);
		}
	same_log(*state, "--rw=randread --random_generator=lfsr "
			 "--bssplit=4k/20:8k/30:16k/50");
	same_log(*state, "--rw=randread --random_generator=lfsr --bs=4k --ba=8k");
	same_log(*state, "--rw=randwrite --random_generator=lfsr --bs=4k,8k "
			 "--blockalign=4k:8k");
	same_log(*state, "--rw=randread --random_generator=lfsr --bsrange=4k-16k");
}

static void test_refused(void **state)
{
	static const char *const bad[][2] = {
	    {"--bssplit=4k/60:8k/60:16k", "more than 100%"},
	    {"--bssplit=4k/x", "bssplit"},
	    {"--bsrange=4k", "bsrange"},
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct proc_out po;
		run_iochar(&po, *state, 0,
			   ARGS("run", "--name=j", "--filename=d.dat",
				"--size=64k", "--rw=read", bad[k][0]));
		expect_exit(&po, 2);
		expect_has(po.err, bad[k][1]);
		assert_int_equal(count_lines(po.err), 1);
		proc_out_free(&po);
		char p[4200];
		snprintf(p, sizeof(p), "%s/d.dat", (char *)*state);
		assert_false(file_exists(p));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_forms_as_fio, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_refused, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
