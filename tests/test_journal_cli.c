/* test_journal_cli.c - the crash journal end to end, through the binary: a
 * verify=1 run with journal= is killed with SIGKILL in the middle of
 * random writes (io_uring, 16 in flight), and `iochar verify --journal`
 * finds the file consistent with the journal (exit 0); one acknowledged
 * block reverted behind iochar's back to its previous generation is then
 * reported as a lost write at its exact offset (exit 1), and so is one
 * zeroed. The same after dropping the page cache (root only), a run that
 * ends normally (nothing in flight), a sync engine, a target truncated
 * after the run (the missing range reported), a journal that fills up
 * mid-run (the run stops, no write without its intent), and the usage
 * errors:
 * journal without verify, over a file that is not a journal, one journal
 * for two jobs, bad verify arguments (exit 2, nothing written). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csv_table.h"
#include "harness.h"
#include "verify/block.h"
#include "verify/journal.h"

#define BS	  4096
#define NUNITS	  2048 /* 8 MiB of 4 KiB blocks */

struct ctx {
	char *dir;
	char data[4200], journal[4200], errlog[4200];
	char arg_file[4300], arg_journal[4300];
	char shm[64]; /* a /dev/shm directory of the test's, or "" */
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));
	c->dir = tmpdir_make();
	snprintf(c->data, sizeof(c->data), "%s/data", c->dir);
	snprintf(c->journal, sizeof(c->journal), "%s/journal", c->dir);
	snprintf(c->errlog, sizeof(c->errlog), "%s/run.err", c->dir);
	snprintf(c->arg_file, sizeof(c->arg_file), "--filename=%s", c->data);
	snprintf(c->arg_journal, sizeof(c->arg_journal), "--journal=%s",
		 c->journal);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	tmpdir_remove(c->dir);
	if (c->shm[0]) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", c->shm);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", c->shm);
	}
	free(c);
	return 0;
}

/* Occurrences of needle in s. */
static unsigned count_of(const char *s, const char *needle)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	static char buf[8192];
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* Start `iochar run` with the workload of the issue, kill it with SIGKILL
 * after ms milliseconds. Returns false (SKIP) when io_uring is not
 * available here. */
static bool run_and_kill(struct ctx *c, const char *direct, int ms)
{
	char bin[4096];
	int status = 0;

	assert_non_null(realpath(iochar_path(), bin));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen(c->errlog, "w", stderr))
			_exit(126);
		execl(bin, bin, "run", c->arg_file, "--size=8m",
		      "--rw=randwrite", "--bs=4k", "--verify=1", c->arg_journal,
		      "--time_based", "--runtime=30", "--ioengine=io_uring",
		      "--iodepth=16", direct, (char *)NULL);
		_exit(127);
	}
	/* kill it ms into its writes: once the journal has its header
	 * (after the prefill of the file), and at the earliest ms after the
	 * start */
	struct stat st;
	int waited = 0;
	for (; waited < 20000; waited += 10) {
		if (stat(c->journal, &st) == 0 && st.st_size > 0)
			break;
		if (waitpid(pid, &status, WNOHANG) == pid)
			goto ended;
		usleep(10 * 1000);
	}
	usleep((useconds_t)(waited < ms ? ms - waited : 500) * 1000);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
ended:
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2 &&
	    strstr(slurp(c->errlog), "io_uring")) {
		printf("SKIP: io_uring: %s", slurp(c->errlog));
		return false;
	}
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		fail_msg("the run ended before the kill (status 0x%x): %s",
			 status, slurp(c->errlog));
	return true;
}

static json_object *verify_journal(struct proc_out *po, struct ctx *c, int want)
{
	run_iochar(po, NULL, 0,
		   ARGS("verify", c->arg_journal, "--output-format=json"));
	expect_exit(po, want);
	return parse_json(po);
}

/* Every unit of the region was checked against the journal or, never
 * written by the run, counted as unverified; nothing failed. */
static void expect_clean(struct ctx *c)
{
	struct proc_out po;
	json_object *r = verify_journal(&po, c, 0);

	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.lost") +
			     jget_u64(r, "verify.torn") +
			     jget_u64(r, "verify.corrupted") +
			     jget_u64(r, "verify.misplaced"),
			 0);
	assert_int_equal(jget_u64(r, "verify.checked_units") +
			     jget_u64(r, "verify.unverified_units"),
			 NUNITS);
	assert_true(jget_u64(r, "verify.acknowledged_units") > NUNITS / 2);
	assert_true(jget_u64(r, "journal.records") > 1000);
	assert_int_equal(jget_u64(r, "journal.bad_records"), 0);
	assert_int_equal(json_object_array_length(jget(r, "targets")), 1);
	json_object_put(r);
	proc_out_free(&po);
}

/* A block whose write was acknowledged, nothing in flight, whose
 * previous generation the journal knows too. */
static uint64_t pick_acknowledged(struct ctx *c, struct journal_cand *now,
				  struct journal_cand *prev)
{
	struct journal_replay *r;
	struct ioc_err err = {0};
	struct journal_expect e;

	if (journal_replay_file(c->journal, &r, &err))
		fail_msg("%s", err.msg);
	for (uint64_t b = 0; b < NUNITS; b++) {
		journal_expect_block(r, 0, b, &e);
		if (!e.known || e.in_flight || e.nr != 2 ||
		    e.cand[1].role != 'p')
			continue;
		*now = e.cand[0];
		*prev = e.cand[1];
		journal_replay_free(r);
		return b;
	}
	fail_msg("no block written twice and acknowledged in the journal");
	return 0;
}

static void write_unit(const char *path, uint64_t off, const void *buf)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, buf, BS, (off_t)off), BS);
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

static void expect_lost_at(struct ctx *c, uint64_t off, const char *map)
{
	struct proc_out po;
	char want[128];
	json_object *r = verify_journal(&po, c, 1);

	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	assert_int_equal(jget_u64(r, "verify.lost"), 1);
	snprintf(want, sizeof(want), "offset=%llu kind=lost",
		 (unsigned long long)off);
	expect_has(po.err, want);
	expect_has(po.err, map);
	json_object_put(r);
	proc_out_free(&po);
}

static void test_kill_then_lost_write(void **state)
{
	struct ctx *c = *state;
	struct journal_cand now = {0}, prev = {0};
	uint8_t unit[BS], saved[BS];
	struct proc_out po;

	if (!run_and_kill(c, "--direct=0", 1500))
		skip();
	expect_clean(c);

	/* revert one acknowledged block to its previous generation: a
	 * validly formed unit, rebuilt with block.c as that write made it */
	uint64_t b = pick_acknowledged(c, &now, &prev);
	uint64_t off = b * BS;
	struct vblock_stamp st = {
	    .seed = 0x89, /* randseed's default */
	    .time_ns = prev.time_ns,
	    .block_len = BS,
	    .gen = prev.gen,
	};
	struct journal_replay *r;
	struct ioc_err err = {0};
	assert_int_equal(journal_replay_file(c->journal, &r, &err), 0);
	st.run_id = journal_replay_info(r)->run_id;
	journal_replay_free(r);
	int fd = open(c->data, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, saved, BS, (off_t)off), BS);
	close(fd);
	vblock_fill(unit, BS, BS, off, &st);
	assert_int_equal(
	    vunit_check(unit, BS, &(struct vexpect){.offset = off}, NULL),
	    VK_OK);
	write_unit(c->data, off, unit);
	expect_lost_at(c, off, "sectors=pppppppp");
	/* plain verify cannot see it: the unit is intact and in place */
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_file));
	expect_exit(&po, 0);
	proc_out_free(&po);

	/* zeros where the acknowledged write should be: lost as well */
	memset(unit, 0, sizeof(unit));
	write_unit(c->data, off, unit);
	expect_lost_at(c, off, "sectors=ffffffff");
	/* the text form says so too */
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_journal));
	expect_exit(&po, 1);
	expect_has(po.out,
		   "1 failures (lost 1, torn 0, corrupted 0, misplaced 0, "
		   "missing 0)");
	proc_out_free(&po);

	/* back as it was: clean again */
	write_unit(c->data, off, saved);
	expect_clean(c);
}

/* Buffered writes of a killed process are in the page cache as dirty
 * pages, which belong to the kernel, not to the process: they survive the
 * kill and are written back later. drop_caches drops only clean pages,
 * so this must verify clean too; it checks that verify's O_DIRECT reads
 * see what the journal says was written, with the cache gone. A power cut
 * would lose those dirty pages: that needs real hardware (and direct=1
 * for a fair verdict, see docs/output.md). */
static void test_drop_caches(void **state)
{
	struct ctx *c = *state;

	if (!is_root()) {
		printf("SKIP: drop_caches needs root\n");
		skip();
	}
	if (!run_and_kill(c, "--direct=0", 1500))
		skip();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "1", 1) != 1) {
		printf("SKIP: cannot write /proc/sys/vm/drop_caches\n");
		if (fd >= 0)
			close(fd);
		skip();
	}
	close(fd);
	expect_clean(c);
}

/* O_DIRECT: with the kill, writes in flight may land or not. */
static void test_kill_direct(void **state)
{
	struct ctx *c = *state;

	if (!run_and_kill(c, "--direct=1", 1500))
		skip();
	expect_clean(c);
}

/* A run that ends by itself: every write acknowledged, none in flight;
 * --filename may stand for the journal's paths (here from another
 * directory, by a relative name). A sync engine journals each write. */
static void test_finished_run(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=randwrite",
			"--verify=1", c->arg_journal, "--ioengine=psync",
			"--runtime=300ms", "--time_based"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, c->dir, 0,
		   ARGS("verify", "--journal=journal", "--filename=data",
			"--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.old_units") +
			     jget_u64(r, "verify.new_units") +
			     jget_u64(r, "verify.mixed_units"),
			 0);
	assert_int_equal(jget_u64(r, "verify.acknowledged_units"),
			 jget_u64(r, "journal.blocks"));
	assert_int_equal(jget_u64(r, "journal.intents"),
			 jget_u64(r, "journal.dones"));
	assert_int_equal(jget_u64(r, "journal.torn_tail"), 0);
	proc_out_free(&po);
	/* the CSV form of the same check carries the same counts */
	static const char *const cols[] = {"checked_units",
					   "failures",
					   "lost",
					   "torn",
					   "corrupted",
					   "misplaced",
					   "missing_units",
					   "acknowledged_units",
					   "old_units",
					   "new_units",
					   "mixed_units",
					   "unjournaled_units",
					   "unverified_units"};
	struct csv_table t;
	char key[64];
	run_iochar(&po, c->dir, 0,
		   ARGS("verify", "--journal=journal", "--filename=data",
			"--output-format=csv"));
	expect_exit(&po, 0);
	csv_table_parse(&t, po.out);
	assert_int_equal(t.nr_rows, 2);
	assert_string_equal(csv_get(&t, 0, "path"), "data");
	assert_string_equal(csv_get(&t, 1, "scope"), "total");
	for (unsigned i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		snprintf(key, sizeof(key), "verify.%s", cols[i]);
		assert_int_equal(csv_get_u64(&t, 1, cols[i]), jget_u64(r, key));
		assert_int_equal(csv_get_u64(&t, 0, cols[i]), jget_u64(r, key));
	}
	assert_true(csv_get_u64(&t, 1, "acknowledged_units") > 0);
	csv_table_free(&t);
	json_object_put(r);
	proc_out_free(&po);
	/* a second run rewrites the journal (it is iochar's own) */
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=randwrite",
			"--verify=1", c->arg_journal, "--ioengine=io_uring",
			"--iodepth=8", "--runtime=200ms", "--time_based"));
	if (po.status == 2 && strstr(po.err, "io_uring")) {
		printf("SKIP: io_uring: %s", po.err);
		proc_out_free(&po);
		skip();
	}
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_journal));
	expect_exit(&po, 0);
	expect_has(po.out, " 0 failures (lost 0, torn 0, corrupted 0, "
			   "misplaced 0, missing 0)");
	proc_out_free(&po);
}

/* A target cut short after the run: the units the journal's region has
 * past its end are missing failures (exit 1), named as one range, and
 * what it still holds is checked as before. */
static void test_truncated_target(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=write",
			"--verify=1", c->arg_journal, "--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	assert_int_equal(truncate(c->data, 196608 + 100), 0);
	json_object *r = verify_journal(&po, c, 1);
	assert_int_equal(jget_u64(r, "verify.missing_units"), 16);
	assert_int_equal(jget_u64(r, "verify.failures"), 16);
	assert_int_equal(jget_u64(r, "verify.acknowledged_units"), 48);
	expect_has(po.err, "offset=196608 kind=missing");
	expect_has(po.err, "missing=[196608, 262144) bytes=65536");
	assert_int_equal(count_lines(po.err), 1);
	json_object_put(r);
	proc_out_free(&po);
}

/* The journal cannot grow (files are limited to 2 MiB, as a full file
 * system would have it) in the middle of a run: the run stops with the
 * journal's error (exit 1), no write without its intent in the journal
 * was issued, so the check after it finds no lost write. Each engine. */
static void test_journal_full(void **state)
{
	static const char *const engines[] = {
	    "--ioengine=libaio", "--ioengine=io_uring", "--ioengine=psync"};
	struct ctx *c = *state;
	char jarg[128];
	struct rlimit old, lim;
	struct proc_out po;

	snprintf(c->shm, sizeof(c->shm), "/dev/shm/iochar-test-jfull-XXXXXX");
	assert_non_null(mkdtemp(c->shm)); /* tmpfs: fdatasync is free */
	snprintf(jarg, sizeof(jarg), "--journal=%s/j", c->shm);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN); /* inherited: EFBIG, not a signal */
	for (unsigned e = 0; e < 3; e++) {
		lim = old;
		lim.rlim_cur = 2u << 20;
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
		run_iochar(&po, NULL, 0,
			   ARGS("run", c->arg_file, "--size=256k",
				"--rw=randwrite", "--verify=1", jarg,
				engines[e], "--iodepth=8", "--time_based",
				"--runtime=60"));
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
		if (po.status == 2 && strstr(po.err, "io_uring")) {
			printf("SKIP: io_uring: %s", po.err);
			proc_out_free(&po);
			skip();
		}
		expect_exit(&po, 1);
		expect_has(po.err, "File too large; the run stops here");
		assert_int_equal(count_of(po.err, "the run stops here"), 1);
		proc_out_free(&po);
		run_iochar(&po, NULL, 0,
			   ARGS("verify", jarg, "--output-format=json"));
		expect_exit(&po, 0);
		json_object *r = parse_json(&po);
		assert_int_equal(jget_u64(r, "verify.failures"), 0);
		assert_true(jget_u64(r, "journal.intents") > 10000);
		json_object_put(r);
		proc_out_free(&po);
	}
}

static void usage_error(const char *const *args, const char *want)
{
	struct proc_out po;
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 2);
	expect_has(po.err, want);
	proc_out_free(&po);
}

static void test_usage_errors(void **state)
{
	struct ctx *c = *state;
	char other[8600], jobfile[4300];

	usage_error(ARGS("run", c->arg_file, "--size=1m", "--rw=randwrite",
			 c->arg_journal),
		    "needs verify=1");
	assert_int_equal(access(c->journal, F_OK), -1);
	assert_int_equal(access(c->data, F_OK), -1);

	/* an existing file that is not a journal is never overwritten */
	make_file(c->journal, 10000);
	uint64_t before = file_hash(c->journal);
	usage_error(ARGS("run", c->arg_file, "--size=1m", "--rw=randwrite",
			 "--verify=1", c->arg_journal),
		    "is not an iochar journal; refusing to overwrite it");
	assert_int_equal(file_hash(c->journal), before);
	assert_int_equal(access(c->data, F_OK), -1); /* nothing written */
	usage_error(ARGS("verify", c->arg_journal), "not an iochar journal");
	unlink(c->journal);

	snprintf(other, sizeof(other), "--journal=%s", c->data);
	usage_error(ARGS("run", c->arg_file, "--size=1m", "--rw=randwrite",
			 "--verify=1", other),
		    "needs a file of its own");
	usage_error(ARGS("run", c->arg_file, "--size=1m", "--rw=randwrite",
			 "--verify=1", "--journal=/nonexistent-dir/j"),
		    "directory /nonexistent-dir does not exist");

	snprintf(jobfile, sizeof(jobfile), "%s/two.fio", c->dir);
	FILE *f = fopen(jobfile, "we");
	assert_non_null(f);
	fprintf(f,
		"[global]\nsize=1m\nioengine=psync\nverify=1\nrw=randwrite\n"
		"journal=%s\n\n[a]\nfilename=%s/a\n\n[b]\nfilename=%s/b\n",
		c->journal, c->dir, c->dir);
	fclose(f);
	usage_error(ARGS("run", jobfile), "one journal per job");
	assert_int_equal(access(c->journal, F_OK), -1);

	usage_error(ARGS("verify", c->arg_journal), "No such file");
	usage_error(ARGS("verify", "--journal="), "--journal needs a file");
	/* a real journal, then arguments that contradict it */
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=64k", "--rw=write",
			"--verify=1", c->arg_journal, "--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	usage_error(ARGS("verify", c->arg_journal, "--bs=8k"),
		    "--bs with --journal");
	snprintf(other, sizeof(other), "--filename=%s:%s", c->data, c->data);
	usage_error(ARGS("verify", c->arg_journal, other),
		    "--filename names 2 files, the journal 1");
	/* (a target shorter than the journal's region is not bad input but
	 * lost data: test_truncated_target) */
}

/* Start `iochar run` writing c->data with c->journal for a while, in the
 * background (stderr into c->errlog); returns once the journal has its
 * header, i.e. the run is writing. */
static pid_t start_holder(struct ctx *c)
{
	char bin[4096];
	struct stat st;

	assert_non_null(realpath(iochar_path(), bin));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen(c->errlog, "w", stderr))
			_exit(126);
		execl(bin, bin, "run", c->arg_file, "--size=1m",
		      "--rw=randwrite", "--bs=4k", "--verify=1",
		      c->arg_journal, "--ioengine=psync", "--time_based",
		      "--runtime=30", (char *)NULL);
		_exit(127);
	}
	for (int waited = 0; waited < 20000; waited += 10) {
		if (stat(c->journal, &st) == 0 && st.st_size > 0)
			return pid;
		usleep(10 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("the first run never wrote its journal: %s",
		 slurp(c->errlog));
	return -1;
}

/* A journal in use by a run (issue 37 H5): a second run naming it, by
 * another spelling too, is refused before it writes anything (exit 2,
 * one line naming the journal and the holder's PID), as is a verify of
 * it; the first run's journal stays whole: verify, once it has ended,
 * finds its data consistent. */
static void test_journal_in_use(void **state)
{
	struct ctx *c = *state;
	char other_file[4400], spelled[4400], want[64], other_data[4300];
	struct proc_out po;
	int status;

	snprintf(other_data, sizeof(other_data), "%s/other", c->dir);
	snprintf(other_file, sizeof(other_file), "--filename=%s", other_data);
	snprintf(spelled, sizeof(spelled), "--journal=%s/./journal", c->dir);
	pid_t pid = start_holder(c);
	snprintf(want, sizeof(want), "in use by process %d", (int)pid);

	const char *const *variants[] = {
	    ARGS("run", other_file, "--size=1m", "--rw=randwrite",
		 "--verify=1", c->arg_journal, "--ioengine=psync"),
	    ARGS("run", other_file, "--size=1m", "--rw=randwrite",
		 "--verify=1", spelled, "--ioengine=psync"),
	};
	for (unsigned i = 0; i < 2; i++) {
		run_iochar(&po, NULL, 0, variants[i]);
		expect_exit(&po, 2);
		expect_has(po.err, want);
		expect_has(po.err, "journal=");
		assert_int_equal(count_lines(po.err), 1);
		proc_out_free(&po);
		/* refused before any I/O: its target was never made */
		assert_int_equal(access(other_data, F_OK), -1);
	}

	/* nor verified while it runs: its blocks in flight read as "lost"
	 * (8 of 1024 mid-run, exit 1); refused, naming the run */
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_journal));
	expect_exit(&po, 2);
	expect_has(po.err, want);
	expect_has(po.err, "a run still writing it");
	assert_int_equal(count_lines(po.err), 1);
	assert_string_equal(po.out, "");
	proc_out_free(&po);

	kill(pid, SIGINT); /* the first run stops in order */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_journal));
	expect_exit(&po, 0);
	expect_has(po.out, "0 failures");
	proc_out_free(&po);
}

/* One journal for two jobs is refused (one journal per job) however it
 * is spelled, before the journal exists: `J`, `./J`, `sub/../J`, a
 * dangling symlink to J (issue 37 H5); nothing is created. */
static void test_journal_spellings(void **state)
{
	struct ctx *c = *state;
	char jobfile[4300], link[4300], sub[4300];
	static const char *const names[] = {"./journal", "sub/../journal",
					    "link"};

	snprintf(jobfile, sizeof(jobfile), "%s/two.fio", c->dir);
	snprintf(link, sizeof(link), "%s/link", c->dir);
	snprintf(sub, sizeof(sub), "%s/sub", c->dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(symlink("journal", link), 0);
	for (unsigned i = 0; i < 3; i++) {
		FILE *f = fopen(jobfile, "we");
		assert_non_null(f);
		fprintf(f,
			"[global]\nsize=1m\nioengine=psync\nverify=1\n"
			"rw=randwrite\n\n[a]\nfilename=a\njournal=journal\n\n"
			"[b]\nfilename=b\njournal=%s\n",
			names[i]);
		fclose(f);
		struct proc_out po;
		run_iochar(&po, c->dir, 0, ARGS("run", jobfile));
		expect_exit(&po, 2);
		expect_has(po.err, "one journal per job");
		char both[256]; /* each job's own spelling, not b's twice */
		snprintf(both, sizeof(both), "journal=journal and journal=%s name one file",
			 names[i]);
		expect_has(po.err, both);
		assert_int_equal(count_lines(po.err), 1);
		proc_out_free(&po);
		assert_int_equal(access(c->journal, F_OK), -1);
		assert_int_equal(access(c->data, F_OK), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_kill_then_lost_write, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_drop_caches, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kill_direct, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_finished_run, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_truncated_target, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_journal_full, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_journal_in_use, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_journal_spellings, setup,
					    teardown),
	};
	return cmocka_run_group_tests_name("journal_cli", tests, NULL, NULL);
}
