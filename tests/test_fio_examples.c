/* test_fio_examples.c - issue 14 checked against fio itself: fio 3.33's
 * own example job files and job files fio's genfio writes run through fio
 * (Debian's) and iochar, each in a sandbox copy (paths moved into a
 * temporary directory, sizes and times capped), by
 * scripts/fio_examples.py --check, which compares what each tool's JSON
 * says it ran (tests/fio_same.py). Asserted: every file iochar runs runs
 * the jobs, clones, groups, rw and I/O sizes fio ran; every file it
 * refuses exits 2, writes nothing and names a file:line for each blocker
 * (each blocker once the ones named were removed; all at once as soon as
 * iochar names both unknown options of a two-option probe file). The share of files that
 * run the same is printed, not asserted, until it reaches issue 14's 90 %.
 * The comparison is shown able to fail first (--selftest). SKIP without
 * fio, genfio, python3 or the examples (scripts/fio_examples_fetch.sh). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define EXAMPLES "/var/cache/iochar/fio-3.33/examples"

/* The tree's root, from this binary's place (build/tests/NAME or
 * build-san/tests/NAME), so the test runs from any directory. */
static void repo_root(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(exe, '/');
		assert_non_null(slash);
		*slash = '\0';
	}
	snprintf(buf, len, "%s", exe);
}

static bool have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* Skip unless everything the script needs is here. */
static void need_tools(bool genfio)
{
	if (!have("fio") || !have("python3") || (genfio && !have("genfio"))) {
		printf("SKIP: needs fio, genfio and python3 (scripts/deps.sh installs them)\n");
		skip();
	}
	if (access(EXAMPLES "/fio-seq-read.fio", R_OK) != 0) {
		printf("SKIP: no fio examples in " EXAMPLES
		       " (scripts/fio_examples_fetch.sh puts them there)\n");
		skip();
	}
}

/* Run scripts/fio_examples.py with args against the iochar under test,
 * echoing its lines into the test's log; fails the test unless it exits
 * 0. */
static void run_script(const char *args)
{
	char root[PATH_MAX], iochar[PATH_MAX], cmd[3 * PATH_MAX];
	repo_root(root, sizeof(root));
	if (!realpath(iochar_path(), iochar))
		fail_msg("no iochar binary at %s", iochar_path());
	snprintf(cmd, sizeof(cmd), "python3 '%s/scripts/fio_examples.py' --iochar '%s' %s 2>&1",
		 root, iochar, args);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[4096];
	unsigned fails = 0;
	while (fgets(line, sizeof(line), p)) {
		fputs(line, stdout);
		fails += strncmp(line, "FAIL ", 5) == 0;
	}
	int st = pclose(p);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("fio_examples.py %s: exit %d, %u FAIL line(s) above", args,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1, fails);
}

/* One job file through both tools compares the same, and a changed copy
 * through iochar (a clone less, another bs, another rw) does not. */
static void test_comparison_can_fail(void **state)
{
	need_tools(false);
	run_script("--selftest");
}

static void test_fio_examples(void **state)
{
	need_tools(false);
	run_script("--check");
}

static void test_genfio_files(void **state)
{
	need_tools(true);
	run_script("--check --only-genfio");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comparison_can_fail),
		cmocka_unit_test(test_fio_examples),
		cmocka_unit_test(test_genfio_files),
	};
	return cmocka_run_group_tests_name("fio_examples", tests, NULL, NULL);
}
