/* test_cli_tty.c - the live status line: shown on a terminal (elapsed,
 * remaining, IOPS, MB/s, mean and p99 latency, a plan's step, point and
 * time left), right across a plan's points, with
 * messages on their own lines; absent when stderr is not a terminal,
 * where with --verbose a progress line comes every --progress-interval
 * instead, and without it `iochar run` is as silent as fio. iochar's
 * notes (differences from fio, files laid out) on a terminal; --eta as
 * fio's: never hides the line on a terminal, always shows it in a pipe.
 * On a terminal of 80 columns the line fits, even in mixed work of a
 * plan whose tables come to the same terminal, follows a resize, and
 * shows in a one-second run. */
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
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "util/text_width.h"

/* Marks where the test resized the terminal in what it read. */
#define RESIZED "<RESIZED>"

static uint64_t clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* How a program is run on a terminal: its width, whether stdout goes
 * there too (else /dev/null), and a resize while it runs. */
struct term_opts {
	unsigned cols;
	bool stdout_too;
	unsigned resize_after_ms, resize_cols; /* 0: none */
};

/* Runs iochar with argv on a new terminal of o's width and returns all
 * it wrote there (malloc'd); asserts it exited 0. */
static char *run_on_term(const char *const *argv, const struct term_opts *o)
{
	char bin[4096];
	if (iochar_path()[0] == '/')
		snprintf(bin, sizeof(bin), "%s", iochar_path());
	else
		assert_non_null(realpath(iochar_path(), bin));
	int master;
	struct winsize ws = {.ws_row = 24, .ws_col = (unsigned short)o->cols};
	pid_t pid = forkpty(&master, NULL, NULL, &ws);
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!o->stdout_too && !freopen("/dev/null", "w", stdout))
			_exit(126);
		char *args[32] = {bin};
		for (unsigned i = 0; argv[i] && i < 30; i++)
			args[i + 1] = (char *)argv[i];
		execv(bin, args);
		_exit(127);
	}
	char *buf = calloc(1, 1 << 17);
	size_t len = 0;
	uint64_t t0 = clock_ms();
	bool resized = !o->resize_after_ms;
	for (;;) {
		struct pollfd pfd = {.fd = master, .events = POLLIN};
		if (!resized && clock_ms() >= t0 + o->resize_after_ms) {
			struct winsize nws = {.ws_row = 24, .ws_col = (unsigned short)o->resize_cols};
			ioctl(master, TIOCSWINSZ, &nws); /* the child gets SIGWINCH */
			resized = true;
			len += (size_t)snprintf(buf + len, (1 << 17) - len, "%s", RESIZED);
		}
		if (poll(&pfd, 1, 50) == 0)
			continue;
		ssize_t n = read(master, buf + len, (1 << 17) - 1 - len);
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

static char *run_on_terminal(const char *const *argv)
{
	return run_on_term(argv, &(struct term_opts){.cols = 80});
}

/* `iochar curve` on the null engine (rw, points as options) on a terminal
 * as o says, its results in a directory removed after; what it wrote. */
static char *curve_on_term(const char *rw, const char *points, const struct term_opts *o)
{
	char dir[] = "/tmp/iochar-tty-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char out[64], cmd[128];
	snprintf(out, sizeof(out), "--out=%s/r", dir);
	char *buf = run_on_term(ARGS("curve", "--ioengine=null", rw, "--size=64m",
				     "--time_based", "--runtime=2", points, out),
				o);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	return buf;
}

static void test_status_line_on_a_terminal(void **state)
{
	(void)state;
	char *buf = run_on_terminal(ARGS("run", "--ioengine=null", "--time_based",
					 "--runtime=3", "--output-format=json"));
	if (!strstr(buf, "IOPS") || !strstr(buf, "left") || !strstr(buf, "B/s") ||
	    !strstr(buf, "lat") || !strchr(buf, '\r'))
		fail_msg("no live status line on the terminal:\n%s", buf);
	free(buf);
}

/* "61.2k" -> 61200. */
static double count_value(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	return *end == 'k' ? v * 1e3 : *end == 'M' ? v * 1e6 : *end == 'G' ? v * 1e9 : v;
}

/* Every IOPS figure of the lines in buf ("12.3M IOPS", "r/w 1k/2k IOPS"). */
static unsigned max_iops(const char *buf, double *max)
{
	unsigned lines = 0;
	*max = 0;
	for (const char *p = buf; (p = strstr(p, " IOPS")); p++, lines++) {
		const char *num = p;
		while (num > buf && strchr("0123456789.kMG/", num[-1]))
			num--;
		for (const char *v = num; v < p; v = strchr(v, '/') ? strchr(v, '/') + 1 : p) {
			double x = count_value(v);
			*max = x > *max ? x : *max;
			if (!strchr(v, '/') || strchr(v, '/') > p)
				break;
		}
	}
	return lines;
}

/* A plan runs several points, each with its clock from zero: the line's
 * rates start afresh at each (they were once 1e21 IOPS from a counter that
 * went back), and the plan's messages stand on lines of their own. */
static void test_plan_status_line_resets_and_messages_stand_apart(void **state)
{
	(void)state;
	char *buf = curve_on_term("--rw=randread", "--points=50,100",
				  &(struct term_opts){.cols = 80});
	unsigned messages = 0;
	double iops;
	unsigned lines = max_iops(buf, &iops);
	/* the null engine does at most some 10^8 IOPS per core */
	if (iops > 1e10)
		fail_msg("status line shows %.3g IOPS:\n%s", iops, buf);
	for (char *p = buf; (p = strstr(p, "iochar: step")); p++, messages++)
		if (p != buf && p[-1] != '\n' && !(p >= buf + 3 && !strncmp(p - 3, "\033[K", 3)))
			fail_msg("a message glued onto the status line:\n%s", buf);
	assert_true(lines >= 2);   /* a line in at least two of the points */
	assert_true(messages >= 3); /* the step, then one per point */
	free(buf);
}

/* The line's fields: mean and p99 latency (of the same second), and in
 * a plan the plan's time left, the step, its time left and the point, on
 * a wide terminal and in a log alike. */
static void expect_plan_fields(const char *buf)
{
	const char *p = strstr(buf, ", lat ");
	if (!p || !(p[6] >= '0' && p[6] <= '9') || !strstr(p, " us p99 ") ||
	    !strstr(p, " us"))
		fail_msg("no mean and p99 latency on the status line:\n%s", buf);
	p = strstr(buf, " | plan ");
	if (!p || !strstr(p, " left | step 1/1 (") || !strstr(p, " left) point ") ||
	    !(strstr(p, " point ")[7] >= '1' && strstr(p, " point ")[7] <= '9'))
		fail_msg("no plan time left, step, step time left and point on the "
			 "status line:\n%s", buf);
}

static void test_status_line_fields(void **state)
{
	(void)state;
	char *buf = curve_on_term("--rw=randread", "--points=50,100",
				  &(struct term_opts){.cols = 200});
	expect_plan_fields(buf);
	free(buf);

	char dir[] = "/tmp/iochar-tty-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char out[64], cmd[128];
	snprintf(out, sizeof(out), "--out=%s/r", dir);
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

/* Each status line drawn in buf (the text after "\r\033[K" that the
 * next "\r\033[K" erases, not a message's, which ends its line) is
 * checked: narrower than cols (cols - 1 at most: it never wraps), and
 * counted. From the RESIZED mark on, against after_cols. */
static unsigned check_lines(const char *buf, unsigned cols, unsigned after_cols)
{
	unsigned n = 0;
	const char *resized = strstr(buf, RESIZED);
	for (const char *p = buf; (p = strstr(p, "\r\033[K")); ) {
		p += 4;
		const char *end = strstr(p, "\r\033[K");
		if (!end || !strncmp(p, "\r\n", 2))
			continue;
		size_t len = strcspn(p, "\r\n");
		if (p + len != end)
			continue; /* a message: its line ends */
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		unsigned width = resized && p > resized ? after_cols : cols;
		if (text_width(line) >= width)
			fail_msg("a status line of %zu columns on a terminal of %u:\n%s\n---\n%s",
				 text_width(line), width, line, buf);
		n++;
	}
	return n;
}

/* 80 columns, mixed work in a plan, its tables on the same terminal: the
 * line fits, splits reads and writes, shows the plan's time left, and
 * the table's header never lands on its row. */
static void test_line_fits_80_columns(void **state)
{
	(void)state;
	char *buf = curve_on_term("--rw=randrw", "--points=100",
				  &(struct term_opts){.cols = 80, .stdout_too = true});
	assert_true(check_lines(buf, 80, 80) >= 2);
	expect_has(buf, "\033[Kr/w "); /* in a plan the point's time goes first */
	expect_has(buf, " | plan ");
	const char *h = strstr(buf, "step                               targets");
	if (!h || !(h[-1] == '\n' || !strncmp(h - 3, "\033[K", 3)))
		fail_msg("the table's header is not on a line of its own:\n%s", buf);
	free(buf);
}

/* The terminal narrowed to 50 columns during the run (SIGWINCH): the
 * lines after it fit the new width. */
static void test_line_follows_a_resize(void **state)
{
	(void)state;
	char *buf = run_on_term(ARGS("run", "--ioengine=null", "--time_based",
				     "--runtime=4", "--rw=randrw", "--output-format=json"),
				&(struct term_opts){.cols = 120, .resize_after_ms = 1800,
						    .resize_cols = 50});
	const char *after = strstr(buf, RESIZED);
	assert_non_null(after);
	assert_true(check_lines(buf, 120, 50) >= 3);
	assert_true(check_lines(after, 50, 50) >= 1);
	free(buf);
}

/* A one-second run shows its line too (the first comes at half a second). */
static void test_one_second_run_has_a_line(void **state)
{
	(void)state;
	char *buf = run_on_terminal(ARGS("run", "--ioengine=null", "--time_based",
					 "--runtime=1", "--output-format=json"));
	if (!strstr(buf, " IOPS") || check_lines(buf, 80, 80) < 1)
		fail_msg("no status line in a one-second run:\n%s", buf);
	free(buf);
}

/* The next progress line in a log: "iochar: 2s, 1s left: ...". */
static char *progress_line(char *p)
{
	for (; (p = strstr(p, "iochar: ")); p++)
		if (p[8] >= '0' && p[8] <= '9' && strstr(p, " IOPS"))
			return p;
	return NULL;
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
	for (char *p = po.err; (p = progress_line(p)); p++, n++)
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
	assert_null(progress_line(po.err));
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

/* stdout and stderr into one file (2>&1): each line whole and in the
 * order written: the table before the closing "results in" line, which
 * starts a line of its own (stdout's buffer once came out after it, cut
 * mid-line where it filled). */
static void test_one_file_for_both(void **state)
{
	(void)state;
	char dir[] = "/tmp/iochar-tty-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[4600], bin[4096];
	if (iochar_path()[0] == '/')
		snprintf(bin, sizeof(bin), "%s", iochar_path());
	else
		assert_non_null(realpath(iochar_path(), bin));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && %s plan quick --filename=%s/f --size=4m --ioengine=null "
		 "--mode=fixed --runtime=1 --out r >both.txt 2>&1",
		 dir, bin, dir);
	assert_int_equal(system(cmd), 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/both.txt", dir);
	char *buf = file_slurp(path, NULL);
	assert_non_null(buf);
	const char *table = strstr(buf, "\nrand4k-write "), *end = strstr(buf, "iochar: results in");
	if (!table || !end || end < table || end[-1] != '\n')
		fail_msg("stdout and stderr out of order or on one line:\n%s", buf);
	for (const char *p = buf; (p = strstr(p, "iochar: ")); p++)
		if (p != buf && p[-1] != '\n')
			fail_msg("a message in the middle of a line:\n%s", buf);
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
		cmocka_unit_test(test_line_fits_80_columns),
		cmocka_unit_test(test_line_follows_a_resize),
		cmocka_unit_test(test_one_second_run_has_a_line),
		cmocka_unit_test(test_one_file_for_both),
	};
	return cmocka_run_group_tests_name("cli_tty", tests, NULL, NULL);
}
