/* test_fio_given.c - fio's "global options" and "job options" (the
 * options given, as given) against fio 3.33 itself: the same job files
 * and command lines through both, and in each JSON document the same
 * "global options" object and, job by job, the same "job options"
 * object, compared as text pairs in order (duplicates kept, as fio
 * writes a key given twice twice):
 *   - a [global] section and two jobs: fio's sort of a section's options
 *     (lockfile first, filename last, the rest in file order), aliases
 *     under fio's name (blocksize: bs), values as typed (4K), a bare key
 *     left out (stonewall), a job with none of its own without the member;
 *   - an engine's options after the job's others (userspace_reap), a key
 *     given twice, ${HOME} expanded, numjobs clones listing the same;
 *   - command lines: global options before the first --name, each job's
 *     own with its name, in the order given, engine options in place;
 *   - command-line options with a job file: the file's jobs start from
 *     them, listed as global options.
 * Every run: exit 0 and nothing on stderr in both. SKIP when fio is
 * missing.
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
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

/* The JSON string at *p (p at its opening quote) into out, escapes kept
 * as written; *p after its closing quote. */
static void read_string(const char **p, char *out, size_t len)
{
	size_t n = 0;
	const char *s = *p + 1;
	while (*s && *s != '"') {
		if (*s == '\\' && s[1]) {
			if (n + 1 < len)
				out[n++] = *s;
			s++;
		}
		if (n + 1 < len)
			out[n++] = *s;
		s++;
	}
	out[n] = 0;
	*p = *s ? s + 1 : s;
}

/* Every "key" object of text, in order, each as "k=v;k=v;...|" into
 * out: the pairs as written, duplicates and order kept. */
static void objects_of(const char *text, const char *key, char *out, size_t len)
{
	char want[64], k[512], v[512];
	const char *p = text;
	snprintf(want, sizeof(want), "\"%s\"", key);
	out[0] = 0;
	while ((p = strstr(p, want))) {
		p += strlen(want);
		p += strspn(p, " \t\n:");
		if (*p != '{')
			continue;
		p++;
		for (;;) {
			p += strspn(p, " \t\n,");
			if (*p != '"')
				break;
			read_string(&p, k, sizeof(k));
			p += strspn(p, " \t\n:");
			if (*p != '"')
				break;
			read_string(&p, v, sizeof(v));
			snprintf(out + strlen(out), len - strlen(out), "%s=%s;", k, v);
		}
		snprintf(out + strlen(out), len - strlen(out), "|");
	}
}

/* Run args (a job file and/or options) through both in dir/fio and
 * dir/iochar; their "global options" and "job options" must read alike.
 * Returns iochar's job options (malloc'd), for the caller's own checks. */
static char *same_given(const char *dir, const char *args)
{
	char *out[2];
	side_run_both(dir, args, &(int){0}, &(int){0});
	for (int t = 0; t < 2; t++) {
		char path[4200];
		const char *sub = t ? "iochar" : "fio";
		snprintf(path, sizeof(path), "%s/%s/rc", dir, sub);
		char *rc = file_slurp(path, NULL);
		assert_non_null(rc);
		if (atoi(rc) != 0)
			fail_msg("%s %s: exit %s", sub, args, rc);
		free(rc);
		snprintf(path, sizeof(path), "%s/%s/err.txt", dir, sub);
		char *err = file_slurp(path, NULL);
		assert_non_null(err);
		if (err[0])
			fail_msg("%s %s: stderr: %s", sub, args, err);
		free(err);
		snprintf(path, sizeof(path), "%s/%s/out.json", dir, sub);
		out[t] = file_slurp(path, NULL);
		assert_non_null(out[t]);
	}
	static char g[2][4096], j[2][8192];
	for (int t = 0; t < 2; t++) {
		objects_of(out[t], "global options", g[t], sizeof(g[t]));
		objects_of(out[t], "job options", j[t], sizeof(j[t]));
		free(out[t]);
	}
	if (strcmp(g[0], g[1]))
		fail_msg("%s: global options: fio %s, iochar %s", args, g[0], g[1]);
	if (strcmp(j[0], j[1]))
		fail_msg("%s: job options: fio %s, iochar %s", args, j[0], j[1]);
	return strdup(j[1]);
}

/* Write text to dir/fio/name and dir/iochar/name. */
static void job_file(const char *dir, const char *name, const char *text)
{
	for (int t = 0; t < 2; t++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", dir, t ? "iochar" : "fio");
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%s/%s", dir, t ? "iochar" : "fio", name);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		assert_int_equal(fclose(f), 0);
	}
}

static void test_sections(void **state)
{
	side_need_fio();
	job_file(*state, "g.fio",
		 "[global]\nfilename=data\nsize=64k\nbs=4K\nioengine=psync\nrw=randread\n"
		 "lockfile=none\ntime_based=0\n"
		 "[first]\nrw=read\nblocksize=8k\n"
		 "[second]\ndescription=two words\nrwmixread=70\nrw=randrw\nstonewall\n"
		 "[third]\n");
	char *j = same_given(*state, "g.fio");
	expect_has(j, "rw=read;bs=8k;|");
	free(j);
}

static void test_engine_and_repeats(void **state)
{
	side_need_fio();
	job_file(*state, "k.fio",
		 "[global]\nfilename=data\nsize=64k\n"
		 "[a]\nioengine=libaio\nuserspace_reap=1\niodepth=2\nnumjobs=2\n"
		 "bs=4k\nbs=8k\nrw=randread\ntime_based=1\nruntime=100ms\n"
		 "description=${HOME}\n");
	char *j = same_given(*state, "k.fio");
	expect_has(j, "bs=4k;bs=8k;");
	expect_has(j, "userspace_reap=1;|");
	free(j);
}

static void test_command_lines(void **state)
{
	side_need_fio();
	free(same_given(*state, "--name=x --filename=data --size=64k --ioengine=libaio "
				"--userspace_reap=1 --bs=4k --lockfile=none"));
	free(same_given(*state, "--filename=data --size=64k --ioengine=libaio --userspace_reap=1 "
				"--name=x --bs=4k --time_based --runtime=100ms"));
	char *j = same_given(*state, "--filename=data --size=64k --name=x --bs=4k --name=y "
				     "--readwrite=write");
	expect_has(j, "name=y;rw=write;|");
	free(j);
}

static void test_file_with_command_line(void **state)
{
	side_need_fio();
	job_file(*state, "p.fio", "[global]\nbs=8k\n[plain]\n[sized]\nsize=32k\n");
	free(same_given(*state, "p.fio --filename=data --size=64k"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_sections, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_engine_and_repeats, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_command_lines, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_file_with_command_line, tmpdir_setup,
					    tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
