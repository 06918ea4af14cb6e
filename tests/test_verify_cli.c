/* test_verify_cli.c - data verification end to end, through the binary:
 * a verify=1 run on a fresh file checks what it reads and finds nothing
 * wrong (psync, an async engine with blocks in flight, two files, the
 * text line); `iochar verify` then finds a byte flipped behind iochar's
 * back at its exact offset, a block copied to another offset as
 * misplaced, and data written with bs=512; a file corrupted while a run
 * reads it fails the run (exit 1), and with verify_fatal stops it at the
 * first failure with partial results; bad combinations are usage errors
 * (exit 2). */
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "csv_table.h"
#include "harness.h"

#define MAGIC	  "iocharv1"

struct ctx {
	char *dir;
	char path[4200];
	char arg_file[4300];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));
	c->dir = tmpdir_make();
	snprintf(c->path, sizeof(c->path), "%s/data", c->dir);
	snprintf(c->arg_file, sizeof(c->arg_file), "--filename=%s", c->path);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	tmpdir_remove(c->dir);
	free(c);
	return 0;
}


static unsigned count_of(const char *s, const char *needle)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Offsets of the 4 KiB units of path that start with iochar's magic. */
static unsigned find_units(const char *path, uint64_t *offs, unsigned max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char head[8];
	unsigned n = 0;
	assert_true(fd >= 0);
	for (uint64_t off = 0; n < max; off += 4096) {
		if (pread(fd, head, 8, (off_t)off) != 8)
			break;
		if (memcmp(head, MAGIC, 8) == 0)
			offs[n++] = off;
	}
	close(fd);
	return n;
}

static void flip_byte(const char *path, uint64_t off)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	unsigned char b;
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, (off_t)off), 1);
	b ^= 0x5a;
	assert_int_equal(pwrite(fd, &b, 1, (off_t)off), 1);
	close(fd);
}

static void copy_unit(const char *path, uint64_t from, uint64_t to)
{
	char buf[4096];
	int fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, sizeof(buf), (off_t)from), 4096);
	assert_int_equal(pwrite(fd, buf, sizeof(buf), (off_t)to), 4096);
	close(fd);
}

/* Write every block of a fresh 256 KiB file once, with verify=1. */
static void write_verified(struct ctx *c, const char *bs)
{
	struct proc_out po;
	char bsarg[64];
	snprintf(bsarg, sizeof(bsarg), "--bs=%s", bs);
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=write", bsarg,
			"--verify=1", "--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

static json_object *verify_json(struct proc_out *po, struct ctx *c, int want,
				const char *extra)
{
	run_iochar(po, NULL, 0,
		   ARGS("verify", c->arg_file, "--output-format=json",
			extra ? extra : "--bs=4k"));
	expect_exit(po, want);
	return parse_json(po);
}

static void test_run_randrw_clean(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=1m", "--rw=randrw",
			"--bs=4k", "--verify=1", "--ioengine=psync",
			"--runtime=1s", "--time_based",
			"--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	assert_true(json_object_get_boolean(jget(r, "verify.enabled")));
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.corrupted") +
			     jget_u64(r, "verify.misplaced") +
			     jget_u64(r, "verify.stale") +
			     jget_u64(r, "verify.never_written"),
			 0);
	assert_true(jget_u64(r, "verify.checked_units") > 0);
	/* every read is either checked or unverified, one unit per 4k read */
	assert_int_equal(jget_u64(r, "verify.checked_units") +
			     jget_u64(r, "verify.unverified_units"),
			 jget_u64(r, "read.ios"));
	assert_false(json_object_get_boolean(jget(r, "partial")));
	assert_int_equal(count_of(po.err, "verify failure"), 0);
	json_object_put(r);
	proc_out_free(&po);

	/* and the file reads back clean */
	r = verify_json(&po, c, 0, NULL);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_true(jget_u64(r, "verify.checked_units") > 0);
	assert_int_equal(jget_u64(r, "verify.checked_units") +
			     jget_u64(r, "verify.unverified_units"),
			 256);
	json_object_put(r);
	proc_out_free(&po);
}

/* An async engine with many I/Os in flight over few blocks, O_DIRECT so
 * they really overlap (buffered ones on a page-cache hit complete inline):
 * the in-flight rule must keep reads and writes of one block apart.
 * Without it this run reports thousands of stale units. */
static void test_run_async_in_flight(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;
	static const char *const engines[] = {"--ioengine=io_uring",
					      "--ioengine=libaio"};

	for (int e = 0; e < 2; e++) {
		unlink(c->path);
		run_iochar(&po, NULL, 0,
			   ARGS("run", c->arg_file, "--size=64k", "--rw=randrw",
				"--bs=4k", "--verify=1", engines[e],
				"--direct=1", "--iodepth=32", "--runtime=1s",
				"--time_based", "--output-format=json"));
		if (po.status == 2 && strstr(po.err, "engine")) {
			printf("SKIP: %s: %s", engines[e], po.err);
			proc_out_free(&po);
			continue;
		}
		expect_exit(&po, 0);
		json_object *r = parse_json(&po);
		assert_int_equal(jget_u64(r, "verify.failures"), 0);
		assert_true(jget_u64(r, "verify.checked_units") > 1000);
		json_object_put(r);
		proc_out_free(&po);
	}
}

/* Two files: one map per file, and `iochar verify` sums the targets. */
static void test_two_files(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;
	char files[8500];

	snprintf(files, sizeof(files), "--filename=%s/a:%s/b", c->dir, c->dir);
	run_iochar(&po, NULL, 0,
		   ARGS("run", files, "--size=512k", "--rw=randrw",
			"--verify=1", "--ioengine=psync", "--runtime=500ms",
			"--time_based", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_true(jget_u64(r, "verify.checked_units") > 0);
	json_object_put(r);
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("verify", files));
	expect_exit(&po, 0);
	expect_has(po.out, "verify total: ");
	assert_int_equal(count_of(po.out, "units checked"), 3);
	proc_out_free(&po);
}

static void test_text_output_has_verify_line(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=randrw",
			"--verify=1", "--ioengine=psync", "--runtime=300ms",
			"--time_based"));
	expect_exit(&po, 0);
	expect_has(po.out, "  verify: ");
	expect_has(po.out,
	    " 0 failures (corrupted 0, misplaced 0, stale 0, never written 0, "
	    "missing 0)");
	proc_out_free(&po);
	/* without verify there is no such line, nor a JSON member */
	unlink(c->path);
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=randrw",
			"--ioengine=psync", "--runtime=200ms", "--time_based",
			"--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	assert_false(json_object_object_get_ex(r, "verify", NULL));
	json_object_put(r);
	proc_out_free(&po);
}

static void test_verify_finds_flipped_byte(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;
	uint64_t offs[64];
	char want[128];

	write_verified(c, "4k");
	assert_int_equal(find_units(c->path, offs, 64), 64);
	flip_byte(c->path, offs[10] + 1000);
	json_object *r = verify_json(&po, c, 1, NULL);
	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	assert_int_equal(jget_u64(r, "verify.corrupted"), 1);
	assert_int_equal(jget_u64(r, "verify.checked_units"), 64);
	snprintf(want, sizeof(want), "offset=%llu kind=corrupted",
		 (unsigned long long)offs[10]);
	expect_has(po.err, want);
	expect_has(po.err, "first_diff=1000");
	expect_has(po.err, "data=696f6368 61727631");
	assert_int_equal(count_of(po.err, "verify failure"), 1);
	json_object_put(r);
	proc_out_free(&po);

	/* the text form says the same and exits 1 too */
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_file));
	expect_exit(&po, 1);
	expect_has(po.out, "64 units checked, 1 failures (corrupted 1,");
	expect_has(po.err, want);
	proc_out_free(&po);
}

static void test_verify_finds_misplaced_block(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;
	uint64_t offs[64];
	char want[160];

	write_verified(c, "4k");
	assert_int_equal(find_units(c->path, offs, 64), 64);
	copy_unit(c->path, offs[3], offs[40]);
	json_object *r = verify_json(&po, c, 1, NULL);
	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	assert_int_equal(jget_u64(r, "verify.misplaced"), 1);
	snprintf(want, sizeof(want), "offset=%llu kind=misplaced",
		 (unsigned long long)offs[40]);
	expect_has(po.err, want);
	snprintf(want, sizeof(want), "found_offset=%llu",
		 (unsigned long long)offs[3]);
	expect_has(po.err, want);
	json_object_put(r);
	proc_out_free(&po);
}

/* bs=512 writes 512-byte units; the default 4k check follows the headers. */
/* A file cut short after a verify=1 run: its units name the region they
 * were written for, so the part past the new end is reported missing, as
 * one range (exit 1); a file that ends where its units say passes. */
static void test_verify_truncated(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	write_verified(c, "4k");
	json_object *r = verify_json(&po, c, 0, NULL);
	assert_int_equal(jget_u64(r, "verify.missing_units"), 0);
	json_object_put(r);
	proc_out_free(&po);
	assert_int_equal(truncate(c->path, 200000), 0);
	r = verify_json(&po, c, 1, NULL);
	assert_int_equal(jget_u64(r, "verify.missing_units"), 16);
	assert_int_equal(jget_u64(r, "verify.failures"), 16);
	assert_int_equal(jget_u64(r, "verify.checked_units"), 48);
	expect_has(po.err, "offset=200000 kind=missing");
	expect_has(po.err, "missing=[200000, 262144) bytes=62144");
	json_object_put(r);
	proc_out_free(&po);
	/* the text line counts them too */
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_file));
	expect_exit(&po, 1);
	expect_has(po.out, "16 failures (corrupted 0, misplaced 0, stale 0, "
			   "never written 0, missing 16)");
	proc_out_free(&po);
}

/* Runs with and without verify, of every rw mode and engine, one after
 * the other on one file: whatever the order, `iochar verify` after them
 * finds nothing wrong (a write without verify used to carry the units a
 * read had left in its buffer, reported as misplaced), and with the last
 * run journaled, neither does `iochar verify --journal`. */
#define SEQ_MAX 6
struct seq_run {
	const char *rw, *engine, *verify, *bs;
};

static bool run_one(struct ctx *c, const struct seq_run *r, const char *journal)
{
	struct proc_out po;
	char rw[32], eng[32], ver[32], bs[32];

	snprintf(rw, sizeof(rw), "--rw=%s", r->rw);
	snprintf(eng, sizeof(eng), "--ioengine=%s", r->engine);
	snprintf(ver, sizeof(ver), "--verify=%s", r->verify);
	snprintf(bs, sizeof(bs), "--bs=%s", r->bs);
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=1m", rw, eng, ver, bs,
			"--iodepth=8", "--runtime=250ms", "--time_based",
			journal ? journal : "--verify_fatal=0"));
	if (po.status == 2 && strstr(po.err, "io_uring")) {
		printf("SKIP: io_uring: %s", po.err);
		proc_out_free(&po);
		return false;
	}
	if (po.status != 0)
		fail_msg("%s %s verify=%s: exit %d: %s", r->rw, r->engine,
			 r->verify, po.status, po.err);
	proc_out_free(&po);
	return true;
}

static void expect_no_failure(struct ctx *c, const char *journal)
{
	struct proc_out po;

	run_iochar(&po, NULL, 0,
		   journal
		       ? ARGS("verify", journal, "--output-format=json")
		       : ARGS("verify", c->arg_file, "--output-format=json"));
	if (po.status != 0)
		fail_msg("verify %s: exit %d: %s", journal ? journal : "",
			 po.status, po.err);
	json_object *r = parse_json(&po);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	if (journal) /* the last run's writes are checked against it */
		if (journal) /* the last run's writes are checked against it */
		assert_true(jget_u64(r, "verify.checked_units") > 0);
	json_object_put(r);
	proc_out_free(&po);
}

static void test_run_sequences_never_misreport(void **state)
{
	static const struct seq_run seqs[][SEQ_MAX] = {
	    {{"write", "psync", "1", "4k"}, {"randrw", "io_uring", "0", "4k"}},
	    {{"randwrite", "libaio", "1", "4k"},
	     {"randrw", "psync", "0", "4k"},
	     {"read", "io_uring", "0", "4k"},
	     {"randrw", "io_uring", "1", "4k"},
	     {"randwrite", "libaio", "0", "4k"},
	     {"randrw", "libaio", "1", "4k"}},
	    {{"write", "io_uring", "1", "512"},
	     {"randrw", "libaio", "0", "4k"},
	     {"rw", "psync", "1", "8k"},
	     {"randread", "psync", "0", "4k"},
	     {"randrw", "psync", "0", "512"}},
	    {{"randrw", "psync", "0", "4k"},
	     {"write", "libaio", "1", "4k"},
	     {"randrw", "io_uring", "0", "16k"},
	     {"randrw", "psync", "1", "4k"}},
	};
	struct ctx *c = *state;
	char journal[4300];

	snprintf(journal, sizeof(journal), "--journal=%s/j", c->dir);
	for (size_t q = 0; q < sizeof(seqs) / sizeof(seqs[0]); q++) {
		unsigned n = 0;
		while (n < SEQ_MAX && seqs[q][n].rw)
			n++;
		for (unsigned i = 0; i < n; i++) {
			bool last_verified =
			    i == n - 1 && seqs[q][i].verify[0] == '1';
			if (!run_one(c, &seqs[q][i],
				     last_verified ? journal : NULL))
				skip();
		}
		expect_no_failure(c, NULL);
		if (seqs[q][n - 1].verify[0] == '1')
			expect_no_failure(c, journal);
	}
}

/* One 512-byte write without verify into the second sector of a 4 KiB
 * unit written with verify: the unit is overwritten in part, not
 * corrupted (exit 0, one unit unverified); the same for a verifying
 * 512-byte write into another unit. */
static void test_partial_overwrite_not_corrupted(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	write_verified(c, "8k");
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--offset=4608", "--size=512",
			"--bs=512", "--rw=write", "--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	json_object *r = verify_json(&po, c, 0, NULL);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.unverified_units"), 1);
	assert_int_equal(jget_u64(r, "verify.checked_units"), 63);
	json_object_put(r);
	proc_out_free(&po);
	/* so is one with a verifying 512-byte write in its third sector */
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--offset=9216", "--size=512",
			"--bs=512", "--rw=write", "--verify=1",
			"--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	r = verify_json(&po, c, 0, NULL);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.unverified_units"), 2);
	json_object_put(r);
	proc_out_free(&po);
	/* a byte flipped in another unit is still found */
	flip_byte(c->path, 40960 + 2000);
	r = verify_json(&po, c, 1, NULL);
	assert_int_equal(jget_u64(r, "verify.corrupted"), 1);
	expect_has(po.err, "offset=40960 kind=corrupted");
	json_object_put(r);
	proc_out_free(&po);
}

static void test_verify_small_units(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	write_verified(c, "512");
	json_object *r = verify_json(&po, c, 0, NULL);
	assert_int_equal(jget_u64(r, "verify.checked_units"), 512);
	json_object_put(r);
	proc_out_free(&po);
	flip_byte(c->path, 512 * 77 + 300);
	r = verify_json(&po, c, 1, "--bs=512");
	assert_int_equal(jget_u64(r, "verify.corrupted"), 1);
	expect_has(po.err, "offset=39424 kind=corrupted");
	expect_has(po.err, "unit=512");
	json_object_put(r);
	proc_out_free(&po);
}

/* A child that keeps flipping byte 200 of every 4 KiB block of path once
 * it has its full size, for at most `seconds`. */
static pid_t start_corrupter(const char *path, uint64_t size, int seconds)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid > 0)
		return pid;
	time_t end = time(NULL) + seconds;
	struct stat st;
	while (time(NULL) < end &&
	       (stat(path, &st) < 0 || (uint64_t)st.st_size < size))
		usleep(1000);
	usleep(100000); /* let the run start */
	int fd = open(path, O_RDWR | O_CLOEXEC);
	unsigned char b = 0xa5;
	while (fd >= 0 && time(NULL) < end)
		for (uint64_t off = 200; off < size; off += 4096)
			if (pwrite(fd, &b, 1, (off_t)off) != 1)
				_exit(1);
	_exit(0);
}

static void stop_corrupter(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_run_fails_on_corruption(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	pid_t pid = start_corrupter(c->path, 256 * 1024, 10);
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=randrw",
			"--verify=1", "--ioengine=psync", "--runtime=2s",
			"--time_based", "--output-format=json"));
	stop_corrupter(pid);
	expect_exit(&po, 1);
	json_object *r = parse_json(&po);
	uint64_t failures = jget_u64(r, "verify.failures");
	assert_true(failures > 0);
	assert_int_equal(jget_u64(r, "verify.corrupted"), failures);
	assert_false(json_object_get_boolean(jget(r, "partial")));
	assert_int_equal(count_of(po.err, "verify failure:"),
			 failures < 1000 ? failures : 1000);
	expect_has(po.err, "kind=corrupted");
	expect_has(po.err, "units failed");
	json_object_put(r);
	proc_out_free(&po);
}

static void test_verify_fatal_stops_at_first(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	pid_t pid = start_corrupter(c->path, 256 * 1024, 20);
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=256k", "--rw=randrw",
			"--verify=1", "--verify_fatal=1", "--ioengine=psync",
			"--runtime=10s", "--time_based",
			"--output-format=json"));
	stop_corrupter(pid);
	expect_exit(&po, 1);
	json_object *r = parse_json(&po);
	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	assert_true(json_object_get_boolean(jget(r, "partial")));
	assert_true(jget_u64(r, "elapsed_ns") <
		    9000000000ull); /* stopped early */
	assert_int_equal(count_of(po.err, "verify failure:"), 1);
	expect_has(json_object_get_string(jget(r, "workers")),
	    "verify_fatal: corrupted unit at offset");
	json_object_put(r);
	proc_out_free(&po);

	/* `iochar verify --verify_fatal` stops at the first bad unit too */
	uint64_t offs[64];
	unlink(c->path);
	write_verified(c, "4k");
	assert_int_equal(find_units(c->path, offs, 64), 64);
	flip_byte(c->path, offs[5] + 64);
	flip_byte(c->path, offs[50] + 64);
	r = verify_json(&po, c, 1, "--verify_fatal");
	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	assert_int_equal(jget_u64(r, "verify.checked_units"), 6);
	json_object_put(r);
	proc_out_free(&po);
}

static void usage_error(struct ctx *c, const char *const *args,
			const char *want)
{
	struct proc_out po;
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 2);
	expect_has(po.err, want);
	proc_out_free(&po);
	(void)c;
}

/* Zero a unit as a hole punch does (or as a zeroed device reads, where
 * the filesystem cannot punch). */
static void zero_unit(const char *path, uint64_t off)
{
	static const char zeros[4096];
	int fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)off, 4096))
		assert_int_equal(pwrite(fd, zeros, 4096, (off_t)off), 4096);
	close(fd);
}

/* An all-zero unit was never written, at offset 0 as anywhere (issue 37
 * H1: a zero "offset" field named unit 0, so it was "damaged magic"): a
 * sparse file, a short run's unwritten units, a punched hole, blocks
 * outside a journal are unverified, never corrupted; exit 0. */
static void test_zero_units_not_corrupted(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;
	char jarg[4300];

	int fd = open(c->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	json_object *r = verify_json(&po, c, 0, NULL);
	assert_int_equal(jget_u64(r, "verify.corrupted"), 0);
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.unverified_units"), 256);
	json_object_put(r);
	proc_out_free(&po);

	/* a short run, then unit 0 punched out, with and without a journal */
	snprintf(jarg, sizeof(jarg), "--journal=%s/j", c->dir);
	assert_int_equal(unlink(c->path), 0); /* the guard's: ours again */
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->arg_file, "--size=1m", "--rw=randwrite",
			"--bs=4k", "--verify=1", "--ioengine=psync",
			"--number_ios=100", jarg));
	expect_exit(&po, 0);
	proc_out_free(&po);
	zero_unit(c->path, 0);
	run_iochar(&po, NULL, 0, ARGS("verify", c->arg_file));
	expect_exit(&po, 0);
	expect_has(po.out, "failures (corrupted 0,");
	assert_null(strstr(po.err, "damaged magic"));
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("verify", jarg));
	assert_null(strstr(po.err, "damaged magic"));
	assert_null(strstr(po.err, "corrupted"));
	proc_out_free(&po);
}

/* `iochar verify ARG FMT` with stdout on fd out and stderr into errpath;
 * its wait status. */
static int verify_to_fd(const char *arg, const char *fmt, int out,
			const char *errpath)
{
	char bin[4096];
	int status;

	assert_non_null(realpath(iochar_path(), bin));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the default disposition, as a shell gives it */
		signal(SIGPIPE, SIG_DFL);
		if (dup2(out, 1) < 0 || !freopen(errpath, "w", stderr))
			_exit(126);
		execl(bin, bin, "verify", arg, fmt, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* stdout that cannot take the results (issue 37 H12): /dev/full is one
 * line naming ENOSPC and exit 1 (it was exit 0, and said EIO); a closed
 * pipe ends verify quietly with exit 1, not killed by SIGPIPE. */
static void test_stdout_errors(void **state)
{
	static const char *const fmts[] = {"--output-format=normal",
					   "--output-format=json",
					   "--output-format=csv"};
	struct ctx *c = *state;
	char errpath[4300];

	snprintf(errpath, sizeof(errpath), "%s/err", c->dir);
	write_verified(c, "4k");
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
	if (full < 0) {
		printf("SKIP /dev/full: no such device here\n");
		return;
	}
	for (unsigned i = 0; i < 3; i++) {
		int st = verify_to_fd(c->arg_file, fmts[i], full, errpath);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 1);
		char *err = file_slurp(errpath, NULL);
		assert_non_null(err);
		assert_string_equal(err, "iochar: writing results to stdout: "
					 "No space left on device\n");
		free(err);

		int p[2];
		assert_int_equal(pipe2(p, O_CLOEXEC), 0);
		close(p[0]); /* the reader went away before any output */
		st = verify_to_fd(c->arg_file, fmts[i], p[1], errpath);
		close(p[1]);
		assert_false(WIFSIGNALED(st));
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 1);
		err = file_slurp(errpath, NULL);
		assert_string_equal(err, ""); /* quietly, as cat or grep */
		free(err);
	}
	close(full);
}

static void test_usage_errors(void **state)
{
	struct ctx *c = *state;

	usage_error(c,
		    ARGS("run", c->arg_file, "--size=1m", "--rw=randrw",
			 "--verify=1", "--numjobs=2"),
		    "numjobs=2");
	usage_error(c,
		    ARGS("run", c->arg_file, "--size=1m", "--rw=randrw",
			 "--verify=1", "--bs=1000"),
		    "multiple of 512");
	usage_error(c,
		    ARGS("run", c->arg_file, "--size=1m", "--rw=randrw",
			 "--verify=1", "--bs=8k", "--offset=1k"),
		    "offset=1024");
	usage_error(c,
		    ARGS("run", "--size=1m", "--rw=randrw", "--verify=1",
			 "--ioengine=null"),
		    "engine that moves data");
	usage_error(c, ARGS("run", c->arg_file, "--size=1m", "--verify=crc33"),
		    "unknown verify method 'crc33'");
	assert_int_equal(access(c->path, F_OK), -1); /* nothing was created */

	usage_error(c, ARGS("verify"), "--filename is required");
	usage_error(c, ARGS("verify", c->arg_file), "does not exist");
	write_verified(c, "4k");
	usage_error(c, ARGS("verify", c->arg_file, "--size=1m"),
		    "past its end");
	usage_error(c, ARGS("verify", c->arg_file, "--rw=read"),
		    "unknown option '--rw'");
	usage_error(c, ARGS("verify", c->arg_file, "--bs=100"),
		    "multiple of 512");
	usage_error(c, ARGS("verify", c->arg_file, "stray"),
		    "unexpected argument");
}

static void test_two_jobs_overlap_refused(void **state)
{
	struct ctx *c = *state;
	char jobfile[4300];
	struct proc_out po;

	snprintf(jobfile, sizeof(jobfile), "%s/two.fio", c->dir);
	FILE *f = fopen(jobfile, "we");
	assert_non_null(f);
	fprintf(f,
		"[global]\nfilename=%s\nsize=1m\nioengine=psync\n\n"
		"[v]\nrw=randrw\nverify=1\n\n[w]\nrw=randwrite\noffset=512k\n",
		c->path);
	fclose(f);
	run_iochar(&po, NULL, 0, ARGS("run", jobfile));
	expect_exit(&po, 2);
	expect_has(po.err, "job v: verify=1, but job w also writes");
	proc_out_free(&po);
}

/* --output-format=csv: a header, a row per target and a total row, with
 * the same counts as the JSON of the same verify; a bad format is one
 * line and exit 2. */
static void test_verify_csv(void **state)
{
	static const char *const cols[] = {"checked_units", "failures",
					   "corrupted",	    "misplaced",
					   "stale",	    "never_written",
					   "missing_units", "unverified_units"};
	struct ctx *c = *state;
	struct proc_out po;
	struct csv_table t;
	uint64_t offs[64];
	char key[64];

	write_verified(c, "4k");
	assert_int_equal(find_units(c->path, offs, 64), 64);
	flip_byte(c->path, offs[7] + 100);
	copy_unit(c->path, offs[2], offs[30]);
	json_object *r = verify_json(&po, c, 1, NULL);
	proc_out_free(&po);
	run_iochar(&po, NULL, 0,
		   ARGS("verify", c->arg_file, "--output-format=csv", "--bs=4k"));
	expect_exit(&po, 1);
	expect_has(po.err, "kind=corrupted");
	csv_table_parse(&t, po.out);
	assert_int_equal(t.nr_rows, 2);
	assert_string_equal(csv_get(&t, 0, "scope"), "target");
	assert_string_equal(csv_get(&t, 0, "path"), c->path);
	json_object *t0 = json_object_array_get_idx(jget(r, "targets"), 0);
	assert_non_null(t0);
	assert_int_equal(csv_get_u64(&t, 0, "offset"), jget_u64(t0, "offset"));
	assert_int_equal(csv_get_u64(&t, 0, "bytes"), jget_u64(t0, "bytes"));
	assert_string_equal(csv_get(&t, 1, "scope"), "total");
	for (unsigned i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		snprintf(key, sizeof(key), "verify.%s", cols[i]);
		assert_int_equal(csv_get_u64(&t, 1, cols[i]), jget_u64(r, key));
		assert_int_equal(csv_get_u64(&t, 0, cols[i]), jget_u64(r, key));
	}
	assert_int_equal(csv_get_u64(&t, 1, "failures"), 2);
	csv_table_free(&t);
	json_object_put(r);
	proc_out_free(&po);

	run_iochar(&po, NULL, 0,
		   ARGS("verify", c->arg_file, "--output-format=xml"));
	expect_exit(&po, 2);
	expect_has(po.err, "--output-format=xml");
	assert_int_equal(count_lines(po.err), 1);
	assert_int_equal(po.out[0], 0);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_run_randrw_clean, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_run_async_in_flight, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_two_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text_output_has_verify_line,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verify_finds_flipped_byte,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verify_finds_misplaced_block,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verify_truncated, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_run_sequences_never_misreport,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(
		test_partial_overwrite_not_corrupted, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verify_small_units, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_run_fails_on_corruption, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_verify_fatal_stops_at_first,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stdout_errors, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_zero_units_not_corrupted,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verify_csv, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_two_jobs_overlap_refused,
					    setup, teardown),
	};
	return cmocka_run_group_tests_name("verify_cli", tests, NULL, NULL);
}
