/* test_fio_errors.c - continue_on_error and ignore_error against fio 3.33
 * itself. The error is a reproducible one: 16 MiB of 64 KiB writes
 * (fallocate=none) into an 8 MiB tmpfs of the test's own, so the first
 * 128 writes fit and every later one fails with ENOSPC (28). The same job
 * through both, each alone on the emptied tmpfs:
 *   - errors passed over (continue_on_error=write with ignore_error=,ENOSPC;
 *     =read with it, since a class given a list is continued; =all with
 *     ENOSPC listed for reads and writes; io in a job file): exit 0,
 *     nothing on stderr, JSON error 28, total_err 128, first_error 28,
 *     write.total_ios 256 (the failed ones too), 8 MiB written, 128
 *     latency samples, in both;
 *   - errors that stop the job (continue_on_error=write alone: ENOSPC is
 *     not in fio's default EIO, EILSEQ; ignore_error then
 *     continue_on_error=read, which replaces the classes): exit 1 and a
 *     message naming the error in both; iochar's JSON total_err 1, the
 *     failed write in total_ios (129), as fio's;
 *   - without continue_on_error: no total_err, first_error members;
 *   - terse: the two error fields at the end of the line, as fio's;
 *     normal: fio's "errors" line (total=128, first_error=28);
 *   - error_dump=1: a line on stderr per error passed over (128), each
 *     naming ENOSPC's text, in both; still exit 0;
 *   - bad values: an unknown class, an unknown error name: refused (exit
 *     2, one line naming the option).
 * SKIP when fio is missing or a tmpfs cannot be mounted (needs root).
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"

#define JOB "--name=w --filename=d.dat --size=16m --bs=64k --rw=write --fallocate=none "

static int setup(void **state)
{
	return scratch_setup(state, sizeof(struct scratch));
}

static void need_tmpfs(struct scratch *s)
{
	side_need_fio();
	if (!is_root() || !scratch_mount(s, "mnt", "tmpfs", "tmpfs", "size=8m")) {
		print_message("SKIP: cannot mount a tmpfs (needs root)\n");
		skip();
	}
}

/* Run tool with args in the emptied tmpfs, stdout to dir/NAME.out and
 * stderr to dir/NAME.err (NAME: fio or ioc); the exit status. */
static int run(struct scratch *s, const char *tool, const char *args)
{
	char cmd[8192];
	bool fio = !strcmp(tool, "fio");
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && rm -f d.dat && timeout 60 %s%s %s > '%s/%s.out' 2> '%s/%s.err'",
		 s->mnt, fio ? "fio" : iochar_path(), fio ? "" : " run", args, s->dir,
		 fio ? "fio" : "ioc", s->dir, fio ? "fio" : "ioc");
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(struct scratch *s, const char *tool, const char *ext)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s.%s", s->dir, strcmp(tool, "fio") ? "ioc" : "fio", ext);
	char *t = file_slurp(path, NULL);
	assert_non_null(t);
	return t;
}

/* The JSON document in tool's stdout (fio may print a line before it). */
static json_object *doc_of(struct scratch *s, const char *tool)
{
	char *out = slurp(s, tool, "out");
	char *brace = strstr(out, "\n{");
	json_object *d = json_tokener_parse(out[0] == '{' ? out : brace ? brace + 1 : out);
	free(out);
	if (!d)
		fail_msg("%s: no JSON on stdout", tool);
	return d;
}

struct want {
	int rc;
	uint64_t total_err, total_ios;
};

/* args through both: the exit status, stderr (empty when 0), and the
 * JSON's error figures as w says. */
static void same_errors(struct scratch *s, const char *args, const struct want *w)
{
	for (int t = 0; t < 2; t++) {
		const char *tool = t ? "iochar" : "fio";
		int rc = run(s, tool, args);
		char *err = slurp(s, tool, "err");
		if (rc != w->rc)
			fail_msg("%s %s: exit %d, not %d (stderr: %s)", tool, args, rc, w->rc, err);
		if (!rc && err[0])
			fail_msg("%s %s: stderr: %s", tool, args, err);
		if (rc)
			expect_has(err, "No space left on device");
		free(err);
		if (rc && !t)
			continue; /* fio's JSON of a failed job: checked on iochar's */
		json_object *d = doc_of(s, tool);
		json_object *j = json_object_array_get_idx(jget(d, "jobs"), 0);
		uint64_t te = jget_u64(j, "total_err"), fe = jget_u64(j, "first_error");
		uint64_t ios = jget_u64(j, "write.total_ios"), e = jget_u64(j, "error");
		if (te != w->total_err || fe != 28 || ios != w->total_ios || e != 28)
			fail_msg("%s %s: total_err %llu first_error %llu total_ios %llu error %llu",
				 tool, args, (unsigned long long)te, (unsigned long long)fe,
				 (unsigned long long)ios, (unsigned long long)e);
		if (!rc && (jget_u64(j, "write.io_bytes") != 8 << 20 ||
			    jget_u64(j, "write.clat_ns.N") != 128))
			fail_msg("%s %s: %llu bytes, %llu samples", tool, args,
				 (unsigned long long)jget_u64(j, "write.io_bytes"),
				 (unsigned long long)jget_u64(j, "write.clat_ns.N"));
		json_object_put(d);
	}
}

static void test_passed_over(void **state)
{
	struct scratch *s = *state;
	static const struct want go = {0, 128, 256};
	need_tmpfs(s);
	same_errors(s, JOB "--continue_on_error=write --ignore_error=,ENOSPC --output-format=json",
		    &go);
	same_errors(s, JOB "--continue_on_error=read --ignore_error=,ENOSPC --output-format=json",
		    &go);
	same_errors(s, JOB "--continue_on_error=all --ignore_error=ENOSPC,ENOSPC "
		    "--output-format=json", &go);
	/* a job file: its own path, written beside the fixture's outputs */
	char path[4300], args[4400];
	snprintf(path, sizeof(path), "%s/io.fio", s->dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("[w]\nfilename=d.dat\nsize=16m\nbs=64k\nrw=write\nfallocate=none\n"
	      "continue_on_error=io\nignore_error=EIO,28\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "'%s' --output-format=json", path);
	same_errors(s, args, &go);
}

static void test_stopped(void **state)
{
	struct scratch *s = *state;
	static const struct want stop = {1, 1, 129};
	need_tmpfs(s);
	same_errors(s, JOB "--continue_on_error=write --output-format=json", &stop);
	same_errors(s, JOB "--ignore_error=,ENOSPC --continue_on_error=read --output-format=json",
		    &stop);
	/* without continue_on_error fio writes neither member */
	for (int t = 0; t < 2; t++) {
		const char *tool = t ? "iochar" : "fio";
		assert_int_equal(run(s, tool, JOB "--size=4m --output-format=json"), 0);
		json_object *d = doc_of(s, tool);
		json_object *j = json_object_array_get_idx(jget(d, "jobs"), 0);
		assert_false(json_object_object_get_ex(j, "total_err", NULL));
		assert_false(json_object_object_get_ex(j, "first_error", NULL));
		json_object_put(d);
	}
}

static void test_terse_normal(void **state)
{
	struct scratch *s = *state;
	need_tmpfs(s);
	for (int t = 0; t < 2; t++) {
		const char *tool = t ? "iochar" : "fio";
		assert_int_equal(run(s, tool, JOB "--continue_on_error=write "
				     "--ignore_error=,ENOSPC --minimal"), 0);
		char *out = slurp(s, tool, "out");
		char *nl = strchr(out, '\n');
		if (nl)
			*nl = 0;
		size_t n = strlen(out);
		if (n < 7 || strcmp(out + n - 7, ";128;28"))
			fail_msg("%s's terse line ends %s", tool, n > 20 ? out + n - 20 : out);
		free(out);
		assert_int_equal(run(s, tool, JOB "--continue_on_error=write "
				     "--ignore_error=,ENOSPC"), 0);
		out = slurp(s, tool, "out");
		expect_has(out, "errors");
		expect_has(out, ": total=128, first_error=28/<No space left on device>");
		free(out);
	}
}

static void test_error_dump(void **state)
{
	struct scratch *s = *state;
	need_tmpfs(s);
	for (int t = 0; t < 2; t++) {
		const char *tool = t ? "iochar" : "fio";
		assert_int_equal(run(s, tool, JOB "--continue_on_error=write --ignore_error=,ENOSPC "
				     "--error_dump=1 --output-format=json"), 0);
		char *err = slurp(s, tool, "err");
		unsigned n = 0;
		for (char *p = err; (p = strstr(p, "No space left on device")); p++)
			n++;
		if (count_lines(err) != 128 || n != 128)
			fail_msg("%s: %u lines on stderr, %u naming ENOSPC, not 128", tool,
				 count_lines(err), n);
		free(err);
	}
}

static void test_bad_values(void **state)
{
	struct scratch *s = *state;
	static const char *const bad[] = {"--continue_on_error=some", "--ignore_error=ENOTANERR"};
	need_tmpfs(s);
	for (size_t k = 0; k < 2; k++) {
		char args[512];
		snprintf(args, sizeof(args), JOB "%s", bad[k]);
		assert_int_not_equal(run(s, "fio", args), 0);
		assert_int_equal(run(s, "iochar", args), 2);
		char *err = slurp(s, "iochar", "err");
		assert_int_equal(count_lines(err), 1);
		expect_has(err, k ? "ignore_error" : "continue_on_error");
		free(err);
		char path[4300];
		snprintf(path, sizeof(path), "%s/d.dat", s->mnt);
		assert_false(file_exists(path)); /* refused before anything was written */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_passed_over, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_stopped, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_terse_normal, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_error_dump, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_values, setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
