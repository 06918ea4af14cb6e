/* test_cli_tty.c - the live status line: shown on a terminal (elapsed,
 * remaining, IOPS, MB/s, latency), absent when stderr is not one. */
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

static void test_status_line_on_a_terminal(void **state)
{
	(void)state;
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
		execl(bin, bin, "run", "--ioengine=null", "--time_based", "--runtime=3",
		      "--output-format=json", (char *)NULL);
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
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!strstr(buf, "IOPS") || !strstr(buf, "left") || !strstr(buf, "MB/s") ||
	    !strstr(buf, "lat") || !strchr(buf, '\r'))
		fail_msg("no live status line on the terminal:\n%s", buf);
	free(buf);
	close(master);
}

static void test_no_status_line_in_a_pipe(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   (const char *const[]){"run", "--ioengine=null", "--time_based",
					 "--runtime=2", "--output-format=json", NULL});
	assert_int_equal(po.status, 0);
	assert_null(strchr(po.err, '\r'));
	assert_null(strstr(po.err, "left"));
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_line_on_a_terminal),
		cmocka_unit_test(test_no_status_line_in_a_pipe),
	};
	return cmocka_run_group_tests_name("cli_tty", tests, NULL, NULL);
}
