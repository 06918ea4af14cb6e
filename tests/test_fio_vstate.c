/* test_fio_vstate.c - verify_state_save / verify_state_load against fio
 * 3.33, each tool reading the other's state file:
 *  - a write job (verify=crc32c, do_verify=0) over a 1 MiB file,
 *    interrupted by runtime= (rate_iops keeps it well short of the
 *    file), leaves local-w-0-verify.state in both tools: the same size,
 *    fio's version 3; iochar's says as many writes as its JSON;
 *  - the written file and state of each tool are verified by the other
 *    (rw=read, verify_state_load=1): exit 0, exactly the state's count of
 *    blocks read and checked, none failed;
 *  - without verify_state_load the same read fails in both (the blocks
 *    past the written ones hold no header): the state is what stops it;
 *  - a missing or corrupt state file: iochar exits 2 with one line naming
 *    it, before reading (fio fails too); verify_state_load with iochar's
 *    own verify=1 is exit 2.
 * SKIP without fio. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trace_compare.h"

#define STATE "local-w-0-verify.state"
#define WRITE_JOB                                                              \
	"--name=w --filename=d.dat --rw=write --bs=4k --size=1M "              \
	"--verify=crc32c --do_verify=0 --ioengine=psync --rate_iops=200 "      \
	"--runtime=300ms --output-format=json"
#define VERIFY_JOB                                                             \
	"--name=w --filename=d.dat --rw=read --bs=4k --size=1M "               \
	"--verify=crc32c --ioengine=psync --output-format=json"

static void need_fio(void)
{
	if (tc_sh("command -v fio >/dev/null 2>&1")) {
		print_message("SKIP: fio is not installed (scripts/deps.sh)\n");
		skip();
	}
}

/* The state file's bytes at dir/STATE (at most cap), its length. */
static size_t read_state(const char *dir, uint8_t *b, size_t cap)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/" STATE, dir);
	FILE *f = fopen(p, "rb");
	if (!f)
		fail_msg("%s: no state file", p);
	size_t n = fread(b, 1, cap, f);
	fclose(f);
	return n;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* numberio of the state at dir (header 24 bytes, then no_comps, depth and
 * nofiles, numberio). */
static uint64_t state_writes(const char *dir)
{
	uint8_t b[4096];
	size_t n = read_state(dir, b, sizeof(b));
	assert_true(n >= 24 + 152);
	assert_int_equal(le64(b), 3);
	return le64(b + 24 + 16);
}

static uint64_t json_ios(const char *dir, const char *sub, const char *what)
{
	char name[256];
	snprintf(name, sizeof(name), "%s/out.json", sub);
	json_object *doc = tc_load_json(dir, name);
	json_object *job = json_object_array_get_idx(jget(doc, "jobs"), 0);
	uint64_t v = jget_u64(job, what);
	json_object_put(doc);
	return v;
}

static void write_both(const char *d)
{
	assert_int_equal(tc_sh("cd %s && mkdir fw iw && truncate -s 1M fw/d.dat "
			       "iw/d.dat", d), 0);
	assert_int_equal(tc_sh("cd %s/fw && timeout 60 fio " WRITE_JOB
			       " >out.json 2>err.txt", d), 0);
	assert_int_equal(tc_sh("cd %s/iw && timeout 60 %s run --force " WRITE_JOB
			       " >out.json 2>err.txt", d, tc_iochar), 0);
}

static void test_cross(void **state)
{
	const char *d = *state;
	uint8_t fb[4096], ib[4096];

	need_fio();
	write_both(d);
	char fw[4200], iw[4200];
	snprintf(fw, sizeof(fw), "%s/fw", d);
	snprintf(iw, sizeof(iw), "%s/iw", d);
	assert_int_equal(read_state(fw, fb, sizeof(fb)),
			 read_state(iw, ib, sizeof(ib)));
	uint64_t fwr = state_writes(fw), iwr = state_writes(iw);
	print_message("writes: fio %llu, iochar %llu (of 256 blocks)\n",
		      (unsigned long long)fwr, (unsigned long long)iwr);
	assert_int_equal(iwr, json_ios(d, "iw", "write.total_ios"));
	assert_true(fwr > 0 && fwr < 256 && iwr > 0 && iwr < 256);
	/* each verifies the other's */
	assert_int_equal(tc_sh("cd %s && mkdir iv fv && cp fw/d.dat fw/" STATE
			       " iv/ && cp iw/d.dat iw/" STATE " fv/", d), 0);
	assert_int_equal(tc_sh("cd %s/iv && timeout 60 %s run " VERIFY_JOB
			       " --verify_state_load=1 >out.json 2>err.txt",
			       d, tc_iochar), 0);
	assert_int_equal(json_ios(d, "iv", "read.total_ios"), fwr);
	json_object *doc = tc_load_json(d, "iv/out.json");
	assert_int_equal(jget_u64(doc, "verify.checked_units"), fwr);
	assert_int_equal(jget_u64(doc, "verify.failures"), 0);
	json_object_put(doc);
	assert_int_equal(tc_sh("cd %s/fv && timeout 60 fio " VERIFY_JOB
			       " --verify_state_load=1 >out.json 2>err.txt", d), 0);
	assert_int_equal(json_ios(d, "fv", "read.total_ios"), iwr);
	assert_int_equal(json_ios(d, "fv", "error"), 0);
	/* without the state both read past the written blocks and fail */
	assert_int_not_equal(tc_sh("cd %s/iv && timeout 60 %s run " VERIFY_JOB
				   " >/dev/null 2>&1", d, tc_iochar), 0);
	assert_int_not_equal(tc_sh("cd %s/fv && timeout 60 fio " VERIFY_JOB
				   " >/dev/null 2>&1", d), 0);
}

/* iochar: exit 2, one line naming want, nothing created in dir/sub. */
static void expect_refused(const char *d, const char *sub, const char *opts,
			   const char *want)
{
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/%s", d, sub);
	assert_int_equal(tc_sh("cd %s && %s run " VERIFY_JOB " %s >out.txt "
			       "2>err.txt; test $? = 2", dir, tc_iochar, opts), 0);
	assert_int_equal(tc_sh("test $(wc -l <%s/err.txt) = 1 && grep -q '%s' "
			       "%s/err.txt", dir, want, dir), 0);
	assert_int_equal(tc_sh("test ! -e %s/d.dat", dir), 0);
}

static void test_bad_state(void **state)
{
	const char *d = *state;

	need_fio();
	assert_int_equal(tc_sh("mkdir -p %s/none %s/bad", d, d), 0);
	expect_refused(d, "none", "--verify_state_load=1", STATE);
	expect_refused(d, "none", "--verify=1 --verify_state_load=1",
		       "verify_state_load=1");
	/* a state whose crc no longer matches: fio fails on it too */
	write_both(d);
	assert_int_equal(tc_sh("cd %s && cp iw/" STATE " bad/ && printf 'x' | "
			       "dd of=bad/" STATE " bs=1 seek=60 conv=notrunc "
			       "2>/dev/null", d), 0);
	expect_refused(d, "bad", "--verify_state_load=1", "corrupt");
	assert_int_equal(tc_sh("cd %s && cp iw/d.dat bad/f.dat", d), 0);
	assert_int_not_equal(tc_sh("cd %s/bad && timeout 60 fio --name=w "
				   "--filename=f.dat --rw=read --bs=4k --size=1M "
				   "--verify=crc32c --verify_state_load=1 "
				   ">/dev/null 2>&1", d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_cross, tc_setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_state, tc_setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
