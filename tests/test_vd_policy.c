/* test_vd_policy.c - the controller policies of a VD, end to end through
 * the iochar binary: access=blocked refuses all host I/O before anything
 * is created; disk_cache=off opens every member for durable writes
 * (O_DSYNC, seen in /proc/PID/fdinfo of the running job) and
 * disk_cache=on does not; write=back loses its cache on a kill -9 (the
 * simulated power loss) and the crash journal reports exactly the
 * acknowledged writes as lost, while write=back-bbu keeps the cache in a
 * file that the next verify writes to the members first: nothing lost;
 * vd init --mode=fast and full with require_init=1; vd rebuild at
 * several rebuild rates under a workload.
 */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "vd/def.h"
#include "vd/sync.h"
#include "verify/journal.h"

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

/* --vd=raid5,strip=16k,members=dir/NAME0:dir/NAME1:dir/NAME2,EXTRA */
static void vd_arg(char *buf, size_t len, const char *name, const char *extra)
{
	snprintf(buf, len, "--vd=raid5,strip=16k,members=%s/%s0:%s/%s1:%s/%s2%s%s", dir,
		 name, dir, name, dir, name, extra ? "," : "", extra ? extra : "");
}

static bool exists(const char *name, unsigned i)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/%s%u", dir, name, i);
	return access(p, F_OK) == 0;
}

static void test_access_blocked(void **state)
{
	(void)state;
	char vd[4096];
	struct proc_out po;
	const char *rws[] = {"--rw=randread", "--rw=randwrite"};

	vd_arg(vd, sizeof(vd), "b", "access=blocked");
	for (unsigned i = 0; i < 2; i++) {
		run_iochar(&po, NULL, 0, ARGS("run", vd, "--size=1m", rws[i], "--bs=4k",
					      "--runtime=1"));
		expect_exit(&po, 2);
		expect_has(po.err, "access=blocked");
		assert_int_equal(count_lines(po.err), 1);
		proc_out_free(&po);
		assert_false(exists("b", 0) || exists("b", 1) || exists("b", 2));
	}
}

/* Start `iochar run ARGS` in the background, stdout to /dev/null, stderr
 * to dir/err; its pid. */
static pid_t spawn(const char *const *args)
{
	char bin[4096], errlog[4096];
	const char *argv[32] = {bin};
	unsigned n = 1;

	assert_non_null(realpath(iochar_path(), bin));
	snprintf(errlog, sizeof(errlog), "%s/err", dir);
	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen(errlog, "w", stderr))
			_exit(126);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* The open flags (octal, from fdinfo) of pid's writable descriptor on
 * path, one with O_DSYNC if there is one; -1 when it has none open. */
static long fd_flags(pid_t pid, const char *path)
{
	char d[64], link[4200], target[4096];
	snprintf(d, sizeof(d), "/proc/%d/fd", (int)pid);
	DIR *dp = opendir(d);
	long flags = -1;
	struct dirent *e;
	while (dp && (e = readdir(dp))) {
		snprintf(link, sizeof(link), "%s/%s", d, e->d_name);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, path))
			continue;
		snprintf(link, sizeof(link), "/proc/%d/fdinfo/%s", (int)pid, e->d_name);
		FILE *f = fopen(link, "re");
		char line[256];
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "flags: %lo", &flags) == 1)
				break;
		if (f)
			fclose(f);
		if (flags >= 0 && (flags & O_ACCMODE) != O_RDONLY && (flags & O_DSYNC))
			break;
		if (flags >= 0 && (flags & O_ACCMODE) == O_RDONLY)
			flags = -1; /* a reader's, not the job's */
	}
	if (dp)
		closedir(dp);
	return flags;
}

/* Flags of the writable descriptors on members 0-2 of pid into f (-1:
 * none); true when all three have one (and with dsync, O_DSYNC). */
static bool member_flags(pid_t pid, const char *name, bool dsync, long f[3])
{
	char path[4096];
	bool all = true;
	for (unsigned m = 0; m < 3; m++) {
		snprintf(path, sizeof(path), "%s/%s%u", dir, name, m);
		f[m] = fd_flags(pid, path);
		all &= f[m] >= 0 && (!dsync || (f[m] & O_DSYNC));
	}
	return all;
}

/* A running write job's member descriptors: O_DSYNC iff dsync. Members
 * exist already for the disk_cache=on run (no fill phase: the job's are
 * the only writable descriptors), so it is sampled for 200 ms. */
static void check_disk_cache(const char *name, const char *extra, bool dsync)
{
	char vd[4096];
	long f[3];
	vd_arg(vd, sizeof(vd), name, extra);
	pid_t pid = spawn(ARGS("run", vd, "--size=1m", "--rw=randwrite", "--bs=4k",
			       "--time_based", "--runtime=20", "--ioengine=psync"));
	bool seen = false;
	for (int i = 0; i < 1000 && !seen; i++) {
		usleep(10000);
		seen = member_flags(pid, name, dsync, f);
	}
	for (int i = 0; seen && !dsync && i < 20; i++) {
		usleep(10000);
		member_flags(pid, name, false, f);
		for (unsigned m = 0; m < 3; m++)
			if (f[m] >= 0 && (f[m] & O_DSYNC))
				seen = false;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (!seen)
		fail_msg("%s: member descriptors flags 0%lo 0%lo 0%lo: O_DSYNC %s", extra,
			 f[0], f[1], f[2], dsync ? "missing" : "unexpected");
}

static void test_disk_cache(void **state)
{
	(void)state;
	check_disk_cache("dc", "disk_cache=off", true);
	check_disk_cache("dc", "disk_cache=on", false);
}

static uint64_t journal_dones(const char *path)
{
	struct journal_replay *r;
	struct ioc_err err = {0};
	if (journal_replay_file(path, &r, &err))
		return 0;
	uint64_t n = journal_replay_stats(r)->dones;
	journal_replay_free(r);
	return n;
}

/* A paced verify=1 journal= random write run on a write-back VD, killed
 * with SIGKILL 100 ms after its journal holds 50 completed writes: well
 * inside the cache's 1 s destage age, and at 200 IOPS over 32 rows of 8
 * blocks no row is written whole, so nothing has been destaged. Then
 * `iochar verify --journal` (JSON). */
static json_object *kill_and_verify(const char *name, const char *policy,
				    struct proc_out *po)
{
	char vd[4096], jarg[4300], jpath[4200], extra[128];
	snprintf(extra, sizeof(extra), "write=%s,cache_file=%s/%s.bbu", policy, dir, name);
	vd_arg(vd, sizeof(vd), name, extra);
	snprintf(jpath, sizeof(jpath), "%s/%s.j", dir, name);
	snprintf(jarg, sizeof(jarg), "--journal=%s", jpath);
	pid_t pid = spawn(ARGS("run", vd, "--size=1m", "--rw=randwrite", "--bs=4k",
			       "--verify=1", jarg, "--time_based", "--runtime=30",
			       "--rate_iops=200", "--ioengine=psync"));
	int status;
	for (int i = 0; i < 2000 && journal_dones(jpath) < 50; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			fail_msg("the %s run ended before the kill (0x%x)", policy, status);
		usleep(10000);
	}
	usleep(100000);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	char vdv[4096];
	/* verify names the cache file as the run did (the journal keeps the
	 * layout only) */
	vd_arg(vdv, sizeof(vdv), name, extra);
	run_iochar(po, NULL, 0, ARGS("verify", vdv, jarg, "--output-format=json"));
	return parse_json(po);
}

static void test_back_loses_cache_on_kill(void **state)
{
	(void)state;
	struct proc_out po;
	json_object *r = kill_and_verify("wb", "back", &po);
	expect_exit(&po, 1);
	/* every acknowledged write was in the cache: all of them lost, no
	 * other kind of failure, none found intact */
	uint64_t lost = jget_u64(r, "verify.lost");
	assert_true(lost >= 40);
	assert_int_equal(jget_u64(r, "verify.failures"), lost);
	assert_int_equal(jget_u64(r, "verify.acknowledged_units"), 0);
	json_object_put(r);
	proc_out_free(&po);
}

static void test_bbu_survives_kill(void **state)
{
	(void)state;
	struct proc_out po;
	char bbu[4200];
	json_object *r = kill_and_verify("bb", "back-bbu", &po);
	expect_exit(&po, 0);
	expect_has(po.err, "battery-backed cache");
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_true(jget_u64(r, "verify.acknowledged_units") >= 40);
	json_object_put(r);
	proc_out_free(&po);
	snprintf(bbu, sizeof(bbu), "%s/bb.bbu", dir);
	assert_int_equal(access(bbu, F_OK), -1); /* written back, then removed */
}

static uint64_t scrub_bad(const char *vdarg)
{
	struct vd_def *def = malloc(sizeof(*def));
	struct ioc_err err = {0};
	struct vd_sync s;
	uint64_t bad = 0;
	struct stat st;
	char m0[4096];
	assert_int_equal(vd_def_parse(vdarg + 5, def, &err), 0);
	assert_int_equal(stat(def->members[0], &st), 0);
	snprintf(m0, sizeof(m0), "%s", def->members[0]);
	assert_int_equal(vd_sync_open(&s, def, (uint64_t)st.st_size, false, &err), 0);
	assert_int_equal(vd_sync_scrub(&s, 0, vd_sync_rows(&s), &bad, &err), 0);
	vd_sync_close(&s);
	free(def);
	return bad;
}

/* A plan whose one step runs on the VD of vdarg (--vd=...): exit want. */
static void run_plan(const char *vdarg, int want)
{
	char ini[4200], out[4200];
	struct proc_out po;
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fprintf(f, "[global]\n%s\nruntime=1\ntime_based=1\n[w]\nrw=randwrite\nbs=4k\n",
		vdarg + 2);
	fclose(f);
	run_iochar(&po, NULL, 0, ARGS("plan", ini, "--out", out));
	expect_exit(&po, want);
	if (want)
		expect_has(po.err, "require_init=1");
	proc_out_free(&po);
}

/* vd init: --mode=fast leaves the VD uninitialized (a require_init=1 job
 * or plan step is refused, members untouched); a full init rewrites the parity of every
 * row (a damaged parity strip is made right), reports rows, bytes and
 * MB/s, and then require_init=1 runs. */
static void test_init_modes(void **state)
{
	(void)state;
	char vd[4096], req[4200], p2[4200];
	struct proc_out po;

	vd_arg(vd, sizeof(vd), "in", NULL);
	snprintf(req, sizeof(req), "%s,require_init=1", vd);
	run_iochar(&po, NULL, 0, ARGS("vd", "init", vd, "--size=4m", "--mode=fast",
				      "--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	expect_has(json_object_get_string(jget(r, "init.mode")), "fast");
	assert_int_equal(jget_u64(r, "init.rows"), 4 * 1024 * 1024 / 32768);
	json_object_put(r);
	proc_out_free(&po);

	snprintf(p2, sizeof(p2), "%s/in2", dir);
	uint64_t h = file_hash(p2);
	run_iochar(&po, NULL, 0, ARGS("run", req, "--rw=randwrite", "--bs=4k", "--runtime=1"));
	expect_exit(&po, 2);
	expect_has(po.err, "require_init=1");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	assert_true(file_hash(p2) == h);
	run_plan(req, 2);
	assert_true(file_hash(p2) == h);

	/* row 0's parity is on member 2 at 0: damage it, then a full init */
	int fd = open(p2, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "\xff\x00\x55", 3, 100), 3);
	close(fd);
	assert_int_equal(scrub_bad(vd), 1);
	run_iochar(&po, NULL, 0, ARGS("vd", "init", vd, "--output-format=json"));
	expect_exit(&po, 0);
	r = parse_json(&po);
	expect_has(json_object_get_string(jget(r, "init.mode")), "full");
	assert_int_equal(jget_u64(r, "init.rows"), 128);
	assert_int_equal(jget_u64(r, "init.bytes"), 4 * 1024 * 1024);
	assert_true(jget_double(r, "init.bw_bytes") > 0);
	json_object_put(r);
	proc_out_free(&po);
	assert_int_equal(scrub_bad(vd), 0);
	run_iochar(&po, NULL, 0, ARGS("run", req, "--rw=randwrite", "--bs=4k", "--runtime=1"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_plan(req, 0);
}

/* vd rebuild --rebuild_rate: a rate in MB/s paces the rebuild to it, a %
 * keeps it busy that share of the time, 100% runs it flat out with
 * several chunks overlapped; each rate reports its rebuild MB/s and the
 * foreground figures during it, against the one baseline; the member is
 * consistent afterwards; Ctrl-C stops a pass. Bad rates are exit 2. */
static void test_rebuild_rates(void **state)
{
	(void)state;
	char vd[4096];
	struct proc_out po;

	vd_arg(vd, sizeof(vd), "rr", NULL);
	run_iochar(&po, NULL, 0, ARGS("run", vd, "--size=32m", "--rw=write", "--bs=32k",
				      "--runtime=0"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("vd", "rebuild", vd, "--replace=1",
				      "--rebuild_rate=8m,25%,100%", "--rw=randread", "--bs=4k",
				      "--iodepth=4", "--runtime=1", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	json_object *rates = jget(r, "rates");
	assert_int_equal(json_object_array_length(rates), 3);
	json_object *mb = json_object_array_get_idx(rates, 0);
	json_object *pct = json_object_array_get_idx(rates, 1);
	json_object *max = json_object_array_get_idx(rates, 2);
	/* paced: never above the rate (it may fall short on a loaded disk) */
	double bw = jget_double(mb, "bw_bytes");
	if (bw > 8.0 * 1048576 * 1.1 || bw < 8.0 * 1048576 * 0.4)
		fail_msg("rebuild at 8m ran at %.2f MiB/s", bw / 1048576);
	assert_int_equal(jget_u64(mb, "bytes"), 16u << 20);
	double busy25 = jget_double(pct, "busy_pct"), busy100 = jget_double(max, "busy_pct");
	if (busy25 > 35 || busy100 < busy25 + 20)
		fail_msg("busy share %.1f%% at 25%%, %.1f%% at 100%%", busy25, busy100);
	assert_true(jget_u64(max, "max_chunks_in_flight") >= 2);
	for (unsigned i = 0; i < 3; i++)
		assert_true(jget_double(json_object_array_get_idx(rates, i), "during.iops") > 0);
	assert_true(jget_double(r, "foreground.before.iops") > 0);
	assert_true(json_object_get_boolean(jget(r, "rebuild.verified")));
	json_object_put(r);
	proc_out_free(&po);

	/* Ctrl-C stops a slow rebuild: exit 130, saying how far it got */
	run_iochar(&po, NULL, 700, ARGS("vd", "rebuild", vd, "--replace=1", "--rebuild_rate=1m"));
	expect_exit(&po, 130);
	expect_has(po.err, "rebuild stopped at row");
	proc_out_free(&po);

	const char *bad[] = {"--rebuild_rate=0%", "--rebuild_rate=fast", "--rebuild_rate=10%,,20%"};
	for (unsigned i = 0; i < 3; i++) {
		run_iochar(&po, NULL, 0, ARGS("vd", "rebuild", vd, "--replace=1", bad[i]));
		expect_exit(&po, 2);
		expect_has(po.err, "rebuild_rate");
		proc_out_free(&po);
	}
}

/* cache_file= naming a file that is not iochar's cache: with new members
 * it was unlinked ("a cache of old ones is meaningless"), with existing
 * ones a short file was unlinked as "never filled"; a device node the
 * same (as root, one in /dev). Refused, exit 2, the file kept. */
static void test_cache_file_not_ours(void **state)
{
	(void)state;
	char vd[9000], extra[4300], mine[4200], fifo[4200];
	struct proc_out po;
	struct stat st;

	snprintf(mine, sizeof(mine), "%s/mine.txt", dir);
	FILE *f = fopen(mine, "w");
	assert_non_null(f);
	fputs("mine\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(extra, sizeof(extra), "write=back-bbu,cache_file=%s", mine);
	vd_arg(vd, sizeof(vd), "cf", extra);
	for (unsigned k = 0; k < 2; k++) { /* new members, then existing ones */
		run_iochar(&po, NULL, 0, ARGS("run", vd, "--size=1m", "--rw=randwrite",
					      "--number_ios=10", "--ioengine=psync"));
		expect_exit(&po, 2);
		expect_has(po.err, "cache_file=");
		expect_has(po.err, "mine.txt");
		proc_out_free(&po);
		char *text = file_slurp(mine, NULL);
		assert_string_equal(text, "mine\n");
		free(text);
		if (k == 0) { /* members made by a run without the cache */
			char plain[4096];
			vd_arg(plain, sizeof(plain), "cf", NULL);
			run_iochar(&po, NULL, 0, ARGS("run", plain, "--size=1m", "--rw=randwrite",
						      "--number_ios=10", "--ioengine=psync"));
			expect_exit(&po, 0);
			proc_out_free(&po);
		}
	}
	snprintf(fifo, sizeof(fifo), "%s/cache.fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(extra, sizeof(extra), "write=back-bbu,cache_file=%s", fifo);
	vd_arg(vd, sizeof(vd), "cf", extra);
	run_iochar(&po, NULL, 0, ARGS("run", vd, "--size=1m", "--rw=randwrite", "--number_ios=10",
				      "--ioengine=psync"));
	expect_exit(&po, 2);
	expect_has(po.err, "not a regular file");
	proc_out_free(&po);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_access_blocked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_init_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rebuild_rates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disk_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_back_loses_cache_on_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bbu_survives_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_file_not_ours, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
