/* test_fio_logs.c - fio's log files (write_bw_log, write_iops_log,
 * write_lat_log with log_offset, log_avg_msec, per_job_logs), the same
 * tiny job run through fio 3.33 (Debian's) and iochar: the same file
 * names, the same columns, the same line counts for per-I/O logs and
 * nearly the same for averaged ones, values that agree with the run's
 * JSON, and fio's own plotting scripts (fio2gnuplot, fio_generate_plots,
 * from Debian's fio package) taking iochar's logs as they take fio's and
 * making the same files. SKIP without fio (or without gnuplot, for the
 * plots). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

static void need(const char *prog, const char *why)
{
	if (!side_have(prog)) {
		print_message("SKIP: %s is not installed (%s)\n", prog, why);
		skip();
	}
}

static void run_both(const char *dir, const char *opts)
{
	int rf, ri;
	side_run_both(dir, opts, &rf, &ri);
	if (rf || ri)
		fail_msg("fio exit %d, iochar exit %d for %s (see %s/*/err.txt)",
			 rf, ri, opts, dir);
}

static void read_log(const char *dir, const char *sub, const char *name,
		     struct side_log *l)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	if (!side_log_read(path, l))
		fail_msg("%s: missing", path);
}

/* The same *.log names in both directories; returned (free it). */
static char *same_logs(const char *dir)
{
	char a[4200], b[4200];
	snprintf(a, sizeof(a), "%s/fio", dir);
	snprintf(b, sizeof(b), "%s/iochar", dir);
	char *fl = side_listing(a, ".log"), *il = side_listing(b, ".log");
	if (strcmp(fl, il))
		fail_msg("log files differ:\nfio:\n%siochar:\n%s", fl, il);
	free(il);
	return fl;
}

/* Mean of column c over the lines of direction d. */
static double col_mean(const struct side_log *l, unsigned c, unsigned d,
		       size_t *n)
{
	double sum = 0;
	*n = 0;
	for (size_t k = 0; k < l->n; k++)
		if (l->v[k][2] == d) {
			sum += (double)l->v[k][c];
			(*n)++;
		}
	return *n ? sum / (double)*n : 0;
}

static void logs_match_json(const char *dir);

/* A size-bounded job with numjobs=2, a line per I/O: the same ten files
 * (bw, iops, lat, clat, slat per worker; slat empty for a sync engine,
 * as fio), six columns, as many lines as I/Os, offsets inside the region
 * and block-aligned, and iochar's latency lines agreeing with its JSON. */
static void test_per_io_logs(void **state)
{
	const char *dir = *state;
	need("fio", "Debian package fio");
	run_both(dir, "--name=t --filename=data --size=512k --bs=4k --rw=randrw "
		 "--ioengine=psync --numjobs=2 --write_bw_log=t "
		 "--write_iops_log=t --write_lat_log=t --log_offset=1");
	char *names = same_logs(dir);
	assert_int_equal(count_lines(names), 10);
	char *save, *name = strtok_r(names, "\n", &save);
	for (; name; name = strtok_r(NULL, "\n", &save)) {
		struct side_log f, i;
		read_log(dir, "fio", name, &f);
		read_log(dir, "iochar", name, &i);
		bool slat = strstr(name, "_slat.") != NULL;
		assert_int_equal(i.n, f.n);
		assert_int_equal(i.n, slat ? 0 : 128);
		assert_int_equal(i.cols, f.cols);
		assert_int_equal(i.cols, slat ? 0 : 6);
		for (size_t k = 0; k < i.n; k++) {
			assert_true(i.v[k][2] <= 1);	     /* ddir */
			assert_int_equal(i.v[k][3], 4096);   /* bs */
			assert_true(i.v[k][4] < 512 * 1024); /* offset */
			assert_int_equal(i.v[k][4] % 4096, 0);
		}
		side_log_free(&f);
		side_log_free(&i);
	}
	free(names);
	logs_match_json(dir);
}

/* iochar's lat and clat logs against its JSON, worker by worker (jobs[]
 * holds one entry per worker, in thread-number order): as many lines as
 * I/Os per direction, and the same mean. */
static void logs_match_json(const char *dir)
{
	json_object *doc = side_json(dir, "iochar");
	assert_non_null(doc);
	json_object *jobs = jget(doc, "jobs");
	assert_int_equal(json_object_array_length(jobs), 2);
	for (unsigned w = 1; w <= 2; w++) {
		json_object *job = json_object_array_get_idx(jobs, w - 1);
		for (unsigned d = 0; d < 2; d++) {
			const char *dn = d ? "write" : "read";
			static const char *const kinds[] = {"lat", "clat"};
			for (int k = 0; k < 2; k++) {
				char name[64], key[64];
				struct side_log l;
				size_t n;
				snprintf(name, sizeof(name), "t_%s.%u.log", kinds[k], w);
				read_log(dir, "iochar", name, &l);
				double mean = col_mean(&l, 1, d, &n);
				snprintf(key, sizeof(key), "%s.total_ios", dn);
				assert_int_equal(n, jget_u64(job, key));
				snprintf(key, sizeof(key), "%s.%s_ns.mean", dn, kinds[k]);
				double want = jget_double(job, key);
				if (n && (mean < want * 0.999 || mean > want * 1.001))
					fail_msg("%s: mean %.1f, JSON %s %.1f", name, mean, key, want);
				side_log_free(&l);
			}
		}
	}
	json_object_put(doc);
}

/* An async engine (libaio, iodepth 4): a slat line per I/O in both, and
 * in iochar's the three logs line up: slat (start to the submit call's
 * return) plus clat (from there to completion) is lat, slat > 0. */
static void test_async_slat(void **state)
{
	const char *dir = *state;
	need("fio", "Debian package fio");
	run_both(dir, "--name=s --filename=data --size=256k --bs=4k --rw=randread "
		 "--ioengine=libaio --iodepth=4 --write_lat_log=s");
	char *names = same_logs(dir);
	assert_string_equal(names, "s_clat.1.log\ns_lat.1.log\ns_slat.1.log\n");
	free(names);
	struct side_log f, lat, clat, slat;
	read_log(dir, "fio", "s_slat.1.log", &f);
	read_log(dir, "iochar", "s_lat.1.log", &lat);
	read_log(dir, "iochar", "s_clat.1.log", &clat);
	read_log(dir, "iochar", "s_slat.1.log", &slat);
	assert_int_equal(f.n, 64);
	assert_int_equal(slat.n, f.n);
	assert_int_equal(lat.n, 64);
	assert_int_equal(clat.n, 64);
	for (size_t k = 0; k < 64; k++) {
		assert_true(slat.v[k][1] > 0);
		assert_int_equal(slat.v[k][1] + clat.v[k][1], lat.v[k][1]);
	}
	side_log_free(&f);
	side_log_free(&lat);
	side_log_free(&clat);
	side_log_free(&slat);
}

/* per_job_logs=0: one file per log for the job's two workers, as fio
 * names it, holding both workers' lines. */
static void test_one_file_per_job(void **state)
{
	const char *dir = *state;
	need("fio", "Debian package fio");
	run_both(dir, "--name=p --filename=data --size=256k --bs=4k --rw=read "
		 "--ioengine=psync --numjobs=2 --per_job_logs=0 "
		 "--write_iops_log=p --write_lat_log=p");
	char *names = same_logs(dir);
	assert_string_equal(names, "p_clat.log\np_iops.log\np_lat.log\np_slat.log\n");
	free(names);
	struct side_log f, i;
	read_log(dir, "fio", "p_lat.log", &f);
	read_log(dir, "iochar", "p_lat.log", &i);
	assert_int_equal(f.n, 128);
	assert_int_equal(i.n, f.n);
	assert_int_equal(i.cols, 5); /* no offset column without log_offset */
	assert_int_equal(i.cols, f.cols);
	side_log_free(&f);
	side_log_free(&i);
}

/* Line counts of averaged logs agree within 2, or 15 % when a stall of
 * the loaded machine made one tool write catch-up lines (fio's windows
 * catch up after a late sample, and so do iochar's). */
static bool lines_near(size_t i, size_t f)
{
	size_t tol = f * 15 / 100 > 2 ? f * 15 / 100 : 2;
	return i + tol >= f && i <= f + tol;
}

/* The averaged job, run once for the tests that read its logs. */
#define AVG_JOB "--name=a --filename=data --size=4m --bs=4k --rw=randrw " \
		"--ioengine=psync --rate=1m,512k --runtime=2 --time_based " \
		"--log_avg_msec=250 --write_bw_log=a --write_iops_log=a " \
		"--write_lat_log=a --write_hist_log=a --log_hist_msec=250 " \
		"--log_hist_coarseness=2"

static int avg_setup(void **state)
{
	*state = tmpdir_make();
	if (side_have("fio"))
		run_both(*state, AVG_JOB);
	return 0;
}

/* Means of column 1 per direction of iochar's and fio's averaged log
 * name: each within 15 % of want[d] and of fio's. */
static void avg_values(const char *dir, const char *name, const double want[2])
{
	struct side_log f, i;
	read_log(dir, "fio", name, &f);
	read_log(dir, "iochar", name, &i);
	for (unsigned d = 0; d < 2; d++) {
		size_t fn, in;
		double fm = col_mean(&f, 1, d, &fn), im = col_mean(&i, 1, d, &in);
		if (want[d] && (im < want[d] * 0.85 || im > want[d] * 1.15 ||
				im < fm * 0.85 || im > fm * 1.15))
			fail_msg("%s, ddir %u: iochar's mean %.0f, fio's %.0f, "
				 "asked %.0f", name, d, im, fm, want[d]);
	}
	side_log_free(&f);
	side_log_free(&i);
}

/* log_avg_msec=250 over 2 s: as many lines as fio's (lines_near), the same
 * columns, bandwidth (KiB/s) and IOPS at the asked rates as fio's. */
static void test_averaged_logs(void **state)
{
	const char *dir = *state;
	need("fio", "Debian package fio");
	char *names = same_logs(dir);
	char *save, *name = strtok_r(names, "\n", &save);
	for (; name; name = strtok_r(NULL, "\n", &save)) {
		struct side_log f, i;
		read_log(dir, "fio", name, &f);
		read_log(dir, "iochar", name, &i);
		if (!lines_near(i.n, f.n))
			fail_msg("%s: fio %zu lines, iochar %zu", name, f.n, i.n);
		assert_int_equal(i.cols, f.cols);
		side_log_free(&f);
		side_log_free(&i);
	}
	free(names);
	avg_values(dir, "a_bw.1.log", (const double[2]){1024, 512});
	avg_values(dir, "a_iops.1.log", (const double[2]){256, 128});
}

/* The hist log's columns (of its first line) and, per direction, the sum
 * of its bins over all lines; its number of lines. */
static size_t hist_read(const char *dir, const char *sub, unsigned *cols,
			uint64_t sum[2])
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s/a_clat_hist.1.log", dir, sub);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: missing", path);
	static char line[1 << 16];
	size_t n = 0;
	sum[0] = sum[1] = 0;
	*cols = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned c = 0;
		uint64_t ddir = 0;
		for (char *p = line, *end;; p = end + strspn(end, ", \n")) {
			unsigned long long v = strtoull(p, &end, 10);
			if (end == p)
				break;
			if (c == 1)
				ddir = v;
			if (c >= 3 && ddir < 2)
				sum[ddir] += v;
			c++;
		}
		if (!n)
			*cols = c;
		n++;
	}
	fclose(f);
	return n;
}

/* write_hist_log with log_hist_coarseness=2: fio's 1856 bins by fours
 * after time, ddir and bs, a line per 250 ms and direction (as many as
 * fio's, lines_near), and the bins holding the I/Os the JSON counts, less at
 * most the last window's. */
static void test_hist_log(void **state)
{
	const char *dir = *state;
	need("fio", "Debian package fio");
	unsigned fc, ic;
	uint64_t fs[2], is[2];
	size_t fn = hist_read(dir, "fio", &fc, fs), in = hist_read(dir, "iochar", &ic, is);
	assert_int_equal(fc, 3 + 1856 / 4);
	assert_int_equal(ic, fc);
	if (!lines_near(in, fn))
		fail_msg("hist log: fio %zu lines, iochar %zu", fn, in);
	json_object *doc = side_json(dir, "iochar");
	assert_non_null(doc);
	static const char *const key[2] = {"read.total_ios", "write.total_ios"};
	for (int d = 0; d < 2; d++) {
		uint64_t ios = jget_u64(json_object_array_get_idx(jget(doc, "jobs"), 0), key[d]);
		if (is[d] > ios || is[d] < ios * 3 / 4)
			fail_msg("hist log, ddir %d: %llu I/Os in the bins, %llu in the JSON",
				 d, (unsigned long long)is[d], (unsigned long long)ios);
	}
	json_object_put(doc);
}

/* Run the shell command cmd in dir/fio and dir/iochar: both succeed and
 * add the same files (at least one), empty in both or in neither. */
static void same_outputs(const char *dir, const char *cmd)
{
	char before[2][4200], path[17000], run[8600];
	char *b[2], *a[2];
	static const char *const subs[2] = {"fio", "iochar"};
	for (int k = 0; k < 2; k++) {
		snprintf(before[k], sizeof(before[k]), "%s/%s", dir, subs[k]);
		b[k] = side_listing(before[k], "");
		snprintf(run, sizeof(run), "cd '%s' && timeout 60 %s > tool.out 2>&1",
			 before[k], cmd);
		if (system(run))
			fail_msg("%s failed on %s's logs (see %s/tool.out)", cmd,
				 subs[k], before[k]);
		a[k] = side_listing(before[k], "");
	}
	assert_string_equal(a[0], a[1]);
	assert_true(strlen(a[1]) > strlen(b[1]) + strlen("tool.out\n"));
	char *save, *name = strtok_r(a[1], "\n", &save);
	for (; name; name = strtok_r(NULL, "\n", &save)) {
		char line[300];
		snprintf(line, sizeof(line), "%s\n", name);
		if (!strcmp(name, "tool.out") || strstr(b[1], line))
			continue; /* not the tool's */
		/* empty in one exactly when empty in the other (slat: sync engine) */
		snprintf(path, sizeof(path), "[ -s '%s/%s' ] && a=1 || a=0; "
			 "[ -s '%s/%s' ] && b=1 || b=0; [ $a = $b ]",
			 before[0], name, before[1], name);
		if (system(path))
			fail_msg("%s: %s is empty for one tool's logs only", cmd, name);
	}
	for (int k = 0; k < 2; k++) {
		free(b[k]);
		free(a[k]);
	}
}

static void test_fio2gnuplot(void **state)
{
	need("fio", "Debian package fio");
	need("fio2gnuplot", "Debian package fio");
	need("gnuplot", "Debian package gnuplot-nox");
	same_outputs(*state, "fio2gnuplot -b -g");
	same_outputs(*state, "fio2gnuplot -i -g");
}

static void test_fio_generate_plots(void **state)
{
	need("fio", "Debian package fio");
	need("fio_generate_plots", "Debian package fio");
	need("gnuplot", "Debian package gnuplot-nox");
	same_outputs(*state, "fio_generate_plots title");
}

static int avg_teardown(void **state)
{
	tmpdir_remove(*state);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_per_io_logs, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_async_slat, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_one_file_per_job, tmpdir_setup, tmpdir_teardown),
	};
	const struct CMUnitTest avg[] = {
		cmocka_unit_test(test_averaged_logs),
		cmocka_unit_test(test_hist_log),
		cmocka_unit_test(test_fio2gnuplot),
		cmocka_unit_test(test_fio_generate_plots),
	};
	int failed = cmocka_run_group_tests_name("fio_logs", tests, NULL, NULL);
	return failed + cmocka_run_group_tests_name("fio_logs_averaged", avg,
						    avg_setup, avg_teardown);
}
