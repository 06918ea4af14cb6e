/* test_vd_cli.c - `iochar run --vd=...` end to end: every bad VD input is
 * one line naming the problem, exit 2, and no member created or changed;
 * members of different sizes run on the smallest and say so; a good run
 * reports per-member accounting and the amplification in its JSON; a
 * plan step over several VDs reports each VD's figures (per_target).
 */
#define _GNU_SOURCE
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
#include <unistd.h>

#include "harness.h"
#include "vd/def.h"

static char *dir;

static int setup(void **state)
{
	(void)state;
	dir = tmpdir_make();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(dir);
	return 0;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* "--vd=LEVELSPEC,members=dir/a:dir/b..." with names from `names`
 * (':'-separated short names). */
static void vd_opt(char *buf, size_t len, const char *spec, const char *names,
		   const char *extra)
{
	int at = snprintf(buf, len, "--vd=%s,members=", spec);
	char *copy = strdup(names), *save = NULL;
	bool first = true;
	for (char *t = strtok_r(copy, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
		at += snprintf(buf + at, len - (size_t)at, "%s%s/%s", first ? "" : ":", dir, t);
		first = false;
	}
	if (extra)
		snprintf(buf + at, len - (size_t)at, ",%s", extra);
	free(copy);
}

/* The first VD object of a run's JSON. */
static json_object *vd0(json_object *j)
{
	json_object *a = jget(j, "vd");
	assert_true(json_object_array_length(a) >= 1);
	return json_object_array_get_idx(a, 0);
}

/* Expect exit 2, one stderr line containing want, members x0..x5 absent. */
static void expect_bad(const char *opt, const char *want)
{
	struct proc_out po;
	const char *args[] = {"run", opt, "--size=4m", "--rw=randwrite", "--bs=4k",
			      "--runtime=1", NULL};
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 2);
	expect_has(po.err, want);
	assert_int_equal(count_lines(po.err), 1);
	assert_string_equal(po.out, "");
	for (int i = 0; i < 6; i++) {
		char p[4200];
		snprintf(p, sizeof(p), "%s/x%d", dir, i);
		if (exists(p))
			fail_msg("%s was created by a refused run", p);
	}
	proc_out_free(&po);
}

static void test_bad_inputs(void **state)
{
	(void)state;
	char o[8192];
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1", NULL);
	expect_bad(o, "raid5 needs at least 3 members, got 2");
	vd_opt(o, sizeof(o), "raid6,strip=64k", "x0:x1:x2", NULL);
	expect_bad(o, "raid6 needs at least 4 members");
	vd_opt(o, sizeof(o), "raid5,strip=48k", "x0:x1:x2", NULL);
	expect_bad(o, "not a power of two");
	vd_opt(o, sizeof(o), "raid5,strip=2k", "x0:x1:x2", NULL);
	expect_bad(o, "outside 4k..1m");
	vd_opt(o, sizeof(o), "raid5,strip=2m", "x0:x1:x2", NULL);
	expect_bad(o, "outside 4k..1m");
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x2:x3", "failed=0:2");
	expect_bad(o, "raid5 cannot survive losing 2 of its 4 members");
	vd_opt(o, sizeof(o), "raid6,strip=64k", "x0:x1:x2:x3:x4", "failed=0:1:4");
	expect_bad(o, "raid6 cannot survive losing 3");
	vd_opt(o, sizeof(o), "raid10,strip=64k", "x0:x1:x2:x3", "failed=2:3");
	expect_bad(o, "both halves of a mirrored pair");
	vd_opt(o, sizeof(o), "raid0,strip=64k", "x0:x1", "failed=1");
	expect_bad(o, "raid0 cannot survive losing 1");
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x2", "failed=5");
	expect_bad(o, "names member 5, but there are only 3 members");
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x0", NULL);
	expect_bad(o, "listed twice");
	/* issue 37 H15: cache=1t allocated 294 MB, then exit 1 */
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x2", "write=back,cache=1t");
	expect_bad(o, "--vd: cache=1t: out of range; accepted: 1m to 16g");
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x2", "cache=512k");
	expect_bad(o, "--vd: cache=512k: out of range; accepted: 1m to 16g");
	vd_opt(o, sizeof(o), "raid10,strip=64k", "x0:x1:x2", NULL);
	expect_bad(o, "raid10 needs at least 4 members");
	vd_opt(o, sizeof(o), "raid10,strip=64k", "x0:x1:x2:x3:x4:x5", "spans=2");
	expect_bad(o, "do not split evenly into 2 spans");
	vd_opt(o, sizeof(o), "raid7,strip=64k", "x0:x1:x2", NULL);
	expect_bad(o, "unknown level 'raid7'");
	vd_opt(o, sizeof(o), "raid5", "x0:x1:x2", NULL);
	expect_bad(o, "give strip=");
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x2", "bogus=1");
	expect_bad(o, "unknown key 'bogus'");
	vd_opt(o, sizeof(o), "raid5,strip=64k", "x0:x1:x2", "access=ro");
	expect_bad(o, "access=ro, but the job writes");
}

/* `vd --help` answers on stdout with every subcommand, ending its lines;
 * an unknown subcommand is named, with the usage, exit 2. */
static void test_help(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("vd", "--help"));
	expect_exit(&po, 0);
	expect_has(po.out, "iochar vd rebuild");
	expect_has(po.out, "iochar vd init");
	expect_has(po.out, "docs/vd.md");
	assert_true(strlen(po.out) > 0 && po.out[strlen(po.out) - 1] == '\n');
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("vd", "grow"));
	expect_exit(&po, 2);
	expect_has(po.err, "unknown subcommand 'grow'");
	assert_int_equal(strlen(po.out), 0);
	proc_out_free(&po);
}

/* The same file under two names: a symlink, a hard link. */
static void test_same_file_twice(void **state)
{
	(void)state;
	char a[4200], l[4200], h[4200], o[8192];
	snprintf(a, sizeof(a), "%s/real", dir);
	snprintf(l, sizeof(l), "%s/sym", dir);
	snprintf(h, sizeof(h), "%s/hard", dir);
	make_file(a, 1 << 20);
	assert_int_equal(symlink(a, l), 0);
	assert_int_equal(link(a, h), 0);
	uint64_t before = file_hash(a);
	vd_opt(o, sizeof(o), "raid5,strip=64k", "real:x0:sym", NULL);
	expect_bad(o, "are the same file");
	vd_opt(o, sizeof(o), "raid1,strip=64k", "hard:real", NULL);
	expect_bad(o, "are the same file");
	/* not yet existing, named through a different path */
	snprintf(o, sizeof(o), "--vd=raid1,strip=64k,members=%s/x0:%s/../%s/x0", dir, dir,
		 strrchr(dir, '/') + 1);
	expect_bad(o, "are the same file");
	assert_true(file_hash(a) == before);
}

/* Different sizes: the smallest is used, and stderr says so. A read run
 * needs no --force on files iochar did not create. */
static void test_sizes_differ(void **state)
{
	(void)state;
	char o[8192], p[4200];
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/s%d", dir, i);
		make_file(p, (1u << 20) + (unsigned)i * 65536);
	}
	vd_opt(o, sizeof(o), "raid5,strip=64k", "s0:s1:s2", NULL);
	struct proc_out po;
	const char *args[] = {"run", o, "--rw=randread", "--bs=4k", "--runtime=1",
			      "--output-format=json", NULL};
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 0);
	json_object *j = parse_json(&po);
	/* a note: in the JSON; stderr (no terminal) silent */
	expect_note(j, "differ in size; using the smallest (1048576 bytes)");
	assert_string_equal(po.err, "");
	assert_int_equal(jget_u64(vd0(j), "capacity"), 2u << 20);
	json_object_put(j);
	proc_out_free(&po);
}

/* A good run: JSON carries per-member figures and the amplification, and
 * for aligned 4k random writes on raid5 they are 2 reads + 2 writes. */
static void test_json_accounting(void **state)
{
	(void)state;
	char o[8192];
	vd_opt(o, sizeof(o), "raid5,strip=64k", "r0:r1:r2:r3", NULL);
	struct proc_out po;
	const char *args[] = {"run", o, "--size=6m", "--rw=randwrite", "--bs=4k",
			      "--runtime=1", "--time_based", "--iodepth=4",
			      "--output-format=json", NULL};
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 0);
	json_object *j = parse_json(&po);
	json_object *vd = vd0(j);
	assert_string_equal(json_object_get_string(jget(vd, "level")), "raid5");
	assert_int_equal(jget_u64(vd, "strip"), 65536);
	json_object *members = jget(vd, "members");
	assert_int_equal(json_object_array_length(members), 4);
	uint64_t host = jget_u64(vd, "host_ios");
	assert_true(host > 0);
	assert_true(jget_double(vd, "amplification.reads_per_host_io") == 2.0);
	assert_true(jget_double(vd, "amplification.writes_per_host_io") == 2.0);
	uint64_t sum = 0;
	for (size_t i = 0; i < 4; i++) {
		json_object *m = json_object_array_get_idx(members, i);
		sum += jget_u64(m, "write.ios");
		assert_true(jget_double(m, "write.lat_ns.mean") > 0);
		assert_true(jget_double(m, "write.iops") > 0);
	}
	assert_int_equal(sum, 2 * host);
	json_object_put(j);
	proc_out_free(&po);
}

/* verify=1 through a degraded raid6 finds every block it wrote. */
static void test_verify_degraded(void **state)
{
	(void)state;
	char o[8192];
	vd_opt(o, sizeof(o), "raid6,strip=16k", "v0:v1:v2:v3:v4", "failed=1:3");
	struct proc_out po;
	const char *args[] = {"run", o, "--size=4m", "--rw=randrw", "--bs=8k",
			      "--runtime=1", "--time_based", "--verify=1",
			      "--output-format=json", NULL};
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 0);
	json_object *j = parse_json(&po);
	assert_true(jget_u64(j, "verify.checked_units") > 0);
	assert_int_equal(jget_u64(j, "verify.failures"), 0);
	json_object_put(j);
	proc_out_free(&po);
}

static void run_ok(const char *const *args, struct proc_out *po)
{
	run_iochar(po, NULL, 0, args);
	expect_exit(po, 0);
}

/* A member is lost (overwritten with zeros: a new blank disk in its
 * place); vd rebuild regenerates it byte for byte, alone and while a
 * read-write workload runs on the VD. */
static void test_rebuild(void **state)
{
	(void)state;
	char o[8192], path[4200];
	struct proc_out po;
	vd_opt(o, sizeof(o), "raid6,strip=32k", "b0:b1:b2:b3:b4", NULL);
	const char *fill[] = {"run", o, "--size=6m", "--rw=write", "--bs=96k",
			      "--runtime=0", NULL};
	run_ok(fill, &po);
	proc_out_free(&po);
	for (int m = 1; m <= 3; m += 2) {
		snprintf(path, sizeof(path), "%s/b%d", dir, m);
		uint64_t before = file_hash(path);
		FILE *f = fopen(path, "r+");
		static char zeros[65536];
		for (int i = 0; i < 8; i++)
			fwrite(zeros, 1, sizeof(zeros), f);
		fclose(f);
		assert_true(file_hash(path) != before);
		char rep[32];
		snprintf(rep, sizeof(rep), "--replace=%d", m);
		const char *rb[] = {"vd", "rebuild", o, rep, "--output-format=json", NULL};
		run_ok(rb, &po);
		json_object *j = parse_json(&po);
		assert_true(jget_u64(j, "rebuild.bytes") > 0);
		assert_true(json_object_get_boolean(jget(j, "rebuild.verified")));
		json_object_put(j);
		proc_out_free(&po);
		assert_true(file_hash(path) == before);
	}
	/* while a workload writes: afterwards every row is consistent */
	const char *busy[] = {"vd", "rebuild", o, "--replace=0", "--rw=randrw",
			      "--bs=4k", "--iodepth=8", "--runtime=1",
			      "--output-format=json", NULL};
	run_ok(busy, &po);
	json_object *j = parse_json(&po);
	assert_int_equal(jget_u64(j, "rebuild.inconsistent_rows"), 0);
	assert_true(jget_double(j, "foreground.before.iops") > 0);
	assert_true(jget_double(j, "foreground.during.iops") > 0);
	json_object_put(j);
	proc_out_free(&po);
	/* bad input: no redundancy, out of range, another member failed */
	const char *bad1[] = {"vd", "rebuild", o, "--replace=7", NULL};
	run_iochar(&po, NULL, 0, bad1);
	expect_exit(&po, 2);
	expect_has(po.err, "has 5 members");
	proc_out_free(&po);
	vd_opt(o, sizeof(o), "raid0,strip=32k", "b0:b1", NULL);
	const char *bad2[] = {"vd", "rebuild", o, "--replace=1", NULL};
	run_iochar(&po, NULL, 0, bad2);
	expect_exit(&po, 2);
	expect_has(po.err, "no redundancy");
	proc_out_free(&po);
}

/* A plan step with three VDs: they run in parallel and the step's
 * figures are their sum; each one's members are created and used. */
static void test_plan_several_vds(void **state)
{
	(void)state;
	char ini[4200], out[4200], vdline[8192];
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	int at = snprintf(vdline, sizeof(vdline), "vd=");
	for (int v = 0; v < 3; v++)
		at += snprintf(vdline + at, sizeof(vdline) - (size_t)at,
			       "%sraid5,strip=64k,members=%s/p%d0:%s/p%d1:%s/p%d2", v ? ";" : "",
			       dir, v, dir, v, dir, v);
	FILE *f = fopen(ini, "w");
	fprintf(f, "[global]\nsize=3m\nruntime=1\ntime_based=1\n%s\n[r]\nrw=randread\nbs=4k\n", vdline);
	fclose(f);
	struct proc_out po;
	const char *args[] = {"plan", ini, "--out", out, NULL};
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 0);
	proc_out_free(&po);
	for (int v = 0; v < 3; v++) {
		char p[4200];
		snprintf(p, sizeof(p), "%s/p%d2", dir, v);
		assert_true(exists(p));
	}
	char res[4300];
	snprintf(res, sizeof(res), "%s/results.json", out);
	json_object *j = json_object_from_file(res);
	assert_non_null(j);
	json_object *step = json_object_array_get_idx(jget(j, "steps"), 0);
	json_object *set = json_object_array_get_idx(jget(step, "sets"), 0);
	assert_true(jget_double(set, "fixed.iops") > 0);
	/* one per_target entry per VD, labelled with its definition, whose
	 * I/Os add up to the step's */
	json_object *pt = jget(set, "fixed.per_target");
	assert_int_equal(json_object_array_length(pt), 3);
	uint64_t sum = 0;
	for (int v = 0; v < 3; v++) {
		json_object *e = json_object_array_get_idx(pt, (size_t)v);
		char want[4200];
		snprintf(want, sizeof(want), "raid5,strip=64k,members=%s/p%d0:%s/p%d1:%s/p%d2",
			 dir, v, dir, v, dir, v);
		assert_string_equal(json_object_get_string(jget(e, "target")), want);
		assert_true(jget_u64(e, "total.ios") > 0);
		sum += jget_u64(e, "total.ios");
	}
	assert_int_equal(sum, jget_u64(set, "fixed.total.ios"));
	json_object_put(j);
	/* and the CSV: a row per VD, then their total */
	snprintf(res, sizeof(res), "%s/results.csv", out);
	f = fopen(res, "r");
	assert_non_null(f);
	char line[16384];
	unsigned vd_rows = 0, total_rows = 0;
	while (fgets(line, sizeof(line), f)) {
		vd_rows += strstr(line, ",\"raid5,strip=64k,members=") != NULL;
		total_rows += strstr(line, ",total of 3,") != NULL;
	}
	fclose(f);
	assert_int_equal(vd_rows, 3);
	assert_int_equal(total_rows, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_inputs, setup, teardown),
		cmocka_unit_test(test_help),
		cmocka_unit_test_setup_teardown(test_same_file_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes_differ, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_accounting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_degraded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rebuild, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_several_vds, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
