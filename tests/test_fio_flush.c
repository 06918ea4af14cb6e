/* test_fio_flush.c - fio's flush options against fio 3.33 itself, and a
 * RAID VD's fsync.
 *
 * Through fio and iochar under strace (trace_compare.h), 16 writes of 4k:
 *   - fsync=N, fdatasync=N (and both), end_fsync, fsync_on_close on
 *     psync, sync, pvsync and libaio: the same writes and flushes in the
 *     same order (fio flushes before the next I/O once the writes issued
 *     are a multiple of N, never after the last; fsync before fdatasync);
 *   - sync=1 / sync=dsync: O_SYNC / O_DSYNC in the open, as fio's;
 *   - io_uring fsync=4: IORING_OP_FSYNC counted in fio's "sync" member;
 *   - a RAID 5 VD with a write-back cache, fsync=8: the flush destages
 *     every byte written so far to the members and then fdatasyncs each
 *     member once, and the job counts one sync, as fio on a plain file.
 * SKIP when fio or strace is missing or strace cannot trace.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "trace_compare.h"


static const struct {
	const char *job;
	unsigned flushes; /* that fio makes: the test's own sanity check */
} flush_cases[] = {
	{"--ioengine=psync --fsync=4", 3},
	/* fsync at 2, 4, 6...; fdatasync at 3, 9, 15 (6, 12: fsync's) */
	{"--ioengine=sync --fsync=2 --fdatasync=3 --sync=dsync", 10},
	{"--ioengine=psync --end_fsync=1", 1},
	{"--ioengine=psync --fsync_on_close=1", 1},
	{"--ioengine=pvsync --sync=1 --fsync=8", 1},
	{"--ioengine=libaio --iodepth=4 --fsync=4", 3},
};

/* fsync=N, fdatasync=N, end_fsync, fsync_on_close: the same writes and
 * flushes in the same order as fio's (a flush after every N writes, none
 * after the last; end_fsync and fsync_on_close one per file); sync=:
 * the same O_SYNC / O_DSYNC in the open. 16 writes of 4k each. */
static void test_flushes(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;
	char job[512], fl[2][1024], tr[2][4200], f[2][4200];

	tc_skip_without_tools();
	for (size_t i = 0; i < sizeof(flush_cases) / sizeof(flush_cases[0]); i++) {
		snprintf(job, sizeof(job), "--rw=write --bs=4k %s",
			 flush_cases[i].job);
		/* --bs=4k after tc_trace_both's --bs=16k: the last one counts */
		tc_trace_both(dir, job, "pwrite64( write( pwritev( fsync( fdatasync(",
			   &fio, &ioc);
		unsigned n = tc_count_prefix(&fio, "fsync(") +
			     tc_count_prefix(&fio, "fdatasync(");
		if (flush_cases[i].flushes && n != flush_cases[i].flushes)
			fail_msg("%s: fio flushed %u times", job, n);
		tc_expect_same(job, &fio, &ioc);
		snprintf(f[0], sizeof(f[0]), "%s/fio.dat", dir);
		snprintf(f[1], sizeof(f[1]), "%s/ioc.dat", dir);
		snprintf(tr[0], sizeof(tr[0]), "%s/fio.trace", dir);
		snprintf(tr[1], sizeof(tr[1]), "%s/ioc.trace", dir);
		for (int t = 0; t < 2; t++)
			tc_open_line(tr[t], f[t], fl[t], sizeof(fl[t]));
		assert_true(fl[0][0] && fl[1][0]);
		assert_int_equal(strstr(fl[0], "O_SYNC") != NULL,
				 strstr(fl[1], "O_SYNC") != NULL);
		assert_int_equal(strstr(fl[0], "O_DSYNC") != NULL,
				 strstr(fl[1], "O_DSYNC") != NULL);
	}
}

/* fsync=4 on io_uring: IORING_OP_FSYNC, counted as fio counts it in its
 * "sync" member with its latency. fio 3.33 issues another fsync in each
 * free slot until the first completes (its get_rw_ddir asks again), so it
 * counts at least as many; iochar makes exactly one after every 4 writes
 * but the last. */
static void test_uring_fsync(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;

	tc_skip_without_tools();
	tc_trace_both(dir, "--rw=write --bs=4k --ioengine=io_uring --iodepth=4 "
			"--fsync=4",
		   "fsync( pwrite64(", &fio, &ioc);
	assert_int_equal(fio.n, 0); /* the kernel's, not system calls */
	assert_int_equal(ioc.n, 0);
	json_object *f = tc_load_json(dir, "fio.json"), *i = tc_load_json(dir, "ioc.json");
	json_object *fj = json_object_array_get_idx(jget(f, "jobs"), 0);
	json_object *ij = json_object_array_get_idx(jget(i, "jobs"), 0);
	assert_int_equal(jget_u64(ij, "write.total_ios"),
			 jget_u64(fj, "write.total_ios"));
	assert_int_equal(jget_u64(ij, "sync.total_ios"), 3);
	assert_true(jget_u64(fj, "sync.total_ios") >= 3);
	assert_int_equal(jget_u64(ij, "sync.lat_ns.N"), 3);
	assert_true(jget_u64(ij, "sync.lat_ns.max") > 0);
	json_object_put(f);
	json_object_put(i);
}
#define VD_MEMBERS 4

/* The member writes and fdatasyncs in the trace at path, in order: bytes
 * written to members before the first fdatasync in *before, fdatasyncs
 * in *syncs. Members are fds opened on dir/m*. */
static void vd_trace(const char *path, const char *dir, uint64_t *before,
		     unsigned *syncs)
{
	char m[4200];

	*before = 0;
	*syncs = 0;
	for (int i = 0; i < VD_MEMBERS; i++) {
		static struct calls one;
		snprintf(m, sizeof(m), "%s/m%d", dir, i);
		tc_read_calls(path, m, "pwrite64( fdatasync(", &one);
		unsigned k = 0;
		for (; k < one.n && strncmp(one.c[k], "fdatasync(", 10); k++) {
			const char *sz = strchr(one.c[k], ',');
			sz = sz ? strchr(sz + 1, ',') : NULL; /* ""..., LEN, */
			*before += sz ? strtoull(sz + 1, NULL, 10) : 0;
		}
		*syncs += tc_count_prefix(&one, "fdatasync(");
	}
}

/* fsync on a RAID 5 VD with write=back: after 8 host writes of 16k (two
 * full rows and two strips of a third), the flush destages them all
 * before each member is fdatasync'ed once; the job counts one sync, as fio
 * counts on a plain file for the same job. */
static void test_vd_fsync(void **state)
{
	const char *dir = *state;
	char members[4 * 4200] = "", tr[4200];
	uint64_t before;
	unsigned syncs;

	tc_skip_without_tools();
	for (int i = 0; i < VD_MEMBERS; i++) {
		char m[4200];
		snprintf(m, sizeof(m), "%s/m%d", dir, i);
		assert_int_equal(tc_sh("truncate -s 4m '%s'", m), 0);
		strcat(members, i ? ":" : "");
		strcat(members, m);
	}
	snprintf(tr, sizeof(tr), "%s/vd.trace", dir);
	const char *job = "--rw=write --bs=16k --size=256k --ioengine=psync "
			  "--fsync=8";
	assert_int_equal(tc_sh("cd '%s' && " TC_UNDER_STRACE "timeout 60 strace -f -qq -s 0 -e "
			       "trace=openat,close,pwrite64,fdatasync -o '%s' "
			       "'%s' run --vd=raid5,strip=16k,members=%s,"
			       "write=back,cache=1m %s --force "
			       "--output-format=json --output=vd.json "
			       ">/dev/null 2>vd.err",
			       dir, tr, tc_iochar, members, job),
			 0);
	vd_trace(tr, dir, &before, &syncs);
	assert_true(before >= 8 * 16384); /* every host byte, and parity */
	assert_int_equal(syncs, VD_MEMBERS);
	assert_int_equal(tc_sh("cd '%s' && timeout 60 fio --name=j "
			       "--filename=plain.dat %s --output-format=json "
			       "--output=fio.json >/dev/null 2>&1",
			       dir, job),
			 0);
	json_object *f = tc_load_json(dir, "fio.json"), *v = tc_load_json(dir, "vd.json");
	json_object *fj = json_object_array_get_idx(jget(f, "jobs"), 0);
	json_object *vj = json_object_array_get_idx(jget(v, "jobs"), 0);
	assert_int_equal(jget_u64(fj, "sync.total_ios"), 1);
	assert_int_equal(jget_u64(vj, "sync.total_ios"), 1);
	assert_int_equal(jget_u64(vj, "write.total_ios"),
			 jget_u64(fj, "write.total_ios"));
	json_object_put(f);
	json_object_put(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flushes, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_uring_fsync, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_vd_fsync, tc_setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
