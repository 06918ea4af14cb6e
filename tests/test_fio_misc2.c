/* test_fio_misc2.c - job options behind single fio examples, the same
 * tiny jobs run through fio 3.33 (Debian's) and iochar and compared:
 * flow= keeps two jobs' I/O counts in the ratio of their weights, a job
 * that ends leaves its flow (the other finishes every I/O), flow_sleep
 * holds a job back for that long, and io_submit_mode=offload runs at the
 * rate asked with iochar saying how it differs; buffer_compress_percentage
 * and dedupe_* (dedupe-global.fio's job) write files as compressible and
 * as deduplicable as fio's, each and together; steadystate (ss, ss_dur,
 * ss_ramp) ends jobs when fio does and reports fio's "steadystate"
 * member; latency_target finds the same depth and fails the same job.
 * SKIP without fio. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

/* Before the jobs: fio prints a job's header line when the next --name
 * comes, unless the JSON format was already asked for. */
#define FIRST "--output-format=json "
#define NUL "--filename=data --size=4m --ioengine=null --rw=read "

/* jobs[k].read.total_ios of doc. */
static double job_ios(json_object *doc, size_t k)
{
	json_object *jobs, *d, *v;
	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	assert_true(k < json_object_array_length(jobs));
	json_object *j = json_object_array_get_idx(jobs, k);
	assert_true(json_object_object_get_ex(j, "read", &d));
	assert_true(json_object_object_get_ex(d, "total_ios", &v));
	return json_object_get_double(v);
}

static void expect_within(const char *what, double got, double lo, double hi)
{
	if (got < lo || got > hi)
		fail_msg("%s: %.2f, not in %.2f..%.2f", what, got, lo, hi);
}

/* fio's b:a within ±30 % of 8 (test_flow_ratio). */
static const char *flow_ratio_held(int rc, json_object *f, char *why,
				   size_t len)
{
	if (rc || !f) {
		snprintf(why, len, "exit %d", rc);
		return why;
	}
	double fr = job_ios(f, 1) / job_ios(f, 0);
	if (fr >= 5.6 && fr <= 10.4)
		return NULL;
	snprintf(why, len, "b:a %.2f, not in 5.6..10.4", fr);
	return why;
}

/* flow=1 and flow=8 in the default flow: both tools issue about 8 of
 * the second job's I/Os for each of the first's (±30 %); without flow
 * the ratio is about 1. fio's own ratio drifts under load (6.73 in CI,
 * 5.39 on a busy 2-core machine: its jobs start one after the other and
 * its flow counter is checked every flow_sleep), so fio gets up to 3
 * runs to show its ratio (side_fio_tries). iochar times each job from
 * its own start as fio does, so on a busy machine a job started late runs
 * alone after the other left the flow (b:a 14.75 seen under two CPU
 * hogs): iochar gets up to 3 runs too, each printed, and must hold the
 * ratio and "regulated, not stalled" on one of them. Under the same hogs
 * its job a did ~600 I/Os in 700 ms when a held member yielded (each turn
 * cost a tick); it now waits on the flow (flow_wait_turn): 13k-167k. */
static void test_flow_ratio(void **state)
{
	static const char opts[] = FIRST "--name=a " NUL "--flow=1 --time_based "
				   "--runtime=700ms --name=b " NUL "--flow=8 "
				   "--time_based --runtime=700ms";
	const char *dir = *state;
	json_object *f, *i;
	int rf, ri;
	side_need_fio();
	/* one tool after the other: each tool's ratio is its own, not cut by
	 * the other's two threads on the same CPUs */
	double ir = 0, ia = 0;
	for (unsigned t = 1;; t++) {
		ri = side_run("iochar", dir, "iochar", opts);
		assert_int_equal(ri, 0);
		i = side_json(dir, "iochar");
		assert_non_null(i);
		ir = job_ios(i, 1) / job_ios(i, 0);
		ia = job_ios(i, 0);
		print_message("iochar, try %u of 3: b:a %.2f, a's I/Os %.0f\n", t, ir, ia);
		if ((ir >= 5.6 && ir <= 10.4 && ia > 1000) || t == 3)
			break;
		json_object_put(i);
	}
	expect_within("iochar's b:a", ir, 5.6, 10.4);
	assert_true(ia > 1000); /* regulated, not stalled */
	rf = side_run("fio", dir, "fio", opts);
	f = rf == 0 ? side_json(dir, "fio") : NULL;
	side_fio_tries(dir, opts, rf, &f, flow_ratio_held, 3);
	print_message("fio's b:a %.2f\n", job_ios(f, 1) / job_ios(f, 0));
	json_object_put(f);
	json_object_put(i);
}

/* A size-bounded job with weight 1 ends after its 16 I/Os; the job of
 * weight 8 is then alone in the flow and does all its 1024 in both. */
static void test_flow_leave(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, FIRST "--name=a " NUL "--size=64k --flow=1 "
		 "--name=b " NUL "--flow=8", &f, &i);
	assert_int_equal((int)job_ios(f, 0), 16);
	assert_int_equal((int)job_ios(i, 0), 16);
	assert_int_equal((int)job_ios(f, 1), 1024);
	assert_int_equal((int)job_ios(i, 1), 1024);
	json_object_put(f);
	json_object_put(i);
}

/* Two jobs of one weight sleeping 100 ms whenever they are ahead: a few
 * I/Os per sleep, a few dozen a second in iochar, shared evenly (an
 * unregulated null job does millions). fio is held only to regulating:
 * its jobs start one after the other and check the flow counter once per
 * flow_sleep, so on a loaded machine one job ran 1119 I/Os (CI) before
 * the other's weight reached the counter; 62 on a quiet one. */
static void test_flow_sleep(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, FIRST "--name=a " NUL "--flow=1 --flow_sleep=100000 --time_based "
		 "--runtime=1 --name=b " NUL "--flow=1 --flow_sleep=100000 "
		 "--time_based --runtime=1", &f, &i);
	for (size_t k = 0; k < 2; k++) {
		expect_within("fio's I/Os", job_ios(f, k), 15, 5000);
		expect_within("iochar's I/Os", job_ios(i, k), 15, 80);
	}
	expect_within("iochar's a:b", job_ios(i, 0) / job_ios(i, 1), 0.8, 1.25);
	json_object_put(f);
	json_object_put(i);
}

/* fio 3.33 hangs at the end of some offload runs of a job in its own
 * process (one in two here; none seen with thread, which the test
 * uses, so that a kill reaches the whole of fio): up to 3 tries, each
 * bounded and killed. The exit status of the last. */
static int fio_offload(const char *dir, const char *opts)
{
	char cmd[4600];
	int rc = -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/fio' && cd '%s/fio' && "
		 "timeout -k 1 4 fio %s > out.json 2> err.txt", dir, dir, opts);
	for (int k = 0; k < 3 && rc != 0; k++)
		rc = system(cmd);
	return rc;
}

/* io_submit_mode=offload under rate_iops=50: both run at the rate
 * (iochar paces from the job's thread), and iochar says at start that
 * it submits inline. */
static void test_submit_offload(void **state)
{
	const char *dir = *state;
	const char *opts = FIRST "--thread --name=p --filename=data --size=4m "
		"--rw=randread --ioengine=libaio --iodepth=8 "
		"--io_submit_mode=offload --rate_iops=50 --time_based "
		"--runtime=1s";
	side_need_fio();
	if (fio_offload(dir, opts)) {
		print_message("SKIP: fio hung in each of 3 offload runs\n");
		skip();
	}
	assert_int_equal(side_run("iochar", dir, "iochar", opts), 0);
	json_object *f = side_json(dir, "fio"), *i = side_json(dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	double fi = side_jobs_sum(f, "read", "iops");
	double ii = side_jobs_sum(i, "read", "iops");
	expect_within("fio's IOPS", fi, 42.5, 57.5);
	expect_within("iochar's IOPS", ii, 42.5, 57.5);
	/* said in iochar's JSON, not on stderr (a harness's failure) */
	expect_note(i, "differs from fio here: io_submit_mode: offload is "
		       "accepted but I/O is submitted inline");
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "test ! -s '%s/iochar/err.txt'", dir);
	if (system(cmd))
		fail_msg("iochar wrote to stderr where fio is silent");
	json_object_put(f);
	json_object_put(i);
}

/* What a file's 4 KiB blocks hold: how many, how many distinct, and the
 * share of zero bytes (fio's compressible fill zeros the rest of each
 * chunk: the share is what compresses away). */
struct blocks {
	size_t n;
	uint64_t *hash;
	double zero_share;
};

static uint64_t fnv1a(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void blocks_read(struct blocks *b, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	unsigned char buf[4096];
	uint64_t zeros = 0;
	b->n = 0;
	b->hash = NULL;
	for (size_t k = 0; k < 1u << 20 && fread(buf, 1, sizeof(buf), f) == sizeof(buf); k++) {
		b->hash = realloc(b->hash, (b->n + 1) * sizeof(*b->hash));
		assert_non_null(b->hash);
		b->hash[b->n++] = fnv1a(buf, sizeof(buf));
		for (size_t i = 0; i < sizeof(buf); i++)
			zeros += !buf[i];
	}
	fclose(f);
	b->zero_share = b->n ? (double)zeros / (4096.0 * (double)b->n) : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Distinct blocks of a and b together (b NULL: a alone), as a share. */
static double distinct_share(const struct blocks *a, const struct blocks *b)
{
	size_t n = a->n + (b ? b->n : 0), d = 0;
	uint64_t *all = malloc((n ? n : 1) * sizeof(*all));
	assert_non_null(all);
	memcpy(all, a->hash, a->n * sizeof(*all));
	if (b)
		memcpy(all + a->n, b->hash, b->n * sizeof(*all));
	qsort(all, n, sizeof(*all), cmp_u64);
	for (size_t i = 0; i < n; i++)
		d += i == 0 || all[i] != all[i - 1];
	free(all);
	return n ? (double)d / (double)n : 0;
}

static void write_job(const char *dir, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/job.fio", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Run dir/job.fio through both (jobs a and b); per tool, a's blocks in
 * [0], b's in [1]. */
static void run_job_files(const char *dir, struct blocks fb[2], struct blocks ib[2])
{
	int rf, ri;
	side_run_both(dir, "../job.fio", &rf, &ri);
	if (rf || ri)
		fail_msg("fio exit %d, iochar exit %d (see %s/*/err.txt)", rf, ri, dir);
	static const char *const names[2] = {"a.0.0", "b.0.0"};
	char path[4200];
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/fio/%s", dir, names[k]);
		blocks_read(&fb[k], path);
		snprintf(path, sizeof(path), "%s/iochar/%s", dir, names[k]);
		blocks_read(&ib[k], path);
		assert_int_equal(fb[k].n, 1024);
		assert_int_equal(ib[k].n, 1024);
	}
}

static void expect_near_share(const char *what, double fio, double ioc)
{
	if (ioc < fio - 0.05 || ioc > fio + 0.05)
		fail_msg("%s: fio %.3f, iochar %.3f (more than 0.05 apart)", what,
			 fio, ioc);
}

/* dedupe-global.fio, 4 MiB a job: half the blocks repeat one of a
 * working set spanning both jobs, half of each chunk is zeros. fio and
 * iochar leave the same shares of distinct blocks per file and over both
 * files (global: fewer than the sum) and of zeros. */
static void test_dedupe_global(void **state)
{
	const char *dir = *state;
	side_need_fio();
	write_job(dir, "[global]\nioengine=libaio\niodepth=16\nsize=4m\n"
		  "dedupe_mode=working_set\ndedupe_global=1\n"
		  "dedupe_percentage=50\nblocksize=4k\nrw=write\n"
		  "buffer_compress_percentage=50\n"
		  "dedupe_working_set_percentage=50\n[a]\n[b]\n");
	struct blocks fb[2], ib[2];
	run_job_files(dir, fb, ib);
	for (int k = 0; k < 2; k++) {
		expect_near_share("distinct blocks of a file", distinct_share(&fb[k], NULL),
				  distinct_share(&ib[k], NULL));
		expect_near_share("zero bytes", fb[k].zero_share, ib[k].zero_share);
		assert_true(ib[k].zero_share > 0.45 && ib[k].zero_share < 0.55);
	}
	double f2 = distinct_share(&fb[0], &fb[1]), i2 = distinct_share(&ib[0], &ib[1]);
	expect_near_share("distinct blocks of both files", f2, i2);
	/* shared working set: the files have blocks in common */
	assert_true(i2 < (distinct_share(&ib[0], NULL) + distinct_share(&ib[1], NULL)) / 2 - 0.05);
	for (int k = 0; k < 2; k++) {
		free(fb[k].hash);
		free(ib[k].hash);
	}
}

/* dedupe_mode=repeat (the default) at 30 %: about 70 % distinct blocks
 * in both, none shared between the jobs, no zeros. */
static void test_dedupe_repeat(void **state)
{
	const char *dir = *state;
	side_need_fio();
	write_job(dir, "[global]\nioengine=psync\nsize=4m\nbs=4k\nrw=write\n"
		  "dedupe_percentage=30\n[a]\n[b]\n");
	struct blocks fb[2], ib[2];
	run_job_files(dir, fb, ib);
	for (int k = 0; k < 2; k++) {
		expect_near_share("distinct blocks of a file", distinct_share(&fb[k], NULL),
				  distinct_share(&ib[k], NULL));
		assert_true(ib[k].zero_share < 0.01);
	}
	expect_near_share("distinct blocks of both files",
			  distinct_share(&fb[0], &fb[1]), distinct_share(&ib[0], &ib[1]));
	for (int k = 0; k < 2; k++) {
		free(fb[k].hash);
		free(ib[k].hash);
	}
}

/* The working set and the repeats cannot pass 100 %: both refuse, and
 * iochar writes nothing. */
static void test_dedupe_impossible(void **state)
{
	const char *dir = *state;
	side_need_fio();
	int rf, ri;
	side_run_both(dir, FIRST "--name=a --filename=data --size=1m --rw=write "
		      "--dedupe_mode=working_set --dedupe_percentage=60 "
		      "--dedupe_working_set_percentage=50", &rf, &ri);
	assert_int_not_equal(rf, 0);
	assert_int_equal(ri, 2);
	char path[4200];
	struct stat st;
	snprintf(path, sizeof(path), "%s/iochar/data", dir);
	assert_int_not_equal(stat(path, &st), 0);
}

/* jobs[k] of doc. */
static json_object *job_at(json_object *doc, size_t k)
{
	json_object *jobs;
	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	assert_true(k < json_object_array_length(jobs));
	return json_object_array_get_idx(jobs, k);
}

static double num_at(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no \"%s\" member", key);
	return json_object_get_double(v);
}

/* The job's "steadystate" against fio's: the same members (and in data),
 * rule, window length and attained; a window of duration samples. */
static void expect_same_ss(json_object *fj, json_object *ij)
{
	json_object *fs, *is, *fd, *id, *arr;
	assert_true(json_object_object_get_ex(fj, "steadystate", &fs));
	if (!json_object_object_get_ex(ij, "steadystate", &is))
		fail_msg("iochar wrote no \"steadystate\"");
	json_object_object_foreach(fs, key, val) {
		(void)val;
		json_object *x;
		if (!json_object_object_get_ex(is, key, &x))
			fail_msg("iochar's steadystate lacks \"%s\"", key);
	}
	assert_string_equal(json_object_get_string(json_object_object_get(fs, "ss")),
			    json_object_get_string(json_object_object_get(is, "ss")));
	assert_int_equal((int)num_at(fs, "duration"), (int)num_at(is, "duration"));
	assert_int_equal((int)num_at(fs, "attained"), (int)num_at(is, "attained"));
	assert_true(json_object_object_get_ex(fs, "data", &fd));
	assert_true(json_object_object_get_ex(is, "data", &id));
	json_object_object_foreach(fd, k2, v2) {
		(void)v2;
		if (!json_object_object_get_ex(id, k2, &arr))
			fail_msg("iochar's steadystate.data lacks \"%s\"", k2);
	}
	assert_true(json_object_object_get_ex(id, "iops", &arr));
	assert_int_equal(json_object_array_length(arr), (size_t)num_at(is, "duration"));
}

/* steadystate.fio's two groups on the null engine, side by side (its
 * 30 s windows after ramps would take too long: 2 s, no ramp): the
 * steady null jobs end once the window is full, long before their 20 s,
 * in both tools and within a second of each other, and both report the
 * window. Failed once at load 11 (and passed the next 5 runs, 2 CPU
 * hogs included): the pair gets up to 3 runs for its times. */
static void test_steadystate(void **state)
{
	const char *dir = *state;
	side_need_fio();
	write_job(dir, "[global]\nthread=1\ngroup_reporting\ntime_based\n"
		  "size=16m\nfilename=data\nioengine=null\nruntime=20\n"
		  "ss_dur=2s\n"
		  "[w]\nrw=write\nbs=128k\nnumjobs=2\nss=iops:50%\n"
		  "[r]\nnew_group\nrw=randread\nbs=4k\n"
		  "numjobs=2\nss=bw:50%\n");
	int rf, ri;
	json_object *f, *i;
	/* side by side on a busy machine a window can fill late in either
	 * tool: the pair runs again, up to 3 times, until both tools'
	 * times are in their bounds (each try printed); then every check */
	for (unsigned t = 1;; t++) {
		side_run_both(dir, "../job.fio", &rf, &ri);
		if (rf || ri)
			fail_msg("fio exit %d, iochar exit %d (see %s/*/err.txt)", rf, ri, dir);
		f = side_json(dir, "fio");
		i = side_json(dir, "iochar");
		assert_non_null(f);
		assert_non_null(i);
		bool held = true;
		for (size_t k = 0; k < 2; k++) {
			double ft = num_at(job_at(f, k), "job_runtime") / 2000;
			double it = num_at(job_at(i, k), "job_runtime") / 2000;
			print_message("try %u of 3, group %zu: seconds to steady state: fio %.2f, "
				      "iochar %.2f\n", t, k, ft, it);
			held &= ft >= 1.5 && ft <= 3.5 && it >= ft - 1.0 && it <= ft + 1.0;
		}
		if (held || t == 3)
			break;
		json_object_put(f);
		json_object_put(i);
	}
	for (size_t k = 0; k < 2; k++) {
		json_object *fj = job_at(f, k), *ij = job_at(i, k);
		expect_same_ss(fj, ij);
		/* two clones: job_runtime sums them */
		double ft = num_at(fj, "job_runtime") / 2000, it = num_at(ij, "job_runtime") / 2000;
		expect_within("fio's seconds to steady state", ft, 1.5, 3.5);
		expect_within("iochar's seconds to steady state", it, ft - 1.0, ft + 1.0);
	}
	json_object_put(f);
	json_object_put(i);
}

/* A criterion fio does not know, and one with no limit: both refuse. */
static void test_steadystate_refused(void **state)
{
	const char *dir = *state;
	side_need_fio();
	static const char *const bad[] = {"--ss=lat:5%", "--ss=iops"};
	for (size_t k = 0; k < 2; k++) {
		char opts[512];
		int rf, ri;
		snprintf(opts, sizeof(opts), FIRST "--name=a --filename=data "
			 "--size=1m --ioengine=null --ss_dur=2 %s", bad[k]);
		side_run_both(dir, opts, &rf, &ri);
		if (!rf || ri != 2)
			fail_msg("%s: fio exit %d, iochar exit %d", bad[k], rf, ri);
	}
}

/* latency_target=1s on the null engine: every window meets it, so both
 * double the depth up to iodepth=8, run one last window there and end,
 * long before the runtime, reporting fio's latency_* members alike.
 * Failed once at load 11 (passed the next 5 runs): up to 3 runs for the
 * window's time. */
static void test_latency_target_found(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	/* the last window's length varies with load in either tool: the pair
	 * runs again, up to 3 times, until both are in 90..150 ms (each try
	 * printed); then every check */
	for (unsigned t = 1;; t++) {
		side_run_both_json(dir, FIRST "--name=d " NUL "--ioengine=null --iodepth=8 "
			 "--latency_target=1s --latency_window=100000 "
			 "--latency_percentile=99.9 --time_based --runtime=10", &f, &i);
		double fr = num_at(job_at(f, 0), "job_runtime");
		double ir = num_at(job_at(i, 0), "job_runtime");
		print_message("try %u of 3: job_runtime fio %.0f ms, iochar %.0f ms\n", t, fr, ir);
		if ((fr >= 90 && fr <= 150 && ir >= 90 && ir <= 150) || t == 3)
			break;
		json_object_put(f);
		json_object_put(i);
	}
	json_object *fj = job_at(f, 0), *ij = job_at(i, 0);
	static const char *const keys[] = {"latency_depth", "latency_target",
					   "latency_percentile", "latency_window"};
	for (size_t k = 0; k < 4; k++)
		if (num_at(fj, keys[k]) != num_at(ij, keys[k]))
			fail_msg("%s: fio %g, iochar %g", keys[k], num_at(fj, keys[k]),
				 num_at(ij, keys[k]));
	assert_int_equal((int)num_at(ij, "latency_depth"), 8);
	/* the statistics are the last window's */
	expect_within("fio's job_runtime", num_at(fj, "job_runtime"), 90, 150);
	expect_within("iochar's job_runtime", num_at(ij, "job_runtime"), 90, 150);
	json_object_put(f);
	json_object_put(i);
}

/* A target of 1 us with every I/O required within it: over it at depth
 * 1, both fail the job with ETIMEDOUT after its first I/O. */
static void test_latency_target_fails(void **state)
{
	const char *dir = *state;
	side_need_fio();
	int rf, ri;
	side_run_both(dir, FIRST "--name=d --filename=data --size=4m --rw=randread "
		      "--ioengine=libaio --iodepth=8 --latency_target=1 "
		      "--latency_window=100000 --time_based --runtime=10", &rf, &ri);
	assert_int_not_equal(rf, 0);
	assert_int_not_equal(ri, 0);
	/* fio writes its error line before the JSON: grep, not parse */
	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "grep -q '\"error\" : 110' '%s/fio/out.json' && "
		 "grep -q '\"total_ios\" : 1,' '%s/fio/out.json'", dir, dir);
	if (system(cmd))
		fail_msg("fio did not fail the job with ETIMEDOUT after one I/O");
	json_object *i = side_json(dir, "iochar"), *ir;
	assert_non_null(i);
	assert_int_equal((int)num_at(job_at(i, 0), "error"), 110);
	assert_true(json_object_object_get_ex(job_at(i, 0), "read", &ir));
	assert_int_equal((int)num_at(ir, "total_ios"), 1);
	json_object_put(i);
}

/* The mean number of I/Os outstanding by Little's law: read IOPS x mean
 * latency, of job 0. */
static double outstanding(json_object *doc)
{
	json_object *rd, *lat;
	assert_true(json_object_object_get_ex(job_at(doc, 0), "read", &rd));
	assert_true(json_object_object_get_ex(rd, "lat_ns", &lat));
	return num_at(rd, "iops") * num_at(lat, "mean") / 1e9;
}

/* iodepth=3 with io_uring: iochar keeps 3 outstanding; fio 3.33 rounds
 * its io_uring depth up to a power of two (fio_ioring_init) and keeps 4
 * while reporting 3 (docs/fio-compat.md's general differences). On the
 * disk, direct, so that the queue is the device's and stays full. */
static void test_io_uring_depth_kept(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, FIRST "--name=q --filename=data --size=64m --direct=1 "
		 "--ioengine=io_uring --rw=randread --bs=4k --iodepth=3 "
		 "--norandommap --time_based --runtime=1", &f, &i);
	double fo = outstanding(f), io = outstanding(i);
	expect_within("fio's outstanding I/Os at iodepth=3", fo, 3.3, 4.05);
	expect_within("iochar's outstanding I/Os at iodepth=3", io, 2.0, 3.05);
	json_object_put(f);
	json_object_put(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flow_ratio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_flow_leave, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_flow_sleep, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_submit_offload, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dedupe_global, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dedupe_repeat, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dedupe_impossible, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_steadystate, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_steadystate_refused, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_latency_target_found, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_latency_target_fails, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_io_uring_depth_kept, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
