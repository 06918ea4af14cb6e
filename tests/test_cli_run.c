/* test_cli_run.c - end-to-end runs of the iochar binary: every engine on a
 * real file, JSON consistency (read + write = total, ios agree with
 * iops x elapsed, intervals add up), ramp exclusion, rate limiting, the
 * scratch target, files written before they are read, job files, CSV,
 * --output, and Ctrl-C giving partial results with exit status 130 and
 * stopping the pre-write of a fresh file. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "harness.h"

static json_object *run_json(struct proc_out *po, const char *cwd,
			     const char *const *args)
{
	run_iochar(po, cwd, 0, args);
	if (po->status != 0)
		fail_msg("exit %d\nstderr:\n%s", po->status, po->err);
	return parse_json(po);
}

/* The invariants every JSON result must hold. */
static void check_consistency(json_object *r)
{
	static const char *const f[] = {"ios", "bytes"};
	for (int i = 0; i < 2; i++) {
		char a[64], b[64], t[64];
		snprintf(a, sizeof(a), "read.%s", f[i]);
		snprintf(b, sizeof(b), "write.%s", f[i]);
		snprintf(t, sizeof(t), "total.%s", f[i]);
		assert_int_equal(jget_u64(r, a) + jget_u64(r, b), jget_u64(r, t));
	}
	double el = (double)jget_u64(r, "elapsed_ns") / 1e9;
	uint64_t ios = jget_u64(r, "total.ios");
	assert_true(el > 0);
	double iops = jget_double(r, "total.iops");
	if (fabs(iops * el - (double)ios) > 0.01 * (double)ios + 1)
		fail_msg("iops %.1f x elapsed %.3f s != ios %llu", iops, el,
			 (unsigned long long)ios);
	/* percentiles are ordered and inside [min, max] */
	static const char *const p[] = {"min", "p50", "p90", "p95", "p99", "p99_9", "p99_99", "max"};
	uint64_t prev = 0;
	for (int i = 0; i < 8; i++) {
		char k[64];
		snprintf(k, sizeof(k), "total.lat_ns.%s", p[i]);
		uint64_t v = jget_u64(r, k);
		assert_true(v >= prev);
		prev = v;
	}
	/* the interval series adds up to the totals */
	json_object *iv = jget(r, "intervals");
	uint64_t sum = 0;
	for (size_t i = 0; i < json_object_array_length(iv); i++) {
		json_object *e = json_object_array_get_idx(iv, i);
		sum += jget_u64(e, "read.ios") + jget_u64(e, "write.ios");
	}
	assert_int_equal(sum, ios);
	/* workers add up to the total */
	json_object *w = jget(r, "workers");
	uint64_t wsum = 0;
	for (size_t i = 0; i < json_object_array_length(w); i++)
		wsum += jget_u64(json_object_array_get_idx(w, i), "total.ios");
	assert_int_equal(wsum, ios);
}

static void test_null_engine_time_based(void **state)
{
	struct proc_out po;
	json_object *r = run_json(&po, *state,
				  ARGS("run", "--ioengine=null", "--rw=randrw", "--iodepth=16",
				       "--numjobs=2", "--time_based", "--runtime=2s",
				       "--output-format=json"));
	check_consistency(r);
	assert_true(jget_u64(r, "total.ios") > 100000);
	double el = (double)jget_u64(r, "elapsed_ns") / 1e9;
	assert_true(el >= 2.0 && el < 2.5);
	assert_int_equal(json_object_array_length(jget(r, "workers")), 2);
	size_t n = json_object_array_length(jget(r, "intervals"));
	assert_true(n >= 2 && n <= 3);
	assert_false(json_object_get_boolean(jget(r, "partial")));
	/* 50/50 mix by default */
	double rd = (double)jget_u64(r, "read.ios") / (double)jget_u64(r, "total.ios");
	assert_true(fabs(rd - 0.5) < 0.01);
	json_object_put(r);
	proc_out_free(&po);
}

/* A size-based run through each real engine on a fresh file: the file is
 * created and filled, every block is done once, and it is all consistent. */
static void run_engine(const char *dir, const char *engine, const char *direct)
{
	char fn[4200], e[64];
	snprintf(fn, sizeof(fn), "--filename=%s/%s.dat", dir, engine);
	snprintf(e, sizeof(e), "--ioengine=%s", engine);
	struct proc_out po;
	json_object *r = run_json(&po, dir,
				  ARGS("run", fn, e, direct, "--rw=randrw", "--rwmixread=70",
				       "--bs=4k", "--size=8m", "--iodepth=8", "--output-format=json"));
	check_consistency(r);
	assert_int_equal(jget_u64(r, "total.ios"), 2048);
	assert_int_equal(jget_u64(r, "total.bytes"), 8 << 20);
	struct stat st;
	assert_int_equal(stat(fn + 11, &st), 0);
	assert_int_equal(st.st_size, 8 << 20);
	/* written before it was read: not sparse */
	assert_true((uint64_t)st.st_blocks * 512 >= (8u << 20));
	json_object *opt = json_object_array_get_idx(jget(r, "options"), 0);
	assert_string_equal(json_object_get_string(jget(opt, "ioengine")), engine);
	json_object_put(r);
	proc_out_free(&po);
}

static void test_every_engine_buffered(void **state)
{
	run_engine(*state, "psync", "--direct=0");
	run_engine(*state, "libaio", "--direct=0");
	run_engine(*state, "io_uring", "--direct=0");
}

static void test_every_engine_direct(void **state)
{
	run_engine(*state, "psync", "--direct=1");
	run_engine(*state, "libaio", "--direct=1");
	run_engine(*state, "io_uring", "--direct=1");
}

/* Sync engines complete inside queue(): the loop must still see the clock
 * and the stop flag between I/Os (a time_based psync run once never ended). */
static void test_sync_engine_time_based_ends(void **state)
{
	char fn[4200];
	snprintf(fn, sizeof(fn), "--filename=%s/sync.dat", (char *)*state);
	struct proc_out po;
	json_object *r = run_json(&po, *state,
				  ARGS("run", fn, "--ioengine=psync", "--rw=randrw", "--size=4m",
				       "--time_based", "--runtime=1", "--output-format=json"));
	double el = (double)jget_u64(r, "elapsed_ns") / 1e9;
	assert_true(el >= 1.0 && el < 1.5);
	/* every I/O lands in the one second measured, none in a sliver after */
	assert_int_equal(json_object_array_length(jget(r, "intervals")), 1);
	check_consistency(r);
	json_object_put(r);
	proc_out_free(&po);
	/* and Ctrl-C stops it too */
	run_iochar(&po, *state, 500,
		   ARGS("run", fn, "--ioengine=psync", "--rw=randread", "--size=4m",
			"--time_based", "--runtime=30", "--output-format=json"));
	assert_int_equal(po.status, 130);
	r = parse_json(&po);
	assert_true(json_object_get_boolean(jget(r, "partial")));
	json_object_put(r);
	proc_out_free(&po);
}

static void test_ramp_excluded(void **state)
{
	struct proc_out po;
	json_object *r = run_json(&po, *state,
				  ARGS("run", "--ioengine=null", "--time_based", "--runtime=1",
				       "--ramp_time=1", "--output-format=json"));
	double el = (double)jget_u64(r, "elapsed_ns") / 1e9;
	assert_true(el >= 1.0 && el < 1.4);
	assert_int_equal(jget_u64(r, "ramp_ns"), 1000000000ull);
	check_consistency(r);
	json_object_put(r);
	proc_out_free(&po);
}

/* fio's own rate options pace as rate_iops does, so their latency is
 * from the due time too, and says so: the run's latency_origin, the
 * totals line, and fio's figures (jobs[]) from submission, fio's lat.
 * Before, only rate_iops set the origin: a --rate=4m run was labelled
 * "submit" and fio's lat_ns was the response time. */
static void test_fio_rates_open_loop(void **state)
{
	const char *const rates[] = {"--rate=400k", "--rate_iops=100,50"};
	for (size_t i = 0; i < 2; i++) {
		struct proc_out po;
		json_object *r = run_json(&po, *state,
					  ARGS("run", "--ioengine=null", "--time_based",
					       "--runtime=1", "--rw=randrw", "--bs=4k", rates[i],
					       "--output-format=json"));
		assert_string_equal(json_object_get_string(jget(r, "latency_origin")),
				    "scheduled");
		double service = jget_double(r, "total.service_latency.mean");
		json_object *job = json_object_array_get_idx(jget(r, "jobs"), 0);
		double rd = jget_double(job, "read.lat_ns.mean"),
		       wr = jget_double(job, "write.lat_ns.mean");
		uint64_t nr = jget_u64(job, "read.total_ios"), nw = jget_u64(job, "write.total_ios");
		assert_true(nr > 0 && nw > 0);
		/* fio's lat over both directions is the service time's mean */
		double both = (rd * (double)nr + wr * (double)nw) / (double)(nr + nw);
		if (fabs(both - service) > 1e-6 * service + 1)
			fail_msg("%s: fio's lat mean %.1f ns, service mean %.1f ns", rates[i], both,
				 service);
		json_object_put(r);
		proc_out_free(&po);
		run_iochar(&po, *state, 0,
			   ARGS("run", "--ioengine=null", "--time_based", "--runtime=1",
				"--rw=randread", "--bs=4k", rates[i]));
		expect_exit(&po, 0);
		expect_has(po.out, "latency from scheduled issue time");
		expect_has(po.out, "    response lat (");
		proc_out_free(&po);
	}
}

static void test_rate_iops_open_loop(void **state)
{
	struct proc_out po;
	json_object *r = run_json(&po, *state,
				  ARGS("run", "--ioengine=null", "--time_based", "--runtime=2",
				       "--rate_iops=1000", "--iodepth=4", "--output-format=json"));
	uint64_t ios = jget_u64(r, "total.ios");
	assert_true(ios >= 1900 && ios <= 2100);
	assert_string_equal(json_object_get_string(jget(r, "latency_origin")), "scheduled");
	json_object_put(r);
	proc_out_free(&po);

	/* Poisson arrivals: the same mean rate (count within 4 sigma of
	 * 2000), but gaps vary, so some seconds differ from others */
	r = run_json(&po, *state,
		     ARGS("run", "--ioengine=null", "--time_based", "--runtime=2",
			  "--rate_iops=1000", "--rate_process=poisson", "--iodepth=4",
			  "--output-format=json"));
	ios = jget_u64(r, "total.ios");
	if (ios < 1820 || ios > 2180)
		fail_msg("poisson at 1000/s for 2 s gave %llu I/Os", (unsigned long long)ios);
	json_object *opt = json_object_array_get_idx(jget(r, "options"), 0);
	assert_string_equal(json_object_get_string(jget(opt, "rate_process")), "poisson");
	json_object_put(r);
	proc_out_free(&po);
}

static void test_scratch_target(void **state)
{
	struct proc_out po;
	/* --verbose: the note is on stderr off a terminal too */
	run_iochar(&po, *state, 0, ARGS("run", "--runtime=1", "--size=4m", "--verbose"));
	if (po.status != 0)
		fail_msg("exit %d: %s", po.status, po.err);
	assert_non_null(strstr(po.err, "scratch"));
	assert_non_null(strstr(po.out, "IOPS"));
	char p[4300];
	snprintf(p, sizeof(p), "%s/iochar-data/scratch.dat", (char *)*state);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 4 << 20);
	proc_out_free(&po);
}

static void test_job_file_and_csv_and_output_file(void **state)
{
	const char *dir = *state;
	char jf[4300], out[4300], oopt[4400];
	snprintf(jf, sizeof(jf), "%s/two.fio", dir);
	snprintf(out, sizeof(out), "%s/res.csv", dir);
	snprintf(oopt, sizeof(oopt), "--output=%s", out);
	FILE *f = fopen(jf, "w");
	assert_non_null(f);
	fprintf(f, "[global]\nioengine=null\nsize=1m\nbs=4k ; trailing comment\n\n"
		   "[reader]\nrw=read\nnumjobs=2\n\n# a comment\n[writer]\nrw=write\n");
	fclose(f);
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("run", jf, "--output-format=csv", oopt));
	assert_int_equal(po.status, 0);
	assert_string_equal(po.out, "");
	f = fopen(out, "r");
	assert_non_null(f);
	char line[4096];
	unsigned lines = 0, cols = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned c = 1;
		for (char *q = line; *q; q++)
			c += *q == ',';
		if (lines++ == 0)
			cols = c;
		else
			assert_int_equal(c, cols);
	}
	fclose(f);
	/* header + total rows (read, write, total) + 3 workers x 3 */
	assert_int_equal(lines, 1 + 3 + 9);
	proc_out_free(&po);

	json_object *r = run_json(&po, dir, ARGS("run", jf, "--output-format=json"));
	assert_int_equal(json_object_array_length(jget(r, "options")), 2);
	assert_int_equal(json_object_array_length(jget(r, "workers")), 3);
	/* 1 MiB / 4 KiB = 256 per worker, 3 workers */
	assert_int_equal(jget_u64(r, "total.ios"), 3 * 256);
	assert_int_equal(jget_u64(r, "read.ios"), 2 * 256);
	check_consistency(r);
	json_object_put(r);
	proc_out_free(&po);
}

static void test_sigint_gives_partial_results(void **state)
{
	struct proc_out po;
	run_iochar(&po, *state, 700,
		   ARGS("run", "--ioengine=null", "--time_based", "--runtime=30",
			"--output-format=json"));
	assert_int_equal(po.status, 130);
	json_object *r = parse_json(&po);
	assert_true(json_object_get_boolean(jget(r, "partial")));
	assert_true(jget_u64(r, "total.ios") > 0);
	assert_true(jget_u64(r, "elapsed_ns") < 5000000000ull);
	check_consistency(r);
	json_object_put(r);
	proc_out_free(&po);
}

/* Ctrl-C during the pre-write of a fresh 3 GiB file stops it promptly
 * (it used to run on to 100 %), exit 130, saying nothing was measured. */
static void test_sigint_stops_prewrite(void **state)
{
	struct proc_out po;
	char fn[4300], path[4200];
	struct stat st;
	snprintf(path, sizeof(path), "%s/big.dat", (const char *)*state);
	snprintf(fn, sizeof(fn), "--filename=%s", path);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_iochar(&po, *state, 600, /* after validation, inside the pre-write */
		   ARGS("run", fn, "--size=3g", "--rw=read", "--runtime=1s",
			"--output-format=json"));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	expect_exit(&po, 130);
	expect_has(po.err, "pre-write stopped");
	expect_has(po.err, "nothing was measured");
	assert_string_equal(po.out, "");
	assert_int_equal(stat(path, &st), 0);
	assert_true((uint64_t)st.st_size < (3ull << 30));
	/* a 1 MiB write after the signal at most: well under 2 s */
	assert_true(t1.tv_sec - t0.tv_sec < 3);
	proc_out_free(&po);
}

/* A RAID VD's members are pre-written the same way, and Ctrl-C stops
 * them too (it once ran on to the end of every member). */
static void test_sigint_stops_vd_member_prewrite(void **state)
{
	struct proc_out po;
	char vd[9000], m0[4200], m1[4200];
	struct stat st;
	snprintf(m0, sizeof(m0), "%s/m0.dat", (const char *)*state);
	snprintf(m1, sizeof(m1), "%s/m1.dat", (const char *)*state);
	snprintf(vd, sizeof(vd), "--vd=raid0,strip=64k,members=%s:%s", m0, m1);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_iochar(&po, *state, 600, ARGS("run", vd, "--size=4g", "--rw=read", "--runtime=1s",
					  "--output-format=json"));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	expect_exit(&po, 130);
	expect_has(po.err, "pre-write stopped");
	assert_string_equal(po.out, "");
	uint64_t written = 0;
	if (stat(m0, &st) == 0)
		written += (uint64_t)st.st_size;
	if (stat(m1, &st) == 0)
		written += (uint64_t)st.st_size;
	assert_true(written < (4ull << 30)); /* two members of 2 GiB not filled */
	assert_true(t1.tv_sec - t0.tv_sec < 3);
	proc_out_free(&po);
}

static void test_block_device_direct_read(void **state)
{
	if (!is_root()) {
		printf("SKIP: reading a loop device needs root\n");
		skip();
	}
	char backing[4300], dev[64], opt[128];
	snprintf(backing, sizeof(backing), "%s/bd.img", (char *)*state);
	if (!loop_attach(backing, 32 << 20, 4096, dev, sizeof(dev)))
		skip();
	snprintf(opt, sizeof(opt), "--filename=%s", dev);
	struct proc_out po;
	run_iochar(&po, *state, 0,
		   ARGS("run", opt, "--direct=1", "--rw=randread", "--bs=4k", "--iodepth=4",
			"--output-format=json"));
	loop_detach(dev);
	if (po.status != 0)
		fail_msg("exit %d: %s", po.status, po.err);
	json_object *r = parse_json(&po);
	/* no size: the whole device, once */
	assert_int_equal(jget_u64(r, "read.ios"), (32u << 20) / 4096);
	json_object *t = json_object_array_get_idx(jget(r, "environment.targets"), 0);
	assert_true(json_object_get_boolean(jget(t, "is_block")));
	assert_int_equal(jget_u64(t, "size"), 32u << 20);
	assert_int_equal(jget_u64(t, "logical_block_size"), 4096);
	json_object_put(r);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_null_engine_time_based, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_every_engine_buffered, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_every_engine_direct, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_sync_engine_time_based_ends, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_ramp_excluded, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_fio_rates_open_loop, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rate_iops_open_loop, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_scratch_target, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_job_file_and_csv_and_output_file, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_sigint_gives_partial_results, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_sigint_stops_prewrite, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_sigint_stops_vd_member_prewrite, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_block_device_direct_read, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests_name("cli_run", tests, NULL, NULL);
}
