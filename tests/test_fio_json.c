/* test_fio_json.c - iochar's run JSON holds fio's layout: the same job
 * run through fio 3.33 (Debian's) and through iochar, every path fio
 * writes (outside the few iochar does not measure yet, listed here and in
 * docs/output.md) is in iochar's document with a value of the same JSON
 * type, the percentile keys are fio's, a size-bounded job issues the same
 * number of I/Os in both, and fio's own fio_jsonplus_clat2csv reads and
 * validates iochar's json+; in rate-limited runs fio's figures are
 * iochar's service times, from submission as fio counts. SKIP when fio is not installed; CI installs
 * it (scripts/deps.sh). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* fio paths iochar does not write yet (docs/output.md, "fio's layout"):
 * none left (disk_util[] is checked in test_fio_disk.c too). */
static const char *const not_yet[] = {
	NULL,
};

static bool skipped(const char *path)
{
	for (unsigned i = 0; not_yet[i]; i++)
		if (!strncmp(path, not_yet[i], strlen(not_yet[i])))
			return true;
	return false;
}

static bool same_kind(json_object *a, json_object *b)
{
	json_type ta = json_object_get_type(a), tb = json_object_get_type(b);
	bool na = ta == json_type_int || ta == json_type_double;
	bool nb = tb == json_type_int || tb == json_type_double;
	return ta == tb || (na && nb);
}

/* Every path of fio's document f under path is in iochar's i; arrays are
 * compared by their first element, "percentile" and "bins" by value
 * type only (their keys are checked apart). Returns how many were found. */
static unsigned walk(json_object *f, json_object *i, const char *path)
{
	char p[512];
	unsigned n = 0;
	if (skipped(path))
		return 0;
	if (!i || !same_kind(f, i))
		fail_msg("fio's %s is missing or of another type in iochar's JSON", path);
	n++;
	if (json_object_is_type(f, json_type_array)) {
		snprintf(p, sizeof(p), "%s[]", path);
		if (json_object_array_length(f) && !skipped(p))
			n += walk(json_object_array_get_idx(f, 0),
				  json_object_array_length(i) ? json_object_array_get_idx(i, 0) : NULL, p);
		return n;
	}
	if (!json_object_is_type(f, json_type_object))
		return n;
	const char *last = strrchr(path, '.');
	if (last && (!strcmp(last, ".bins") || !strcmp(last, ".percentile")))
		return n;
	json_object_object_foreach(f, key, v)
	{
		json_object *iv = NULL;
		snprintf(p, sizeof(p), "%s.%s", path, key);
		json_object_object_get_ex(i, key, &iv);
		n += walk(v, iv, p);
	}
	return n;
}

static json_object *run_fio(const char *dir, const char *file, const char *out)
{
	char cmd[16384];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && fio --name=j1 --filename='%s' --size=8m --rw=randrw --bs=4k "
		 "--ioengine=psync --output-format=json+ --output='%s' >/dev/null 2>&1",
		 dir, file, out);
	assert_int_equal(system(cmd), 0);
	json_object *o = json_object_from_file(out);
	assert_non_null(o);
	return o;
}

static void test_same_paths_as_fio(void **state)
{
	const char *dir = *state;
	char ff[4200], fout[4200], ifile[4200], fn[4300], iout[4300];
	struct proc_out po;

	if (system("command -v fio >/dev/null 2>&1"))
		skip(); /* scripts/deps.sh installs it */
	snprintf(ff, sizeof(ff), "%s/fio.dat", dir);
	snprintf(fout, sizeof(fout), "%s/fio.json", dir);
	json_object *f = run_fio(dir, ff, fout);

	snprintf(ifile, sizeof(ifile), "%s/iochar.dat", dir);
	snprintf(fn, sizeof(fn), "--filename=%s", ifile);
	snprintf(iout, sizeof(iout), "--output=%s/iochar.json", dir);
	run_iochar(&po, dir, 0, ARGS("run", "--name=j1", fn, "--size=8m", "--rw=randrw", "--bs=4k",
				     "--ioengine=psync", "--output-format=json+", iout));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(iout, sizeof(iout), "%s/iochar.json", dir);
	json_object *i = json_object_from_file(iout);
	assert_non_null(i);

	unsigned n = walk(f, i, "");
	/* fio writes some 260 paths for one job, some 40 of them not_yet */
	if (n < 185)
		fail_msg("only %u of fio's paths compared", n);

	/* fio's percentile list, key for key */
	json_object *fp = jget(json_object_array_get_idx(jget(f, "jobs"), 0), "read.clat_ns.percentile");
	json_object *ip = jget(json_object_array_get_idx(jget(i, "jobs"), 0), "read.clat_ns.percentile");
	assert_int_equal(json_object_object_length(fp), json_object_object_length(ip));
	json_object_object_foreach(fp, key, v)
	{
		(void)v;
		json_object *x;
		if (!json_object_object_get_ex(ip, key, &x))
			fail_msg("fio's percentile \"%s\" is not in iochar's", key);
	}

	/* the same size-bounded job issues the same I/Os: 8 MiB of 4 KiB */
	json_object *fj = json_object_array_get_idx(jget(f, "jobs"), 0);
	json_object *ij = json_object_array_get_idx(jget(i, "jobs"), 0);
	uint64_t fios = jget_u64(fj, "read.total_ios") + jget_u64(fj, "write.total_ios");
	uint64_t iios = jget_u64(ij, "read.total_ios") + jget_u64(ij, "write.total_ios");
	assert_int_equal(fios, 2048);
	assert_int_equal(iios, fios);
	assert_int_equal(jget_u64(ij, "read.clat_ns.N"), jget_u64(ij, "read.total_ios"));
	assert_string_equal(json_object_get_string(jget(ij, "job options.rw")), "randrw");
	assert_string_equal(json_object_get_string(jget(ij, "job options.bs")), "4k");
	assert_string_equal(json_object_get_string(jget(ij, "jobname")), "j1");
	json_object_put(f);
	json_object_put(i);
}

/* fio's own json+ reader takes iochar's bins and validates its CSV. */
static void test_jsonplus_clat2csv(void **state)
{
	const char *dir = *state;
	char fn[4300], iout[4300], cmd[9000];
	struct proc_out po;

	if (system("command -v fio_jsonplus_clat2csv >/dev/null 2>&1"))
		skip(); /* in Debian's fio package */
	snprintf(fn, sizeof(fn), "--filename=%s/c.dat", dir);
	snprintf(iout, sizeof(iout), "--output=%s/c.json", dir);
	run_iochar(&po, dir, 0, ARGS("run", fn, "--size=4m", "--rw=randread", "--bs=4k",
				     "--ioengine=psync", "--output-format=json+", iout));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && fio_jsonplus_clat2csv c.json c.csv >/dev/null && "
		 "fio_jsonplus_clat2csv --validate c.json c.csv | grep -q validated",
		 dir);
	assert_int_equal(system(cmd), 0);
	/* the CSV's last cumulative count is every read iochar made */
	snprintf(cmd, sizeof(cmd), "%s/c_job0.csv", dir);
	FILE *csv = fopen(cmd, "r");
	assert_non_null(csv);
	char line[4096], last[4096] = "";
	while (fgets(line, sizeof(line), csv))
		if (line[0] >= '0' && line[0] <= '9' && strstr(line, ", "))
			strcpy(last, line);
	fclose(csv);
	unsigned long ns, count, cum;
	assert_int_equal(sscanf(last, "%lu, , , , %lu, %lu,", &ns, &count, &cum), 3);
	assert_int_equal(cum, 1024);
}

/* json without the plus has no bins; an unknown format is refused. */
static void test_plain_json_has_no_bins(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("run", "--ioengine=null", "--size=1m", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *o = parse_json(&po);
	json_object *j = json_object_array_get_idx(jget(o, "jobs"), 0);
	json_object *b;
	assert_false(json_object_object_get_ex(jget(j, "read.clat_ns"), "bins", &b));
	assert_int_equal(jget_u64(j, "read.total_ios"), 256);
	expect_has(json_object_get_string(jget(o, "fio version")), "iochar");
	json_object_put(o);
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("run", "--ioengine=null", "--size=1m", "--output-format=json++"));
	expect_exit(&po, 2);
	expect_has(po.err, "json++");
	proc_out_free(&po);
}

/* fio counts from submission: in a rate-limited run fio's lat_ns is
 * iochar's service time, not its response time from the schedule. */
static void test_rate_limited_counts_from_submission(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("run", "--ioengine=null", "--size=1m", "--rate_iops=2000",
				      "--runtime=500ms", "--time_based", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *o = parse_json(&po);
	json_object *j = json_object_array_get_idx(jget(o, "jobs"), 0);
	assert_int_equal(jget_u64(j, "read.lat_ns.N"), jget_u64(o, "read.ios"));
	assert_int_equal(jget_u64(j, "read.lat_ns.max"), jget_u64(o, "read.service_latency.max"));
	/* the null engine queues: lat splits into slat and clat (test_fio_slat.c) */
	assert_int_equal(jget_u64(j, "read.clat_ns.N"), jget_u64(o, "read.ios"));
	assert_int_equal(jget_u64(j, "read.slat_ns.N"), jget_u64(o, "read.ios"));
	assert_true(jget_u64(j, "read.clat_ns.max") <= jget_u64(j, "read.lat_ns.max"));
	json_object_put(o);
	proc_out_free(&po);
}

/* "job options".rw is fio's echo of the option, modifier and all
 * (randread:8, write:4k, read:-8k), checked against fio's own document;
 * iochar's own options[] keep the mode apart from the modifier. */
static void test_rw_modifier_echo(void **state)
{
	static const char *const rws[] = {"randread:8", "write:4k", "read:-8k"};
	const char *dir = *state;
	char cmd[9000], out[4200], opt[64];
	struct proc_out po;

	if (system("command -v fio >/dev/null 2>&1"))
		skip(); /* scripts/deps.sh installs it */
	snprintf(out, sizeof(out), "%s/rw.json", dir);
	for (size_t k = 0; k < sizeof(rws) / sizeof(rws[0]); k++) {
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && fio --name=j --ioengine=null --size=64k --rw=%s "
			 "--output-format=json --output='%s' >/dev/null 2>&1",
			 dir, rws[k], out);
		assert_int_equal(system(cmd), 0);
		json_object *f = json_object_from_file(out);
		assert_non_null(f);
		snprintf(opt, sizeof(opt), "--rw=%s", rws[k]);
		run_iochar(&po, NULL, 0, ARGS("run", "--name=j", "--ioengine=null", "--size=64k",
					      opt, "--output-format=json"));
		expect_exit(&po, 0);
		json_object *i = parse_json(&po);
		const char *fr = json_object_get_string(
		    jget(json_object_array_get_idx(jget(f, "jobs"), 0), "job options.rw"));
		const char *ir = json_object_get_string(
		    jget(json_object_array_get_idx(jget(i, "jobs"), 0), "job options.rw"));
		assert_string_equal(fr, rws[k]);
		assert_string_equal(ir, fr);
		json_object *io = json_object_array_get_idx(jget(i, "options"), 0);
		assert_int_equal(strcspn(rws[k], ":"), strlen(json_object_get_string(jget(io, "rw"))));
		if (k == 0)
			assert_int_equal(jget_u64(io, "rw_modifier"), 8);
		else
			assert_int_equal(json_object_get_int64(jget(io, "rw_hole")),
					 k == 1 ? 4096 : -8192);
		json_object_put(f);
		json_object_put(i);
		proc_out_free(&po);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_paths_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_jsonplus_clat2csv, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_plain_json_has_no_bins),
		cmocka_unit_test(test_rate_limited_counts_from_submission),
		cmocka_unit_test_setup_teardown(test_rw_modifier_echo, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("fio_json", tests, NULL, NULL);
}
