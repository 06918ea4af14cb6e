/* test_vd_journal.c - verify and the crash journal through a RAID virtual
 * drive, end to end: a verify=1 journal= run on a RAID 5 VD is killed
 * with SIGKILL mid-run and `iochar verify --vd=... --journal=...` finds
 * every acknowledged write intact (exit 0), also with only the journal
 * (its VD is in it); a byte flipped on one member's data strip is named
 * at its logical VD offset and on its member (exit 1), with and without
 * the journal, and a degraded verify that leaves that member out rebuilds
 * the block from parity and finds it intact, while one that leaves
 * another member out rebuilds a second bad block from it; bad input is
 * exit 2.
 */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

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
#include "vd/geom.h"
#include "verify/journal.h"

#define STRIP	  16384
#define VD_SIZE	  (1u << 20)

struct ctx {
	char *dir;
	char def[4096];       /* raid5,strip=16k,members=dir/m0:dir/m1:dir/m2 */
	char vd[4200];        /* --vd=def */
	char journal[4200];   /* --journal=dir/j */
	char errlog[4200];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	c->dir = tmpdir_make();
	snprintf(c->def, sizeof(c->def),
		 "raid5,strip=16k,members=%s/m0:%s/m1:%s/m2", c->dir, c->dir,
		 c->dir);
	snprintf(c->vd, sizeof(c->vd), "--vd=%s", c->def);
	snprintf(c->journal, sizeof(c->journal), "--journal=%s/j", c->dir);
	snprintf(c->errlog, sizeof(c->errlog), "%s/run.err", c->dir);
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

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* `iochar verify ARGS --output-format=json`, exit want; its JSON. */
static json_object *verify(struct proc_out *po, int want,
			   const char *const *args)
{
	const char *a[8] = {"verify"};
	unsigned n = 1;

	while (*args && n < 6)
		a[n++] = *args++;
	a[n++] = "--output-format=json";
	a[n] = NULL;
	run_iochar(po, NULL, 0, a);
	expect_exit(po, want);
	return parse_json(po);
}

/* Completed writes the journal at path records so far (0 while it cannot
 * be read yet). */
static uint64_t journal_dones(const char *path)
{
	struct journal_replay *r;
	struct ioc_err err = {0};
	uint64_t n;

	if (journal_replay_file(path, &r, &err))
		return 0;
	n = journal_replay_stats(r)->dones;
	journal_replay_free(r);
	return n;
}

/* Start a verify=1 journal= run of random writes on the VD, and SIGKILL it
 * ms after its journal records 50 completed writes (at most 20 s). The run
 * has 30 s to go: it must still be running at the kill. */
static void run_and_kill(struct ctx *c, int ms)
{
	char bin[4096];
	int status = 0, waited = 0;
	char jpath[4200];

	snprintf(jpath, sizeof(jpath), "%s/j", c->dir);
	assert_non_null(realpath(iochar_path(), bin));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen(c->errlog, "w", stderr))
			_exit(126);
		execl(bin, bin, "run", c->vd, "--size=1m", "--rw=randwrite",
		      "--bs=4k", "--verify=1", c->journal, "--time_based",
		      "--runtime=30", "--ioengine=psync", "--numjobs=1",
		      (char *)NULL);
		_exit(127);
	}
	for (; waited < 20000; waited += 10) {
		if (journal_dones(jpath) >= 50)
			break;
		if (waitpid(pid, &status, WNOHANG) == pid)
			fail_msg("the run ended before the kill (status 0x%x): %s",
				 status, slurp(c->errlog));
		usleep(10 * 1000);
	}
	usleep((useconds_t)ms * 1000);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		fail_msg("the run ended before the kill (status 0x%x): %s",
			 status, slurp(c->errlog));
}

static void expect_intact(json_object *r, uint64_t min_ack)
{
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.checked_units") +
			     jget_u64(r, "verify.unverified_units"),
			 VD_SIZE / 4096);
	assert_true(jget_u64(r, "verify.acknowledged_units") >= min_ack);
}

static void test_kill_then_verify(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;

	run_and_kill(c, 300);
	json_object *r = verify(&po, 0, ARGS(c->vd, c->journal));
	/* the writes acknowledged before the kill are all there */
	expect_intact(r, 50);
	assert_true(jget_u64(r, "journal.records") > 20);
	uint64_t ack = jget_u64(r, "verify.acknowledged_units");
	json_object_put(r);
	proc_out_free(&po);

	/* the journal names its VD: the same without --vd */
	r = verify(&po, 0, ARGS(c->journal));
	expect_intact(r, ack);
	expect_has(json_object_get_string(jget(r, "targets")), "raid5");
	json_object_put(r);
	proc_out_free(&po);
}

/* Member, and offset on it, of VD byte off (the layout of vd/geom.h,
 * itself tested against docs/vd.md's diagrams in test_vd_geom.c). */
static unsigned member_of(uint64_t off, uint64_t member_bytes, uint64_t *moff)
{
	struct vd_def def = {.level = VD_RAID5, .strip = STRIP,
			     .nr_members = 3, .spans = 1};
	struct vd_geom g;
	struct vd_piece p;

	vd_geom_init(&g, &def, member_bytes);
	vd_geom_piece(&g, off, 4096, &p);
	*moff = p.row * STRIP + p.in_strip;
	return vd_geom_data_member(&g, p.row, p.idx);
}

static void flip_byte(const char *path, uint64_t off)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	uint8_t b;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, (off_t)off), 1);
	b ^= 0x5a;
	assert_int_equal(pwrite(fd, &b, 1, (off_t)off), 1);
	close(fd);
}

static void test_corrupt_member(void **state)
{
	struct ctx *c = *state;
	struct proc_out po;
	char path[4200], want[4400], deg[4300];
	/* strip 5 = row 2, data index 1: on member 2 (md left-symmetric,
	 * parity of row 2 on member 0), at byte 2 * 16k + 4096 of it */
	const uint64_t off = 5 * STRIP + 4096;
	uint64_t moff;
	unsigned m = member_of(off, VD_SIZE / 2, &moff);

	assert_int_equal(m, 2);
	assert_int_equal(moff, 2 * STRIP + 4096);
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->vd, "--size=1m", "--rw=write", "--bs=4k",
			"--verify=1", c->journal, "--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	json_object *r = verify(&po, 0, ARGS(c->vd, "--size=1m"));
	assert_int_equal(jget_u64(r, "verify.checked_units"), VD_SIZE / 4096);
	json_object_put(r);
	proc_out_free(&po);

	snprintf(path, sizeof(path), "%s/m%u", c->dir, m);
	flip_byte(path, moff + 100);

	/* self-describing check: the logical block, then its member */
	r = verify(&po, 1, ARGS(c->vd, "--size=1m"));
	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	assert_int_equal(jget_u64(r, "verify.corrupted"), 1);
	snprintf(want, sizeof(want), "offset=%llu kind=corrupted",
		 (unsigned long long)off);
	expect_has(po.err, want);
	snprintf(want, sizeof(want), "member=2 path=%s member_offset=%llu",
		 path, (unsigned long long)moff);
	expect_has(po.err, want);
	json_object_put(r);
	proc_out_free(&po);

	/* against the journal: the same block, the same member */
	r = verify(&po, 1, ARGS(c->journal));
	assert_int_equal(jget_u64(r, "verify.failures"), 1);
	snprintf(want, sizeof(want), "offset=%llu kind=corrupted",
		 (unsigned long long)off);
	expect_has(po.err, want);
	expect_has(po.err, "member=2 path=");
	json_object_put(r);
	proc_out_free(&po);

	/* member 2 left out: its block is rebuilt from the others, intact */
	snprintf(deg, sizeof(deg), "%s,failed=2", c->vd);
	r = verify(&po, 0, ARGS(deg, c->journal));
	assert_int_equal(jget_u64(r, "verify.failures"), 0);
	assert_int_equal(jget_u64(r, "verify.acknowledged_units"),
			 VD_SIZE / 4096);
	json_object_put(r);
	proc_out_free(&po);
	/* member 1 left out: the bad strip is still read directly, and the
	 * block of row 2 rebuilt from it and parity (strip 4, data index 0,
	 * on member 1) is wrong too, at the same place in its strip */
	snprintf(deg, sizeof(deg), "%s,failed=1", c->vd);
	r = verify(&po, 1, ARGS(deg, "--size=1m"));
	assert_int_equal(jget_u64(r, "verify.corrupted"), 2);
	snprintf(want, sizeof(want), "offset=%llu kind=corrupted",
		 (unsigned long long)(off - STRIP));
	expect_has(po.err, want);
	expect_has(po.err, "member=1 path=");
	expect_has(po.err, "(lost: rebuilt from the other members)");
	json_object_put(r);
	proc_out_free(&po);
}

static void test_usage_errors(void **state)
{
	struct ctx *c = *state;
	char two[8400], f[4300], jm[4300];

	/* members missing: nothing to read back */
	expect_usage_line(ARGS("verify", c->vd), "does not exist");
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   ARGS("run", c->vd, "--size=256k", "--rw=write", "--bs=4k",
			"--verify=1", c->journal, "--ioengine=psync"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(f, sizeof(f), "--filename=%s/m0", c->dir);
	expect_usage_line(ARGS("verify", c->vd, f), "either --filename or --vd");
	snprintf(two, sizeof(two), "%s;%s", c->vd, c->def);
	expect_usage_line(ARGS("verify", two), "several VDs");
	expect_usage_line(ARGS("verify", c->journal, f),
		    "the journal's target is a VD");
	expect_usage_line(ARGS("verify", c->journal, "--bs=8k"),
		    "--bs with --journal");
	/* the journal may not be a member */
	snprintf(jm, sizeof(jm), "--journal=%s/m1", c->dir);
	uint64_t h = file_hash(jm + 10);
	expect_usage_line(ARGS("run", c->vd, "--size=256k", "--rw=write", "--bs=4k",
			 "--verify=1", jm, "--ioengine=psync", "--force"),
		    "is a --vd member");
	assert_true(file_hash(jm + 10) == h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_kill_then_verify, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_corrupt_member, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_usage_errors, setup,
					    teardown),
	};
	return cmocka_run_group_tests_name("vd_journal", tests, NULL, NULL);
}
