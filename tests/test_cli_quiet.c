/* test_cli_quiet.c - `iochar run` as silent as fio 3.33 off a terminal
 * (issue 35): fio's harnesses run iochar as fio and read any stderr as a
 * failure. A job that lays out its file and sets an option iochar runs
 * differently from fio leaves stderr empty, as fio does with the same
 * job, exit 0, and the notes are kept in the JSON's "notes"; --verbose
 * puts them on stderr; errors still go there, one line. (On a terminal
 * the notes are shown: test_cli_tty.) */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

/* --thread: iochar's workers are always threads (a difference it notes);
 * f does not exist: both tools lay it out before the run */
#define JOB "--name=j --filename=f --size=1m --bs=4k --rw=randread --thread"

static char *slurp_in(const char *dir, const char *sub, const char *name)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	char *s = file_slurp(path, NULL);
	if (!s)
		fail_msg("%s: missing", path);
	return s;
}

static void test_silent_as_fio(void **state)
{
	const char *dir = *state;
	side_need_fio();
	assert_int_equal(side_run("fio", dir, "fio", JOB), 0);
	assert_int_equal(side_run("iochar", dir, "iochar", JOB), 0);
	char *fe = slurp_in(dir, "fio", "err.txt"), *ie = slurp_in(dir, "iochar", "err.txt");
	assert_string_equal(fe, ""); /* fio's, the reference */
	if (ie[0])
		fail_msg("iochar's stderr, where fio's is empty:\n%s", ie);
	free(fe);
	free(ie);
	json_object *f = side_json(dir, "fio"), *i = side_json(dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	/* nothing lost: what a terminal would have shown is in the JSON */
	expect_note(i, "differs from fio here: thread: iochar workers are always threads");
	expect_note(i, "wrote f before the run: 1 MiB");
	/* iochar's own member, not inside fio's layout */
	json_object *job = json_object_array_get_idx(jget(i, "jobs"), 0), *x;
	assert_false(json_object_object_get_ex(job, "notes", &x));
	assert_false(json_object_object_get_ex(f, "notes", &x));
	json_object_put(f);
	json_object_put(i);
}

/* The text report and --output: stderr as empty as fio's (and stdout
 * too with --output, as fio's). */
static void test_silent_in_text_and_output_file(void **state)
{
	const char *dir = *state;
	side_need_fio();
	char *bin = realpath(iochar_path(), NULL);
	assert_non_null(bin);
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p t && cd t && "
		 "timeout 60 fio " JOB " --filename=ff >fio.out 2>fio.err && "
		 "timeout 60 '%s' run " JOB " --filename=fi >ioc.out 2>ioc.err && "
		 "test ! -s fio.err && test ! -s ioc.err && test -s ioc.out && "
		 "timeout 60 fio " JOB " --filename=ff2 --output=fio.txt >fio.out2 2>&1 && "
		 "timeout 60 '%s' run " JOB " --filename=fi2 --output=ioc.txt >ioc.out2 2>&1 && "
		 "test ! -s fio.out2 && test ! -s ioc.out2 && test -s ioc.txt",
		 dir, bin, bin);
	free(bin);
	if (system(cmd)) {
		snprintf(cmd, sizeof(cmd), "cd '%s/t' && head -5 *.err *.out2", dir);
		int shown = system(cmd); /* what was written, for the failure */
		(void)shown;
		fail_msg("a tool wrote where fio is silent (above)");
	}
}

/* --verbose (iochar's own): the same notes on stderr, and still in the
 * JSON. */
static void test_verbose_says_them(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	run_iochar(&po, dir, 0,
		   ARGS("run", "--name=j", "--filename=f", "--size=1m", "--bs=4k",
			"--rw=randread", "--thread", "--output-format=json", "--verbose"));
	expect_exit(&po, 0);
	expect_has(po.err, "iochar: differs from fio here: thread: iochar workers are always threads");
	expect_has(po.err, "iochar: writing f before the run: 1 MiB of 1 MiB (100%)\n");
	json_object *j = parse_json(&po);
	expect_note(j, "differs from fio here: thread: ");
	expect_note(j, "wrote f before the run: 1 MiB");
	json_object_put(j);
	proc_out_free(&po);
}

/* A run with nothing to note writes no "notes" member. */
static void test_no_notes_no_member(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	run_iochar(&po, dir, 0,
		   ARGS("run", "--name=j", "--ioengine=null", "--size=1m",
			"--output-format=json"));
	expect_exit(&po, 0);
	assert_string_equal(po.err, "");
	json_object *j = parse_json(&po), *x;
	assert_false(json_object_object_get_ex(j, "notes", &x));
	json_object_put(j);
	proc_out_free(&po);
}

/* Errors are not notes: still on stderr, one line, exit 2, with or
 * without --verbose. */
static void test_errors_stay(void **state)
{
	const char *dir = *state;
	for (int verbose = 0; verbose < 2; verbose++) {
		struct proc_out po;
		run_iochar(&po, dir, 0,
			   verbose ? ARGS("run", "--name=j", "--filename=f",
					  "--size=1q", "--thread", "--verbose")
				   : ARGS("run", "--name=j", "--filename=f",
					  "--size=1q", "--thread"));
		expect_exit(&po, 2);
		assert_int_equal(count_lines(po.err), 1);
		expect_has(po.err, "iochar: ");
		expect_has(po.err, "size=1q");
		proc_out_free(&po);
	}
}

/* The JSON with notes reads back: iochar report takes it. */
static void test_report_reads_notes(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	run_iochar(&po, dir, 0,
		   ARGS("run", "--name=j", "--filename=f", "--size=1m", "--bs=4k",
			"--rw=randread", "--thread", "--output-format=json",
			"--output=r.json"));
	expect_exit(&po, 0);
	assert_string_equal(po.err, "");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("report", "r.json", "-o", "r.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_silent_as_fio, shmdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_silent_in_text_and_output_file,
						shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_verbose_says_them, shmdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_no_notes_no_member, shmdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_errors_stay, shmdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_report_reads_notes, shmdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("cli_quiet", tests, NULL, NULL);
}
