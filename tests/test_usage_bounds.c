/* test_usage_bounds.c - inputs at the edge of what they can mean are
 * usage errors before anything is written: an offset whose region would
 * wrap past 2^64 (issue 37 H8). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Run args in dir; exit 2, one stderr line holding every want. */
static void expect_refused(const char *dir, const char *const *args,
			   const char *const *wants)
{
	struct proc_out po;

	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	for (const char *const *w = wants; *w; w++)
		expect_has(po.err, *w);
	assert_string_equal(po.out, "");
	proc_out_free(&po);
}

/* H8: offset=2^64-32k with size=64k wrapped: a random write job wrote at
 * 8k-24k of the file and exited 1. Now the sum is refused by name. */
static void test_offset_wraps(void **state)
{
	const char *dir = *state;
	char target[4200], fn[4300], jobfile[4200];
	uint64_t before;
	FILE *f;

	snprintf(target, sizeof(target), "%s/t.dat", dir);
	snprintf(fn, sizeof(fn), "--filename=%s", target);
	expect_refused(dir,
		       ARGS("run", fn, "--offset=18446744073709518848",
			    "--size=64k", "--rw=randwrite", "--ioengine=psync"),
		       ARGS("offset=18446744073709518848 + size=65536",
			    "2^63-1"));
	assert_false(exists(target));
	/* offset_increment's last clone counts too */
	expect_refused(dir,
		       ARGS("run", fn, "--offset=1g",
			    "--offset_increment=4611686018427387904",
			    "--numjobs=3", "--size=64k", "--rw=write"),
		       ARGS("offset=1073741824 + offset_increment="
			    "4611686018427387904 x 2 + size=65536"));
	assert_false(exists(target));

	/* an existing file, forced: not one byte changed */
	make_file(target, 1 << 20);
	before = file_hash(target);
	expect_refused(dir,
		       ARGS("run", fn, "--offset=18446744073709518848",
			    "--size=64k", "--rw=randwrite", "--force"),
		       ARGS("offset=18446744073709518848"));
	assert_int_equal(file_hash(target), before);

	/* a job file: its line */
	snprintf(jobfile, sizeof(jobfile), "%s/o.fio", dir);
	f = fopen(jobfile, "w");
	assert_non_null(f);
	fprintf(f, "[wrap]\nfilename=%s\noffset=18446744073709518848\n"
		   "size=64k\nrw=randwrite\nforce=1\n", target);
	fclose(f);
	expect_refused(dir, ARGS("run", "o.fio"),
		       ARGS("o.fio:1: job 'wrap': offset=18446744073709518848"));
	assert_int_equal(file_hash(target), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_offset_wraps, shmdir_setup,
					    tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
