/* test_fio_fsvc.c - file_service_type=zipf|pareto|normal|gauss against
 * fio 3.33 on the same job: nrfiles=8, randread without a random map
 * (fio's files are then done only with the job, so the draw alone says
 * which file each read goes to), 512 reads of 4 KiB. Each tool runs it
 * under strace -y in its own directory; the reads on each file are
 * counted from the trace (the descriptor's path), never from values
 * written here.
 *  - both issue 512 reads in all;
 *  - zipf and pareto: the files' counts sorted (fio shifts the ranks by a
 *    random offset, so which file is hottest is the seed's; the shape is
 *    the distribution's): the hottest file's share, and the two hottest
 *    files' share, agree within 12 points;
 *  - normal, gauss:20: by file index (the bell is on the middle files in
 *    both): the share of files 3+4 and of 2..5 agree within 12 points;
 *  - bad values (zipf:1, pareto:1.5, normal:100, zipf:x, a center past
 *    1) are one line naming the value, exit 2, nothing created.
 * The tolerance: 512 draws give a share's binomial sd below 2.2 points;
 * fio's random shift moves zipf's hottest share between about 84 % and
 * 91 % (where the hot ranks fall in a file's 1024 ranges).
 * SKIP without fio or strace. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trace_compare.h"

#define NF 8
#define NR_IOS 512
#define TOL 12.0

/* Reads per file j.0.K in the strace -y trace at path. */
static void count_reads(const char *path, unsigned cnt[NF])
{
	FILE *f = fopen(path, "r");
	char line[1024];

	memset(cnt, 0, NF * sizeof(cnt[0]));
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "pread64(");
		const char *q = p ? strstr(p, "/j.0.") : NULL;
		if (!q || strchr(p, '>') < q)
			continue;
		unsigned k = (unsigned)atoi(q + 5);
		if (k < NF && strstr(line, "= 4096"))
			cnt[k]++;
	}
	fclose(f);
}

/* Run the job with service svc through both tools in dir/{fio,ioc}. */
static void run_both(const char *dir, const char *svc, unsigned fc[NF],
		     unsigned ic[NF])
{
	static const char job[] =
	    "--name=j --rw=randread --bs=4k --size=2M --nrfiles=8 "
	    "--norandommap=1 --ioengine=psync --output-format=json";

	assert_int_equal(tc_sh("mkdir -p %s/fio %s/ioc", dir, dir), 0);
	assert_int_equal(tc_sh("cd %s/fio && timeout 60 strace -f -y -qq -e "
			       "trace=pread64 -o tr fio %s --file_service_type=%s "
			       ">out.json 2>err.txt", dir, job, svc), 0);
	assert_int_equal(tc_sh("cd %s/ioc && " TC_UNDER_STRACE "timeout 60 "
			       "strace -f -y -qq -e trace=pread64 -o tr %s run "
			       "%s --file_service_type=%s >out.json 2>err.txt",
			       dir, tc_iochar, job, svc), 0);
	char p[4096];
	snprintf(p, sizeof(p), "%s/fio/tr", dir);
	count_reads(p, fc);
	snprintf(p, sizeof(p), "%s/ioc/tr", dir);
	count_reads(p, ic);
	assert_int_equal(tc_sh("rm -rf %s/fio %s/ioc", dir, dir), 0);
}

static unsigned total(const unsigned c[NF])
{
	unsigned t = 0;
	for (int i = 0; i < NF; i++)
		t += c[i];
	return t;
}

static int desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

static void show(const char *svc, const unsigned fc[NF], const unsigned ic[NF])
{
	print_message("%s fio:", svc);
	for (int i = 0; i < NF; i++)
		print_message(" %u", fc[i]);
	print_message(" | iochar:");
	for (int i = 0; i < NF; i++)
		print_message(" %u", ic[i]);
	print_message("\n");
}

static void expect_share(const char *what, double f, double i)
{
	if (f - i > TOL || i - f > TOL)
		fail_msg("%s: fio %.1f %% iochar %.1f %% (tolerance %.0f points)",
			 what, f, i, TOL);
}

/* Sum of c[from..to] as a percent of NR_IOS. */
static double pct(const unsigned c[NF], int from, int to)
{
	unsigned s = 0;
	for (int k = from; k <= to; k++)
		s += c[k];
	return 100.0 * s / NR_IOS;
}

static void test_skewed_sorted(void **state)
{
	static const char *const svcs[] = {"zipf:1.2", "pareto:0.3"};
	unsigned fc[NF], ic[NF];

	tc_skip_without_tools();
	for (int s = 0; s < 2; s++) {
		run_both(*state, svcs[s], fc, ic);
		show(svcs[s], fc, ic);
		assert_int_equal(total(fc), NR_IOS);
		assert_int_equal(total(ic), NR_IOS);
		qsort(fc, NF, sizeof(fc[0]), desc);
		qsort(ic, NF, sizeof(ic[0]), desc);
		expect_share(svcs[s], pct(fc, 0, 0), pct(ic, 0, 0));
		expect_share(svcs[s], pct(fc, 0, 1), pct(ic, 0, 1));
	}
}

static void test_normal_by_index(void **state)
{
	static const char *const svcs[] = {"normal", "gauss:20"};
	unsigned fc[NF], ic[NF];

	tc_skip_without_tools();
	for (int s = 0; s < 2; s++) {
		run_both(*state, svcs[s], fc, ic);
		show(svcs[s], fc, ic);
		assert_int_equal(total(fc), NR_IOS);
		assert_int_equal(total(ic), NR_IOS);
		expect_share(svcs[s], pct(fc, 3, 4), pct(ic, 3, 4));
		expect_share(svcs[s], pct(fc, 2, 5), pct(ic, 2, 5));
	}
}

static void test_bad_values(void **state)
{
	static const char *const bad[] = {"zipf:1", "pareto:1.5", "normal:100",
					   "zipf:x", "pareto:0.2:1.5"};
	char opt[128], dir[4096];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(opt, sizeof(opt), "--file_service_type=%s", bad[i]);
		snprintf(dir, sizeof(dir), "%s/bad", (char *)*state);
		assert_int_equal(tc_sh("mkdir -p %s", dir), 0);
		const char *args[] = {"run", "--name=j", "--rw=randread",
				      "--size=1M", "--nrfiles=8", opt, NULL};
		struct proc_out po;
		run_iochar(&po, dir, 0, args);
		expect_exit(&po, 2);
		expect_has(po.err, opt + 2);
		assert_int_equal(count_lines(po.err), 1);
		proc_out_free(&po);
		assert_int_equal(tc_sh("test -z \"$(ls -A %s)\"", dir), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_skewed_sorted, tc_setup,
					    tc_teardown),
	    cmocka_unit_test_setup_teardown(test_normal_by_index, tc_setup,
					    tc_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_values, tc_setup,
					    tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
