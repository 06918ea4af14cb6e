/* test_fio_unified.c - unified_rw_reporting against fio 3.33 itself,
 * the same job through both (a 50/50 randrw of 64 I/Os, psync):
 *   - JSON, for none, mixed, both and their former spellings 0, 1, 2:
 *     jobs[0] has the same direction members as fio's (read, write,
 *     trim, sync; "mixed" alone, without sync; or all and then mixed),
 *     the mixed object fio's members, and the same counts in it (all 64
 *     I/Os, 256 KiB, 64 clat and lat samples) and, with both, read's and
 *     write's I/Os adding up to it; exit 0 and nothing on stderr, both.
 *   - group_reporting over numjobs=2 with mixed: one entry, 128 I/Os.
 *   - terse: as many fields as fio's (130, 89, 171), the mixed I/O KiB
 *     where fio puts it (read's place, or after write's with both).
 *   - normal: a "mixed:" job line and a "  MIXED:" group line exactly
 *     when fio prints them, the directions' lines exactly when fio's
 *     (iochar's own "All jobs" totals after them aside).
 *   - a bad value: refused by both, iochar in one line naming it, exit 2.
 * SKIP when fio is missing.
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

#include "fio_side.h"
#include "harness.h"

#define JOB "--name=j --filename=data --size=256k --bs=4k --rw=randrw --ioengine=psync "

/* The members of jobs[0] of doc among the directions', in order, as
 * "read,write,...". */
static void dir_members(json_object *doc, char *out, size_t len)
{
	static const char *const dirs[] = {"read", "write", "trim", "sync", "mixed"};
	json_object *job = json_object_array_get_idx(jget(doc, "jobs"), 0);
	out[0] = 0;
	assert_non_null(job);
	json_object_object_foreach(job, key, val) {
		(void)val;
		for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
			if (!strcmp(key, dirs[d]))
				snprintf(out + strlen(out), len - strlen(out), "%s%s",
					 out[0] ? "," : "", key);
	}
}

/* The keys of object o, sorted, as "a,b,c". */
static void keys_of(json_object *o, char *out, size_t len)
{
	const char *k[64];
	size_t n = 0;
	json_object_object_foreach(o, key, val) {
		(void)val;
		if (n < 64)
			k[n++] = key;
	}
	out[0] = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(k[i], k[j]) > 0) {
				const char *t = k[i];
				k[i] = k[j];
				k[j] = t;
			}
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? "," : "", k[i]);
}

/* The stderr a side_run left in dir/sub. */
static char *side_err(const char *dir, const char *sub)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s/err.txt", dir, sub);
	char *s = file_slurp(path, NULL);
	assert_non_null(s);
	return s;
}

static void check_mode(const char *dir, const char *mode)
{
	char opts[512], df[128], di[128], kf[1024], ki[1024];
	int rf, ri;

	snprintf(opts, sizeof(opts), JOB "--unified_rw_reporting=%s", mode);
	side_run_both(dir, opts, &rf, &ri);
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	for (int t = 0; t < 2; t++) {
		char *err = side_err(dir, t ? "iochar" : "fio");
		if (err[0])
			fail_msg("%s, unified_rw_reporting=%s: stderr: %s", t ? "iochar" : "fio",
				 mode, err);
		free(err);
	}
	json_object *f = side_json(dir, "fio"), *i = side_json(dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	dir_members(f, df, sizeof(df));
	dir_members(i, di, sizeof(di));
	if (strcmp(df, di))
		fail_msg("unified_rw_reporting=%s: fio has %s, iochar %s", mode, df, di);
	if (strstr(df, "mixed")) {
		json_object *jf = json_object_array_get_idx(jget(f, "jobs"), 0);
		json_object *ji = json_object_array_get_idx(jget(i, "jobs"), 0);
		keys_of(jget(jf, "mixed"), kf, sizeof(kf));
		keys_of(jget(ji, "mixed"), ki, sizeof(ki));
		assert_string_equal(ki, kf);
		static const char *const same[] = {"mixed.total_ios", "mixed.io_bytes",
						   "mixed.io_kbytes", "mixed.clat_ns.N",
						   "mixed.lat_ns.N"};
		for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
			if (jget_u64(jf, same[k]) != jget_u64(ji, same[k]))
				fail_msg("unified_rw_reporting=%s: %s fio %llu, iochar %llu",
					 mode, same[k], (unsigned long long)jget_u64(jf, same[k]),
					 (unsigned long long)jget_u64(ji, same[k]));
		assert_int_equal(jget_u64(ji, "mixed.total_ios"), 64);
		assert_int_equal(jget_u64(ji, "mixed.io_bytes"), 256 * 1024);
		if (strstr(df, "read")) /* both: the directions add up to it */
			for (int t = 0; t < 2; t++) {
				json_object *j = t ? ji : jf;
				assert_int_equal(jget_u64(j, "read.total_ios") +
							 jget_u64(j, "write.total_ios"),
						 jget_u64(j, "mixed.total_ios"));
			}
	}
	json_object_put(f);
	json_object_put(i);
}

static void test_json_modes(void **state)
{
	static const char *const modes[] = {"none", "mixed", "both", "0", "1", "2"};
	side_need_fio();
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		check_mode(*state, modes[m]);
}

/* A mixed group of two clones: one entry holding both clones' I/Os. */
static void test_group_mixed(void **state)
{
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(*state, JOB "--numjobs=2 --group_reporting --unified_rw_reporting=mixed",
			   &f, &i);
	for (int t = 0; t < 2; t++) {
		json_object *jobs = jget(t ? i : f, "jobs");
		assert_int_equal(json_object_array_length(jobs), 1);
		assert_int_equal(jget_u64(json_object_array_get_idx(jobs, 0), "mixed.total_ios"),
				 128);
	}
	json_object_put(f);
	json_object_put(i);
}

/* Run tool with opts in dir/sub: its stdout (malloc'd), exit status in
 * *rc, and fail on anything on stderr. */
static char *run_out(const char *tool, const char *dir, const char *sub, const char *opts,
		     int *rc)
{
	char cmd[8192], path[4300];
	bool fio = !strcmp(tool, "fio");
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/%s' && cd '%s/%s' && timeout 60 %s%s %s > out.txt 2> err.txt",
		 dir, sub, dir, sub, fio ? "fio" : iochar_path(), fio ? "" : " run", opts);
	int st = system(cmd);
	*rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	snprintf(path, sizeof(path), "%s/%s/out.txt", dir, sub);
	char *out = file_slurp(path, NULL);
	assert_non_null(out);
	char *err = side_err(dir, sub);
	if (*rc == 0 && err[0])
		fail_msg("%s %s: stderr: %s", tool, opts, err);
	free(err);
	return out;
}

/* The number of ';'-separated fields of line s, and field n (1-based). */
static unsigned terse_fields(const char *s, unsigned n, unsigned long long *v)
{
	unsigned f = 1;
	*v = 0;
	for (const char *p = s; *p && *p != '\n'; p++) {
		if (f == n && p > s && p[-1] == ';')
			*v = strtoull(p, NULL, 10);
		f += *p == ';';
	}
	return f;
}

static void test_terse(void **state)
{
	static const struct {
		const char *mode;
		unsigned mixed_kib_field; /* 0: none */
	} cases[] = {{"none", 0}, {"mixed", 6}, {"both", 6 + 2 * 41}};
	char opts[512];
	side_need_fio();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned long long vf, vi;
		int rf, ri;
		snprintf(opts, sizeof(opts), JOB "--unified_rw_reporting=%s --minimal",
			 cases[c].mode);
		char *f = run_out("fio", *state, "fio", opts, &rf);
		char *i = run_out("iochar", *state, "iochar", opts, &ri);
		assert_int_equal(rf, 0);
		assert_int_equal(ri, 0);
		unsigned n = cases[c].mixed_kib_field ? cases[c].mixed_kib_field : 6;
		unsigned nf = terse_fields(f, n, &vf), ni = terse_fields(i, n, &vi);
		if (nf != ni)
			fail_msg("%s: fio's terse line has %u fields, iochar's %u", cases[c].mode,
				 nf, ni);
		if (cases[c].mixed_kib_field) {
			assert_int_equal(vf, 256);
			assert_int_equal(vi, 256);
		}
		free(f);
		free(i);
	}
}

/* The normal output: which of the mixed lines each prints. A think time
 * makes the run last some ms (a group line needs a run time). */
static void test_normal(void **state)
{
	static const char *const modes[] = {"none", "mixed", "both"};
	static const char *const marks[] = {"  mixed: ", "  MIXED: ", "   READ: ", "  WRITE: ",
					    "  read: ", "  write: "};
	char opts[512];
	side_need_fio();
	for (size_t m = 0; m < 3; m++) {
		int rf, ri;
		snprintf(opts, sizeof(opts), JOB "--thinktime=200 --unified_rw_reporting=%s",
			 modes[m]);
		char *f = run_out("fio", *state, "fio", opts, &rf);
		char *i = run_out("iochar", *state, "iochar", opts, &ri);
		assert_int_equal(rf, 0);
		assert_int_equal(ri, 0);
		char *own = strstr(i, "\nAll jobs ("); /* iochar's own totals follow */
		if (own)
			own[1] = 0;
		for (size_t k = 0; k < sizeof(marks) / sizeof(marks[0]); k++)
			if (!strstr(f, marks[k]) != !strstr(i, marks[k]))
				fail_msg("%s: \"%s\" in fio's output: %s, in iochar's: %s", modes[m],
					 marks[k], strstr(f, marks[k]) ? "yes" : "no",
					 strstr(i, marks[k]) ? "yes" : "no");
		assert_non_null(strstr(i, m ? "  MIXED: " : "   READ: "));
		free(f);
		free(i);
	}
}

static void test_bad_value(void **state)
{
	int rf, ri;
	side_need_fio();
	char *f = run_out("fio", *state, "fio", JOB "--unified_rw_reporting=bogus", &rf);
	char *i = run_out("iochar", *state, "iochar", JOB "--unified_rw_reporting=bogus", &ri);
	assert_int_not_equal(rf, 0);
	assert_int_equal(ri, 2);
	char *err = side_err(*state, "iochar");
	expect_has(err, "unified_rw_reporting=bogus");
	assert_int_equal(count_lines(err), 1);
	free(err);
	free(f);
	free(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_json_modes, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_group_mixed, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_terse, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_normal, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_value, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
