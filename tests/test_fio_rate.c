/* test_fio_rate.c - fio's pacing options, the same tiny job run through
 * fio 3.33 (Debian's) and iochar and compared: rate=R,W and rate_iops=R,W
 * per direction (each clone of numjobs gets the rate), rate_min failing
 * the same job in both, rate with rate_iops refused by both,
 * thinktime's idle gaps counted and timed from both tools' per-I/O
 * latency logs, which never hold the idle time, and thinktime under a
 * rate with and without rate_ignore_thinktime, and a rate far below one
 * I/O per runtime with a startdelay (fio's examples/1mbs_clients.fio,
 * small): one I/O, then idle to the runtime's end. SKIP without fio. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fio_side.h"
#include "harness.h"

/* Rates within this fraction of the target and of fio's: a 1.5 s psync run
 * on a page-cached file of a loaded 2-CPU machine. */
#define RATE_TOL 0.10

#define BASE "--name=r --filename=data --size=4m --bs=4k --ioengine=psync "

static void expect_near(const char *what, double got, double want, double tol)
{
	if (got < want * (1 - tol) || got > want * (1 + tol))
		fail_msg("%s: %.0f, not within %.0f%% of %.0f", what, got,
			 tol * 100, want);
}

/* rate=,W limits writes only: both write at W, both read unlimited. */
static void test_rate_writes_only(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, BASE "--rw=randrw --rate=,256k --runtime=1500ms --time_based", &f, &i);
	double fw = side_jobs_sum(f, "write", "bw_bytes");
	double iw = side_jobs_sum(i, "write", "bw_bytes");
	expect_near("fio's write bytes/s", fw, 262144, RATE_TOL);
	expect_near("iochar's write bytes/s", iw, 262144, RATE_TOL);
	expect_near("iochar's write bytes/s against fio's", iw, fw, RATE_TOL);
	/* reads are not limited: far above the write rate in both */
	assert_true(side_jobs_sum(f, "read", "bw_bytes") > 4 * 262144);
	assert_true(side_jobs_sum(i, "read", "bw_bytes") > 4 * 262144);
	json_object_put(f);
	json_object_put(i);
}

/* rate_iops=R,W with numjobs=2: every clone gets R reads and W writes. */
static void test_rate_iops_per_direction(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, BASE "--rw=randrw --rate_iops=100,50 --numjobs=2 "
		 "--runtime=1500ms --time_based", &f, &i);
	static const struct { const char *dir; double want; } d[] = {
		{"read", 200}, {"write", 100},
	};
	for (int k = 0; k < 2; k++) {
		double fi = side_jobs_sum(f, d[k].dir, "iops");
		double ii = side_jobs_sum(i, d[k].dir, "iops");
		expect_near("fio's IOPS", fi, d[k].want, RATE_TOL);
		expect_near("iochar's IOPS", ii, d[k].want, RATE_TOL);
		expect_near("iochar's IOPS against fio's", ii, fi, RATE_TOL);
	}
	json_object_put(f);
	json_object_put(i);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A job idling 100 ms per 4 KiB cannot hold rate_min=1m: both end it
 * with an error after the 2 s settling time and one rate_cycle, well
 * before its runtime. */
static void test_rate_min_fails(void **state)
{
	const char *dir = *state;
	const char *opts = BASE "--rw=read --thinktime=100000 --rate_min=1m "
			   "--rate_cycle=500 --runtime=6 --time_based";
	side_need_fio();
	int rf, ri;
	double t0 = now_s();
	side_run_both(dir, opts, &rf, &ri);
	if (!rf || !ri)
		fail_msg("rate_min not met, yet fio exit %d, iochar exit %d", rf, ri);
	assert_true(now_s() - t0 < 5.0); /* both ended before the runtime */
	char path[4200];
	snprintf(path, sizeof(path), "cd '%s/iochar' && grep -q 'rate_min=1048576B/s not met' err.txt", dir);
	if (system(path))
		fail_msg("iochar's stderr does not say rate_min was not met");
}

/* rate and rate_iops exclude each other: both refuse, iochar with a
 * usage error (2) naming both. */
static void test_rate_and_iops_refused(void **state)
{
	const char *dir = *state;
	const char *opts = BASE "--rw=read --rate=1m --rate_iops=10";
	side_need_fio();
	assert_int_not_equal(side_run("fio", dir, "fio", opts), 0);
	assert_int_equal(side_run("iochar", dir, "iochar", opts), 2);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "grep -q 'rate and rate_iops exclude' '%s/iochar/err.txt'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Gaps of at least GAP_MS between consecutive I/Os of a latency log, and
 * the shortest and longest of them; also the largest latency logged. */
#define GAP_MS 40
static unsigned log_gaps(const char *dir, const char *sub, uint64_t *min_gap,
			 uint64_t *max_gap, uint64_t *max_lat, size_t *lines)
{
	char path[4200];
	struct side_log l;
	unsigned gaps = 0;
	snprintf(path, sizeof(path), "%s/%s/t_lat.1.log", dir, sub);
	if (!side_log_read(path, &l))
		fail_msg("%s: missing", path);
	*min_gap = UINT64_MAX;
	*max_gap = *max_lat = 0;
	for (size_t k = 0; k < l.n; k++) {
		if (l.v[k][1] > *max_lat)
			*max_lat = l.v[k][1];
		if (!k || l.v[k][0] - l.v[k - 1][0] < GAP_MS)
			continue;
		uint64_t g = l.v[k][0] - l.v[k - 1][0];
		gaps++;
		*min_gap = g < *min_gap ? g : *min_gap;
		*max_gap = g > *max_gap ? g : *max_gap;
	}
	*lines = l.n;
	side_log_free(&l);
	return gaps;
}

/* thinktime=50ms after every 8 of 64 I/Os: 7 gaps between I/Os (the 8th
 * think follows the last one), each about 50 ms, in both; no logged
 * latency holds the idle time. The two run one after the other, and a
 * stall of the loaded test machine may add one gap to either. */
static void test_thinktime_gaps(void **state)
{
	const char *dir = *state;
	const char *opts = "--name=t --filename=data --size=256k --bs=4k "
			   "--ioengine=psync --rw=read --thinktime=50000 "
			   "--thinktime_blocks=8 --write_lat_log=t";
	side_need_fio();
	assert_int_equal(side_run("fio", dir, "fio", opts), 0);
	assert_int_equal(side_run("iochar", dir, "iochar", opts), 0);
	uint64_t fmin, fmax, flat, imin, imax, ilat;
	size_t fn, in;
	unsigned fg = log_gaps(dir, "fio", &fmin, &fmax, &flat, &fn);
	unsigned ig = log_gaps(dir, "iochar", &imin, &imax, &ilat, &in);
	assert_int_equal(fn, 64);
	assert_int_equal(in, 64);
	if (fg < 7 || fg > 8 || ig < 7 || ig > 8)
		fail_msg("gaps of %d ms or more: fio %u, iochar %u, not 7", GAP_MS, fg, ig);
	/* ms stamps truncate: a 50 ms idle shows as 49 to 51, plus the
	 * scheduling delay of a loaded machine */
	if (imin < 49 || imax > 150 || fmin < 49 || fmax > 150)
		fail_msg("gaps: fio %llu..%llu ms, iochar %llu..%llu ms",
			 (unsigned long long)fmin, (unsigned long long)fmax,
			 (unsigned long long)imin, (unsigned long long)imax);
	if (flat >= 25000000 || ilat >= 25000000)
		fail_msg("a latency holds the think time: fio %llu ns, iochar %llu ns",
			 (unsigned long long)flat, (unsigned long long)ilat);
}

/* thinktime under rate_iops: by default both catch up after each think
 * (the rate holds), with rate_ignore_thinktime both go on at the rate
 * from the think's end (fio less one I/O's gap), so the same lower rate. */
static void test_thinktime_and_rate(void **state)
{
	const char *dir = *state;
	double iops[2][2];
	side_need_fio();
	for (int ign = 0; ign < 2; ign++) {
		char opts[512];
		json_object *f, *i;
		snprintf(opts, sizeof(opts), BASE "--rw=read --rate_iops=200 "
			 "--thinktime=50000 --thinktime_blocks=20 --runtime=1500ms "
			 "--time_based --rate_ignore_thinktime=%d", ign);
		side_run_both_json(dir, opts, &f, &i);
		iops[ign][0] = side_jobs_sum(f, "read", "iops");
		iops[ign][1] = side_jobs_sum(i, "read", "iops");
		json_object_put(f);
		json_object_put(i);
	}
	/* catching up, the rate holds; ignoring the think, 20 I/Os per 95 ms
	 * of rate and 50 ms of think: some 138 IOPS. fio falls a little
	 * behind its rate on a loaded machine, hence 12 %. */
	static const char *const who[2] = {"fio's", "iochar's"};
	for (int t = 0; t < 2; t++) {
		char what[64];
		snprintf(what, sizeof(what), "%s IOPS, catching up", who[t]);
		expect_near(what, iops[0][t], 200, 0.12);
		snprintf(what, sizeof(what), "%s IOPS, rate_ignore_thinktime", who[t]);
		expect_near(what, iops[1][t], 138, 0.12);
	}
}

#define MS 1000000ll

/* The first submission of fio's latency log path (epoch ms): its first
 * line's completion time less its latency. */
static long long log_first_ms(const char *path)
{
	struct side_log l;
	if (!side_log_read(path, &l) || !l.n)
		fail_msg("%s: missing or empty", path);
	long long t = (long long)l.v[0][0] - (long long)(l.v[0][1] / 1000000);
	side_log_free(&l);
	return t;
}

/* Job k of doc did exactly one read and ran between 100 and 150 ms
 * (fio's job_runtime, ms): its runtime, not up to its next I/O. */
static void one_io_runtime(json_object *doc, const char *tool, unsigned k)
{
	json_object *j = json_object_array_get_idx(jget(doc, "jobs"), k);
	uint64_t ios = jget_u64(j, "read.total_ios"), ms = jget_u64(j, "job_runtime");
	if (ios != 1 || ms < 100 || ms > 150)
		fail_msg("%s job %u: %llu reads in %llu ms, not 1 in its 100 ms runtime",
			 tool, k, (unsigned long long)ios, (unsigned long long)ms);
}

/* rate=1250 B/s is one 4 KiB read per 3.3 s, rate_min=1024 (fio only
 * checks it from 2 s in), runtime=100ms, b with startdelay=300ms. fio
 * issues the first read at once, then sleeps only to the runtime's end
 * (io_u.c rate_ddir) and ends the job, with no error; b's runtime counts
 * from its own start. Both tools: each job one read and a job_runtime of
 * its runtime, b started after a ended and 300 ms or more after it.
 * The end is the runtime's, though the last I/O ended within ms of the
 * start: fio's latency log holds only that one, iochar's end_ns the end. */
static void test_rate_below_one_io(void **state)
{
	const char *dir = *state;
	/* fio prints a job's line before a later --output-format; options
	 * before the first --name are every job's */
#define SLOW "--filename=data --size=1m --bs=4k --ioengine=psync --rw=read " \
	     "--rate=1250 --rate_min=1024 --runtime=100ms --name=a --name=b --startdelay=300ms"
	side_need_fio();
	assert_int_equal(side_run("fio", dir, "fio", "--output-format=json --write_lat_log=p "
				  "--log_unix_epoch=1 " SLOW), 0);
	assert_int_equal(side_run("iochar", dir, "iochar", SLOW), 0);
#undef SLOW
	json_object *f = side_json(dir, "fio"), *i = side_json(dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	for (unsigned k = 0; k < 2; k++) {
		one_io_runtime(f, "fio", k);
		one_io_runtime(i, "iochar", k);
	}
	char path[4200];
	snprintf(path, sizeof(path), "%s/fio/p_lat.1.log", dir);
	long long fa = log_first_ms(path);
	snprintf(path, sizeof(path), "%s/fio/p_lat.2.log", dir);
	long long fb = log_first_ms(path);
	long long fa_end = fa + (long long)jget_u64(json_object_array_get_idx(jget(f, "jobs"), 0),
						    "job_runtime");
	/* fio's own gap, from its logs' whole-ms times of each job's first
	 * I/O: 297 and 299 seen for startdelay=300ms under load */
	if (fb < fa_end || fb - fa < 270)
		fail_msg("fio: b started %lld ms after a, which ran %lld ms", fb - fa, fa_end - fa);
	json_object *w = jget(i, "workers");
	long long as = (long long)jget_u64(json_object_array_get_idx(w, 0), "start_ns");
	long long ae = (long long)jget_u64(json_object_array_get_idx(w, 0), "end_ns");
	long long bs = (long long)jget_u64(json_object_array_get_idx(w, 1), "start_ns");
	long long be = (long long)jget_u64(json_object_array_get_idx(w, 1), "end_ns");
	if (bs < ae || bs - as < 300 * MS)
		fail_msg("iochar: b started %lld ms after a, which ended at %lld ms",
			 (bs - as) / MS, (ae - as) / MS);
	if (ae - as < 100 * MS || ae - as > 150 * MS || be - bs < 100 * MS || be - bs > 150 * MS)
		fail_msg("iochar: a ran %lld ms, b %lld ms, not their 100 ms runtime",
			 (ae - as) / MS, (be - bs) / MS);
	json_object_put(f);
	json_object_put(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rate_writes_only, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rate_iops_per_direction, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rate_min_fails, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rate_and_iops_refused, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_thinktime_gaps, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_thinktime_and_rate, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rate_below_one_io, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("fio_rate", tests, NULL, NULL);
}
