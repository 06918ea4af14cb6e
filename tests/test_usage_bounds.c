/* test_usage_bounds.c - inputs at the edge of what they can mean are
 * usage errors before anything is written: an offset whose region would
 * wrap past 2^64 (issue 37 H8), a --secret-file whose first line holds a
 * NUL byte or is longer than a secret (H11). */
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

static void write_bytes(const char *path, const char *b, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* H11: the secret stopped at a NUL byte silently ("abc\0def" was "abc",
 * which a client's --secret abc matched) and a line longer than a secret
 * was cut; both are refused. A secret travels as a JSON string and is
 * compared as a C string: the bytes after a NUL could never count. */
static void test_secret_file(void **state)
{
	const char *dir = *state;
	char path[4200], long_line[300];

	snprintf(path, sizeof(path), "%s/secret", dir);
	write_bytes(path, "abc\0def\n", 8);
	/* the client first: before the fix it failed at once, where a
	 * server went on listening */
	expect_refused(dir,
		       ARGS("net", "client", "127.0.0.1", "--secret-file", path),
		       ARGS("a NUL byte at byte 4"));
	expect_refused(dir, ARGS("net", "server", "--secret-file", path),
		       ARGS("--secret-file", "a NUL byte at byte 4 of the first line"));
	memset(long_line, 'x', 200);
	long_line[200] = '\n';
	write_bytes(path, long_line, 201);
	expect_refused(dir, ARGS("net", "server", "--secret-file", path),
		       ARGS("the first line is longer than a secret's 127 characters"));
	write_bytes(path, "\r\n", 2);
	expect_refused(dir, ARGS("net", "server", "--secret-file", path),
		       ARGS("empty"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_offset_wraps, shmdir_setup,
					    tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_secret_file, shmdir_setup,
					    tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
