/* test_placement.c - fio's placement options against fio 3.33 itself:
 * cpus_allowed_policy=split|shared (the CPU sets each tool's two worker
 * threads give themselves, read from `strace -f -e sched_setaffinity`),
 * and numa_cpu_nodes / numa_mem_policy on this machine's nodes: node 0
 * accepted by both, a node that does not exist refused by both (iochar
 * with one line naming the option and the value, exit 2). SKIP without
 * fio or strace, or with fewer than two online CPUs.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "trace_compare.h"

#define JOB "--name=p --ioengine=null --size=4m --bs=4k --rw=randread " \
	    "--numjobs=2 --thread --cpus_allowed=0-1 "

/* The set each worker thread ends with: per thread of the trace but the
 * tool's own main thread (the execve's), the last successful
 * sched_setaffinity's; returns the threads; the distinct sets, sorted, joined by ' ' into out
 * ("[0] [1]"): fio 3.33 sets the job's set in two threads per job
 * (4 for numjobs=2), iochar in its two workers.
 * iochar's main thread moves itself over the CPUs to check the TSC
 * (util/clock.c) and is no worker. */
static unsigned masks(const char *path, char *out, size_t len)
{
	char line[512], got[8][64];
	int tid[8], main_tid = -1;
	unsigned n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		int t = atoi(line);
		char *p = strstr(line, "sched_setaffinity("), *b, *e;
		unsigned k;

		if (main_tid < 0 && strstr(line, "execve("))
			main_tid = t;
		/* a call strace split ("<unfinished ...>") has its set in
		 * its first line; a failed one says "= -1" */
		if (t == main_tid || !p || strstr(line, "= -1") || !(b = strchr(p, '[')) ||
		    !(e = strchr(b, ']')))
			continue;
		for (k = 0; k < n && tid[k] != t; k++)
			;
		if (k == 8)
			continue;
		tid[k] = t;
		n += k == n;
		snprintf(got[k], sizeof(got[0]), "%.*s", (int)(e - b + 1), b);
	}
	fclose(f);
	qsort(got, n, sizeof(got[0]), (int (*)(const void *, const void *))strcmp);
	out[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		if (i == 0 || strcmp(got[i], got[i - 1]))
			snprintf(out + strlen(out), len - strlen(out), "%s%s",
				 out[0] ? " " : "", got[i]);
	return n;
}

static unsigned traced(const char *dir, const char *tool, const char *opts, char *out,
		   size_t len)
{
	char path[4200];
	int rc = tc_sh("cd '%s' && " TC_UNDER_STRACE "timeout 60 strace -f -qq "
		       "-e trace=execve,sched_setaffinity -o '%s/%s.trace' %s %s %s "
		       "--output-format=json >/dev/null 2>'%s/%s.err'",
		       dir, dir, tool, strcmp(tool, "fio") ? tc_iochar : "fio",
		       strcmp(tool, "fio") ? "run" : "", opts, dir, tool);
	if (rc != 0) { /* which tool, and why: its stderr */
		print_message("%s under strace: exit %d\n", tool, rc);
		tc_sh("head -c 2000 '%s/%s.err' >&2", dir, tool);
	}
	assert_int_equal(rc, 0);
	snprintf(path, sizeof(path), "%s/%s.trace", dir, tool);
	return masks(path, out, len);
}

static void need_two_cpus(void)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		print_message("SKIP: fewer than two online CPUs\n");
		skip();
	}
}

/* The distinct Cpus_allowed_list values of the tool's threads 1 s into a
 * 2 s run (/proc/PID/task/TID/status), ", "-joined into out. */
static void live_sets(const char *dir, const char *tool, const char *opts, char *out,
		      size_t len)
{
	char path[4200];
	FILE *f;
	int rc = tc_sh("cd '%s' && { %s %s %s --time_based --runtime=2 "
		       "--output-format=json >/dev/null 2>'%s/%s.err' & p=$!; sleep 1; "
		       "grep -h Cpus_allowed_list /proc/$p/task/*/status | sort -u "
		       ">'%s/%s.sets'; wait $p; }",
		       dir, strcmp(tool, "fio") ? tc_iochar : "fio",
		       strcmp(tool, "fio") ? "run" : "", opts, dir, tool, dir, tool);
	assert_int_equal(rc, 0);
	snprintf(path, sizeof(path), "%s/%s.sets", dir, tool);
	f = fopen(path, "r");
	assert_non_null(f);
	out[0] = '\0';
	for (char line[256]; fgets(line, sizeof(line), f);) {
		char *v = strchr(line, ':');
		v = v ? v + 1 + strspn(v + 1, " \t") : line;
		v[strcspn(v, "\n")] = '\0';
		snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? ", " : "", v);
	}
	fclose(f);
}

/* The same job in both tools: the sets their workers give themselves
 * (strace: each worker's last sched_setaffinity; fio's clock check
 * threads, pinned one per CPU, show up there too, so "want" is fio's
 * whole picture) and the sets the threads hold while the job runs. */
static void compare_policy(void **state, const char *policy, const char *fio_calls,
			   const char *iochar_calls, const char *want_live)
{
	char opts[512], f[256], i[256];

	tc_skip_without_tools();
	need_two_cpus();
	snprintf(opts, sizeof(opts), JOB "--cpus_allowed_policy=%s", policy);
	traced(*state, "fio", opts, f, sizeof(f));
	unsigned threads = traced(*state, "iochar", opts, i, sizeof(i));
	print_message("%s: sched_setaffinity: fio %s, iochar %s (%u threads)\n", policy, f,
		      i, threads);
	assert_string_equal(f, fio_calls);
	assert_string_equal(i, iochar_calls);
	assert_int_equal(threads, 2); /* iochar: both workers placed */
	live_sets(*state, "iochar", opts, i, sizeof(i));
	/* fio's threads, 1 s in, are not all placed yet on a busy machine
	 * (read as "0-1" or a set short): fio gets up to 3 runs to show its
	 * placement, each printed; iochar's is held on its one */
	for (unsigned t = 1;; t++) {
		live_sets(*state, "fio", opts, f, sizeof(f));
		print_message("%s: threads' Cpus_allowed_list: fio %s (try %u of 3), "
			      "iochar %s\n", policy, f, t, i);
		if (!strcmp(f, want_live) || t == 3)
			break;
	}
	assert_string_equal(f, want_live);
	assert_string_equal(i, f);
}

static void test_split_as_fio(void **state)
{
	/* the workers' own calls match fio's exactly */
	compare_policy(state, "split", "[0] [1]", "[0] [1]", "0, 0-1, 1");
}

static void test_shared_as_fio(void **state)
{
	compare_policy(state, "shared", "[0 1] [0] [1]", "[0 1]", "0-1");
}

/* Exit status of tool with opts; its stderr in dir/err.txt. */
static int run_tool(const char *dir, const char *tool, const char *opts)
{
	return tc_sh("cd '%s' && timeout 60 %s %s --name=n --ioengine=null --size=1m %s "
		     "--output-format=json >/dev/null 2>'%s/err.txt'",
		     dir, strcmp(tool, "fio") ? tc_iochar : "fio",
		     strcmp(tool, "fio") ? "run" : "", opts, dir);
}

static char *err_text(const char *dir)
{
	char path[4200], *s = calloc(1, 4096);
	FILE *f;

	snprintf(path, sizeof(path), "%s/err.txt", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	s[fread(s, 1, 4095, f)] = '\0';
	fclose(f);
	return s;
}

static void test_numa_nodes_as_fio(void **state)
{
	static const char *ok[] = { "--numa_cpu_nodes=0", "--numa_mem_policy=bind:0" };
	static const char *bad[][2] = {
		{ "--numa_cpu_nodes=99", "numa_cpu_nodes" },
		{ "--numa_mem_policy=bind:99", "numa_mem_policy" },
	};

	tc_skip_without_tools();
	for (size_t k = 0; k < sizeof(ok) / sizeof(ok[0]); k++) {
		assert_int_equal(run_tool(*state, "fio", ok[k]), 0);
		assert_int_equal(run_tool(*state, "iochar", ok[k]), 0);
	}
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char *e;

		/* fio refuses it while parsing ("failed parsing ...") */
		run_tool(*state, "fio", bad[k][0]);
		e = err_text(*state);
		expect_has(e, "failed parsing");
		free(e);
		assert_int_equal(run_tool(*state, "iochar", bad[k][0]), 2);
		e = err_text(*state);
		print_message("%s", e);
		expect_has(e, bad[k][1]);
		expect_has(e, "'99'");
		assert_int_equal(count_lines(e), 1);
		free(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_split_as_fio, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_shared_as_fio, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_numa_nodes_as_fio, tc_setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
