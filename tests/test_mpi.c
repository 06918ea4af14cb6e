/* test_mpi.c - runs over many hosts, played by mpirun --oversubscribe
 * with 3 and 4 ranks on this machine: totals are the sum of the ranks',
 * merged percentiles are those of every rank's samples together (each rank
 * dumps its histogram, IOCHAR_DIST_HIST_DIR), the start skew is measured,
 * plans write one results directory with per-host figures, a rank killed
 * mid-run ends the run in order with its host named, and ranks that
 * disagree on the job, or whose target the guard refuses, stop everything
 * before any I/O; trims are merged like reads and writes. SKIP when mpirun is missing or iochar was built without
 * MPI. No timing thresholds beyond a loose bound on the skew (< 1 s). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "mpi_harness.h"
#include "stats/hist.h"

/* Every rank's dumped histogram merged: the histogram of all I/Os. */
static void merge_dumps(const char *dir, int ranks, struct hist *all)
{
	hist_init(all);
	for (int r = 0; r < ranks; r++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/hist-%d.txt", dir, r);
		FILE *f = fopen(path, "re");
		if (!f)
			fail_msg("rank %d wrote no histogram (%s)", r, path);
		struct hist h;
		unsigned long long count, min, max, sum, idx, n;
		hist_init(&h);
		assert_int_equal(fscanf(f, "count %llu min %llu max %llu sum %llu\n",
					&count, &min, &max, &sum), 4);
		h.count = count;
		h.min = min;
		h.max = max;
		h.sum = sum;
		while (fscanf(f, "%llu %llu\n", &idx, &n) == 2) {
			assert_true(idx < HIST_BUCKETS);
			h.buckets[idx] = n;
		}
		fclose(f);
		assert_true(h.count > 0);
		hist_merge(all, &h);
	}
}

static void check_hosts_sum(json_object *o, int ranks)
{
	json_object *hosts = jget(o, "hosts");
	assert_int_equal(json_object_array_length(hosts), ranks);
	uint64_t sum = 0;
	for (int r = 0; r < ranks; r++) {
		json_object *h = json_object_array_get_idx(hosts, r);
		assert_int_equal(jget_u64(h, "rank"), r);
		assert_false(json_object_get_boolean(jget(h, "lost")));
		assert_true(jget_u64(h, "total.ios") > 0);
		sum += jget_u64(h, "total.ios");
	}
	assert_int_equal(sum, jget_u64(o, "total.ios"));
	/* measured and reported; a loose bound only (2 cores, oversubscribed) */
	assert_true(json_object_object_get_ex(o, "start_skew_ns", NULL));
	assert_true(jget_u64(o, "start_skew_ns") < 1000000000ull);
}

static void run_ranks(void **state, int ranks)
{
	const char *dir = *state;
	need_mpi();
	int rc = sh("cd '%s' && IOCHAR_DIST_HIST_DIR='%s' " RUN_TIMEOUT
		    "mpirun --oversubscribe -np %d '%s' run --ioengine=null --rw=randread "
		    "--bs=4k --size=1g --runtime=400ms --time_based --output-format=json "
		    ">out.json 2>err",
		    dir, dir, ranks, mpi_bin);
	if (rc != 0)
		fail_with(dir, "mpirun iochar run failed");
	char path[4200];
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	check_hosts_sum(o, ranks);

	/* workers: every rank's, tagged, adding up to the total too */
	json_object *workers = jget(o, "workers");
	uint64_t wsum = 0;
	bool seen[8] = {0};
	for (size_t i = 0; i < json_object_array_length(workers); i++) {
		json_object *w = json_object_array_get_idx(workers, i);
		wsum += jget_u64(w, "total.ios");
		uint64_t h = jget_u64(w, "host");
		assert_true(h < (uint64_t)ranks);
		seen[h] = true;
	}
	assert_int_equal(wsum, jget_u64(o, "total.ios"));
	for (int r = 0; r < ranks; r++)
		assert_true(seen[r]);
	/* fio's layout: every rank's workers with their depth maps and slat
	 * (the wire carries them) */
	json_object *jobs = jget(o, "jobs");
	assert_int_equal(json_object_array_length(jobs), json_object_array_length(workers));
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		double share = 0;
		json_object_object_foreach(jget(j, "iodepth_level"), k, v)
		{
			(void)k;
			share += json_object_get_double(v);
		}
		assert_true(share > 99.0 && share < 101.0);
		(void)jget(j, "iodepth_submit");
		(void)jget(j, "iodepth_complete");
		assert_int_equal(jget_u64(j, "read.slat_ns.N"), jget_u64(j, "read.total_ios"));
	}
	/* fio's client layout: each entry again with its hostname, then
	 * "All clients", every worker merged exactly */
	json_object *cs = jget(o, "client_stats");
	size_t ncs = json_object_array_length(cs);
	assert_int_equal(ncs, json_object_array_length(jobs) + 1);
	for (size_t i = 0; i < ncs; i++)
		assert_true(strlen(json_object_get_string(
				    jget(json_object_array_get_idx(cs, i), "hostname"))) > 0);
	json_object *allc = json_object_array_get_idx(cs, ncs - 1);
	assert_string_equal(json_object_get_string(jget(allc, "jobname")), "All clients");
	assert_int_equal(jget_u64(allc, "read.total_ios"), jget_u64(o, "total.ios"));

	/* the merge is exact: rank 0's percentiles are those of all samples */
	struct hist all;
	merge_dumps(dir, ranks, &all);
	assert_int_equal(all.count, jget_u64(o, "total.ios"));
	assert_int_equal(all.min, jget_u64(o, "total.lat_ns.min"));
	assert_int_equal(all.max, jget_u64(o, "total.lat_ns.max"));
	static const struct { double p; const char *key; } pct[] = {
		{50, "total.lat_ns.p50"}, {90, "total.lat_ns.p90"},
		{99, "total.lat_ns.p99"}, {99.9, "total.lat_ns.p99_9"},
		{99.99, "total.lat_ns.p99_99"},
	};
	for (unsigned i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		assert_int_equal(hist_percentile(&all, pct[i].p), jget_u64(o, pct[i].key));
	/* "All clients"' fio figures from the same merged histogram */
	assert_int_equal(all.count, jget_u64(allc, "read.lat_ns.N"));
	assert_int_equal(all.min, jget_u64(allc, "read.lat_ns.min"));
	assert_int_equal(all.max, jget_u64(allc, "read.lat_ns.max"));
	assert_true(json_object_object_get_ex(jget(allc, "read.clat_ns.percentile"), "99.000000",
					      NULL));
	json_object_put(o);
}

static void test_run_3_ranks_merges_exactly(void **state)
{
	run_ranks(state, 3);
}

static void test_run_4_ranks_merges_exactly(void **state)
{
	run_ranks(state, 4);
}

/* Trims travel with the rest (src/dist/wire.c): a size-bounded randtrim
 * per rank, and the merged document counts every rank's trims, in the
 * hosts and in the total. */
static void test_trims_cross_the_wire(void **state)
{
	const char *dir = *state;
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' run "
		    "--ioengine=null --rw=randtrim --bs=4k --size=1m "
		    "--output-format=json >out.json 2>err", dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "mpirun iochar run (randtrim) failed");
	char path[4200];
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	check_hosts_sum(o, 3);
	json_object *hosts = jget(o, "hosts");
	for (int r = 0; r < 3; r++) {
		json_object *h = json_object_array_get_idx(hosts, r);
		assert_int_equal(jget_u64(h, "trim.ios"), 256); /* 1 MiB / 4 KiB */
		assert_int_equal(jget_u64(h, "write.ios"), 0);
	}
	assert_int_equal(jget_u64(o, "trim.ios"), 3 * 256);
	assert_int_equal(jget_u64(o, "trim.bytes"), 3u << 20);
	assert_int_equal(jget_u64(o, "total.ios"), 3 * 256);
	json_object_put(o);
}

/* Flushes travel too (issue 37: the hand-made wire dropped sync_ios and
 * sync_lat, so rank 1 showed 0 fsyncs): 100 writes with fsync=1 on a
 * file per rank, and every rank's job and client show its flushes. */
static void test_fsyncs_cross_the_wire(void **state)
{
	const char *dir = *state;
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' run "
		    "--name=f --filename='%s/f%%r.dat' --rw=write --bs=4k --size=400k "
		    "--fsync=1 --output-format=json >out.json 2>err", dir, mpi_bin, dir);
	if (rc != 0)
		fail_with(dir, "mpirun iochar run (fsync=1) failed");
	char path[4200];
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	json_object *jobs = jget(o, "jobs"), *clients = jget(o, "client_stats");
	assert_int_equal(json_object_array_length(jobs), 2);
	uint64_t want = jget_u64(json_object_array_get_idx(jobs, 0), "sync.total_ios");
	assert_true(want >= 99); /* fio's count: a flush after each write but the last */
	for (int r = 0; r < 2; r++) {
		json_object *j = json_object_array_get_idx(jobs, r);
		assert_int_equal(jget_u64(j, "sync.total_ios"), want);
		assert_true(jget_u64(j, "sync.lat_ns.max") > 0);
		assert_int_equal(jget_u64(json_object_array_get_idx(clients, r), "sync.total_ios"),
				 want);
	}
	json_object_put(o);
}

static unsigned nh_count_lines_with(const char *s, const char *needle)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Per-I/O logs are per rank, named fio's way plus host and rank: two
 * ranks on one host, 3,000 I/Os each, each rank's own file of 3,000
 * lines (one file of 3,000 for 6,000 I/Os before). */
static void test_logs_per_rank(void **state)
{
	const char *dir = *state;
	char host[256] = "", path[4400];
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' run --name=l "
		    "--ioengine=null --rw=randread --bs=4k --size=1g --number_ios=3000 "
		    "--write_lat_log='%s/lat' --output-format=json >out.json 2>err",
		    dir, mpi_bin, dir);
	if (rc != 0)
		fail_with(dir, "mpirun iochar run (write_lat_log) failed");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	snprintf(host, sizeof(host), "%s",
		 json_object_get_string(jget(json_object_array_get_idx(jget(o, "hosts"), 0), "host")));
	json_object_put(o);
	for (int r = 0; r < 2; r++) {
		snprintf(path, sizeof(path), "%s/lat_clat.1.log.%s.%d", dir, host, r);
		char *text = slurp(path);
		unsigned lines = 0;
		for (char *c = text; *c; c++)
			lines += *c == '\n';
		if (lines != 3000)
			fail_msg("%s: %u lines, want 3000", path, lines);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/lat_clat.1.log", dir);
	assert_false(file_exists(path));
	/* without --enable-recovery a dead rank loses the run: said up front */
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	assert_int_equal(nh_count_lines_with(err, "mpirun without --enable-recovery"), 1);
	free(err);
}

/* The live figures over many hosts are the whole cluster's: two ranks
 * paced at 1000 IOPS each show some 2000 on rank 0's progress lines (its
 * own would be 1000), and say they are all the hosts'. */
static void test_live_line_sums_the_ranks(void **state)
{
	const char *dir = *state;
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' run "
		    "--ioengine=null --rw=randread --size=16m --time_based --runtime=4 "
		    "--rate_iops=1000 --verbose --progress-interval=1s --output-format=json "
		    ">out.json 2>err",
		    dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "mpirun iochar run (paced) failed");
	char path[4200];
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	unsigned lines = 0, summed = 0;
	for (char *p = err; (p = strstr(p, " IOPS ")); p++, lines++) {
		char *num = p;
		while (num > err && strchr("0123456789.k", num[-1]))
			num--;
		double v = strtod(num, NULL) * (p[-1] == 'k' ? 1000 : 1);
		summed += v > 1600 && v < 2400;
	}
	bool ok = lines && summed && strstr(err, "| all 2 hosts");
	if (!ok)
		print_error("no cluster-wide live figures:\n%s\n", err);
	free(err);
	assert_true(ok);
}

/* A plan with a fixed step, a curve and a search on a file per rank (%r): one
 * results directory, every point with per-host figures that add up. */
static void test_plan_4_ranks(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	mpi_write_plan(dir, "4m", true, 4, 2);
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 4 '%s' plan p.ini "
		    "--out res >out 2>err", dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "mpirun iochar plan failed");
	for (int r = 0; r < 4; r++) {
		snprintf(path, sizeof(path), "%s/f-%d", dir, r);
		assert_true(file_exists(path)); /* each rank its own target */
	}
	snprintf(path, sizeof(path), "%s/res/results.json", dir);
	json_object *o = load_json(path);
	assert_true(json_object_get_boolean(jget(o, "complete")));
	json_object *steps = jget(o, "steps");
	assert_int_equal(json_object_array_length(steps), 3);
	json_object *fixed = jget(json_object_array_get_idx(
					  jget(json_object_array_get_idx(steps, 0), "sets"), 0),
				  "fixed");
	json_object *ph = jget(fixed, "per_host");
	assert_int_equal(json_object_array_length(ph), 4);
	uint64_t sum = 0;
	for (int r = 0; r < 4; r++)
		sum += jget_u64(json_object_array_get_idx(ph, r), "total.ios");
	assert_int_equal(sum, jget_u64(fixed, "total.ios"));
	assert_true(jget_u64(fixed, "start_skew_ns") < 1000000000ull);
	/* the curve ran its max and both points on every rank */
	json_object *cset = json_object_array_get_idx(
		jget(json_object_array_get_idx(steps, 1), "sets"), 0);
	assert_true(json_object_get_boolean(jget(cset, "done")));
	json_object *curve = jget(cset, "curve");
	assert_int_equal(json_object_array_length(curve), 2);
	/* the rate asked of the cluster is what the max reached, in total */
	double max_iops = jget_double(cset, "max.iops");
	assert_true(jget_double(json_object_array_get_idx(curve, 1), "asked_iops") <= max_iops * 1.01);
	assert_int_equal(json_object_array_length(
				 jget(json_object_array_get_idx(curve, 0), "point.per_host")), 4);
	/* the search took the same path on every rank (else they would
	 * have parted ways and timed out): done, its best has every host */
	json_object *sset = json_object_array_get_idx(
		jget(json_object_array_get_idx(steps, 2), "sets"), 0);
	assert_true(json_object_get_boolean(jget(sset, "done")));
	assert_int_equal(json_object_array_length(jget(sset, "best.per_host")), 4);
	json_object_put(o);
	/* only rank 0 writes results: no stray directories elsewhere */
	snprintf(path, sizeof(path), "%s/results", dir);
	assert_false(file_exists(path));
}

/* Issue 37 H6 over many hosts: a resumed plan whose ranks would name
 * other targets than the results record (no --filename: each rank's
 * scratch file) is refused before any I/O; named as before, it keeps the
 * finished step. */
static void test_plan_resume_checks_targets(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	sh("printf '[global]\\nioengine=psync\\nsize=1m\\nbs=4k\\ntime_based\\nruntime=1\\n"
	   "[a]\\nrw=randread\\n[b]\\nrw=randwrite\\n' >'%s/p.ini'", dir);
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' plan p.ini "
		    "--filename=f-%%r --out res >out 2>err && rm res/steps/001.*", dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "mpirun iochar plan failed");
	rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' plan p.ini "
		"--resume res >out 2>err", dir, mpi_bin);
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	if (rc == 0 || !strstr(err, "step 'a' ran on f-0"))
		fail_with(dir, "a resume on other targets was not refused");
	free(err);
	snprintf(path, sizeof(path), "%s/res/steps/001.json", dir);
	assert_false(file_exists(path));
	snprintf(path, sizeof(path), "%s/iochar-data", dir);
	assert_false(file_exists(path));
	rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' plan p.ini "
		"--filename=f-%%r --resume res >out 2>err", dir, mpi_bin);
	snprintf(path, sizeof(path), "%s/err", dir);
	err = slurp(path);
	if (rc != 0 || !strstr(err, "step 1 of 2, a: done earlier, kept"))
		fail_with(dir, "the resume on the recorded targets failed");
	free(err);
	snprintf(path, sizeof(path), "%s/res/steps/001.json", dir);
	assert_true(file_exists(path));
}

/* SIGKILL one rank mid-run (by the PID it wrote): the others stop in
 * order, rank 0 names the lost rank and host, keeps the others' figures
 * and exits 1, all within the timeout. mpirun --enable-recovery keeps the
 * survivors alive (without it mpirun itself kills every rank). */
static void test_killed_rank_ends_run_in_order(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	char args[1024];
	/* a file per rank: rank 1's exists, full, only once its run began */
	snprintf(args, sizeof(args), "run --ioengine=psync --rw=randread --bs=4k "
		 "--filename=%s/k-%%r --size=1m --runtime=60 --time_based "
		 "--output-format=json", dir);
	long victim;
	pid_t pid = mpi_spawn_victim(dir, args, "out.json", &victim);
	snprintf(path, sizeof(path), "%s/k-1", dir);
	wait_file_size(path, 1 << 20);
	sleep(1);
	assert_int_equal(kill((pid_t)victim, SIGKILL), 0);
	/* ended after the 3 s silence, long before the 60 s runtime */
	wait_ended_early(pid);

	if (mpi_rank0_status(dir) != 1)
		fail_with(dir, "rank 0 did not exit 1");
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "rank 1 (");
	expect_has(err, "lost");
	assert_null(strstr(err, "without --enable-recovery")); /* it was given */
	free(err);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	assert_true(json_object_get_boolean(jget(o, "partial")));
	json_object *hosts = jget(o, "hosts");
	assert_int_equal(json_object_array_length(hosts), 3);
	assert_true(json_object_get_boolean(jget(json_object_array_get_idx(hosts, 1), "lost")));
	uint64_t kept = 0;
	for (int r = 0; r < 3; r += 2) {
		json_object *h = json_object_array_get_idx(hosts, r);
		assert_false(json_object_get_boolean(jget(h, "lost")));
		assert_true(jget_u64(h, "total.ios") > 0);
		kept += jget_u64(h, "total.ios");
	}
	assert_int_equal(kept, jget_u64(o, "total.ios"));
	json_object_put(o);
}

/* Rank 1's target fails mid-run (its file cut short under the reader):
 * every rank stops at once, rank 0 names rank 1 and its error, keeps the
 * others' figures, and every rank exits 1 (mpirun too: nobody was lost). */
static void test_failed_target_on_one_rank_stops_all(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' run "
		 "--ioengine=psync --rw=randread --bs=4k --filename=%s/t-%%r --size=8m "
		 "--runtime=60 --time_based --output-format=json >out.json 2>err; "
		 "echo $? >rc", dir, mpi_bin, dir);
	pid_t pid = sh_spawn(cmd);
	snprintf(path, sizeof(path), "%s/t-1", dir);
	wait_file_size(path, 8 << 20);
	sleep(1);
	assert_int_equal(truncate(path, 4096), 0);
	wait_ended_early(pid); /* long before the 60 s runtime */
	if (status_file(dir, "rc") != 1)
		fail_with(dir, "mpirun did not exit 1");
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "rank 1 (");
	expect_has(err, "short transfer");
	free(err);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	assert_true(json_object_get_boolean(jget(o, "partial")));
	json_object *hosts = jget(o, "hosts");
	assert_int_equal(json_object_array_length(hosts), 3);
	json_object *h1 = json_object_array_get_idx(hosts, 1);
	assert_false(json_object_get_boolean(jget(h1, "lost")));
	expect_has(json_object_get_string(jget(h1, "error")), "short transfer");
	uint64_t sum = 0;
	for (int r = 0; r < 3; r++) {
		json_object *h = json_object_array_get_idx(hosts, r);
		assert_true(jget_u64(h, "total.ios") > 0);
		sum += jget_u64(h, "total.ios");
	}
	assert_int_equal(sum, jget_u64(o, "total.ios"));
	json_object_put(o);
}

/* The ranks' run was refused before any I/O: dir/err names rank 1 and
 * what (when not NULL), and no rank r of nr (every step-th from 0) made
 * its file dir/<prefix>-<r>. */
static void expect_refused_before_io(const char *dir, const char *what,
				     const char *prefix, int nr, int step)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "rank 1 (");
	if (what)
		expect_has(err, what);
	free(err);
	for (int r = 0; r < nr; r += step) {
		snprintf(path, sizeof(path), "%s/%s-%d", dir, prefix, r);
		assert_false(file_exists(path));
	}
}

/* MPMD: two ranks given different options are refused before any I/O. */
static void test_mismatched_options_refused(void **state)
{
	const char *dir = *state;
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe "
		    "-np 1 '%s' run --ioengine=psync --filename=%s/a-%%r --size=1m --bs=4k : "
		    "-np 1 '%s' run --ioengine=psync --filename=%s/a-%%r --size=1m --bs=8k "
		    ">out 2>err", dir, mpi_bin, dir, mpi_bin, dir);
	assert_int_not_equal(rc, 0);
	expect_refused_before_io(dir, "different job", "a", 2, 1);
	/* the option that differs is named, with both values */
	char path[4200];
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "[job 0] 'bs=8192' there, 'bs=4096' on rank 0");
	free(err);
}

/* Two ranks whose jobs differ only in a (one rank's options) and b (the
 * other's) are refused before any I/O: no target file v-R is made. */
static void expect_ranks_refused(const char *dir, const char *a, const char *b)
{
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --allow-run-as-root --oversubscribe "
		    "-np 1 '%s' run --rw=write --filename=%s/v-%%r --size=1m --bs=4k %s : "
		    "-np 1 '%s' run --rw=write --filename=%s/v-%%r --size=1m --bs=4k %s "
		    ">out 2>err", dir, mpi_bin, dir, a, mpi_bin, dir, b);
	assert_int_equal(rc, 2);
	expect_refused_before_io(dir, "different job", "v", 2, 1);
}

/* Ranks that differ only in verify (a field the agreement once left out:
 * it hashed the job JSON, which lacked it) are refused before any I/O. */
static void test_ranks_differing_in_verify_refused(void **state)
{
	expect_ranks_refused(*state, "--ioengine=psync --verify=1",
			     "--ioengine=psync --verify=0");
}

/* ... and so are ranks that differ only in an engine's own option. */
static void test_ranks_differing_in_engine_option_refused(void **state)
{
	expect_ranks_refused(*state, "--ioengine=libaio --userspace_reap=1",
			     "--ioengine=libaio");
}

/* The guard refuses rank 1's target (a file iochar did not create): no
 * rank writes anything, not even its own fresh file. */
static void test_guard_refusal_on_one_rank_writes_nothing(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	snprintf(path, sizeof(path), "%s/w-1", dir);
	make_file(path, 1 << 20);
	uint64_t before = file_hash(path);
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' run "
		    "--ioengine=psync --rw=write --filename=%s/w-%%r --size=1m --bs=4k "
		    ">out 2>err", dir, mpi_bin, dir);
	assert_int_equal(rc, 2);
	expect_refused_before_io(dir, NULL, "w", 3, 2);
	assert_int_equal(file_hash(path), before);
}

/* A build without MPI (make MPI=0, build-nompi/) started by mpirun with
 * several ranks says it needs the MPI build, exit 2; alone it runs. */
static void test_build_without_mpi_refuses_ranks(void **state)
{
	const char *dir = *state;
	const char *nompi = getenv("IOCHAR_NOMPI") ? getenv("IOCHAR_NOMPI") : "build-nompi/iochar";
	char nb[4096], path[4200];
	if (!realpath(nompi, nb)) {
		printf("SKIP: no build without MPI at %s (make MPI=0)\n", nompi);
		skip();
	}
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' run "
		    "--ioengine=null --size=1m >out 2>err", dir, nb);
	assert_int_not_equal(rc, 0);
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	/* one line, from rank 0 only */
	unsigned said = 0;
	for (const char *p = err; (p = strstr(p, "need the MPI build")); p++)
		said++;
	if (said != 1)
		fail_msg("said %u times, want once:\n%s", said, err);
	free(err);
	rc = sh("cd '%s' && '%s' run --ioengine=null --size=1m >out 2>err", dir, nb);
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_3_ranks_merges_exactly, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_run_4_ranks_merges_exactly, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_plan_4_ranks, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_fsyncs_cross_the_wire, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_logs_per_rank, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_live_line_sums_the_ranks, mpi_setup,
						mpi_teardown),
		cmocka_unit_test_setup_teardown(test_plan_resume_checks_targets, mpi_setup,
						mpi_teardown),
		cmocka_unit_test_setup_teardown(test_trims_cross_the_wire, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_killed_rank_ends_run_in_order, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_failed_target_on_one_rank_stops_all, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_mismatched_options_refused, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_ranks_differing_in_verify_refused, mpi_setup,
						mpi_teardown),
		cmocka_unit_test_setup_teardown(test_ranks_differing_in_engine_option_refused,
						mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_guard_refusal_on_one_rank_writes_nothing, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_build_without_mpi_refuses_ranks, mpi_setup, mpi_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
