/* test_stdout_errors.c - every command's results on a stdout that cannot
 * take them (issue 37 H12, for all commands): on /dev/full the command
 * exits 1 with one line naming ENOSPC (inventory exited 0; run said EIO
 * when the failed bytes were already dropped), and on a pipe whose reader
 * went away it exits 1 with nothing on stderr, not killed by SIGPIPE and
 * not saying "Broken pipe" (run did). Table-driven over the commands that
 * run quickly without root; the small outputs (--version) and the large
 * ones (run --help, past stdio's buffer) take different paths in glibc. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define MAX_ARGS 8

static const char *const cases[][MAX_ARGS] = {
    {"run", "--ioengine=null", "--size=1m", "--rw=read", NULL},
    {"run", "--ioengine=null", "--size=1m", "--rw=read", "--output-format=json",
     NULL},
    {"run", "--ioengine=null", "--size=1m", "--rw=read",
     "--output-format=terse", NULL},
    {"inventory", NULL},
    {"inventory", "--output-format=json", NULL},
    {"inventory", "--output-format=csv", NULL},
    {"run", "--help", NULL},
    {"plan", "--list", NULL},
    {"report", "--help", NULL},
    {"compare", "--help", NULL},
    {"model", "--help", NULL},
    {"net", "--help", NULL},
    {"verify", "--help", NULL},
    {"--help", NULL},
    {"--version", NULL},
};

/* `iochar ARGS...` in dir with stdout on fd out and stderr into errpath;
 * its wait status. */
static int iochar_to_fd(const char *const *args, const char *dir, int out,
			const char *errpath)
{
	char bin[4096];
	const char *argv[MAX_ARGS + 2] = {bin};
	int status;

	assert_non_null(realpath(iochar_path(), bin));
	for (unsigned i = 0; i < MAX_ARGS && args[i]; i++)
		argv[i + 1] = args[i];
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the default disposition, as a shell gives it */
		signal(SIGPIPE, SIG_DFL);
		if (chdir(dir) || dup2(out, 1) < 0 ||
		    !freopen(errpath, "w", stderr))
			_exit(126);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void expect_status(int st, const char *const *args, const char *err,
			  const char *want_err)
{
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || strcmp(err, want_err)) {
		fprintf(stderr, "iochar %s %s: %s %d, stderr '%s'\n", args[0],
			args[1] ? args[1] : "",
			WIFEXITED(st) ? "exit" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), err);
		fail();
	}
}

static void test_stdout_errors(void **state)
{
	const char *dir = *state;
	char errpath[4200];

	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
	if (full < 0) {
		printf("SKIP /dev/full: no such device here\n");
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *args = cases[i];

		int st = iochar_to_fd(args, dir, full, errpath);
		char *err = file_slurp(errpath, NULL);
		assert_non_null(err);
		expect_status(st, args, err,
			      "iochar: writing results to stdout: "
			      "No space left on device\n");
		free(err);

		int p[2];
		assert_int_equal(pipe2(p, O_CLOEXEC), 0);
		close(p[0]); /* the reader went away before any output */
		st = iochar_to_fd(args, dir, p[1], errpath);
		close(p[1]);
		err = file_slurp(errpath, NULL);
		assert_non_null(err);
		expect_status(st, args, err, ""); /* quietly, as cat or grep */
		free(err);
	}
	close(full);
}

/* The same commands on a stdout that takes everything exit 0: the
 * stream over fd 1 loses nothing and reports no error. */
static void test_stdout_fine(void **state)
{
	const char *dir = *state;
	char errpath[4200], outpath[4200];

	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	snprintf(outpath, sizeof(outpath), "%s/out", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0600);
		assert_true(fd >= 0);
		int st = iochar_to_fd(cases[i], dir, fd, errpath);
		close(fd);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
		size_t len = 0;
		char *out = file_slurp(outpath, &len);
		assert_non_null(out);
		assert_true(len > 0 && out[len - 1] == '\n');
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_stdout_errors, tmpdir_setup,
					    tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_stdout_fine, tmpdir_setup,
					    tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
