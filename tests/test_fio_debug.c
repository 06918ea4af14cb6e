/* test_fio_debug.c - --debug=TYPE against fio 3.33 on the same command
 * lines: --debug=? lists fio's types in fio's words; a type named says
 * "fio: set debug option TYPE" (all: "fio: set all debug options") on
 * stdout; each trace line has fio's shape, the type padded to 8 and the
 * thread id to 5; parse traces each option handled as fio's
 * handle_option does (the option's name and its value as given) and the
 * job file read, and the steady-state criterion in fio's words (its
 * t/steadystate_tests.py reads them); io and file name the engine loaded and the files. Both
 * leave stderr empty and exit 0. SKIP without fio. */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

static char *side_file(const char *dir, const char *sub, const char *name)
{
	char path[4200];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	char *s = file_slurp(path, &len);
	if (!s)
		fail_msg("%s: cannot read", path);
	return s;
}

/* Run opts through both (in dir/N): exit 0 and empty stderr for each. */
static void run_both_clean(const char *dir, const char *opts)
{
	int rf, ri;

	assert_int_equal(mkdir(dir, 0700), 0);
	side_run_both(dir, opts, &rf, &ri);
	for (int k = 0; k < 2; k++) {
		const char *sub = k ? "iochar" : "fio";
		char *err = side_file(dir, sub, "err.txt");

		if ((k ? ri : rf) != 0 || err[0])
			fail_msg("%s: %s: exit %d, stderr: %s", opts, sub,
				 k ? ri : rf, err);
		free(err);
	}
}

/* Every line of out that is not the terse report is a trace in fio's
 * shape of one of types (or fio's "set" line); returns how many. */
static unsigned expect_trace_shape(const char *out, const char *types,
				   const char *who)
{
	char pat[256];
	regex_t re;
	unsigned n = 0;

	snprintf(pat, sizeof(pat),
		 "^((%s) {1,8}[0-9]{1,7} {1,5}[^ ].*|fio: set (debug option "
		 "(%s)|all debug options))$",
		 types, types);
	assert_int_equal(regcomp(&re, pat, REG_EXTENDED | REG_NOSUB), 0);
	char *copy = strdup(out), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "3;fio-3.33", 10))
			continue;
		if (regexec(&re, l, 0, NULL, 0))
			fail_msg("%s: a line not in fio's debug shape: '%s'",
				 who, l);
		n++;
	}
	free(copy);
	regfree(&re);
	return n;
}

static void expect_both_have(const char *dir, const char *want)
{
	for (int k = 0; k < 2; k++) {
		char *out = side_file(dir, k ? "iochar" : "fio", "out.json");

		if (!strstr(out, want))
			fail_msg("%s has no '%s' in:\n%s", k ? "iochar" : "fio",
				 want, out);
		free(out);
	}
}

static void test_debug_list(void **state)
{
	char dir[4200];

	side_need_fio();
	snprintf(dir, sizeof(dir), "%s/list", (const char *)*state);
	run_both_clean(dir, "--debug=?");
	char *f = side_file(dir, "fio", "out.json");
	char *i = side_file(dir, "iochar", "out.json");
	assert_string_equal(i, f);
	expect_has(f, "fio: dumping debug options:");
	free(f);
	free(i);
}

static void test_debug_parse(void **state)
{
	char dir[4200];

	side_need_fio();
	snprintf(dir, sizeof(dir), "%s/parse", (const char *)*state);
	run_both_clean(dir, "--debug=parse --name=x --ioengine=null --size=1m "
			    "--bs=8k --rw=randread --output-format=terse");
	for (int k = 0; k < 2; k++) {
		const char *sub = k ? "iochar" : "fio";
		char *out = side_file(dir, sub, "out.json");

		assert_true(expect_trace_shape(out, "parse", sub) > 4);
		/* the set line comes first, as fio prints it on parsing */
		assert_int_equal(strncmp(out, "fio: set debug option parse\n",
					 28), 0);
		free(out);
	}
	expect_both_have(dir, "handle_option=ioengine, ptr=null\n");
	expect_both_have(dir, "handle_option=size, ptr=1m\n");
	expect_both_have(dir, "handle_option=bs, ptr=8k\n");
	expect_both_have(dir, "handle_option=rw, ptr=randread\n");
}

static void test_debug_jobfile(void **state)
{
	char dir[4200], job[4300], opts[4400];

	side_need_fio();
	snprintf(dir, sizeof(dir), "%s/jobfile", (const char *)*state);
	snprintf(job, sizeof(job), "%s/j.fio", (const char *)*state);
	FILE *f = fopen(job, "w");
	assert_non_null(f);
	fputs("[global]\nioengine=null\n[x]\nsize=64k\nrw=randread\n", f);
	fclose(f);
	snprintf(opts, sizeof(opts), "--debug=parse --output-format=terse %s",
		 job);
	run_both_clean(dir, opts);
	for (int k = 0; k < 2; k++) {
		char *out = side_file(dir, k ? "iochar" : "fio", "out.json");

		expect_trace_shape(out, "parse", k ? "iochar" : "fio");
		free(out);
	}
	snprintf(opts, sizeof(opts), "Parsing ini file %s\n", job);
	expect_both_have(dir, opts);
	expect_both_have(dir, "Parsing section [global]\n");
	expect_both_have(dir, "Parsing section [x]\n");
	expect_both_have(dir, "handle_option=size, ptr=64k\n");
}

static void test_debug_io_file(void **state)
{
	char dir[4200];

	side_need_fio();
	snprintf(dir, sizeof(dir), "%s/io", (const char *)*state);
	run_both_clean(dir, "--debug=io,file --name=x --filename=f --size=16k "
			    "--rw=write --output-format=terse");
	for (int k = 0; k < 2; k++) {
		char *out = side_file(dir, k ? "iochar" : "fio", "out.json");

		assert_int_equal(strncmp(out, "fio: set debug option io\n"
					      "fio: set debug option file\n",
					 52), 0);
		expect_trace_shape(out, "io|file", k ? "iochar" : "fio");
		free(out);
	}
	expect_both_have(dir, "load ioengine psync\n");
	expect_both_have(dir, "close files\n");
}

/* fio's t/steadystate_tests.py reads these lines of --debug=parse: the
 * same criterion gives the same line in both. */
static void test_debug_steadystate(void **state)
{
	static const char *const crit[] = {
	    "iops:10", "iops:10%", "iops:.1%", "bw:10%", "bw:.1%", "bw:12",
	    "bw:1m", "iops_slope:0.1%", "bw_slope:20",
	};
	side_need_fio();
	for (size_t k = 0; k < sizeof(crit) / sizeof(crit[0]); k++) {
		char dir[4200], opts[256];

		snprintf(dir, sizeof(dir), "%s/ss%zu", (const char *)*state, k);
		snprintf(opts, sizeof(opts), "--parse-only --debug=parse "
			 "--ss_dur=10s --ss=%s --ss_ramp=5", crit[k]);
		run_both_clean(dir, opts);
		char *f = side_file(dir, "fio", "out.json");
		const char *line = strstr(f, "set steady state");
		assert_non_null(line);
		char want[128];
		snprintf(want, sizeof(want), "%.*s\n", (int)strcspn(line, "\n"),
			 line);
		expect_both_have(dir, want);
		char *i = side_file(dir, "iochar", "out.json");
		expect_trace_shape(i, "parse", "iochar");
		free(i);
		free(f);
	}
}

static void test_debug_all(void **state)
{
	char dir[4200];

	side_need_fio();
	snprintf(dir, sizeof(dir), "%s/all", (const char *)*state);
	run_both_clean(dir, "--debug=all --name=x --ioengine=null --size=8k "
			    "--output-format=terse");
	expect_both_have(dir, "fio: set all debug options\n");
	expect_both_have(dir, "handle_option=size, ptr=8k\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_debug_list, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_debug_parse, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_debug_jobfile, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_debug_io_file, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_debug_steadystate, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_debug_all, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
