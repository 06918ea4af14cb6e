/* test_fio_prio.c - fio's latency per I/O priority ("prios" in a
 * direction of its JSON) against fio 3.33 itself, the same job through
 * both, libaio and io_uring, at depth 4 over 1 MiB:
 *   - cmdprio_percentage=30, cmdprio_class=3: read's prios are the same
 *     (prioclass, prio) list in the same order as fio's (the job's own
 *     0/0 first), each entry fio's members (clat_ns with fio's keys), their
 *     N adding up to the direction's I/Os, the cmdprio share 15..45 %.
 *   - prioclass=2, prio=4 with cmdprio_class=3, cmdprio=1 on randrw:
 *     read's and write's lists as fio's (2/4, then 3/1).
 *   - cmdprio_bssplit with two classes of its own: fio's three entries in
 *     fio's order.
 *   - lat_percentiles=1: the entries carry lat_ns; json+: their bins.
 *   - unified_rw_reporting=both: mixed carries the merged list too;
 *     group_reporting over numjobs=2: one list of both clones' I/Os.
 *   - without cmdprio (prioclass alone, libaio): no prios, as fio.
 *   - normal output: a "clat prio 3/0" line exactly when fio prints one.
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

#define JOB "--name=j --filename=data --size=1m --iodepth=4 "

/* What a direction's prios say, as "C/L:KEY:KEYS;..." (KEY the latency
 * block's name, KEYS its sorted members), and the sum of their N. */
static void prios_of(json_object *dir, char *out, size_t len, uint64_t *n_sum)
{
	json_object *prios;
	out[0] = 0;
	*n_sum = 0;
	if (!json_object_object_get_ex(dir, "prios", &prios))
		return;
	for (size_t i = 0; i < json_object_array_length(prios); i++) {
		json_object *p = json_object_array_get_idx(prios, i), *lat = NULL;
		const char *key = json_object_object_get_ex(p, "lat_ns", &lat) ? "lat_ns" : "clat_ns";
		if (!lat)
			json_object_object_get_ex(p, "clat_ns", &lat);
		assert_non_null(lat);
		snprintf(out + strlen(out), len - strlen(out), "%s%llu/%llu:%s:", i ? ";" : "",
			 (unsigned long long)jget_u64(p, "prioclass"),
			 (unsigned long long)jget_u64(p, "prio"), key);
		static const char *const members[] = {"N", "bins", "max", "mean",
						      "min", "percentile", "stddev"};
		for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++)
			if (json_object_object_get_ex(lat, members[m], NULL))
				snprintf(out + strlen(out), len - strlen(out), "%s,", members[m]);
		*n_sum += jget_u64(lat, "N");
	}
}

/* Run opts through both; for each direction in dirs (","-separated),
 * its prios must read the same in both and count every I/O; returns
 * iochar's description of the first (into first, len bytes). */
static void same_prios(const char *dir, const char *opts, const char *dirs, char *first,
		       size_t len)
{
	json_object *f, *i;
	char df[1024], di[1024], list[64];

	side_run_both_json(dir, opts, &f, &i);
	for (int t = 0; t < 2; t++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s/err.txt", dir, t ? "iochar" : "fio");
		char *err = file_slurp(path, NULL);
		assert_non_null(err);
		if (err[0])
			fail_msg("%s %s: stderr: %s", t ? "iochar" : "fio", opts, err);
		free(err);
	}
	snprintf(list, sizeof(list), "%s", dirs);
	first[0] = 0;
	for (char *save = NULL, *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		json_object *jf = json_object_array_get_idx(jget(f, "jobs"), 0);
		json_object *ji = json_object_array_get_idx(jget(i, "jobs"), 0);
		uint64_t nf, ni;
		prios_of(jget(jf, d), df, sizeof(df), &nf);
		prios_of(jget(ji, d), di, sizeof(di), &ni);
		if (strcmp(df, di))
			fail_msg("%s, %s.prios: fio %s, iochar %s", opts, d, df, di);
		char key[64];
		snprintf(key, sizeof(key), "%s.total_ios", d);
		if (df[0] && (nf != jget_u64(jf, key) || ni != jget_u64(ji, key)))
			fail_msg("%s, %s.prios: N sums fio %llu of %llu, iochar %llu of %llu", opts, d,
				 (unsigned long long)nf, (unsigned long long)jget_u64(jf, key),
				 (unsigned long long)ni, (unsigned long long)jget_u64(ji, key));
		if (!first[0])
			snprintf(first, len, "%s", di);
	}
	json_object_put(f);
	json_object_put(i);
}

static void test_percentage(void **state)
{
	static const char *const engines[] = {"libaio", "io_uring"};
	char opts[512], got[1024];
	side_need_fio();
	for (int e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts), JOB "--ioengine=%s --rw=randread --bs=4k "
			 "--cmdprio_percentage=30 --cmdprio_class=3", engines[e]);
		same_prios(*state, opts, "read,write", got, sizeof(got));
		expect_has(got, "0/0:clat_ns:");
		expect_has(got, ";3/0:clat_ns:");
		/* the share: iochar's own run, read again */
		json_object *i = side_json(*state, "iochar");
		json_object *p = jget(json_object_array_get_idx(jget(i, "jobs"), 0), "read.prios");
		double hi = (double)jget_u64(json_object_array_get_idx(p, 1), "clat_ns.N");
		if (hi < 0.15 * 256 || hi > 0.45 * 256)
			fail_msg("%s: %g of 256 I/Os at 3/0", engines[e], hi);
		json_object_put(i);
	}
}

static void test_job_prio_first(void **state)
{
	char got[1024];
	side_need_fio();
	same_prios(*state, JOB "--ioengine=libaio --rw=randrw --bs=4k --prioclass=2 --prio=4 "
		   "--cmdprio_percentage=50 --cmdprio_class=3 --cmdprio=1", "read,write", got,
		   sizeof(got));
	expect_has(got, "2/4:clat_ns:");
	expect_has(got, ";3/1:clat_ns:");
}

static void test_bssplit(void **state)
{
	char got[1024];
	side_need_fio();
	same_prios(*state, JOB "--ioengine=io_uring --rw=randread --bssplit=4k/50:16k/50 "
		   "--cmdprio_bssplit=4k/25/1/1:4k/25/3/2:16k/100/3/2", "read", got, sizeof(got));
	expect_has(got, "0/0:");
	expect_has(got, ";1/1:");
	expect_has(got, ";3/2:");
}

static void test_layouts(void **state)
{
	char got[1024];
	side_need_fio();
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --lat_percentiles=1", "read", got, sizeof(got));
	expect_has(got, "3/0:lat_ns:");
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --output-format=json+", "read", got, sizeof(got));
	expect_has(got, "3/0:clat_ns:N,bins,");
	same_prios(*state, JOB "--ioengine=libaio --rw=randrw --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --unified_rw_reporting=both", "read,write,mixed", got,
		   sizeof(got));
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --numjobs=2 --group_reporting", "read", got, sizeof(got));
	expect_has(got, ";3/0:");
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --prioclass=3", "read", got,
		   sizeof(got));
	assert_string_equal(got, "");
}

/* The normal output: fio's "clat prio C/L" lines, in both. */
static void test_normal(void **state)
{
	static const char *const opts =
	    JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		"--cmdprio_class=3 --output-format=normal";
	char cmd[8192], path[4300];
	side_need_fio();
	for (int t = 0; t < 2; t++) {
		bool fio = t == 0;
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s/n%d' && cd '%s/n%d' && timeout 60 %s%s %s > out.txt 2> err.txt",
			 (const char *)*state, t, (const char *)*state, t,
			 fio ? "fio" : iochar_path(), fio ? "" : " run", opts);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof(path), "%s/n%d/out.txt", (const char *)*state, t);
		char *out = file_slurp(path, NULL);
		assert_non_null(out);
		expect_has(out, "clat prio 0/0 (");
		expect_has(out, "clat prio 3/0 (");
		free(out);
		snprintf(path, sizeof(path), "%s/n%d/err.txt", (const char *)*state, t);
		char *err = file_slurp(path, NULL);
		assert_non_null(err);
		assert_string_equal(err, "");
		free(err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_percentage, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_job_prio_first, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_bssplit, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_layouts, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_normal, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
