/* test_run_all.c - tests/run_all.sh, the suite's runner, on fake test
 * binaries (shell scripts in a scratch directory): cmocka's verdict lines
 * are summed, a binary that outlives $IOCHAR_TEST_TIMEOUT is stopped
 * (with the children it started) and named as failed with the reason, and
 * stopping the runner stops the binary it runs and its children. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* tests/run_all.sh from the current directory, else from the binary. */
static void find_runner(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	if (access("tests/run_all.sh", X_OK) == 0) {
		snprintf(out, len, "tests/run_all.sh");
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(out, len, "%s/../../tests/run_all.sh", dirname(exe));
	assert_int_equal(access(out, X_OK), 0);
}

static void write_script(const char *dir, const char *name, const char *body)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s", body);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/* Run the runner on dir's scripts names (space-separated), with the
 * limit, into out; returns its exit status, *secs its wall time. */
static int run_runner(const char *dir, const char *names, const char *limit,
		      char *out, size_t len, double *secs)
{
	char runner[PATH_MAX], cmd[3 * PATH_MAX], name[64];
	struct timespec a, b;
	const char *p = names;
	int used;

	find_runner(runner, sizeof(runner));
	used = snprintf(cmd, sizeof(cmd), "IOCHAR_TEST_TIMEOUT=%s %s", limit,
			runner);
	while (sscanf(p, "%63s", name) == 1) {
		used += snprintf(cmd + used, sizeof(cmd) - used, " %s/%s", dir,
				 name);
		p = strstr(p, name) + strlen(name);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	int st = pclose(f);
	clock_gettime(CLOCK_MONOTONIC, &b);
	*secs = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char dir[] = "/tmp/iochar-run-all-XXXXXX";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	write_script(dir, "fast_ok", "echo '[  PASSED  ] 2 test(s).'\n");
	write_script(dir, "fast_fail",
		     "echo '[  PASSED  ] 1 test(s).'\n"
		     "echo '[  FAILED  ] 1 test(s), listed below:'\nexit 1\n");
	/* a child of its own holds the output pipe open, as iochar would */
	write_script(dir, "slow_hang",
		     "echo '[  PASSED  ] 1 test(s).'\nsleep 60 &\n"
		     "echo $! > \"$(dirname \"$0\")/sleep.pid\"\nwait\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_verdicts_summed(void **state)
{
	char out[8192];
	double secs;
	(void)state;

	int rc = run_runner(dir, "fast_ok fast_fail", "20", out, sizeof(out),
			    &secs);
	assert_int_equal(rc, 1);
	expect_has(out, "failing: fast_fail\n");
	expect_has(out, "\n3 passed, 1 failed, 0 skipped\n");
	assert_null(strstr(out, "timed out"));

	rc = run_runner(dir, "fast_ok", "20", out, sizeof(out), &secs);
	assert_int_equal(rc, 0);
	expect_has(out, "\n2 passed, 0 failed, 0 skipped\n");
	assert_null(strstr(out, "failing:"));
}

static void test_hung_binary_stopped_and_named(void **state)
{
	char out[8192];
	double secs;
	(void)state;

	int rc = run_runner(dir, "slow_hang fast_ok", "1", out, sizeof(out),
			    &secs);
	assert_int_equal(rc, 1);
	expect_has(out, "failing: slow_hang (timed out after 1 s)\n");
	/* its passed case counts; the hang is one failure; the next ran */
	expect_has(out, "\n3 passed, 1 failed, 0 skipped\n");
	/* stopped at the limit with its child, not after the child's 60 s */
	if (secs > 8)
		fail_msg("runner took %.1f s for a 1 s limit:\n%s", secs, out);
}

/* The PID the hanging script's child wrote, once it has (0: never). */
static pid_t hang_child(void)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/sleep.pid", dir);
	for (int i = 0; i < 100; i++) {
		FILE *f = fopen(path, "r");
		int pid = 0;
		if (f) {
			int got = fscanf(f, "%d", &pid);
			fclose(f);
			if (got == 1 && pid > 0)
				return pid;
		}
		usleep(50000);
	}
	return 0;
}

static bool gone_within(pid_t pid, int ms)
{
	for (int t = 0; t < ms; t += 50) {
		if (kill(pid, 0) != 0 && errno == ESRCH)
			return true;
		usleep(50000);
	}
	return false;
}

static void test_stopped_runner_stops_the_binary(void **state)
{
	char runner[PATH_MAX], hang[PATH_MAX], path[PATH_MAX];
	(void)state;

	find_runner(runner, sizeof(runner));
	snprintf(hang, sizeof(hang), "%s/slow_hang", dir);
	snprintf(path, sizeof(path), "%s/sleep.pid", dir);
	unlink(path);
	pid_t r = fork();
	assert_true(r >= 0);
	if (r == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execl(runner, runner, hang, (char *)NULL);
		_exit(127);
	}
	pid_t child = hang_child();
	assert_true(child > 0);
	assert_int_equal(kill(r, SIGTERM), 0);
	int st;
	assert_int_equal(waitpid(r, &st, 0), r);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	if (!gone_within(child, 3000)) {
		kill(child, SIGKILL);
		fail_msg("the runner stopped, the test's child %d went on",
			 (int)child);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts_summed),
		cmocka_unit_test(test_hung_binary_stopped_and_named),
		cmocka_unit_test(test_stopped_runner_stops_the_binary),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
