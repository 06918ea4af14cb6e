/* test_iolog_target.c - write_iolog= may not name a target of the run
 * (issue 37 H14): the log's text would be appended to the data, even by
 * a read job. Refused before any I/O (exit 2, one line naming both), by
 * the file it resolves to, not its spelling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define SIZE 65536

static void make_target(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (unsigned i = 0; i < SIZE; i++)
		fputc((int)(i * 7u % 251u), f);
	assert_int_equal(fclose(f), 0);
}

static void expect_untouched(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, SIZE);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	for (unsigned i = 0; i < SIZE; i++)
		assert_int_equal(fgetc(f), (int)(i * 7u % 251u));
	fclose(f);
}

/* iochar run with the log named log and the (read or write) job on t.dat */
static void expect_refused(const char *dir, const char *rw, const char *log)
{
	char opt[4400];
	struct proc_out po;
	snprintf(opt, sizeof(opt), "--write_iolog=%s", log);
	run_iochar(&po, dir, 0, ARGS("run", "--name=j", "--filename=t.dat", rw,
				     "--bs=4k", "--size=64k", "--ioengine=psync", opt));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, log);
	expect_has(po.err, "t.dat");
	expect_has(po.err, "target");
	proc_out_free(&po);
}

static void test_log_on_target_refused(void **state)
{
	const char *dir = *state;
	char p[4400];
	snprintf(p, sizeof(p), "%s/t.dat", dir);
	make_target(p);
	snprintf(p, sizeof(p), "%s/sub", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/lnk", dir);
	assert_int_equal(symlink("t.dat", p), 0);
	const char *spellings[] = {"t.dat", "./t.dat", "sub/../t.dat", "lnk"};
	for (unsigned i = 0; i < 4; i++) {
		expect_refused(dir, "--rw=read", spellings[i]);
		expect_refused(dir, "--rw=write", spellings[i]);
	}
	snprintf(p, sizeof(p), "%s/t.dat", dir);
	expect_untouched(p);
	/* a target not made yet, and a link to it that dangles: still one file */
	snprintf(p, sizeof(p), "%s/dangle", dir);
	assert_int_equal(symlink("new.dat", p), 0);
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("run", "--name=j", "--filename=new.dat", "--rw=write",
				     "--bs=4k", "--size=64k", "--write_iolog=dangle"));
	expect_exit(&po, 2);
	expect_has(po.err, "write_iolog=dangle");
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/new.dat", dir);
	assert_int_not_equal(access(p, F_OK), 0);
	/* another job's target is the run's target too */
	run_iochar(&po, dir, 0, ARGS("run", "--bs=4k", "--size=64k", "--rw=read",
				     "--name=a", "--filename=t.dat",
				     "--name=b", "--filename=t2.dat", "--write_iolog=./t.dat"));
	expect_exit(&po, 2);
	expect_has(po.err, "job b: write_iolog=./t.dat is job a's target t.dat");
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/t.dat", dir);
	expect_untouched(p);
	/* a log beside the target is written as before */
	run_iochar(&po, dir, 0, ARGS("run", "--name=j", "--filename=t.dat", "--rw=read",
				     "--bs=4k", "--size=64k", "--write_iolog=w.log"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/w.log", dir);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/t.dat", dir);
	expect_untouched(p);
}

/* A --vd member is the run's target too: neither write_iolog= nor
 * --output may name it, however spelt; nothing is written to it. */
static void test_vd_member_refused(void **state)
{
	const char *dir = *state;
	char p[4400];
	for (unsigned i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/m%u", dir, i);
		make_target(p);
	}
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("run", "--name=j", "--vd=raid0,strip=64k,members=m0:m1",
				     "--rw=read", "--bs=4k", "--size=64k", "--ioengine=psync",
				     "--write_iolog=./m1"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "job j: write_iolog=./m1 is a --vd member of job j (m1)");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("run", "--name=j", "--vd=raid0,strip=64k,members=m0:m1",
				     "--rw=read", "--bs=4k", "--size=64k", "--ioengine=psync",
				     "--output=./m0"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "--output=./m0: also a --vd member of job j (m0)");
	proc_out_free(&po);
	for (unsigned i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/m%u", dir, i);
		expect_untouched(p);
	}
}

/* A log that cannot be opened for appending (no directory; a FIFO, whose
 * open would wait for a reader) fails when the workers start, after the
 * targets are laid out: refused when the job is read, nothing made. */
static void test_log_unopenable_refused(void **state)
{
	const char *dir = *state;
	char p[4400];
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	static const struct {
		const char *opt, *want;
	} cases[] = {
		{"--write_iolog=nodir/w.log", "write_iolog=nodir/w.log: no directory nodir"},
		{"--write_iolog=fifo", "write_iolog=fifo is not a file"},
		{"--write_iolog=.", "write_iolog=. is not a file"},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_out po;
		run_iochar_signal(&po, dir, SIGKILL, 10000,
				  ARGS("run", "--name=j", "--filename=new.dat", "--rw=write",
				       "--bs=4k", "--size=64k", cases[i].opt));
		expect_exit(&po, 2);
		assert_int_equal(count_lines(po.err), 1);
		expect_has(po.err, cases[i].want);
		proc_out_free(&po);
		snprintf(p, sizeof(p), "%s/new.dat", dir);
		assert_int_not_equal(access(p, F_OK), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vd_member_refused, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_log_on_target_refused, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_log_unopenable_refused, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
