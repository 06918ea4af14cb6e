/* test_cli_tty.c - the live status line: shown on a terminal (elapsed,
 * remaining, IOPS, MB/s, mean and p99 latency, a plan's step, point and
 * time left), right across a plan's points, with
 * messages on their own lines; absent when stderr is not a terminal,
 * where with --verbose a progress line comes every --progress-interval
 * instead, and without it `iochar run` is as silent as fio. iochar's
 * notes (differences from fio, files laid out) on a terminal; --eta as
 * fio's: never hides the line on a terminal, always shows it in a pipe. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* Runs iochar with argv on a new terminal (stdout to /dev/null) and
 * returns all it wrote there (malloc'd); asserts it exited 0. */
static char *run_on_terminal(const char *const *argv)
{
	char bin[4096];
	if (iochar_path()[0] == '/')
		snprintf(bin, sizeof(bin), "%s", iochar_path());
	else
		assert_non_null(realpath(iochar_path(), bin));
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);
	assert_true(pid >= 0);
	if (pid == 0) {
		/* stdout to /dev/null: only the terminal's stderr is looked at */
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		char *args[32] = {bin};
		for (unsigned i = 0; argv[i] && i < 30; i++)
			args[i + 1] = (char *)argv[i];
		execv(bin, args);
		_exit(127);
	}
	char *buf = calloc(1, 1 << 16);
	size_t len = 0;
	for (;;) {
		ssize_t n = read(master, buf + len, (1 << 16) - 1 - len);
		if (n <= 0)
			break; /* EIO once the child closed the terminal */
		len += (size_t)n;
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(master);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("iochar failed on a terminal:\n%s", buf);
	return buf;
}

static void test_status_line_on_a_terminal(void **state)
{
	(void)state;
	char *buf = run_on_terminal(ARGS("run", "--ioengine=null", "--time_based",
					 "--runtime=3", "--output-format=json"));
	if (!strstr(buf, "IOPS") || !strstr(buf, "left") || !strstr(buf, "MB/s") ||
	    !strstr(buf, "lat") || !strchr(buf, '\r'))
		fail_msg("no live status line on the terminal:\n%s", buf);
	free(buf);
}

/* A plan runs several points, each with its clock from zero: the line's
 * rates start afresh at each (they were once 1e21 IOPS from a counter that
 * went back), and the plan's messages stand on lines of their own. */
static void test_plan_status_line_resets_and_messages_stand_apart(void **state)
{
	(void)state;
	char dir[] = "/tmp/iochar-tty-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char out[64];
	snprintf(out, sizeof(out), "--out=%s/r", dir);
	char *buf = run_on_terminal(ARGS("curve", "--ioengine=null", "--rw=randread",
					 "--size=64m", "--time_based", "--runtime=2",
					 "--points=50,100", out));
	unsigned lines = 0, messages = 0;
	for (char *p = buf; (p = strstr(p, " IOPS")); p++, lines++) {
		char *num = p;
		while (num > buf && (num[-1] >= '0' && num[-1] <= '9'))
			num--;
		double iops = strtod(num, NULL);
		/* the null engine does at most some 10^8 IOPS per core */
		if (iops > 1e10)
			fail_msg("status line shows %.3g IOPS:\n%s", iops, buf);
	}
	for (char *p = buf; (p = strstr(p, "iochar: step")); p++, messages++)
		if (p != buf && p[-1] != '\n' && !(p >= buf + 3 && !strncmp(p - 3, "\033[K", 3)))
			fail_msg("a message glued onto the status line:\n%s", buf);
	assert_true(lines >= 2);   /* a line in at least two of the points */
	assert_true(messages >= 3); /* the step, then one per point */
	free(buf);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The line's fields: p99 latency (of the point so far) beside the mean,
 * and in a plan the step, the point and the step's and plan's time
 * left, on the terminal and in a log alike. */
static void expect_plan_fields(const char *buf)
{
	const char *p = strstr(buf, ", p99 ");
	if (!p || !(p[6] >= '0' && p[6] <= '9') || !strstr(p, " us"))
		fail_msg("no p99 latency on the status line:\n%s", buf);
	p = strstr(buf, " | step 1/1 point ");
	if (!p || !strstr(p, ", step ") || !strstr(p, " left, plan ") ||
	    !(p[18] >= '1' && p[18] <= '9'))
		fail_msg("no step, point and plan time left on the status line:\n%s", buf);
}

static void test_status_line_fields(void **state)
{
	(void)state;
	char dir[] = "/tmp/iochar-tty-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char out[64], cmd[128];
	snprintf(out, sizeof(out), "--out=%s/r", dir);
	char *buf = run_on_terminal(ARGS("curve", "--ioengine=null", "--rw=randread",
					 "--size=64m", "--time_based", "--runtime=2",
					 "--points=50,100", out));
	expect_plan_fields(buf);
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/r", dir);
	assert_int_equal(system(cmd), 0);

	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   ARGS("curve", "--ioengine=null", "--rw=randread", "--size=64m",
			"--time_based", "--runtime=2", "--points=100",
			"--progress-interval=1s", out));
	expect_exit(&po, 0);
	expect_plan_fields(po.err);
	proc_out_free(&po);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Logs (no terminal) see a long step advance with --verbose: a line
 * every interval; without it, nothing (fio's harnesses read any stderr
 * as a failure). */
static void test_progress_lines_in_a_log(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   ARGS("run", "--ioengine=null", "--time_based", "--runtime=3500ms",
			"--progress-interval=1s", "--output-format=json", "--verbose"));
	expect_exit(&po, 0);
	unsigned n = 0;
	for (char *p = po.err; (p = strstr(p, "iochar: [")); p++, n++)
		if (!strstr(p, "IOPS") || !strchr(p, '\n'))
			fail_msg("progress line without figures:\n%s", po.err);
	if (n < 2 || n > 4)
		fail_msg("%u progress lines over 3.5 s at 1 s:\n%s", n, po.err);
	assert_null(strchr(po.err, '\r'));
	proc_out_free(&po);

	run_iochar(&po, NULL, 0,
		   ARGS("run", "--ioengine=null", "--time_based", "--runtime=1500ms",
			"--progress-interval=0", "--output-format=json", "--verbose"));
	expect_exit(&po, 0);
	assert_null(strstr(po.err, "iochar: ["));
	proc_out_free(&po);

	run_iochar(&po, NULL, 0,
		   ARGS("run", "--ioengine=null", "--time_based", "--runtime=2500ms",
			"--progress-interval=1s", "--output-format=json"));
	expect_exit(&po, 0);
	assert_string_equal(po.err, "");
	proc_out_free(&po);
}

static void test_no_status_line_in_a_pipe(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   (const char *const[]){"run", "--ioengine=null", "--time_based",
					 "--runtime=2", "--output-format=json", NULL});
	assert_int_equal(po.status, 0);
	assert_string_equal(po.err, ""); /* as fio's: nothing at all */
	proc_out_free(&po);
}

/* --eta=always (fio's): the line even when stderr is not a terminal. */
static void test_eta_always_in_a_pipe(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   ARGS("run", "--ioengine=null", "--time_based", "--runtime=2",
			"--output-format=json", "--eta=always"));
	expect_exit(&po, 0);
	if (!strchr(po.err, '\r') || !strstr(po.err, "IOPS") || !strstr(po.err, "left"))
		fail_msg("no status line with --eta=always:\n%s", po.err);
	proc_out_free(&po);
}

/* --eta=never (fio's): no line even on a terminal. */
static void test_eta_never_on_a_terminal(void **state)
{
	(void)state;
	char *buf = run_on_terminal(ARGS("run", "--ioengine=null", "--time_based",
					 "--runtime=2", "--output-format=json",
					 "--eta=never"));
	if (strstr(buf, "IOPS") || strstr(buf, "left"))
		fail_msg("a status line with --eta=never:\n%s", buf);
	free(buf);
}

/* On a terminal iochar's notes still appear, as before: how the run
 * differs from fio and the file it lays out (off a terminal they are
 * in the JSON only: test_cli_quiet). */
static void test_notes_on_a_terminal(void **state)
{
	(void)state;
	char dir[] = "/tmp/iochar-tty-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char fn[64], cmd[128];
	snprintf(fn, sizeof(fn), "--filename=%s/f", dir);
	char *buf = run_on_terminal(ARGS("run", "--name=j", fn, "--size=1m",
					 "--rw=read", "--thread", "--output-format=json"));
	expect_has(buf, "iochar: differs from fio here: thread: ");
	expect_has(buf, "iochar: writing ");
	expect_has(buf, "/f before the run: 1 MiB of 1 MiB (100%)");
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_line_on_a_terminal),
		cmocka_unit_test(test_no_status_line_in_a_pipe),
		cmocka_unit_test(test_eta_always_in_a_pipe),
		cmocka_unit_test(test_eta_never_on_a_terminal),
		cmocka_unit_test(test_notes_on_a_terminal),
		cmocka_unit_test(test_plan_status_line_resets_and_messages_stand_apart),
		cmocka_unit_test(test_progress_lines_in_a_log),
		cmocka_unit_test(test_status_line_fields),
	};
	return cmocka_run_group_tests_name("cli_tty", tests, NULL, NULL);
}
