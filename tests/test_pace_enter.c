/* test_pace_enter.c - a rate-limited io_uring worker hands each due I/O
 * to the kernel in the same io_uring_enter that waits for it, not in one
 * of its own: at QD 8 it made two calls per I/O (a submit, then the
 * wait), one more system call per I/O than the wait needs (issue 34).
 *
 * End to end under strace -c on a /dev/shm file; SKIP without strace.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The calls strace -c counted for io_uring_enter in its summary file. */
static unsigned long enter_calls(const char *path)
{
	size_t len;
	char *s = file_slurp(path, &len);
	assert_non_null(s);
	unsigned long calls = 0;
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		double pct, secs;
		unsigned long usecs, n;
		char name[64];
		if (strstr(line, "io_uring_enter") &&
		    sscanf(line, "%lf %lf %lu %lu %*s %63s", &pct, &secs, &usecs, &n, name) >= 4)
			calls = n;
	}
	free(s);
	return calls;
}

static void test_one_enter_per_paced_io(void **state)
{
	char *dir = *state, file[512], fname[600], trace[600], cmd[2048];
	if (system("command -v strace >/dev/null 2>&1")) {
		print_message("SKIP: strace is not installed (scripts/deps.sh installs it)\n");
		skip();
	}
	snprintf(file, sizeof(file), "%s/p.dat", dir);
	make_file(file, 16 << 20);
	snprintf(fname, sizeof(fname), "--filename=%s", file);
	snprintf(trace, sizeof(trace), "%s/enter.txt", dir);
	snprintf(cmd, sizeof(cmd),
		 /* LeakSanitizer cannot run under ptrace: the sanitizer pass's
		  * leak check would abort the traced run */
		 "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
		 "strace -f -c -e trace=io_uring_enter -o %s %s run %s --ioengine=io_uring "
		 "--iodepth=8 --rw=randread --bs=4k --time_based --runtime=500ms "
		 "--rate_iops=2000 --output-format=json > %s/out.json 2>/dev/null",
		 trace, iochar_path(), fname, dir);
	assert_int_equal(system(cmd), 0);
	char out[600];
	snprintf(out, sizeof(out), "%s/out.json", dir);
	size_t len;
	char *js = file_slurp(out, &len);
	assert_non_null(js);
	json_object *root = json_tokener_parse(js);
	free(js);
	assert_non_null(root);
	uint64_t ios = jget_u64(root, "total.ios");
	json_object_put(root);
	unsigned long calls = enter_calls(trace);
	assert_true(ios >= 900);
	/* one per I/O and a few for the end's drain; two per I/O before */
	if (calls > ios + ios / 5)
		fail_msg("%lu io_uring_enter calls for %llu paced I/Os", calls,
			 (unsigned long long)ios);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_enter_per_paced_io, shmdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("pace_enter", tests, NULL, NULL);
}
