/* test_jobfile_limits.c - job files at their limits: ${VAR} expansion
 * bounded (issue 37 H2), time linear in a line's length (H3), and a long
 * bad value, option name or section name named by file and line,
 * shortened, its reason kept (H4). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include "charz/plan.h"
#include "cli/jobfile.h"
#include "cli/jobfile_expand.h"

#include "harness.h"

/* Parse text as the job file "t.fio", expecting failure; err holds why. */
static int parse_fail(const char *text, size_t len, struct ioc_err *err)
{
	struct job_spec *jobs = NULL;
	unsigned nr = 0;
	int ret;

	memset(err, 0, sizeof(*err));
	ret = jobfile_parse_text_n(text, len, "t.fio", &jobs, &nr, err);
	if (!ret)
		jobfile_free_jobs(jobs, nr);
	return ret;
}

/* "[j]\n" KEY "=" then reps copies of piece, then "\n". */
static char *line_of(const char *key, const char *piece, size_t reps,
		     size_t *len)
{
	size_t plen = strlen(piece), cap = 16 + strlen(key) + plen * reps;
	char *text = malloc(cap), *p;

	assert_non_null(text);
	p = text + sprintf(text, "[j]\n%s=", key);
	for (size_t i = 0; i < reps; i++, p += plen)
		memcpy(p, piece, plen);
	*p++ = '\n';
	*len = (size_t)(p - text);
	return text;
}

static long max_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* H2: 8,000 references to a 120 kB variable took 1.88 GB; now the
 * file's expansion stops at JOBFILE_EXPAND_MAX with one line naming the
 * file, the line and the option, and memory stays near that cap. */
static void test_expansion_bounded(void **state)
{
	char *big = malloc(120001), path[256];
	struct ioc_err err;
	size_t len;
	char *text;
	long rss0 = max_rss_kb();
	FILE *f;

	assert_non_null(big);
	memset(big, 'y', 120000);
	big[120000] = '\0';
	setenv("IOCHAR_T_BIG", big, 1);
	text = line_of("description", "${IOCHAR_T_BIG}", 8000, &len);
	assert_int_equal(parse_fail(text, len, &err), -E2BIG);
	assert_int_equal(err.usage, 1);
	expect_has(err.msg, "t.fio:2: description: after ${VAR} substitution");
	expect_has(err.msg, "16 MiB");
	assert_null(strchr(err.msg, '\n'));
	/* a few times the cap, not the 960 MB the references name */
	assert_true(max_rss_kb() - rss0 < 256 * 1024);

	/* the command line: exit 2, one line, before anything runs */
	snprintf(path, sizeof(path), "%s/big.fio", (char *)*state);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	expect_usage_line(ARGS("run", path, "--parse-only"), "big.fio:2: description: after ${VAR}");
	free(text);

	/* under the cap, the same references expand as before */
	text = line_of("description", "${IOCHAR_T_BIG}", 1, &len);
	assert_int_equal(parse_fail(text, len, &err), -ERANGE);
	expect_has(err.msg, "too long");
	free(text);
	unsetenv("IOCHAR_T_BIG");
	free(big);
}

/* The budget spans the file's values: each fits, all of them do not. */
static void test_expansion_budget(void **state)
{
	char value[64] = "bs=${IOCHAR_T_V}";
	size_t budget = 10;
	char *out = NULL;
	struct ioc_err err = {0};

	(void)state;
	setenv("IOCHAR_T_V", "4k", 1);
	assert_int_equal(jobfile_expand("bs", value, &budget, &out, &err), 0);
	assert_string_equal(out, "bs=4k");
	assert_int_equal(budget, 5);
	free(out);
	out = NULL;
	assert_int_equal(jobfile_expand("bs", value, &budget, &out, &err), 0);
	assert_int_equal(budget, 0);
	free(out);
	out = NULL;
	assert_int_equal(jobfile_expand("bs", "${IOCHAR_T_V}", &budget, &out, &err),
			 -E2BIG);
	assert_null(out);
	assert_int_equal(err.usage, 1);
	/* a refused value takes nothing from it (fuzz_jobfile_expand) */
	budget = 100;
	memset(&err, 0, sizeof(err));
	assert_int_equal(jobfile_expand("size", "$mb_memory*2m", &budget, &out,
					&err),
			 -EINVAL);
	assert_null(out);
	assert_int_equal(budget, 100);
	unsetenv("IOCHAR_T_V");
}

/* The CPU time of parsing text: a busy machine's waits are not in it
 * (wall time gave 0.06 to 0.29 s for one 4 MB line at load 14). */
static double parse_secs(const char *text, size_t len)
{
	struct timespec t0, t1;
	struct ioc_err err;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	parse_fail(text, len, &err); /* refused or not: its time */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	return (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* The best of three: the machine's noise only ever adds. */
static double best_secs(const char *key, const char *piece, size_t reps)
{
	size_t len;
	char *text = line_of(key, piece, reps, &len);
	double best = 1e9;

	for (int i = 0; i < 3; i++) {
		double t = parse_secs(text, len);
		if (t < best)
			best = t;
	}
	free(text);
	return best;
}

/* H3: a 1 MB value took 4.7 s, 2 MB 21.6 s (a '}' search from every
 * byte). 4 MB lines, plain and of "${" or "$" without an end, now take
 * about 64 times a 64 kB line's time: the bound allows 400 times (4096
 * would be quadratic), or 0.25 s for a machine too fast to time the
 * small one, and 2 s whatever the ratio; each the best of three, in CPU
 * time. */
static void test_long_lines_linear(void **state)
{
	static const char *const pieces[] = {"xxxx", "${${", "$$$$", "}${a"};
	const size_t small = 64 << 10, large = 4 << 20;

	(void)state;
	for (unsigned i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		double ts = best_secs("description", pieces[i], small / 4);
		double tl = best_secs("description", pieces[i], large / 4);

		print_message("%s x %zu: %.4f s, x %zu: %.4f s\n", pieces[i],
			      small / 4, ts, large / 4, tl);
		assert_true(tl < 2.0);
		assert_true(tl < 0.25 || tl < 400 * ts);
	}
}

/* H4: a bad value of ~1,000 bytes or more gave "iochar: " and "... and 1
 * more": no file, line or option. Now its start, "...", its length and
 * the reason, on its line. */
static void test_long_bad_value_named(void **state)
{
	static const size_t lens[] = {1200, 3000, 1 << 20};
	struct ioc_err err;

	(void)state;
	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len;
		char *text = line_of("rw", "x", lens[i], &len);
		char want[64];

		assert_int_equal(parse_fail(text, len, &err), -EINVAL);
		free(text);
		snprintf(want, sizeof(want), "x... (%zu bytes): not a mode",
			 lens[i]);
		assert_int_equal(strncmp(err.msg, "t.fio:2: rw=xxxx", 16), 0);
		expect_has(err.msg, want);
		assert_true(strlen(err.msg) < 200);
		assert_null(strstr(err.msg, "more"));
	}
	/* two bad lines: both named */
	{
		size_t len;
		char *text = line_of("bs", "1", 1500, &len);
		char *two = NULL;

		assert_true(asprintf(&two, "%.*srw=%0*d\n", (int)len, text, 2000, 7) > 0);
		assert_int_not_equal(parse_fail(two, strlen(two), &err), 0);
		expect_has(err.msg, "t.fio:2: bs=1111");
		expect_has(err.msg, "(1500 bytes)");
		expect_has(err.msg, "\nt.fio:3: rw=0000");
		expect_has(err.msg, "(2000 bytes): not a mode");
		free(text);
		free(two);
	}
}

/* n bytes of c, NUL-terminated (malloc'd). */
static char *run_of(char c, size_t n)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* err is one short line: starts with want_start, holds want_end. */
static void expect_short(const struct ioc_err *err, const char *want_start,
			 const char *want_end)
{
	print_message("%s\n", err->msg);
	assert_int_equal(strncmp(err->msg, want_start, strlen(want_start)), 0);
	expect_has(err->msg, want_end);
	assert_true(strlen(err->msg) < 600); /* the plan's lists its keys */
	assert_null(strchr(err->msg, '\n'));
}

/* H4 for names: a 1 MB unknown option name took the whole line, its
 * reason lost ("t.fio:3: xxxx...xxx..."); a 1 MB section name kept
 * "too long; accepted: at most 63 ch" cut short; a long key outside a
 * section, an unterminated header and a plan file's long key alike. */
static void test_long_bad_name_named(void **state)
{
	const size_t big = 1 << 20;
	char *name = run_of('k', big), *text = NULL;
	struct ioc_err err;

	(void)state;
	assert_true(asprintf(&text, "[j]\nrw=read\n%s=1\n", name) > 0);
	assert_int_equal(parse_fail(text, strlen(text), &err), -EINVAL);
	expect_short(&err, "t.fio:3: unknown option 'kkkk",
		     "k... (1048576 bytes)': not an option of fio");
	free(text);

	assert_true(asprintf(&text, "[%s]\nrw=read\n", name) > 0);
	assert_int_not_equal(parse_fail(text, strlen(text), &err), 0);
	expect_short(&err, "t.fio:1: name=kkkk",
		     "k... (1048576 bytes): too long; accepted: at most 63 characters");
	free(text);

	assert_true(asprintf(&text, "[%s\n", name) > 0);
	assert_int_not_equal(parse_fail(text, strlen(text), &err), 0);
	expect_short(&err, "t.fio:1: unterminated section header '[kkkk",
		     "k... (1048577 bytes)' (expected '[name]')");
	free(text);

	assert_true(asprintf(&text, "%s=1\n", name) > 0);
	assert_int_not_equal(parse_fail(text, strlen(text), &err), 0);
	expect_short(&err, "t.fio:1: option 'kkkk",
		     "k... (1048576 bytes)' outside a section");
	free(text);

	struct plan p;
	memset(&err, 0, sizeof(err));
	assert_true(asprintf(&text, "[s]\nrw=read\n%s=1\n", name) > 0);
	assert_int_not_equal(plan_parse(text, "t.ini", NULL, 0, &p, &err), 0);
	expect_short(&err, "t.ini:3: ", "k... (1048576 bytes)");
	free(text);
	free(name);
}

/* The command line too: a short line, the option and the reason. */
static void test_long_bad_value_cli(void **state)
{
	char *arg = malloc(3100);
	struct proc_out po;

	(void)state;
	assert_non_null(arg);
	strcpy(arg, "--rw=");
	memset(arg + 5, 'x', 3000);
	arg[3005] = '\0';
	run_iochar(&po, NULL, 0, ARGS("run", arg, "--parse-only"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "rw=xxxx");
	expect_has(po.err, "x... (3000 bytes): not a mode");
	assert_true(strlen(po.err) < 200);
	proc_out_free(&po);

	/* a filename too long for the kernel: by its start as well */
	strcpy(arg, "--filename=/dev/shm/");
	memset(arg + 20, 'x', 3000);
	arg[3020] = '\0';
	run_iochar(&po, NULL, 0, ARGS("run", arg, "--rw=read", "--size=1m"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "/dev/shm/xxxx");
	expect_has(po.err, "x... (3009 bytes): File name too long");
	assert_true(strlen(po.err) < 200);
	proc_out_free(&po);
	free(arg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_expansion_bounded, shmdir_setup,
					    tmpdir_teardown),
	    cmocka_unit_test(test_expansion_budget),
	    cmocka_unit_test(test_long_lines_linear),
	    cmocka_unit_test(test_long_bad_value_named),
	    cmocka_unit_test(test_long_bad_value_cli),
	    cmocka_unit_test(test_long_bad_name_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
