/* test_vd_matrix.c - the paper's RAID comparison over one set of drives:
 * raid_level= makes each level's VDs from the drives (RAID 0 a VD per
 * drive, RAID 5 VDs of 8 or of all when fewer, RAID 10 VDs of 4 in 2
 * spans, JBOD every drive passed through), scaled down or refused when
 * too few drives are given; a plan over 4 file drives runs each level,
 * its per_target entries say what ran (JBOD: one job per drive, each
 * one member read per host read), and the report draws the grouped
 * chart: a group per workload, a bar and a value per level. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vd/matrix.h"

static const char *const drives[] = {"a", "b", "c", "d", "e", "f", "g", "h",
				     "i", "j", "k", "l"};

static void expect_def(const char *level, unsigned n, const char *want, unsigned unused)
{
	char out[1024];
	unsigned left = 99;
	struct ioc_err err = {0};
	assert_int_equal(vd_matrix_def(level, drives, n, NULL, out, sizeof(out), &left, &err), 0);
	assert_string_equal(out, want);
	assert_int_equal(left, unused);
}

static void test_matrix_defs(void **state)
{
	(void)state;
	expect_def("raid0", 3, "raid0,strip=64k,members=a;raid0,strip=64k,members=b;"
			       "raid0,strip=64k,members=c", 0);
	expect_def("raid5", 12, "raid5,strip=64k,members=a:b:c:d:e:f:g:h", 4);
	expect_def("raid5", 4, "raid5,strip=64k,members=a:b:c:d", 0);
	expect_def("raid10", 8, "raid10,strip=64k,members=a:b:c:d,spans=2;"
				"raid10,strip=64k,members=e:f:g:h,spans=2", 0);
	expect_def("raid10", 6, "raid10,strip=64k,members=a:b:c:d,spans=2", 2);
	expect_def("jbod", 3, "jbod,members=a:b:c", 0);
	char out[256];
	unsigned left;
	struct ioc_err err = {0};
	assert_int_equal(vd_matrix_def("raid5", drives, 8, "readahead=on,write=back", out,
				       sizeof(out), &left, &err), 0);
	assert_string_equal(out, "raid5,strip=64k,members=a:b:c:d:e:f:g:h,readahead=on,write=back");
	assert_int_equal(vd_matrix_def("raid10", drives, 3, NULL, out, sizeof(out), &left, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "at least 4 drives"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(vd_matrix_def("raid6", drives, 8, NULL, out, sizeof(out), &left, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "raid_level=raid6"));
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* 4 drives, random reads and writes, RAID 0 / 5 / 10 / JBOD each. */
static void test_matrix_plan(void **state)
{
	(void)state;
	char *dir = shmdir_make();
	char ini[4200], out[4200], files[4200], html[4300], fopt[4300];
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(files, sizeof(files), "%s/d0:%s/d1:%s/d2:%s/d3", dir, dir, dir, dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", files);
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fputs("[global]\nsize=4m\nruntime=300ms\ntime_based=1\niodepth=4\n"
	      "[random]\nrw=randread,randwrite\nbs=4k\nraid_level=raid0,raid5,raid10,jbod\n", f);
	fclose(f);
	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("plan", ini, fopt, "--out", out));
	expect_exit(&po, 0);
	proc_out_free(&po);

	char p[4300];
	snprintf(p, sizeof(p), "%s/results.json", out);
	json_object *j = json_object_from_file(p);
	assert_non_null(j);
	json_object *steps = jget(j, "steps");
	assert_int_equal(json_object_array_length(steps), 8);
	const unsigned targets[] = {4, 1, 1, 4}; /* VDs (jbod: drives) per level */
	for (unsigned s = 0; s < 8; s++) {
		json_object *st = json_object_array_get_idx(steps, s);
		json_object *pt = jget(json_object_array_get_idx(jget(st, "sets"), 0), "fixed");
		assert_int_equal(json_object_array_length(jget(pt, "per_target")), targets[s % 4]);
		if (s == 3) { /* jbod reads: each drive as itself */
			double a = jget_double(pt, "member_ios_per_host_io");
			assert_true(a > 0.999 && a < 1.001);
		}
	}
	json_object_put(j);

	snprintf(html, sizeof(html), "%s/r.html", dir);
	run_iochar(&po, NULL, 0, ARGS("report", out, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	size_t len;
	char *text = file_slurp(html, &len);
	assert_non_null(text);
	/* one chart (all random): 2 workloads x 4 levels, a value on each bar */
	assert_int_equal(count(text, "data-chart=\"raid-levels\""), 1);
	expect_has(text, "data-chart=\"raid-levels\" data-points=\"8\"");
	assert_int_equal(count(text, "class=\"bar-value\""), 8);
	expect_has(text, ">raid10<");
	expect_has(text, ">jbod<");
	free(text);
	tmpdir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_defs),
		cmocka_unit_test(test_matrix_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
