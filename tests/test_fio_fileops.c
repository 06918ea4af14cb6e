/* test_fio_fileops.c - fio 3.33's file-operation engines (falloc,
 * ftruncate, filecreate, filestat, filedelete) and iochar's make the same
 * system calls and count the same I/Os, checked against fio itself in the
 * same test:
 *   - falloc, ftruncate (tests/trace_compare.h: each tool its own 64 KiB
 *     file, 16 KiB I/Os): the same fallocate(2) (mode, offset, length) and
 *     ftruncate(2) (length) calls in the same order for sequential jobs,
 *     the same set for a random-map job, as many for norandommap; the
 *     same I/O counts and bytes in both JSON documents;
 *   - filecreate, filestat (stat_type=statx), filedelete on nrfiles files
 *     (each tool in a directory of its own, the files made alike first for
 *     stat and delete): each file gets exactly one openat(O_CREAT|O_RDWR,
 *     0600), statx or unlink in both, the files are left the same (empty
 *     and 0600, or gone), and both JSON documents count the same reads and
 *     bytes, filesize/bs per file (fio's fake I/Os); fio samples latency
 *     at each file's operation only, iochar says at run start that it
 *     samples every I/O; the files iochar created are marked as its own
 *     (a later filedelete needs no --force);
 *   - ftruncate with rw=read: fio fails the job (EINVAL), iochar refuses
 *     it with exit 2 before anything is written;
 *   - the destructive-write guard: filedelete and falloc on a file iochar
 *     did not create are refused without --force, the file unchanged;
 *   - --readonly: fio's filedelete removes the files, iochar refuses it.
 * SKIP without fio or strace. Everything lives in a mkdtemp directory
 * under /tmp, removed at the end. */
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
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "trace_compare.h"

#define NR_FILES 4

/* jobs[0].<dir>.<member> of the JSON document dir/name. */
static int64_t job_count(const char *dir, const char *name, const char *d,
			 const char *member)
{
	json_object *doc = tc_load_json(dir, name), *jobs, *dd, *v;

	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	json_object *j = json_object_array_get_idx(jobs, 0);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, d, &dd));
	assert_true(json_object_object_get_ex(dd, member, &v));
	int64_t n = json_object_get_int64(v);
	json_object_put(doc);
	return n;
}

/* Both JSON documents count the same I/Os and bytes of direction d, and
 * at least want I/Os. */
static void expect_same_counts(const char *dir, const char *d, int64_t want)
{
	int64_t fi = job_count(dir, "fio.json", d, "total_ios");
	int64_t ii = job_count(dir, "ioc.json", d, "total_ios");

	if (fi != ii || fi < want)
		fail_msg("%s total_ios: fio %lld, iochar %lld (want %lld)", d,
			 (long long)fi, (long long)ii, (long long)want);
	assert_int_equal(job_count(dir, "fio.json", d, "io_bytes"),
			 job_count(dir, "ioc.json", d, "io_bytes"));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static const struct {
	const char *job;
	unsigned calls;	 /* the 4 I/Os */
	const char *dir; /* JSON direction */
	bool sorted;	 /* random map: compare the set */
	bool count_only; /* norandommap: offsets are each tool's draw */
} fd_cases[] = {
	{"--ioengine=falloc --rw=write", 4, "write", false, false},
	{"--ioengine=falloc --rw=read", 4, "read", false, false},
	{"--ioengine=falloc --rw=randwrite", 4, "write", true, false},
	{"--ioengine=ftruncate --rw=write", 4, "write", false, false},
	{"--ioengine=ftruncate --rw=randwrite --norandommap", 4, "write",
	 false, true},
};

static void test_falloc_ftruncate(void **state)
{
	const char *dir = *state;
	static struct calls fio, ioc;

	tc_skip_without_tools();
	for (size_t i = 0; i < sizeof(fd_cases) / sizeof(fd_cases[0]); i++) {
		tc_trace_both(dir, fd_cases[i].job, "fallocate( ftruncate(",
			      &fio, &ioc);
		if (fio.n != fd_cases[i].calls || ioc.n != fio.n)
			fail_msg("%s: fio made %u calls, iochar %u (want %u)",
				 fd_cases[i].job, fio.n, ioc.n,
				 fd_cases[i].calls);
		if (fd_cases[i].sorted) {
			qsort(fio.c, fio.n, CALL_LEN, cmp_str);
			qsort(ioc.c, ioc.n, CALL_LEN, cmp_str);
		}
		if (!fd_cases[i].count_only)
			tc_expect_same(fd_cases[i].job, &fio, &ioc);
		expect_same_counts(dir, fd_cases[i].dir, 4);
	}
}

/* How many lines of the trace dir/tool.trace contain both a and b. */
static unsigned trace_lines(const char *dir, const char *tool, const char *a,
			    const char *b)
{
	char cmd[8192];
	unsigned n = 0;

	snprintf(cmd, sizeof(cmd), "grep -F -- '%s' '%s/%s.trace' | grep -F -c -- '%s'",
		 a, dir, tool, b);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	if (fscanf(p, "%u", &n) != 1)
		n = 0;
	pclose(p);
	return n;
}

/* Run --name=j --nrfiles=NR_FILES job through fio and iochar under
 * strace, each in its own directory dir/fio, dir/ioc (with the job's
 * files made first when made); traces dir/TOOL.trace, JSON dir/TOOL.json. */
static void run_fileop(const char *dir, const char *job, bool made)
{
	static const char *const tools[] = {"fio", "ioc"};

	for (int t = 0; t < 2; t++) {
		char p[4200];
		assert_int_equal(tc_sh("rm -rf '%s/%s' && mkdir '%s/%s'", dir,
				       tools[t], dir, tools[t]), 0);
		for (unsigned f = 0; made && f < NR_FILES; f++) {
			snprintf(p, sizeof(p), "%s/%s/j.0.%u", dir, tools[t], f);
			make_file(p, 4096);
		}
	}
	const char *common = "--name=j --nrfiles=4 --output-format=json";
	int rf = tc_sh("cd '%s/fio' && timeout 60 strace -f -qq -e "
		       "trace=openat,statx,unlink -o ../fio.trace fio %s %s "
		       "--output=../fio.json >../fio.err 2>&1", dir, common, job);
	int ri = tc_sh("cd '%s/ioc' && " TC_UNDER_STRACE "timeout 60 strace -f "
		       "-qq -e trace=openat,statx,unlink -o ../ioc.trace '%s' "
		       "run %s %s --force --output=../ioc.json >/dev/null "
		       "2>../ioc.err", dir, tc_iochar, common, job);
	if (rf || ri) {
		tc_sh("cat '%s/fio.err' '%s/ioc.err'", dir, dir);
		fail_msg("%s: fio exit %d, iochar exit %d", job, rf, ri);
	}
}

/* Each of the job's files: exactly one line with call and its name in
 * both traces. */
static void expect_one_call_each(const char *dir, const char *job,
				 const char *call, const char *quote)
{
	for (unsigned f = 0; f < NR_FILES; f++) {
		char name[64];
		snprintf(name, sizeof(name), "j.0.%u%s", f, quote);
		unsigned nf = trace_lines(dir, "fio", call, name);
		unsigned ni = trace_lines(dir, "ioc", call, name);
		if (nf != 1 || ni != 1)
			fail_msg("%s: %s of %s: fio %u, iochar %u (want 1)", job,
				 call, name, nf, ni);
	}
}

/* The job's files in dir/fio and dir/ioc: st_size and mode alike, or both
 * gone. */
static void expect_same_files(const char *dir, bool gone)
{
	for (unsigned f = 0; f < NR_FILES; f++) {
		char a[4200], b[4200];
		struct stat sa, sb;
		snprintf(a, sizeof(a), "%s/fio/j.0.%u", dir, f);
		snprintf(b, sizeof(b), "%s/ioc/j.0.%u", dir, f);
		int ra = stat(a, &sa), rb = stat(b, &sb);
		assert_int_equal(ra, gone ? -1 : 0);
		assert_int_equal(rb, ra);
		if (gone)
			continue;
		assert_int_equal(sa.st_size, sb.st_size);
		assert_int_equal(sa.st_mode & 07777, sb.st_mode & 07777);
	}
}

static void test_filecreate(void **state)
{
	const char *dir = *state;
	const char *job = "--ioengine=filecreate --filesize=8k "
			  "--create_on_open=1 --fallocate=none";

	tc_skip_without_tools();
	run_fileop(dir, job, false);
	expect_one_call_each(dir, job, "O_RDWR|O_CREAT, 0600", "\"");
	expect_same_files(dir, false);
	/* fio's fakes: filesize/bs I/Os per file, one create each */
	expect_same_counts(dir, "read", 2 * NR_FILES);
	/* fio samples latency at each create only; iochar at every I/O,
	 * and says so at run start */
	json_object *doc = tc_load_json(dir, "fio.json"), *jobs, *rd, *clat, *n;
	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(jobs, 0),
					      "read", &rd));
	assert_true(json_object_object_get_ex(rd, "clat_ns", &clat));
	assert_true(json_object_object_get_ex(clat, "N", &n));
	assert_int_equal(json_object_get_int64(n), NR_FILES);
	json_object_put(doc);
	/* said in iochar's JSON; a harness's stderr stays as empty as fio's */
	doc = tc_load_json(dir, "ioc.json");
	expect_note(doc, "differs from fio here: ioengine=filecreate: latency is "
			 "sampled at every I/O");
	json_object_put(doc);
	assert_int_equal(tc_sh("test ! -s '%s/fio.err' && test ! -s '%s/ioc.err'",
			       dir, dir), 0);
	/* iochar marks the files it created: a later run may remove them
	 * without --force */
	assert_int_equal(tc_sh("cd '%s/ioc' && '%s' run --name=j --nrfiles=4 "
			       "--ioengine=filedelete --filesize=4k >/dev/null "
			       "2>&1 && test ! -e j.0.0", dir, tc_iochar), 0);
}

static void test_filestat(void **state)
{
	const char *dir = *state;
	/* stat is lstat's path here (no links): one run less */
	static const char *const types[] = {"lstat", "statx"};

	tc_skip_without_tools();
	for (int t = 0; t < 2; t++) {
		char job[128];
		snprintf(job, sizeof(job),
			 "--ioengine=filestat --filesize=4k --stat_type=%s",
			 types[t]);
		run_fileop(dir, job, true);
		/* fio looks its files up with stat and lstat itself while
		 * setting up; only statx is the engine's alone */
		if (t == 1)
			expect_one_call_each(dir, job, "statx(", "\"");
		expect_same_files(dir, false);
		expect_same_counts(dir, "read", NR_FILES);
	}
}

static void test_filedelete(void **state)
{
	const char *dir = *state;
	const char *job = "--ioengine=filedelete --filesize=4k --unlink=0";

	tc_skip_without_tools();
	run_fileop(dir, job, true);
	expect_one_call_each(dir, job, "unlink(", "\"");
	expect_same_files(dir, true);
	expect_same_counts(dir, "read", NR_FILES);
}

/* fio fails a read of ftruncate (EINVAL) when it runs it; iochar refuses
 * it up front: exit 2, one line, the file untouched. */
static void test_ftruncate_read(void **state)
{
	const char *dir = *state;

	tc_skip_without_tools();
	assert_int_equal(tc_sh("cd '%s' && head -c 65536 /dev/zero >f.dat && "
			       "fio --name=j --ioengine=ftruncate --filename=f.dat "
			       "--size=64k --bs=16k --output-format=json "
			       "--output=fio.json >/dev/null 2>&1", dir), 1);
	assert_int_equal(job_count(dir, "fio.json", "read", "total_ios"), 1);
	assert_int_equal(tc_sh("cd '%s' && cp f.dat i.dat && '%s' run --name=j "
			       "--ioengine=ftruncate --filename=i.dat --size=64k "
			       "--bs=16k --force >out 2>err", dir, tc_iochar), 2);
	assert_int_equal(tc_sh("cd '%s' && test ! -s out && test $(wc -l <err) -eq 1 "
			       "&& grep -q ftruncate err && cmp -s f.dat i.dat", dir), 0);
}

/* --readonly: fio's filedelete removes the files all the same; iochar
 * refuses the job, exit 2, one line, the files kept. */
static void test_readonly(void **state)
{
	const char *dir = *state;

	tc_skip_without_tools();
	assert_int_equal(tc_sh("cd '%s' && head -c 4096 /dev/zero >j.0.0 && "
			       "fio --readonly --name=j --ioengine=filedelete "
			       "--nrfiles=1 --filesize=4k >/dev/null 2>&1 && "
			       "test ! -e j.0.0", dir), 0);
	assert_int_equal(tc_sh("cd '%s' && head -c 4096 /dev/zero >j.0.0 && "
			       "'%s' run --readonly --name=j --ioengine=filedelete "
			       "--nrfiles=1 --filesize=4k --force >out 2>err",
			       dir, tc_iochar), 2);
	assert_int_equal(tc_sh("cd '%s' && test ! -s out && test $(wc -l <err) "
			       "-eq 1 && grep -q readonly err && test -s j.0.0",
			       dir), 0);
}

/* filedelete and falloc on a file iochar did not create: refused without
 * --force, exit 2, one line naming the file, the file unchanged. */
static void test_guard(void **state)
{
	const char *dir = *state;
	static const char *const engines[] = {"filedelete", "falloc"};

	for (int e = 0; e < 2; e++) {
		char p[4200];
		snprintf(p, sizeof(p), "%s/keep.dat", dir);
		make_file(p, 4096);
		uint64_t before = file_hash(p);
		assert_int_equal(tc_sh("cd '%s' && '%s' run --name=j --ioengine=%s "
				       "--filename=keep.dat --size=4k >out 2>err",
				       dir, tc_iochar, engines[e]), 2);
		assert_int_equal(tc_sh("cd '%s' && test ! -s out && "
				       "test $(wc -l <err) -eq 1 && grep -q keep.dat err",
				       dir), 0);
		assert_int_equal(file_hash(p), before);
		unlink(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_falloc_ftruncate, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_filecreate, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_filestat, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_filedelete, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_ftruncate_read, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_guard, tc_setup, tc_teardown),
		cmocka_unit_test_setup_teardown(test_readonly, tc_setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
