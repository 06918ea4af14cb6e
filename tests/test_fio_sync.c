/* test_fio_sync.c - fio's "sync" member (the flushes of fsync=N and
 * fdatasync=N) against fio 3.33 itself, the same 64 writes through both:
 *   - fsync=4: total_ios and lat_ns.N 15 in both (none after the last
 *     write), lat_ns with fio's members; json+ adds its bins in both.
 *   - fdatasync=4: total_ios 0 (fio counts fsync's only), N 15, in both.
 *   - the job's percentiles: percentile_list=50:99 gives those two keys,
 *     clat_percentiles=0 none, lat_percentiles=1 the list again, in both.
 *   - the normal output: fio's "fsync/fdatasync/sync_file_range:" and
 *     "sync (" lines exactly when fio prints them.
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

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

#define JOB "--name=j --filename=data --size=256k --bs=4k --rw=write --ioengine=psync "

/* The members of o, sorted, as "a,b,c,". */
static void members(json_object *o, char *out, size_t len)
{
	const char *k[64];
	size_t n = 0;
	out[0] = 0;
	if (!o)
		return;
	json_object_object_foreach(o, key, val) {
		(void)val;
		if (n < 64)
			k[n++] = key;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(k[i], k[j]) > 0) {
				const char *t = k[i];
				k[i] = k[j];
				k[j] = t;
			}
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s,", k[i]);
}

static void no_stderr(const char *dir, const char *opts)
{
	for (int t = 0; t < 2; t++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s/err.txt", dir, t ? "iochar" : "fio");
		char *err = file_slurp(path, NULL);
		assert_non_null(err);
		if (err[0])
			fail_msg("%s %s: stderr: %s", t ? "iochar" : "fio", opts, err);
		free(err);
	}
}

/* opts through both: sync's total_ios, lat_ns.N, lat_ns's members and
 * its percentile keys alike; returns iochar's lat_ns members in got. */
static void same_sync(const char *dir, const char *opts, uint64_t total, char *got, size_t len)
{
	json_object *doc[2];
	char m[2][512], p[2][512];
	side_run_both_json(dir, opts, &doc[0], &doc[1]);
	no_stderr(dir, opts);
	for (int t = 0; t < 2; t++) {
		json_object *job = json_object_array_get_idx(jget(doc[t], "jobs"), 0);
		json_object *lat = jget(job, "sync.lat_ns"), *pct = NULL;
		assert_non_null(lat);
		if (jget_u64(job, "sync.total_ios") != total || jget_u64(lat, "N") != 15)
			fail_msg("%s, %s: sync.total_ios %llu (not %llu), N %llu (not 15)",
				 t ? "iochar" : "fio", opts,
				 (unsigned long long)jget_u64(job, "sync.total_ios"),
				 (unsigned long long)total, (unsigned long long)jget_u64(lat, "N"));
		members(lat, m[t], sizeof(m[t]));
		json_object_object_get_ex(lat, "percentile", &pct);
		members(pct, p[t], sizeof(p[t]));
		json_object_put(doc[t]);
	}
	if (strcmp(m[0], m[1]) || strcmp(p[0], p[1]))
		fail_msg("%s: fio's sync.lat_ns has %s (percentiles %s), iochar's %s (%s)", opts,
			 m[0], p[0], m[1], p[1]);
	snprintf(got, len, "%s%s", m[1], p[1]);
}

static void test_counts(void **state)
{
	char got[1024];
	side_need_fio();
	same_sync(*state, JOB "--fsync=4", 15, got, sizeof(got));
	expect_has(got, "percentile,");
	same_sync(*state, JOB "--fsync=4 --output-format=json+", 15, got, sizeof(got));
	expect_has(got, "bins,");
	same_sync(*state, JOB "--fdatasync=4", 0, got, sizeof(got));
}

static void test_percentiles(void **state)
{
	char got[1024];
	side_need_fio();
	same_sync(*state, JOB "--fsync=4 --percentile_list=50:99", 15, got, sizeof(got));
	expect_has(got, "50.000000,99.000000,");
	same_sync(*state, JOB "--fsync=4 --clat_percentiles=0", 15, got, sizeof(got));
	assert_null(strstr(got, "percentile"));
	same_sync(*state, JOB "--fsync=4 --clat_percentiles=0 --lat_percentiles=1", 15, got,
		  sizeof(got));
	expect_has(got, "percentile,");
}

/* The normal output's flush lines, with and without flushes. */
static void test_normal(void **state)
{
	static const char *const marks[] = {"  fsync/fdatasync/sync_file_range:\n",
					    "    sync ("};
	static const char *const jobs[] = {JOB "--fsync=4", JOB};
	char cmd[8192], path[4300];
	side_need_fio();
	for (int c = 0; c < 2; c++) {
		char *out[2];
		for (int t = 0; t < 2; t++) {
			bool fio = t == 0;
			snprintf(cmd, sizeof(cmd),
				 "mkdir -p '%s/n%d' && cd '%s/n%d' && timeout 60 %s%s %s "
				 "--output-format=normal > out.txt 2> err.txt",
				 (const char *)*state, t, (const char *)*state, t,
				 fio ? "fio" : iochar_path(), fio ? "" : " run", jobs[c]);
			assert_int_equal(system(cmd), 0);
			snprintf(path, sizeof(path), "%s/n%d/out.txt", (const char *)*state, t);
			out[t] = file_slurp(path, NULL);
			assert_non_null(out[t]);
			snprintf(path, sizeof(path), "%s/n%d/err.txt", (const char *)*state, t);
			char *err = file_slurp(path, NULL);
			assert_non_null(err);
			assert_string_equal(err, "");
			free(err);
		}
		for (size_t k = 0; k < 2; k++) {
			bool in_fio = strstr(out[0], marks[k]), in_ioc = strstr(out[1], marks[k]);
			if (in_fio != in_ioc || in_fio != (c == 0))
				fail_msg("%s: \"%s\" in fio's: %d, in iochar's: %d", jobs[c], marks[k],
					 in_fio, in_ioc);
		}
		free(out[0]);
		free(out[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_counts, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_percentiles, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_normal, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
