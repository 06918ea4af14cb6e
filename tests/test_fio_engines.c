/* test_fio_engines.c - iochar's engines make the system calls fio 3.33's
 * make, checked against fio itself in the same test.
 *
 * The same tiny job (64 KiB of 16 KiB I/Os on a file of its own, made with
 * the same bytes for both) runs under `strace -f` through fio and through
 * iochar; the calls each made on the job's file (the descriptors openat
 * returned for its path, until closed) are normalized (descriptor number
 * and mapping addresses dropped, nothing else) and compared:
 *   - sync, psync, vsync, pvsync, pvsync2 (hipri, nowait), reads and
 *     writes: the same sequence of calls, offsets, sizes, flags, results;
 *   - mmap: the same mapping (length, protection for reads, offset) and,
 *     with direct=1, the same msync of each I/O's range;
 *   - posixaio: the same set of pwrite64 calls glibc's AIO threads make;
 *   - io_uring (nothing to trace: the kernel does the I/O): the same I/O
 *     count and bytes in both JSON documents, every block rewritten;
 *   - iodepth=8 on psync: both say the depth is capped at 1 and both ran
 *     every I/O at depth 1 (iochar records iodepth 1);
 *   - uncached=1 on pvsync2: fio's I/O fails with EOPNOTSUPP here (fio's
 *     RWF_UNCACHED is Linux's RWF_ATOMIC), iochar refuses it up front.
 * Flushes (fsync=, end_fsync, sync=) are tests/test_fio_flush.c's. SKIP
 * when fio or strace is missing or strace cannot trace. Everything lives
 * in a mkdtemp directory under /tmp, removed at the end (trace_compare.h).
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
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "trace_compare.h"


static const struct {
	const char *engine, *extra, *names;
	unsigned min_calls; /* the 4 I/Os, and an lseek each for vsync */
	unsigned dirs;	    /* 1 read, 2 write */
	bool may_fail;	    /* both fail alike where the kernel refuses */
} sync_cases[] = {
	{"sync", "", "read( write( lseek(", 4, 3, false},
	{"psync", "", "pread64( pwrite64( read( write(", 4, 3, false},
	{"vsync", "", "readv( writev( lseek(", 8, 3, false},
	{"pvsync", "", "preadv( pwritev(", 4, 3, false},
	{"pvsync2", "--hipri=1", "preadv2( pwritev2(", 4, 3, false},
	/* RWF_NOWAIT: a read of a file fio dropped from the cache
	 * (invalidate=1) fails with EAGAIN, a buffered write may fail with
	 * EOPNOTSUPP: both tools must make the same call and fail alike */
	{"pvsync2", "--nowait=1 --hipri=1 --hipri_percentage=100",
	 "preadv2( pwritev2(", 1, 2, true},
};

static void test_sync_engines(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;

	tc_skip_without_tools();
	for (size_t i = 0; i < sizeof(sync_cases) / sizeof(sync_cases[0]); i++)
		for (int w = 0; w < 2; w++) {
			char job[256], what[300];
			if (!(sync_cases[i].dirs & (1u << w)))
				continue;
			snprintf(job, sizeof(job), "--rw=%s --ioengine=%s %s",
				 w ? "write" : "read", sync_cases[i].engine,
				 sync_cases[i].extra);
			snprintf(what, sizeof(what), "%s", job);
			tc_trace_both_rc(dir, job, sync_cases[i].names, &fio,
				      &ioc, sync_cases[i].may_fail);
			if (fio.n < sync_cases[i].min_calls)
				fail_msg("%s: fio made only %u calls", what, fio.n);
			tc_expect_same(what, &fio, &ioc);
		}
}


/* mmap: the file is mapped once, whole and shared, for a read job with
 * the same protection as fio's; direct=1 syncs each I/O's range. (A
 * write job's mapping is PROT_READ|PROT_WRITE in iochar, PROT_WRITE in
 * fio: the descriptor is opened read-write either way.) */
static void test_mmap(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;

	tc_skip_without_tools();
	tc_trace_both(dir, "--rw=read --ioengine=mmap --direct=1", "mmap( msync(",
		   &fio, &ioc);
	assert_int_equal(tc_count_prefix(&fio, "mmap("), 1);
	assert_int_equal(tc_count_prefix(&fio, "msync("), 4);
	tc_expect_same("mmap read direct=1", &fio, &ioc);
	tc_trace_both(dir, "--rw=write --ioengine=mmap", "mmap( msync(", &fio,
		   &ioc);
	assert_int_equal(tc_count_prefix(&fio, "mmap(NULL, 65536,"), 1);
	assert_int_equal(tc_count_prefix(&ioc, "mmap(NULL, 65536,"), 1);
	assert_int_equal(tc_count_prefix(&ioc, "msync("), tc_count_prefix(&fio, "msync("));
	char bytes[2][4200];
	snprintf(bytes[0], sizeof(bytes[0]), "%s/fio.dat", dir);
	snprintf(bytes[1], sizeof(bytes[1]), "%s/ioc.dat", dir);
	/* both files started equal; both were rewritten by the job */
	assert_int_not_equal(file_hash(bytes[0]), file_hash(bytes[1]));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* posixaio: glibc's AIO threads make the pwrite64 calls; the same set. */
static void test_posixaio(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;

	tc_skip_without_tools();
	tc_trace_both(dir, "--rw=write --ioengine=posixaio --iodepth=2",
		   "pwrite64( pread64(", &fio, &ioc);
	assert_int_equal(fio.n, 4);
	qsort(fio.c, fio.n, CALL_LEN, cmp_str);
	qsort(ioc.c, ioc.n, CALL_LEN, cmp_str);
	tc_expect_same("posixaio write", &fio, &ioc);
}


/* io_uring with fio's options: the same I/Os as fio (count, bytes), and
 * each job rewrote its whole file. */
static void test_io_uring(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;
	char a[4200], b[4200];

	tc_skip_without_tools();
	snprintf(a, sizeof(a), "%s/fio.dat", dir);
	snprintf(b, sizeof(b), "%s/ioc.dat", dir);
	tc_trace_both(dir,
		   "--rw=write --ioengine=io_uring --iodepth=4 --nonvectored=0 "
		   "--force_async=2 --fixedbufs=0",
		   "pwrite64( write( writev(", &fio, &ioc);
	/* the kernel moved the bytes: no write call on the file from either */
	assert_int_equal(fio.n, 0);
	assert_int_equal(ioc.n, 0);
	json_object *f = tc_load_json(dir, "fio.json"), *i = tc_load_json(dir, "ioc.json");
	json_object *fj = json_object_array_get_idx(jget(f, "jobs"), 0);
	json_object *ij = json_object_array_get_idx(jget(i, "jobs"), 0);
	assert_int_equal(jget_u64(fj, "write.total_ios"), 4);
	assert_int_equal(jget_u64(ij, "write.total_ios"),
			 jget_u64(fj, "write.total_ios"));
	assert_int_equal(jget_u64(ij, "write.io_bytes"),
			 jget_u64(fj, "write.io_bytes"));
	assert_int_not_equal(file_hash(a), file_hash(b));
	json_object_put(f);
	json_object_put(i);
}

/* iodepth=8 with a synchronous engine: fio says it caps the depth at 1
 * and runs every I/O at depth 1; so does iochar, and it records 1. */
static void test_depth_cap(void **state)
{
	const char *dir = *state;
	char out[4200], cmd_f[8192];

	tc_skip_without_tools();
	snprintf(out, sizeof(out), "%s/f.dat", dir);
	make_file(out, FILE_BYTES);
	snprintf(cmd_f, sizeof(cmd_f),
		 "--name=j --filename='%s' --size=64k --bs=16k --rw=read "
		 "--ioengine=psync --iodepth=8 --output-format=json",
		 out);
	/* fio says it on stdout, before the JSON (with --output it says
	 * nothing at all) */
	assert_int_equal(tc_sh("cd '%s' && timeout 60 fio %s >fio.txt 2>&1 && "
			    "sed -n '/^{/,$p' fio.txt >fio.json",
			    dir, cmd_f),
			 0);
	assert_int_equal(tc_sh("cd '%s' && timeout 60 '%s' run %s "
			    "--output=ioc.json >ioc.txt 2>&1",
			    dir, tc_iochar, cmd_f),
			 0);
	const char *say = "queue depth will be capped at 1";
	assert_int_equal(tc_sh("grep -q '%s' '%s/fio.txt'", say, dir), 0);
	/* iochar's is a note: in its JSON, and not on a harness's stderr */
	assert_int_equal(tc_sh("test ! -s '%s/ioc.txt'", dir), 0);
	json_object *f = tc_load_json(dir, "fio.json"), *i = tc_load_json(dir, "ioc.json");
	expect_note(i, say);
	json_object *fj = json_object_array_get_idx(jget(f, "jobs"), 0);
	json_object *ij = json_object_array_get_idx(jget(i, "jobs"), 0);
	assert_true(jget_double(fj, "iodepth_level.1") > 99.9);
	assert_true(jget_double(ij, "iodepth_level.1") > 99.9);
	json_object *io = json_object_array_get_idx(jget(i, "options"), 0);
	assert_int_equal(jget_u64(io, "iodepth"), 1); /* the depth used */
	json_object_put(f);
	json_object_put(i);
}

/* uncached=1: fio 3.33 sends its RWF_UNCACHED, 0x40, which this kernel
 * knows as RWF_ATOMIC, and its write fails; iochar refuses the job with
 * one line, exit 2, before anything is written. */
static void test_uncached(void **state)
{
	const char *dir = *state;

	tc_skip_without_tools();
	int f = tc_sh("cd '%s' && timeout 60 fio --name=j --filename=u.fio "
		   "--size=16k --bs=4k --rw=write --ioengine=pvsync2 "
		   "--uncached=1 --output-format=terse >fio.txt 2>&1",
		   dir);
	bool fio_failed = f != 0 || tc_sh("grep -q 'Operation not supported' "
				       "'%s/fio.txt'", dir) == 0;
	assert_true(fio_failed);
	assert_int_equal(tc_sh("cd '%s' && timeout 60 '%s' run --name=j "
			    "--filename=u.ioc --size=16k --bs=4k --rw=write "
			    "--ioengine=pvsync2 --uncached=1 >ioc.txt 2>&1",
			    dir, tc_iochar),
			 2);
	assert_int_equal(tc_sh("grep -q 'uncached=1 is not supported' '%s/ioc.txt'",
			    dir), 0);
	assert_int_equal(tc_sh("test $(wc -l <'%s/ioc.txt') -eq 1", dir), 0);
	assert_int_not_equal(tc_sh("test -e '%s/u.ioc'", dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sync_engines, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_mmap, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_posixaio, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_io_uring, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_depth_cap, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_uncached, tc_setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
